"""Player statistics: everything counted for one player up to a stage, and how it is built.

:class:`PlayerStats` is what the ranking, the tiebreak metrics (:mod:`scoring.metrics`),
the nominations and every output read about a player: totals per stage, wins per role,
extra points, penalties, Ci and the game lines behind them.  :func:`player_stats` builds
it from the player's game lines and applied penalties.

Ci is exact: ``exact_total`` is what rankings compare; ``total`` is the same value with
the player's Ci sum rounded once for display.  This module imports no preset (the preset
loader imports the metrics, which name these statistics).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from scoring.items import CI, GameLine
from scoring.model import PenaltyEntry, PenaltyReason, Player, PlayerStatus, Role
from scoring.numbers import quantize

__all__ = ["AppliedPenalty", "CiAccount", "PlayerStats", "player_stats"]

ZERO = Decimal(0)


@dataclass(frozen=True, kw_only=True, slots=True)
class AppliedPenalty:
    player: str
    stage: str
    round: int | None
    reason: PenaltyReason
    points: Decimal  # ≤ 0, never multiplied by a coefficient
    excused: bool = False  # an announced skip: no points, still a missed round
    derived: bool = False  # found by the sync (seated but absent), not typed on the Penalties tab
    entry: PenaltyEntry | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class CiAccount:
    """One player's Ci in one stage group: the numbers that explain it (see :mod:`scoring.ci`)."""

    player: str
    group: tuple[str, ...]  # stage keys
    shot_first_red: int  # B
    games: int  # N
    denominator: int  # round(k·N), at least 1
    value: Fraction  # Ci of one compensated lost game (before any stage coefficient; a won one: × ci.win_fraction)
    compensated: int = 0  # games of the group that carry Ci (shot first as red, team lost or a win share, stage counts)

    def formula(self, coefficient: Decimal) -> str:
        """"0.4·1/3 = 0.133" — the exact formula with the value rounded for display."""
        k = format(coefficient.normalize(), "f")
        return f"{k}·{self.shot_first_red}/{self.denominator} = {quantize(self.value)}"


@dataclass(frozen=True, kw_only=True, slots=True)
class PlayerStats:
    """Everything counted for one player up to a stage (or over the whole tournament)."""

    player: str
    club: str = ""
    city: str = ""
    status: PlayerStatus = PlayerStatus.PLAYING
    total: Decimal = ZERO
    stage_points: Mapping[str, Decimal] = field(default_factory=dict)  # game points × coefficient, per stage
    games: int = 0
    wins: int = 0
    wins_as: Mapping[str, int] = field(default_factory=dict)
    games_as: Mapping[str, int] = field(default_factory=dict)
    extra_points: Decimal = ZERO  # × coefficient
    recognised_best: int = 0
    best_move_points: Decimal = ZERO  # × coefficient
    penalties: Decimal = ZERO  # tournament penalties + removals (≤ 0)
    tournament_penalties: Decimal = ZERO
    shot_first: int = 0
    missed_rounds: int = 0
    eligible: bool = True
    qualifying_place: int | None = None
    lines: tuple[GameLine, ...] = ()
    applied_penalties: tuple[AppliedPenalty, ...] = ()
    ci: Decimal = ZERO  # the player's Ci sum (× coefficients as the preset says), rounded once for display
    ci_exact: Fraction = Fraction(0)
    ci_accounts: tuple[CiAccount, ...] = ()  # B, N, value per stage group: what explains ci
    exact: Fraction | None = None  # exact total (None: total is exact)

    @property
    def exact_total(self) -> Fraction:
        return self.exact if self.exact is not None else Fraction(self.total)

    def item_total(self, key: str) -> Decimal:
        """One point item summed over the player's games × coefficient (Ci: rounded once)."""
        if key == CI:
            return self.ci
        return sum((ln.item(key) for ln in self.lines), ZERO)


def player_stats(player: Player, lines: Sequence[GameLine], penalties: Sequence[AppliedPenalty],
                 stage_keys: Sequence[str], ci_accounts: Sequence[CiAccount] = (), *,
                 max_missed_rounds: int, disqualified_eligible: bool, qualifying_place: int | None = None) -> PlayerStats:
    """The statistics of ``player`` over ``lines`` and ``penalties``; reserve seats don't count.

    Eligibility for awards follows the preset's ``max_missed_rounds`` and
    ``disqualified_eligible``; a withdrawn player is never eligible."""
    own = [ln for ln in lines if not ln.substitute]
    stage_points, stage_ci = _points_by_stage(own, stage_keys)
    tournament_penalties = sum((p.points for p in penalties), ZERO)
    decimal_total = sum(stage_points.values(), ZERO) + tournament_penalties
    ci_exact = sum(stage_ci.values(), Fraction(0))
    ci_shown = quantize(ci_exact) if ci_exact else ZERO
    for stage, ci in stage_ci.items():
        stage_points[stage] += quantize(ci)  # each stage shows its own Ci rounded
    missed = sum(1 for p in penalties if p.reason is PenaltyReason.MISSED_ROUND)
    eligible = missed <= max_missed_rounds and player.status is not PlayerStatus.WITHDRAWN
    if player.status is PlayerStatus.DISQUALIFIED and not disqualified_eligible:
        eligible = False
    games = _Games(own)
    return PlayerStats(
        player=player.nickname, club=player.club, city=player.city, status=player.status,
        total=decimal_total + ci_shown,
        stage_points=stage_points,
        games=len(own),
        wins=games.wins,
        wins_as=games.wins_as,
        games_as=games.games_as,
        extra_points=games.extra_points,
        recognised_best=games.recognised_best,
        best_move_points=games.best_move_points,
        penalties=tournament_penalties + games.removals,
        tournament_penalties=tournament_penalties,
        shot_first=games.shot_first,
        missed_rounds=missed,
        eligible=eligible,
        qualifying_place=qualifying_place,
        lines=tuple(own),
        applied_penalties=tuple(penalties),
        ci=ci_shown,
        ci_exact=ci_exact,
        ci_accounts=tuple(ci_accounts),
        exact=Fraction(decimal_total) + ci_exact if ci_exact else None,
    )


_NO_GAMES = {r.value: 0 for r in Role}


class _Games:
    """The counts and sums over one player's own games, in one pass (the ranking builds a
    player's statistics many times over: once per stage table, overall and race round)."""

    def __init__(self, own: Iterable[GameLine]):
        self.wins = self.recognised_best = self.shot_first = 0
        self.wins_as, self.games_as = dict(_NO_GAMES), dict(_NO_GAMES)
        self.extra_points = self.best_move_points = self.removals = ZERO
        for ln in own:  # the sums in the order of the games, as sum() would add them
            role = ln.role.value
            self.games_as[role] += 1
            if ln.won:
                self.wins += 1
                self.wins_as[role] += 1
            if ln.recognised_best:
                self.recognised_best += 1
            if ln.shot_first:
                self.shot_first += 1
            # GameLine.item(key) spelled out (item × coefficient): the race runs this loop for
            # every player, game and round (360,000 item() calls at 1000 players)
            items, coefficient = ln.items, ln.coefficient
            self.extra_points += items.get("extra", ZERO) * coefficient
            self.best_move_points += items.get("best_move", ZERO) * coefficient
            self.removals += items.get("removal", ZERO) * coefficient + items.get("penalty", ZERO) * coefficient


def _points_by_stage(lines: Sequence[GameLine], stage_keys: Sequence[str]) -> tuple[dict[str, Decimal], dict[str, Fraction]]:
    """Per stage: the decimal game points × coefficient (every stage, 0 when unplayed) and the exact Ci."""
    points: dict[str, Decimal] = {k: ZERO for k in stage_keys}
    ci: dict[str, Fraction] = {}
    for ln in lines:
        points[ln.stage] = points.get(ln.stage, ZERO) + ln.raw * ln.coefficient
        if ln.ci:
            ci[ln.stage] = ci.get(ln.stage, Fraction(0)) + ln.ci_points
    return points, ci
