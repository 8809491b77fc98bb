"""The calamine reader (sheets_sync.backends.excel_read) gives the parser exactly the values openpyxl
gave it before — types included: ``7`` an int and ``7.5`` a float, a date a ``datetime``, an empty
cell ``None``, a formula its ``=…`` text, an error its code, trailing empties trimmed — on the
example, on a synced workbook, on one LibreOffice saved, and on random cells.  openpyxl stays a
test dependency for this comparison."""

from __future__ import annotations

import datetime as dt
import io
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.backends.excel_read import read_values, trimmed
from sheets_sync.loop.sync import sync_once
from sheets_sync.example import EXAMPLE_PATH


def openpyxl_values(data: bytes) -> tuple[tuple[str, ...], dict]:
    """The reading the backend made before: every worksheet, formulas as text."""
    wb = openpyxl.load_workbook(io.BytesIO(data), data_only=False, rich_text=False)
    tabs = {}
    for ws in wb.worksheets:
        rows: dict[int, dict[int, object]] = {}
        for (r, c), cell in ws._cells.items():  # the cells the sheet holds (iter_rows makes the rest)
            rows.setdefault(r, {})[c] = cell.value
        width = max((c for row in rows.values() for c in row), default=0)
        tabs[ws.title] = trimmed(tuple(rows.get(r, {}).get(c) for c in range(1, width + 1))
                                 for r in range(1, max(rows, default=0) + 1))
    return tuple(ws.title for ws in wb.worksheets), tabs


def assert_same(data: bytes) -> None:
    order, tabs = read_values(data)
    want_order, want = openpyxl_values(data)
    assert order == want_order
    for title in order:
        got_grid, want_grid = tabs[title], want[title]
        assert len(got_grid) == len(want_grid), title
        for r, (a, b) in enumerate(zip(got_grid, want_grid)):
            assert [(type(v), v) for v in a] == [(type(v), v) for v in b], (title, r + 1)


def typed_workbook(path: Path) -> Path:
    """Every kind of value a judge's workbook holds, a merged range, a hidden tab."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Values"
    values = [1, 2.5, 0.1 + 0.2, 1e20, -3, True, False, "", "x", "=1+2", dt.datetime(2016, 9, 8),
              dt.datetime(2016, 9, 8, 13, 5), dt.date(2020, 1, 2), dt.time(10, 30), dt.timedelta(hours=30), "#N/A",
              "  spaces ", "8 9 10", 0, 0.0, 12345678901234567890, "ё\nновая строка"]
    for i, v in enumerate(values, start=1):
        ws.cell(i, 1).value = v
    ws["B1"], ws["B2"], ws["C3"] = "=A1*2", "=SUM(A1:A2)", None
    ws.merge_cells("D1:E2")
    ws["D1"] = "merged"
    hidden = wb.create_sheet("Hidden")
    hidden["A1"] = "h"
    hidden.sheet_state = "hidden"
    wb.save(path)
    return path


@pytest.mark.parametrize("kind", ["example", "typed", "synced example"])
def test_the_reader_gives_openpyxls_values(kind, tmp_path):
    path = tmp_path / "book.xlsx"
    if kind == "typed":
        typed_workbook(path)
    else:
        shutil.copyfile(EXAMPLE_PATH, path)
    if kind == "synced example":
        assert sync_once(ExcelBackend(path), out_dir=None).written
    assert_same(path.read_bytes())


@pytest.mark.libreoffice
@pytest.mark.parametrize("source", ["typed", "example"])
def test_the_reader_gives_openpyxls_values_of_a_workbook_libreoffice_saved(source, tmp_path):
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice is not installed")
    src = tmp_path / "in" / "book.xlsx"
    src.parent.mkdir()
    typed_workbook(src) if source == "typed" else shutil.copyfile(EXAMPLE_PATH, src)
    out = tmp_path / "out"
    subprocess.run(["soffice", f"-env:UserInstallation=file://{tmp_path}/lo", "--headless", "--calc", "--convert-to",
                    "xlsx:Calc MS Excel 2007 XML", "--outdir", str(out), str(src)], check=True, capture_output=True,
                   timeout=180)
    assert_same((out / "book.xlsx").read_bytes())


_cell = st.one_of(
    st.none(), st.integers(-10 ** 12, 10 ** 12), st.floats(allow_nan=False, allow_infinity=False, width=64),
    st.booleans(), st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=8),
    st.datetimes(min_value=dt.datetime(1901, 1, 1), max_value=dt.datetime(2099, 1, 1)).map(
        lambda d: d.replace(microsecond=0)),
)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.lists(_cell, max_size=6), max_size=6))
def test_random_cells_read_as_openpyxl_reads_them(rows):
    wb = openpyxl.Workbook()
    ws = wb.active
    for r, row in enumerate(rows, start=1):
        for c, value in enumerate(row, start=1):
            cell = ws.cell(r, c)
            cell.value = value
            if isinstance(value, str):
                cell.data_type = "s"  # typed text, never a formula
    buf = io.BytesIO()
    wb.save(buf)
    assert_same(buf.getvalue())


@pytest.mark.parametrize("xml, found", [
    (b'<c r="A1"><f>1+1</f><v>2</v></c>', True),
    (b'<c r="A1"><f t="shared" ref="A1:A3" si="0">B1</f></c><c r="A2"><f t="shared" si="0"/></c>', True),
    (b'<x:c r="A1"><x:f>SUM(B1:B3)</x:f></x:c>', True),
    (b'<x:c r="A1"><x:f t="array" ref="A1">B1</x:f></x:c>', True),
    (b'<c r="A1" t="e"><v>#N/A</v></c>', True),
    (b'<dataValidation type="list" sqref="C10:C19"><formula1>"d,m,s"</formula1></dataValidation>', False),
    (b'<x:dataValidation sqref="B2"><x:formula1>$A$1:$A$3</x:formula1></x:dataValidation><font/>', False),
    (b'<c r="A1" t="inlineStr"><is><t>of f &lt;f&gt;</t></is></c>', False),
])
def test_the_byte_search_finds_every_spelling_of_a_formula_or_error_and_no_dropdown(xml, found):
    """Only a worksheet where this search finds something is scanned cell by cell (excel_read)."""
    from sheets_sync.backends.excel_read import _may_hold_formulas_or_errors

    assert _may_hold_formulas_or_errors(xml) is found
