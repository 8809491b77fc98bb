"""Who can still qualify: each player *through*, *out* or *open* for the cut into the next stage.

While a stage is played, the cut into the next one (qualifying → semifinal, semifinal →
final, :class:`scoring.standings.Cut`) is decided by the games still to come.  For every
player of the stage table this module bounds the exact total he can end the stage with,
**from results only: penalties and absences are left out** (a removal, a missed round,
lateness, automatic extra points taken away, a judge's "other" penalty).  They are the
players' own doing or the judges' discretion; bounding them (−2 for a missed round in every
remaining game) would decide nobody before the last round.  The outputs say so next to the
marks.

* what he has now, minus his Ci (Ci is retroactive: it moves with B and N);
* for every remaining game (from the seating; a round of the stage without any seating
  yet counts as one possible game for everybody), the least and the most one game can give
  under the preset, times the stage coefficient.  These per-game figures are not constants:
  :func:`game_bounds` evaluates every item of :data:`scoring.items.ITEMS` on every state a
  seat can be in without a penalty (each role, won or lost, the judge's extra points at both
  ends of the preset's range, a best move naming 0–3 blacks) and takes the extremes: the
  least (a loss without extras), the most, and apart the most a win and a loss give without
  a best move and the most a best move adds;
* Ci: the past compensated games keep at least the value the player's B gives over N plus
  every remaining game, and carry at most the cap; every remaining game may add the cap.

A player is *through* when fewer than ``size`` other players able to go on can reach his
lower bound (a tie counts as reaching it), *out* when at least ``size`` of them are
surely above his upper bound (strictly), and *open* otherwise: ties at the line stay open
(the tiebreaks of future games are not predicted).  Players who cannot go on (withdrawn,
disqualified) are *out*.

The table structure then makes *through* speak earlier (:func:`_joint_through`): a seated
game has one best move and at most seven winners, so the players who need a best move (or a
win) in their remaining games to reach a total compete for a limited number of them.  Only
the seating of the remaining rounds is used for that; a round without seating bounds each
player alone.
"""

from __future__ import annotations

import enum
import itertools
import math
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from scoring import ci as ci_mod
from scoring.items import ITEM, ITEMS, Seat
from scoring.memo import last_answer
from scoring.model import PlayerStatus, Protocol, Role, SeatRecord, Team
from scoring.preset import Preset
from scoring.standings import Results, Standing

__all__ = ["State", "GameBounds", "Chance", "Liveness", "game_bounds", "decide", "liveness", "current_liveness", "ASK",
           "Ask", "given_or_current"]

ZERO = Decimal(0)
# the most winners one game has: the red team (six civilians and the sheriff; the blacks are three)
WINNERS_AT_MOST = 7


class State(enum.Enum):
    THROUGH = "through"
    OUT = "out"
    OPEN = "open"


@dataclass(frozen=True, kw_only=True, slots=True)
class GameBounds:
    """What one game gives a player without a penalty, before the stage coefficient, Ci apart:
    the least and the most; the most a win and a loss give without a best move, and the most a
    best move adds (one player of a game may get it)."""

    low: Decimal
    high: Decimal
    win: Decimal = ZERO
    loss: Decimal = ZERO
    best_move: Decimal = ZERO


@dataclass(frozen=True, kw_only=True, slots=True)
class Chance:
    """One player's bounds on his stage total at the end of the stage, what they decide, and
    while he is open the points to the cut line: with ``to_get_in`` more he may still be in (a
    tie goes to the tiebreaks), with more than ``to_be_sure`` he is in whatever the others do
    (None: decided, or no total he can reach makes him sure)."""

    player: str
    state: State
    now: Fraction  # exact total now
    low: Fraction
    high: Fraction
    remaining: int  # games he may still play in the stage
    to_get_in: Fraction | None = None
    to_be_sure: Fraction | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class Liveness:
    """The cut from ``after`` into ``stage`` of ``size`` players, and every player's chance."""

    stage: str
    after: str
    size: int
    chances: Mapping[str, Chance]  # in the order of the stage table
    complete: bool  # every game of ``after`` is counted

    def state(self, player: str) -> State | None:
        chance = self.chances.get(player)
        return chance.state if chance else None


# -- one game -------------------------------------------------------------------------------------
def _seat_states(preset: Preset) -> list[Seat]:
    """Every state of seat 1 without a penalty that changes an item's points: the other seats
    only make up a table of three blacks that a best move can name."""
    extras = sorted({preset.extra_min, preset.extra_max})
    states = []
    for role, won, extra, blacks_named in itertools.product(Role, (True, False), extras, range(4)):
        black_seats = [2, 3] if role.team is Team.BLACK else [2, 3, 4]
        roles = {1: role, **{s: (Role.DON if i == 0 else Role.MAFIA) for i, s in enumerate(black_seats)}}
        reds = [s for s in range(2, 11) if s not in black_seats]
        named = tuple(sorted(black_seats[:blacks_named] + reds[: 3 - blacks_named])) if blacks_named <= len(black_seats) else ()
        for night, day in ((1, None), (None, 1), (None, None)):
            record = SeatRecord(seat=1, player="p", role=role, killed_night=night, voted_day=day,
                                best_move=named, extra_points=extra)
            seats = tuple(record if s == 1 else SeatRecord(seat=s, player=f"q{s}", role=roles.get(s, Role.CIVILIAN))
                          for s in range(1, 11))
            protocol = Protocol(sheet="", stage=preset.stage_keys[0], round=1, table=1,
                                winner=role.team if won else ({Team.RED: Team.BLACK, Team.BLACK: Team.RED}[role.team]),
                                seats=seats)
            states.append(Seat(protocol, record, won, preset))
    return states


def _points(seat: Seat) -> tuple[Decimal, Decimal]:
    """The seat's points from every item (Ci apart), and the part of them its best move gives."""
    total = sum((p for item in ITEMS if item.score is not None and (p := item.score(seat)) is not None), ZERO)
    return total, ITEM["best_move"].score(seat) or ZERO


def game_bounds(preset: Preset) -> GameBounds:
    """The extremes over every seat state without a penalty of the sum of the items (Ci apart)."""
    scored = [(seat.won, *_points(seat)) for seat in _seat_states(preset)]
    return GameBounds(low=min(t for _, t, _ in scored), high=max(t for _, t, _ in scored),
                      win=max(t - b for won, t, b in scored if won), loss=max(t - b for won, t, b in scored if not won),
                      best_move=max(ZERO, *(b for _, _, b in scored)))


# -- one player ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Left:
    """What a player may still play in the stage: the seated games not counted yet (by key) and
    the rounds of the stage without any seating (anybody may sit there)."""

    seated: tuple[tuple[str, int, int], ...]
    unseated: int

    @property
    def games(self) -> int:
        return len(self.seated) + self.unseated


def _remaining(results: Results, stage: str) -> dict[str, _Left]:
    """Every player's :class:`_Left` in ``stage``."""
    t = results.tournament
    counted = {p.key for p in results.counted}
    seated_rounds = {e.round for e in t.seating if e.stage == stage}
    unseated = sum(1 for r in range(1, results.preset.stage(stage).games + 1) if r not in seated_rounds)
    games: dict[str, list[tuple[str, int, int]]] = {member: [] for member in results.participants.get(stage, frozenset())}
    for e in t.seating:
        key = (e.stage, e.round, e.table)
        if e.stage == stage and key not in counted:
            for nickname in e.players:
                if nickname:
                    games.setdefault(nickname, []).append(key)
    return {player: _Left(tuple(keys), unseated) for player, keys in games.items()}


def _bounds(standing: Standing, remaining: int, stage: str, results: Results, game: GameBounds) -> tuple[Fraction, Fraction]:
    preset = results.preset
    rule = preset.ci
    s = standing.stats
    k = preset.stage(stage).coefficient
    base = s.exact_total - s.ci_exact
    low, high = base, base
    if remaining:  # (nothing to add for a player whose games are all played: most of them, late in a stage)
        low += Fraction(game.low * k) * remaining
        high += Fraction(game.high * k) * remaining
    if rule.enabled:
        games_of = {st.key: st.games for st in preset.stages}
        group = rule.group_of(stage)
        accounts = {a.group: a for a in s.ci_accounts}
        cap = Fraction(rule.cap)
        for line in s.lines:
            share = ci_mod.ci_share(line, rule, games_of.get(line.stage, 0))
            if not share:
                continue
            if not remaining or rule.group_of(line.stage) != group:
                low += line.ci_points  # B and N of its group are final within this table
                high += line.ci_points
                continue
            factor = Fraction(line.ci_coefficient)
            account = accounts.get(group)
            floor = Fraction(0) if account is None else ci_mod.ci_value(
                account.shot_first_red, account.games + remaining, coefficient=rule.coefficient, cap=rule.cap,
                games_coefficient=rule.games_coefficient)
            low += share * floor * factor
            high += share * cap * factor
        future = cap * max(Fraction(1), Fraction(rule.win_fraction))
        high += future * (Fraction(k) if rule.apply_coefficient else 1) * remaining
    return low, high


# -- the table structure -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Reach:
    """A player's upper bound taken apart: ``base`` counts a loss with the most extra points in
    every seated remaining game (and the most in every unseated one); each win there adds up to
    ``win``, each best move up to ``best_move`` (at most one each a game)."""

    high: Fraction
    base: Fraction
    seated: int


def _reach(high: Fraction, left: _Left, game: GameBounds, k: Decimal) -> _Reach:
    seated = len(left.seated)
    if not seated:
        return _Reach(high=high, base=high, seated=0)
    return _Reach(high=high, base=high - Fraction(game.high * k) * seated + Fraction(game.loss * k) * seated,
                  seated=seated)


def _need(gap: Fraction, step: Fraction, other: Fraction, seated: int) -> int:
    """The fewest of one resource (``step`` points each) a player short of ``gap`` must have in
    his ``seated`` games when the other resource gives its most (``other`` each, in every game)."""
    short = gap - other * seated
    if short <= 0:
        return 0
    return math.ceil(short / step) if step > 0 else seated + 1


def _most_within(needs: list[int], capacity: int) -> int:
    """How many of the players can have what they need, taking the smallest needs first."""
    taken = used = 0
    for n in sorted(needs):
        used += n
        if used > capacity:
            break
        taken += 1
    return taken


def _can_reach(target: Fraction, reach: Mapping[str, _Reach], game: GameBounds, k: Decimal, tables: int) -> int:
    """At most how many of the players end the stage at ``target`` or above, when the remaining
    seated games (``tables``) have one best move and at most seven winners each.  Each player
    short of ``target`` after losses needs a number of wins (at least when every game of his
    gives a best move) and of best moves (at least when he wins every game); the smallest needs
    share the games' wins and best moves first, so the count is never below the truth."""
    win, best = Fraction((game.win - game.loss) * k), Fraction(game.best_move * k)
    free = 0
    wins: list[int] = []
    moves: list[int] = []
    for r in reach.values():
        if r.high < target:
            continue
        gap = target - r.base
        if gap <= 0:
            free += 1
            continue
        wins.append(_need(gap, win, best, r.seated))
        moves.append(_need(gap, best, max(win, Fraction(0)), r.seated))
    return free + min(_most_within(wins, WINNERS_AT_MOST * tables), _most_within(moves, tables))


def _joint_through(states: dict[str, State], bounds: Mapping[str, tuple[Fraction, Fraction]],
                   reach: Mapping[str, _Reach], size: int, game: GameBounds, k: Decimal, tables: int) -> None:
    """Turn *open* into *through* where the table structure allows: fewer than ``size`` others
    can reach his low together.  The count at a total only falls as the total rises, so the
    lowest low that is enough is found by bisection over the open players' lows."""
    lows = sorted({bounds[p][0] for p, s in states.items() if s is State.OPEN})
    # he reaches his own low, with nothing to spare: at most ``size`` counted with him
    first = bisect_left(range(len(lows)), True, key=lambda i: _can_reach(lows[i], reach, game, k, tables) <= size)
    if first == len(lows):
        return
    for player, state in states.items():
        if state is State.OPEN and bounds[player][0] >= lows[first]:
            states[player] = State.THROUGH


# -- the cut -----------------------------------------------------------------------------------------
def liveness(results: Results, stage: str) -> Liveness | None:
    """The chances of every player of the stage before ``stage`` to be in its cut; None when
    ``stage`` is the first stage, takes everybody (size 0) or nobody plays the stage before."""
    cut = results.cuts.get(stage)
    if cut is None or cut.size <= 0:
        return None
    table = results.stages.get(cut.after, ())
    if not table:
        return None
    game = game_bounds(results.preset)
    k = results.preset.stage(cut.after).coefficient
    left = _remaining(results, cut.after)
    nothing = _Left((), 0)
    bounds = {st.stats.player: _bounds(st, left.get(st.stats.player, nothing).games, cut.after, results, game)
              for st in table}
    able = [st.stats.player for st in table if st.stats.status is PlayerStatus.PLAYING]
    # the places of players with nothing left to play: their tiebreaks are final too
    places = {st.stats.player: st.place for st in table if not left.get(st.stats.player, nothing).games}
    decided = decide({q: bounds[q] for q in able}, cut.size, places)
    reach = {q: _reach(bounds[q][1], left.get(q, nothing), game, k) for q in able}
    tables = len({key for q in able for key in left.get(q, nothing).seated})
    _joint_through(decided, {q: bounds[q] for q in able}, reach, cut.size, game, k, tables)
    lines = _lines({q: bounds[q] for q in able}, cut.size)
    chances = {}
    for st in table:
        player, total = st.stats.player, st.stats.exact_total
        state = decided.get(player, State.OUT)
        get_in, sure = lines(player) if state is State.OPEN else (None, None)
        chances[player] = Chance(player=player, state=state, now=total, low=bounds[player][0], high=bounds[player][1],
                                 remaining=left.get(player, nothing).games,
                                 to_get_in=None if get_in is None else max(Fraction(0), get_in - total),
                                 # a line above his best: whether he goes through depends on the others
                                 to_be_sure=None if sure is None or sure >= bounds[player][1] else max(Fraction(0), sure - total))
    return Liveness(stage=stage, after=cut.after, size=cut.size, chances=chances, complete=cut.complete)


def _lines(bounds: Mapping[str, tuple[Fraction, Fraction]], size: int):
    """For a player: the ``size``-th best low of the others (with it he may still be in: fewer
    than ``size`` are surely above) and their ``size``-th best high (above it fewer than
    ``size`` can reach him); None where fewer than ``size`` others are left."""
    lows = sorted((lo for lo, _ in bounds.values()), reverse=True)
    highs = sorted((hi for _, hi in bounds.values()), reverse=True)

    def line(ordered: list[Fraction], own: Fraction | None) -> Fraction | None:
        # without him: his own value among the first ``size`` moves the line one down
        index = size if own is not None and len(ordered) >= size and own >= ordered[size - 1] else size - 1
        return ordered[index] if index < len(ordered) else None

    def of(player: str) -> tuple[Fraction | None, Fraction | None]:
        own = bounds.get(player)
        if own is None:
            return None, None
        return line(lows, own[0]), line(highs, own[1])

    return of


def decide(bounds: Mapping[str, tuple[Fraction, Fraction]], size: int,
           places: Mapping[str, int] | None = None) -> dict[str, State]:
    """Each player's state from everybody's (low, high) final totals, for a cut of ``size``:
    through when fewer than ``size`` others can reach his low, out when at least ``size``
    others are surely above his high.  An equal total reaches, unless both players have
    nothing left to play and their places (``places``: the tiebreaks, already final) differ.

    Counted with sorted bounds and binary search, not player against player: a 10,000-player
    qualifying is 10⁸ comparisons the other way (tests/test_liveness.py keeps the pairwise
    definition and compares)."""
    places = places or {}
    bounds = _on_one_denominator(bounds)
    highs = sorted(h for _, h in bounds.values())
    lows = sorted(lo for lo, _ in bounds.values())
    # for an equal total the tiebreaks matter: the final places of those with each high / low
    places_by_high: dict[Fraction, list[int]] = defaultdict(list)
    places_by_low: dict[Fraction, list[int]] = defaultdict(list)
    for player, (low, high) in bounds.items():
        if player in places:
            places_by_high[high].append(places[player])
            places_by_low[low].append(places[player])
    for group in (*places_by_high.values(), *places_by_low.values()):
        group.sort()

    states = {}
    for player, (low, high) in bounds.items():
        # others whose high is above his low, or equal to it unless final places put them below him
        reach = len(highs) - bisect_right(highs, low)
        equal_high = bisect_right(highs, low) - bisect_left(highs, low)
        below = places_by_high.get(low, [])
        if player in places:
            equal_high -= len(below) - bisect_right(below, places[player])
        reach += equal_high - (1 if high >= low else 0)  # he is one of the players counted
        # others whose low is above his high, or equal to it with final places above him
        above = len(lows) - bisect_right(lows, high) - (1 if low > high else 0)
        if player in places:
            above += bisect_left(places_by_low.get(high, []), places[player])
        states[player] = State.THROUGH if reach < size else State.OUT if above >= size else State.OPEN
    return states


def _on_one_denominator(bounds: Mapping[str, tuple[Fraction, Fraction]]) -> dict[str, tuple[int, int]]:
    """The bounds as whole numbers of one common fraction (their denominators' least common
    multiple): the same order and the same equalities, exactly, and integers compare in C where
    Fractions compare in Python (decide makes 50,000 comparisons at 1000 players)."""
    exact = {p: (Fraction(lo), Fraction(hi)) for p, (lo, hi) in bounds.items()}  # a Decimal too, exactly
    common = math.lcm(*{x.denominator for pair in exact.values() for x in pair})
    return {p: (lo.numerator * (common // lo.denominator), hi.numerator * (common // hi.denominator))
            for p, (lo, hi) in exact.items()}


@last_answer  # the tabs, the site, the VK post and standings.json of one sync ask for the same
def current_liveness(results: Results) -> Liveness | None:
    """The cut the tournament is playing for now: out of the latest stage with a counted game
    (the first stage before any), while that stage is not the last; None otherwise."""
    keys = results.preset.stage_keys
    played = {p.stage for p in results.counted}
    latest = max((i for i, k in enumerate(keys) if k in played), default=0)
    return liveness(results, keys[latest + 1]) if latest + 1 < len(keys) else None


class Ask(enum.Enum):
    """The type of :data:`ASK`."""

    ASK = "ask"


# what a renderer is given when nobody worked the liveness out for it (a test, a one-off call):
# it asks current_liveness itself.  A sync hands the one it computed (Outcome.live, PublicResults.live)
ASK = Ask.ASK


def given_or_current(live: Liveness | None | Ask, results: Results) -> Liveness | None:
    """``live`` as given, or :func:`current_liveness` of ``results`` when it is :data:`ASK`."""
    return current_liveness(results) if live is ASK else live


def states(chances: Sequence[Chance]) -> dict[str, int]:
    """How many players are in each state (for summaries)."""
    return {s.value: sum(1 for c in chances if c.state is s) for s in State}
