"""Counted games in the game format of the Mafia World Tour (MWT), which the FIIM rating reads.

One JSON document per counted game (`sheets-sync export mwt`).  The field names and codes
follow the format as the mafiaratings.com importer and exporter use it (szotin/mafiaratings,
``include/mwt.php``); docs/export-mwt.md maps every field to the protocol, including what a
paper protocol cannot supply (vote counts, game times, the checks of don and sheriff).  The
format is kept in ``schemas/mwt-game.schema.json``; the tests validate every exported file
against it.

Pure: results in, documents and the reasons to warn out; :mod:`sheets_sync.actions.export`
writes them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from scoring.items import blacks_named
from scoring.model import Protocol, Removal, Role, SeatRecord, Team, Tournament
from scoring.preset import Preset
from scoring.standings import Results

__all__ = ["FORMAT_NAME", "MwtGame", "MwtWarning", "mwt_games", "game_filename", "is_game_filename", "dumps"]

FORMAT_NAME = "mwt-game"

# leave_type of the format
DAY, NIGHT, REMOVED, TEAM_DEFEAT = 1, 2, 3, 4

_ROLES = {Role.CIVILIAN: "red", Role.SHERIFF: "sheriff", Role.MAFIA: "black", Role.DON: "don"}
_FILENAME = re.compile(r"^mwt-[a-z0-9_-]+-r\d+-t\d+\.json$")


@dataclass(frozen=True, slots=True, kw_only=True)
class MwtWarning:
    """Something the federation will miss in a game's file: ``kind`` is ``tournament_id``
    (no «ID турнира MWT»), ``judge_id`` or ``player_id`` (nobody of that name has an «ID MWT»)."""

    kind: str
    sheet: str = ""
    name: str = ""
    seat: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MwtGame:
    """One exported game: its file name, the document, and what is missing from it."""

    filename: str
    sheet: str
    document: dict
    warnings: tuple[MwtWarning, ...] = ()


def game_filename(protocol: Protocol) -> str:
    """``mwt-<stage>-r<round>-t<table>.json``: sorts by stage key, round and table."""
    return f"mwt-{protocol.stage}-r{protocol.round:02d}-t{protocol.table:02d}.json"


def is_game_filename(name: str) -> bool:
    """A file ``export mwt`` writes (and may remove when its game no longer counts)."""
    return bool(_FILENAME.match(name))


def _number(value: Decimal) -> int | float:
    """A JSON number for points: the format has numbers, not decimal strings (0.3, -0.5, 1)."""
    return int(value) if value == value.to_integral_value() else float(value)


def _leave(record: SeatRecord) -> dict | None:
    """The record's leave with the phases before it counted the way mafiaratings counts them:
    a phase includes the one the player left in (voted out on day 2: 2 days, 1 night before;
    shot on night 1: 1 night, 1 day)."""
    if record.removal is not None:
        day = record.removal_day
        return {"p_num": record.seat, "leave_type": TEAM_DEFEAT if record.removal is Removal.TEAM_DEFEAT else REMOVED,
                "nights_before_count": day - 1 if day else None, "days_before_count": day}
    if record.voted_day is not None:
        return {"p_num": record.seat, "leave_type": DAY,
                "nights_before_count": record.voted_day - 1, "days_before_count": record.voted_day}
    if record.killed_night is not None:
        return {"p_num": record.seat, "leave_type": NIGHT,
                "nights_before_count": record.killed_night, "days_before_count": record.killed_night}
    return None


def _leaves(seats: Sequence[SeatRecord]) -> list[dict]:
    """Leaves in the order they happened, each with the players at the table before it, the
    number who left together (a shared vote), and ``game_ended`` on the last one."""
    leaves = [leave for leave in (_leave(r) for r in seats) if leave is not None]
    unknown = 10_000  # a removal without its day sorts last

    def when(leave: dict) -> tuple[int, int, int, int]:
        nights = leave["nights_before_count"]
        days = leave["days_before_count"]
        return (unknown if nights is None else nights, unknown if days is None else days, leave["leave_type"],
                leave["p_num"])

    leaves.sort(key=when)
    players = len(seats)
    for leave in leaves:
        leave["players_before_count"] = players
        players -= 1
        together = [o for o in leaves if o["leave_type"] == DAY == leave["leave_type"]
                    and when(o)[:2] == when(leave)[:2]]
        leave["leave_along_count"] = max(1, len(together))
        leave["game_ended"] = 0
    if leaves:
        leaves[-1]["game_ended"] = 1
    return leaves


def _replaced(tournament: Tournament, protocol: Protocol) -> list[int]:
    """1 where the protocol's player is not the one the Seating tab put on that seat."""
    entry = next((e for e in tournament.seating
                  if (e.stage, e.round, e.table) == (protocol.stage, protocol.round, protocol.table)), None)
    if entry is None:
        return [0] * len(protocol.seats)
    return [int(i < len(entry.players) and entry.players[i] is not None and entry.players[i] != r.player)
            for i, r in enumerate(protocol.seats)]


def _penalty_disciplinary(record: SeatRecord, preset: Preset) -> Decimal:
    if record.removal is Removal.REMOVED:
        return preset.removal
    if record.removal is Removal.TEAM_DEFEAT:
        return preset.team_defeat
    return Decimal(0)


def _game(results: Results, protocol: Protocol, part: int) -> MwtGame:
    t, preset = results.tournament, results.preset
    seats = protocol.seats
    warnings: list[MwtWarning] = []
    judge_id = t.mwt_id_of(protocol.judge) if protocol.judge else None
    if judge_id is None:
        warnings.append(MwtWarning(kind="judge_id", sheet=protocol.sheet, name=protocol.judge))
    players: list[int | None] = []
    for record in seats:
        pid = t.mwt_id_of(record.player) if record.player else None
        if pid is None:
            warnings.append(MwtWarning(kind="player_id", sheet=protocol.sheet, name=record.player or "", seat=record.seat))
        players.append(pid)
    first = protocol.first_shot
    best_move_value = list(first.best_move) if first is not None else []
    left = {r.seat for r in seats if r.left_game}
    result: dict = {
        "result": "black" if protocol.winner is Team.BLACK else "red",
        "players": players,
        "is_replacement": _replaced(t, protocol),
        "player_roles": [_ROLES[r.role] if r.role is not None else "red" for r in seats],
        "player_fouls": [r.fouls for r in seats],
        "game_bonus": [_number(max(r.extra_points, Decimal(0))) for r in seats],
        "game_autobonus": [0 if r.auto_extra_taken else 1 for r in seats],
        "penalty": [_number(min(r.extra_points, Decimal(0))) for r in seats],
        "penalty_disciplinary": [_number(_penalty_disciplinary(r, preset)) for r in seats],
        "killed_first": first.seat if first is not None else None,
        "best_move_value": best_move_value,
        "best_move": blacks_named(protocol, first) if best_move_value else 0,
        "red_count": sum(1 for r in seats if r.seat not in left and r.role is not None and r.role.team is Team.RED),
        "black_count": sum(1 for r in seats if r.seat not in left and r.role is not None and r.role.team is Team.BLACK),
        "leaves": _leaves(seats),
        "comment": "\n".join(f"{r.seat}. {r.comment}" for r in seats if r.comment),
    }
    document = {
        "tournament_id": t.mwt_id,
        "part_number": part,
        "table_number": protocol.table,
        "session_number": protocol.round,
        "referee_user_id": judge_id,
        "result": result,
    }
    return MwtGame(filename=game_filename(protocol), sheet=protocol.sheet, document=document, warnings=tuple(warnings))


def mwt_games(results: Results) -> tuple[tuple[MwtGame, ...], tuple[MwtWarning, ...]]:
    """Every counted game of ``results`` (give the published ones), in stage, round and table
    order; and the warnings of the whole export (no tournament id)."""
    parts = {key: n for n, key in enumerate(results.preset.stage_keys, start=1)}
    counted = sorted(results.counted, key=lambda p: (parts.get(p.stage, 0), p.round, p.table))
    games = tuple(_game(results, p, parts.get(p.stage, 1)) for p in counted)
    general = () if results.tournament.mwt_id is not None else (MwtWarning(kind="tournament_id"),)
    return games, general


_SCALAR_LIST = re.compile(r"\[\s*((?:[^\[\]{}\"]|\"(?:[^\"\\]|\\.)*\")*?)\s*\]")


def dumps(document: dict) -> str:
    """Indented, with each list of numbers or words on one line (ten seats read across)."""
    text = json.dumps(document, ensure_ascii=False, indent=2)
    return _SCALAR_LIST.sub(lambda m: "[" + re.sub(r",\s+", ", ", m.group(1)) + "]", text) + "\n"
