"""Egress policy for http-request nodes: an allowlist of hosts, then only public addresses.

The host must be on the allowlist (``example.com`` exactly, ``.example.com`` or
``*.example.com`` for subdomains). The name is then resolved and every address must be
globally routable: loopback, private, link-local (including cloud metadata at
169.254.169.254), carrier-grade NAT, multicast, reserved and unspecified addresses are
refused, as are IPv4-mapped forms of them. The caller connects to the checked address, so a
second DNS answer cannot swap in a private one between the check and the request.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Collection
from dataclasses import dataclass
from urllib.parse import urlsplit

from ragspine.workflows.errors import WorkflowEgressDeniedError

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], list[str]]
ALLOWED_SCHEMES = frozenset({"http", "https"})
# Named explicitly even though is_global already excludes them: these are the usual SSRF targets.
METADATA_ADDRESSES = frozenset({ipaddress.ip_address("169.254.169.254"), ipaddress.ip_address("fd00:ec2::254"),
                                ipaddress.ip_address("100.100.100.200")})


@dataclass(frozen=True, slots=True)
class EgressTarget:
    """A checked destination: the original URL parts and the public address to connect to."""

    url: str
    scheme: str
    host: str
    port: int
    address: str


def host_allowed(host: str, allowlist: Collection[str]) -> bool:
    """True when ``host`` equals an entry, or matches a ``.suffix`` / ``*.suffix`` entry."""
    host = host.lower().rstrip(".")
    for entry in (e.strip().lower().rstrip(".") for e in allowlist):
        if not entry:
            continue
        suffix = entry[1:] if entry.startswith("*.") else entry
        if host == entry or (suffix.startswith(".") and (host.endswith(suffix) or host == suffix[1:])):
            return True
    return False


def is_public(address: IPAddress) -> bool:
    """True only for globally routable unicast addresses (IPv4-mapped IPv6 judged as IPv4)."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address in METADATA_ADDRESSES or address.is_multicast or address.is_unspecified:
        return False
    return address.is_global and not (address.is_private or address.is_loopback or address.is_link_local
                                      or address.is_reserved)


def system_resolver(host: str, port: int) -> list[str]:
    """Every address the system resolver gives for ``host``."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return sorted({str(info[4][0]) for info in infos})


def check_egress(url: str, *, allowlist: Collection[str], resolver: Resolver = system_resolver) -> EgressTarget:
    """Check a URL against the policy and pick the address to connect to.

    Raises:
        WorkflowEgressDeniedError: bad scheme, host not allowlisted, unresolvable, or any
            resolved address is not public.
    """
    parts = urlsplit(url)
    scheme, host = parts.scheme.lower(), (parts.hostname or "")
    if scheme not in ALLOWED_SCHEMES or not host:
        raise WorkflowEgressDeniedError(f"only http(s) URLs with a host are allowed, got {url[:200]!r}")
    if parts.username or parts.password:
        raise WorkflowEgressDeniedError("credentials in the URL are not allowed")
    if not host_allowed(host, allowlist):
        raise WorkflowEgressDeniedError(f"host {host!r} is not on the http-request allowlist")
    port = parts.port or (443 if scheme == "https" else 80)
    try:
        literal = ipaddress.ip_address(host)
        addresses = [str(literal)]
    except ValueError:
        try:
            addresses = resolver(host, port)
        except OSError as exc:
            raise WorkflowEgressDeniedError(f"host {host!r} does not resolve") from exc
    if not addresses:
        raise WorkflowEgressDeniedError(f"host {host!r} does not resolve")
    for address in addresses:
        if not is_public(ipaddress.ip_address(address.split("%")[0])):
            raise WorkflowEgressDeniedError(f"host {host!r} resolves to non-public address {address}")
    return EgressTarget(url=url, scheme=scheme, host=host, port=port, address=addresses[0])
