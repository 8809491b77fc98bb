"""The Google service accounts the server acts as: read from key files, never stored as keys.

``SHEETS_SYNC_SERVICE_ACCOUNTS`` names a folder of JSON keys (or one key file).
:func:`load_service_accounts` keeps one :class:`ServiceAccount` row per key — its ``client_email``
and the file's path; the private key stays in the file, so it is in no database dump, page or
log. :func:`pick_account` gives a new sheet to the account with the fewest tournaments: Google's
quota (60 reads and 60 writes a minute) is per account, so several accounts share the load.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from django.conf import settings
from django.db.models import Count

from sheets_sync.web.models import ServiceAccount

__all__ = ["load_service_accounts", "pick_account", "NoServiceAccount"]

log = logging.getLogger("sheets_sync.web.service_accounts")


class NoServiceAccount(RuntimeError):
    """The server has no service-account key: nothing can be shared with it."""


def _key_files(where: Path) -> list[Path]:
    return sorted(where.glob("*.json")) if where.is_dir() else [where]


def _client_email(path: Path) -> str | None:
    """The key's ``client_email`` — the only field read out of it here."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        log.warning("service-account key %s: not a readable JSON file, skipped", path)
        return None
    email = data.get("client_email") if isinstance(data, dict) else None
    if not email or data.get("type") != "service_account":
        log.warning("service-account key %s: no client_email of a service account, skipped", path)
        return None
    return str(email)


def load_service_accounts(where: str | Path | None = None) -> list[ServiceAccount]:
    """Create or update a row for every key in ``where`` (default: the setting); the accounts found."""
    where = where or settings.SERVICE_ACCOUNTS
    if not where:
        return []
    found = []
    for path in _key_files(Path(where).expanduser().resolve()):
        email = _client_email(path)
        if email is None:
            continue
        account, _ = ServiceAccount.objects.update_or_create(email=email, defaults={"key_file": str(path)})
        found.append(account)
    return found


def pick_account() -> ServiceAccount:
    """The account with the fewest tournaments (keys loaded first when none is known yet)."""
    if not ServiceAccount.objects.exists():
        load_service_accounts()
    account = (ServiceAccount.objects.annotate(load=Count("tournaments")).order_by("load", "pk").first())
    if account is None:
        raise NoServiceAccount("no service account: set SHEETS_SYNC_SERVICE_ACCOUNTS to a folder of key files")
    return account
