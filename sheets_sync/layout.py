"""Where things sit in the tabs people type into, in Russian or English.

Builds the grids of the Tournament, Players, Seating, Penalties and protocol tabs (for
``init``, ``draw`` and the example tournament).  The reader in :mod:`scoring.parse`
finds everything by label, so these positions are a convention, not a contract.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from scoring import labels as L
from scoring.model import Player, PlayerStatus, Protocol, Removal, SeatingEntry
from scoring.preset import Preset
from sheets_sync.backends.base import TabWrite, Validation

__all__ = ["tournament_tab", "players_tab", "seating_tab", "penalties_tab", "protocol_tab", "protocol_title",
           "PROTOCOL_TABLE_ROW"]

PROTOCOL_TABLE_ROW = 8  # 0-based row of the seat table's header


def _lbl(spellings: tuple[str, ...], language: str) -> str:
    return L.label(spellings, language)


def tournament_tab(*, name: str, preset_id: str, language: str, chief_judge: str = "", date: str = "") -> TabWrite:
    T = L.TOURNAMENT_LABELS
    rows = (
        (_lbl(T["name"], language), name),
        (_lbl(T["preset"], language), preset_id),
        (_lbl(T["language"], language), language),
        (_lbl(T["chief_judge"], language), chief_judge),
        (_lbl(T["date"], language), date),
        (_lbl(T["confirmed"], language), None),
        (_lbl(T["released"], language), None),
    )
    return TabWrite(title=L.tab("tournament", language), rows=rows, owned=False, column_widths=(24, 40), bold_rows=())


def players_tab(players: Sequence[Player], language: str) -> TabWrite:
    C = L.PLAYER_COLUMNS
    header = tuple(_lbl(C[k], language) for k in ("player", "club", "city", "status", "excused"))
    rows = [header]
    for p in players:
        status = "" if p.status is PlayerStatus.PLAYING else L.word(p.status.value, language)
        excused = ", ".join(str(r) for r in sorted(p.excused_rounds)) or None
        rows.append((p.nickname, p.club or None, p.city or None, status or None, excused))
    statuses = tuple(L.word(k, language) for k in ("withdrawn", "disqualified", "reserve"))
    n = max(len(players) + 50, 100)
    return TabWrite(title=L.tab("players", language), rows=tuple(rows), owned=False, column_widths=(22, 18, 16, 18, 14),
                    frozen_rows=1, bold_rows=(0,), validations=(Validation(cells=f"D2:D{n}", values=statuses),))


def seating_tab(entries: Sequence[SeatingEntry], preset: Preset, language: str) -> TabWrite:
    C = L.SEATING_COLUMNS
    header = (_lbl(C["stage"], language), _lbl(C["round"], language), _lbl(C["table"], language), *range(1, 11))
    rows = [header]
    for e in entries:
        rows.append((preset.stage(e.stage).name(language), e.round, e.table, *e.players))
    return TabWrite(title=L.tab("seating", language), rows=tuple(rows), owned=False,
                    column_widths=(12, 6, 6, *([16] * 10)), frozen_rows=1, frozen_cols=3, bold_rows=(0,))


def penalties_tab(language: str) -> TabWrite:
    C = L.PENALTY_COLUMNS
    header = tuple(_lbl(C[k], language) for k in ("player", "stage", "round", "reason", "minutes", "points"))
    reasons = tuple(L.word(k, language) for k in ("missed_round", "late", "other"))
    return TabWrite(title=L.tab("penalties", language), rows=(header,), owned=False,
                    column_widths=(22, 12, 6, 14, 14, 8), frozen_rows=1, bold_rows=(0,),
                    validations=(Validation(cells="D2:D500", values=reasons),))


def protocol_title(preset: Preset, stage: str, round_no: int, table: int, language: str) -> str:
    index = preset.stage_keys.index(stage)
    stage_rule = preset.stage(stage)
    tables = max(1, stage_rule.players // 10) if index > 0 else 2
    return L.protocol_tab_title(index, round_no, table, tables_in_stage=tables, language=language)


def _number(value: Decimal) -> int | float | Decimal:
    return int(value) if value == value.to_integral_value() else value


def protocol_tab(*, title: str, stage_name: str, round_no: int, table: int, players: Sequence[str | None],
                 language: str, preset: Preset, protocol: Protocol | None = None) -> TabWrite:
    """A protocol tab laid out like the FIIM paper protocol, pre-filled or (``protocol``) complete."""
    H, C = L.PROTOCOL_HEADER, L.PROTOCOL_COLUMNS
    columns = ["seat", "player", "role", "fouls", "killed_night", "voted_day", "removal", "best_move", "extra_points"]
    if preset.auto_extra:
        columns.append("auto_extra_taken")
    columns.append("comment")
    winner = None
    judge = None
    if protocol is not None:
        judge = protocol.judge or None
        if protocol.winner is not None:
            winner = L.word(protocol.winner.value, language)
    rows: list[tuple] = [
        (_lbl(L.PROTOCOL_TITLE, language),),
        (_lbl(H["stage"], language), stage_name),
        (_lbl(H["round"], language), round_no),
        (_lbl(H["table"], language), table),
        (_lbl(H["judge"], language), judge),
        (_lbl(H["winner"], language), winner),
        (_lbl(H["checked_by"], language), None),
        (),
        tuple(_lbl(C[c], language) for c in columns),
    ]
    for seat in range(1, 11):
        rec = protocol.seats[seat - 1] if protocol is not None else None
        values: dict[str, object] = {"seat": seat, "player": players[seat - 1] if seat - 1 < len(players) else None}
        if rec is not None:
            values["player"] = rec.player
            values["role"] = L.word(rec.role.value, language) if rec.role else None
            values["fouls"] = rec.fouls or None
            values["killed_night"] = rec.killed_night
            values["voted_day"] = rec.voted_day
            if rec.removal is Removal.REMOVED:
                values["removal"] = L.word("yes", language) + (f" {rec.removal_day}" if rec.removal_day else "")
            elif rec.removal is Removal.TEAM_DEFEAT:
                values["removal"] = L.word("team_defeat", language) + (f" {rec.removal_day}" if rec.removal_day else "")
            values["best_move"] = " ".join(str(s) for s in rec.best_move) or None
            values["extra_points"] = _number(rec.extra_points) if rec.extra_points else None
            values["comment"] = rec.comment or None
        rows.append(tuple(values.get(c) for c in columns))
    first, last = PROTOCOL_TABLE_ROW + 2, PROTOCOL_TABLE_ROW + 11
    role_col = "ABCDEFGHIJKL"[columns.index("role")]
    removal_col = "ABCDEFGHIJKL"[columns.index("removal")]
    roles = tuple(L.word(k, language) for k in ("civilian", "sheriff", "mafia", "don"))
    winners = (L.word("red", language), L.word("black", language))
    removals = (L.word("yes", language), L.word("team_defeat", language))
    widths = {"seat": 4, "player": 22, "role": 10, "fouls": 6, "killed_night": 10, "voted_day": 12, "removal": 9,
              "best_move": 9, "extra_points": 10, "auto_extra_taken": 9, "comment": 28}
    return TabWrite(
        title=title,
        rows=tuple(rows),
        owned=False,
        column_widths=tuple(widths[c] for c in columns),
        frozen_rows=PROTOCOL_TABLE_ROW + 1,
        bold_rows=(0, PROTOCOL_TABLE_ROW),
        validations=(
            Validation(cells=f"{role_col}{first}:{role_col}{last}", values=roles),
            Validation(cells="B6", values=winners),
            Validation(cells=f"{removal_col}{first}:{removal_col}{last}", values=removals),
        ),
    )
