"""The Excel backend: an ``.xlsx`` file read and written with openpyxl.

One read loads the workbook once; the patch is applied to that same in-memory workbook
and saved to a temporary file beside the original, fsynced, and moved over it with
``os.replace`` only if the file has not changed since the read (size, mtime, content
hash).  A reader therefore sees either the old or the new workbook, never half of one,
and a judge's save between our read and our write is never overwritten.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import zipfile
from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal
from pathlib import Path

import openpyxl
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.comments import Comment
from openpyxl.styles import Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.hyperlink import Hyperlink
from openpyxl.workbook.workbook import Workbook

from sheets_sync.backends.base import (
    MARK_COLOURS,
    BackendError,
    Link,
    Patch,
    PermissionDenied,
    Snapshot,
    TabWrite,
    UnsafeWorkbook,
    WorkbookChanged,
    WorkbookLocked,
    WorkbookNotFound,
)

__all__ = ["ExcelBackend", "Fingerprint", "lock_files"]

NOTE_AUTHOR = "sheets-sync"
_NO_FILL = PatternFill(fill_type=None)
_BOLD = Font(bold=True)
# zip members openpyxl cannot round-trip: saving would silently drop them
_UNSAFE_PARTS = ( "xl/slicers/", "xl/slicerCaches/", "xl/timelines/", "xl/vbaProject.bin",
                 "xl/pivotTables/", "xl/pivotCache/", "xl/ctrlProps/", "xl/activeX/")


@dataclass(frozen=True, slots=True)
class Fingerprint:
    size: int
    mtime_ns: int
    sha256: str

    @classmethod
    def of(cls, path: Path) -> "Fingerprint":
        st = path.stat()
        return cls(st.st_size, st.st_mtime_ns, hashlib.sha256(path.read_bytes()).hexdigest())


@dataclass(slots=True)
class _Token:
    fingerprint: Fingerprint
    workbook: Workbook | None  # loaded once at read, reused by apply
    unsafe_parts: tuple[str, ...]


def lock_files(path: Path) -> list[Path]:
    """Lock files that show Excel or LibreOffice holds ``path`` open."""
    candidates = [path.with_name(f"~${path.name}"), path.with_name(f".~lock.{path.name}#")]
    if len(path.name) > 2:  # Excel shortens long names: ~$ replaces the first two characters
        candidates.append(path.with_name(f"~${path.name[2:]}"))
    return [p for p in candidates if p.exists()]


def _plain(value: object) -> object:
    """A cell value as the pure core expects it."""
    if isinstance(value, datetime) and value.time() == time(0):
        return value  # a guessed date stays a date: the reader reports it
    return value


class ExcelBackend:
    def __init__(self, path: str | os.PathLike[str], *, check_locks: bool = True, allow_unsafe: bool = False):
        self.path = Path(path)
        self.source = str(self.path)
        self.check_locks = check_locks
        self.allow_unsafe = allow_unsafe

    def link_supported(self) -> bool:
        return True

    # -- read -------------------------------------------------------------------------------
    def read(self) -> Snapshot:
        if not self.path.exists():
            raise WorkbookNotFound(f"{self.path}: no such workbook")
        try:
            data = self.path.read_bytes()
        except PermissionError as exc:
            raise PermissionDenied(f"{self.path}: cannot read ({exc.strerror})") from exc
        st = self.path.stat()
        fingerprint = Fingerprint(len(data), st.st_mtime_ns, hashlib.sha256(data).hexdigest())
        import io

        try:
            unsafe = _unsafe_parts(io.BytesIO(data))
            wb = openpyxl.load_workbook(io.BytesIO(data), data_only=False, rich_text=False)
        except (zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
            raise BackendError(f"{self.path}: not a readable .xlsx workbook ({exc})") from exc
        tabs: dict[str, tuple[tuple[object, ...], ...]] = {}
        for ws in wb.worksheets:
            rows = []
            for row in ws.iter_rows(values_only=True):
                rows.append(tuple(_plain(v) for v in row))
            # trailing empties trimmed, like the Sheets API does
            while rows and all(v is None or v == "" for v in rows[-1]):
                rows.pop()
            trimmed = []
            for row in rows:
                end = len(row)
                while end and (row[end - 1] is None or row[end - 1] == ""):
                    end -= 1
                trimmed.append(row[:end])
            tabs[ws.title] = tuple(trimmed)
        return Snapshot(tabs=tabs, order=tuple(ws.title for ws in wb.worksheets), source=self.source,
                        token=_Token(fingerprint, wb, unsafe))

    # -- write ------------------------------------------------------------------------------
    def apply(self, patch: Patch, *, base: Snapshot | None) -> None:
        if patch.empty:
            return
        if self.check_locks:
            locks = lock_files(self.path)
            if locks:
                raise WorkbookLocked(f"{self.path.name} is open in Excel or LibreOffice ({locks[0].name}); "
                                     "not writing now — close it or save and the sync will retry")
        token = base.token if base is not None else None
        if isinstance(token, _Token) and token.workbook is not None:
            wb = token.workbook
            token.workbook = None  # one save per load (openpyxl cannot save twice with images)
            unsafe = token.unsafe_parts
        elif self.path.exists():
            wb = openpyxl.load_workbook(self.path)
            unsafe = _unsafe_parts(self.path)
        else:
            wb = openpyxl.Workbook()
            wb.remove(wb.active)
            unsafe = ()
        if unsafe and not self.allow_unsafe:
            raise UnsafeWorkbook(
                f"{self.path.name} contains parts openpyxl cannot keep ({', '.join(unsafe)}); writing would drop them. "
                "Remove them, or write the results to a separate workbook with --output.")
        self._apply_to(wb, patch)
        self._save(wb, token.fingerprint if isinstance(token, _Token) else None)

    def _apply_to(self, wb: Workbook, patch: Patch) -> None:
        for title in patch.delete_tabs:
            if title in wb.sheetnames:
                wb.remove(wb[title])
        for write in patch.writes:
            if write.owned and write.title in wb.sheetnames:
                index = wb.sheetnames.index(write.title)
                wb.remove(wb[write.title])
                ws = wb.create_sheet(write.title, index)
                self._fill(ws, write, new=True)
            elif write.title in wb.sheetnames:
                self._fill(wb[write.title], write, new=False)
            else:
                ws = wb.create_sheet(write.title)
                self._fill(ws, write, new=True)
        for sheet, cell in patch.clear_marks:
            if sheet in wb.sheetnames:
                c = wb[sheet][cell]
                c.fill = _NO_FILL
                if c.comment is not None and c.comment.author == NOTE_AUTHOR:
                    c.comment = None
        for mark in patch.set_marks:
            if mark.sheet not in wb.sheetnames:
                continue
            c = wb[mark.sheet][mark.cell]
            colour = MARK_COLOURS[mark.severity]
            c.fill = PatternFill(fill_type="solid", start_color=colour, end_color=colour)
            comment = Comment(mark.note, NOTE_AUTHOR)
            comment.width, comment.height = 300, 120
            c.comment = comment

    @staticmethod
    def _fill(ws, write: TabWrite, *, new: bool) -> None:
        for r, row in enumerate(write.rows, start=1):
            for c, value in enumerate(row, start=1):
                if value is None:
                    continue
                _set(ws.cell(row=r, column=c), value)
        if write.bold_rows:
            for r in write.bold_rows:
                for cell in ws[r + 1] if r < len(write.rows) else ():
                    cell.font = _BOLD
        if not new:
            return
        for i, width in enumerate(write.column_widths, start=1):
            ws.column_dimensions[get_column_letter(i)].width = width
        if write.frozen_rows or write.frozen_cols:
            ws.freeze_panes = ws.cell(row=write.frozen_rows + 1, column=write.frozen_cols + 1)
        for v in write.validations:
            dv = DataValidation(type="list", formula1='"' + ",".join(v.values) + '"', allow_blank=True,
                                showErrorMessage=False)
            dv.add(v.cells)
            ws.add_data_validation(dv)
        if write.hidden:
            ws.sheet_state = "hidden"

    def _save(self, wb: Workbook, expected: Fingerprint | None) -> None:
        folder = self.path.parent
        fd, tmp_name = tempfile.mkstemp(prefix=f".{self.path.stem}.", suffix=".tmp.xlsx", dir=folder)
        tmp = Path(tmp_name)
        try:
            with os.fdopen(fd, "wb") as fh:
                wb.save(fh)
                fh.flush()
                os.fsync(fh.fileno())
            if expected is not None:
                try:
                    now = Fingerprint.of(self.path)
                except FileNotFoundError:
                    now = None
                if now != expected:
                    raise WorkbookChanged(f"{self.path.name} was saved by someone else during the sync; nothing written")
            if self.check_locks and lock_files(self.path):
                raise WorkbookLocked(f"{self.path.name} was opened in Excel or LibreOffice during the sync; nothing written")
            os.replace(tmp, self.path)
            try:  # make the rename itself durable
                dfd = os.open(folder, os.O_RDONLY)
                try:
                    os.fsync(dfd)
                finally:
                    os.close(dfd)
            except OSError:
                pass
        finally:
            if tmp.exists():
                tmp.unlink()


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


def _unsafe_parts(source) -> tuple[str, ...]:
    try:
        with zipfile.ZipFile(source) as zf:
            names = zf.namelist()
            found = {p.rstrip("/") for p in _UNSAFE_PARTS for n in names if n.startswith(p)}
            for n in names:
                # notes live in xl/drawings/*.vml, which openpyxl rewrites; shapes and text boxes
                # live in drawingN.xml as <xdr:sp> and are dropped on save
                if n.startswith("xl/drawings/drawing") and n.endswith(".xml"):
                    with zf.open(n) as fh:
                        xml = fh.read()
                    if b"<xdr:sp>" in xml or b"<xdr:sp " in xml:
                        found.add("shapes or text boxes")
                if n.startswith("xl/worksheets/sheet") and n.endswith(".xml"):
                    with zf.open(n) as fh:
                        head = fh.read()
                    if b"<extLst" in head:
                        found.add("Excel 2010+ extensions (extLst)")
                        break
    except zipfile.BadZipFile:
        return ()
    return tuple(sorted(found))
