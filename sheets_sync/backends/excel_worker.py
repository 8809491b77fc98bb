"""Nothing any more: the forked openpyxl worker is gone (the Excel backend reads with calamine).

Kept only while ``sheets_sync/cli/workbook.py`` still starts one: :meth:`WorkbookWorker.start`
answers None, so the command line hands the backend nothing.  Removed with the "loop" rewrite of
the command line.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["WorkbookWorker"]


class WorkbookWorker:
    @staticmethod
    def start(path: Path) -> None:
        return None
