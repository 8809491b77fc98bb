"""The reader's tools: a tab's grid, the label tables' words, header rows found by their labels,
and :class:`_Reader`, which reads typed values out of one tab collecting the problems."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from scoring import labels as L
from scoring.cells import a1
from scoring.model import Location
from scoring.problems import Problem, Severity, problem
from scoring.values import MAX_TEXT, guessed_date, is_dash, read_decimal, read_int, shown, text


Grid = Sequence[Sequence[object]]
E, W = Severity.ERROR, Severity.WARNING


def _cell(grid: Grid, r: int, c: int) -> object:
    if r < len(grid) and c < len(grid[r]):
        return grid[r][c]
    return None


_WORDS_CACHE: dict[int, tuple[Mapping[str, tuple[str, ...]], dict[str, str]]] = {}


def _words(mapping: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    """Normalised spelling -> key.  The label tables are module constants, so the result is
    cached by identity (it was the hottest line of a sync: rebuilt for every row read)."""
    cached = _WORDS_CACHE.get(id(mapping))
    if cached is not None and cached[0] is mapping:
        return cached[1]
    words = {L.norm(w): key for key, ws in mapping.items() for w in ws}
    _WORDS_CACHE[id(mapping)] = (mapping, words)
    return words


def find_tab(tabs: Mapping[str, Grid], key: str) -> str | None:
    """Title of the tab ``key`` (e.g. "players") in either language, or None."""
    wanted = {L.norm(t) for t in L.TABS[key]}
    for title in tabs:
        if L.norm(title) in wanted:
            return title
    return None


# -- table helpers -------------------------------------------------------------------------------
def _header_map(row: Sequence[object], columns: Mapping[str, tuple[str, ...]]) -> dict[str, int]:
    words = _words(columns)
    found: dict[str, int] = {}
    for c, value in enumerate(row):
        if not isinstance(value, str):  # every label is text (words, «№», «#»): a number or an empty cell is none
            continue
        key = words.get(L.norm(value))
        if key is not None and key not in found:
            found[key] = c
    return found


def _find_header_row(grid: Grid, columns: Mapping[str, tuple[str, ...]], required: Sequence[str], limit: int = 40) -> tuple[int, dict[str, int]] | None:
    for r in range(min(len(grid), limit)):
        found = _header_map(grid[r], columns)
        if all(k in found for k in required):
            return r, found
    return None


class _Reader:
    """Collects problems while reading typed values out of one tab."""

    def __init__(self, sheet: str, grid: Grid):
        self.sheet = sheet
        self.grid = grid
        self.problems: list[Problem] = []

    def loc(self, r: int, c: int) -> Location:
        return Location(self.sheet, a1(r, c))

    def add(self, rule: str, severity: Severity, r: int, c: int, **params: object) -> None:
        self.problems.append(problem(rule, severity, self.loc(r, c), **params))

    def text(self, r: int, c: int | None) -> str:
        if c is None:
            return ""
        value = _cell(self.grid, r, c)
        if isinstance(value, (datetime, date)):
            self.add("read.date_guessed", W, r, c, value=shown(value))
        result = text(value)
        if len(result) > MAX_TEXT:
            self.add("read.too_long", E, r, c, length=len(result))
            return result[:MAX_TEXT]
        return result

    def integer(self, r: int, c: int | None, *, severity: Severity = E) -> int | None:
        if c is None:
            return None
        value = _cell(self.grid, r, c)
        number, rule = read_int(value)
        if rule:
            self.add(rule, severity, r, c, value=shown(value))
        return number

    def stage(self, r: int, c: int | None, stages: Mapping[str, str], default: str) -> str | None:
        """A stage key from its name in either language; an empty cell means ``default``."""
        stage_text = self.text(r, c)
        if not stage_text:
            return default
        stage = stages.get(L.norm(stage_text))
        if stage is None:
            self.add("read.stage", E, r, c, value=stage_text)
        return stage

    def decimal(self, r: int, c: int | None) -> tuple[Decimal | None, bool]:
        """(number, ok).  ok is False when the cell held something unreadable."""
        if c is None:
            return None, True
        value = _cell(self.grid, r, c)
        number, rule = read_decimal(value)
        if rule:
            self.add(rule, E, r, c, value=shown(value))
            return None, False
        return number, True

    def typed(self, r: int, c: int | None) -> object:
        """A value of the protocol's seat table as the judge meant it: a lone dash is "nothing"
        (None); a date the spreadsheet made of the input is reported and read as None."""
        if c is None:
            return None
        value = _cell(self.grid, r, c)
        if is_dash(value):
            return None
        when = guessed_date(value)
        if when is not None:
            self.add("read.date_guessed", E, r, c, value=shown(when))
            return None
        return value

    def seat_number(self, r: int, c: int | None, read: Callable[[object], tuple[Any, str | None]] = read_int) -> Any:
        """A number of the seat table: whole (fouls, night, day) or, with ``read_decimal``, not
        (extra points); None when empty, a dash, or reported as unreadable."""
        value = self.typed(r, c)
        number, rule = read(value)
        if rule:
            self.add(rule, E, r, c, value=shown(value))
        return number


def _rows_text(rows: Sequence[int]) -> str:
    """0-based rows as a person reads them: ``4–14``."""
    return f"{rows[0] + 1}–{rows[-1] + 1}" if len(rows) > 1 else str(rows[0] + 1)
