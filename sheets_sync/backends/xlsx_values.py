"""The values of an .xlsx workbook's cells, read straight from its XML: a few times faster than
openpyxl's full load, which builds a styled cell object for every cell.

It reads what :meth:`ExcelBackend.read` reads through openpyxl (``load_workbook(data_only=False)``
then ``iter_rows(values_only=True)``) and gives the very same values: shared and inline strings
(the runs of rich text joined, as openpyxl's ``Text.content``), numbers (``int`` unless the text
has a point or an exponent), dates by the cell's number format and the workbook's epoch, booleans,
error codes, formulas as ``=…`` text (shared formulas translated the way openpyxl does), and the
hidden part of a merged range empty.  Anything it does not handle exactly (array or data-table
formulas, Strict OOXML, a date outside the calendar) makes it give up (``None``): the caller then
uses openpyxl's reading.  The caller also checks the two readings against each other before
anything is written (:mod:`sheets_sync.backends.excel_worker`), so this module makes a sync
faster, never different.
"""

from __future__ import annotations

import datetime as dt
import posixpath
import re
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Iterator
from io import BytesIO

__all__ = ["read_values", "openpyxl_reading", "worksheet_values", "trimmed", "same_values"]

_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_PKG_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_CT = "{http://schemas.openxmlformats.org/package/2006/content-types}"
_OFFICE_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
_WORKBOOK_TYPES = {
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
    "application/vnd.ms-excel.sheet.macroEnabled.main+xml",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml",
    "application/vnd.ms-excel.template.macroEnabled.main+xml",
}

_C, _V, _F, _IS, _T, _R = (_MAIN + t for t in ("c", "v", "f", "is", "t", "r"))
_ROW, _MERGE, _SI = _MAIN + "row", _MAIN + "mergeCell", _MAIN + "si"

Grid = tuple[tuple[object, ...], ...]


# -- openpyxl's date rules (openpyxl.utils.datetime, openpyxl.styles.numbers; MIT licence), copied so
#    that a sync reads values without importing openpyxl (60 ms); tests/test_quick_read.py checks
#    them against openpyxl's own
_WINDOWS_EPOCH = dt.datetime(1899, 12, 30)
_MAC_EPOCH = dt.datetime(1904, 1, 1)
_BUILTIN_DATES = frozenset({14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47})  # built-in number formats
_BUILTIN_DURATIONS = frozenset({46})  # [h]:mm:ss
_STRIP = re.compile(r'".*?"|\[(?!hh?\]|mm?\]|ss?\])[^\]]*\]')  # quoted text, [colours] and [$-locales]
_DATE_PART = re.compile(r"(?<![_\\])[dmhysDMHYS]")
_DURATION = re.compile(r"\[hh?\](:mm(:ss(\.0*)?)?)?|\[mm?\](:ss(\.0*)?)?|\[ss?\](\.0*)?", re.I)


def _is_date_format(fmt: str | None) -> bool:
    return fmt is not None and _DATE_PART.search(_STRIP.sub("", fmt.split(";")[0])) is not None


def _is_timedelta_format(fmt: str | None) -> bool:
    return fmt is not None and _DURATION.search(fmt.split(";")[0]) is not None


def _from_excel(value: float, epoch: dt.datetime, timedelta: bool = False) -> object:
    """An Excel serial number as a datetime, a time (a fraction of a day) or a timedelta."""
    if timedelta:
        td = dt.timedelta(days=value)
        if td.microseconds:  # to the millisecond
            td = dt.timedelta(seconds=td.total_seconds() // 1, microseconds=round(td.microseconds, -3))
        return td
    day, fraction = divmod(value, 1)
    diff = dt.timedelta(milliseconds=round(fraction * 86400 * 1000))
    if 0 <= value < 1 and diff.days == 0:
        minutes, seconds = divmod(diff.seconds, 60)
        hours, minutes = divmod(minutes, 60)
        return dt.time(hours, minutes, seconds, diff.microseconds)
    if 0 < value < 60 and epoch == _WINDOWS_EPOCH:
        day += 1
    return epoch + dt.timedelta(days=day) + diff


class _GiveUp(Exception):
    """Something this reader does not reproduce exactly: use openpyxl's reading."""


def read_values(data: bytes) -> tuple[tuple[str, ...], dict[str, Grid]] | None:
    """(tab titles in order, values of every worksheet — trailing empty rows and cells trimmed),
    as openpyxl reads them; None when the workbook holds something read differently here."""
    try:
        with zipfile.ZipFile(BytesIO(data)) as z:
            return _read(z)
    except (_GiveUp, KeyError, ValueError, IndexError, ET.ParseError, zipfile.BadZipFile, OverflowError):
        return None


def _read(z: zipfile.ZipFile) -> tuple[tuple[str, ...], dict[str, Grid]]:
    workbook = _workbook_part(z)
    folder = posixpath.dirname(workbook)
    rels = _relationships(z, workbook)
    root = ET.fromstring(z.read(workbook))
    pr = root.find(_MAIN + "workbookPr")
    epoch = _MAC_EPOCH if pr is not None and pr.get("date1904") in ("1", "true") else _WINDOWS_EPOCH
    shared: list[str] = []
    dates: set[int] = set()
    durations: set[int] = set()
    for kind, target in rels.values():
        if kind == _OFFICE_REL + "sharedStrings":
            shared = _shared_strings(z.read(_resolve(folder, target)))
        elif kind == _OFFICE_REL + "styles":
            dates, durations = _date_styles(z.read(_resolve(folder, target)))
    sheets = root.find(_MAIN + "sheets")
    order: list[str] = []
    tabs: dict[str, Grid] = {}
    for sheet in (sheets if sheets is not None else ()):
        kind, target = rels[sheet.get(_REL + "id")]
        if kind != _OFFICE_REL + "worksheet":
            continue  # a chartsheet: openpyxl's worksheets leave it out too
        title = sheet.get("name")
        order.append(title)
        tabs[title] = _sheet(z.read(_resolve(folder, target)), shared, dates, durations, epoch)
    return tuple(order), tabs


def _workbook_part(z: zipfile.ZipFile) -> str:
    types = ET.fromstring(z.read("[Content_Types].xml"))
    for override in types.iter(_CT + "Override"):
        if override.get("ContentType") in _WORKBOOK_TYPES:
            return override.get("PartName").lstrip("/")
    raise _GiveUp("no workbook part")


def _relationships(z: zipfile.ZipFile, part: str) -> dict[str, tuple[str, str]]:
    path = posixpath.join(posixpath.dirname(part), "_rels", posixpath.basename(part) + ".rels")
    root = ET.fromstring(z.read(path))
    return {rel.get("Id"): (rel.get("Type"), rel.get("Target")) for rel in root.iter(_PKG_REL + "Relationship")}


def _resolve(folder: str, target: str) -> str:
    return target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))


def _text(node: ET.Element) -> str:
    """openpyxl's ``Text.content``: the plain text, then the text of every rich-text run."""
    parts = []
    plain = node.find(_T)
    if plain is not None and plain.text is not None:
        parts.append(plain.text)
    for run in node.findall(_R):
        t = run.find(_T)
        if t is not None and t.text is not None:
            parts.append(t.text)
    return "".join(parts)


def _shared_strings(xml: bytes) -> list[str]:
    return [_text(si).replace("x005F_", "") for si in ET.fromstring(xml).iter(_SI)]


def _date_styles(xml: bytes) -> tuple[set[int], set[int]]:
    """The cell styles (by index) whose number format shows a date, and those showing a duration."""
    root = ET.fromstring(xml)
    custom = {}
    numfmts = root.find(_MAIN + "numFmts")
    for fmt in (numfmts if numfmts is not None else ()):
        custom[int(fmt.get("numFmtId"))] = fmt.get("formatCode")
    dates, durations = set(), set()
    xfs = root.find(_MAIN + "cellXfs")
    for idx, xf in enumerate(xfs if xfs is not None else ()):
        num = int(xf.get("numFmtId", 0))
        if num in custom:
            date, duration = _is_date_format(custom[num]), _is_timedelta_format(custom[num])
        else:
            date, duration = num in _BUILTIN_DATES, num in _BUILTIN_DURATIONS
        if date:
            dates.add(idx)
        if duration:
            durations.add(idx)
    return dates, durations


def _coordinate(ref: str) -> tuple[int, int]:
    i = 0
    col = 0
    while i < len(ref) and ref[i].isalpha():
        col = col * 26 + (ord(ref[i].upper()) - 64)
        i += 1
    if not i or not ref[i:].isdigit():
        raise _GiveUp(f"cell reference {ref!r}")
    return int(ref[i:]), col


def _merged(ref: str) -> Iterator[tuple[int, int]]:
    """The cells of a merged range but its top-left one."""
    first, _, last = ref.partition(":")
    r0, c0 = _coordinate(first.replace("$", ""))
    r1, c1 = _coordinate((last or first).replace("$", ""))
    for r in range(min(r0, r1), max(r0, r1) + 1):
        for c in range(min(c0, c1), max(c0, c1) + 1):
            if (r, c) != (min(r0, r1), min(c0, c1)):
                yield r, c


def _sheet(xml: bytes, shared: list[str], dates: set[int], durations: set[int], epoch: dt.datetime) -> Grid:
    cells: dict[int, dict[int, object]] = {}
    formulae: dict[str, object] = {}  # shared formulas: their first cell's translator, by si
    row_no = 0
    for _, element in ET.iterparse(BytesIO(xml)):
        tag = element.tag
        if tag == _ROW:
            r = element.get("r")
            row_no = int(float(r)) if r is not None else row_no + 1
            if r is not None and float(r) != row_no:
                raise _GiveUp("row number")
            col_no = 0
            row = cells.setdefault(row_no, {})
            for c in element.iter(_C):
                ref = c.get("r")
                if ref:
                    rr, col_no = _coordinate(ref)
                    if rr != row_no:
                        target = cells.setdefault(rr, {})
                    else:
                        target = row
                else:
                    col_no += 1
                    target = row
                kind = c.get("t", "n")
                style = int(c.get("s") or 0)
                formula = c.find(_F)
                if formula is not None:
                    target[col_no] = _formula(formula, ref, formulae)
                    continue
                if kind == "inlineStr":
                    node = c.find(_IS)
                    target[col_no] = _text(node) if node is not None else None
                    continue
                value = c.findtext(_V) or None
                if value is not None:
                    if kind == "n":
                        number = float(value) if ("." in value or "E" in value or "e" in value) else int(value)
                        if style in dates:
                            value = _from_excel(number, epoch, timedelta=style in durations)  # may raise: give up
                        else:
                            value = number
                    elif kind == "s":
                        value = shared[int(value)]
                    elif kind == "b":
                        value = bool(int(value))
                    elif kind == "d":  # an ISO date in the cell (Strict OOXML, rare): openpyxl's reading
                        raise _GiveUp("ISO date cell")
                target[col_no] = value
            element.clear()
        elif tag == _MERGE:
            for r, c in _merged(element.get("ref") or ""):
                if c in cells.get(r, {}):
                    cells[r][c] = None
    return _grid(cells)


def _formula(f: ET.Element, ref: str | None, formulae: dict[str, object]) -> str:
    kind = f.get("t")
    value = "=" + (f.text or "")
    if kind in (None, "normal"):
        return value
    if kind != "shared" or not ref:
        raise _GiveUp(f"{kind} formula")  # array and data-table formulas: openpyxl makes objects of them
    si = f.get("si")
    if si in formulae:
        return formulae[si].translate_formula(ref)
    if value != "=":
        from openpyxl.formula.translate import Translator

        formulae[si] = Translator(value, ref)
    return value


def same_values(a: dict, b: dict) -> bool:
    """The same tabs with the same values, of the same types (``1`` is not ``1.0``, nor ``True``)."""
    if a.keys() != b.keys():
        return False
    for title, grid in a.items():
        other = b[title]
        if len(grid) != len(other):
            return False
        for row, row_b in zip(grid, other):
            if len(row) != len(row_b):
                return False
            for x, y in zip(row, row_b):
                if x is not y and (type(x) is not type(y) or x != y):
                    return False
    return True


def openpyxl_reading(data: bytes):
    """(openpyxl's workbook of ``data``, its tab titles in order, the values of every tab): the
    reading every sync without the quick reader uses, and the one the quick reader is checked
    against.  openpyxl is imported here, by whoever needs it (the worker, a read without it)."""
    import openpyxl

    wb = openpyxl.load_workbook(BytesIO(data), data_only=False, rich_text=False)
    return wb, tuple(ws.title for ws in wb.worksheets), {ws.title: worksheet_values(ws) for ws in wb.worksheets}


def worksheet_values(ws) -> Grid:
    """The values of an openpyxl worksheet as ``trimmed(ws.iter_rows(values_only=True))`` gives
    them, taken from the cells the sheet holds: ``iter_rows`` creates a cell object for every
    empty position of the rectangle it walks (four times slower, and they would be saved)."""
    rows: dict[int, dict[int, object]] = {}
    for (r, c), cell in ws._cells.items():
        rows.setdefault(r, {})[c] = cell.value
    return _grid(rows)


def trimmed(rows) -> tuple[tuple[object, ...], ...]:
    """A tab's rows without trailing empty rows and trailing empty cells, as the Sheets API
    returns them (a guessed date stays a datetime: the reader reports it)."""
    grid = list(rows)
    while grid and all(v is None or v == "" for v in grid[-1]):
        grid.pop()
    out = []
    for row in grid:
        end = len(row)
        while end and (row[end - 1] is None or row[end - 1] == ""):
            end -= 1
        out.append(row if end == len(row) else row[:end])
    return tuple(out)


def _grid(cells: dict[int, dict[int, object]]) -> Grid:
    """Rows 1… as tuples, trailing empty rows and cells trimmed (empty: None or "")."""
    last_row = max((r for r, row in cells.items() if any(v is not None and v != "" for v in row.values())), default=0)
    grid = []
    for r in range(1, last_row + 1):
        row = cells.get(r, {})
        end = max((c for c, v in row.items() if v is not None and v != ""), default=0)
        grid.append(tuple(row.get(c) for c in range(1, end + 1)))
    return tuple(grid)
