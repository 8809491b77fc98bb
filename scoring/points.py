"""Points for one game: each player's items (:mod:`scoring.items`) of a counted protocol.

Pure arithmetic on a protocol that the rules let count.  Each item is kept apart so that
the standings, the site and the player pages can explain every hundredth of a point; Ci is
set later by :mod:`scoring.ci`, once the player's whole stage group is known.
"""

from __future__ import annotations

from decimal import Decimal

from scoring.items import ITEMS, GameLine, Seat
from scoring.model import Protocol
from scoring.preset import Preset

__all__ = ["score_protocol"]


def score_protocol(protocol: Protocol, preset: Preset, *, reserves: frozenset[str] = frozenset()) -> tuple[GameLine, ...]:
    """Points of every player of a counted protocol (winner known, roles complete)."""
    coefficient = preset.stage(protocol.stage).coefficient
    lines: list[GameLine] = []
    for record in protocol.seats:
        if record.player is None or record.role is None:
            continue
        won = protocol.winner is not None and record.role.team is protocol.winner
        substitute = record.player in reserves
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
                items={} if substitute else _items(Seat(protocol, record, won, preset)),
                coefficient=coefficient,
                substitute=substitute,
            )
        )
    return tuple(lines)


def _items(seat: Seat) -> dict[str, Decimal]:
    """The decimal items of one seat that occur in its game (Ci comes later)."""
    scored = ((item.key, item.score(seat)) for item in ITEMS if item.score is not None)
    return {key: points for key, points in scored if points is not None}
