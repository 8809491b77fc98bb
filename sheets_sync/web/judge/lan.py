"""The address a judge's phone opens. On the server: the address the organizer's page was opened
at. In ``sheets-sync app --lan`` (the app listening on the venue's Wi-Fi): the computer's address on
that network, never 127.0.0.1 — a QR code of 127.0.0.1 opens the phone itself."""

from __future__ import annotations

import os

from django.conf import settings
from django.http import HttpRequest

__all__ = ["phone_base", "lan_address", "LAN_ENV"]

LAN_ENV = "SHEETS_SYNC_APP_LAN"  # set by ``app --lan``: the machine's address on the network


def lan_address() -> str:
    """This computer's address on its network (the interface of the default route; no packet is sent)."""
    from sheets_sync.web.addresses import phone_address

    return phone_address("0.0.0.0") or "127.0.0.1"


def phone_base(request: HttpRequest) -> str:
    lan = os.environ.get(LAN_ENV, "")
    if settings.MODE == "app" and lan:
        return f"http://{lan}:{request.get_port()}"
    return request.build_absolute_uri("/").rstrip("/")
