"""What counts as a public address: the only kind the citation fetcher connects to.

A URL an agent gives must not reach the machine's own network: its loopback, its LAN, the cloud
metadata service, a carrier NAT, a local NAT64 gateway. Python's `ipaddress.is_global` is the
starting point but it is not enough (it says True for multicast `224.0.0.1`, for the deprecated
site-local `fec0::1`, for the NAT64 prefix `64:ff9b::/96` and for `192.0.0.9`), so `is_public` is
the conjunction of `is_global` and a list of ranges refused by name, and an IPv6 address that
carries an IPv4 address inside it is judged by that IPv4 address as well.

Every range below says why it is refused; `docs/citations.md` repeats the list for readers.
"""

from __future__ import annotations

from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network
from typing import Final

type IPAddress = IPv4Address | IPv6Address

REFUSED_V4: Final[tuple[tuple[IPv4Network, str], ...]] = (
    (IPv4Network("0.0.0.0/8"), "this network (0.0.0.0 reaches the local host on many systems)"),
    (IPv4Network("10.0.0.0/8"), "private"),
    (IPv4Network("100.64.0.0/10"), "carrier-grade NAT (shared address space)"),
    (IPv4Network("127.0.0.0/8"), "loopback"),
    (IPv4Network("169.254.0.0/16"), "link-local (holds the cloud metadata service 169.254.169.254)"),
    (IPv4Network("172.16.0.0/12"), "private"),
    (IPv4Network("192.0.0.0/24"), "IETF protocol assignments (NAT64 discovery, DS-Lite, PCP anycast)"),
    (IPv4Network("192.0.2.0/24"), "documentation (TEST-NET-1)"),
    (IPv4Network("192.88.99.0/24"), "deprecated 6to4 relay anycast"),
    (IPv4Network("192.168.0.0/16"), "private"),
    (IPv4Network("198.18.0.0/15"), "benchmarking"),
    (IPv4Network("198.51.100.0/24"), "documentation (TEST-NET-2)"),
    (IPv4Network("203.0.113.0/24"), "documentation (TEST-NET-3)"),
    (IPv4Network("224.0.0.0/4"), "multicast"),
    (IPv4Network("240.0.0.0/4"), "reserved, and the broadcast address 255.255.255.255"),
)
"""IPv4 ranges refused whatever `is_global` says, with the reason shown in the refusal."""

GLOBAL_UNICAST_V6: Final = IPv6Network("2000::/3")
"""Every public IPv6 unicast address is in 2000::/3; anything outside it (loopback, unspecified,
IPv4-mapped and -compatible, NAT64, discard, unique-local, link-local, site-local, multicast) is not."""

REFUSED_V6: Final[tuple[tuple[IPv6Network, str], ...]] = (
    (IPv6Network("::/128"), "unspecified"),
    (IPv6Network("::1/128"), "loopback"),
    (IPv6Network("::/96"), "IPv4-compatible (deprecated)"),
    (IPv6Network("64:ff9b::/96"), "NAT64: a local translator, whatever IPv4 address it carries"),
    (IPv6Network("64:ff9b:1::/48"), "local-use NAT64: the embedding is specific to the local network"),
    (IPv6Network("100::/64"), "discard-only"),
    (IPv6Network("2001::/32"), "Teredo: a tunnel through a relay"),
    (IPv6Network("2001:db8::/32"), "documentation"),
    (IPv6Network("2002::/16"), "6to4: a tunnel through a relay"),
    (IPv6Network("fc00::/7"), "unique-local (private)"),
    (IPv6Network("fe80::/10"), "link-local"),
    (IPv6Network("fec0::/10"), "site-local (deprecated, still private in practice)"),
    (IPv6Network("ff00::/8"), "multicast"),
)
"""IPv6 ranges refused by name, so that a refusal can say why (2000::/3 would refuse most of them anyway)."""

IPV4_MAPPED: Final = IPv6Network("::ffff:0:0/96")


def embedded_ipv4(address: IPv6Address) -> tuple[IPv4Address, ...]:
    """Every IPv4 address an IPv6 address carries: mapped, compatible, 6to4, Teredo (server and
    client, the client un-XORed by `ipaddress`) and NAT64 (the last 32 bits of 64:ff9b::/96).

    The IPv4 address is where the packets end up, so it must pass the IPv4 rule too.
    """
    found: list[IPv4Address] = []
    if address.ipv4_mapped is not None:
        found.append(address.ipv4_mapped)
    if address in IPv6Network("::/96") and int(address) > 1:
        found.append(IPv4Address(int(address) & 0xFFFFFFFF))
    if address.sixtofour is not None:
        found.append(address.sixtofour)
    if address.teredo is not None:
        found.extend(address.teredo)
    if address in IPv6Network("64:ff9b::/96"):
        found.append(IPv4Address(int(address) & 0xFFFFFFFF))
    return tuple(found)


def _ipv4_problem(address: IPv4Address) -> str | None:
    for network, why in REFUSED_V4:
        if address in network:
            return why
    return None if address.is_global else "not a global address"


def refusal_reason(address: IPAddress) -> str | None:
    """Why `address` is not public, or None when it is.

    IPv4: refused when in a range of `REFUSED_V4` or when `is_global` is False. IPv6: an
    IPv4-mapped address is judged as the IPv4 address it maps (a dual-stack socket sends it over
    IPv4); any other address must be in 2000::/3, outside `REFUSED_V6`, `is_global`, and every
    IPv4 address embedded in it must be public.
    """
    if isinstance(address, IPv4Address):
        problem = _ipv4_problem(address)
        return None if problem is None else f"{address} is {problem}"
    if address.scope_id is not None:
        return f"{address} has a zone index, which only names a local interface"
    for embedded in embedded_ipv4(address):
        problem = _ipv4_problem(embedded)
        if problem is not None:
            return f"{address} carries the IPv4 address {embedded}, which is {problem}"
    if address in IPV4_MAPPED:
        return None
    for network, why in REFUSED_V6:
        if address in network:
            return f"{address} is {why}"
    if address not in GLOBAL_UNICAST_V6:
        return f"{address} is outside the global unicast range 2000::/3"
    if not address.is_global:
        return f"{address} is not a global address"
    return None


def is_public(address: IPAddress) -> bool:
    """True when the fetcher may connect to `address`: stricter than `ipaddress.is_global`."""
    return refusal_reason(address) is None
