"""The one base of every error a person can cause (a bad preset, an impossible format, a
workbook that cannot be read or written, a command that refuses).

Everything that derives from :class:`SheetsSyncError` carries a message meant for the
organizer; the command line catches this one class and prints the message.  Anything else
that escapes is a bug in sheets-sync and is reported as one (with a log file).

The message is English (``str(error)``); an error may also carry its Russian text (``ru``)
and the tournament's language when the code that raised it knew it (``language``); the
command line prints :meth:`SheetsSyncError.message` in the language it speaks.
"""

from __future__ import annotations

__all__ = ["SheetsSyncError"]


class SheetsSyncError(Exception):
    """An error a person can cause and fix; its message says what and (where it can) how."""

    ru: str | None = None  # the same message in Russian, where the raiser wrote one
    language: str | None = None  # the tournament's language ("ru"/"en"), where the raiser knew it
    key: str | None = None  # the message's key in sheets_sync.messages, where it was said from there
    values: dict[str, object] = {}  # … and what was filled into it (another face — the web — words it anew)

    def __init__(self, *args: object, ru: str | None = None, language: str | None = None):
        super().__init__(*args)
        if ru is not None:
            self.ru = ru
        if language is not None:
            self.language = language

    def message(self, language: str) -> str:
        """The message in ``language`` ("ru" or "en"); English where no Russian text was given."""
        return self.ru if language == "ru" and self.ru else str(self)
