"""The one small interface every workbook backend implements.

A sync cycle is one read, one pure computation, one write:

    backend.read()  -> Snapshot   every tab as a grid of raw cell values
    (pure code)     -> Patch      full contents of owned tabs, cells to pre-fill, marks
    backend.apply(patch, base=snapshot)

Backends translate these plain objects to an .xlsx package or to the Sheets API and nothing more;
they hold no tournament logic.  Cell values are raw: ``str``, ``int``, ``float``, ``bool``,
``datetime``/``date`` (a spreadsheet guessed a date), ``None`` for an empty cell, or a
:class:`Link` / ``Decimal`` when writing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Protocol, Union

from scoring.errors import SheetsSyncError
from scoring.cells import a1, column_letter, parse_a1  # noqa: F401  (re-exported)

__all__ = [
    "BackendError",
    "WorkbookNotFound",
    "WorkbookUnreadable",
    "PermissionDenied",
    "TransientError",
    "WorkbookChanged",
    "WorkbookLocked",
    "Link",
    "CellValue",
    "Grid",
    "Snapshot",
    "Validation",
    "Style",
    "PageSetup",
    "TabWrite",
    "Mark",
    "Protection",
    "Patch",
    "Backend",
    "MARK_COLOURS",
    "SHADE_COLOUR",
    "STATE_TAB",
    "values_fingerprint",
]


# -- one exception hierarchy for every backend --------------------------------------------
class BackendError(SheetsSyncError):
    """Base of every error a backend raises; the message is meant for the organizer."""


class WorkbookNotFound(BackendError):
    """The file or spreadsheet does not exist (or is not visible to us)."""


class WorkbookUnreadable(BackendError):
    """The file is there but is not a workbook we can read (broken, or half-written by a save under way)."""


class PermissionDenied(BackendError):
    """We may not read or write the workbook (e.g. the sheet is not shared with us)."""


class TransientError(BackendError):
    """A temporary failure (quota, server error, timeout); retrying later may succeed."""


class WorkbookChanged(TransientError):
    """Somebody saved the workbook between our read and our write; nothing was written."""


class WorkbookLocked(TransientError):
    """Excel or LibreOffice holds the file open; nothing was written."""

    path: object = None  # the workbook file (a Path), where the backend knows it
    lock: object = None  # the lock file that shows it is open (a Path)


# -- values -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Link:
    """A cell showing ``text`` that links to ``cell`` (A1) of tab ``sheet`` in the same workbook."""

    text: str
    sheet: str
    cell: str


CellValue = Union[str, int, float, bool, Decimal, datetime, date, Link, None]
Grid = tuple[tuple[CellValue, ...], ...]

# Fill colours (RGB hex, no '#') of the marks the sync leaves in protocol cells.
MARK_COLOURS: Mapping[str, str] = {"error": "F4B6B6", "warning": "FFE699"}
# The grey of the paper protocol's label cells and header rows.  Layouts shade only cells no
# mark can land on (labels, column headers), so clearing a mark never removes this shading.
SHADE_COLOUR = "D9D9D9"
# the author of the notes the sync puts on marked cells (an .xlsx): its own, told from people's
NOTE_AUTHOR = "sheets-sync"

# Hidden owned tab where the sync remembers which cells it marked, so that it can
# remove exactly those marks later without ever touching a judge's own formatting.
STATE_TAB = "_sheets_sync"


@dataclass(frozen=True, slots=True, kw_only=True)
class Snapshot:
    """Everything one read returned: tab title -> rows of raw values (trailing empties trimmed)."""

    tabs: Mapping[str, Grid]
    order: tuple[str, ...]  # tab titles in workbook order
    locale: str | None = None  # the spreadsheet's locale where the backend knows it
    source: str = ""  # human-readable name of the workbook (path or URL)
    token: object = None  # backend-private: what apply() needs to detect a concurrent change
    # ``--output``: the separate workbook the owned tabs are written to, as read; the sync takes
    # the owned tabs from it (:func:`sheets_sync.loop.sync.workbook_view`).  None: they live in ``tabs``.
    results_workbook: Snapshot | None = None
    # the whole workbook as read, as one string (an .xlsx: the SHA-256 of its bytes); None: unknown
    fingerprint: str | None = None
    # the protections the workbook holds now, as the backend read them; None: the backend does
    # not say (the sync then protects only the tabs it writes)
    protections: tuple[Protection, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Validation:
    """A dropdown: cells of ``cells`` (an A1 range such as ``C10:C19``) accept ``values``."""

    cells: str
    values: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Style:
    """How the cells of ``cells`` (an A1 range such as ``A9:M19``) look.

    Each attribute left at its default leaves that property of the cells alone; several
    styles may cover one cell (their properties add up, a later one wins on a conflict).
    """

    cells: str
    frame: bool = False  # thin black lines around and between the cells: the paper's grid
    shade: bool = False  # the grey background of labels and headers (SHADE_COLOUR)
    bold: bool = False
    size: float | None = None  # font size in points
    muted: bool = False  # grey text (hints beside the table)
    align: str | None = None  # "left" | "center" | "right"
    middle: bool = False  # vertically centred (tall rows written by hand)
    wrap: bool = False  # long text wraps inside the cell (column headers)
    text: bool = False  # plain-text number format (Sheets TEXT, Excel "@"): "8 9 10" stays text
    # how numbers are shown (Excel / Sheets pattern such as "0.00###"); the value stays the number written
    number_format: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PageSetup:
    """How a tab prints on A4.  Excel and LibreOffice keep all of it in the file; a Google
    Sheet keeps none of it (the print dialog asks each time; see docs/google.md)."""

    landscape: bool = False
    fit_width: bool = True  # every column on one page width
    fit_height: bool = False  # and every row on one page: the whole tab on one sheet of paper
    repeat_rows: int = 0  # the first N rows printed again at the top of every page
    # …or N rows from this 1-based one (a table under other blocks: its header row, on every
    # page from its own on); a Google Sheet repeats only frozen rows, which start at the top
    repeat_from: int = 1
    # the first N columns printed again at the left of every page (a table wider than the page: its
    # names beside each part); an .xlsx keeps them, a Google Sheet does not
    repeat_cols: int = 0
    area: str | None = None  # the A1 range printed; None: whatever the tab holds
    # 1-based rows after which a new page starts (an evening's protocol blocks, one a page);
    # an .xlsx keeps them, a Google Sheet does not (its print dialog breaks pages itself)
    breaks: tuple[int, ...] = ()
    # printed at this percentage, not fitted (a tab fitted to the page would print below 8 pt:
    # sheets_sync.render.paper); an .xlsx keeps it, a Google Sheet does not
    scale: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class TabWrite:
    """Content for one tab.

    ``owned=True``: the tab belongs to the sync; its whole content becomes ``rows``
    (cells beyond are cleared; the tab is created if missing).
    ``owned=False``: an input tab people type into; it is created with ``rows`` if missing,
    and if it exists only the non-``None`` cells of ``rows`` are written (pre-filling by
    ``init``/``draw``; the sync itself never writes input tabs).

    The look (widths, heights, ``styles``, dropdowns, ``page``) is written when the tab is
    created, and every time for an owned tab whose look changed (``look_kept``: it did not); an
    input tab that exists keeps the look people gave it.
    """

    title: str
    rows: Grid
    owned: bool = True
    column_widths: tuple[float, ...] = ()  # in Excel character units
    frozen_rows: int = 0
    frozen_cols: int = 0
    bold_rows: tuple[int, ...] = ()  # 0-based row indices drawn bold
    validations: tuple[Validation, ...] = ()
    hidden: bool = False
    row_heights: tuple[float | None, ...] = ()  # in points, by row from the first; None: the default
    styles: tuple[Style, ...] = ()
    page: PageSetup | None = None
    # the look is the one the last sync gave this tab (the same look key in the state tab,
    # sheets_sync.loop.sync): a backend may write only the values and leave the look as it is
    look_kept: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Mark:
    """A problem shown in a judge's cell: fill colour by severity plus a note with the message."""

    sheet: str
    cell: str  # A1
    severity: str  # "error" | "warning"
    note: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Protection:
    """Only ``editors`` (e-mails) may change tab ``sheet`` (``cells`` None) or its range ``cells``
    (A1, such as ``B7``).  A backend with per-person rights (Google) makes it a protected range
    of exactly these editors; one without (an .xlsx) protects whole tabs against everybody but
    the sync itself and leaves ranges alone."""

    sheet: str
    cells: str | None = None
    editors: tuple[str, ...] = ()

    @property
    def key(self) -> tuple[str, str | None]:
        """What a protection protects (the same tab or range is protected once)."""
        return self.sheet, self.cells


@dataclass(frozen=True, slots=True, kw_only=True)
class Patch:
    """What one cycle writes.  Marks are differential so backends stay dumb:
    ``set_marks`` are coloured and noted, ``clear_marks`` lose our fill and note."""

    writes: tuple[TabWrite, ...] = ()
    set_marks: tuple[Mark, ...] = ()
    clear_marks: tuple[tuple[str, str], ...] = ()  # (sheet, cell)
    delete_tabs: tuple[str, ...] = ()
    # protections to put in place (added, or their editors set): the sync sends only those the
    # workbook lacks; a backend keeps a tab's protection when it rewrites the tab
    protect: tuple[Protection, ...] = ()
    unprotect: tuple[Protection, ...] = ()  # protections the sync set and wants no more (by key)

    @property
    def empty(self) -> bool:
        return not (self.writes or self.set_marks or self.clear_marks or self.delete_tabs or self.protect
                    or self.unprotect)


class Backend(Protocol):
    """A workbook: Excel file or Google spreadsheet."""

    source: str
    # the account the sync writes as, an editor of every protection it sets; None where the
    # workbook has no per-person rights (an .xlsx, memory)
    account_email: str | None

    def read(self) -> Snapshot:
        """Read every tab's values in one go."""
        ...

    def fingerprint(self) -> str | None:
        """The workbook as it is now, cheaply, comparable with :attr:`Snapshot.fingerprint`."""
        ...

    def apply(self, patch: Patch, *, base: Snapshot | None) -> str | None:
        """Write the patch all-or-nothing; the fingerprint of the workbook as written (None: unknown).

        ``base`` is the snapshot the patch was computed from; when the backend can tell
        that the workbook changed since (another save), it raises :class:`WorkbookChanged`
        and writes nothing.  ``base=None`` writes unconditionally (``init``).
        """
        ...

    def link_supported(self) -> bool:
        """Whether :class:`Link` cells become clickable links to a cell."""
        ...


def values_fingerprint(snapshot: Snapshot, *, skip: Collection[str] = (), protections: bool = True) -> str:
    """A fingerprint of every tab's title and values but the tabs titled in ``skip``, and of the
    protections read (unless not ``protections``): what a backend without the workbook's bytes
    (Google, memory) gives as :attr:`Snapshot.fingerprint`."""
    h = hashlib.sha256()
    for title in snapshot.order:
        if title in skip:
            continue
        h.update(b"\x00T" + title.encode())
        for row in snapshot.tabs.get(title, ()):
            h.update(b"\x00R" + repr(row).encode())
    if protections and snapshot.protections:  # a protection taken away is a change to answer (put it back)
        h.update(b"\x00protections" + repr(sorted((p.key, p.editors) for p in snapshot.protections)).encode())
    return h.hexdigest()
