"""The one base of every error a person can cause (a bad preset, an impossible format, a
workbook that cannot be read or written, a command that refuses).

Everything that derives from :class:`SheetsSyncError` carries a message meant for the
organizer; the command line catches this one class and prints the message.  Anything else
that escapes is a bug in sheets-sync and is reported as one (with a log file).
"""

from __future__ import annotations

__all__ = ["SheetsSyncError"]


class SheetsSyncError(Exception):
    """An error a person can cause and fix; its message says what and (where it can) how."""
