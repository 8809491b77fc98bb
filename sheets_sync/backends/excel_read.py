"""The values of an .xlsx workbook's tabs, read with python-calamine (a Rust reader: a tenth of a
second for the 1000-player workbook, where openpyxl's full load took seconds).

The values are the ones the parser has always been given (openpyxl's ``load_workbook`` then
``iter_rows(values_only=True)``, which tests/test_excel_read.py checks cell by cell, types too):

* a number stored without a fraction is an ``int`` below 10**16 (calamine hands every number back as a
  ``float``; Excel and LibreOffice store ``7`` as ``7``), any other number a ``float``;
* a date is a ``datetime`` (calamine gives a ``date`` when the format shows no time), a time of
  day a ``time``, a duration a ``timedelta``; ``True``/``False`` are booleans;
* an empty cell is ``None`` (calamine: ``""``), the hidden part of a merged range too, and the
  trailing empty rows and cells of a tab are trimmed;
* a formula is its text, ``=…`` (calamine gives only the result it cached), and an error value
  such as ``#N/A`` its code: the parser reports both instead of reading a value a judge did not
  type.  They are found in the worksheet's XML (only where a ``<f`` or ``t="e"`` occurs at all)
  and the formula's text is taken from excelize, which translates shared formulas.

Only worksheets are read (a chart sheet has no cells), in workbook order.
"""

from __future__ import annotations

import io
import posixpath
import re
import xml.etree.ElementTree as ET
import zipfile
from datetime import date, datetime

__all__ = ["Grid", "read_values", "trimmed", "ReadFailed", "worksheet_parts", "WHOLE_BELOW"]

Grid = tuple[tuple[object, ...], ...]
# a whole float below this was stored without a point (``7``, as Excel, LibreOffice and openpyxl
# write it; openpyxl read it as an int); from 1e16 on they write an exponent (openpyxl: a float)
WHOLE_BELOW = 10 ** 16
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_PKG_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"
_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
# a cell with a formula or an error value: its reference, its attributes, its content
_CELL = re.compile(rb"<(?:\w+:)?c\b([^>]*?)(?:/>|>(.*?)</(?:\w+:)?c>)", re.S)
_REF = re.compile(rb'\br="([A-Z]+)(\d+)"')
_ERROR = re.compile(rb'\bt="e"')
_FORMULA = re.compile(rb"<(?:\w+:)?f[\s>/]")  # not <formula1> of a dropdown, nor <font>
_VALUE = re.compile(rb"<(?:\w+:)?v>([^<]*)</(?:\w+:)?v>")


def _may_hold_formulas_or_errors(xml: bytes) -> bool:
    """A ``<f>``/``<f …>`` (any prefix) or ``t="e"`` occurs: three byte searches over the worksheet,
    where searching the five spellings took five (the dropdowns' ``<formula1>`` of every protocol
    tab is passed over by the byte after ``<f``)."""
    if b't="e"' in xml:
        return True
    for start in (b"<f", b":f"):
        i = xml.find(start)
        while i != -1:
            if xml[i + 2:i + 3] in (b">", b" "):
                return True
            i = xml.find(start, i + 2)
    return False


class ReadFailed(Exception):
    """The bytes are not a workbook calamine can read."""


def read_values(data: bytes, only=None, *, parts: dict[str, str] | None = None) -> tuple[tuple[str, ...], dict[str, Grid]]:
    """(worksheet titles in order, each one's values: rows of raw values, trailing empties trimmed);
    with ``only``, the values of those titles alone (``parts``: :func:`worksheet_parts` of ``data``,
    when the caller has them already)."""
    from python_calamine import CalamineError, CalamineWorkbook, SheetTypeEnum

    try:
        book = CalamineWorkbook.from_filelike(io.BytesIO(data))
        titles = tuple(m.name for m in book.sheets_metadata if m.typ == SheetTypeEnum.WorkSheet)
        tabs = {}
        for title in (titles if only is None else [t for t in titles if t in only]):
            sheet = book.get_sheet_by_name(title)
            tabs[title] = _tab(sheet.to_python(skip_empty_area=False), sheet.merged_cell_ranges or ())
    except (CalamineError, ValueError, OSError) as exc:
        raise ReadFailed(str(exc)) from exc
    for title, cells in _formulas_and_errors(data, tuple(tabs), parts).items():
        tabs[title] = _overlay(tabs[title], cells)
    return titles, tabs


def _value(v: object) -> object:
    if v == "" and isinstance(v, str):
        return None
    if type(v) is float and v.is_integer() and -WHOLE_BELOW < v < WHOLE_BELOW:
        return int(v)
    if type(v) is date:
        return datetime(v.year, v.month, v.day)
    return v


def _tab(rows: list[list[object]], merged) -> Grid:
    grid = [[(v or None) if type(v) is str else _value(v) for v in row] for row in rows]
    for (r0, c0), (r1, c1) in merged:  # only the top-left cell of a merged range shows its value
        for r in range(r0, min(r1, len(grid) - 1) + 1):
            row = grid[r]
            for c in range(c0, min(c1, len(row) - 1) + 1):
                if (r, c) != (r0, c0):
                    row[c] = None
    return trimmed(grid)


def trimmed(rows) -> Grid:
    """Rows without trailing empty rows and trailing empty cells (empty: ``None`` or ``""``), as
    tuples: the shape every backend reads a tab in."""
    grid = [tuple(row) for row in rows]
    while grid and all(v is None or v == "" for v in grid[-1]):
        grid.pop()
    out = []
    for row in grid:
        end = len(row)
        while end and (row[end - 1] is None or row[end - 1] == ""):
            end -= 1
        out.append(row[:end])
    return tuple(out)


def _overlay(grid: Grid, cells: dict[tuple[int, int], str]) -> Grid:
    rows = [list(row) for row in grid]
    for (r, c), text in cells.items():
        while len(rows) <= r:
            rows.append([])
        row = rows[r]
        row.extend([None] * (c + 1 - len(row)))
        row[c] = text
    return trimmed(rows)


def _column(letters: bytes) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ch - 64
    return n - 1


def _formulas_and_errors(data: bytes, titles: tuple[str, ...],
                         parts: dict[str, str] | None = None) -> dict[str, dict[tuple[int, int], str]]:
    """Per tab, (row, column) → the text openpyxl reads for each formula (``=…``) and error cell."""
    found: dict[str, dict[tuple[int, int], str]] = {}
    formulas: list[tuple[str, str, tuple[int, int]]] = []
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for title, part in (worksheet_parts(z) if parts is None else parts).items():
            if title not in titles:
                continue
            xml = z.read(part)
            if not _may_hold_formulas_or_errors(xml):  # bytes.find: no regex over every tab
                continue
            for m in _CELL.finditer(xml):
                attrs, content = m.group(1), m.group(2) or b""
                ref = _REF.search(attrs)
                if ref is None:
                    continue
                at = (int(ref.group(2)) - 1, _column(ref.group(1)))
                if _FORMULA.search(content):
                    formulas.append((title, (ref.group(1) + ref.group(2)).decode(), at))
                elif _ERROR.search(attrs) and (v := _VALUE.search(content)):
                    found.setdefault(title, {})[at] = v.group(1).decode()
    if formulas:
        import excelize

        book = excelize.open_reader(data)
        try:
            for title, ref, at in formulas:
                found.setdefault(title, {})[at] = "=" + book.get_cell_formula(title, ref)
        finally:
            book.close()
    return found


def worksheet_parts(z: zipfile.ZipFile, *, strict: bool = False) -> dict[str, str]:
    """Tab title → the zip member holding its worksheet.  ``strict``: a workbook part or its
    relationships missing or not well-formed XML raise (KeyError, ``ET.ParseError``) instead of
    giving no parts — what the writer's read-back wants to know of the file it wrote."""
    try:
        root = ET.fromstring(z.read("xl/workbook.xml"))
        rels = ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))
    except (KeyError, ET.ParseError):  # not where Excel, LibreOffice and excelize put them: values only
        if strict:
            raise
        return {}
    targets = {rel.get("Id"): rel.get("Target") for rel in rels.iter(_PKG_REL)}
    parts = {}
    for sheet in root.iter(_MAIN + "sheet"):
        target = targets.get(sheet.get(_REL), "")
        parts[sheet.get("name")] = (target.lstrip("/") if target.startswith("/")
                                    else posixpath.normpath(posixpath.join("xl", target)))
    return parts
