"""Test helpers for the citation core: a hand-made PDF, a guard that counts connections, fake resolvers,
the test-only fetch policy that admits a server on loopback, and that server: a real HTTP server
serving arXiv-like and DOI-like pages and every misbehaviour the fetcher must refuse.

The policy is the only opening: production code has no flag for tests; a test builds its own
`FetchPolicy` whose resolver maps test names to 127.0.0.1 and whose address rule admits 127.0.0.1
on top of `is_public`.
"""

from __future__ import annotations

import gzip
import socket
import ssl
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from ipaddress import IPv4Address, ip_address
from typing import Any

import attrs

from cgx_checks.citation.addresses import IPAddress, is_public
from cgx_checks.citation.fetch import FetchPolicy, Limits
from cgx_checks.citation_support import CitationSupport
from cgx_core.checks.installed import CheckTypeRegistry, check_types_scope, installed_check_types
from support import make_pdf

LOOPBACK = IPv4Address("127.0.0.1")


@attrs.define
class ConnectGuard:
    """Records every outgoing connect and every system name lookup; refuses those not allowed.

    `allowed` holds (host, port) pairs a test's own loopback server listens on.
    """

    allowed: set[tuple[str, int]] = attrs.Factory(set)
    connects: list[Any] = attrs.Factory(list)
    refused: list[Any] = attrs.Factory(list)
    lookups: list[str] = attrs.Factory(list)

    def check_connect(self, address: Any) -> None:
        self.connects.append(address)
        key = (address[0], address[1]) if isinstance(address, tuple) else address
        if key not in self.allowed:
            self.refused.append(address)
            raise AssertionError(f"unexpected connect to {address!r}")

    def check_lookup(self, host: Any) -> None:
        """A numeric address needs no DNS (httpcore's connect passes the pinned IP through getaddrinfo);
        a name is a lookup the fetcher must never make itself."""
        text = host.decode() if isinstance(host, bytes) else str(host)
        try:
            ip_address(text)
        except ValueError:
            self.lookups.append(text)
            raise AssertionError(f"unexpected system name lookup of {text!r}") from None


@contextmanager
def guarded(monkeypatch: Any, allowed: set[tuple[str, int]] | None = None) -> Iterator[ConnectGuard]:
    """Patch the socket layer so that any connect or lookup outside `allowed` fails and is recorded."""
    guard = ConnectGuard(allowed=set(allowed or ()))
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex
    real_getaddrinfo = socket.getaddrinfo

    def connect(self: socket.socket, address: Any) -> None:
        guard.check_connect(address)
        real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        guard.check_connect(address)
        return real_connect_ex(self, address)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        guard.check_lookup(host)
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    yield guard


@attrs.define
class FakeResolver:
    """A resolver from a table, counting its calls; a missing name fails like an unknown host."""

    table: dict[str, list[str]]
    calls: list[str] = attrs.Factory(list)

    def __call__(self, host: str) -> list[str]:
        self.calls.append(host)
        if host not in self.table:
            raise OSError(f"unknown host {host}")
        return list(self.table[host])


@attrs.define
class RebindingResolver:
    """Answers `first` on the first lookup of a name and `then` on every later one (DNS rebinding)."""

    first: list[str]
    then: list[str]
    calls: list[str] = attrs.Factory(list)

    def __call__(self, host: str) -> list[str]:
        self.calls.append(host)
        return list(self.first if len(self.calls) == 1 else self.then)


def admit_loopback(address: IPAddress) -> bool:
    """The test-only address rule: public addresses, and 127.0.0.1 where the test server listens."""
    return address == LOOPBACK or is_public(address)


def loopback_policy(
    resolver: Callable[[str], Sequence[str]], *, tls_context: Any = None, https_port: int | None = None, **limits: Any
) -> FetchPolicy:
    """A policy for tests against a loopback server; small limits so the caps are quick to hit. With
    `https_port`, a URL's port 443 is that loopback server's port: the URLs are the registries' own, and no
    test needs port 443 free."""
    base: dict[str, Any] = {
        "max_bytes": 1 << 20,
        "max_raw_bytes": 1 << 20,
        "connect_timeout": 5.0,
        "read_timeout": 5.0,
        "deadline": 20.0,
    }
    base.update(limits)
    policy = FetchPolicy(resolver=resolver, address_rule=admit_loopback, limits=Limits(**base), tls_context=tls_context)
    if https_port is None:
        return policy
    return attrs.evolve(policy, connect_port=lambda port: https_port if port == 443 else port)


@contextmanager
def citation_policy(policy: FetchPolicy) -> Iterator[None]:
    """The installed check types, with citation-support fetching under `policy` (the test-only opening)."""
    registry = CheckTypeRegistry()
    for item in installed_check_types():
        registry.providing(item.distribution, item.version)
        registry(CitationSupport(policy) if item.check_type.name == "citation-support" else item.check_type)
    with check_types_scope(registry):
        yield


def tls_contexts(names: Sequence[str]) -> tuple[Any, Any]:
    """A throwaway CA and a server certificate for `names`: (server context, client context trusting the CA).

    Skips the test when `cryptography` (installed with mcp's crypto extra) is missing.
    """
    import datetime
    import ssl
    import tempfile
    from pathlib import Path

    import pytest

    x509 = pytest.importorskip("cryptography.x509")
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    start = datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC)
    end = datetime.datetime(2100, 1, 1, tzinfo=datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "cgx test CA")])
    ca_cert = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(1)
        .not_valid_before(start)
        .not_valid_after(end)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0])]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(2)
        .not_valid_before(start)
        .not_valid_after(end)
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name) for name in names]), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    with tempfile.TemporaryDirectory() as folder:
        cert_path = Path(folder) / "cert.pem"
        key_path = Path(folder) / "key.pem"
        cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
        key_path.write_bytes(
            key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            )
        )
        server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        server.load_cert_chain(cert_path, key_path)
    client = ssl.create_default_context(cadata=ca_cert.public_bytes(serialization.Encoding.PEM).decode())
    return server, client


PASSAGE = "the measured efficiency of the detector was 93 per cent in the final run"
ABSTRACT_HTML = """<!DOCTYPE html>
<html><head><title>[2101.00001] A Detector Study</title>
<script>var hidden = "this script text is never part of the page text";</script>
<style>.x { content: "nor is this style text" }</style></head>
<body><h1>A Detector Study</h1>
<blockquote class="abstract">We report that the measured ef&#xfb01;ciency of the detector was 93&nbsp;per cent
in the final run, and we discuss &ldquo;systematic&rdquo; uncertainties.</blockquote>
<p>Second paragraph.</p><p>Third paragraph.</p>
</body></html>
"""
PDF_PAGES = [
    ["A Detector Study", "arXiv:2101.00001v2"],
    ["In this section the measured effi-", "ciency of the detector was 93 per cent", "in the final run."],
]
LANDING_HTML = """<html><body><article><h1>Journal version</h1>
<p>The published text states that the measured efficiency of the detector was 93 per cent in the final run.</p>
</article></body></html>"""
BOMB_SIZE = 16 << 20


@attrs.define
class Served:
    """What a route answers: status, headers, body, or a handler of its own for streaming misbehaviour."""

    status: int = 200
    headers: dict[str, str] = attrs.Factory(dict)
    body: bytes = b""
    stream: Callable[[BaseHTTPRequestHandler, threading.Event], None] | None = None


def _slow(handler: BaseHTTPRequestHandler, stop: threading.Event) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "text/plain")
    handler.send_header("Content-Length", "100")
    handler.end_headers()
    handler.wfile.flush()
    stop.wait(30)


def _drip(handler: BaseHTTPRequestHandler, stop: threading.Event) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "text/plain")
    handler.end_headers()
    for _ in range(600):
        if stop.wait(0.05):
            return
        try:
            handler.wfile.write(b"x")
            handler.wfile.flush()
        except OSError:
            return


def _close_delimited(size: int) -> Callable[[BaseHTTPRequestHandler, threading.Event], None]:
    def send(handler: BaseHTTPRequestHandler, stop: threading.Event) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/plain")
        handler.end_headers()
        block = b"y" * 65536
        try:
            for _ in range(size // len(block)):
                handler.wfile.write(block)
        except OSError:
            return

    return send


def routes(port: int) -> dict[str, Served]:
    """Every path the loopback server answers; `port` is its own, for absolute redirects."""
    html = {"Content-Type": "text/html; charset=utf-8"}
    text = {"Content-Type": "text/plain"}
    pdf = make_pdf(PDF_PAGES)
    table = {
        "/abs/2101.00001": Served(headers=html, body=ABSTRACT_HTML.encode()),
        "/pdf/2101.00001v2": Served(headers={"Content-Type": "application/pdf"}, body=pdf),
        "/pdf/2101.00001": Served(status=302, headers={"Location": "/pdf/2101.00001v2"}),
        "/10.1000/xyz": Served(status=302, headers={"Location": f"http://publisher.test:{port}/handle/xyz"}),
        "/handle/xyz": Served(status=301, headers={"Location": "/article/xyz"}),
        "/10.1000/xyz-tls": Served(status=302, headers={"Location": "https://publisher.test/handle/xyz"}),
        "/article/xyz": Served(headers=html, body=LANDING_HTML.encode()),
        "/to-private": Served(status=302, headers={"Location": "http://10.0.0.1/latest/meta-data/"}),
        "/to-private-name": Served(status=302, headers={"Location": f"http://internal.test:{port}/secret"}),
        "/to-metadata-decimal": Served(status=307, headers={"Location": "http://2852039166/latest/"}),
        "/to-file": Served(status=302, headers={"Location": "file:///etc/passwd"}),
        "/loop-a": Served(status=302, headers={"Location": "/loop-b"}),
        "/loop-b": Served(status=302, headers={"Location": "/loop-a"}),
        "/no-location": Served(status=302),
        "/big": Served(headers=text, body=b"z" * (2 << 20)),
        "/big-undeclared": Served(stream=_close_delimited(3 << 20)),
        "/bomb": Served(
            headers={"Content-Type": "text/plain", "Content-Encoding": "gzip"},
            body=gzip.compress(b"\0" * BOMB_SIZE, compresslevel=9),
        ),
        "/gzipped": Served(
            headers={"Content-Type": "text/html", "Content-Encoding": "gzip"}, body=gzip.compress(LANDING_HTML.encode())
        ),
        "/brotli": Served(headers={"Content-Type": "text/plain", "Content-Encoding": "br"}, body=b"\x0b\x02\x80"),
        "/slow": Served(stream=_slow),
        "/drip": Served(stream=_drip),
        "/image": Served(headers={"Content-Type": "image/png"}, body=b"\x89PNG\r\n\x1a\n"),
        "/no-type": Served(body=b"no content type header here"),
        "/latin1": Served(headers=text, body="caf\xe9 au lait is what the measured text says".encode("latin-1")),
        "/latin1-declared": Served(
            headers={"Content-Type": "text/plain; charset=ISO-8859-1"},
            body="the caf\xe9 served in the final run was not measured at all".encode("latin-1"),
        ),
        "/missing": Served(status=404, headers=text, body=b"not here"),
        "/echo-host": Served(headers=text),  # body filled in by the handler
    }
    for number in range(10):
        table[f"/chain/{number}"] = Served(status=302, headers={"Location": f"/chain/{number + 1}"})
    table["/chain/10"] = Served(headers=text, body=b"end of the chain")
    for number in range(5):
        table[f"/five/{number}"] = Served(status=302, headers={"Location": f"/five/{number + 1}"})
    table["/five/5"] = Served(headers=text, body=b"after exactly five redirects")
    return table


@attrs.define
class LoopbackServer:
    """A ThreadingHTTPServer on 127.0.0.1, port chosen by the OS; records each request's path and Host."""

    port: int
    scheme: str
    requests: list[tuple[str, str | None, str | None]]

    def url(self, host: str, path: str) -> str:
        return f"{self.scheme}://{host}:{self.port}{path}"


def serve(
    tls: ssl.SSLContext | None, port: int = 0, extra: dict[str, Served] | None = None
) -> Iterator[LoopbackServer]:
    """Serve `routes(port)` and the `extra` routes (which win) on 127.0.0.1."""
    stop = threading.Event()
    requests: list[tuple[str, str | None, str | None]] = []
    table: dict[str, Served] = {}
    sni_names: list[str | None] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            server_name = getattr(self.connection, "server_hostname", None)
            requests.append((self.path, self.headers.get("Host"), sni_names[-1] if sni_names else server_name))
            served = table.get(self.path)
            if served is None:
                self.send_error(404)
                return
            if served.stream is not None:
                served.stream(self, stop)
                return
            body = served.body
            if self.path == "/echo-host":
                body = f"host header: {self.headers.get('Host')}".encode()
            self.send_response(served.status)
            for name, value in served.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            with suppress(OSError):
                self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    if tls is not None:

        def remember(sock: ssl.SSLObject | ssl.SSLSocket, name: str | None, context: ssl.SSLContext) -> None:
            sni_names.append(name)

        tls.sni_callback = remember
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    port_used = server.server_address[1]
    assert isinstance(port_used, int)
    table.update(routes(port_used))
    table.update(extra or {})
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield LoopbackServer(port=port_used, scheme="https" if tls else "http", requests=requests)
    finally:
        stop.set()
        server.shutdown()
        server.server_close()
        thread.join(5)
