"""Ci: compensation for red players shot on the first night (FIIM editions from 2019 on).

For each game in which a red player was shot on the first shooting night and his team
lost, he receives

    Ci = clamp(k · B / round(k′ · N), 0, cap)

where B = times he was shot first as red and N = games he played, both counted within
the stage group the preset names (``ci.groups``; a stage in no group is a group of its
own), k = ``ci.coefficient`` (0.4), k′ = ``ci.games_coefficient`` (k unless the preset
says otherwise: the latest FIIM scheme mafiaratings encodes has k = cap = 0.5 with
round(0.4·N)) and cap = ``ci.cap`` (0.4).  Where his team won he receives
``ci.win_fraction`` of it (0 in FIIM: Ci is for lost games only).

Decisions (documented in docs/presets.md):

* ``round`` rounds half up (2.5 → 3), like the ordinary rounding FIIM systems use, not
  Python's banker's rounding.  With k = 0.4 no half ever occurs (0.4·N = k + ½ has no whole
  N); with k = 0.5 it does (N = 5 → round(2.5) = 3).
* ``round(k·N) = 0`` (N = 1 with k = 0.4) is read as 1: Ci = min(cap, k·B).  Early in a
  tournament the value then shrinks as N grows, like every other Ci value.
* Ci is exact: a :class:`fractions.Fraction` (0.4·1/3 = 2/15).  Sums are taken exactly and
  quantised once, half up to :data:`scoring.numbers.CI_QUANTUM`, only for display; ranking compares the
  exact totals, so equal exact values always compare equal.
* A stage of ``ci.short_stages`` (the final) with fewer games than ``ci.min_stage_games``
  earns no Ci: the federation's exception for a final of fewer than four games; a semifinal
  keeps Ci however short it is.
* B and N include every counted game of the group (also games of a short stage that earns
  no Ci); they are counted up to a horizon of stages, so that a stage table (and the cut
  below it) does not move when later stages are played.
* Ci is retroactive: every game carries the value of the current B and N.

B, N and the value of each player's stage group are kept as a
:class:`scoring.stats.CiAccount`: what the Standings tab and standings.json explain Ci with.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

from scoring.items import GameLine
from scoring.model import Team
from scoring.numbers import round_half_up
from scoring.preset import CiRule, Preset
from scoring.stats import CiAccount

__all__ = ["ci_value", "accounts", "with_ci", "ci_share"]


def denominator(n: int, coefficient: Decimal | Fraction) -> int:
    """round(k · N), at least 1."""
    return max(1, round_half_up(Fraction(coefficient) * n))


def ci_value(b: int, n: int, *, coefficient: Decimal | Fraction = Decimal("0.4"),
             cap: Decimal | Fraction = Decimal("0.4"), games_coefficient: Decimal | Fraction | None = None) -> Fraction:
    """Ci for B first-night shots as red in N games, exact: clamp(k·B/round(k′·N), 0, cap), where
    k′ (``ci.games_coefficient``) is k unless the preset says otherwise."""
    if b <= 0 or n <= 0:
        return Fraction(0)
    k = Fraction(coefficient)
    value = k * b / denominator(n, k if games_coefficient is None else games_coefficient)
    return min(max(value, Fraction(0)), Fraction(cap))


def ci_share(line: GameLine, rule: CiRule, stage_games: int) -> Fraction:
    """The share of the player's Ci this game carries: 1 where a red player shot first lost,
    ``ci.win_fraction`` where his team won, 0 where the game does not compensate (not red,
    not shot first, Ci off, a reserve's seat, or a short stage the exception names)."""
    if not (rule.enabled and not line.substitute and line.shot_first and line.role.team is Team.RED):
        return Fraction(0)
    if line.stage in rule.short_stages and stage_games < rule.min_stage_games:
        return Fraction(0)
    return Fraction(rule.win_fraction) if line.won else Fraction(1)


def accounts(lines: Iterable[GameLine], preset: Preset, *, stages: Collection[str] | None = None) -> dict[tuple[str, tuple[str, ...]], CiAccount]:
    """(player, group) → CiAccount, counting only the games of ``stages`` (all when None)."""
    rule = preset.ci
    b: dict[tuple[str, tuple[str, ...]], int] = defaultdict(int)
    n: dict[tuple[str, tuple[str, ...]], int] = defaultdict(int)
    comp: dict[tuple[str, tuple[str, ...]], int] = defaultdict(int)
    games_of = {s.key: s.games for s in preset.stages}
    for ln in lines:
        if ln.substitute or (stages is not None and ln.stage not in stages):
            continue
        key = (ln.player, rule.group_of(ln.stage))
        n[key] += 1
        if ln.shot_first and ln.role.team is Team.RED:
            b[key] += 1
        if ci_share(ln, rule, games_of.get(ln.stage, 0)):
            comp[key] += 1
    result = {}
    for key, games in n.items():
        result[key] = CiAccount(player=key[0], group=key[1], shot_first_red=b[key], games=games,
                                denominator=denominator(games, rule.games_coefficient),
                                value=ci_value(b[key], games, coefficient=rule.coefficient, cap=rule.cap,
                                               games_coefficient=rule.games_coefficient),
                                compensated=comp[key])
    return result


def with_ci(lines: Iterable[GameLine], preset: Preset, *, stages: Collection[str] | None = None) -> tuple[GameLine, ...]:
    """The lines of ``stages`` (all when None) with the Ci each game carries now set on it."""
    lines = tuple(ln for ln in lines if stages is None or ln.stage in stages)
    rule = preset.ci
    if not rule.enabled:
        return tuple(replace(ln, ci=Fraction(0)) if ln.ci else ln for ln in lines)
    table = accounts(lines, preset)
    games_of = {s.key: s.games for s in preset.stages}
    out = []
    for ln in lines:
        value = Fraction(0)
        share = ci_share(ln, rule, games_of.get(ln.stage, 0))
        if share:
            value = share * table[(ln.player, rule.group_of(ln.stage))].value
        factor = ln.coefficient if rule.apply_coefficient else Decimal(1)
        out.append(replace(ln, ci=value, ci_coefficient=factor))
    return tuple(out)
