"""How a tab fits on A4: its print scale worked out from its column widths and row heights, so
that nothing prints smaller than :data:`SMALLEST_PT` (a standings page read at arm's length).

A spreadsheet can fit a tab to the page width (or to one page) but cannot be told "and never
below 8 pt": the fitting is decided here, before the tab is written.  The figures are those of
the widest client, LibreOffice drawing the workbook's Calibri with DejaVu Sans (a width unit is
7.0 pt there, 5.25 pt plus 3.75 pt a column in Excel), so a page that fits there fits in Excel.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from sheets_sync.backends.base import PageSetup

__all__ = ["SMALLEST_PT", "LINE_PT", "UNIT_PT", "printable", "text_lines", "paper_page", "columns_on_paper"]

SMALLEST_PT = 8.0  # the least font size a printed page may show
DEFAULT_FONT_PT = 11.0  # the workbook's own font: the cells' text
UNIT_PT = 7.05  # one Excel width unit (a digit of the default font) on paper at 100 %
LINE_PT = 15.0  # a row of 11 pt text (Excel's default row height; LibreOffice's own is 12.8)
_A4 = (842.0, 595.3)  # points, landscape
_MARGINS = (2 * 0.4 * 72, 2 * 0.5 * 72)  # left + right, top + bottom (backends.excel_write sets them)
_CHAR_PT = 6.7  # an average letter of 11 pt text, wide Cyrillic included (DejaVu Sans: о .61 em, ш .86 em)
_SPACE_PT = 3.5
_CELL_PADDING_PT = 6.0
# LibreOffice rounds a fitted scale down to a whole percent and measures a little wider than we do
_ROOM = 1.03


def printable(landscape: bool) -> tuple[float, float]:
    """The width and height an A4 page prints on, inside the margins, in points."""
    width, height = _A4 if landscape else _A4[::-1]
    return width - _MARGINS[0], height - _MARGINS[1]


def text_lines(text: object, width: float) -> int:
    """The lines ``text`` wraps on in a column ``width`` units wide (word by word, as a
    spreadsheet wraps it; a word longer than the line breaks where it must)."""
    if text is None or text == "":
        return 1
    room = max(width * UNIT_PT - _CELL_PADDING_PT, _CHAR_PT)
    lines, used = 1, 0.0
    for paragraph_no, paragraph in enumerate(str(text).split("\n")):
        if paragraph_no:
            lines, used = lines + 1, 0.0
        for word in paragraph.split():
            size = len(word) * _CHAR_PT
            gap = _SPACE_PT if used else 0.0
            if used and used + gap + size > room:
                lines, used, gap = lines + 1, 0.0, 0.0
            if size > room:  # a long word: it breaks over as many lines as it needs
                extra = math.ceil(size / room) - 1
                lines, used = lines + extra, size - extra * room
            else:
                used += gap + size
    return lines


def paper_page(widths: Sequence[float], heights: Sequence[float], *, smallest_font: float = DEFAULT_FONT_PT,
               landscape: bool = True, repeat_rows: int = 0, area: str | None = None) -> PageSetup:
    """The page of a table ``widths`` units wide and ``heights`` points tall whose smallest text is
    ``smallest_font`` points: on one page when that keeps every letter at least 8 pt, else one page
    wide (pages down) when that does, else printed at the scale that gives 8 pt (the columns that do
    not fit go on to a page of their own)."""
    page_width, page_height = printable(landscape)
    least = SMALLEST_PT / smallest_font * _ROOM  # the least scale
    across = min(1.0, page_width / max(sum(widths) * UNIT_PT, 1.0))
    one_page = min(across, page_height / max(sum(heights), 1.0))
    common = dict(landscape=landscape, repeat_rows=repeat_rows, area=area)
    if one_page >= least:
        return PageSetup(fit_width=True, fit_height=True, **common)
    if across >= least:
        return PageSetup(fit_width=True, **common)
    return PageSetup(fit_width=False, scale=math.ceil(least * 100), **common)


def columns_on_paper(widths: Sequence[float], *, smallest_font: float = DEFAULT_FONT_PT, landscape: bool = True) -> int:
    """How many of the leading columns (``widths`` in units, in the table's order) one page width
    holds with every letter at least 8 pt (``smallest_font``: the table's smallest text); at least
    one. A tab whose columns are a scheme's list prints those and keeps the rest for the screen."""
    room = printable(landscape)[0] / (UNIT_PT * SMALLEST_PT / smallest_font * _ROOM)
    used, count = 0.0, 0
    for width in widths:
        if used + width > room:
            break
        used, count = used + width, count + 1
    return max(count, 1)
