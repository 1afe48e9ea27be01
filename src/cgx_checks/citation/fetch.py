"""The safe fetcher: GET a source for a citation check from public addresses only.

The URL comes from an agent, and through it possibly from a page written to mislead it, so the
fetcher treats it as hostile. The classic escape is DNS: check that `evil.example` resolves to a
public address, then let the HTTP library resolve it again and connect to whatever the second
answer says (DNS rebinding), or follow a redirect to `http://169.254.169.254/` unchecked. Here:

* the URL is parsed once, strictly (`urls.parse_url`), and the request is built from its parts;
* the host is resolved once, EVERY address is checked against the policy's rule, and the
  connection goes to a checked address: the request URL carries the IP, the Host header and the
  TLS server name carry the original host (so virtual hosting and certificate checks still work);
  an httpcore trace hook refuses a connection to any other address, as a second line of defence;
* redirects are not followed by httpx: each Location is parsed, resolved and checked like the
  first URL, at most `max_redirects` times, and a URL seen twice is a loop;
* no proxy from the environment (`trust_env=False`), a fresh connection per hop (no pooled
  connection verified for another host is reused), connect and read timeouts, a total deadline
  enforced by a watchdog that shuts the socket, and the body streamed under a cap on the bytes
  received and on the bytes after decompression (gzip or deflate, decoded here with a bounded
  output so a small bomb cannot expand in memory).

Tests reach a server on loopback by building their own `FetchPolicy` with a resolver and an address
rule that admit it; `DEFAULT_POLICY` is never changed and nothing reads a test flag.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
import time
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from types import TracebackType
from typing import Any, Final, Self

import attrs
import httpx

from cgx_checks.citation.addresses import IPAddress, is_public, refusal_reason
from cgx_checks.citation.codes import CitationCode
from cgx_checks.citation.text import media_type
from cgx_checks.citation.urls import ParsedUrl, parse_url, resolve_location
from cgx_core.errors import CgxError

type Resolver = Callable[[str], Sequence[str]]
"""A host name -> the IP addresses it resolves to, as strings."""

type AddressRule = Callable[[IPAddress], bool]
"""True when the fetcher may connect to the address."""

MiB: Final = 1 << 20
RESOLVE_TIMEOUT: Final = 10.0
REDIRECT_STATUSES: Final = frozenset({301, 302, 303, 307, 308})
USER_AGENT: Final = "credencegraph-extract (citation-support check)"
DEFAULT_CONTENT_TYPES: Final = frozenset(
    {
        "text/html",
        "application/xhtml+xml",
        "text/plain",
        "application/pdf",
        "application/x-tex",
        "application/x-latex",
        "text/x-tex",
        "text/x-latex",
    }
)


def system_resolver(host: str) -> list[str]:
    """Resolve `host` with the system's resolver (`getaddrinfo`), in at most `RESOLVE_TIMEOUT` seconds.

    `getaddrinfo` cannot be interrupted, so it runs in a daemon thread that is abandoned on timeout.
    """
    answers: list[str] = []
    failures: list[OSError] = []

    def work() -> None:
        try:
            infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
        except OSError as exc:  # gaierror included
            failures.append(exc)
            return
        answers.extend(str(info[4][0]) for info in infos)

    worker = threading.Thread(target=work, name=f"resolve {host}", daemon=True)
    worker.start()
    worker.join(RESOLVE_TIMEOUT)
    if worker.is_alive():
        raise CgxError(CitationCode.FETCH_TIMEOUT, f"resolving {host!r} took more than {RESOLVE_TIMEOUT:g} s")
    if failures:
        raise CgxError(CitationCode.FETCH_FAILED, f"cannot resolve {host!r}: {failures[0]}")
    return list(dict.fromkeys(answers))


@attrs.frozen
class Limits:
    """How much and how long one fetch may take; every hop counts against the same deadline."""

    max_bytes: int = 20 * MiB
    """Cap on the body after decompression: what is kept in memory and read as text."""
    max_raw_bytes: int = 20 * MiB
    """Cap on the body as received."""
    connect_timeout: float = 10.0
    read_timeout: float = 20.0
    """Longest wait for any one read from the server."""
    deadline: float = 60.0
    """Longest time for the whole fetch, all hops included."""
    max_redirects: int = 5


@attrs.frozen
class FetchPolicy:
    """Everything the fetcher trusts: how names resolve, which addresses it connects to, its limits.

    `tls_context` None means httpx's default verification against certifi's roots.
    """

    resolver: Resolver = system_resolver
    address_rule: AddressRule = is_public
    limits: Limits = Limits()
    content_types: frozenset[str] = DEFAULT_CONTENT_TYPES
    tls_context: Any = attrs.field(default=None, eq=False)
    """An `ssl.SSLContext` to verify servers with, or None for the default one."""
    connect_port: Callable[[int], int] = attrs.field(default=lambda port: port, eq=False)
    """The port to connect to for a URL's port: the URL's own, except in the tests' policies, which serve a
    registry's https (port 443, which a test may not count on being free) from a loopback server's own port."""


DEFAULT_POLICY: Final = FetchPolicy()


@attrs.frozen
class Hop:
    """One request of a fetch: the URL asked for, the status it answered, the address it came from."""

    url: str
    status: int
    address: str


class FetchError(CgxError):
    """A fetch that failed: its code and message, and the hops answered before it failed (a 404's hop
    included), so that a check can record what happened and replay can give the same error back."""

    def __init__(self, code: str, message: str, hops: Sequence[Hop] = ()) -> None:
        super().__init__(code, message)
        self.hops: tuple[Hop, ...] = tuple(hops)


type HopRule = Callable[[ParsedUrl], None]
"""Called with every URL a fetch is about to request, before any lookup or connection for it; raises
`CgxError` to stop the fetch there (a citation check stops an arXiv tie at a redirect off arXiv)."""


@attrs.frozen
class Fetched:
    """A fetched source: every hop, the final URL, its media type and charset, and the body."""

    hops: tuple[Hop, ...]
    final_url: str
    content_type: str
    """The media type, lower-case, without parameters (`text/html`)."""
    charset: str | None
    """The charset parameter of the Content-Type header, lower-case, when it had one."""
    body: bytes


class _Watchdog:
    """Enforces the total deadline: when it expires, it shuts the socket the fetch is reading.

    Connect and read timeouts bound each wait; only this bounds a server that sends one byte
    just before each read timeout.
    """

    def __init__(self, seconds: float) -> None:
        self._lock = threading.Lock()
        self._socket: socket.socket | None = None
        self.fired = False
        self._seconds = seconds
        self._end = time.monotonic() + seconds
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.daemon = True

    def __enter__(self) -> Self:
        self._timer.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self._timer.cancel()

    def _fire(self) -> None:
        with self._lock:
            self.fired = True
            if self._socket is not None:
                _shut(self._socket)

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            self._socket = sock
            if self.fired:
                _shut(sock)

    def remaining(self) -> float:
        return self._end - time.monotonic()

    def check(self) -> None:
        if self.fired or self.remaining() <= 0:
            self.fired = True
            raise self.error()

    def error(self) -> CgxError:
        return CgxError(CitationCode.FETCH_TIMEOUT, f"the fetch took longer than its {self._seconds:g} s deadline")


def _shut(sock: socket.socket) -> None:
    # The base class's shutdown, not SSLSocket's, which would also drop the TLS object under the reader.
    with suppress(OSError):
        socket.socket.shutdown(sock, socket.SHUT_RDWR)


def _addresses(parsed: ParsedUrl, policy: FetchPolicy) -> list[IPAddress]:
    """The checked addresses of a URL's host: all of them pass the rule, or the URL is refused."""
    if parsed.literal is not None:
        candidates: list[IPAddress] = [parsed.literal]
    else:
        try:
            answers = list(policy.resolver(parsed.host))
        except OSError as exc:  # a resolver's own CgxError (such as a timeout) passes through
            raise CgxError(CitationCode.FETCH_FAILED, f"cannot resolve {parsed.host!r}: {exc}") from exc
        if not answers:
            raise CgxError(CitationCode.FETCH_FAILED, f"{parsed.host!r} resolves to no address")
        candidates = []
        for answer in answers:
            try:
                candidates.append(ipaddress.ip_address(answer))
            except ValueError as exc:
                raise CgxError(
                    CitationCode.FETCH_REFUSED, f"{parsed.host!r} resolves to {answer!r}, which is not an IP address"
                ) from exc
    for address in candidates:
        if not policy.address_rule(address):
            why = refusal_reason(address) or f"{address} is refused by the fetch policy"
            where = "" if parsed.literal is not None else f"{parsed.host!r} resolves to an address that is not public: "
            raise CgxError(CitationCode.FETCH_REFUSED, f"refused {parsed.url}: {where}{why}")
    return list(dict.fromkeys(candidates))


class _Inflater:
    """Decodes a gzip or deflate body with bounded output per step, counting toward the cap."""

    def __init__(self, encoding: str, cap: int) -> None:
        self._cap = cap
        self._total = 0
        self._raw_fallback = encoding == "deflate"
        wbits = 16 + zlib.MAX_WBITS if encoding in ("gzip", "x-gzip") else zlib.MAX_WBITS
        self._inflater = zlib.decompressobj(wbits)
        self._started = False

    def feed(self, data: bytes) -> Iterator[bytes]:
        if not self._started and self._raw_fallback:
            self._started = True
            try:
                probe = zlib.decompressobj(zlib.MAX_WBITS)
                probe.decompress(data[:2])
            except zlib.error:
                # Some servers send raw deflate under "deflate"; accept it as browsers do.
                self._inflater = zlib.decompressobj(-zlib.MAX_WBITS)
        self._started = True
        pending = data
        while pending and not self._inflater.eof:
            out = self._inflater.decompress(pending, self._cap - self._total + 1)
            self._total += len(out)
            if self._total > self._cap:
                raise CgxError(CitationCode.FETCH_TOO_LARGE, f"the decompressed body is larger than {self._cap} bytes")
            if out:
                yield out
            pending = self._inflater.unconsumed_tail

    def finish(self) -> None:
        if not self._inflater.eof:
            raise CgxError(CitationCode.FETCH_FAILED, "the compressed body is truncated")


def _read_body(response: httpx.Response, policy: FetchPolicy, watchdog: _Watchdog) -> bytes:
    limits = policy.limits
    length = response.headers.get("content-length")
    if length is not None and length.strip().isdigit() and int(length) > limits.max_raw_bytes:
        raise CgxError(
            CitationCode.FETCH_TOO_LARGE,
            f"the body is {int(length)} bytes, larger than the cap of {limits.max_raw_bytes}",
        )
    codings = [
        coding.strip().lower()
        for coding in response.headers.get("content-encoding", "").split(",")
        if coding.strip().lower() not in ("", "identity")
    ]
    if len(codings) > 1 or (codings and codings[0] not in ("gzip", "x-gzip", "deflate")):
        raise CgxError(CitationCode.FETCH_FAILED, f"content encoding {', '.join(codings)!r} is not supported")
    inflater = _Inflater(codings[0], limits.max_bytes) if codings else None
    parts: list[bytes] = []
    raw_total = 0
    decoded_total = 0
    for chunk in response.iter_raw():
        watchdog.check()
        raw_total += len(chunk)
        if raw_total > limits.max_raw_bytes:
            raise CgxError(
                CitationCode.FETCH_TOO_LARGE, f"the body is larger than the cap of {limits.max_raw_bytes} bytes"
            )
        for piece in inflater.feed(chunk) if inflater is not None else (chunk,):
            decoded_total += len(piece)
            if decoded_total > limits.max_bytes:
                raise CgxError(
                    CitationCode.FETCH_TOO_LARGE, f"the body is larger than the cap of {limits.max_bytes} bytes"
                )
            parts.append(piece)
    watchdog.check()
    if inflater is not None:
        inflater.finish()
    return b"".join(parts)


@contextmanager
def _client(policy: FetchPolicy, watchdog: _Watchdog) -> Iterator[httpx.Client]:
    limits = policy.limits
    timeout = httpx.Timeout(
        connect=limits.connect_timeout, read=limits.read_timeout, write=limits.read_timeout, pool=limits.connect_timeout
    )
    verify = policy.tls_context if policy.tls_context is not None else httpx.create_ssl_context(trust_env=False)
    with httpx.Client(
        trust_env=False, follow_redirects=False, timeout=timeout, verify=verify, http1=True, http2=False
    ) as client:
        yield client


class _PinBroken(Exception):
    """The HTTP stack tried to connect to an address other than the checked one (a bug, never expected)."""


def _pinned_request(
    client: httpx.Client, parsed: ParsedUrl, address: IPAddress, port: int, watchdog: _Watchdog
) -> httpx.Request:
    host = f"[{address}]" if address.version == 6 else str(address)
    expected = str(address)

    def trace(name: str, info: dict[str, Any]) -> None:
        if name == "connection.connect_tcp.started" and info.get("host") != expected:
            raise _PinBroken(f"connection to {info.get('host')!r} instead of the checked {expected}")
        if name in ("connection.connect_tcp.complete", "connection.start_tls.complete"):
            sock = info["return_value"].get_extra_info("socket")
            if isinstance(sock, socket.socket):
                watchdog.watch(sock)

    extensions: dict[str, Any] = {"trace": trace}
    if parsed.scheme == "https" and parsed.literal is None:
        extensions["sni_hostname"] = parsed.host
    return client.build_request(
        "GET",
        f"{parsed.scheme}://{host}:{port}{parsed.target}",
        headers={
            "Host": parsed.host_header,
            "User-Agent": USER_AGENT,
            "Accept": ", ".join(sorted(DEFAULT_CONTENT_TYPES)) + ", */*;q=0.1",
            "Accept-Encoding": "gzip, deflate",
        },
        extensions=extensions,
    )


@attrs.frozen
class _Answer:
    hop: Hop
    location: str | None
    content_type: str = ""
    charset: str | None = None
    body: bytes = b""


def _send(
    client: httpx.Client, parsed: ParsedUrl, address: IPAddress, policy: FetchPolicy, watchdog: _Watchdog
) -> _Answer:
    request = _pinned_request(client, parsed, address, policy.connect_port(parsed.port), watchdog)
    response = client.send(request, stream=True)
    hop = Hop(url=parsed.url, status=response.status_code, address=str(address))
    try:
        return _answer(response, hop, parsed, policy, watchdog)
    except FetchError:
        raise
    except CgxError as error:  # the server answered: the failure keeps the hop that answered
        raise FetchError(error.code, error.message, (hop,)) from None
    finally:
        response.close()


def _answer(response: httpx.Response, hop: Hop, parsed: ParsedUrl, policy: FetchPolicy, watchdog: _Watchdog) -> _Answer:
    """What one response says: a redirect, or a body the policy accepts; anything else is an error."""
    if response.status_code in REDIRECT_STATUSES:
        location = response.headers.get("location")
        if location is None:
            raise CgxError(CitationCode.FETCH_FAILED, f"{parsed.url} answered {response.status_code} with no Location")
        return _Answer(hop=hop, location=location)
    if response.status_code != 200:
        raise CgxError(CitationCode.FETCH_FAILED, f"{parsed.url} answered HTTP status {response.status_code}")
    media, charset = media_type(response.headers.get("content-type"))
    if media not in policy.content_types:
        shown = media or "no content type"
        raise CgxError(
            CitationCode.FETCH_CONTENT_TYPE,
            f"{parsed.url} is {shown!r}; the tool reads {', '.join(sorted(policy.content_types))}",
        )
    body = _read_body(response, policy, watchdog)
    return _Answer(hop=hop, location=None, content_type=media, charset=charset, body=body)


def _hop(parsed: ParsedUrl, policy: FetchPolicy, watchdog: _Watchdog) -> _Answer:
    """One request to the first checked address that accepts a connection."""
    addresses = _addresses(parsed, policy)
    failure: CgxError | None = None
    for address in addresses:
        watchdog.check()
        try:
            with _client(policy, watchdog) as client:
                return _send(client, parsed, address, policy, watchdog)
        except CgxError:
            raise
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            if watchdog.fired:
                raise watchdog.error() from exc
            code = CitationCode.FETCH_TIMEOUT if isinstance(exc, httpx.ConnectTimeout) else CitationCode.FETCH_FAILED
            failure = CgxError(
                code, f"cannot connect to {parsed.host_header} at {address}: {exc or type(exc).__name__}"
            )
        except httpx.TimeoutException as exc:
            raise CgxError(
                CitationCode.FETCH_TIMEOUT, f"{parsed.url} did not answer in time ({type(exc).__name__})"
            ) from exc
        except (httpx.HTTPError, httpx.InvalidURL, httpx.StreamError, OSError) as exc:
            if watchdog.fired:
                raise watchdog.error() from exc
            raise CgxError(
                CitationCode.FETCH_FAILED, f"fetching {parsed.url} failed: {exc or type(exc).__name__}"
            ) from exc
    assert failure is not None  # `_addresses` returns at least one address
    raise failure


def fetch(url: str, *, policy: FetchPolicy = DEFAULT_POLICY, allow: HopRule | None = None) -> Fetched:
    """GET `url` under `policy`, following at most `max_redirects` redirects, each hop checked (and
    given to `allow` first, when there is one).

    Raises `FetchError` (a `CgxError`, with the hops answered before it failed) with `fetch-refused` (URL
    or address not allowed, before any connection), `fetch-failed`, `fetch-too-large`, `fetch-timeout`,
    `fetch-content-type`, `fetch-redirects`, or the code `allow` raised.
    """
    parsed = parse_url(url)
    hops: list[Hop] = []
    try:
        return _fetch(parsed, url, hops, policy, allow)
    except FetchError as error:
        raise FetchError(error.code, error.message, (*hops, *error.hops)) from None
    except CgxError as error:
        raise FetchError(error.code, error.message, hops) from None


def _fetch(parsed: ParsedUrl, url: str, hops: list[Hop], policy: FetchPolicy, allow: HopRule | None) -> Fetched:
    seen = {parsed.url}
    with _Watchdog(policy.limits.deadline) as watchdog:
        while True:
            if allow is not None:
                allow(parsed)
            try:
                answer = _hop(parsed, policy, watchdog)
            except _PinBroken as exc:
                raise CgxError(CitationCode.FETCH_REFUSED, f"refused {parsed.url}: {exc}") from exc
            hops.append(answer.hop)
            if answer.location is None:
                return Fetched(
                    hops=tuple(hops),
                    final_url=parsed.url,
                    content_type=answer.content_type,
                    charset=answer.charset,
                    body=answer.body,
                )
            if len(hops) > policy.limits.max_redirects:
                raise CgxError(
                    CitationCode.FETCH_REDIRECTS, f"{url} redirects more than {policy.limits.max_redirects} times"
                )
            parsed = resolve_location(parsed, answer.location)
            if parsed.url in seen:
                raise CgxError(CitationCode.FETCH_REDIRECTS, f"{url} redirects in a loop back to {parsed.url}")
            seen.add(parsed.url)
