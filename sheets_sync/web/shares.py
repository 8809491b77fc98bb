"""How a registered sheet is shared with its service account — as «Editor», as «Viewer», or no more —
told by one Drive call (``capabilities.canEdit``), never by a Sheets request.

A share lowered to «Viewer» lets the service read but refuses its first write with a 403; the
sync that meets it calls :func:`note_refused_access`, which marks the tournament
(``share_view_only``, or ``share_lost`` when Drive no longer shows the file) for its owner's
page. A marked sheet is neither swept nor polled; a change Drive reports for it asks
:func:`edit_access` again, and the sync resumes once the service is an editor again."""

from __future__ import annotations

import logging

from sheets_sync.keeper.drive import can_edit
from sheets_sync.web.models import ServiceAccount, Tournament
from sheets_sync.web.workbooks import account_http

__all__ = ["edit_access", "note_refused_access", "NOT_SHARED"]

log = logging.getLogger("sheets_sync.web.shares")

NOT_SHARED = "not shared"


def edit_access(account: ServiceAccount | None, spreadsheet_id: str) -> bool | str | None:
    """True (editor), False (viewer or commenter), :data:`NOT_SHARED` (Drive answers 403/404), or
    None when Drive could not be asked (the caller leaves things as they are)."""
    if account is None or not spreadsheet_id:
        return None
    try:
        return can_edit(account_http(account), spreadsheet_id)
    except Exception as exc:  # noqa: BLE001 - a Drive failure must not hide the sync's own error
        status = getattr(getattr(exc, "response", None), "status_code", None)
        if status in (403, 404):
            return NOT_SHARED
        log.info("Drive capabilities of %s not read: %s", spreadsheet_id, type(exc).__name__)
        return None


def note_refused_access(tournament: Tournament) -> None:
    """A sync was refused with 403: mark the tournament as Drive tells why."""
    access = edit_access(tournament.account, tournament.spreadsheet_id)
    rows = Tournament.objects.filter(pk=tournament.pk)
    if access is False:
        rows.update(share_view_only=True)
        log.warning("%s: shared with %s as a viewer, writes refused", tournament.slug, tournament.account.email)
    elif access == NOT_SHARED:
        rows.update(share_lost=True)
