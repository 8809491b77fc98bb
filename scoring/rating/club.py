"""A player rating inside one workbook (issue 36 §1, last sentence) — pure.

With a ``[rating]`` in the preset, every counted game of the workbook is rated with the
preset's scheme (resolved by the edges into ``preset.rating.resolved``), in the order the games
were played: date, stage, round, table (:func:`scoring.rating.league.order_key`, as the league
orders them), then the game's tab — never the order of the tabs or blocks on the sheet.  Each
player starts from the rating typed on the Players tab («Рейтинг», «Рейтинг красных»,
«Рейтинг чёрных», as shown: 1023.4), else from the scheme's start.

What it gives, per player (:class:`RatingLine`): the rating before the workbook's first game and
after its last one, the change over the workbook, the change on its last evening (a club
season's evenings are the games' dates), the red and black side ratings and the rated games.
A club season shows it as columns of its table and may rank by it (:mod:`scoring.season`:
:meth:`WorkbookRating.after` gives the table after each evening); a tournament shows each
player's before / after.  Ratings stay floats as the reference computes them; they are rounded
for display only (:meth:`RatingScheme.shown`).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from scoring.cells import a1
from scoring.memo import last_answer
from scoring.model import Location
from scoring.names import typed_name
from scoring.parse.grid import Grid, _cell, _find_header_row, find_tab
from scoring.problems import Problem, Severity, problem
from scoring.rating.games import GameChange, RatedGame, Ratings, StartRating, replay
from scoring.rating.league import START_COLUMNS, rated_games
from scoring.rating.scheme import RatingScheme
from scoring.standings import Results
from scoring.values import is_blank, read_decimal, shown

__all__ = ["RatingLine", "WorkbookRating", "workbook_rating", "starts_on_players_tab", "TypedStart"]

TypedStart = tuple[str, Decimal | None, Decimal | None, Decimal | None]  # (nickname, overall, red, black) as shown


@dataclass(frozen=True, kw_only=True, slots=True)
class RatingLine:
    """One player's rating in the workbook (internal units: the scheme's ``shown`` adds 1000)."""

    player: str
    before: float  # before the workbook's first game: typed on the Players tab, else the scheme's start
    overall: float  # after the workbook's last counted game
    red: float
    black: float
    games: int  # rated games in the workbook
    change: float  # what the workbook's games changed, added in the played order
    last_evening: float | None  # what the last evening's games changed; None: he did not play then


@dataclass(frozen=True, kw_only=True, slots=True)
class WorkbookRating:
    scheme: RatingScheme
    lines: Mapping[str, RatingLine]  # every ranked player of the Players tab and everyone who played
    last_evening: str  # the date of the last rated game (ISO; "" without a date or a game)
    ratings: Ratings
    # (evening, every player's overall rating after it) for each evening with a rated game, in order
    evenings: tuple[tuple[str, Mapping[str, float]], ...] = ()
    days: tuple[str, ...] = ()  # the evenings' dates, for looking one up

    def listed(self, player: str) -> bool:
        """He has the scheme's minimum of rated games: his rating is shown."""
        line = self.lines.get(player)
        return line is not None and line.games >= self.scheme.min_games

    def shown(self, player: str) -> Decimal | None:
        """His rating as people read it (1023), None below the scheme's minimum of games."""
        return self.scheme.shown(self.lines[player].overall) if self.listed(player) else None

    def after(self, day: str) -> Mapping[str, float]:
        """Every player's overall rating after the games of the evenings up to ``day`` (ISO,
        inclusive), for those who had played by then."""
        at = bisect_right(self.days, day)
        return self.evenings[at - 1][1] if at else {}


def _after_each_evening(history: Sequence[GameChange], before: Mapping[str, float]
                        ) -> tuple[tuple[str, Mapping[str, float]], ...]:
    """Each evening's ratings of those who had played by then, in one pass: the start plus the
    changes in the played order, the very additions the replay made (so the last evening's equal
    the replay's ratings bit for bit).  The games come by date first, so an evening's are together."""
    overall: dict[str, float] = {}
    evenings: list[tuple[str, Mapping[str, float]]] = []
    for i, change in enumerate(history):
        for seat, amount in zip(change.game.seats, change.changes):
            overall[seat.player] = overall.get(seat.player, before[seat.player]) + amount
        if i + 1 == len(history) or history[i + 1].game.event != change.game.event:
            evenings.append((change.game.event, dict(overall)))
    return tuple(evenings)


def _starts(results: Results) -> dict[str, StartRating]:
    return {name: StartRating(overall, red, black) for name, overall, red, black in results.tournament.rating_starts}


def _games(results: Results, kind: str) -> list[RatedGame]:
    """The counted games to rate, each with its evening (its date, ISO; "" for a game without one,
    as a tournament's) as its event: the order key starts with the same date, so the evenings
    come in the played order (:meth:`WorkbookRating.after` relies on it)."""
    rated = [p for p in results.counted if p.winner is not None]  # what rated_games takes, in its order
    # the id names the game whatever the tab holds (an evening's tab holds several games)
    return [replace(g, id=f"{p.game_id}|{p.stage}|{p.round:03d}|{p.table:03d}",
                    event=p.date.isoformat() if p.date else "")
            for g, p in zip(rated_games(results, workbook="", kind=kind), rated, strict=True)]


@last_answer  # the Standings tab, the site, standings.json and the VK post all ask for it
def workbook_rating(results: Results) -> WorkbookRating | None:
    """The rating of the workbook's games under the preset's ``[rating]``; None without one."""
    rule = results.preset.rating
    if rule is None or rule.resolved is None:
        return None
    scheme = rule.resolved
    starts = _starts(results)
    ratings = replay(_games(results, rule.kind), scheme, starts)
    last_day = ratings.history[-1].game.event if ratings.history else ""
    on_last = ratings.event_changes(last_day) if ratings.history else {}
    totals = ratings.event_changes(None)
    names = [p.nickname for p in results.tournament.players if p.ranked]
    known = set(names)
    names += [n for n in ratings.players if n not in known]
    lines = {}
    for name in names:
        played = ratings.players.get(name)
        start = starts.get(name)
        before = scheme.start_overall if start is None or start.overall is None else scheme.internal(start.overall)
        lines[name] = RatingLine(
            player=name, before=before, overall=played.overall if played else before,
            red=played.red if played else _side(scheme, start, "red"),
            black=played.black if played else _side(scheme, start, "black"),
            games=played.games if played else 0, change=totals.get(name, 0.0), last_evening=on_last.get(name))
    evenings = _after_each_evening(ratings.history, {n: line.before for n, line in lines.items()})
    return WorkbookRating(scheme=scheme, lines=lines, last_evening=last_day, ratings=ratings, evenings=evenings,
                          days=tuple(day for day, _ in evenings))


def _side(scheme: RatingScheme, start: StartRating | None, side: str) -> float:
    typed = None if start is None else getattr(start, side)
    return getattr(scheme, f"start_{side}") if typed is None else scheme.internal(typed)


def starts_on_players_tab(tabs: Mapping[str, Grid], nicknames: Mapping[str, str]) -> tuple[tuple[TypedStart, ...],
                                                                                          list[Problem]]:
    """The ratings typed on the Players tab for the players of ``nicknames`` (a name as typed ->
    the player's nickname), and a problem at each cell that is not a number (that value is left
    out: the player starts from the scheme's value there)."""
    title = find_tab(tabs, "players")
    if title is None:
        return (), []
    grid = tabs[title]
    header = _find_header_row(grid, START_COLUMNS, ("player",))
    if header is None or len(header[1]) == 1:
        return (), []
    row, cols = header
    starts: list[TypedStart] = []
    problems: list[Problem] = []
    for r in range(row + 1, len(grid)):
        player = nicknames.get(typed_name(_cell(grid, r, cols["player"])))
        if not player:
            continue
        values: list[Decimal | None] = []
        for key in ("overall", "red", "black"):
            raw = _cell(grid, r, cols[key]) if key in cols else None
            value, rule = (None, None) if is_blank(raw) else read_decimal(raw)
            if rule is not None or (value is None and not is_blank(raw)):
                problems.append(problem("read.number", Severity.ERROR, Location(title, a1(r, cols[key])), value=shown(raw)))
                value = None
            values.append(value)
        if any(v is not None for v in values):
            starts.append((player, values[0], values[1], values[2]))
    return tuple(starts), problems
