"""Series (a cup of several stages, a regional league): rating points for a tournament place,
and the series standings over each player's best events.

The points are the Mafia World Tour's table ``T[stars][field size / 10][place]``, shipped as data
(``config/ratings/mwt-series.toml``, its source named there): index ``stars − 1``,
``⌊field / 10⌋ − 1`` and ``place − 1``, each clamped into its row — a field under 10 reads the
10-player row, places past a row's end get its last value (the number of stars), stars above
the table's the top row — as mafiaratings' evaluator reads a table.  A series total is the sum
of a player's best ``best_n`` events (0: every event); equal totals are told apart by the
series scheme's tiebreaks and otherwise share a place (:func:`scoring.ranking.place`).
Points are Decimals, exact.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from scoring.collation import name_key
from scoring.ranking import Placed, place
from scoring.rating.scheme import RatingSchemeError, Reader

__all__ = ["PointsTable", "SeriesScheme", "EventResult", "SeriesEvent", "SeriesEntry", "TIEBREAKS",
           "series_points", "series_standings"]


@dataclass(frozen=True, slots=True)
class PointsTable:
    """``rows[stars − 1][field row][place − 1]``: field row i is for fields of 10·(i + 1) players."""

    rows: tuple[tuple[tuple[Decimal, ...], ...], ...]

    @property
    def max_stars(self) -> int:
        return len(self.rows)


def _clamped(index: int, count: int) -> int:
    return min(max(index, 0), count - 1)


def series_points(place: int, stars: int | Decimal, field: int, table: PointsTable) -> Decimal:
    """Rating points for ``place`` (1 = the winner) in a tournament of ``stars`` stars with a
    field of ``field`` players."""
    if place < 1 or field < 1 or stars < 1:
        raise ValueError(f"place {place}, stars {stars}, field {field}: each must be at least 1")
    by_field = table.rows[_clamped(int(stars) - 1, table.max_stars)]
    row = by_field[_clamped(field // 10 - 1, len(by_field))]
    return row[_clamped(place - 1, len(row))]


# -- tiebreaks: higher is better --------------------------------------------------------------
def _win_rate(entry: "SeriesEntry") -> Fraction:
    # a player with games ahead of one without (mafiaratings' order); exact, no epsilon
    return Fraction(entry.wins, entry.games) if entry.games else Fraction(-1)


TIEBREAKS: Mapping[str, Callable[["SeriesEntry"], Any]] = {
    "fewer_events": lambda e: -e.events,  # the same points from fewer events rank higher
    "more_events": lambda e: e.events,
    "win_rate": _win_rate,  # wins / games over every event of the series
    "wins": lambda e: e.wins,
    "best_event": lambda e: max((p for _, p in e.counted), default=Decimal(0)),
}


@dataclass(frozen=True, kw_only=True, slots=True)
class SeriesScheme:
    id: str
    name: str
    source: str
    best_n: int  # events counted per player (their best); 0 = every event
    tiebreaks: tuple[str, ...]  # names in TIEBREAKS, applied in order
    table: PointsTable

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, source: str = "series scheme") -> "SeriesScheme":
        r = Reader()
        r.unknown(data, {"id", "name", "source", "best_n", "tiebreaks", "points"}, "")
        tiebreaks = data.get("tiebreaks", [])
        if not isinstance(tiebreaks, list) or not all(isinstance(t, str) for t in tiebreaks):
            r.err("tiebreaks", "must be a list of names")
            tiebreaks = []
        for i, name in enumerate(tiebreaks):
            if name not in TIEBREAKS:
                r.err(f"tiebreaks[{i}]", f"{name!r} is not a tiebreak (one of: {', '.join(TIEBREAKS)})")
        scheme = cls(id=r.text(data, "id", "id"), name=r.text(data, "name", "name"),
                     source=r.text(data, "source", "source"),
                     best_n=r.integer(data, "best_n", "best_n", 0), tiebreaks=tuple(tiebreaks),
                     table=_read_table(r, r.table(data, "points", "points", {"source", "stars"})))
        if r.errors:
            raise RatingSchemeError(source, r.errors)
        return scheme


def _read_table(r: Reader, points: Mapping[str, Any]) -> PointsTable:
    """``[[points.stars]]`` tables, each ``stars = n`` and ``rows`` (10, 20, … players) — every
    number of stars from 1 to the highest, so that no tournament falls between rows."""
    levels = points.get("stars", [])
    if not isinstance(levels, list) or not levels:
        r.err("points.stars", "missing: one [[points.stars]] for each number of stars, from 1")
        return PointsTable((((Decimal(0),),),))
    by_stars: dict[int, tuple[tuple[Decimal, ...], ...]] = {}
    for i, level in enumerate(levels):
        where = f"points.stars[{i}]"
        if not isinstance(level, Mapping):
            r.err(where, "must be a table")
            continue
        r.unknown(level, {"stars", "rows"}, f"{where}.")
        stars = r.integer(level, "stars", f"{where}.stars", 0, low=1)
        if stars in by_stars:
            r.err(f"{where}.stars", f"{stars}★ is given twice")
        by_stars[stars] = _read_rows(r, level.get("rows"), f"{where}.rows")
    top = max(by_stars, default=0)
    missing = [s for s in range(1, top + 1) if s not in by_stars]
    if missing:
        r.err("points.stars", "no row for " + ", ".join(f"{s}★" for s in missing)
              + f": the table must cover every number of stars from 1 to {top}")
    return PointsTable(tuple(by_stars.get(s, ((Decimal(0),),)) for s in range(1, top + 1)))


def _read_rows(r: Reader, rows: Any, where: str) -> tuple[tuple[Decimal, ...], ...]:
    if not isinstance(rows, list) or not rows:
        r.err(where, "missing: one list of points by place for each field of 10, 20, … players")
        return ((Decimal(0),),)
    result = []
    for j, row in enumerate(rows):
        if not isinstance(row, list) or not row or any(isinstance(v, bool) or not isinstance(v, (int, Decimal))
                                                       for v in row):
            r.err(f"{where}[{j}]", f"({10 * (j + 1)} players) must be a list of numbers, best place first")
            result.append((Decimal(0),))
            continue
        result.append(tuple(Decimal(v) for v in row))
    return tuple(result)


# -- standings --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class EventResult:
    player: str
    place: int  # the first place of a shared range
    games: int = 0
    wins: int = 0


@dataclass(frozen=True, slots=True)
class SeriesEvent:
    id: str
    stars: int | Decimal
    field: int  # players of the tournament (its rating field)
    results: tuple[EventResult, ...]


@dataclass(frozen=True, slots=True)
class SeriesEntry:
    player: str
    points: Decimal  # the counted events' points
    counted: tuple[tuple[str, Decimal], ...]  # (event id, points), best first
    dropped: tuple[tuple[str, Decimal], ...]  # the events beyond the best N
    events: int
    games: int
    wins: int


def series_standings(events: Sequence[SeriesEvent], best_n: int, tiebreaks: Iterable[str],
                     table: PointsTable) -> list[Placed[SeriesEntry]]:
    """The series table: each player's best ``best_n`` events (0 = all) summed, best first;
    ``tiebreaks`` (names in :data:`TIEBREAKS`) in order, then a shared place, listed by name."""
    breaks = [TIEBREAKS[name] for name in tiebreaks]  # KeyError: the scheme loader names them
    earned: dict[str, list[tuple[int, str, Decimal]]] = {}
    games: dict[str, int] = {}
    wins: dict[str, int] = {}
    for index, event in enumerate(events):
        for result in event.results:
            points = series_points(result.place, event.stars, event.field, table)
            earned.setdefault(result.player, []).append((index, event.id, points))
            games[result.player] = games.get(result.player, 0) + result.games
            wins[result.player] = wins.get(result.player, 0) + result.wins
    entries = []
    for player, got in earned.items():
        best = sorted(got, key=lambda e: (-e[2], e[0]))  # equal points: the earlier event counts
        counted = best[:best_n] if best_n > 0 else best
        dropped = best[len(counted):]
        entries.append(SeriesEntry(player, sum((p for _, _, p in counted), Decimal(0)),
                                   tuple((e, p) for _, e, p in counted), tuple((e, p) for _, e, p in dropped),
                                   len(got), games[player], wins[player]))
    return place(entries, key=lambda e: (e.points, *(b(e) for b in breaks)), listing=lambda e: name_key(e.player))
