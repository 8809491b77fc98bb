"""A sync does only the work the spreadsheet's changes call for — and that work is all it takes.

* A sync with nothing changed since the last one (same workbook bytes, preset, templates,
  package) computes nothing, renders nothing and writes nothing, on Excel and on Google
  (counted through ``sync_once``'s injected ``compute_outcome``/``publish`` seams, never timed).
* After one protocol edit only the output files whose content changed are rewritten.
* Property: a sync after k random protocol edits, each followed by a sync, leaves exactly the
  same workbook values and the same output bytes as one sync from scratch of the same edits.
* ``watch`` on an .xlsx wakes on a save (file-system events) and runs one cycle for it — its
  own write wakes it too, but is recognised and computes nothing.
"""

from __future__ import annotations

import shutil
import threading
from decimal import Decimal
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.cli import main
from sheets_sync.example import EXAMPLE_PATH
from sheets_sync.loop.file_events import file_events
from sheets_sync.loop.outcome import compute
from sheets_sync.loop.publish import publish_files
from sheets_sync.loop.sync import sync_once
from sheets_sync.loop.sync_memory import RECORD
from sheets_sync.loop.watch import Watcher
from tests.helpers import examples, table
from tests.judge import ExcelDesk, _table


class Counting:
    """``compute_outcome`` and ``publish`` for ``sync_once`` that count their calls."""

    def __init__(self) -> None:
        self.computed = 0
        self.published = 0

    def compute(self, *args, **kw):
        self.computed += 1
        return compute(*args, **kw)

    def publish(self, outcome, out_dir, **kw):
        self.published += 1
        return publish_files(outcome, out_dir, **kw)

    def sync(self, backend, out_dir, **kw):
        return sync_once(backend, out_dir=out_dir, compute_outcome=self.compute, publish=self.publish, **kw)


def outputs(folder: Path) -> dict[str, bytes]:
    """Every file a sync wrote beside the workbook (not its own record of the last sync, nor the
    change log ``log.jsonl``, which grows by design whenever a typed value changed)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and RECORD.parts[0] not in p.relative_to(folder).parts and p.name != "log.jsonl"
            and "sheets-sync-backups" not in p.parts and p.suffix != ".xlsx"}


def stamps(folder: Path) -> dict[str, tuple[int, int]]:
    return {p.relative_to(folder).as_posix(): (p.stat().st_mtime_ns, p.stat().st_ino) for p in sorted(folder.rglob("*"))
            if p.is_file()}


def tab_values(path: Path) -> dict[str, list[tuple]]:
    wb = openpyxl.load_workbook(path)
    return {ws.title: [tuple(row) for row in ws.iter_rows(values_only=True)] for ws in wb.worksheets}


@pytest.fixture(autouse=True)
def pinned_clock(monkeypatch):
    """«Обновлено» on every page is the minute of the sync: pinned, so that two syncs a minute
    apart are compared on what they computed."""
    monkeypatch.setenv("SHEETS_SYNC_NOW", "2026-12-01T14:05")


@pytest.fixture
def book(tmp_path) -> Path:
    path = tmp_path / "cup.xlsx"
    shutil.copyfile(EXAMPLE_PATH, path)
    return path


def protocol_tabs(path: Path) -> list[str]:
    return [t for t in openpyxl.load_workbook(path, read_only=True).sheetnames if t.startswith("Тур ")]


def edit_cell(desk: ExcelDesk, tab: str, seat: int, field: str) -> str:
    """The A1 cell of ``field`` (extra points, fouls) at ``seat`` of the protocol ``tab``."""
    from scoring.cells import a1

    r, cols, _ = _table(desk.grid(tab))
    return a1(r + 1 + seat, cols[field])


# -- nothing changed --------------------------------------------------------------------------------
def test_unchanged_excel_sync_computes_renders_and_writes_nothing(book):
    out = book.parent
    first = sync_once(ExcelBackend(book, backups=0), out_dir=out)
    assert first.written and first.files
    before, workbook_bytes = stamps(out), book.read_bytes()
    counting = Counting()
    again = counting.sync(ExcelBackend(book, backups=0), out)
    assert again.skipped and not again.written and again.files == []
    assert (counting.computed, counting.published) == (0, 0)
    assert stamps(out) == before and book.read_bytes() == workbook_bytes
    assert again.errors == first.errors and again.warnings == first.warnings


def test_unchanged_sync_through_the_cli_says_so_and_touches_nothing(book):
    runner = CliRunner()
    assert runner.invoke(main, ["sync", str(book), "--language", "en"]).exit_code == 0
    before = stamps(book.parent)
    result = runner.invoke(main, ["sync", str(book), "--language", "en"])
    assert result.exit_code == 0, result.output
    assert "as the last sync left them" in result.output
    assert stamps(book.parent) == before


@pytest.mark.parametrize("change", ["template", "preset file", "deleted page", "edited protocol"])
def test_what_makes_the_next_sync_run_in_full(book, tmp_path, monkeypatch, change):
    """Whatever the outputs depend on but the workbook — a template, the preset file, an
    output somebody deleted — makes the next sync compute and render again."""
    from sheets_sync.loop import sync_memory

    out = tmp_path / "out"
    sync_once(ExcelBackend(book, backups=0), out_dir=out)
    if change == "template":
        versions = dict(sync_memory.static_versions())
        monkeypatch.setattr(sync_memory, "static_versions", lambda: {**versions, "templates": "edited"})
    elif change == "preset file":
        # the tournament names its own preset file: edited, the record no longer fits
        record = sync_memory.SyncMemory(out)
        data = record.record()
        preset = tmp_path / "cup.toml"
        preset.write_text("# a copy\n", encoding="utf-8")
        data["key"]["preset_file"], data["key"]["preset_version"] = str(preset), sync_memory.file_version(preset)
        (out / RECORD).write_text(__import__("json").dumps(data), encoding="utf-8")
        preset.write_text("# edited\n", encoding="utf-8")
    elif change == "deleted page":
        next(p for p in (out / "site" / "players").iterdir()).unlink()
    else:
        desk = ExcelDesk(book)
        tab = protocol_tabs(book)[0]
        desk.type({(tab, edit_cell(desk, tab, 0, "extra")): "0,4"})
    counting = Counting()
    report = counting.sync(ExcelBackend(book, backups=0), out)
    assert not report.skipped and (counting.computed, counting.published) == (1, 1)
    if change == "deleted page":
        assert report.outputs["written"] == 1  # the one page that was missing, nothing else


def test_unchanged_google_sync_reads_once_and_renders_nothing(fake_server, sa_key, tmp_path):
    from tests.google_support import google_backend

    snap = ExcelBackend(EXAMPLE_PATH).read()
    tabs = {t: [[float(v) if isinstance(v, Decimal) else v for v in row] for row in g] for t, g in snap.tabs.items()}
    sid = fake_server.create_spreadsheet("Cup", tabs={t: [] for t in tabs})
    for t, rows in tabs.items():
        if rows:
            fake_server.set_values(sid, t, rows, raw=True)
    backend = google_backend(fake_server, sa_key, sid)
    out = tmp_path / "out"
    assert sync_once(backend, out_dir=out).written
    # our write's result is not known without reading it back: this sync computes, writes nothing, remembers
    second = sync_once(backend, out_dir=out)
    assert not second.written and not second.skipped
    fake_server.reset_counts()
    counting = Counting()
    third = counting.sync(backend, out)
    assert third.skipped and (counting.computed, counting.published) == (0, 0)
    paths = [r["path"] for r in fake_server.request_log]
    assert not any("batchUpdate" in p for p in paths), paths
    assert fake_server.request_count <= 2  # metadata + values, as before


# -- one edit -----------------------------------------------------------------------------------------
def test_one_edit_rewrites_only_the_files_that_changed(book):
    out = book.parent
    sync_once(ExcelBackend(book, backups=0), out_dir=out)
    before, old = stamps(out), outputs(out)
    desk = ExcelDesk(book)
    tab = protocol_tabs(book)[0]
    desk.type({(tab, edit_cell(desk, tab, 0, "extra")): "0,4"})
    report = sync_once(ExcelBackend(book, backups=0), out_dir=out)
    new, after = outputs(out), stamps(out)
    changed = {rel for rel in new if old.get(rel) != new[rel]}
    touched = {rel for rel in new if before.get(rel) != after.get(rel)}
    assert changed and touched == changed
    assert report.outputs["written"] == len(changed) and report.outputs["kept"] == len(new) - len(changed)


# -- the property ---------------------------------------------------------------------------------------
EDIT = st.tuples(st.integers(0, 37), st.integers(0, 9), st.sampled_from(["extra", "fouls"]),
                 st.sampled_from(["0,1", "0,3", "-0,2", "1", "2", None]))


@pytest.mark.slow
@settings(max_examples=examples(5), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(EDIT, min_size=1, max_size=3))
def test_syncs_between_edits_end_where_one_sync_from_scratch_ends(tmp_path_factory, edits):
    tmp = tmp_path_factory.mktemp("incremental")
    step, scratch = tmp / "step" / "cup.xlsx", tmp / "scratch" / "cup.xlsx"
    for path in (step, scratch):
        path.parent.mkdir()
        shutil.copyfile(EXAMPLE_PATH, path)
    tabs = protocol_tabs(step)
    sync_once(ExcelBackend(step, backups=0), out_dir=step.parent)
    typed = []
    for tab_no, seat, field, text in edits:
        tab = tabs[tab_no % len(tabs)]
        desk = ExcelDesk(step)
        edit = {(tab, edit_cell(desk, tab, seat, field)): text}
        typed.append(edit)
        desk.type(edit)
        sync_once(ExcelBackend(step, backups=0), out_dir=step.parent)
    desk = ExcelDesk(scratch)
    for edit in typed:
        desk.type(edit)
    sync_once(ExcelBackend(scratch, backups=0), out_dir=scratch.parent)
    stepped, fresh = tab_values(step), tab_values(scratch)
    # the Log tab is history: the stepped workbook lists the cells typed between its syncs,
    # the one synced once from scratch has no earlier sync to compare with
    log = table(stepped.pop("Журнал"))
    assert table(fresh.pop("Журнал"))[1:] == []
    assert {(row[1], row[2]) for row in log[1:]} <= {key for edit in typed for key in edit}
    assert stepped == fresh
    assert outputs(step.parent) == outputs(scratch.parent)


# -- watch ------------------------------------------------------------------------------------------------
def test_watch_wakes_on_a_save_and_runs_one_cycle_for_it(book):
    events = file_events(book)
    if events is None:
        pytest.skip("no file-system events on this platform (watch polls)")
    cycles = []
    watcher = Watcher(ExcelBackend(book, backups=0), out_dir=book.parent, say=lambda line: None)
    try:
        assert watcher.poll() is not None  # the first look computes and writes
        events.wait(0.2)  # our own write's events
        assert watcher.poll() is None  # ...are ours: nothing to compute
        desk = ExcelDesk(book)
        tab = protocol_tabs(book)[0]
        saver = threading.Timer(0.1, desk.type, args=({(tab, edit_cell(desk, tab, 1, "extra")): "0,2"},))
        saver.start()
        assert events.wait(30)  # woken by the judge's save, long before the interval
        saver.join()
        cycles.append(watcher.poll())
        while events.wait(0.3):  # whatever else that save (and our write) made the kernel say
            cycles.append(watcher.poll())
    finally:
        events.close()
    ran = [r for r in cycles if r is not None]
    assert len(ran) == 1 and ran[0].written


def test_the_vk_picture_is_drawn_again_only_when_what_it_shows_changed(book, monkeypatch):
    """The picture is drawn from its texts alone (render/vk.py): a sync whose picture would show
    the same texts, to the minute of «Обновлено», keeps the file; an edit of the top of the
    standings, or another minute, draws it again."""
    from sheets_sync.render import vk

    drawn = []
    real = vk._draw
    monkeypatch.setattr(vk, "_draw", lambda picture: drawn.append(picture) or real(picture))
    out = book.parent
    sync_once(ExcelBackend(book, backups=0), out_dir=out)
    assert len(drawn) == 1
    picture = (out / "vk-post.png").read_bytes()
    desk = ExcelDesk(book)
    tab = protocol_tabs(book)[0]
    from scoring.cells import a1

    judge = next(a1(r, c + 1) for r, row in enumerate(desk.grid(tab)) for c, v in enumerate(row) if v == "Судья")
    desk.type({(tab, judge): "Судья 7"})  # the protocol changes, no point does
    assert sync_once(ExcelBackend(book, backups=0), out_dir=out).written
    assert len(drawn) == 1 and (out / "vk-post.png").read_bytes() == picture
    leader = table(ExcelDesk(book).grid("Итоги"))[1][1]
    seat, tab = next((rec.seat, p.sheet) for p in compute(ExcelBackend(book).read()).results.tournament.protocols
                     for rec in p.seats if rec.player == leader)
    desk = ExcelDesk(book)
    desk.type({(tab, edit_cell(desk, tab, seat - 1, "extra")): "0,7"})
    sync_once(ExcelBackend(book, backups=0), out_dir=out)
    assert len(drawn) == 2 and (out / "vk-post.png").read_bytes() != picture
    desk = ExcelDesk(book)
    desk.type({(protocol_tabs(book)[0], judge): "Судья 8"})  # no point changes, as above, but a minute later
    monkeypatch.setenv("SHEETS_SYNC_NOW", "2026-12-01T14:06")
    assert sync_once(ExcelBackend(book, backups=0), out_dir=out).written
    assert len(drawn) == 3
