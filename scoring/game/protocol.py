"""A game's events as its protocol: the :class:`~scoring.model.Protocol` the sheet reader would
make, and the texts a judge would type into the protocol tab's cells for it.

``protocol_cells`` says what goes where by the protocol tab's own words (column keys of
:data:`scoring.labels.PROTOCOL_COLUMNS`, the header's ``judge`` and ``winner``), in the
tournament's language: ``мирный``/``шериф``/``мафия``/``дон``, ``Мирные``/``Мафия``, ``да 3``,
``ППК 2``, ``2 5 8``, ``0,5``.  Every cell the game owns gets a value, ``""`` for an empty one,
so writing them all again after an undo clears what the undo took back.  ``cell_writes``
places them in a tab as read (:class:`Protocol.cells` and each seat's cells): a tab laid out
differently from ours, or with the optional columns missing, gets what it has room for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal

from scoring import labels as L
from scoring.game.events import Event
from scoring.game.replay import replay
from scoring.game.state import GameRules, GameState, SeatState
from scoring.model import Location, Protocol, Removal, SeatingEntry, SeatRecord

__all__ = ["protocol_of", "state_protocol", "protocol_cells", "cell_writes", "CellKey"]

CellKey = tuple[int | None, str]  # (seat, column key), or (None, header key)
_REMOVALS = {"removed": Removal.REMOVED, "team_defeat": Removal.TEAM_DEFEAT}


def protocol_of(events: Iterable[Event], seating: SeatingEntry, *, sheet: str = "",
                rules: GameRules = GameRules()) -> Protocol:
    """The protocol of the game ``events`` record, at the table ``seating`` places it
    (stage, round, table, and the players before any substitute)."""
    state = replay(events, players=tuple(seating.players), rules=rules)
    return state_protocol(state, seating, sheet=sheet)


def state_protocol(state: GameState, seating: SeatingEntry, *, sheet: str = "") -> Protocol:
    return Protocol(sheet=sheet, stage=seating.stage, round=seating.round, table=seating.table, judge=state.judge,
                    winner=state.winner if state.ended else None, seats=tuple(_record(s) for s in state.seats))


def _record(seat: SeatState) -> SeatRecord:
    out = seat.out
    how = out.how if out is not None else ""
    return SeatRecord(seat=seat.seat, player=seat.player, role=seat.role, fouls=seat.fouls,
                      killed_night=out.number if how == "shot" else None, voted_day=out.number if how == "voted" else None,
                      removal=_REMOVALS.get(how), removal_day=out.number if how in _REMOVALS else None,
                      best_move=seat.best_move, extra_points=seat.extra)


def _number(value: int | None) -> str:
    return "" if value is None else str(value)


def _decimal(value: Decimal, language: str) -> str:
    if not value:
        return ""
    text = format(value.normalize(), "f")
    return text.replace(".", ",") if language == "ru" else text


def _removal(record: SeatRecord, language: str) -> str:
    if record.removal is None:
        return ""
    word = L.word("team_defeat" if record.removal is Removal.TEAM_DEFEAT else "yes", language)
    return f"{word} {record.removal_day}" if record.removal_day is not None else word


def _seat_cells(record: SeatRecord, language: str) -> dict[str, str]:
    return {
        "player": record.player or "",
        "role": L.word(record.role.value, language) if record.role is not None else "",
        "fouls": str(record.fouls) if record.fouls else "",
        "killed_night": _number(record.killed_night),
        "voted_day": _number(record.voted_day),
        "removal": _removal(record, language),
        "best_move": " ".join(map(str, record.best_move)),
        "extra_points": _decimal(record.extra_points, language),
    }


def _paper_columns(state: GameState, seat: int) -> dict[str, str]:
    """The paper protocol's optional columns: the days the player was nominated, the nights the
    sheriff and the don checked him."""
    nominated = [d.number for d in state.days if any(s == seat for _, s in d.nominations)]
    return {"nominated": " ".join(map(str, nominated)),
            "sheriff_check": " ".join(str(n.number) for n in state.nights if n.sheriff_check == seat),
            "don_check": " ".join(str(n.number) for n in state.nights if n.don_check == seat)}


def protocol_cells(protocol: Protocol, language: str, state: GameState | None = None) -> dict[CellKey, str]:
    """The texts a judge types for ``protocol``: (None, header key) and (seat, column key) → text;
    with the game's ``state``, the optional columns too (nominations, checks)."""
    cells: dict[CellKey, str] = {(None, "judge"): protocol.judge,
                                 (None, "winner"): L.word(protocol.winner.value, language) if protocol.winner else ""}
    for record in protocol.seats:
        values = _seat_cells(record, language)
        if state is not None:
            values.update(_paper_columns(state, record.seat))
        cells.update({(record.seat, column): text for column, text in values.items()})
    return cells


def cell_writes(cells: Mapping[CellKey, str], tab: Protocol) -> dict[Location, str]:
    """Where each of ``cells`` goes in the protocol tab ``tab`` (as the reader found its header
    values and seat columns); cells the tab has no place for are left out."""
    out: dict[Location, str] = {}
    for (seat, key), text in cells.items():
        if seat is None:
            where = tab.cells.get(key)
        else:
            record = tab.seats[seat - 1] if seat <= len(tab.seats) else None
            where = record.cells.get(key) if record is not None and key in record.cells else None
        if where is not None:
            out[where] = text
    return out
