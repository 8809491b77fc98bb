"""Points for one game: a breakdown per player (win, extra, best move, removal, …) × coefficient.

Pure arithmetic on a protocol that the rules let count.  Each item is kept apart so that
the standings, the site and the player pages can explain every hundredth of a point.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal

from scoring.model import Protocol, Removal, Role, SeatRecord, Team
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
    items: Mapping[str, Decimal] = field(default_factory=dict)  # before the coefficient
    coefficient: Decimal = Decimal(1)
    substitute: bool = False  # a reserve player's seat: earns nobody points

    @property
    def raw(self) -> Decimal:
        return sum(self.items.values(), ZERO)

    @property
    def total(self) -> Decimal:
        return self.raw * self.coefficient

    def item(self, key: str) -> Decimal:
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
