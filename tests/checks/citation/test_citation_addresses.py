"""What counts as a public address: stricter than `ipaddress.is_global`, and embedded IPv4 checked."""

from __future__ import annotations

from ipaddress import IPv4Address, IPv6Address, ip_address

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cgx_checks.citation.addresses import embedded_ipv4, is_public, refusal_reason

PUBLIC = ["8.8.8.8", "1.1.1.1", "93.184.216.34", "151.101.1.69", "2606:4700:4700::1111", "2a00:1450:4001::1"]

REFUSED = {
    "224.0.0.1": "multicast",
    "fec0::1": "site-local",
    "64:ff9b::127.0.0.1": "127.0.0.1, which is loopback",
    "64:ff9b::8.8.8.8": "NAT64",
    "64:ff9b:1::8.8.8.8": "local-use NAT64",
    "192.0.0.9": "IETF protocol assignments",
    "127.0.0.1": "loopback",
    "0.0.0.0": "this network",
    "10.1.2.3": "private",
    "172.31.255.255": "private",
    "192.168.0.1": "private",
    "100.64.0.1": "carrier-grade NAT",
    "100.127.255.254": "carrier-grade NAT",
    "169.254.169.254": "link-local",
    "198.19.255.255": "benchmarking",
    "198.51.100.7": "documentation",
    "203.0.113.9": "documentation",
    "192.88.99.1": "6to4 relay",
    "239.1.2.3": "multicast",
    "250.0.0.1": "reserved",
    "255.255.255.255": "broadcast",
    "::": "unspecified",
    "::1": "loopback",
    "::ffff:10.0.0.1": "10.0.0.1, which is private",
    "::10.0.0.1": "10.0.0.1, which is private",
    "::8.8.8.8": "IPv4-compatible",
    "100::1": "discard",
    "2001:db8::1": "documentation",
    "2002:0808:0808::1": "6to4",
    "2002:0a00:0001::1": "10.0.0.1, which is private",
    "2001:0:4136:e378:8000:63bf:f5ff:fffe": "10.0.0.1, which is private",
    "2001:0:4136:e378:8000:63bf:f7f7:f7f7": "Teredo",
    "fc00::1": "unique-local",
    "fd12:3456::1": "unique-local",
    "fe80::1": "link-local",
    "ff02::1": "multicast",
    "ff0e::1": "multicast",
    "::ffff:0:7f00:1": "outside the global unicast range",
}


@pytest.mark.parametrize("text", PUBLIC)
def test_public_addresses_are_accepted(text: str) -> None:
    assert is_public(ip_address(text))
    assert refusal_reason(ip_address(text)) is None


@pytest.mark.parametrize(("text", "why"), sorted(REFUSED.items()))
def test_non_public_addresses_are_refused_with_the_reason(text: str, why: str) -> None:
    address = ip_address(text)
    reason = refusal_reason(address)
    assert reason is not None and why in reason
    assert not is_public(address)


@pytest.mark.parametrize("text", ["224.0.0.1", "fec0::1", "64:ff9b::127.0.0.1"])
def test_stricter_than_is_global_where_is_global_is_wrong(text: str) -> None:
    address = ip_address(text)
    assert address.is_global  # the standard library's answer, which this module corrects
    assert not is_public(address)


def test_mapped_public_address_is_judged_as_its_ipv4() -> None:
    assert is_public(IPv6Address("::ffff:8.8.8.8"))


def test_teredo_client_is_unxored() -> None:
    teredo = IPv6Address("2001:0:4136:e378:8000:63bf:3fff:fdd2")
    assert embedded_ipv4(teredo) == (IPv4Address("65.54.227.120"), IPv4Address("192.0.2.45"))


def test_zone_index_is_refused() -> None:
    assert not is_public(IPv6Address("2606:4700::1111%eth0"))


@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_public_ipv4_is_always_global(number: int) -> None:
    address = IPv4Address(number)
    if is_public(address):
        assert address.is_global and not address.is_multicast and not address.is_reserved


@given(st.integers(min_value=0, max_value=2**128 - 1))
def test_public_ipv6_is_always_global_unicast(number: int) -> None:
    address = IPv6Address(number)
    if is_public(address):
        assert address.is_global and not address.is_multicast and not address.is_site_local
        assert address.ipv4_mapped is not None or (number >> 125) == 1


@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_embedded_ipv4_is_judged_by_the_ipv4_rule(number: int) -> None:
    v4 = IPv4Address(number)
    assert is_public(IPv6Address(f"::ffff:{v4}")) == is_public(v4)
    if not is_public(v4):
        assert not is_public(IPv6Address((0x2002 << 112) | (number << 80) | 1))  # 6to4
        assert not is_public(IPv6Address((0x64FF9B << 96) | number))  # NAT64
        teredo = (0x20010000 << 96) | (0x08080808 << 64) | (number ^ 0xFFFFFFFF)
        assert not is_public(IPv6Address(teredo))
