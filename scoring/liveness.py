"""Who can still qualify: each player *through*, *out* or *open* for the cut into the next stage.

While a stage is played, the cut into the next one (qualifying → semifinal, semifinal →
final, :class:`scoring.standings.Cut`) is decided by the games still to come.  For every
player of the stage table this module bounds the exact total he can end the stage with:

* what he has now, minus his Ci (Ci is retroactive: it moves with B and N);
* for every remaining game (from the seating; a round of the stage without any seating
  yet counts as one possible game for everybody), the least and the most one game can give
  under the preset, times the stage coefficient.  These per-game bounds are not constants:
  :func:`game_bounds` evaluates every item of :data:`scoring.items.ITEMS` on every state a
  seat can be in (each role, won or lost, removed or not, the judge's extra points at both
  ends of the preset's range, automatic extra points kept or taken, a best move naming
  0–3 blacks) and takes the extremes of the sums, so a new item or a changed preset value
  moves the bounds by itself.  A missed round (the preset's penalty, or 0 when excused)
  and the worst lateness tier widen the lower bound;
* Ci: the past compensated games keep at least the value the player's B gives over N plus
  every remaining game, and carry at most the cap; every remaining game may add the cap.

A player is *through* when fewer than ``size`` other players able to go on can reach his
lower bound (a tie counts as reaching it), *out* when at least ``size`` of them are
surely above his upper bound (strictly), and *open* otherwise: ties at the line stay open
(the tiebreaks of future games are not predicted).  Players who cannot go on (withdrawn,
disqualified) are *out*.  The bounds are sound, not tight: the team structure of a table
(three or seven winners) is not used, so a player may be *open* longer than necessary,
but never *through* or *out* wrongly.  Penalties a judge types for other reasons than a
missed round or lateness are not bounded (they are the judge's discretion).
"""

from __future__ import annotations

import enum
import itertools
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from scoring import ci as ci_mod
from scoring.items import ITEMS, Seat
from scoring.memo import last_answer
from scoring.model import PlayerStatus, Protocol, Removal, Role, SeatRecord, Team
from scoring.preset import Preset
from scoring.standings import Results, Standing

__all__ = ["State", "GameBounds", "Chance", "Liveness", "game_bounds", "decide", "liveness", "current_liveness"]

ZERO = Decimal(0)


class State(enum.Enum):
    THROUGH = "through"
    OUT = "out"
    OPEN = "open"


@dataclass(frozen=True, kw_only=True, slots=True)
class GameBounds:
    """The least and the most one game gives a player, before the stage coefficient, Ci apart."""

    low: Decimal
    high: Decimal


@dataclass(frozen=True, kw_only=True, slots=True)
class Chance:
    """One player's bounds on his stage total at the end of the stage, and what they decide."""

    player: str
    state: State
    now: Fraction  # exact total now
    low: Fraction
    high: Fraction
    remaining: int  # games he may still play in the stage


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
    """Every state of seat 1 that changes an item's points: the other seats only make up a
    table of three blacks that a best move can name."""
    extras = sorted({preset.extra_min, preset.extra_max})
    states = []
    for role, won, removal, extra, taken, blacks_named in itertools.product(
            Role, (True, False), (None, Removal.REMOVED, Removal.TEAM_DEFEAT), extras, (False, True), range(4)):
        black_seats = [2, 3] if role.team is Team.BLACK else [2, 3, 4]
        roles = {1: role, **{s: (Role.DON if i == 0 else Role.MAFIA) for i, s in enumerate(black_seats)}}
        reds = [s for s in range(2, 11) if s not in black_seats]
        named = tuple(sorted(black_seats[:blacks_named] + reds[: 3 - blacks_named])) if blacks_named <= len(black_seats) else ()
        for night, day in ((1, None), (None, 1), (None, None)):
            record = SeatRecord(seat=1, player="p", role=role, killed_night=night, voted_day=day, removal=removal,
                                best_move=named, extra_points=extra, auto_extra_taken=taken)
            seats = tuple(record if s == 1 else SeatRecord(seat=s, player=f"q{s}", role=roles.get(s, Role.CIVILIAN))
                          for s in range(1, 11))
            protocol = Protocol(sheet="", stage=preset.stage_keys[0], round=1, table=1,
                                winner=role.team if won else ({Team.RED: Team.BLACK, Team.BLACK: Team.RED}[role.team]),
                                seats=seats)
            states.append(Seat(protocol, record, won, preset))
    return states


def game_bounds(preset: Preset) -> GameBounds:
    """The extremes over every seat state of the sum of the items that occur (Ci apart)."""
    totals = [sum((p for item in ITEMS if item.score is not None and (p := item.score(seat)) is not None), ZERO)
              for seat in _seat_states(preset)]
    return GameBounds(low=min(totals), high=max(totals))


# -- one player ------------------------------------------------------------------------------------
def _remaining(results: Results, stage: str) -> dict[str, int]:
    """Games each player may still play in ``stage``: seated games not counted yet, and one
    for every round of the stage that has no seating yet (anybody may sit there)."""
    t = results.tournament
    counted = {p.key for p in results.counted}
    seated_rounds = {e.round for e in t.seating if e.stage == stage}
    unseated = sum(1 for r in range(1, results.preset.stage(stage).games + 1) if r not in seated_rounds)
    left: dict[str, int] = {}
    for member in results.participants.get(stage, frozenset()):
        left[member] = unseated
    for e in t.seating:
        if e.stage == stage and (e.stage, e.round, e.table) not in counted:
            for nickname in e.players:
                if nickname:
                    left[nickname] = left.get(nickname, unseated) + 1
    return left


def _bounds(standing: Standing, remaining: int, stage: str, results: Results, game: GameBounds) -> tuple[Fraction, Fraction]:
    preset = results.preset
    rule = preset.ci
    s = standing.stats
    k = preset.stage(stage).coefficient
    late = [tier.points for tier in preset.late_tiers] if stage in preset.late_stages else []
    worst_late = min([ZERO, *late])
    # a game played, a round missed (its penalty) or excused (nothing): the worst and the best of them
    low_game = min(game.low * k + worst_late, preset.missed_round, ZERO)
    high_game = max(game.high * k, preset.missed_round, ZERO)
    base = s.exact_total - s.ci_exact
    low = base + Fraction(low_game) * remaining
    high = base + Fraction(high_game) * remaining
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
    left = _remaining(results, cut.after)
    bounds = {st.stats.player: _bounds(st, left.get(st.stats.player, 0), cut.after, results, game) for st in table}
    able = [st.stats.player for st in table if st.stats.status is PlayerStatus.PLAYING]
    # the places of players with nothing left to play: their tiebreaks are final too
    places = {st.stats.player: st.place for st in table if not left.get(st.stats.player, 0)}
    decided = decide({q: bounds[q] for q in able}, cut.size, places)
    chances = {st.stats.player: Chance(player=st.stats.player, state=decided.get(st.stats.player, State.OUT),
                                       now=st.stats.exact_total, low=bounds[st.stats.player][0],
                                       high=bounds[st.stats.player][1], remaining=left.get(st.stats.player, 0))
               for st in table}
    return Liveness(stage=stage, after=cut.after, size=cut.size, chances=chances, complete=cut.complete)


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


@last_answer  # the tabs, the site, the VK post and standings.json of one sync ask for the same
def current_liveness(results: Results) -> Liveness | None:
    """The cut the tournament is playing for now: out of the latest stage with a counted game
    (the first stage before any), while that stage is not the last; None otherwise."""
    keys = results.preset.stage_keys
    played = {p.stage for p in results.counted}
    latest = max((i for i, k in enumerate(keys) if k in played), default=0)
    return liveness(results, keys[latest + 1]) if latest + 1 < len(keys) else None


def states(chances: Sequence[Chance]) -> dict[str, int]:
    """How many players are in each state (for summaries)."""
    return {s.value: sum(1 for c in chances if c.state is s) for s in State}
