"""The quick way a first sync reads an .xlsx is a faster way to the same result, never a different one.

* the quick XML reader (sheets_sync.backends.xlsx_values) gives exactly openpyxl's values — types
  too — for the example, for what a sync writes, for random workbooks (text, numbers, booleans,
  dates and times, formulas, shared formulas, merged cells, rich text), or gives up (None);
* a sync through the forked openpyxl worker (sheets_sync.backends.excel_worker) writes the same
  workbook and the same files as a sync without it;
* a quick reading that differed from openpyxl's would not count: the sync computes again from
  openpyxl's values before it writes;
* a worker that dies (before its load or before its save), a workbook saved after the worker read
  it, a sync with nothing to write: the sync still reads and writes what it should, and no worker
  process is left behind.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import signal
import zipfile
from datetime import date, datetime, timedelta
from pathlib import Path

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont

from sheets_sync.backends import excel as excel_module
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.backends.excel_worker import WorkbookWorker
from sheets_sync.backends.xlsx_values import read_values, same_values, trimmed, worksheet_values
from sheets_sync.sync import sync_once
from tests.helpers import examples

ILLEGAL = re.compile(r"[\000-\010]|[\013-\014]|[\016-\037]")  # what openpyxl refuses to store


def openpyxl_values(data: bytes):
    """What ExcelBackend.read takes from openpyxl: tab order and trimmed values."""
    wb = openpyxl.load_workbook(io.BytesIO(data), data_only=False, rich_text=False)
    return tuple(ws.title for ws in wb.worksheets), {ws.title: trimmed(ws.iter_rows(values_only=True)) for ws in wb.worksheets}


def assert_same_reading(data: bytes, *, may_give_up: bool = False):
    quick = read_values(data)
    if quick is None:
        assert may_give_up, "the quick reader gave up on an ordinary workbook"
        return
    order, tabs = openpyxl_values(data)
    assert quick[0] == order
    assert same_values(quick[1], tabs), next(
        (title, i) for title in tabs for i, (a, b) in enumerate(zip(tabs[title], quick[1][title])) if a != b)


def test_the_example_and_what_a_sync_writes_read_the_same(example, tmp_path):
    assert_same_reading(example.read_bytes())
    wb = openpyxl.load_workbook(example)
    wb["Тур 2 Стол 3"]["D14"] = 7  # a mark and its comment in the written workbook
    wb.save(example)
    sync_once(ExcelBackend(example), out_dir=tmp_path / "site")
    assert_same_reading(example.read_bytes())


def test_same_values_tells_types_apart():
    assert same_values({"a": ((1, "x"),)}, {"a": ((1, "x"),)})
    assert not same_values({"a": ((1,),)}, {"a": ((1.0,),)})
    assert not same_values({"a": ((1,),)}, {"a": ((True,),)})
    assert not same_values({"a": ((1,),)}, {"a": ((1, 2),)})
    assert not same_values({"a": ()}, {"b": ()})


text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12).filter(
    lambda s: not ILLEGAL.search(s) and not s.startswith("="))
cell_value = st.one_of(
    st.none(), text, st.sampled_from(["8 9 10", "0,5", " мирный ", "_x000D_", "a\nb", "-", "1e5", "007"]),
    st.integers(min_value=-(10**15), max_value=10**15),
    st.floats(allow_nan=False, allow_infinity=False, width=64).filter(lambda f: abs(f) < 1e300),
    st.booleans(),
    st.datetimes(min_value=datetime(1900, 3, 1), max_value=datetime(2100, 12, 31)).map(lambda d: d.replace(microsecond=0)),
    st.dates(min_value=date(1900, 3, 1), max_value=date(2100, 12, 31)),
    st.times().map(lambda t: t.replace(microsecond=0)),
    st.integers(min_value=0, max_value=10**6).map(lambda s: timedelta(seconds=s)),
    st.sampled_from(["=1+1", "=SUM(A1:B2)", "=A1&\"x\"", "=IF(A1>1,\"да\",\"нет\")"]),
    st.tuples(text, text).map(lambda p: CellRichText([p[0] or "a", TextBlock(InlineFont(b=True), p[1] or "b")])),
)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tabs=st.lists(st.lists(st.lists(cell_value, max_size=6), max_size=6), min_size=1, max_size=3),
       merges=st.lists(st.tuples(st.integers(1, 5), st.integers(1, 5), st.integers(0, 2), st.integers(0, 2)), max_size=2),
       date1904=st.booleans())
def test_random_workbooks_read_the_same(tabs, merges, date1904):
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    wb.epoch = openpyxl.utils.datetime.CALENDAR_MAC_1904 if date1904 else openpyxl.utils.datetime.WINDOWS_EPOCH
    for i, rows in enumerate(tabs):
        ws = wb.create_sheet(f"Тур {i + 1}")
        for r, row in enumerate(rows, start=1):
            for c, value in enumerate(row, start=1):
                ws.cell(r, c, value)
        if i == 0:
            for r, c, dr, dc in merges:
                ws.merge_cells(start_row=r, start_column=c, end_row=r + dr, end_column=c + dc)
    buf = io.BytesIO()
    wb.save(buf)
    # a date the 1904 calendar cannot hold is one openpyxl itself stores oddly: then giving up is fine
    assert_same_reading(buf.getvalue(), may_give_up=date1904)
    # the worker's way of taking openpyxl's values (its cells, not iter_rows) gives the same values
    loaded = openpyxl.load_workbook(io.BytesIO(buf.getvalue()), data_only=False, rich_text=False)
    held = {ws.title: worksheet_values(ws) for ws in loaded.worksheets}
    assert same_values(held, {ws.title: trimmed(ws.iter_rows(values_only=True)) for ws in loaded.worksheets})


FORMATS = ["General", "0", "0.00", "dd.mm.yyyy", "d/m/y", "[$-419]d mmmm yyyy", "[Red]0.00", '"day" 0', "h:mm",
           "[h]:mm:ss", "[mm]:ss", "mm:ss.0", "yyyy-mm-dd hh:mm", "0.00_);[Red](0.00)", r"\d0", "_d0", "@", "#,##0 ₽",
           "[ss].00", "[hh]", "dd;@", "0;dd"]


@given(fmt=st.one_of(st.sampled_from(FORMATS), st.text(alphabet='dmyhs0#.,;:[]"\\_@-$ HMS419', max_size=14)))
def test_the_copied_date_rules_are_openpyxls(fmt):
    from openpyxl.styles.numbers import is_date_format, is_timedelta_format

    from sheets_sync.backends import xlsx_values as x

    assert x._is_date_format(fmt) == is_date_format(fmt)
    assert x._is_timedelta_format(fmt) == is_timedelta_format(fmt)


def test_the_copied_built_in_formats_are_openpyxls():
    from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format, is_timedelta_format

    from sheets_sync.backends import xlsx_values as x

    assert x._BUILTIN_DATES == {i for i, f in BUILTIN_FORMATS.items() if is_date_format(f)}
    assert x._BUILTIN_DURATIONS == {i for i, f in BUILTIN_FORMATS.items() if is_timedelta_format(f)}


@given(value=st.one_of(st.floats(min_value=0, max_value=2_958_465, allow_nan=False), st.integers(0, 2_958_465)),
       mac=st.booleans(), duration=st.booleans())
def test_the_copied_serial_dates_are_openpyxls(value, mac, duration):
    from openpyxl.utils.datetime import MAC_EPOCH, WINDOWS_EPOCH, from_excel

    from sheets_sync.backends import xlsx_values as x

    epoch = MAC_EPOCH if mac else WINDOWS_EPOCH
    try:
        expected = from_excel(value, epoch, timedelta=duration)
    except (OverflowError, ValueError):
        with pytest.raises((OverflowError, ValueError)):
            x._from_excel(value, epoch, timedelta=duration)
        return
    got = x._from_excel(value, epoch, timedelta=duration)
    assert type(got) is type(expected) and got == expected


def test_a_sync_reads_values_without_importing_openpyxl(example):
    import subprocess
    import sys

    code = ("import sys; from sheets_sync.backends.xlsx_values import read_values; "
            "r = read_values(open(sys.argv[1], 'rb').read()); "
            "assert r is not None and 'openpyxl' not in sys.modules, sorted(m for m in sys.modules if 'openpyxl' in m)[:3]")
    subprocess.run([sys.executable, "-c", code, str(example)], check=True)


def _with_sheet_xml(data: bytes, edit) -> bytes:
    """``data`` with its first worksheet's XML passed through ``edit``."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            body = src.read(item)
            if item.filename == "xl/worksheets/sheet1.xml":
                body = edit(body.decode()).encode()
            dst.writestr(item, body)
    return out.getvalue()


def test_shared_formulas_as_excel_and_libreoffice_write_them():
    wb = openpyxl.Workbook()
    ws = wb.active
    for r in range(1, 4):
        ws.cell(r, 1, r)
        ws.cell(r, 2, f"=A{r}+1")
    buf = io.BytesIO()
    wb.save(buf)

    def share(xml: str) -> str:
        xml = xml.replace("<f>A1+1</f>", '<f t="shared" ref="B1:B3" si="0">A1+1</f>')
        return xml.replace("<f>A2+1</f>", '<f t="shared" si="0"/>').replace("<f>A3+1</f>", '<f t="shared" si="0"/>')

    data = _with_sheet_xml(buf.getvalue(), share)
    assert b'si="0"/>' in zipfile.ZipFile(io.BytesIO(data)).read("xl/worksheets/sheet1.xml")
    assert read_values(data)[1]["Sheet"] == ((1, "=A1+1"), (2, "=A2+1"), (3, "=A3+1"))
    assert_same_reading(data)


def test_an_array_formula_is_left_to_openpyxl():
    wb = openpyxl.Workbook()
    wb.active["A1"] = "=1+1"
    buf = io.BytesIO()
    wb.save(buf)
    data = _with_sheet_xml(buf.getvalue(), lambda x: x.replace("<f>1+1</f>", '<f t="array" ref="A1">1+1</f>'))
    assert read_values(data) is None


# -- the worker -----------------------------------------------------------------------------------
@pytest.fixture(autouse=True)
def one_minute(monkeypatch):
    """Two syncs compared file by file say the same «Обновлено» even across a minute's turn."""
    monkeypatch.setenv("SHEETS_SYNC_NOW", "2026-12-01T14:05")


def _edited(example: Path) -> Path:
    wb = openpyxl.load_workbook(example)
    wb["Тур 2 Стол 3"]["D14"] = 7
    wb.save(example)
    return example


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not any(part.startswith(".") for part in p.relative_to(folder).parts)}


def _reaped(worker: WorkbookWorker) -> bool:
    return worker._pid is None


def _sync_with_worker(path: Path, out: Path, **kw):
    backend = ExcelBackend(path, backups=0)
    backend.prefetched = worker = WorkbookWorker.start(path)
    assert worker is not None
    return sync_once(backend, out_dir=out, **kw), worker


@pytest.fixture
def twins(example, tmp_path):
    """The edited example twice: one to sync with the worker, one without."""
    a = _edited(example)
    b = tmp_path / "b" / a.name
    b.parent.mkdir()
    shutil.copyfile(a, b)
    return a, b


def test_a_sync_through_the_worker_writes_what_a_sync_without_it_writes(twins, tmp_path):
    with_worker, without = twins
    report, worker = _sync_with_worker(with_worker, tmp_path / "w")
    plain = sync_once(ExcelBackend(without, backups=0), out_dir=tmp_path / "p")
    assert _reaped(worker)
    assert report.errors == plain.errors == 1 and not report.patch.empty
    assert same_values(openpyxl_values(with_worker.read_bytes())[1], openpyxl_values(without.read_bytes())[1])
    mark = openpyxl.load_workbook(with_worker)["Тур 2 Стол 3"]["D14"]
    assert mark.comment is not None and "7" in mark.comment.text
    assert _files(tmp_path / "w") == _files(tmp_path / "p")


def test_a_quick_reading_that_differs_from_openpyxls_does_not_count(twins, tmp_path, monkeypatch):
    with_worker, without = twins
    real = excel_module.read_values

    def wrong(data):  # a reader bug: the winner of one game read as the other team
        order, tabs = real(data)
        grid = [list(row) for row in tabs["Тур 1 Стол 1"]]
        grid[5][1] = "Мафия" if "ирн" in str(grid[5][1]) else "Мирные"
        return order, {**tabs, "Тур 1 Стол 1": tuple(map(tuple, grid))}

    monkeypatch.setattr(excel_module, "read_values", wrong)
    report, worker = _sync_with_worker(with_worker, tmp_path / "w")
    plain = sync_once(ExcelBackend(without, backups=0), out_dir=tmp_path / "p")
    assert _reaped(worker)
    assert report.outcome.results.overall == plain.outcome.results.overall
    assert _files(tmp_path / "w") == _files(tmp_path / "p")
    assert same_values(openpyxl_values(with_worker.read_bytes())[1], openpyxl_values(without.read_bytes())[1])


@pytest.mark.parametrize("when", ["before its load", "before its save"])
def test_a_worker_that_dies_leaves_the_work_to_the_sync(twins, tmp_path, when):
    with_worker, without = twins
    backend = ExcelBackend(with_worker, backups=0)
    backend.prefetched = worker = WorkbookWorker.start(with_worker)
    if when == "before its save":
        worker.values()  # loaded
    os.kill(worker._pid, signal.SIGKILL)
    report = sync_once(backend, out_dir=tmp_path / "w")
    plain = sync_once(ExcelBackend(without, backups=0), out_dir=tmp_path / "p")
    assert _reaped(worker) and not report.patch.empty and report.errors == plain.errors == 1
    assert same_values(openpyxl_values(with_worker.read_bytes())[1], openpyxl_values(without.read_bytes())[1])
    assert _files(tmp_path / "w") == _files(tmp_path / "p")


def test_nothing_to_write_stops_the_worker(example, tmp_path):
    sync_once(ExcelBackend(example, backups=0), out_dir=tmp_path / "a")
    before = example.read_bytes()
    report, worker = _sync_with_worker(example, tmp_path / "a", dry_run=True)
    assert _reaped(worker) and example.read_bytes() == before
    report, worker = _sync_with_worker(example, tmp_path / "a")
    assert report.patch.empty and _reaped(worker) and example.read_bytes() == before


def test_a_workbook_saved_after_the_worker_read_it_is_read_again(example, tmp_path):
    worker = WorkbookWorker.start(example)
    wb = openpyxl.load_workbook(example)
    wb["Тур 2 Стол 3"]["D14"] = 7  # the judge saves while the sync starts
    wb.save(example)
    backend = ExcelBackend(example, backups=0)
    backend.prefetched = worker
    report = sync_once(backend, out_dir=tmp_path / "a")
    assert _reaped(worker)
    assert report.errors == 1 and any(p.cell == "D14" for p in report.outcome.problems)
    assert openpyxl.load_workbook(example)["Тур 2 Стол 3"]["D14"].value == 7


# -- a save handed to the worker ahead (prepare), and what may happen before it is applied --------------
def _prepared(path: Path):
    from sheets_sync.backends.base import Patch, TabWrite

    backend = ExcelBackend(path, backups=0)
    backend.prefetched = worker = WorkbookWorker.start(path)
    snapshot = backend.settle(backend.read())
    patch = Patch(writes=(TabWrite(title="Итоги", rows=(("Место", "Игрок"), (1, "Алхимик")), owned=True),))
    backend.prepare(patch, base=snapshot)
    assert backend._prepared is not None  # the worker is applying and saving it now
    return backend, worker, snapshot, patch


def _temps(path: Path) -> list[Path]:
    return [p for p in path.parent.iterdir() if p.name.endswith(".sheets-sync-tmp")]


def test_a_prepared_save_is_checked_and_renamed_by_apply(example):
    backend, worker, snapshot, patch = _prepared(example)
    backend.apply(patch, base=snapshot)
    backend.release()
    assert _reaped(worker) and not _temps(example)
    assert openpyxl.load_workbook(example)["Итоги"]["B2"].value == "Алхимик"


def test_a_workbook_opened_in_excel_after_prepare_is_not_written(example):
    from sheets_sync.backends.base import WorkbookLocked

    before = example.read_bytes()
    backend, worker, snapshot, patch = _prepared(example)
    lock = example.with_name(f"~${example.name}")
    lock.write_text("Excel", encoding="utf-8")
    with pytest.raises(WorkbookLocked):
        backend.apply(patch, base=snapshot)
    backend.release()
    assert _reaped(worker) and not _temps(example) and example.read_bytes() == before


def test_a_workbook_saved_by_a_judge_after_prepare_is_not_overwritten(example):
    from sheets_sync.backends.base import WorkbookChanged

    backend, worker, snapshot, patch = _prepared(example)
    wb = openpyxl.load_workbook(example)
    wb["Тур 2 Стол 3"]["D14"] = 3
    wb.save(example)  # the judge's save
    theirs = example.read_bytes()
    with pytest.raises(WorkbookChanged):
        backend.apply(patch, base=snapshot)
    backend.release()
    assert _reaped(worker) and not _temps(example) and example.read_bytes() == theirs


def test_a_prepared_save_never_applied_leaves_nothing_behind(example):
    before = example.read_bytes()
    backend, worker, snapshot, patch = _prepared(example)
    backend.release()  # the sync failed before it applied the patch
    assert _reaped(worker) and not _temps(example) and example.read_bytes() == before
