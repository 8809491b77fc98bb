"""The race over the rounds: the standings after every round, computed again from the protocols.

Nothing is stored between syncs: after round r of a stage the standings are those that
:func:`scoring.standings.compute` gives for the games counted up to that round (every earlier
stage, and rounds ≤ r of that stage), the seating of the stages reached so far and the
penalties of those rounds (only the overall standings of each round are ranked:
:func:`scoring.standings.overall_standings`).  The site draws the places of the leaders per round as a chart
and every player's places as a sparkline; standings.json carries the same history.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction

from scoring.collation import name_key
from scoring.memo import last_answer
from scoring.standings import Results, ScoreMemo, overall_standings

__all__ = ["RacePoint", "Race", "race", "rounds_played"]


@dataclass(frozen=True, kw_only=True, slots=True)
class RacePoint:
    """The overall standings after one round of one stage: place, shown places and total per player."""

    stage: str
    round: int
    places: Mapping[str, int] = field(default_factory=dict)
    shown: Mapping[str, str] = field(default_factory=dict)  # "5" or "5–6"
    totals: Mapping[str, Decimal] = field(default_factory=dict)
    # exact totals: the Fraction where Ci makes one, else the Decimal total, which is exact too (and
    # compares equal to the same Fraction) — 9,000 Fractions fewer for the collector at 1000 players
    exact: Mapping[str, Fraction | Decimal] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True, slots=True)
class Race:
    points: tuple[RacePoint, ...] = ()

    def places(self, player: str) -> tuple[int | None, ...]:
        """The player's place after every round (None: not ranked then)."""
        return tuple(p.places.get(player) for p in self.points)

    def leaders(self, count: int) -> tuple[str, ...]:
        """The ``count`` best after the last round, best first."""
        if not self.points:
            return ()
        last = self.points[-1].places
        return tuple(sorted(last, key=lambda p: (last[p], name_key(p)))[:count])


def rounds_played(results: Results) -> list[tuple[str, int]]:
    """(stage, round) of every round with a counted game, in the order they are played."""
    order = {k: i for i, k in enumerate(results.preset.stage_keys)}
    played = {(p.stage, p.round) for p in results.counted if p.stage in order}
    return sorted(played, key=lambda sr: (order[sr[0]], sr[1]))


@last_answer  # the site and standings.json both ask for the race of the same results in one sync
def race(results: Results) -> Race:
    """The standings after every played round; the last point is ``results.overall`` itself
    (so it also saves one computation)."""
    return _race(results)


def _race(results: Results) -> Race:
    t = results.tournament
    order = {k: i for i, k in enumerate(results.preset.stage_keys)}

    def upto(stage: str, rnd: int, s: str, r: int | None) -> bool:
        if s not in order:
            return False
        return order[s] < order[stage] or (s == stage and (r is None or r <= rnd))

    points = []
    scored: ScoreMemo = dict(results.scored)  # the same games, preset and players at every round: scored once, by compute
    rounds = rounds_played(results)
    for i, (stage, rnd) in enumerate(rounds):
        if i == len(rounds) - 1:
            standings = results.overall  # the last point is the standings now, whatever is seated already
        else:
            # the seating of later stages would rank their players first (finalists first): not yet known then
            reached = {k for k in order if order[k] <= order[stage]}
            then = replace(t, protocols=tuple(p for p in t.protocols if upto(stage, rnd, p.stage, p.round)),
                           seating=tuple(e for e in t.seating if e.stage in reached),
                           penalties=tuple(e for e in t.penalties if upto(stage, rnd, e.stage, e.round)))
            standings = overall_standings(then, results.preset, results.input_problems, hide=results.hidden,
                                          scored=scored)
        points.append(RacePoint(stage=stage, round=rnd,
                                places={s.stats.player: s.place for s in standings},
                                shown={s.stats.player: s.places for s in standings},
                                totals={s.stats.player: s.stats.total for s in standings},
                                exact={s.stats.player: s.stats.exact if s.stats.exact is not None else s.stats.total
                                       for s in standings}))
    return Race(points=tuple(points))
