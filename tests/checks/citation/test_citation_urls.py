"""Strict URL parsing: one canonical reading of each accepted URL, and redirects parsed the same way."""

from __future__ import annotations

from ipaddress import IPv4Address, IPv6Address

import pytest

from cgx_checks.citation.codes import CitationCode
from cgx_checks.citation.urls import parse_url, resolve_location
from cgx_core.errors import CgxError


@pytest.mark.parametrize(
    ("url", "canonical"),
    [
        ("HTTPS://ArXiv.ORG/abs/2101.00001", "https://arxiv.org/abs/2101.00001"),
        ("https://arxiv.org:443/abs/x", "https://arxiv.org/abs/x"),
        ("http://example.org:8080", "http://example.org:8080/"),
        ("http://example.org?q=1", "http://example.org/?q=1"),
        ("https://example.org/a#fragment", "https://example.org/a"),
        ("https://example.org./a", "https://example.org/a"),
        ("https://example.org/caf\u00e9?q=\u00fc", "https://example.org/caf%C3%A9?q=%C3%BC"),
        ("https://example.org/a%20b", "https://example.org/a%20b"),
        ('https://example.org/a"b<c>', "https://example.org/a%22b%3Cc%3E"),
        ("http://[2606:4700:0:0::1111]:8080/", "http://[2606:4700::1111]:8080/"),
        ("http://93.184.216.34/", "http://93.184.216.34/"),
        ("https://xn--caf-dma.example/", "https://xn--caf-dma.example/"),
    ],
)
def test_canonical_form(url: str, canonical: str) -> None:
    assert parse_url(url).url == canonical


def test_parts() -> None:
    parsed = parse_url("https://Example.org:8443/p?q")
    assert (parsed.scheme, parsed.host, parsed.port, parsed.target, parsed.literal) == (
        "https",
        "example.org",
        8443,
        "/p?q",
        None,
    )
    assert parsed.host_header == "example.org:8443"
    assert parse_url("http://93.184.216.34/").literal == IPv4Address("93.184.216.34")
    assert parse_url("http://[2606:4700::1111]/").literal == IPv6Address("2606:4700::1111")


@pytest.mark.parametrize(
    "url",
    [
        "https://caf\u00e9.example/",
        "https://-bad.example/",
        "https://a..b/",
        "https://" + "a" * 64 + ".example/",
        "https:// example.org/",
        "https://example.org/a b",
        "https://example.org/\x00",
        "https://[2606:4700::1111/",
        "https://[not-v6]/",
        "https:///path",
        "https://example.org:/",
        "https://example.org:+80/",
        "https://" + "a." * 2100 + "org/",
    ],
)
def test_refused(url: str) -> None:
    with pytest.raises(CgxError) as caught:
        parse_url(url)
    assert caught.value.code == CitationCode.FETCH_REFUSED


@pytest.mark.parametrize(
    ("location", "resolved"),
    [
        ("/b", "https://example.org/b"),
        ("c", "https://example.org/a/c"),
        ("?q=2", "https://example.org/a/b?q=2"),
        ("//other.example/x", "https://other.example/x"),
        ("http://other.example:8080/y", "http://other.example:8080/y"),
        ("  /padded  ", "https://example.org/padded"),
    ],
)
def test_redirect_locations(location: str, resolved: str) -> None:
    base = parse_url("https://example.org/a/b?q=1")
    assert resolve_location(base, location).url == resolved


@pytest.mark.parametrize("location", ["", "/a\\b", "/a\nb", "file:///etc/passwd", "http://127.1/", "//a@b.example/"])
def test_refused_redirect_locations(location: str) -> None:
    with pytest.raises(CgxError) as caught:
        resolve_location(parse_url("https://example.org/"), location)
    assert caught.value.code == CitationCode.FETCH_REFUSED
