"""The games a judge's page shows, as the last sync read them: one small JSON file beside the
sync's other outputs (``DATA/sites/<pk>/judge/games.json``), written atomically by every sync
that computed (:func:`write_games`). A page's GET answers from it and from the saves waiting in
the database — never a read of the workbook per GET.

Per seated game: its ``gid`` (``stage-round-table``), the protocol tab and, for a tab of stacked
protocols, its block's anchor; the seating's players; the texts of the cells the form owns as the
reader read them, and where each is (A1, for the writer); the rules' problems of the protocol by
field (the sync's own problems whose cells are the protocol's); its status.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

from scoring import labels as L
from scoring.cells import parse_a1
from scoring.game.form import FORM_COLUMNS
from scoring.game.state import GameRules
from scoring.model import Location, Protocol
from scoring.values import text as value_text
from sheets_sync.files import write_text_atomic

__all__ = ["games_file", "write_games", "read_games", "cell_key", "HEADER_KEYS", "SEAT_COLUMNS", "shown_text",
           "status_of", "rules_json", "gid_of"]

HEADER_KEYS = ("judge", "winner", "checked_by")
SEAT_COLUMNS = tuple(c for c in FORM_COLUMNS if c != "seat")
NOT_STARTED, IN_PLAY, WAITING, SUBMITTED, PROBLEMS, CONFIRMED = (
    "not_started", "in_play", "waiting", "submitted", "problems", "confirmed")


def games_file(out: Path) -> Path:
    return Path(out) / "judge" / "games.json"


def gid_of(stage: str, round_no: int, table: int) -> str:
    return f"{stage}-{round_no}-{table}"


def cell_key(seat: int | None, column: str) -> str:
    return f"{seat if seat is not None else ''}:{column}"


def shown_text(value: object, language: str) -> str:
    """A cell's value as a person typed it: numbers in the tournament's way (``0,5`` in Russian)."""
    if value is None:
        return ""
    if isinstance(value, bool) or isinstance(value, (datetime, date)):
        return value_text(value)
    if isinstance(value, (int, float, Decimal)):
        number = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
        out = format(number.normalize(), "f") if number else "0"
        return out.replace(".", ",") if language == "ru" else out
    return str(value)


def _grid_value(tabs: Mapping, where: Location) -> object:
    grid = tabs.get(where.sheet, ())
    row, col = parse_a1(where.cell)
    if row >= len(grid) or col >= len(grid[row]):
        return None
    return grid[row][col]


def protocol_places(protocol: Protocol) -> dict[str, str]:
    """key → A1 of every cell of the form the protocol's tab has (as the reader found them)."""
    places = {cell_key(None, k): protocol.cells[k].cell for k in HEADER_KEYS if k in protocol.cells}
    for record in protocol.seats:
        for column in SEAT_COLUMNS:
            if column in record.cells:
                places[cell_key(record.seat, column)] = record.cells[column].cell
    return places


def status_of(cells: Mapping[str, str], problems: list[dict], *, confirmation: bool, pending: int = 0) -> str:
    """The game's status as the contract names it (``waiting``: a save not yet in the workbook)."""
    if pending:
        return WAITING
    typed = any(v.strip() for k, v in cells.items() if not k.endswith(":player") and k != ":checked_by")
    if not typed:
        return NOT_STARTED
    if not cells.get(":winner", "").strip():
        return IN_PLAY
    if any(p.get("severity") == "error" for p in problems):
        return PROBLEMS
    checked, judge = cells.get(":checked_by", "").strip(), cells.get(":judge", "").strip()
    if confirmation and checked and L.norm(checked) != L.norm(judge):
        return CONFIRMED
    return SUBMITTED


def rules_json(rules: GameRules) -> dict:
    def plain(v):
        return str(v) if isinstance(v, Decimal) else list(v) if isinstance(v, tuple) else v
    return {name: plain(getattr(rules, name)) for name in rules.__dataclass_fields__}


def _field_problems(protocol: Protocol, problems, language: str) -> list[dict]:
    fields: dict[Location, tuple[int | None, str]] = {loc: (None, k) for k, loc in protocol.cells.items()}
    for record in protocol.seats:
        for column, loc in record.cells.items():
            fields[loc] = (record.seat, column)
    out = []
    for p in problems:
        if p.location is None or p.location not in fields:
            continue
        seat, column = fields[p.location]
        out.append({"seat": seat, "column": column, "rule": p.rule, "severity": p.severity.value,
                    "message": p.message(language), "related": [list(fields[r]) for r in p.related if r in fields]})
    return out


def _grid_json(grid) -> list[list]:
    return [[v if isinstance(v, (str, int)) and not isinstance(v, bool) else
             (None if v is None else value_text(v)) for v in row] for row in grid]


def games_json(outcome, snapshot, *, read_at: str) -> dict:
    """The file's content for a sync's ``outcome`` of ``snapshot``."""
    from scoring.parse import find_tab

    t, preset, language = outcome.results.tournament, outcome.preset, outcome.language
    by_key = {}
    for p in t.protocols:
        by_key.setdefault(p.key, p)
    by_problem_tab: dict[str, list] = {}
    for problem in outcome.problems:
        if problem.location is not None:
            by_problem_tab.setdefault(problem.location.sheet, []).append(problem)
    order = {key: i for i, key in enumerate(preset.stage_keys)}
    games = []
    for entry in sorted(t.seating, key=lambda e: (order.get(e.stage, 99), e.round, e.table)):
        protocol = by_key.get((entry.stage, entry.round, entry.table))
        stage_name = preset.stage(entry.stage).name(language) if entry.stage in order else entry.stage
        game = {"gid": gid_of(entry.stage, entry.round, entry.table), "stage": entry.stage, "stage_name": stage_name,
                "round": entry.round, "table": entry.table, "seats": list(entry.players) + [None] * (10 - len(entry.players)),
                "tab": None, "anchor": "", "where": {}, "cells": {}, "problems": []}
        if protocol is not None:
            places = protocol_places(protocol)
            game.update(tab=protocol.sheet, anchor=protocol.anchor, where=places,
                        cells={k: shown_text(_grid_value(snapshot.tabs, Location(protocol.sheet, a)), language)
                               for k, a in places.items()},
                        problems=_field_problems(protocol, [p for p in by_problem_tab.get(protocol.sheet, ())
                                                            if protocol.holds(p.location)], language))
        games.append(game)
    settings_tab = find_tab(snapshot.tabs, "tournament")
    stages_seated = [g["stage"] for g in games]
    return {"version": 1, "read_at": read_at, "language": language, "tournament": t.name,
            "confirmation": bool(preset.confirmation), "chief_judge": t.chief_judge,
            "players": [p.nickname for p in t.players], "judges": [j.nickname for j in t.judges],
            "rules": rules_json(GameRules.of(preset)),
            "stages": {k: preset.stage(k).name(language) for k in preset.stage_keys},
            "current_stage": max(stages_seated, key=lambda s: order.get(s, -1)) if stages_seated else None,
            "settings_tab": [settings_tab, _grid_json(snapshot.tabs.get(settings_tab, ()))] if settings_tab else None,
            "season": bool(t.season), "games": games}


def write_games(out: Path, outcome, snapshot, *, read_at: str) -> Path:
    path = games_file(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, json.dumps(games_json(outcome, snapshot, read_at=read_at), ensure_ascii=False))
    return path


def read_games(out: Path) -> dict | None:
    """The last sync's games, or None before a sync wrote them."""
    try:
        return json.loads(games_file(out).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
