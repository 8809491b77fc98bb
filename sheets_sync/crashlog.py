"""When sheets-sync itself fails: a log file for the bug report, one line for the person.

Errors a person can cause and fix derive from :class:`scoring.errors.SheetsSyncError` and
are shown as their message.  Anything else is a bug: the person sees one line (what
failed, what to do, where the details are) and never a traceback; the traceback goes to
``sheets-sync-error.log`` beside the workbook (the current folder for a Google
spreadsheet, a temporary folder when neither can be written).
"""

from __future__ import annotations

import platform
import sys
import tempfile
import traceback
from datetime import datetime
from pathlib import Path

__all__ = ["LOG_NAME", "log_folder", "write_crash_log", "crash_line"]

LOG_NAME = "sheets-sync-error.log"
_KEEP_BYTES = 1_000_000  # a long-running watch that fails again and again keeps only the newest entries


def log_folder(workbook: str | None) -> Path:
    """Beside a local workbook, else the current folder."""
    from sheets_sync.refs import workbook_folder

    folder = workbook_folder(workbook) if workbook else None
    return folder if folder is not None and folder.is_dir() else Path.cwd()


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("sheets-sync")
    except Exception:  # noqa: BLE001 - a crash log must never fail for want of metadata
        return "unknown"


def write_crash_log(exc: BaseException, *, workbook: str | None, command: str) -> Path:
    """Append the traceback of ``exc`` (with the command, versions and time) to the log; return its path."""
    entry = "".join([
        f"=== {datetime.now().isoformat(timespec='seconds')} sheets-sync {_version()} "
        f"(Python {platform.python_version()}, {platform.platform()})\n",
        f"command: {command}\n",
        f"workbook: {workbook or '-'}\n",
        *traceback.format_exception(exc),
        "\n",
    ])
    for folder in (log_folder(workbook), Path(tempfile.gettempdir())):
        path = folder / LOG_NAME
        try:
            old = path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
            if len(old) > _KEEP_BYTES:
                old = old[-_KEEP_BYTES // 2:]
            path.write_text(old + entry, encoding="utf-8")
            return path
        except OSError:
            continue
    sys.stderr.write(entry)  # nowhere to write: the traceback is better on the screen than lost
    return Path("-")


def crash_line(exc: BaseException, *, command: str, log: Path, language: str = "en") -> str:
    """One line for the person: what failed, what to do, where the details are."""
    what = f"{type(exc).__name__}: {exc}".strip().rstrip(":")
    if len(what) > 160:
        what = what[:159] + "…"
    if language == "ru":
        return (f"sheets-sync {command}: внутренняя ошибка программы ({what}). Это ошибка sheets-sync, а не ваша. "
                f"Повторите команду; если ошибка повторится, отправьте разработчикам файл {log}")
    return (f"sheets-sync {command}: internal error ({what}). This is a bug in sheets-sync, not your mistake. "
            f"Run the command again; if it fails again, send {log} to the developers")
