"""Where webhooks may go: to public addresses only, unless a setting allows some networks.

A URL is refused if its host is, or resolves to, an address that is not globally reachable:
loopback, private, link-local (cloud metadata services live there: 169.254.169.254), shared,
reserved, multicast or unspecified, in IPv4 or IPv6, including IPv4 written as one decimal or
hex number or in octal parts (``2130706433``, ``0x7f000001``, ``0177.0.0.1`` all mean
127.0.0.1, and HTTP clients connect there) and IPv4 inside IPv6 (``::ffff:127.0.0.1``,
NAT64's ``64:ff9b::/96``). A name is refused if any of its addresses is: the client might
connect to any of them.

The check runs when a webhook is registered and again before every attempt, and the attempt
connects to the address checked then (``DeliverySender.send(address=...)``), so a name that
resolves elsewhere later (DNS rebinding) gains nothing. Redirects are never followed.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

from service.errors import WebhookUrlRefused
from service.ports.resolver import Resolver

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
LEGACY_IPV4 = frozenset("0123456789abcdefx.")


class Destinations:
    def __init__(self, resolver: Resolver, allowed: Iterable[str] = ()) -> None:
        """``allowed``: networks (CIDR) webhooks may reach although they are not public."""
        self._resolver = resolver
        self._allowed: list[Network] = [ipaddress.ip_network(n, strict=False) for n in allowed]

    async def check(self, url: str) -> str:
        """The address to connect to for ``url``; ``WebhookUrlRefused`` if it may not be."""
        parts = urlsplit(url)
        host = parts.hostname
        if parts.scheme not in ("http", "https") or not host:
            raise WebhookUrlRefused(f"{url!r} is not an http(s) URL with a host")
        literal = _literal(host)
        found = [literal] if literal is not None else await self._resolve(host)
        refused = [address for address in found if not self._may_reach(address)]
        if refused:
            raise WebhookUrlRefused(
                f"{host} is, or resolves to, {refused[0]}, which is not a public address"
            )
        return str(found[0])

    async def _resolve(self, host: str) -> list[IPAddress]:
        found = [
            ipaddress.ip_address(a.split("%")[0]) for a in await self._resolver.addresses(host)
        ]
        if not found:
            raise WebhookUrlRefused(f"{host} does not resolve to any address")
        return found

    def _may_reach(self, address: IPAddress) -> bool:
        if any(
            address in network for network in self._allowed if network.version == address.version
        ):
            return True
        inner = _embedded_ipv4(address)
        if inner is not None:
            return self._may_reach(inner)
        return address.is_global and not address.is_multicast


def _literal(host: str) -> IPAddress | None:
    """The address ``host`` is written as, in any form an HTTP client would connect to."""
    try:
        return ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        pass
    if set(host.lower()) <= LEGACY_IPV4:
        try:
            # inet_aton reads what C clients accept: 1 to 4 parts, decimal, hex or octal.
            return ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return None
    return None


def _embedded_ipv4(address: IPAddress) -> ipaddress.IPv4Address | None:
    if not isinstance(address, ipaddress.IPv6Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address in NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None
