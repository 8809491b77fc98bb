"""Whether Google can reach an address of ours: the push trigger runs in Apps Script, on Google's
servers, so the hook's address in the snippet must be one the internet reaches (issue 43 §4). A
loopback, private, link-local or otherwise non-global IP, ``localhost``, a one-word host name and the
names only a local network resolves (``.local``, ``.lan``, ``.home``, ``.internal``) are not.

Pure: a URL in, the host Google cannot reach out ("" when it can, as far as the address tells)."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

__all__ = ["unreachable_host", "LOCAL_SUFFIXES"]

LOCAL_SUFFIXES = (".local", ".lan", ".home", ".internal", ".localdomain", ".home.arpa", ".localhost")


def unreachable_host(url: str) -> str:
    """The host of ``url`` when Google's servers cannot reach it, else ""."""
    host = (urlsplit(url).hostname or "").rstrip(".").lower()
    if not host:
        return url
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        if host == "localhost" or "." not in host or host.endswith(LOCAL_SUFFIXES):
            return host
        return ""
    return "" if ip.is_global else host
