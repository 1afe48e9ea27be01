"""Strict parsing of the URLs the fetcher accepts, so that our check and the connection agree.

Most SSRF tricks exploit two parsers disagreeing about one string: `a@127.0.0.1` (userinfo),
`127.0.0.1#@a` (where does the authority end?), `127.1` or `2130706433` (which the C resolver reads
as 127.0.0.1 while a name check sees a name), tabs and backslashes that one parser strips or turns
into `/`. So this module parses a URL once, by a small set of rules, refuses anything those rules
find ambiguous, and the fetcher builds the request from the parsed parts: nothing downstream parses
the original string again.

Rules: scheme `http` or `https`; no userinfo; no ASCII control characters, spaces or backslashes;
the authority ends at the first `/`, `?` or `#`; the fragment is dropped (it is never sent); the
host is a bracketed IPv6 literal without zone, a canonical dotted-quad IPv4 literal, or a DNS name
of at least two labels of letters, digits, `-` and `_`; a host whose last label is numeric but is
not a canonical dotted quad (`127.1`, `0x7f000001`, `017700000001`, `0`) is refused; `localhost`
and `*.localhost` are refused without resolving them. Non-ASCII characters in the path and query
are percent-encoded as UTF-8.
"""

from __future__ import annotations

import re
from ipaddress import AddressValueError, IPv4Address, IPv6Address
from typing import Final
from urllib.parse import quote, urljoin

import attrs

from cgx_checks.citation.addresses import IPAddress
from cgx_checks.citation.codes import CitationCode
from cgx_core.errors import CgxError

MAX_URL_LENGTH: Final = 4096

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*):")
_LABEL = re.compile(r"^[a-z0-9_](?:[a-z0-9_\-]{0,61}[a-z0-9_])?$")
_NUMERIC_LABEL = re.compile(r"^(?:0x[0-9a-f]*|[0-9]+)$")
_DECIMAL_OCTET = re.compile(r"^(?:0|[1-9][0-9]{0,2})$")
_PORT = re.compile(r"^[0-9]{1,5}$")
_FORBIDDEN = re.compile(r"[\x00-\x20\x7f\\]")
# Characters kept as they are in a path and query: RFC 3986 unreserved, sub-delims, ':', '@', '/', '?', '%'.
_SAFE_PATH = "-._~!$&'()*+,;=:@/%"
_SAFE_QUERY = _SAFE_PATH + "?"

DEFAULT_PORTS: Final = {"http": 80, "https": 443}


@attrs.frozen
class ParsedUrl:
    """A URL split once into the parts the fetcher uses.

    `host` is lower-case: a DNS name, or an IP literal (`literal` holds its address). `target` is
    the path and query as sent on the request line, always starting with `/`.
    """

    scheme: str
    host: str
    port: int
    target: str
    literal: IPAddress | None

    @property
    def host_header(self) -> str:
        """The Host header: the host, bracketed when IPv6, with the port when it is not the default."""
        host = f"[{self.host}]" if isinstance(self.literal, IPv6Address) else self.host
        return host if self.port == DEFAULT_PORTS[self.scheme] else f"{host}:{self.port}"

    @property
    def url(self) -> str:
        """The canonical spelling of the URL: what is logged and compared for redirect loops."""
        return f"{self.scheme}://{self.host_header}{self.target}"


def _refuse(url: str, why: str) -> CgxError:
    shown = url if len(url) <= 200 else url[:200] + "..."
    return CgxError(CitationCode.FETCH_REFUSED, f"refused URL {shown!r}: {why}")


def _parse_host(url: str, host: str) -> tuple[str, IPAddress | None]:
    if host.startswith("["):
        if not host.endswith("]"):
            raise _refuse(url, "an IPv6 literal must be closed by ']'")
        inner = host[1:-1]
        if "%" in inner:
            raise _refuse(url, "an IPv6 literal with a zone index names a local interface")
        try:
            address6 = IPv6Address(inner)
        except AddressValueError as exc:
            raise _refuse(url, f"{inner!r} is not an IPv6 address") from exc
        return str(address6), address6
    if not host:
        raise _refuse(url, "the URL has no host")
    if not host.isascii():
        raise _refuse(url, "the host must be ASCII (write an international name in its xn-- form)")
    name = host.lower()
    if name.endswith("."):
        name = name[:-1]
    labels = name.split(".")
    if _NUMERIC_LABEL.match(labels[-1]):
        # WHATWG and inet_aton read such a host as an IPv4 number; accept only the one spelling
        # every parser agrees on, so the address we check is the address we reach.
        if len(labels) != 4 or not all(_DECIMAL_OCTET.match(label) for label in labels):
            raise _refuse(url, f"{host!r} is a numeric host that is not a canonical dotted quad")
        try:
            address4 = IPv4Address(name)
        except AddressValueError as exc:
            raise _refuse(url, f"{host!r} is not an IPv4 address") from exc
        return str(address4), address4
    if len(name) > 253 or not all(_LABEL.match(label) for label in labels):
        raise _refuse(url, f"{host!r} is not a valid host name")
    if name == "localhost" or name.endswith(".localhost"):
        raise _refuse(url, f"{host!r} names the local host")
    if len(labels) < 2:
        raise _refuse(url, f"{host!r} is a single-label name, which the local search domains resolve")
    return name, None


def parse_url(url: str) -> ParsedUrl:
    """Parse an absolute http(s) URL by the module's rules, or raise `fetch-refused`."""
    if len(url) > MAX_URL_LENGTH:
        raise _refuse(url, f"longer than {MAX_URL_LENGTH} characters")
    if _FORBIDDEN.search(url):
        raise _refuse(url, "contains a space, a control character or a backslash")
    scheme_match = _SCHEME.match(url)
    if scheme_match is None:
        raise _refuse(url, "not an absolute URL with a scheme")
    scheme = scheme_match.group(1).lower()
    if scheme not in DEFAULT_PORTS:
        raise _refuse(url, f"scheme {scheme!r} is not http or https")
    rest = url[scheme_match.end() :]
    if not rest.startswith("//"):
        raise _refuse(url, "an http(s) URL must have '//' and a host after the scheme")
    rest = rest[2:]
    end = len(rest)
    for mark in "/?#":
        found = rest.find(mark)
        if found != -1:
            end = min(end, found)
    authority, remainder = rest[:end], rest[end:]
    if "@" in authority:
        raise _refuse(url, "user information (user@host) is not accepted")
    host, port = _split_port(url, authority, DEFAULT_PORTS[scheme])
    canonical_host, literal = _parse_host(url, host)
    remainder = remainder.split("#", 1)[0]
    path, _, query = remainder.partition("?")
    target = quote(path, safe=_SAFE_PATH) or "/"
    if "?" in remainder:
        target += "?" + quote(query, safe=_SAFE_QUERY)
    return ParsedUrl(scheme=scheme, host=canonical_host, port=port, target=target, literal=literal)


def _split_port(url: str, authority: str, scheme_default: int) -> tuple[str, int]:
    if authority.startswith("["):
        close = authority.find("]")
        if close == -1:
            raise _refuse(url, "an IPv6 literal must be closed by ']'")
        host, after = authority[: close + 1], authority[close + 1 :]
        if not after:
            return host, scheme_default
        if not after.startswith(":"):
            raise _refuse(url, "unexpected text after the IPv6 literal")
        digits = after[1:]
    else:
        host, colon, digits = authority.partition(":")
        if not colon:
            return host, scheme_default
    if not _PORT.match(digits) or not 1 <= int(digits) <= 65535:
        raise _refuse(url, f"port {digits!r} is not a number from 1 to 65535")
    return host, int(digits)


def resolve_location(base: ParsedUrl, location: str) -> ParsedUrl:
    """The URL a redirect's Location header names, resolved against the URL that answered.

    The header is checked for the characters parsers disagree on before joining, and the joined URL
    is parsed by `parse_url` like any other, so a redirect gets no looser treatment than the first URL.
    """
    if _FORBIDDEN.search(location.strip(" \t")) or not location.strip(" \t"):
        raise _refuse(location, "the redirect's Location is empty or has a space, control character or backslash")
    return parse_url(urljoin(base.url, location.strip(" \t")))
