"""The date of an evening tab of a club season."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from scoring import labels as L
from scoring.model import Location
from scoring.problems import Problem, problem
from scoring.values import guessed_date, is_blank, shown
from scoring.parse.grid import E, Grid, W, _Reader, _cell


# -- evening tabs ------------------------------------------------------------------------------
# An evening of a club season is one tab: titled by its date («05.12.2026») and holding the date in
# a «Дата» cell above its blocks.  A date typed in another form is read where it is unambiguous:
# a two-digit year (05.12.26) is 2026, with a warning naming the expected form; a date without a
# year (5.12) takes its year from the tab title or the date cell when that one has it (warning),
# and is an error naming the expected form otherwise — the evening's games are then not placed.
_DATE_TEXT = re.compile(r"^\s*(\d{1,2})[./-](\d{1,2})(?:[./-](\d{4}|\d{2}))?\s*(?:г\.?)?\s*$")
_ISO_DATE = re.compile(r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})\s*$")


@dataclass(frozen=True, slots=True)
class _DateParts:
    day: int
    month: int
    year: int | None  # None: typed without a year
    exact: bool  # typed as DD.MM.YYYY (or a date value): nothing to warn about


def _date_parts(value: object) -> _DateParts | None:
    """Day, month and year of a date as typed in an evening's date cell or tab title, or None."""
    when = guessed_date(value)
    if when is not None:
        return _DateParts(when.day, when.month, when.year, True)
    if not isinstance(value, str):
        return None
    if m := _ISO_DATE.match(value):
        return _DateParts(int(m.group(3)), int(m.group(2)), int(m.group(1)), True)
    if m := _DATE_TEXT.match(value):
        year = m.group(3)
        full = year is not None and len(year) == 4
        return _DateParts(int(m.group(1)), int(m.group(2)), int(year) if full else (2000 + int(year) if year else None),
                          full)
    return None


def _date_in_title(title: str) -> _DateParts | None:
    return _date_parts(title.strip()) if title else None


def _evening_date_cell(grid: Grid, below: int) -> tuple[int, int] | None:
    """The cell of the value of the «Дата» label above the first block, or None."""
    words = {L.norm(w) for w in L.EVENING_DATE_LABELS}
    for r in range(min(below, len(grid))):
        row = grid[r]
        for c, value in enumerate(row):
            if L.norm(value).rstrip(":") in words:
                vc = next((v for v in range(c + 1, min(c + 3, len(row))) if not is_blank(row[v])), c + 1)
                return r, vc
    return None


def _as_date(parts: _DateParts, year: int | None) -> date | None:
    try:
        return date(year, parts.month, parts.day) if year is not None else None
    except ValueError:  # 31.02
        return None


def _evening_date(title: str, grid: Grid, first_block_row: int) -> tuple[date | None, list[Problem]]:
    """The evening's date from its date cell (or, without one, its tab title), and its problems."""
    rd = _Reader(title, grid)
    pos = _evening_date_cell(grid, first_block_row)
    raw: object = _cell(grid, *pos) if pos else None
    where = rd.loc(*pos) if pos else Location(title, "A1")
    cell_parts = _date_parts(raw) if not is_blank(raw) else None
    title_parts = _date_in_title(title)
    parts, typed = (cell_parts, raw) if not is_blank(raw) else (title_parts, title)
    other = title_parts if parts is cell_parts else None
    if parts is None:
        rd.problems.append(problem("evening.date_unreadable", E, where, value=shown(typed)))
        return None, rd.problems
    year = parts.year if parts.year is not None else (other.year if other and (other.day, other.month) == (parts.day, parts.month) else None)
    when = _as_date(parts, year)
    if when is None:
        rd.problems.append(problem("evening.date_unreadable", E, where, value=shown(typed)))
        return None, rd.problems
    if not parts.exact:
        rd.problems.append(problem("evening.date_form", W, where, value=shown(typed), date=when.strftime("%d.%m.%Y")))
    if title_parts is not None and parts is cell_parts and title_parts.year is not None:
        from_title = _as_date(title_parts, title_parts.year)
        if from_title is not None and from_title != when:
            rd.problems.append(problem("evening.date_mismatch", W, where, date=when.strftime("%d.%m.%Y"), title=title))
    return when, rd.problems
