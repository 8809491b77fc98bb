"""A service account's Drive changes feed: one call tells which of the files shared with it changed
since the last page token — every registered sheet of that account at once, without a Sheets read.

``includeRemoved`` makes a share someone revoked show as ``removed``. Drive has its own quota
(far above Sheets'), counted apart by the budget (:mod:`sheets_sync.keeper.budget`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["DRIVE_CHANGES", "Change", "DriveChanges"]

DRIVE_CHANGES = "https://www.googleapis.com/drive/v3/changes"
PAGE_SIZE = 1000  # Drive's largest page
FIELDS = "nextPageToken,newStartPageToken,changes(fileId,removed,time,file(id,modifiedTime,lastModifyingUser(emailAddress)))"


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
            page = self.http.request("get", DRIVE_CHANGES, params={
                "pageToken": token, "includeRemoved": "true", "pageSize": PAGE_SIZE, "fields": FIELDS}).json()
            for item in page.get("changes", []):
                user = (item.get("file") or {}).get("lastModifyingUser", {}).get("emailAddress")
                changes.append(Change(item["fileId"], bool(item.get("removed")), user))
            if "newStartPageToken" in page:
                return changes, str(page["newStartPageToken"])
            token = str(page["nextPageToken"])
