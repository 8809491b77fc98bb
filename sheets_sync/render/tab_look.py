"""The look every owned tab shares: its heading (title and status line), the header row, points
shown with the site's decimals.  Apart from :mod:`sheets_sync.render.tabs` so that the tabs of
other parts (teams: :mod:`sheets_sync.render.team_tabs`) use it without importing the tabs back.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from sheets_sync.backends.base import PageSetup, Style, column_letter
from sheets_sync.render.paper import LINE_PT

__all__ = ["TABLE_PAGE", "HEADING_ROWS", "HEADER_ROW", "TOP_ROWS", "POINTS_FORMAT", "PERCENT_FORMAT", "points_format", "HEADER_HEIGHT",
           "STANDINGS_HEADER_HEIGHT", "heading", "tab_title", "heading_styles", "header_styles", "number_styles",
           "number"]

# Every owned tab opens like the site's page: its title, its status line («засчитано игр: 38 из 40»),
# then the table's header row.  On screen the three stay frozen; on paper they repeat on every page.
HEADING_ROWS = 2  # the title and the status line above a table's header row
HEADER_ROW = HEADING_ROWS  # 0-based row of a table's column names
TOP_ROWS = HEADING_ROWS + 1  # title, status and header: frozen and printed on every page

# a wide table: landscape, every column on one page width, its title and header on every page
TABLE_PAGE = PageSetup(landscape=True, repeat_rows=TOP_ROWS)

# the title a line of larger bold type, the header row two lines of the small bold header font
HEADER_HEIGHT = (22.0, None, 28.0)
# the Standings' header in the text's own size (it prints at 8 pt or more: render.paper)
STANDINGS_HEADER_HEIGHT = (22.0, LINE_PT, 32.0)

# points as the site prints them (render.json_out.points): at least two decimals, every one there
# is (6.70, 14.825, -0.50, 15.00); the cell keeps the exact number, the format only shows it.
# A column of a tournament's points shows the one number of decimals its preset needs instead
# (points_format: 14.850 beside 14.825, issue 43 §8)
POINTS_FORMAT = "0.00###"
PERCENT_FORMAT = "0.0"


def points_format(places: int) -> str:
    """The number format of a column whose points need ``places`` decimals (Preset.points_places)."""
    return "0." + "0" * places


def heading(title: str, status: str) -> list[tuple]:
    """The two rows above a table: the tab's title and its status line."""
    return [(title,), (status,)]


def tab_title(name: str, what: str) -> str:
    """«German Mafia Open 2016 — Итоговая таблица»: the tournament's name and what the tab shows."""
    return f"{name} — {what}" if name else what


def heading_styles() -> tuple[Style, ...]:
    """The title in larger type, the status line in grey."""
    return (Style(cells="A1", size=14), Style(cells="A2", muted=True))


def header_styles(columns: int, *, size: float | None = 9) -> tuple[Style, ...]:
    """The title and status line, and a table's header row: shaded, small (``size``; None: the
    text's own), centred and wrapped on two lines, so that narrow columns keep their names readable
    on screen and in print (owned tabs: no mark ever lands here)."""
    row = HEADER_ROW + 1
    return (*heading_styles(), Style(cells=f"A{row}:{column_letter(columns - 1)}{row}", shade=True, size=size,
                                      align="center", middle=True, wrap=True))


def number_styles(columns: Sequence[int], first: int, last: int, fmt: str = POINTS_FORMAT) -> tuple[Style, ...]:
    """``fmt`` over the 0-based rows ``first``…``last`` of ``columns`` (0-based), one style per run
    of adjacent columns (a Google Sheet gets one request per style)."""
    if last < first or not columns:
        return ()
    runs: list[list[int]] = []
    for c in sorted(set(columns)):
        if runs and c == runs[-1][-1] + 1:
            runs[-1].append(c)
        else:
            runs.append([c])
    return tuple(Style(cells=f"{column_letter(run[0])}{first + 1}:{column_letter(run[-1])}{last + 1}",
                       number_format=fmt) for run in runs)


def number(value: Decimal) -> Decimal:
    """Points as written to cells: exact, without trailing zeros noise."""
    return value.normalize() if value != 0 else Decimal(0)
