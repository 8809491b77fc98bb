"""Points for one game: a breakdown per player (win, extra, best move, removal, …) × coefficient.

Pure arithmetic on a protocol that the rules let count.  Each item is kept apart so that
the standings, the site and the player pages can explain every hundredth of a point.

Ci (:mod:`scoring.ci`) is the one item that is not a finite decimal (0.4·1/3): it is kept
apart from ``items`` as an exact :class:`~fractions.Fraction` (``GameLine.ci``), set after
all games are scored because it depends on the player's whole stage group.
``GameLine.item("ci")`` and ``GameLine.total`` show it rounded for display;
``GameLine.exact_total`` is the exact value that sums and rankings use.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from scoring.model import Protocol, Removal, Role, SeatRecord, Team
from scoring.numbers import quantize
from scoring.preset import Preset

__all__ = ["ITEMS", "GameLine", "score_protocol", "blacks_named"]

ZERO = Decimal(0)
# breakdown items in display order
ITEMS = ("win", "extra", "auto_extra", "best_move", "removal", "ci")


@dataclass(frozen=True, kw_only=True, slots=True)
class GameLine:
    """What one player got from one game."""

    sheet: str
    stage: str
    round: int
    table: int
    seat: int
    player: str
    role: Role
    won: bool
    shot_first: bool
    recognised_best: bool  # judge's extra points > 0
    items: Mapping[str, Decimal] = field(default_factory=dict)  # before the coefficient; never "ci"
    coefficient: Decimal = Decimal(1)
    substitute: bool = False  # a reserve player's seat: earns nobody points
    ci: Fraction = Fraction(0)  # exact Ci this game carries now, before any coefficient
    ci_coefficient: Decimal = Decimal(1)  # what Ci is multiplied by (the stage coefficient, or 1)

    @property
    def raw(self) -> Decimal:
        """Decimal items before the coefficient (Ci excluded: it is not a finite decimal)."""
        return sum(self.items.values(), ZERO)

    @property
    def ci_points(self) -> Fraction:
        """Ci as it counts, exact (× the coefficient when the preset says so)."""
        return self.ci * Fraction(self.ci_coefficient) if self.ci else Fraction(0)

    @property
    def exact_total(self) -> Fraction:
        return Fraction(self.raw * self.coefficient) + self.ci_points

    @property
    def total(self) -> Decimal:
        """The game's points for display: exact unless Ci is involved, then Ci rounded half up."""
        base = self.raw * self.coefficient
        if not self.ci:
            return base
        return base + quantize(self.ci_points)

    def breakdown(self) -> dict[str, Decimal]:
        """Every item of this game × coefficient, Ci included (rounded for display), in ITEMS order."""
        keys = [k for k in ITEMS if k in self.items or (k == "ci" and self.ci)]
        keys += sorted(k for k in self.items if k not in ITEMS)
        return {k: self.item(k) for k in keys}

    def item(self, key: str) -> Decimal:
        if key == "ci":
            if not self.ci:
                return ZERO
            return quantize(self.ci_points)
        return self.items.get(key, ZERO) * self.coefficient


def blacks_named(protocol: Protocol, record: SeatRecord) -> int:
    roles = {s.seat: s.role for s in protocol.seats}
    return sum(1 for seat in set(record.best_move) if roles.get(seat) in (Role.MAFIA, Role.DON))


def best_move_points(protocol: Protocol, record: SeatRecord, preset: Preset) -> Decimal:
    """Only a red player shot on the first shooting night, naming three distinct other seats."""
    if record.killed_night != 1 or record.role is None or record.role.team is not Team.RED:
        return ZERO
    named = set(record.best_move)
    if len(record.best_move) != 3 or len(named) != 3 or record.seat in named or not named <= set(range(1, 11)):
        return ZERO
    return preset.best_move_points(blacks_named(protocol, record))


def score_protocol(protocol: Protocol, preset: Preset, *, reserves: frozenset[str] = frozenset()) -> tuple[GameLine, ...]:
    """Points of every player of a counted protocol (winner known, roles complete)."""
    coefficient = preset.stage(protocol.stage).coefficient
    lines: list[GameLine] = []
    for record in protocol.seats:
        if record.player is None or record.role is None:
            continue
        won = protocol.winner is not None and record.role.team is protocol.winner
        substitute = record.player in reserves
        items: dict[str, Decimal] = {}
        if not substitute:
            items["win"] = preset.win if won else ZERO
            items["extra"] = record.extra_points
            if preset.auto_extra and not record.auto_extra_taken:
                items["auto_extra"] = preset.auto_extra
            items["best_move"] = best_move_points(protocol, record, preset)
            if record.removal is Removal.REMOVED:
                items["removal"] = preset.removal
            elif record.removal is Removal.TEAM_DEFEAT:
                items["removal"] = preset.team_defeat
        lines.append(
            GameLine(
                sheet=protocol.sheet,
                stage=protocol.stage,
                round=protocol.round,
                table=protocol.table,
                seat=record.seat,
                player=record.player,
                role=record.role,
                won=won,
                shot_first=record.killed_night == 1,
                recognised_best=record.extra_points > 0 and not substitute,
                items=items,
                coefficient=coefficient,
                substitute=substitute,
            )
        )
    return tuple(lines)
