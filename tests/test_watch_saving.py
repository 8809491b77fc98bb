"""`watch` while Excel is saving (issue 34 §9): a workbook cut short, empty, gone for a moment or
locked is a save under way — waited for and read again quietly, never «ошибка: … not a readable
.xlsx workbook»; only a file that stays unreadable past the grace is an error.

The saves are real bytes on disk: the example edited with openpyxl (as a judge's save), then
cut short or emptied the way a save caught half-way leaves it.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console

from sheets_sync.backends.base import WorkbookUnreadable
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.loop.watch import SAVE_GRACE, SAVE_NOTE_AFTER, Watcher, run_watch
from tests.helpers import ROOT
from tests.test_safety import edit

TAB = "Тур 1 Стол 1"


def _edited_bytes(example: Path, tmp_path: Path) -> bytes:
    """The example as a judge's next save leaves it (one extra point changed)."""
    copy = tmp_path / "next.xlsx"
    shutil.copyfile(example, copy)
    edit(copy, TAB, "I10", 0.3)
    return copy.read_bytes()


def _write(path: Path, data: bytes) -> None:
    with open(path, "wb") as fh:  # in place, as Excel's own save writes the file
        fh.write(data)


def test_watch_waits_for_a_save_in_progress_and_reads_the_saved_file(example, tmp_path):
    full = _edited_bytes(example, tmp_path)
    steps = [
        lambda: _write(example, full[: len(full) // 2]),  # cut short: the save is half-way
        lambda: _write(example, b""),  # emptied: the save has just begun
        lambda: example.unlink(),  # replaced: the old file is gone, the new one not yet renamed
        lambda: _write(example, full),  # saved
    ]
    waits = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        if steps:
            steps.pop(0)()

    buf = io.StringIO()
    watcher = run_watch(ExcelBackend(example), out_dir=None, interval=10, cycles=5,
                        console=Console(file=buf, width=200), sleep=sleep)
    said = buf.getvalue()
    assert "ошибка" not in said and "error" not in said.lower(), said
    assert "not a readable" not in said and "no such workbook" not in said, said
    assert said.count("\n") == 3, said  # what it watches, the first sync, the saved edit: nothing in between
    assert f"изменены: {TAB}" in said.splitlines()[-1], said
    assert watcher.writes == 2 and watcher.failures == 0
    assert waits[1:4] == [1.0, 1.0, 1.0]  # mid-save it looks again in a second, not after the interval


def test_a_workbook_cut_short_when_the_watch_starts_is_waited_for(example, tmp_path):
    full = example.read_bytes()
    _write(example, full[:1000])
    steps = [lambda: _write(example, full)]
    buf = io.StringIO()
    watcher = run_watch(ExcelBackend(example), out_dir=None, interval=0, cycles=2,
                        console=Console(file=buf, width=200), sleep=lambda _s: steps and steps.pop(0)())
    said = buf.getvalue()
    assert "error" not in said.lower() and "ошибка" not in said and "not a readable" not in said, said
    assert "засчитано игр" in said and watcher.writes == 1, said


def test_a_workbook_that_stays_unreadable_is_said_after_the_grace(example):
    _write(example, b"PK\x03\x04 this was never a workbook")
    said: list[str] = []
    watcher = Watcher(ExcelBackend(example), out_dir=None, say=said.append, language="ru")
    now = [0.0]
    watcher.clock = lambda: now[0]
    assert watcher.poll() is None and said == []  # a save may be under way: quiet
    now[0] = SAVE_NOTE_AFTER + 0.5
    assert watcher.poll() is None
    now[0] = SAVE_NOTE_AFTER + 1.5
    assert watcher.poll() is None
    assert len(said) == 1 and "жду, пока cup.xlsx сохранится" in said[0], said  # one short note
    now[0] = SAVE_GRACE + 1
    with pytest.raises(WorkbookUnreadable, match="not a readable .xlsx workbook") as err:
        watcher.poll()  # broken, not being saved: the error, said by the loop as before
    assert "файл не читается как книга Excel .xlsx" in err.value.message("ru")  # and in the tournament's language
    now[0] = SAVE_GRACE + 2
    with pytest.raises(WorkbookUnreadable):
        watcher.poll()  # and it stays an error until the file can be read


def test_a_workbook_missing_at_the_start_still_ends_the_watch(tmp_path):
    from sheets_sync.backends.base import WorkbookNotFound

    with pytest.raises(WorkbookNotFound):
        run_watch(ExcelBackend(tmp_path / "none.xlsx"), out_dir=None, interval=0, cycles=3,
                  console=Console(file=io.StringIO()), sleep=lambda _s: None)


@pytest.mark.slow
def test_the_watch_command_through_a_save_caught_half_way(example, tmp_path):
    """The real command with file events: the truncated file wakes it, then the full one."""
    full = _edited_bytes(example, tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    watch = subprocess.Popen([sys.executable, "-m", "sheets_sync.cli", "watch", str(example), "--interval", "5",
                              "--backups", "0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    lines: list[str] = []
    try:
        deadline = time.monotonic() + 120
        while not any("засчитано игр" in ln for ln in lines):  # the first sync
            assert time.monotonic() < deadline and watch.poll() is None, lines
            lines.append(watch.stdout.readline())
        _write(example, full[: len(full) // 3])
        time.sleep(2.5)  # the watch wakes on the save and finds it cut short
        _write(example, full)
        while not any(f"изменены: {TAB}" in ln for ln in lines):
            assert time.monotonic() < deadline and watch.poll() is None, lines
            lines.append(watch.stdout.readline())
    finally:
        watch.terminate()
        rest, _ = watch.communicate(timeout=30)
    said = "".join(lines) + rest
    assert "ошибка" not in said and "not a readable" not in said and "Traceback" not in said, said
    assert not re.search(r"жду, пока .* сохранится", said), said  # 2.5 s is an ordinary save: not even a note
