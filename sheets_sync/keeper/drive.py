"""A service account's Drive changes feed: one call tells which of the files shared with it changed
since the last page token — every registered sheet of that account at once, without a Sheets read.

``includeRemoved`` makes a share someone revoked show as ``removed``. Drive has its own quota
(far above Sheets'), counted apart by the budget (:mod:`sheets_sync.keeper.budget`).

A page token Google no longer takes (410 Gone for a stale one, 400 "Invalid Value" naming the
page token for a bad one) raises :class:`StalePageToken`: Drive's reference says a rejected
token is to be discarded and the listing restarted, so the caller takes a fresh start token —
and, since what changed in between is unknown, treats every file as changed.

What a change asks of the keeper (:func:`change_kind`) comes from the file's ``modifiedTime`` and
``lastModifyingUser`` in the change: the service's own write asks nothing, nor does a change Drive
dates before the last sync's read (Drive is minutes late: the edit is on the site already); only
someone else's change after that read is news."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

__all__ = ["DRIVE_CHANGES", "DRIVE_FILES", "Change", "DriveChanges", "StalePageToken", "is_stale_token_answer",
           "can_edit", "CLOCK_MARGIN", "REMOVED", "OURS", "SEEN", "EDIT", "change_kind", "drive_time"]

DRIVE_CHANGES = "https://www.googleapis.com/drive/v3/changes"
DRIVE_FILES = "https://www.googleapis.com/drive/v3/files"
PAGE_SIZE = 1000  # Drive's largest page
FIELDS = "nextPageToken,newStartPageToken,changes(fileId,removed,time,file(id,modifiedTime,lastModifyingUser(emailAddress)))"


class StalePageToken(RuntimeError):
    """Google refused the stored page token: start again from a new start token."""


def is_stale_token_answer(status: int | None, text: str) -> bool:
    """Whether an HTTP error answer to ``changes.list`` means the page token itself is refused
    (410, or a 400 that names the page token — not any 400: a bad request of ours must not look
    like an expiry and start a full pass every minute)."""
    if status == 410:
        return True
    lowered = text.lower()
    return status == 400 and ("pagetoken" in lowered or "page token" in lowered)


def can_edit(http: Any, file_id: str) -> bool:
    """Whether the account may edit the file — shared as «Editor», not «Viewer»/«Commenter»: one
    Drive ``files.get`` asking only for ``capabilities.canEdit`` (Drive's quota, not Sheets').
    An HTTP error (403/404: not shared at all) is raised to the caller."""
    answer = http.request("get", f"{DRIVE_FILES}/{file_id}",
                          params={"fields": "capabilities(canEdit)", "supportsAllDrives": "true"}).json()
    return bool(answer.get("capabilities", {}).get("canEdit", False))


@dataclass(frozen=True)
class Change:
    file_id: str
    removed: bool  # the file is no longer shared with the account (or was deleted)
    modified_by: str | None  # the e-mail of whoever changed it last (None: not said)
    modified_at: datetime | None = None  # the file's modifiedTime: its last change, by Google's clock (None: not said)


def drive_time(text: str | None) -> datetime | None:
    """Drive's RFC 3339 time (``2026-12-05T10:15:30.123Z``) as an aware datetime; None if absent or unreadable."""
    if not text:
        return None
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None


# Google's clock and ours may differ by a little (both are NTP-kept): a change is taken for one the
# last sync read only when Drive dates it at least this much before that read — the margin can cost
# one sync too many, never an edit missed
CLOCK_MARGIN = timedelta(seconds=2)
REMOVED, OURS, SEEN, EDIT = "removed", "ours", "seen", "edit"


def change_kind(change: Change, account: str, last_read: datetime | None) -> str:
    """What one change of ``account``'s feed asks of the keeper:

    * ``REMOVED`` — the file is no longer shared with the account;
    * ``OURS`` — its last change is the service's own write (a sync, a button): nothing to read;
    * ``SEEN`` — someone else's change that Drive dates before ``last_read`` (the last finished
      sync's read, by our clock) less :data:`CLOCK_MARGIN`: that read had it — the claim code typed
      before the sheet was registered, an edit a push or a poll synced minutes before Drive told;
    * ``EDIT`` — someone else's change after that read, or one Drive does not date, or a sheet
      never synced: a sync (and the fast lane)."""
    if change.removed:
        return REMOVED
    if change.modified_by and change.modified_by.casefold() == account.casefold():
        return OURS
    if change.modified_at is not None and last_read is not None and change.modified_at <= last_read - CLOCK_MARGIN:
        return SEEN
    return EDIT


class DriveChanges:
    """The feed over an authorized transport (anything with gspread's ``request(method, url, params=…)``)."""

    def __init__(self, http: Any) -> None:
        self.http = http

    def start_token(self) -> str:
        return str(self.http.request("get", f"{DRIVE_CHANGES}/startPageToken").json()["startPageToken"])

    def read(self, token: str) -> tuple[list[Change], str]:
        """Every change since ``token`` (all pages) and the token to start from next time."""
        changes: list[Change] = []
        while True:
            page = self._page(token)
            for item in page.get("changes", []):
                file = item.get("file") or {}
                user = file.get("lastModifyingUser", {}).get("emailAddress")
                changes.append(Change(item["fileId"], bool(item.get("removed")), user, drive_time(file.get("modifiedTime"))))
            if "newStartPageToken" in page:
                return changes, str(page["newStartPageToken"])
            token = str(page["nextPageToken"])

    def _page(self, token: str) -> dict:
        try:
            return self.http.request("get", DRIVE_CHANGES, params={
                "pageToken": token, "includeRemoved": "true", "pageSize": PAGE_SIZE, "fields": FIELDS}).json()
        except Exception as exc:
            response = getattr(exc, "response", None)  # gspread's APIError (and requests' HTTPError) carry it
            if is_stale_token_answer(getattr(response, "status_code", None), getattr(response, "text", "") or ""):
                raise StalePageToken(str(getattr(response, "status_code", ""))) from exc
            raise
