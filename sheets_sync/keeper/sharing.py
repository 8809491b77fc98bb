"""Sharing a spreadsheet with a person through Drive, as the service account it is shared with:
what a co-organizer needs to open the sheet («Открыть таблицу») and edit its protected tabs
(issue 43 §1).

Three Drive calls, Drive's quota (never Sheets'): ``files.get`` of ``capabilities(canEdit,canShare)``
tells whether the account may share at all — it must be an editor, and the owner must leave
«Editors can change permissions and share» on; ``permissions.list`` finds a person's permission by
e-mail; ``permissions.create`` (role ``writer``) and ``permissions.delete`` share and unshare.

A new permission is created with ``sendNotificationEmail=true``: Drive refuses to share with an
address that has no Google account unless it notifies (the Share dialog's «Notify people»), and
the letter puts the sheet in the person's «Shared with me» under their own name. The person has
just accepted on our page, so the letter is expected, not a surprise.

Framework-free: ``http`` is anything with gspread's ``request(method, url, params=…, json=…)`` (the
web app passes the account's budgeted client). An HTTP error is raised to the caller."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from sheets_sync.keeper.drive import DRIVE_FILES

__all__ = ["Capabilities", "capabilities", "permission_of", "share_as_editor", "unshare", "EDITOR_ROLES"]

EDITOR_ROLES = frozenset({"owner", "organizer", "fileOrganizer", "writer"})  # Drive's roles that edit
PERMISSION_FIELDS = "nextPageToken,permissions(id,type,role,emailAddress)"


@dataclass(frozen=True)
class Capabilities:
    can_edit: bool
    can_share: bool  # an editor whom the owner lets share (or the owner)


def _file(file_id: str) -> str:
    return f"{DRIVE_FILES}/{quote(file_id, safe='')}"


def capabilities(http: Any, file_id: str) -> Capabilities:
    """What the account may do with the file: one ``files.get``."""
    answer = http.request("get", _file(file_id), params={"fields": "capabilities(canEdit,canShare)",
                                                          "supportsAllDrives": "true"}).json()
    caps = answer.get("capabilities", {})
    return Capabilities(can_edit=bool(caps.get("canEdit")), can_share=bool(caps.get("canShare")))


def permission_of(http: Any, file_id: str, email: str) -> dict | None:
    """The user permission of ``email`` on the file (``id``, ``role``), None when it has none
    (e-mails compare ignoring case, as Google's do)."""
    wanted = email.casefold()
    params: dict[str, str] = {"fields": PERMISSION_FIELDS, "pageSize": "100", "supportsAllDrives": "true"}
    while True:
        page = http.request("get", f"{_file(file_id)}/permissions", params=params).json()
        for permission in page.get("permissions", []):
            if permission.get("type") == "user" and str(permission.get("emailAddress", "")).casefold() == wanted:
                return permission
        token = page.get("nextPageToken")
        if not token:
            return None
        params = {**params, "pageToken": str(token)}


def share_as_editor(http: Any, file_id: str, email: str) -> dict:
    """Give ``email`` the role ``writer`` (a notification letter from Google goes with it)."""
    return http.request("post", f"{_file(file_id)}/permissions",
                        params={"sendNotificationEmail": "true", "supportsAllDrives": "true", "fields": "id,role"},
                        json={"type": "user", "role": "writer", "emailAddress": email}).json()


def unshare(http: Any, file_id: str, permission_id: str) -> None:
    """Delete one permission (what the owner's «Remove access» does)."""
    http.request("delete", f"{_file(file_id)}/permissions/{quote(permission_id, safe='')}",
                 params={"supportsAllDrives": "true"})
