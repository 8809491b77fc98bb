"""A best-move cell: seats as typed, and as a spreadsheet turned them into a number or a date."""

from __future__ import annotations

import re
from datetime import date

from scoring.values import guessed_date, is_blank, is_dash, shown
from scoring.parse.grid import W, _Reader, _cell


def seat_readings(digits: str, count: int = 3) -> list[tuple[int, ...]]:
    """Every way to read a run of digits as ``count`` distinct seats 1–10 ("8910" → 8 9 10).

    A spreadsheet turns a best move typed with separators into such a run: Google Sheets in
    ru_RU takes the spaces of ``8 9 10`` for digit grouping (as in ``1 000``) and stores 8910."""
    found: list[tuple[int, ...]] = []

    def walk(i: int, seats: tuple[int, ...]) -> None:
        if i == len(digits):
            if len(seats) == count and len(set(seats)) == count:
                found.append(seats)
            return
        if len(seats) == count or digits[i] == "0":
            return
        for width in (1, 2):
            if i + width <= len(digits) and 1 <= int(digits[i:i + width]) <= 10:
                walk(i + width, (*seats, int(digits[i:i + width])))

    walk(0, ())
    return found


def _seats_of_run(digits: str) -> tuple[int, ...] | None:
    """A run of digits as three seats when exactly one reading exists, else as two («57», «810»:
    ``8 10`` typed into Google Sheets in ru_RU), else as one seat («5», «10»); None when none or
    several exist.  The best-move rule then says three are needed and scores what was named."""
    for count in (3, 2, 1):
        readings = seat_readings(digits, count)
        if readings:
            return readings[0] if len(readings) == 1 else None
    return None


def _seats_of_date(when: date) -> tuple[int, ...] | None:
    """Three seats a spreadsheet turned into a date: ``8 9 10`` typed into Google Sheets in en_US
    (month, day, two-digit year), ``8.9.10`` into a Russian one or Excel (day, month, year).
    Read back as the set of day, month and year 2001–2010, sorted (the order typed is lost, and a
    best move is a set); None when that is not three distinct seats (a date typed without a year,
    or a real date)."""
    if not 2001 <= when.year <= 2010:
        return None
    seats = {when.day, when.month, when.year - 2000}
    return tuple(sorted(seats)) if len(seats) == 3 and seats <= set(range(1, 11)) else None


def _parse_best_move(value: object) -> tuple[int, ...] | None:
    """The seats named in a best-move cell; () when empty or a dash; None when unreadable."""
    if is_blank(value) or is_dash(value):
        return ()
    if isinstance(value, bool):
        return None
    when = guessed_date(value)
    if when is not None:
        return _seats_of_date(when)
    if isinstance(value, (int, float)):
        if (isinstance(value, float) and not value.is_integer()) or value <= 0:
            return None
        return _seats_of_run(str(int(value)))
    parts = [p for p in re.split(r"[\s,.;/\\\-–—]+", str(value).strip()) if p]
    if not all(p.isdigit() for p in parts):
        return None
    if len(parts) == 1:
        return _seats_of_run(parts[0])
    return tuple(int(p) for p in parts)


def _read_best_move(rd: _Reader, r: int, c: int) -> tuple[int, ...]:
    raw = _cell(rd.grid, r, c)
    parsed = _parse_best_move(raw)
    if parsed is not None:
        return parsed
    when = guessed_date(raw)  # a warning, as every best move problem: the game counts, the best move scores nothing
    if when is not None:
        rd.add("read.date_guessed", W, r, c, value=shown(when))
    else:
        rd.add("read.best_move", W, r, c, value=shown(raw))
    return ()
