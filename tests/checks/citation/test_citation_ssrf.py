"""The SSRF corpus: every input is refused with zero connections and zero system name lookups.

Offline: a fake resolver answers names, and the connection guard fails the test on any connect or
`getaddrinfo` call. A redirect from a public address to a private one, and a name that rebinds
between check and connect, need a server: they are in test_citation_fetch.py, on loopback.
"""

from __future__ import annotations

import socket

import pytest
from citation_testkit import FakeResolver, RebindingResolver, guarded
from hypothesis import given
from hypothesis import strategies as st

from cgx_checks.citation.codes import CitationCode
from cgx_checks.citation.fetch import FetchPolicy, fetch
from cgx_checks.citation.urls import parse_url
from cgx_core.errors import CgxError

LITERALS = [
    # loopback in every spelling
    "http://127.0.0.1/",
    "http://127.1/",
    "http://127.0.1/",
    "http://2130706433/",
    "http://0x7f000001/",
    "http://017700000001/",
    "http://0x7f.0.0.1/",
    "http://0177.0.0.1/",
    "http://127.000.000.001/",
    "http://127.0.0.1./",
    "http://localhost/",
    "http://LOCALHOST./",
    "http://api.localhost/",
    "http://[::1]/",
    "http://[0:0:0:0:0:0:0:1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "https://127.0.0.1:8443/",
    # unspecified
    "http://0/",
    "http://0.0.0.0/",
    "http://[::]/",
    # cloud metadata
    "http://169.254.169.254/latest/meta-data/",
    "http://2852039166/latest/meta-data/",
    "http://0xa9fea9fe/",
    "http://[fd00:ec2::254]/latest/meta-data/",
    "http://100.100.100.200/latest/meta-data/",
    "http://[::ffff:a9fe:a9fe]/",
    # private, CGNAT, reserved, documentation, benchmarking
    "http://10.0.0.1/",
    "http://172.16.0.1/",
    "http://192.168.1.1/",
    "http://100.64.0.1/",
    "http://192.0.0.170/",
    "http://192.0.2.1/",
    "http://198.18.0.1/",
    "http://240.0.0.1/",
    "http://255.255.255.255/",
    "http://[2001:db8::1]/",
    # multicast
    "http://224.0.0.1/",
    "http://239.255.255.250:1900/",
    "http://[ff02::1]/",
    # IPv6 local ranges
    "http://[fec0::1]/",
    "http://[fe80::1]/",
    "http://[fe80::1%25eth0]/",
    "http://[fc00::1]/",
    # IPv4 embedded in IPv6
    "http://[64:ff9b::7f00:1]/",
    "http://[64:ff9b::808:808]/",
    "http://[64:ff9b:1::a00:1]/",
    "http://[2002:7f00:1::]/",
    "http://[2002:a9fe:a9fe::1]/",
    "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/",
    "http://[::127.0.0.1]/",
    # parser confusion
    "http://a@127.0.0.1/",
    "http://example.org@127.0.0.1/",
    "http://127.0.0.1#@example.org/",
    "http://127.0.0.1:80\\@example.org/",
    "http://127.0.0.1\t.example.org/",
    "http://127.0.0.1%2f@example.org/",
    "http://[::1]x/",
    "http://127.0.0.1:0/",
    "http://127.0.0.1:99999/",
    "http:/127.0.0.1/",
    "//127.0.0.1/",
    "http://intranet/",
    # other schemes
    "file:///etc/passwd",
    "gopher://127.0.0.1:70/_GET",
    "ftp://example.org/",
    "dict://127.0.0.1:11211/stat",
    "javascript:alert(1)",
    "data:text/plain,hello",
]

NAMES = {
    "points-home.example": ["127.0.0.1"],
    "nip.example": ["127.0.0.1"],
    "mixed.example": ["93.184.216.34", "10.1.2.3"],
    "mixed-order.example": ["10.1.2.3", "93.184.216.34"],
    "metadata.example": ["169.254.169.254"],
    "mapped.example": ["::ffff:169.254.169.254"],
    "ula.example": ["fd00::1"],
    "scoped.example": ["fe80::1%eth0"],
    "nat64.example": ["64:ff9b::a00:1"],
    "multicast.example": ["224.0.0.251"],
    "garbage.example": ["not-an-address"],
}
RESOLVED = [f"http://{name}/" for name in NAMES]


@pytest.fixture
def resolver() -> FakeResolver:
    return FakeResolver(dict(NAMES))


def test_the_corpus_has_at_least_40_inputs() -> None:
    assert len(LITERALS) + len(RESOLVED) >= 40
    assert len(set(LITERALS + RESOLVED)) == len(LITERALS) + len(RESOLVED)


@pytest.mark.parametrize("url", LITERALS)
def test_refused_before_resolving_or_connecting(
    monkeypatch: pytest.MonkeyPatch, resolver: FakeResolver, url: str
) -> None:
    with guarded(monkeypatch) as guard, pytest.raises(CgxError) as caught:
        fetch(url, policy=FetchPolicy(resolver=resolver))
    assert caught.value.code == CitationCode.FETCH_REFUSED, caught.value.message
    assert resolver.calls == []
    assert guard.connects == []
    assert guard.lookups == []


@pytest.mark.parametrize("url", RESOLVED)
def test_name_resolving_to_a_non_public_address_is_refused(
    monkeypatch: pytest.MonkeyPatch, resolver: FakeResolver, url: str
) -> None:
    with guarded(monkeypatch) as guard, pytest.raises(CgxError) as caught:
        fetch(url, policy=FetchPolicy(resolver=resolver))
    assert caught.value.code == CitationCode.FETCH_REFUSED, caught.value.message
    assert len(resolver.calls) == 1
    assert guard.connects == []
    assert guard.lookups == []


def test_rebinding_resolver_answering_private_first_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    resolver = RebindingResolver(first=["10.0.0.1"], then=["93.184.216.34"])
    with guarded(monkeypatch) as guard, pytest.raises(CgxError) as caught:
        fetch("http://rebind.example/", policy=FetchPolicy(resolver=resolver))
    assert caught.value.code == CitationCode.FETCH_REFUSED
    assert resolver.calls == ["rebind.example"]
    assert guard.connects == []


@pytest.mark.parametrize(("table", "words"), [({}, "cannot resolve"), ({"empty.example": []}, "no address")])
def test_unresolvable_name_fails_without_connecting(
    monkeypatch: pytest.MonkeyPatch, table: dict[str, list[str]], words: str
) -> None:
    with guarded(monkeypatch) as guard, pytest.raises(CgxError) as caught:
        fetch("http://empty.example/", policy=FetchPolicy(resolver=FakeResolver(table)))
    assert caught.value.code == CitationCode.FETCH_FAILED
    assert words in caught.value.message
    assert guard.connects == []


def test_the_guard_does_catch_a_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    """The guard is not vacuous: a public address passes the checks and its connect is caught."""
    with guarded(monkeypatch) as guard, pytest.raises(AssertionError):
        fetch("http://93.184.216.34/", policy=FetchPolicy(resolver=FakeResolver({})))
    assert guard.connects == [("93.184.216.34", 80)]


HOSTISH = st.text(alphabet="0123456789abcdefx.", min_size=1, max_size=24)


def _inet_aton_reads(host: str) -> bool:
    try:
        socket.inet_aton(host)
    except OSError:
        return False
    return True


@given(HOSTISH)
def test_no_host_accepted_as_a_name_is_an_ipv4_number_to_the_c_library(host: str) -> None:
    """Whatever we accept as a DNS name, the C library must not read as an IPv4 address, and whatever
    we accept as an IPv4 literal must be the address the C library reads."""
    try:
        parsed = parse_url(f"http://{host}/")
    except CgxError as error:
        assert error.code == CitationCode.FETCH_REFUSED
        return
    if parsed.literal is None:
        assert not _inet_aton_reads(parsed.host)
        assert not _inet_aton_reads(host)
    else:
        assert socket.inet_aton(host.rstrip(".")) == parsed.literal.packed
