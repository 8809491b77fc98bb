"""What a person typed as WORKBOOK: a Google spreadsheet or a workbook file, and the file's folder.

A malformed spreadsheet URL or ``gsheet:`` id is an error that says what to type instead
(never a traceback); :func:`sheets_sync.backends.check_workbook_ref` does the same for files.
This module imports no backend, so every backend may use it.
"""

from __future__ import annotations

import re
from pathlib import Path

from scoring.errors import SheetsSyncError
from sheets_sync.messages import fail

__all__ = ["is_google_ref", "workbook_folder", "spreadsheet_id", "WorkbookRefError", "EXCEL_SUFFIXES", "ID_LENGTH"]

_GOOGLE_PREFIXES = ("gsheet:", "https://docs.google.com/", "http://docs.google.com/", "docs.google.com/")
# a spreadsheet's id: Google's are 44 characters (older ones a little shorter); 100 leaves room and
# refuses a pasted text of thousands (the server keeps an id in a column of 200)
ID_LENGTH = 100
_ID = re.compile(rf"^[A-Za-z0-9_-]{{10,{ID_LENGTH}}}$")
EXCEL_SUFFIXES = (".xlsx", ".xlsm")


class WorkbookRefError(SheetsSyncError, ValueError):
    """WORKBOOK names no workbook sheets-sync can open (a folder, a malformed Google reference…)."""


def is_google_ref(ref: str) -> bool:
    """A Google spreadsheet (``gsheet:ID``, ``gsheet:new`` or a spreadsheet URL) rather than a file."""
    return ref.startswith(_GOOGLE_PREFIXES)


def workbook_folder(ref: str) -> Path | None:
    """The folder of a workbook file — where its outputs, preset files and error log live — given
    WORKBOOK as typed or a backend's ``source``; None for a Google spreadsheet."""
    if is_google_ref(str(ref)):
        return None
    return Path(ref).expanduser().resolve().parent


def spreadsheet_id(ref: str, *, language: str | None = None) -> str:
    """The spreadsheet id from a URL, ``gsheet:ID`` or a bare ID; :class:`WorkbookRefError`
    (also a ``ValueError``) with the forms that work when it is none of them."""
    value = ref.strip()
    if value.lower().startswith("gsheet:"):
        value = value[len("gsheet:"):].strip()
    elif "://" in value or value.startswith("docs.google.com"):
        m = re.search(r"/spreadsheets/d/([A-Za-z0-9_-]+)", value) or re.search(r"[?&](?:key|id)=([A-Za-z0-9_-]+)",
                                                                                value)
        value = m.group(1) if m else ""
    if not _ID.match(value):
        raise fail(WorkbookRefError, "ref.bad_google", language=language, ref=ref)
    return value
