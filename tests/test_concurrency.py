"""A second process keeps saving protocol edits while `watch` runs: none is lost.

The editor behaves like a careful spreadsheet program: it loads the current file, changes
one cell, saves to a temporary file and renames it over the workbook (as Excel does), and
it takes the cooperative folder lock (`workbook_lock`) around that read-modify-replace.
The watcher re-checks the file's fingerprint right before its own rename, so it never
replaces a version it did not compute from.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path

import openpyxl
import pytest
from rich.console import Console

from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.loop.sync import sync_once
from sheets_sync.loop.watch import Watcher

ROOT = Path(__file__).resolve().parent.parent
EDITS = 10
TABS = [f"Тур {r} Стол {t}" for r in range(1, 8) for t in range(1, 5)]


def planned_edits() -> list[tuple[str, str, float, str]]:
    """(tab, cell, extra points, comment): every edit hits its own row, so each stays checkable."""
    out = []
    for i in range(EDITS):
        tab = TABS[(i * 5) % len(TABS)]
        row = 10 + (i % 10)
        out.append((tab, row, round(0.05 * (1 + i % 12), 2), f"правка {i}"))
    return out


def editor(path: Path, pause: float) -> None:
    from sheets_sync.backends.excel import workbook_lock

    for tab, row, extra, comment in planned_edits():
        with workbook_lock(path, timeout=30):
            wb = openpyxl.load_workbook(path)
            ws = wb[tab]
            ws.cell(row=row, column=9).value = extra
            ws.cell(row=row, column=10).value = comment
            tmp = path.with_name(f".{path.name}.editor{os.getpid()}")
            with open(tmp, "wb") as fh:
                wb.save(fh)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        time.sleep(pause)


@pytest.mark.slow
def test_editor_saves_while_watch_runs(example):
    book = example
    backend = ExcelBackend(book, backups=2)
    sync_once(backend, out_dir=None)  # start from a synced workbook
    proc = subprocess.Popen([sys.executable, __file__, str(book), "2.0"], cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    buf = io.StringIO()
    watcher = Watcher(backend, out_dir=None, say=Console(file=buf, width=200).print)
    cycles = 0
    deadline = time.monotonic() + 600  # a safeguard against a hang, not a timing check
    try:
        while proc.poll() is None and time.monotonic() < deadline:
            watcher.poll()
            cycles += 1
            time.sleep(0.01)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.wait() == 0
    for _ in range(3):  # the editor has stopped: let watch catch up
        watcher.poll()
    assert watcher.writes >= 2, buf.getvalue()  # it really wrote while the editor was saving

    wb = openpyxl.load_workbook(book)
    for tab, row, extra, comment in planned_edits():
        assert wb[tab].cell(row=row, column=10).value == comment, (tab, row)  # no edit lost
        assert wb[tab].cell(row=row, column=9).value == extra, (tab, row)
    # the standings reflect the last edit: a fresh computation has nothing to change
    check = sync_once(ExcelBackend(book), out_dir=None, dry_run=True)
    assert not [w.title for w in check.patch.writes], [w.title for w in check.patch.writes]
    # and the last edit counts: its extra points are in that player's game on the Итоги tab's source
    tab, row, extra, _ = planned_edits()[-1]
    game = next(p for p in check.outcome.results.tournament.protocols if p.sheet == tab)
    assert game.seats[row - 10].extra_points == Decimal(str(extra))


if __name__ == "__main__":
    editor(Path(sys.argv[1]), float(sys.argv[2]))
