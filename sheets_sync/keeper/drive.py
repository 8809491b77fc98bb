"""A service account's Drive changes feed: one call tells which of the files shared with it changed
since the last page token — every registered sheet of that account at once, without a Sheets read.

``includeRemoved`` makes a share someone revoked show as ``removed``. Drive has its own quota
(far above Sheets'), counted apart by the budget (:mod:`sheets_sync.keeper.budget`).

A page token Google no longer takes (410 Gone for a stale one, 400 "Invalid Value" naming the
page token for a bad one) raises :class:`StalePageToken`: Drive's reference says a rejected
token is to be discarded and the listing restarted, so the caller takes a fresh start token —
and, since what changed in between is unknown, treats every file as changed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["DRIVE_CHANGES", "DRIVE_FILES", "Change", "DriveChanges", "StalePageToken", "is_stale_token_answer",
           "can_edit"]

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
                user = (item.get("file") or {}).get("lastModifyingUser", {}).get("emailAddress")
                changes.append(Change(item["fileId"], bool(item.get("removed")), user))
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
