"""openpyxl's side of writing an .xlsx: a :class:`Patch` applied to a loaded workbook — tabs
filled and styled, marks coloured with their notes, tabs deleted.

Apart from :mod:`sheets_sync.backends.excel` (the file: reading, checks, atomic save) so that a
process that does not write through openpyxl itself need not import it: the worker
(:mod:`~sheets_sync.backends.excel_worker`) calls :func:`apply_patch` by name.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from copy import copy
from datetime import date, datetime
from decimal import Decimal

from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, MergedCell
from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.hyperlink import Hyperlink
from openpyxl.worksheet.page import PageMargins
from openpyxl.worksheet.protection import SheetProtection
from openpyxl.worksheet.pagebreak import Break
from openpyxl.worksheet.properties import PageSetupProperties
from openpyxl.workbook.workbook import Workbook

from sheets_sync.backends.base import MARK_COLOURS, NOTE_AUTHOR, SHADE_COLOUR, Link, PageSetup, Patch, Style, TabWrite

__all__ = ["apply_patch", "protect_sheet"]

_NO_FILL = PatternFill(fill_type=None)
_DEFAULT_FONT = Font(name="Calibri", size=11)  # openpyxl's (and Excel's) default
_THIN = Side(style="thin", color="000000")
_GRID = Border(left=_THIN, right=_THIN, top=_THIN, bottom=_THIN)
_SHADE = PatternFill(fill_type="solid", start_color=SHADE_COLOUR, end_color=SHADE_COLOUR)
_MUTED = "595959"
_SPIN_COUNT = 100_000  # Excel's


def apply_patch(wb: Workbook, patch: Patch) -> None:
    """The patch's tabs, marks, deletions and sheet protections, in openpyxl's workbook ``wb`` (in
    the worker, or here)."""
    for title in patch.delete_tabs:
        if title in wb.sheetnames:
            wb.remove(wb[title])
    kept: dict[str, SheetProtection] = {}  # an owned tab written again keeps its protection (and password)
    for write in patch.writes:
        if write.owned and write.title in wb.sheetnames:
            index = wb.sheetnames.index(write.title)
            if wb[write.title].protection.sheet:
                kept[write.title] = copy(wb[write.title].protection)
            wb.remove(wb[write.title])
            ws = wb.create_sheet(write.title, index)
            ws.protection = kept.get(write.title, ws.protection)
            _fill(ws, write, new=True)
        elif write.title in wb.sheetnames:
            _fill(wb[write.title], write, new=False)
        else:
            ws = wb.create_sheet(write.title)
            _fill(ws, write, new=True)
    for sheet, cell in patch.clear_marks:
        if sheet in wb.sheetnames:
            c = _anchor(wb[sheet], cell)
            c.fill = _NO_FILL
            if c.comment is not None and c.comment.author == NOTE_AUTHOR:
                c.comment = None
    # a mark in the hidden part of a merged range goes to the range's visible top-left cell
    # (openpyxl cannot style or annotate the others); marks meeting there share one note
    targets: dict[tuple[str, str], list] = {}
    for mark in patch.set_marks:
        if mark.sheet in wb.sheetnames:
            c = _anchor(wb[mark.sheet], mark.cell)
            targets.setdefault((mark.sheet, c.coordinate), []).append(mark)
    for (sheet, coordinate), marks in targets.items():
        c = wb[sheet][coordinate]
        severity = "error" if any(m.severity == "error" for m in marks) else "warning"
        colour = MARK_COLOURS[severity]
        c.fill = PatternFill(fill_type="solid", start_color=colour, end_color=colour)
        comment = Comment("\n".join(dict.fromkeys(m.note for m in marks)), NOTE_AUTHOR)
        comment.width, comment.height = 300, 120
        c.comment = comment
    for p in patch.protect:
        if p.cells is None and p.sheet in wb.sheetnames:
            protect_sheet(wb[p.sheet], patch.protect_password)
    for p in patch.unprotect:
        if p.cells is None and p.sheet in wb.sheetnames:
            wb[p.sheet].protection = SheetProtection()


def protect_sheet(ws, password: str | None) -> None:
    """Protect a tab as Excel's Review › Protect Sheet does: every cell locked (the default), a
    person may still select and read them; ``password`` is stored as Excel's hash, never in clear.
    A tab protected already keeps its protection (and the password it was given before)."""
    if ws.protection.sheet:
        return
    ws.protection = SheetProtection(sheet=True, selectLockedCells=False, selectUnlockedCells=False)
    if password:
        # Excel's own way since 2010 (ECMA-376 Part 4, 14.7.1, what Excel writes itself): a salted,
        # 100,000 times iterated SHA-512 of the UTF-16LE password.  openpyxl's ``password`` is the
        # older 16-bit hash, which LibreOffice cannot check for a password beyond ASCII.
        salt = secrets.token_bytes(16)
        digest = hashlib.sha512(salt + password.encode("utf-16-le")).digest()
        for i in range(_SPIN_COUNT):
            digest = hashlib.sha512(digest + i.to_bytes(4, "little")).digest()
        ws.protection.algorithmName = "SHA-512"
        ws.protection.saltValue = base64.b64encode(salt).decode()
        ws.protection.spinCount = _SPIN_COUNT
        ws.protection.hashValue = base64.b64encode(digest).decode()

def _fill(ws, write: TabWrite, *, new: bool) -> None:
    for r, row in enumerate(write.rows, start=1):
        for c, value in enumerate(row, start=1):
            if value is None:
                continue
            _set(ws.cell(row=r, column=c), value)
    if write.bold_rows:
        for r in write.bold_rows:
            for cell in ws[r + 1] if r < len(write.rows) else ():
                cell.font = _font(cell.font, bold=True)
    if not new:
        return
    for i, width in enumerate(write.column_widths, start=1):
        ws.column_dimensions[get_column_letter(i)].width = width
    for i, height in enumerate(write.row_heights, start=1):
        if height:
            ws.row_dimensions[i].height = height
    for style in write.styles:
        _style(ws, style)
    if write.page is not None:
        _page(ws, write.page)
    if write.frozen_rows or write.frozen_cols:
        ws.freeze_panes = ws.cell(row=write.frozen_rows + 1, column=write.frozen_cols + 1)
    for v in write.validations:
        dv = DataValidation(type="list", formula1='"' + ",".join(v.values) + '"', allow_blank=True,
                            showErrorMessage=False)
        dv.add(v.cells)
        ws.add_data_validation(dv)
    if write.hidden:
        ws.sheet_state = "hidden"


def _cells(ws, ref: str):
    """Every cell of an A1 range (created when missing)."""
    cells = ws[ref]
    if not isinstance(cells, tuple):
        return (cells,)
    if cells and not isinstance(cells[0], tuple):
        return cells
    return tuple(c for row in cells for c in row)


def _font(f: Font, *, bold: bool | None = None, size: float | None = None, color: str | None = None) -> Font:
    """``f`` with some properties changed; the typeface stays (a font without a name would be
    shown in the reader's default face, often a serif one)."""
    return Font(name=f.name or _DEFAULT_FONT.name, family=f.family, scheme=f.scheme, italic=f.italic,
                underline=f.underline, strike=f.strike, vertAlign=f.vertAlign, charset=f.charset,
                bold=f.bold if bold is None else bold, size=size or f.size or _DEFAULT_FONT.size,
                color=color or f.color)


def _style(ws, style: Style) -> None:
    """Apply a :class:`Style`; what it leaves at its default stays as the cell has it."""
    for cell in _cells(ws, style.cells):
        if isinstance(cell, MergedCell):
            continue
        if style.frame:
            cell.border = _GRID
        if style.shade:
            cell.fill = _SHADE
        if style.bold or style.size or style.muted:
            cell.font = _font(cell.font, bold=style.bold or None, size=style.size, color=_MUTED if style.muted else None)
        if style.align or style.middle or style.wrap:
            a = cell.alignment
            cell.alignment = Alignment(horizontal=style.align or a.horizontal,
                                       vertical="center" if style.middle else a.vertical,
                                       wrap_text=True if style.wrap else a.wrap_text,
                                       shrink_to_fit=a.shrink_to_fit, indent=a.indent, text_rotation=a.text_rotation)
        if style.text:
            cell.number_format = "@"
        if style.number_format:
            cell.number_format = style.number_format


def _page(ws, page: PageSetup) -> None:
    """Print settings: A4, orientation, fit to the page width (and height), repeated rows, print area."""
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.orientation = "landscape" if page.landscape else "portrait"
    if page.fit_width or page.fit_height:
        if ws.sheet_properties.pageSetUpPr is None:
            ws.sheet_properties.pageSetUpPr = PageSetupProperties()
        ws.sheet_properties.pageSetUpPr.fitToPage = True
        ws.page_setup.fitToWidth = 1 if page.fit_width else 0
        ws.page_setup.fitToHeight = 1 if page.fit_height else 0  # 0: as many pages tall as needed
    ws.page_margins = PageMargins(left=0.4, right=0.4, top=0.5, bottom=0.5, header=0.25, footer=0.25)
    ws.print_options.horizontalCentered = True
    if page.repeat_rows:
        ws.print_title_rows = f"1:{page.repeat_rows}"
    if page.area:
        ws.print_area = page.area
    for row in page.breaks:
        ws.row_breaks.append(Break(id=row))


def _anchor(ws, ref: str):
    """The cell that shows ``ref``: itself, or the top-left cell of the merged range hiding it."""
    cell = ws[ref]
    if isinstance(cell, MergedCell):
        for rng in ws.merged_cells.ranges:
            if ref in rng:
                return ws.cell(row=rng.min_row, column=rng.min_col)
    return cell


def _set(cell, value: object) -> None:
    """Write a value; text stays text (a leading '=' never becomes a formula)."""
    if isinstance(value, Link):
        text = _clean(value.text)
        cell.value = text
        cell.data_type = "s"
        # an internal link is a `location`, not a relationship target (which Excel treats as a file)
        cell.hyperlink = Hyperlink(ref=cell.coordinate, location=f"'{value.sheet.replace(chr(39), chr(39) * 2)}'!{value.cell}")
        cell.style = "Hyperlink"
        return
    if isinstance(value, str):
        cell.value = _clean(value)
        cell.data_type = "s"
        return
    if isinstance(value, Decimal):
        cell.value = int(value) if value == value.to_integral_value() else float(value)
        return
    if isinstance(value, (int, float, bool, datetime, date)):
        cell.value = value
        return
    cell.value = _clean(str(value))
    cell.data_type = "s"


def _clean(text: str) -> str:
    return ILLEGAL_CHARACTERS_RE.sub("\ufffd", text)[:32767]
