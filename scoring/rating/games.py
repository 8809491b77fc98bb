"""Replaying rated games in the order they were played: every player's overall, red and black
rating after them, and what each game changed.

:func:`replay` sorts the games itself — by end time (or any order key), then by id, as
mafiaratings orders them — so the order of its input never matters.  The elo-sides formula is
exactly the one of the reference (``scoring.rating.scheme``), in float:

    p_red = 1 / (1 + base ** ((mean black side rating of the blacks − mean red side rating
                               of the reds) / scale))
    red win:   each red + K_win·(1 − p_red),  each black − K_loss·(1 − p_red)
    black win: each black + K_win·p_red,      each red − K_loss·p_red

and the same amount moves the player's overall rating and the rating of the side he played.
The means are sums in the order of the game's seats divided by the count (the reference adds in
the order of its rows: list seats by the players' mafiaratings ids to match it bit for bit).  Nothing is rounded here: :meth:`RatingScheme.shown` rounds for display.

The inner loops work on dicts of floats (no object per step), the passes over every game at C
level; 100,000 games replay in under half a second of CPU (docs/benchmarks.md, bench/rating.py).  Input mistakes (a player seated twice, a side with nobody, an
unknown game kind) raise :class:`RatingInputError` naming the game.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import chain
from operator import attrgetter
from typing import Any, NamedTuple

from scoring.collation import name_key
from scoring.errors import SheetsSyncError
from scoring.ranking import Placed, place
from scoring.rating.scheme import ELO_SIDES, RatingScheme

__all__ = ["RED", "BLACK", "RatingInputError", "Seat", "RatedGame", "StartRating", "PlayerRating",
           "GameChange", "Ratings", "replay"]

RED, BLACK = "red", "black"
SIDES = (RED, BLACK)


class RatingInputError(SheetsSyncError, ValueError):
    """A game that cannot be rated as given; the message names the game."""


@dataclass(frozen=True, slots=True)
class Seat:
    player: str
    side: str  # RED or BLACK


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One game to rate: ``order`` is its end time (a datetime, a number, any key the games
    share); games with the same order are taken by ``id`` (ints for numeric ids)."""

    id: Any
    order: Any
    kind: str  # a game kind of the scheme: "club", "tournament", "elite"
    seats: tuple[Seat, ...]
    winner: str  # RED or BLACK
    event: str = ""  # the evening or tournament the game belongs to ("" = none)
    reds: tuple[str, ...] = field(init=False, repr=False, compare=False)
    blacks: tuple[str, ...] = field(init=False, repr=False, compare=False)
    winners: tuple[str, ...] = field(init=False, repr=False, compare=False)  # reds or blacks

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", tuple(self.seats))
        where = f"game {self.id!r}"
        if self.winner not in SIDES:
            raise RatingInputError(f"{where}: the winner must be red or black, not {self.winner!r}")
        players = [s.player for s in self.seats]
        twice = sorted({p for p in players if players.count(p) > 1}, key=name_key)
        if twice:
            raise RatingInputError(f"{where}: {', '.join(twice)} seated more than once")
        for seat in self.seats:
            if seat.side not in SIDES:
                raise RatingInputError(f"{where}: {seat.player} plays {seat.side!r}, not red or black")
        object.__setattr__(self, "reds", tuple(s.player for s in self.seats if s.side == RED))
        object.__setattr__(self, "blacks", tuple(s.player for s in self.seats if s.side == BLACK))
        if not self.reds or not self.blacks:
            raise RatingInputError(f"{where}: a rated game needs both a red and a black team")
        object.__setattr__(self, "winners", self.reds if self.winner == RED else self.blacks)


@dataclass(frozen=True, slots=True)
class StartRating:
    """A rating a club already has, typed in once, as shown (1023.4, not 23.4); None = the
    scheme's start."""

    overall: Decimal | int | float | None = None
    red: Decimal | int | float | None = None
    black: Decimal | int | float | None = None


@dataclass(frozen=True, slots=True)
class PlayerRating:
    player: str
    overall: float  # internal units: RatingScheme.shown adds the display offset
    red: float
    black: float
    games: int
    red_games: int
    black_games: int
    wins: int


class GameChange(NamedTuple):
    """What one game changed (a named tuple: one is made per game in the hot loop).

    Elo-sides: every red got ``red`` and every black ``black``; ``p_red`` and the K used are
    kept for checking.  Stepped: ``seat_changes`` holds each seat's change, in seat order."""

    game: RatedGame
    p_red: float | None
    k_win: float | None
    k_loss: float | None
    red: float | None
    black: float | None
    seat_changes: tuple[float, ...] = ()

    @property
    def changes(self) -> tuple[float, ...]:
        """Each seat's change, in the game's seat order."""
        if self.seat_changes:
            return self.seat_changes
        return tuple(self.red if s.side == RED else self.black for s in self.game.seats)  # type: ignore[misc]

    def change(self, player: str) -> float:
        for seat, change in zip(self.game.seats, self.changes):
            if seat.player == player:
                return change
        raise KeyError(player)


@dataclass(frozen=True, slots=True)
class Ratings:
    scheme: RatingScheme
    players: Mapping[str, PlayerRating]
    history: tuple[GameChange, ...]  # in the played order

    def changes_of(self, player: str) -> list[tuple[GameChange, float]]:
        """Each game of ``player`` in the played order, with what it changed for him."""
        return [(g, g.change(player)) for g in self.history if player in g.game.reds or player in g.game.blacks]

    def last_change(self, player: str) -> float | None:
        """What ``player``'s last game changed (None: he has not played)."""
        for g in reversed(self.history):
            if player in g.game.reds or player in g.game.blacks:
                return g.change(player)
        return None

    def last_changes(self) -> dict[str, float]:
        """Every player's change in his last game, in one pass."""
        last: dict[str, float] = {}
        for g in self.history:
            last.update(zip((s.player for s in g.game.seats), g.changes))
        return last

    def event_changes(self, event: str | None) -> dict[str, float]:
        """What the games of ``event`` (an evening, a tournament; None: every game) changed for
        each of its players, added in the played order."""
        totals: dict[str, float] = {}
        for g in self.history:
            if event is None or g.game.event == event:
                for seat, change in zip(g.game.seats, g.changes):
                    totals[seat.player] = totals.get(seat.player, 0.0) + change
        return totals

    def event_change(self, player: str, event: str) -> float:
        return self.event_changes(event).get(player, 0.0)

    def listed(self) -> list[Placed[PlayerRating]]:
        """Players with at least the scheme's minimum of games, best overall rating first;
        equal ratings share a place, listed by name."""
        eligible = [p for p in self.players.values() if p.games >= self.scheme.min_games]
        return place(eligible, key=lambda p: p.overall, listing=lambda p: name_key(p.player))

    def unlisted(self) -> list[tuple[PlayerRating, int]]:
        """Players below the minimum, by name, with the games each still needs."""
        below = [p for p in self.players.values() if p.games < self.scheme.min_games]
        return [(p, self.scheme.min_games - p.games) for p in sorted(below, key=lambda p: name_key(p.player))]


# C-level getters: the passes over every game below run without a Python call per game
_ORDER, _ID, _KIND = attrgetter("order"), attrgetter("id"), attrgetter("kind")
_REDS, _BLACKS, _WINNERS = attrgetter("reds"), attrgetter("blacks"), attrgetter("winners")


def played_order(games: Iterable[RatedGame]) -> list[RatedGame]:
    """The games in the order they were played: end time (order key), then id."""
    ordered = sorted(games, key=_ID)
    ordered.sort(key=_ORDER)  # stable: games that ended together stay in id order (no key tuples to build)
    if len(set(map(_ID, ordered))) != len(ordered):
        seen: set[Any] = set()
        for game in ordered:
            if game.id in seen:
                raise RatingInputError(f"game {game.id!r} is listed twice")
            seen.add(game.id)
    return ordered


def replay(games: Iterable[RatedGame], scheme: RatingScheme,
           start: Mapping[str, StartRating] | None = None) -> Ratings:
    """Every player's ratings after ``games`` (any order), from the scheme's start values or the
    ones typed in (``start``: player -> his ratings as shown)."""
    ordered = played_order(games)
    if scheme.kind == ELO_SIDES and not set(map(_KIND, ordered)) <= set(scheme.k):
        g = next(g for g in ordered if g.kind not in scheme.k)
        raise RatingInputError(f"game {g.id!r}: the scheme {scheme.id} has no game kind {g.kind!r} "
                               f"(one of: {', '.join(scheme.game_kinds)})")
    overall, red, black = _starts(ordered, scheme, start or {})
    if scheme.kind == ELO_SIDES:
        history = _replay_elo(ordered, scheme, overall, red, black)
    else:
        history = _replay_stepped(ordered, scheme, overall, red, black)
    return Ratings(scheme, _players(ordered, overall, red, black), tuple(history))


def _starts(ordered: list[RatedGame], scheme: RatingScheme,
            start: Mapping[str, StartRating]) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
    players = set(chain.from_iterable(map(_REDS, ordered)))
    players.update(chain.from_iterable(map(_BLACKS, ordered)), start)
    overall = dict.fromkeys(players, scheme.start_overall)
    red = dict.fromkeys(players, scheme.start_red)
    black = dict.fromkeys(players, scheme.start_black)
    for player, typed in start.items():
        for ratings, value in ((overall, typed.overall), (red, typed.red), (black, typed.black)):
            if value is not None:
                ratings[player] = scheme.internal(value)
    return overall, red, black


def _replay_elo(ordered: list[RatedGame], scheme: RatingScheme, overall: dict[str, float],
                red: dict[str, float], black: dict[str, float]) -> list[GameChange]:
    base, scale, full, factor = scheme.base, scheme.scale, scheme.full_field, scheme.small_field_factor
    k_full = {kind: (k.win, k.loss) for kind, k in scheme.k.items()}
    k_by_field = ({kind: (w * factor, l * factor) for kind, (w, l) in k_full.items()}, k_full)  # [full table?]
    history: list[GameChange] = []
    append, new = history.append, tuple.__new__  # a GameChange made as the tuple it is: no Python call
    for game in ordered:
        reds, blacks = game.reds, game.blacks
        red_sum = 0.0
        for p in reds:
            red_sum += red[p]
        black_sum = 0.0
        for p in blacks:
            black_sum += black[p]
        p_red = 1.0 / (1.0 + base ** ((black_sum / len(blacks) - red_sum / len(reds)) / scale))
        k_win, k_loss = k_by_field[len(game.seats) >= full][game.kind]
        if game.winner == RED:
            to_red, to_black = k_win * (1.0 - p_red), -(k_loss * (1.0 - p_red))
        else:
            to_red, to_black = -(k_loss * p_red), k_win * p_red
        for p in reds:
            red[p] += to_red
            overall[p] += to_red
        for p in blacks:
            black[p] += to_black
            overall[p] += to_black
        append(new(GameChange, (game, p_red, k_win, k_loss, to_red, to_black, ())))
    return history


def _replay_stepped(ordered: list[RatedGame], scheme: RatingScheme, overall: dict[str, float],
                    red: dict[str, float], black: dict[str, float]) -> list[GameChange]:
    lows = [band.low for band in scheme.bands[1:]]
    steps = [(band.win, band.loss) for band in scheme.bands]
    history: list[GameChange] = []
    for game in ordered:
        changes = []
        for seat in game.seats:
            # the band of the rating before this game (each player sits once in a game)
            win, loss = steps[bisect_right(lows, overall[seat.player])]
            change = win if seat.side == game.winner else loss
            overall[seat.player] += change
            (red if seat.side == RED else black)[seat.player] += change
            changes.append(change)
        history.append(GameChange(game, None, None, None, None, None, tuple(changes)))
    return history


def _players(ordered: list[RatedGame], overall: dict[str, float], red: dict[str, float],
             black: dict[str, float]) -> dict[str, PlayerRating]:
    red_games = Counter(chain.from_iterable(map(_REDS, ordered)))
    black_games = Counter(chain.from_iterable(map(_BLACKS, ordered)))
    wins = Counter(chain.from_iterable(map(_WINNERS, ordered)))
    return {p: PlayerRating(p, overall[p], red[p], black[p], red_games[p] + black_games[p],
                            red_games[p], black_games[p], wins[p])
            for p in sorted(overall, key=name_key)}
