"""Writing a :class:`Patch` into an .xlsx package with excelize (the Go Excelize library's Python
binding), in place: every part of the package the patch does not touch — other tabs, charts,
pivot tables, slicers, sparklines, VBA, threaded comments, shapes — is written back as it was.

* an owned tab that exists keeps its place; only the cells whose value differs from the one read
  are written (one typed setter a cell, ~0.02 ms; ``set_sheet_row`` costs ten times that), the cells beyond the new content are cleared, and its
  look (styles, widths, heights, panes, print settings) is set again; a missing tab is created;
* an input tab that exists gets only the non-``None`` cells of its rows (``init``/``draw``
  pre-filling); its look stays what people made it;
* a mark is our fill colour and a note authored ``NOTE_AUTHOR``; clearing it removes exactly that
  fill and that note, never a judge's own formatting or note (a cell holding a judge's note keeps
  it: the Problems tab lists the message anyway).

Text always stays text (a leading ``=`` never becomes a formula) with the characters an XML file
cannot hold replaced by U+FFFD.
"""

from __future__ import annotations

import html
import io
import posixpath
import re
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

import excelize

from scoring.cells import a1, column_letter, parse_a1
from sheets_sync.backends.excel_read import WHOLE_BELOW, trimmed
from sheets_sync.backends.base import MARK_COLOURS, NOTE_AUTHOR, SHADE_COLOUR, Link, PageSetup, Patch, Style, TabWrite

__all__ = ["write_patch", "as_read", "expected_grid", "same_value", "quoted", "NoStylesPart"]

_EXCEL_TEXT_LIMIT = 32767
_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")  # control characters XML 1.0 cannot carry
_MUTED = "595959"
_LINK_COLOUR = "0563C1"  # Excel's Hyperlink cell style
_EPOCH = datetime(1899, 12, 30)
_A4 = 9
_TEXT_FORMAT = 49  # "@"
_DATETIME_FORMAT, _DATE_FORMAT = 22, 14
_MARK_FILLS = {c.upper() for c in MARK_COLOURS.values()}


def quoted(title: str) -> str:
    """A tab title as a formula or a link names it: ``'Тур 1'``."""
    return "'" + title.replace("'", "''") + "'"


def _clean(text: str) -> str:
    # a regular expression, not str.translate: translate takes its slow path on Cyrillic text
    # (26,000 texts at 1000 players: 0.24 s under the profiler, 0.03 s with the expression)
    return _ILLEGAL.sub("\ufffd", text)[:_EXCEL_TEXT_LIMIT]


def as_read(value: object) -> object:
    """The value the reader gives back for ``value`` written by :func:`write_patch`."""
    if isinstance(value, Link):
        return _clean(value.text) or None
    if isinstance(value, str):
        return _clean(value) or None
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if type(value) is float and value.is_integer() and abs(value) < WHOLE_BELOW:
        return int(value)
    if type(value) is date:
        return datetime(value.year, value.month, value.day)
    return value


def expected_grid(rows) -> tuple[tuple[object, ...], ...]:
    """``rows`` as the reader will give them back (trailing empties trimmed)."""
    return trimmed(tuple(as_read(v) for v in row) for row in rows)


def same_value(a: object, b: object) -> bool:
    return a is b or (type(a) is type(b) and a == b)


def _native(value: object) -> object:
    """What excelize is handed for ``value`` (text cleaned, numbers as ``int``/``float``, dates as
    serial numbers: their number format is part of the cell's style)."""
    if isinstance(value, Link):
        return _clean(value.text)
    if isinstance(value, str):
        return _clean(value)
    if isinstance(value, bool):
        return value
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, datetime):
        return (value - _EPOCH).total_seconds() / 86400
    if isinstance(value, date):
        return float((value - _EPOCH.date()).days)
    if isinstance(value, (int, float)) or value is None:
        return value
    return _clean(str(value))


class NoStylesPart(ValueError):
    """The package has no styles part: excelize would abort the whole process (a Go panic, not an
    exception) at the first style it reads or adds.  Excel and LibreOffice always write one; a
    workbook made by some other program may lack it, and saving it once in either adds it."""


def _has_styles(data: bytes) -> bool:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        try:
            rels = z.read("xl/_rels/workbook.xml.rels")
        except KeyError:
            return False
    return re.search(rb'Type="[^"]*/relationships/styles"', rels) is not None


def write_patch(data: bytes | None, patch: Patch, tabs: Mapping[str, Sequence[Sequence[object]]], target: Path,
                *, password: str | None = None) -> None:
    """Apply ``patch`` to the workbook ``data`` (None: a new workbook) whose values are ``tabs`` (as
    read), and save the result as ``target``.  ``password``: the password of the sheet protections
    the patch puts in place (``--protect-password``; hashed as Excel does, never written in clear)."""
    if data and not _has_styles(data):
        raise NoStylesPart("no styles part (xl/styles.xml)")
    book = excelize.open_reader(excel_note_names(data)) if data else excelize.new_file()
    try:
        placeholder = None if data else book.get_sheet_list()[0]
        writer = _Writer(book, tabs, password)
        writer.apply(patch)
        if placeholder is not None and placeholder not in {w.title for w in patch.writes}:
            book.delete_sheet(placeholder)
            book.set_active_sheet(0)
        aside = writer.notes_aside()
        book.save_as(str(target))
    finally:
        book.close()
    if writer.hide:
        _hidden(target, writer.hide)
    if aside:
        _notes_aside(target, aside)


def _hidden(path: Path, titles: Sequence[str]) -> None:
    """Mark the tabs ``titles`` hidden in the workbook part of the package at ``path`` (only that
    part changes; every other member keeps its content).

    zipfile cannot copy a member without inflating and deflating it again: that is done at zlib's
    fastest level (a first sync at 1000 players: 0.25 → 0.15 s; the file is about a sixth larger
    until the next save, which excelize deflates again anyway)."""
    with zipfile.ZipFile(path) as z:
        infos = [(info, z.read(info)) for info in z.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for info, content in infos:
            if info.filename == "xl/workbook.xml":
                for title in titles:
                    name = _xml_attribute(title).encode()
                    element = rb'<(?:\w+:)?sheet\b[^>]*\bname="' + re.escape(name) + rb'"[^>]*>'
                    content = re.sub(element, _hide, content, count=1)
            out.writestr(info, content, compresslevel=1)


def _notes_aside(path: Path, aside: Mapping[str, tuple[int, set[tuple[int, int]]]]) -> None:
    """Our notes' boxes moved beside the printed columns: ``aside`` maps a tab to the first column
    past its print area and the (row, column) of each of our notes in it (0-based).

    A note's box shows only when somebody shows it (Excel's «Показать примечание», LibreOffice's
    *View › Comments*), and LibreOffice then prints it where it stands: excelize puts it at the
    cell, over the rows around — on an evening tab the previous block's.  Outside the print area a
    shown box covers no cell and prints on no page.  A judge's own note keeps its place."""
    with zipfile.ZipFile(path) as z:
        infos = [(info, z.read(info)) for info in z.infolist()]
        parts = {info.filename: content for info, content in infos}
    drawings = {}
    for title, vml in _vml_parts(parts).items():
        if title in aside:
            drawings[vml] = aside[title]
    if not drawings:
        return
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for info, content in infos:
            if info.filename in drawings:
                free, cells = drawings[info.filename]
                content = re.sub(rb"<v:shape\b.*?</v:shape>", lambda m: _aside(m.group(0), free, cells), content,
                                 flags=re.S)
            out.writestr(info, content, compresslevel=1)


def _vml_parts(parts: Mapping[str, bytes]) -> dict[str, str]:
    """Tab title → the package path of its notes' drawing (the workbook's, then the tab's relationships)."""
    def targets(rels: str, base: str) -> dict[str, str]:
        found = {}
        for rel in re.finditer(rb"<Relationship\b[^>]*>", parts.get(rels, b"")):
            ident, target = re.search(rb'\bId="([^"]+)"', rel.group(0)), re.search(rb'\bTarget="([^"]+)"', rel.group(0))
            if ident and target:
                t = target.group(1).decode()
                found[ident.group(1).decode()] = t.lstrip("/") if t.startswith("/") else posixpath.normpath(posixpath.join(base, t))
        return found

    sheets = targets("xl/_rels/workbook.xml.rels", "xl")
    out = {}
    for sheet in re.finditer(rb"<(?:\w+:)?sheet\b[^>]*>", parts.get("xl/workbook.xml", b"")):
        name, ident = re.search(rb'\bname="([^"]*)"', sheet.group(0)), re.search(rb'\br:id="([^"]+)"', sheet.group(0))
        part = sheets.get(ident.group(1).decode()) if name and ident else None
        legacy = re.search(rb'<(?:\w+:)?legacyDrawing\b[^>]*\br:id="([^"]+)"', parts.get(part, b"")) if part else None
        if legacy:
            folder, file = posixpath.split(part)
            vml = targets(f"{folder}/_rels/{file}.rels", folder).get(legacy.group(1).decode())
            if vml:
                out[html.unescape(name.group(1).decode())] = vml
    return out


def _aside(shape: bytes, free: int, cells: set[tuple[int, int]]) -> bytes:
    """A note's VML shape anchored from column ``free`` on (its rows and size kept), when it is ours."""
    row, column = re.search(rb"<x:Row>(\d+)</x:Row>", shape), re.search(rb"<x:Column>(\d+)</x:Column>", shape)
    anchor = re.search(rb"<x:Anchor>([^<]*)</x:Anchor>", shape)
    if not (row and column and anchor) or (int(row.group(1)), int(column.group(1))) not in cells:
        return shape
    c0, _, r0, dy0, c1, dx1, r1, dy1 = (int(v) for v in anchor.group(1).split(b","))
    moved = f"{free}, 8, {r0}, {dy0}, {free + c1 - c0}, {dx1}, {r1}, {dy1}".encode()
    return shape[:anchor.start(1)] + moved + shape[anchor.end(1):]


def _xml_attribute(text: str) -> str:
    """``text`` as an XML attribute value spells it (what xml.sax.saxutils.escape with ``"`` gives;
    that module imports urllib.request and http.client into every sync's start-up)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;").replace('"', "&quot;")


def _hide(sheet: re.Match[bytes]) -> bytes:
    """A workbook part's ``<sheet …>`` element with ``state="hidden"`` in place of any state it had
    (openpyxl writes ``state="visible"``: a second state attribute would make the part unreadable)."""
    element = re.sub(rb'\sstate="[^"]*"', b"", sheet.group(0))
    return re.sub(rb"^(<(?:\w+:)?sheet\b)", rb'\1 state="hidden"', element)


# where openpyxl (every earlier sheets-sync, many scripts) keeps a tab's notes, and Excel's names for
# them, the only ones excelize finds notes under (it reads the number out of "vmlDrawingN.vml")
_OPENPYXL_NOTES = (re.compile(r"xl/comments/comment(\d+)\.xml"), re.compile(r"xl/drawings/commentsDrawing(\d+)\.vml"))
_EXCEL_NOTES = ("xl/comments{}.xml", "xl/drawings/vmlDrawing{}.vml")


def excel_note_names(data: bytes) -> bytes:
    """``data`` with openpyxl's note parts renamed as Excel names them (and their references in
    the relationships and content types with them); the same bytes when there are none."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        names = z.namelist()
        renames: dict[str, str] = {}
        for name in names:
            for pattern, excel in zip(_OPENPYXL_NOTES, _EXCEL_NOTES):
                if m := pattern.fullmatch(name):
                    renames[name] = excel.format(m.group(1))
        if not renames or set(renames.values()) & set(names):
            return data
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
            for info in z.infolist():
                content = z.read(info)
                if info.filename.endswith(".rels") or info.filename == "[Content_Types].xml":
                    for old, new in renames.items():
                        relative = new.replace("xl/", "../", 1)  # from xl/worksheets/_rels/
                        content = content.replace(f'Target="/{old}"'.encode(), f'Target="{relative}"'.encode())
                        content = content.replace(f'PartName="/{old}"'.encode(), f'PartName="/{new}"'.encode())
                target.writestr(renames.get(info.filename, info.filename), content)
    return out.getvalue()


@dataclass(frozen=True, slots=True)
class _Look:
    """Everything our styles say of one cell (a key of excelize's style table)."""

    frame: bool = False
    fill: str | None = None
    bold: bool = False
    size: float | None = None
    colour: str | None = None
    underline: bool = False
    align: str | None = None
    middle: bool = False
    wrap: bool = False
    number_format: int = 0
    custom_format: str | None = None


class _Writer:
    def __init__(self, book, tabs: Mapping[str, Sequence[Sequence[object]]], password: str | None):
        self.book = book
        self.tabs = tabs
        self.password = password
        self.sheets = set(book.get_sheet_list())
        self.styles: dict[_Look, int] = {}
        self.font = book.get_default_font() or "Calibri"
        # tabs to hide once saved: excelize's set_sheet_visible loads and rewrites every worksheet
        self.hide: list[str] = []
        self.noted: set[str] = set()  # tabs whose notes the patch set or cleared

    def apply(self, patch: Patch) -> None:
        for title in patch.delete_tabs:
            if title in self.sheets:
                self.book.delete_sheet(title)
                self.sheets.discard(title)
        for w in patch.writes:
            if w.title not in self.sheets:
                self.book.new_sheet(w.title)
                self.sheets.add(w.title)
                self._cells(w.title, w.rows, ())
                self._look(w, new=True)
            elif w.owned:
                self._cells(w.title, w.rows, self.tabs.get(w.title, ()))
                if not w.look_kept:
                    self._look(w, new=False)
            else:
                self._prefill(w)
        for sheet, cell in patch.clear_marks:
            if sheet in self.sheets:
                self._clear_mark(sheet, cell)
                self.noted.add(sheet)
        self._set_marks(patch)
        for p in patch.protect:
            if p.cells is None and p.sheet in self.sheets:
                protect_sheet(self.book, p.sheet, self.password)
        for p in patch.unprotect:
            if p.cells is None and p.sheet in self.sheets:
                self.book.unprotect_sheet(p.sheet)

    # -- values -------------------------------------------------------------------------------
    def _cells(self, title: str, rows, old) -> None:
        """Write the cells of ``rows`` whose value differs from ``old`` (as read); clear the rest of ``old``."""
        links = set(self.book.get_hyperlink_cells(title, "Location")) if old else set()
        for r in range(max(len(rows), len(old))):
            new_row = rows[r] if r < len(rows) else ()
            old_row = old[r] if r < len(old) else ()
            for c in range(max(len(new_row), len(old_row))):
                value = new_row[c] if c < len(new_row) else None
                before = old_row[c] if c < len(old_row) else None
                if isinstance(value, Link) or not same_value(as_read(value), before):
                    self._put(title, a1(r, c), value)
                if isinstance(value, Link):  # every other link of the old content goes below
                    links.discard(a1(r, c))
        for ref in links:  # a link of the old content where the new one has none
            self.book.set_cell_hyperlink(title, ref, "", "None")

    def _prefill(self, w: TabWrite) -> None:
        for r, row in enumerate(w.rows):
            for c, value in enumerate(row):
                if value is not None:
                    self._put(w.title, a1(r, c), value)

    def _put(self, title: str, ref: str, value: object) -> None:
        """One cell, by the setter of its type (a tenth of the cost of ``set_sheet_row``'s)."""
        book, native = self.book, _native(value)
        if native is None or native == "":  # an empty cell, never an empty string (set_cell_str keeps one)
            book.set_cell_value(title, ref, None)
        elif isinstance(native, str):
            book.set_cell_str(title, ref, native)
        elif isinstance(native, bool):
            book.set_cell_bool(title, ref, native)
        elif isinstance(native, int) and -2 ** 63 <= native < 2 ** 63:
            book.set_cell_int(title, ref, native)
        else:
            book.set_cell_float(title, ref, float(native), -1, 64)
        if isinstance(value, Link):
            book.set_cell_hyperlink(title, ref, f"{quoted(value.sheet)}!{value.cell}", "Location")

    # -- look ---------------------------------------------------------------------------------
    def _look(self, w: TabWrite, *, new: bool) -> None:
        book, title = self.book, w.title
        for i, width in enumerate(w.column_widths):
            book.set_col_width(title, column_letter(i), column_letter(i), width)
        for i, height in enumerate(w.row_heights, start=1):
            if height:
                book.set_row_height(title, i, height)
        self._styles(w, new=new)
        if w.page is not None:
            self._page(title, w.page)
        if w.frozen_rows or w.frozen_cols:
            corner = a1(w.frozen_rows, w.frozen_cols)
            pane = ("bottomRight" if w.frozen_rows and w.frozen_cols else "bottomLeft" if w.frozen_rows
                    else "topRight")
            book.set_panes(title, excelize.Panes(freeze=True, x_split=w.frozen_cols, y_split=w.frozen_rows,
                                                 top_left_cell=corner, active_pane=pane,
                                                 selection=[excelize.Selection(sq_ref=corner, active_cell=corner,
                                                                               pane=pane)]))
        if new:  # excelize cannot remove a dropdown: an existing tab keeps the ones it has
            for v in w.validations:
                dv = excelize.DataValidation(allow_blank=True, sqref=v.cells.replace(",", " "), type="list",
                                             formula1='"' + ",".join(v.values) + '"')
                book.add_data_validation(title, dv)
        if w.hidden and book.get_sheet_visible(title):
            self.hide.append(title)

    def _styles(self, w: TabWrite, *, new: bool) -> None:
        """Every cell's look from the tab's styles, bold rows, links and dates, set as rectangles of
        one style each (an owned tab that exists is first reset to the default look)."""
        looks: dict[tuple[int, int], dict[str, object]] = {}
        for style in w.styles:
            props = _props(style)
            for cell in _range(style.cells):
                looks.setdefault(cell, {}).update(props)
        width = max((len(row) for row in w.rows), default=0)
        for r in w.bold_rows:  # the whole row as wide as the tab
            if r < len(w.rows):
                for c in range(width):
                    looks.setdefault((r, c), {})["bold"] = True
        for r, row in enumerate(w.rows):
            for c, value in enumerate(row):
                if isinstance(value, Link):
                    looks.setdefault((r, c), {}).update(colour=_LINK_COLOUR, underline=True)
                elif isinstance(value, (datetime, date)):
                    kind = _DATETIME_FORMAT if isinstance(value, datetime) else _DATE_FORMAT
                    looks.setdefault((r, c), {})["number_format"] = kind
        if not new:
            old = self.tabs.get(w.title, ())
            height = max([len(old), len(w.rows), *(r + 1 for r, _ in looks)])
            width = max([1, *(len(row) for row in (*old, *w.rows)), *(c + 1 for _, c in looks)])
            self.book.set_cell_style(w.title, "A1", a1(height - 1, width - 1), 0)
        for (r0, c0, r1, c1), look in _rectangles(looks):
            self.book.set_cell_style(w.title, a1(r0, c0), a1(r1, c1), self._style_id(_Look(**look)))

    def _style_id(self, look: _Look) -> int:
        if look not in self.styles:
            self.styles[look] = self.book.new_style(self._style(look))
        return self.styles[look]

    def _style(self, look: _Look) -> excelize.Style:
        thin = [excelize.Border(type=side, color="000000", style=1) for side in ("left", "right", "top", "bottom")]
        font = None
        if look.bold or look.size or look.colour or look.underline:
            font = excelize.Font(bold=look.bold, family=self.font, size=look.size or 11, color=look.colour or "",
                                 underline="single" if look.underline else "")
        alignment = None
        if look.align or look.middle or look.wrap:
            alignment = excelize.Alignment(horizontal=look.align or "", vertical="center" if look.middle else "",
                                           wrap_text=look.wrap)
        fill = (excelize.Fill(type="pattern", pattern=1, color=[look.fill]) if look.fill else excelize.Fill())
        return excelize.Style(border=thin if look.frame else None, fill=fill, font=font, alignment=alignment,
                              num_fmt=look.number_format, custom_num_fmt=look.custom_format)

    def _page(self, title: str, page: PageSetup) -> None:
        book = self.book
        fit = page.fit_width or page.fit_height
        book.set_page_layout(title, excelize.PageLayoutOptions(
            size=_A4, orientation="landscape" if page.landscape else "portrait",
            fit_to_width=1 if page.fit_width else 0, fit_to_height=1 if page.fit_height else 0,
            adjust_to=page.scale if page.scale and not fit else None))
        if fit or page.scale:  # a scale is printed only once the tab is no longer fitted
            book.set_sheet_props(title, excelize.SheetPropsOptions(fit_to_page=fit))
        book.set_page_margins(title, excelize.PageLayoutMarginsOptions(
            left=0.4, right=0.4, top=0.5, bottom=0.5, header=0.25, footer=0.25, horizontally=True))
        last_repeated = page.repeat_from + page.repeat_rows - 1
        titles = [*([f"{quoted(title)}!$A:${column_letter(page.repeat_cols - 1)}"] if page.repeat_cols else []),
                  *([f"{quoted(title)}!${page.repeat_from}:${last_repeated}"] if page.repeat_rows else [])]
        names = {"_xlnm.Print_Titles": ",".join(titles) or None,
                 "_xlnm.Print_Area": f"{quoted(title)}!{_absolute(page.area)}" if page.area else None}
        for row in page.breaks:  # a new page after this 1-based row: before the next one
            book.insert_page_break(title, f"A{row + 1}")
        existing = {(d.name, d.scope) for d in book.get_defined_name()}
        for name, refers_to in names.items():
            if (name, title) in existing:
                book.delete_defined_name(excelize.DefinedName(name=name, scope=title))
            if refers_to is not None:
                book.set_defined_name(excelize.DefinedName(name=name, refers_to=refers_to, scope=title))

    # -- marks ----------------------------------------------------------------------------------
    def _anchor(self, sheet: str, ref: str) -> str:
        """The cell that shows ``ref``: itself, or the top-left cell of the merged range hiding it."""
        r, c = parse_a1(ref)
        for merged in self.book.get_merge_cells(sheet):
            (r0, c0), (r1, c1) = parse_a1(merged.get_start_axis()), parse_a1(merged.get_end_axis())
            if r0 <= r <= r1 and c0 <= c <= c1:
                return a1(r0, c0)
        return a1(r, c)

    def _notes(self, sheet: str) -> dict[str, str]:
        """Cell → author of each note of ``sheet``."""
        return {n.cell: n.author for n in self.book.get_comments(sheet)}

    def _fill(self, sheet: str, ref: str, colour: str | None) -> None:
        """``ref`` with its own style but for the fill: ``colour``, or none."""
        style = _six_digit_colours(self.book.get_style(self.book.get_cell_style(sheet, ref)) or excelize.Style())
        style.fill = excelize.Fill(type="pattern", pattern=1, color=[colour]) if colour else excelize.Fill()
        self.book.set_cell_style(sheet, ref, ref, self.book.new_style(style))

    def _clear_mark(self, sheet: str, ref: str) -> None:
        ref = self._anchor(sheet, ref)
        style = self.book.get_style(self.book.get_cell_style(sheet, ref))
        fill = style.fill if style is not None else None
        if fill is not None and fill.pattern == 1 and {c.upper() for c in fill.color or ()} <= _MARK_FILLS \
                and fill.color:
            self._fill(sheet, ref, None)
        if self._notes(sheet).get(ref) == NOTE_AUTHOR:
            self.book.delete_comment(sheet, ref)

    def _set_marks(self, patch: Patch) -> None:
        # marks meeting in one cell (a merged range's) share one note
        targets: dict[tuple[str, str], list] = {}
        for mark in patch.set_marks:
            if mark.sheet in self.sheets:
                targets.setdefault((mark.sheet, self._anchor(mark.sheet, mark.cell)), []).append(mark)
        notes: dict[str, dict[str, str]] = {}
        for (sheet, ref), marks in targets.items():
            severity = "error" if any(m.severity == "error" for m in marks) else "warning"
            self._fill(sheet, ref, MARK_COLOURS[severity])
            authors = notes.setdefault(sheet, self._notes(sheet))
            if authors.get(ref) == NOTE_AUTHOR:
                self.book.delete_comment(sheet, ref)
            elif ref in authors:
                continue  # a judge's note stays; the Problems tab has the message
            text = _clean("\n".join(dict.fromkeys(m.note for m in marks)))
            self.book.add_comment(sheet, excelize.Comment(author=NOTE_AUTHOR, cell=ref, text=text,
                                                          width=300, height=120))
            self.noted.add(sheet)

    def notes_aside(self) -> dict[str, tuple[int, set[tuple[int, int]]]]:
        """For each tab whose notes changed: the first column past its print area (or its content)
        and the cells of our notes in it (see :func:`_notes_aside`)."""
        if not self.noted:
            return {}
        areas = {d.scope: d.refers_to for d in self.book.get_defined_name() if d.name == "_xlnm.Print_Area"}
        aside = {}
        for sheet in self.noted:
            ours = {parse_a1(cell) for cell, author in self._notes(sheet).items() if author == NOTE_AUTHOR}
            if ours:
                area = areas.get(sheet) or self.book.get_sheet_dimension(sheet) or "A1"
                aside[sheet] = (parse_a1(area.rsplit("!", 1)[-1].split(":")[-1].replace("$", ""))[1] + 1, ours)
        return aside


def protect_sheet(book, sheet: str, password: str | None) -> None:
    """Protect a tab as Excel's Review › Protect Sheet does (cells locked, still selectable); a tab
    protected already keeps its protection and password."""
    if book.get_sheet_protection(sheet) is not None and book.get_sheet_protection(sheet).password:
        return
    book.protect_sheet(sheet, excelize.SheetProtectionOptions(
        algorithm_name="SHA-512" if password else "", password=password or "",
        select_locked_cells=True, select_unlocked_cells=True))


def _rgb(colour: str) -> str:
    return colour[2:] if len(colour) == 8 else colour


def _six_digit_colours(style: excelize.Style) -> excelize.Style:
    """A style as excelize reads it (colours as ARGB, ``FF0563C1``) made fit to be written again
    (excelize adds the alpha itself: given eight digits, it would write ten)."""
    for border in style.border or ():
        border.color = _rgb(border.color or "")
    if style.font is not None:
        style.font.color = _rgb(style.font.color or "")
    if style.fill is not None and not isinstance(style.fill, type) and style.fill.color:
        style.fill.color = [_rgb(c) for c in style.fill.color]
    return style


def _props(style: Style) -> dict[str, object]:
    """What a :class:`Style` sets (what it leaves at its default it does not say)."""
    props: dict[str, object] = {}
    if style.frame:
        props["frame"] = True
    if style.shade:
        props["fill"] = SHADE_COLOUR
    if style.bold:
        props["bold"] = True
    if style.size:
        props["size"] = style.size
    if style.muted:
        props["colour"] = _MUTED
    if style.align:
        props["align"] = style.align
    if style.middle:
        props["middle"] = True
    if style.wrap:
        props["wrap"] = True
    if style.text:
        props["number_format"] = _TEXT_FORMAT
    if style.number_format:
        props["custom_format"] = style.number_format
    return props


def _range(ref: str):
    first, _, last = ref.partition(":")
    r0, c0 = parse_a1(first)
    r1, c1 = parse_a1(last or first)
    for r in range(min(r0, r1), max(r0, r1) + 1):
        for c in range(min(c0, c1), max(c0, c1) + 1):
            yield r, c


def _absolute(ref: str) -> str:
    def one(cell: str) -> str:
        r, c = parse_a1(cell)
        return f"${column_letter(c)}${r + 1}"

    return ":".join(one(part) for part in ref.split(":"))


def _rectangles(looks: Mapping[tuple[int, int], Mapping[str, object]]):
    """((r0, c0, r1, c1), look) covering ``looks``: runs of one look in a row, stacked while the
    rows below repeat them."""
    rows: dict[int, list[tuple[int, int, tuple]]] = {}
    for (r, c) in sorted(looks):
        key = tuple(sorted(looks[(r, c)].items()))
        runs = rows.setdefault(r, [])
        if runs and runs[-1][1] == c - 1 and runs[-1][2] == key:
            runs[-1] = (runs[-1][0], c, key)
        else:
            runs.append((c, c, key))
    open_: dict[tuple[int, int, tuple], int] = {}  # run → the first row of its rectangle
    last_row = -2
    out = []
    for r in sorted(rows):
        current = set(rows[r])
        for run in list(open_):
            if run not in current or r != last_row + 1:
                out.append(((open_.pop(run), run[0], last_row, run[1]), dict(run[2])))
        for run in rows[r]:
            open_.setdefault(run, r)
        last_row = r
    out.extend(((first, run[0], last_row, run[1]), dict(run[2])) for run, first in open_.items())
    return out
