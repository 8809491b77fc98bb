"""The sync is killed (SIGKILL) at random moments while it writes: the workbook always
opens and holds every protocol value (a reader sees the old or the new file, never half)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import openpyxl
import pytest

from sheets_sync.backends.excel import ExcelBackend

ROOT = Path(__file__).resolve().parent.parent
OWNED = {"Итоги", "Отбор", "Полуфинал", "Финал", "Статистика", "Проверка", "_sheets_sync", "Жеребьёвка", "Журнал"}


def writer(path: Path) -> None:
    """Sync forever, forcing a full write each time (owned tabs hidden from the comparison)."""
    from sheets_sync.backends.base import Snapshot
    from sheets_sync.loop.sync import build_patch, compute

    backend = ExcelBackend(path, backups=2)
    n = 0
    while True:
        snap = backend.read()
        outcome = compute(snap)
        bare = Snapshot(tabs={t: g for t, g in snap.tabs.items() if t not in OWNED}, order=snap.order,
                        source=snap.source, token=snap.token)
        patch = build_patch(bare, outcome)
        backend.apply(patch, base=snap)
        n += 1
        print(n, flush=True)


def protocol_values(path: Path) -> dict:
    wb = openpyxl.load_workbook(path)
    return {ws.title: [[c.value for c in row] for row in ws.iter_rows()] for ws in wb.worksheets
            if ws.title not in OWNED}


@pytest.mark.slow
def test_sigkill_during_writes_never_corrupts(example, tmp_path):
    book = example
    expected = protocol_values(book)
    rng = random.Random(7)
    kills = 0
    deadline = time.monotonic() + 25
    while kills < 8 and time.monotonic() < deadline:
        proc = subprocess.Popen([sys.executable, __file__, str(book)], cwd=ROOT, stdout=subprocess.PIPE,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
        time.sleep(rng.uniform(0.8, 3.0))  # import + one or more cycles, killed anywhere in them
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        kills += 1
        assert protocol_values(book) == expected  # opens, and every protocol value is there
    assert kills >= 5
    # temp files of killed syncs are cleaned up by the next write
    leftovers = [p for p in tmp_path.iterdir() if ".sheets-sync-tmp" in p.name]
    backend = ExcelBackend(book)
    from sheets_sync.loop.sync import sync_once

    sync_once(backend, out_dir=None)
    assert not [p for p in tmp_path.iterdir() if ".sheets-sync-tmp" in p.name], leftovers
    for backup in backend.backups_list():
        openpyxl.load_workbook(backup)


if __name__ == "__main__":
    writer(Path(sys.argv[1]))
