"""The fetcher against a real HTTP server on loopback, reached through the test-only policy.

Every test runs under the connection guard: a connect to anything but the test server, or a system
name lookup, fails the test and is recorded, so "refused" always means "refused before connecting".
"""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Callable, Iterator
from ipaddress import IPv4Address, IPv6Address

import attrs
import httpx
import pytest
from citation_testkit import (
    ABSTRACT_HTML,
    BOMB_SIZE,
    LANDING_HTML,
    ConnectGuard,
    FakeResolver,
    LoopbackServer,
    RebindingResolver,
    admit_loopback,
    guarded,
    loopback_policy,
    tls_contexts,
)

from cgx_checks.citation.addresses import is_public
from cgx_checks.citation.codes import CitationCode
from cgx_checks.citation.fetch import (
    DEFAULT_POLICY,
    FetchError,
    FetchPolicy,
    _Inflater,
    _PinBroken,
    _pinned_request,
    _Watchdog,
    fetch,
    system_resolver,
)
from cgx_checks.citation.text import extract_text, kind_for
from cgx_checks.citation.urls import ParsedUrl, parse_url
from cgx_core.codes import Code
from cgx_core.errors import CgxError

NAMES = {
    "arxiv.test": ["127.0.0.1"],
    "doi.test": ["127.0.0.1"],
    "publisher.test": ["127.0.0.1"],
    "internal.test": ["10.0.0.7"],
    "mixed.test": ["127.0.0.1", "10.0.0.8"],
}


@pytest.fixture
def guard(monkeypatch: pytest.MonkeyPatch, server: LoopbackServer) -> Iterator[ConnectGuard]:
    with guarded(monkeypatch, {("127.0.0.1", server.port)}) as active:
        yield active


@pytest.fixture
def policy() -> FetchPolicy:
    return loopback_policy(FakeResolver(dict(NAMES)))


def refused(call: Callable[[], object]) -> CgxError:
    with pytest.raises(CgxError) as caught:
        call()
    return caught.value


def test_arxiv_like_abstract_page_is_fetched_and_read(
    server: LoopbackServer, guard: ConnectGuard, policy: FetchPolicy
) -> None:
    fetched = fetch(server.url("arxiv.test", "/abs/2101.00001"), policy=policy)
    assert fetched.content_type == "text/html"
    assert fetched.charset == "utf-8"
    assert fetched.body == ABSTRACT_HTML.encode()
    assert [(hop.url, hop.status, hop.address) for hop in fetched.hops] == [
        (f"http://arxiv.test:{server.port}/abs/2101.00001", 200, "127.0.0.1")
    ]
    text = extract_text(fetched.body, kind_for(fetched.content_type), charset=fetched.charset).text
    assert "measured efﬁciency of the detector" in text
    assert "script text" not in text and "style text" not in text
    assert guard.connects == [("127.0.0.1", server.port)]


def test_request_goes_to_the_checked_address_with_the_original_host_header(
    server: LoopbackServer, guard: ConnectGuard, policy: FetchPolicy
) -> None:
    fetched = fetch(server.url("ARXIV.test", "/echo-host"), policy=policy)
    assert fetched.body == f"host header: arxiv.test:{server.port}".encode()
    assert guard.connects == [("127.0.0.1", server.port)]
    assert guard.lookups == []


def test_pdf_redirect_to_versioned_pdf(server: LoopbackServer, guard: ConnectGuard, policy: FetchPolicy) -> None:
    fetched = fetch(server.url("arxiv.test", "/pdf/2101.00001"), policy=policy)
    assert [hop.status for hop in fetched.hops] == [302, 200]
    assert fetched.final_url == f"http://arxiv.test:{server.port}/pdf/2101.00001v2"
    assert fetched.content_type == "application/pdf"
    source = extract_text(fetched.body, "pdf")
    assert len(source.pages) == 2


def test_doi_like_redirect_chain_across_hosts(server: LoopbackServer, guard: ConnectGuard, policy: FetchPolicy) -> None:
    fetched = fetch(server.url("doi.test", "/10.1000/xyz"), policy=policy)
    assert [hop.url for hop in fetched.hops] == [
        f"http://doi.test:{server.port}/10.1000/xyz",
        f"http://publisher.test:{server.port}/handle/xyz",
        f"http://publisher.test:{server.port}/article/xyz",
    ]
    assert fetched.body == LANDING_HTML.encode()
    hosts = [host for path, host, _ in server.requests[-3:]]
    assert hosts == [f"doi.test:{server.port}", f"publisher.test:{server.port}", f"publisher.test:{server.port}"]


def test_exactly_five_redirects_are_followed(server: LoopbackServer, guard: ConnectGuard, policy: FetchPolicy) -> None:
    fetched = fetch(server.url("arxiv.test", "/five/0"), policy=policy)
    assert len(fetched.hops) == 6
    assert fetched.body == b"after exactly five redirects"


def test_gzip_body_is_decoded(server: LoopbackServer, guard: ConnectGuard, policy: FetchPolicy) -> None:
    assert fetch(server.url("publisher.test", "/gzipped"), policy=policy).body == LANDING_HTML.encode()


@pytest.mark.parametrize(
    ("path", "code", "words"),
    [
        ("/to-private", CitationCode.FETCH_REFUSED, "10.0.0.1 is private"),
        ("/to-private-name", CitationCode.FETCH_REFUSED, "'internal.test' resolves to an address that is not public"),
        ("/to-metadata-decimal", CitationCode.FETCH_REFUSED, "numeric host"),
        ("/to-file", CitationCode.FETCH_REFUSED, "scheme 'file'"),
        ("/loop-a", CitationCode.FETCH_REDIRECTS, "loop"),
        ("/chain/0", CitationCode.FETCH_REDIRECTS, "more than 5"),
        ("/no-location", CitationCode.FETCH_FAILED, "no Location"),
        ("/big", CitationCode.FETCH_TOO_LARGE, "2097152 bytes"),
        ("/big-undeclared", CitationCode.FETCH_TOO_LARGE, "cap"),
        ("/bomb", CitationCode.FETCH_TOO_LARGE, "decompressed body is larger"),
        ("/brotli", CitationCode.FETCH_FAILED, "content encoding 'br'"),
        ("/image", CitationCode.FETCH_CONTENT_TYPE, "'image/png'"),
        ("/no-type", CitationCode.FETCH_CONTENT_TYPE, "no content type"),
        ("/missing", CitationCode.FETCH_FAILED, "status 404"),
    ],
)
def test_misbehaving_server_gives_a_clear_code(
    server: LoopbackServer, guard: ConnectGuard, policy: FetchPolicy, path: str, code: Code, words: str
) -> None:
    error = refused(lambda: fetch(server.url("arxiv.test", path), policy=policy))
    assert error.code == code
    assert words in error.message
    assert guard.refused == [], "a redirect reached an address it must not"
    assert all(address == ("127.0.0.1", server.port) for address in guard.connects)


def test_redirect_to_private_address_is_refused_at_that_hop(
    server: LoopbackServer, guard: ConnectGuard, policy: FetchPolicy
) -> None:
    before = len(server.requests)
    refused(lambda: fetch(server.url("arxiv.test", "/to-private"), policy=policy))
    assert [path for path, _, _ in server.requests[before:]] == ["/to-private"]
    assert guard.connects == [("127.0.0.1", server.port)]


def test_slow_body_times_out(server: LoopbackServer, guard: ConnectGuard) -> None:
    policy = loopback_policy(FakeResolver(dict(NAMES)), read_timeout=0.3)
    assert refused(lambda: fetch(server.url("arxiv.test", "/slow"), policy=policy)).code == CitationCode.FETCH_TIMEOUT


def test_drip_fed_body_hits_the_total_deadline(server: LoopbackServer, guard: ConnectGuard) -> None:
    policy = loopback_policy(FakeResolver(dict(NAMES)), read_timeout=5.0, deadline=0.5)
    error = refused(lambda: fetch(server.url("arxiv.test", "/drip"), policy=policy))
    assert error.code == CitationCode.FETCH_TIMEOUT
    assert "deadline" in error.message


def test_not_utf8_text_is_fetched_but_unreadable(
    server: LoopbackServer, guard: ConnectGuard, policy: FetchPolicy
) -> None:
    fetched = fetch(server.url("arxiv.test", "/latin1"), policy=policy)
    error = refused(lambda: extract_text(fetched.body, kind_for(fetched.content_type), charset=fetched.charset))
    assert error.code == CitationCode.SOURCE_UNREADABLE
    assert "not valid utf-8 at byte 3" in error.message


def test_declared_charset_is_honoured(server: LoopbackServer, guard: ConnectGuard, policy: FetchPolicy) -> None:
    fetched = fetch(server.url("arxiv.test", "/latin1-declared"), policy=policy)
    assert fetched.charset == "iso-8859-1"
    assert extract_text(fetched.body, "txt", charset=fetched.charset).text.startswith("the café")


def test_name_with_one_private_address_is_refused_without_connecting(
    server: LoopbackServer, guard: ConnectGuard, policy: FetchPolicy
) -> None:
    error = refused(lambda: fetch(server.url("mixed.test", "/echo-host"), policy=policy))
    assert error.code == CitationCode.FETCH_REFUSED
    assert "10.0.0.8 is private" in error.message
    assert guard.connects == []


def test_rebinding_name_is_resolved_once_and_the_checked_address_is_used(
    server: LoopbackServer, guard: ConnectGuard
) -> None:
    resolver = RebindingResolver(first=["127.0.0.1"], then=["10.0.0.9"])
    fetched = fetch(server.url("rebind.test", "/echo-host"), policy=loopback_policy(resolver))
    assert fetched.hops[0].address == "127.0.0.1"
    assert resolver.calls == ["rebind.test"]
    assert guard.connects == [("127.0.0.1", server.port)]
    assert guard.lookups == []


def test_rebinding_between_hops_is_caught_at_the_next_hop(server: LoopbackServer, guard: ConnectGuard) -> None:
    resolver = RebindingResolver(first=["127.0.0.1"], then=["10.0.0.9"])
    error = refused(lambda: fetch(server.url("rebind.test", "/pdf/2101.00001"), policy=loopback_policy(resolver)))
    assert error.code == CitationCode.FETCH_REFUSED
    assert resolver.calls == ["rebind.test", "rebind.test"]
    assert guard.connects == [("127.0.0.1", server.port)]


def test_default_policy_refuses_the_loopback_server(server: LoopbackServer, guard: ConnectGuard) -> None:
    error = refused(lambda: fetch(f"http://127.0.0.1:{server.port}/echo-host"))
    assert error.code == CitationCode.FETCH_REFUSED
    assert "loopback" in error.message
    assert FetchPolicy() == DEFAULT_POLICY
    assert guard.connects == []


def test_tls_uses_the_host_name_for_sni_and_certificate_while_connecting_to_the_ip(
    monkeypatch: pytest.MonkeyPatch, serve_tls: Callable[..., LoopbackServer]
) -> None:
    server_context, client_context = tls_contexts(["arxiv.test"])
    tls_server = serve_tls(server_context)
    policy = loopback_policy(FakeResolver(dict(NAMES)), tls_context=client_context)
    with guarded(monkeypatch, {("127.0.0.1", tls_server.port)}) as guard:
        fetched = fetch(tls_server.url("arxiv.test", "/abs/2101.00001"), policy=policy)
    assert fetched.body == ABSTRACT_HTML.encode()
    assert tls_server.requests[-1] == ("/abs/2101.00001", f"arxiv.test:{tls_server.port}", "arxiv.test")
    assert guard.connects == [("127.0.0.1", tls_server.port)]


def test_tls_certificate_for_another_name_is_refused(
    monkeypatch: pytest.MonkeyPatch, serve_tls: Callable[..., LoopbackServer]
) -> None:
    server_context, client_context = tls_contexts(["someone-else.test"])
    tls_server = serve_tls(server_context)
    policy = loopback_policy(FakeResolver(dict(NAMES)), tls_context=client_context)
    with guarded(monkeypatch, {("127.0.0.1", tls_server.port)}):
        error = refused(lambda: fetch(tls_server.url("arxiv.test", "/abs/2101.00001"), policy=policy))
    assert error.code == CitationCode.FETCH_FAILED
    assert "certificate" in error.message.lower()


def test_inflater_output_is_bounded_per_step() -> None:
    """A gzip bomb never expands past the cap in memory: each step yields at most cap + 1 bytes."""
    bomb = gzip.compress(b"\0" * BOMB_SIZE)
    inflater = _Inflater("gzip", 1000)
    produced: list[int] = []
    with pytest.raises(CgxError) as caught:
        for piece in inflater.feed(bomb):
            produced.append(len(piece))
    assert caught.value.code == CitationCode.FETCH_TOO_LARGE
    assert sum(produced) <= 1000


@pytest.mark.parametrize("raw", [False, True])
def test_inflater_reads_zlib_and_raw_deflate(raw: bool) -> None:
    compressor = zlib.compressobj(wbits=-zlib.MAX_WBITS if raw else zlib.MAX_WBITS)
    data = compressor.compress(LANDING_HTML.encode()) + compressor.flush()
    inflater = _Inflater("deflate", 1 << 20)
    assert b"".join(inflater.feed(data)) == LANDING_HTML.encode()
    inflater.finish()


def test_truncated_gzip_body_fails() -> None:
    data = gzip.compress(LANDING_HTML.encode())[:-12]
    inflater = _Inflater("gzip", 1 << 20)
    list(inflater.feed(data))
    assert refused(inflater.finish).code == CitationCode.FETCH_FAILED


def test_trace_hook_refuses_a_connection_to_an_unchecked_address() -> None:
    """The second line of defence: should the HTTP stack ever connect elsewhere, the pin breaks the fetch."""
    parsed = parse_url("https://arxiv.test/abs/2101.00001")
    with httpx.Client() as client, _Watchdog(5.0) as watchdog:
        request = _pinned_request(client, parsed, IPv4Address("127.0.0.1"), parsed.port, watchdog)
        trace = request.extensions["trace"]
        assert request.url.host == "127.0.0.1"
        assert request.headers["Host"] == "arxiv.test"
        assert request.extensions["sni_hostname"] == "arxiv.test"
        trace("connection.connect_tcp.started", {"host": "127.0.0.1", "port": 443})
        with pytest.raises(_PinBroken):
            trace("connection.connect_tcp.started", {"host": "10.0.0.1", "port": 443})


def test_ipv6_literal_is_bracketed_in_the_request() -> None:
    parsed = parse_url("http://[2606:4700::1111]:8080/x")
    with httpx.Client() as client, _Watchdog(5.0) as watchdog:
        request = _pinned_request(client, parsed, IPv6Address("2606:4700::1111"), parsed.port, watchdog)
    assert request.url.host == "2606:4700::1111"
    assert request.headers["Host"] == "[2606:4700::1111]:8080"
    assert "sni_hostname" not in request.extensions


def test_default_policy_cannot_be_changed() -> None:
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        DEFAULT_POLICY.address_rule = admit_loopback  # type: ignore[misc]
    assert DEFAULT_POLICY.address_rule is is_public


def test_system_resolver_reads_the_hosts_file() -> None:
    assert "127.0.0.1" in system_resolver("localhost")


def test_a_hop_rule_stops_a_redirect_before_its_host_is_resolved_or_reached(
    server: LoopbackServer, guard: ConnectGuard
) -> None:
    resolver = FakeResolver(dict(NAMES))

    def stay_on_doi_test(hop: ParsedUrl) -> None:
        if hop.host != "doi.test":
            raise CgxError(CitationCode.SOURCE_UNTIED, f"left doi.test for {hop.host}")

    before = len(server.requests)
    error = refused(
        lambda: fetch(server.url("doi.test", "/10.1000/xyz"), policy=loopback_policy(resolver), allow=stay_on_doi_test)
    )
    assert isinstance(error, FetchError)
    assert error.code == CitationCode.SOURCE_UNTIED
    assert [(hop.url, hop.status) for hop in error.hops] == [(f"http://doi.test:{server.port}/10.1000/xyz", 302)]
    assert resolver.calls == ["doi.test"]  # publisher.test was never looked up
    assert len(server.requests) == before + 1


def test_a_failed_fetch_keeps_every_hop_answered_before_it_failed(
    server: LoopbackServer, guard: ConnectGuard, policy: FetchPolicy
) -> None:
    error = refused(lambda: fetch(server.url("arxiv.test", "/missing"), policy=policy))
    assert isinstance(error, FetchError)
    assert (error.code, [hop.status for hop in error.hops]) == (CitationCode.FETCH_FAILED, [404])
    error = refused(lambda: fetch(server.url("arxiv.test", "/to-private"), policy=policy))
    assert isinstance(error, FetchError)
    assert (error.code, [hop.status for hop in error.hops]) == (CitationCode.FETCH_REFUSED, [302])
    error = refused(lambda: fetch("http://nowhere.test/", policy=policy))
    assert isinstance(error, FetchError)
    assert (error.code, error.hops) == (CitationCode.FETCH_FAILED, ())
