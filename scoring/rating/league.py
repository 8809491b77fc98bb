"""A league across workbooks (issue 36 §2): one workbook's counted games as :class:`RatedGame`s,
its players' lines for their careers, and the league's games in one played order — pure.

The played time of a game: the protocols carry no end time, so a game is placed by its date
(the evening's date for a protocol of an evening tab, else the Tournament tab's first date),
then the stage's place in the preset, the round and the table.  That order key is a plain
string (``2016-04-30|01|003|002``) so it survives the league's JSON cache unchanged; games
with the same key are taken by id (``workbook#tab``), so the order never depends on the order
of the events in the league file.  A workbook without any date sorts before every dated one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from scoring import labels as L
from scoring.cells import a1
from scoring.errors import SheetsSyncError
from scoring.model import Protocol, Team
from scoring.names import fold, typed_name
from scoring.parse.grid import Grid, _cell, _find_header_row, find_tab
from scoring.rating.games import BLACK, RED, RatedGame, Seat, StartRating
from scoring.standings import Results
from scoring.values import is_blank, read_decimal, shown

__all__ = ["EVENT_KINDS", "EventLine", "event_date", "order_key", "rated_games", "event_lines", "typed_starts",
           "START_COLUMNS", "StartRatingError", "first_starts", "one_spelling"]

EVENT_KINDS = ("club", "tournament", "elite")  # a league file's event kinds = the scheme's game kinds

_DAY = re.compile(r"(\d{1,2})\.(\d{1,2})(?:\.(\d{4}))?")
_YEAR = re.compile(r"\b(\d{4})\b")
_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


@dataclass(frozen=True, slots=True)
class EventLine:
    """One player's line in one event: where he finished and what he did there."""

    player: str
    place: int
    places: str  # "5" or "5–6"
    points: Decimal
    games: int
    wins: int
    red_games: int
    red_wins: int
    black_games: int
    black_wins: int
    best_moves: int  # games the judge recognised his best move (extra points > 0)


def event_date(text: str) -> str:
    """The first day of a date as typed on the Tournament tab («30.04–01.05.2016», «2016-04-30»)
    as ISO, or "" when none can be read (the year: the first four-digit number)."""
    iso = _ISO.search(text or "")
    if iso:
        return iso.group(0)
    day = _DAY.search(text or "")
    year = _YEAR.search(text or "")
    if not day or not (day.group(3) or year):
        return ""
    try:
        return date(int(day.group(3) or year.group(1)), int(day.group(2)), int(day.group(1))).isoformat()  # type: ignore[union-attr]
    except ValueError:
        return ""


def order_key(protocol: Protocol, stage_index: int, fallback_date: str) -> str:
    """The game's place in time (see the module's docstring)."""
    day = protocol.date.isoformat() if protocol.date else fallback_date
    return f"{day}|{stage_index:02d}|{protocol.round:03d}|{protocol.table:03d}|{protocol.anchor}"


def _seats(protocol: Protocol) -> tuple[Seat, ...]:
    return tuple(Seat(s.player, BLACK if s.role.team is Team.BLACK else RED)
                 for s in protocol.seats if s.player and s.role is not None)


def rated_games(results: Results, *, workbook: str, kind: str, fallback_date: str = "") -> tuple[RatedGame, ...]:
    """Every counted game of ``results`` as a game to rate, with id ``workbook#tab`` (stable
    across runs: the workbook's id and the game's tab, or tab!anchor for a block)."""
    stages = {key: i for i, key in enumerate(results.preset.stage_keys)}
    games = []
    for p in results.counted:
        if p.winner is None:
            continue
        games.append(RatedGame(id=f"{workbook}#{p.game_id}", order=order_key(p, stages.get(p.stage, 0), fallback_date),
                               kind=kind, seats=_seats(p), winner=RED if p.winner is Team.RED else BLACK,
                               event=workbook))
    return tuple(games)


def event_lines(results: Results) -> tuple[EventLine, ...]:
    """Each ranked player's line of the event's overall standings, in place order."""
    lines = []
    for standing in results.overall:
        s = standing.stats
        red_games = sum(n for role, n in s.games_as.items() if role in ("civilian", "sheriff"))
        red_wins = sum(n for role, n in s.wins_as.items() if role in ("civilian", "sheriff"))
        lines.append(EventLine(s.player, standing.place, standing.places, s.total, s.games, s.wins,
                               red_games, red_wins, s.games - red_games, s.wins - red_wins, s.recognised_best))
    return tuple(lines)


def in_played_order(events: Iterable[Sequence[RatedGame]]) -> list[RatedGame]:
    """The games of every event in one list, by order key then id (as :func:`replay` takes them)."""
    games = [g for event in events for g in event]
    games.sort(key=lambda g: (g.order, g.id))
    return games


# -- starting ratings typed on the Players tab (optional columns) -------------------------------------------
START_COLUMNS: Mapping[str, tuple[str, ...]] = {
    "player": L.PLAYER_COLUMNS["player"],
    "overall": ("Рейтинг", "Rating"),
    "red": ("Рейтинг красных", "Red rating"),
    "black": ("Рейтинг чёрных", "Black rating"),
}


class StartRatingError(SheetsSyncError, ValueError):
    """A starting rating that is not a number; the message names the tab and cell."""


def typed_starts(tabs: Mapping[str, Grid]) -> dict[str, StartRating]:
    """The ratings a club already has, as typed on the Players tab («Рейтинг», «Рейтинг
    красных», «Рейтинг чёрных»; each optional, as shown: 1023.4): player -> his start."""
    title = find_tab(tabs, "players")
    if title is None:
        return {}
    grid = tabs[title]
    header = _find_header_row(grid, START_COLUMNS, ("player",))
    if header is None or len(header[1]) == 1:
        return {}
    row, cols = header
    starts: dict[str, StartRating] = {}
    for r in range(row + 1, len(grid)):
        player = typed_name(_cell(grid, r, cols["player"]))
        if not player:
            continue
        values: dict[str, Decimal | None] = {}
        for key in ("overall", "red", "black"):
            raw = _cell(grid, r, cols[key]) if key in cols else None
            value, rule = (None, None) if is_blank(raw) else read_decimal(raw)
            if rule is not None or (value is None and not is_blank(raw)):
                raise StartRatingError(f"{title}!{a1(r, cols[key])}: a starting rating must be a number, "
                                       f"not {shown(raw)!r}",
                                       ru=f"{title}!{a1(r, cols[key])}: начальный рейтинг должен быть числом, "
                                          f"а не «{shown(raw)}»")
            values[key] = value
        if any(v is not None for v in values.values()):
            starts[player] = StartRating(values["overall"], values["red"], values["black"])
    return starts


def first_starts(typed_in_order: Iterable[Mapping[str, StartRating]]) -> dict[str, StartRating]:
    """Each player's start as typed in the first event (in the played order) that types one:
    a rating is typed in once; what a later workbook repeats does not reset it."""
    starts: dict[str, StartRating] = {}
    for typed in typed_in_order:
        for player, start in typed.items():
            starts.setdefault(player, start)
    return starts


def one_spelling(names_in_order: Iterable[str]) -> dict[str, str]:
    """Each spelling -> the league's one spelling of that player: names that compare equal the way
    a workbook compares them (:func:`scoring.names.fold`: case, ё/е, Latin look-alikes, spaces)
    are one player across workbooks, spelt as he was first (in the played order)."""
    first: dict[str, str] = {}
    spelling: dict[str, str] = {}
    for name in names_in_order:
        spelling[name] = first.setdefault(fold(name), name)
    return spelling
