"""This computer's addresses, for ``server`` / ``app`` listening on the network: which host names the
pages answer (Django's ``ALLOWED_HOSTS``), the address a phone on the same Wi-Fi opens (never
0.0.0.0 or 127.0.0.1 — a QR code of 127.0.0.1 opens the phone itself) and its QR code, for the
terminal and for a page.

No Django here: the settings import it before Django is set up. The command sets
:data:`LISTEN_ENV` to the address it listens on (:func:`listen_env`) before ``django.setup()``;
the settings then allow the machine's own names (:func:`allowed_hosts`). An explicit
``SHEETS_SYNC_ALLOWED_HOSTS`` still wins (behind a proxy, the public name is the one to allow)."""

from __future__ import annotations

import contextlib
import ipaddress
import os
import socket
import sys
from pathlib import Path

__all__ = ["LISTEN_ENV", "LOCAL_HOSTS", "listen_env", "listening_on_network", "machine_addresses", "allowed_hosts",
           "phone_address", "phone_url", "phone_base", "phone_card", "this_computer_url", "terminal_qr", "svg_qr"]

LISTEN_ENV = "SHEETS_SYNC_LISTEN"  # the address the command listens on: 127.0.0.1, 0.0.0.0, ::, or one address
LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]", "testserver")  # testserver: Django's test client
_WILDCARDS = ("", "0.0.0.0", "::", "*")


def listen_env(host: str) -> dict[str, str]:
    """The environment for ``serving.prepare``'s ``extra_env``: what the settings derive hosts from."""
    return {LISTEN_ENV: host}


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip("[]").split("%", 1)[0])
    except ValueError:
        return None


def listening_on_network(host: str | None) -> bool:
    """Whether a server bound to ``host`` can be reached from another machine (0.0.0.0, ::, a LAN address)."""
    if host is None:
        return False
    if host in _WILDCARDS:
        return True
    ip = _ip(host)
    return not (ip.is_loopback if ip is not None else host == "localhost")


def _route_address(family: int, probe: str) -> str | None:
    """The address of the interface the default route leaves by (a UDP ``connect`` sends no packet)."""
    with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as s:
        s.connect((probe, 9))
        return s.getsockname()[0]
    return None


def _linux_addresses() -> list[str]:
    """Every interface's IPv4 (``SIOCGIFADDR``) and IPv6 (``/proc/net/if_inet6``) address on Linux."""
    found: list[str] = []
    if not sys.platform.startswith("linux"):
        return found
    import fcntl
    import struct

    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            with contextlib.suppress(OSError):
                packed = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name.encode()[:15]))  # SIOCGIFADDR
                found.append(socket.inet_ntoa(packed[20:24]))
    with contextlib.suppress(OSError):
        for line in Path("/proc/net/if_inet6").read_text().splitlines():
            raw = line.split()[0]
            found.append(str(ipaddress.IPv6Address(bytes.fromhex(raw))))
    return found


def machine_addresses() -> list[str]:
    """This computer's IP addresses (IPv4 first), loopback included: every interface's where the
    system says (Linux), else the name's addresses and the default route's."""
    found = _linux_addresses()
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None):
            found.append(str(info[4][0]))
    for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        address = _route_address(family, probe)
        if address:
            found.append(address)
    found += ["127.0.0.1", "::1"]
    ips = {ip for ip in (_ip(a) for a in found) if ip is not None}
    return [str(ip) for ip in sorted(ips, key=lambda ip: (ip.version, int(ip)))]


def _names() -> list[str]:
    """The computer's own names: its host name, the fully qualified one, and ``NAME.local`` (mDNS)."""
    names = {"localhost"}
    with contextlib.suppress(OSError):
        host = socket.gethostname().lower()
        if host:
            names.update({host, f"{host.split('.')[0]}.local"})
        fqdn = socket.getfqdn().lower()
        if fqdn:
            names.add(fqdn)
    return sorted(names)


def _as_host(address: str) -> str:
    return f"[{address}]" if ":" in address else address


def allowed_hosts(listen: str | None = None) -> list[str]:
    """Django's ``ALLOWED_HOSTS`` for a server listening on ``listen`` (default: :data:`LISTEN_ENV`):
    on the network, every address and name of this computer; on loopback only, the local names."""
    listen = os.environ.get(LISTEN_ENV) if listen is None else listen
    hosts = list(LOCAL_HOSTS)
    if not listening_on_network(listen):
        return hosts
    own = [_as_host(a.split("%", 1)[0]) for a in machine_addresses()] + _names()
    if listen not in _WILDCARDS:
        own.append(_as_host(listen))
    return hosts + sorted(set(own) - set(hosts))


def phone_address(listen: str | None = None) -> str | None:
    """The address a phone on the same network opens: the listening address itself, or for 0.0.0.0 /
    :: the default route's (else the first non-loopback, non-link-local one); None on loopback only."""
    listen = os.environ.get(LISTEN_ENV) if listen is None else listen
    if not listening_on_network(listen):
        return None
    if listen not in _WILDCARDS:
        return listen.strip("[]")
    route = _route_address(socket.AF_INET, "192.0.2.1")
    if route and not _ip(route).is_loopback:
        return route
    for address in machine_addresses():
        ip = _ip(address)
        if not (ip.is_loopback or ip.is_link_local) and (ip.version == 4 or listen == "::"):
            return address
    return None


def phone_url(port: int, listen: str | None = None, path: str = "/") -> str | None:
    """``http://<the LAN address>:<port><path>``, or None when the server listens on this computer only."""
    address = phone_address(listen)
    return f"http://{_as_host(address)}:{port}{path}" if address else None


def phone_base(request) -> str:
    """Where a judge's link points (``scheme://host:port``, no slash): in app mode listening on the
    network (``app --lan``), this computer's address on it with the request's port — the organizer's
    page is opened at 127.0.0.1, which on a phone is the phone itself; else (the server, or the app on
    this computer only) the address the page was opened at."""
    from django.conf import settings

    if settings.MODE == "app":
        url = phone_url(int(request.get_port()), path="")
        if url:
            return url
    return request.build_absolute_uri("/").rstrip("/")


def this_computer_url(host: str, port: int) -> str:
    """The address to open on this computer itself: a wildcard is no address (0.0.0.0 → 127.0.0.1)."""
    address = {"": "127.0.0.1", "*": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    return f"http://{_as_host(address.strip('[]'))}:{port}/"


def phone_card(request) -> dict[str, str] | None:
    """For a page: the address a phone opens (the port the request came in on) and its QR code as
    inline SVG, or None when the server listens on this computer only."""
    url = phone_url(int(request.META.get("SERVER_PORT") or 80))
    return {"address": url, "qr": svg_qr(url)} if url else None


def terminal_qr(url: str) -> str:
    """A QR code of ``url`` drawn with Unicode half blocks, for a terminal (segno's ``terminal``,
    compact: two rows a line; the light modules are the blocks, as on a terminal's dark background)."""
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue().rstrip("\n")


def svg_qr(url: str) -> str:
    """The same QR code as inline SVG for a page (the hall screen's, :func:`sheets_sync.render.screen.qr_svg`)."""
    from sheets_sync.render.screen import qr_svg

    return qr_svg(url)
