"""What a person typed as WORKBOOK: a Google spreadsheet or a workbook file, and the file's folder."""

from __future__ import annotations

from pathlib import Path

__all__ = ["is_google_ref", "workbook_folder"]

_GOOGLE_PREFIXES = ("gsheet:", "https://docs.google.com/", "http://docs.google.com/", "docs.google.com/")


def is_google_ref(ref: str) -> bool:
    """A Google spreadsheet (``gsheet:ID``, ``gsheet:new`` or a spreadsheet URL) rather than a file."""
    return ref.startswith(_GOOGLE_PREFIXES)


def workbook_folder(ref: str) -> Path | None:
    """The folder of a workbook file — where its outputs, preset files and error log live — given
    WORKBOOK as typed or a backend's ``source``; None for a Google spreadsheet."""
    if is_google_ref(str(ref)):
        return None
    return Path(ref).expanduser().resolve().parent
