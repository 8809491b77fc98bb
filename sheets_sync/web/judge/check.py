"""The form's check (issue 44 §4): the cells a judge's page sends, read by the real reader from a
protocol tab laid out as ``init`` lays it out, and checked by :func:`scoring.game.form.form_problems`
with the tournament's players, the game's seating and the tournament's preset (its overrides
included: the Tournament tab the sync read is in the games file). The reader's own problems of
those cells (a role that is no role) come with them, each at its field, in the link's language."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from scoring.cells import parse_a1
from scoring.game.form import form_problems
from scoring.model import SeatingEntry
from scoring.parse import parse_tournament, read_settings
from scoring.preset import Preset
from sheets_sync.web.judge.games import cell_key, protocol_places

__all__ = ["preset_of", "form_check", "MAX_TEXT"]

MAX_TEXT = 200  # characters of one cell the page may send (a nickname, a comment): the rest is refused
_PRESETS: dict[tuple, Preset] = {}


def preset_of(games: Mapping, base_dir: Path | None) -> Preset:
    """The tournament's preset as the last sync read it (cached per sync)."""
    from sheets_sync.loop.outcome import DEFAULT_PRESET, _load_preset_for
    from sheets_sync.presets import load_preset

    key = (str(base_dir), games.get("read_at"), repr(games.get("settings_tab"))[:2000])
    if key not in _PRESETS:
        if games.get("settings_tab"):
            title, grid = games["settings_tab"]
            preset, _ = _load_preset_for(read_settings({title: grid}), base_dir)
        else:
            preset, _ = load_preset(DEFAULT_PRESET)
        if len(_PRESETS) > 50:
            _PRESETS.clear()
        _PRESETS[key] = preset
    return _PRESETS[key]


def _layout(games: Mapping, game: Mapping, preset: Preset) -> tuple[str, list[list], dict]:
    from sheets_sync.workbook.layout import protocol_tab

    language = games["language"]
    title = game.get("tab") or "form"
    tab = protocol_tab(title=title, stage_name=game["stage_name"], round_no=game["round"], table=game["table"],
                       players=game["seats"], language=language, preset=preset)
    return title, [list(row) for row in tab.rows], {}


def _read(games: Mapping, title: str, grid: list[list], preset: Preset):
    tabs = {title: grid}
    if games.get("settings_tab"):
        settings_title, settings_grid = games["settings_tab"]
        tabs = {settings_title: settings_grid, title: grid}
    settings = read_settings(tabs)
    return parse_tournament(tabs, list(tabs), preset, settings)


def form_check(games: Mapping, game: Mapping, cells: Mapping[str, str], language: str, *,
               base_dir: Path | None = None) -> list[dict]:
    """The problems of the form ``cells`` (key → text) of ``game``, each at its field."""
    preset = preset_of(games, base_dir)
    title, grid, _ = _layout(games, game, preset)
    empty = _read(games, title, grid, preset)
    if not empty.tournament.protocols:
        return []
    places = protocol_places(empty.tournament.protocols[0])
    for key, text in cells.items():
        if key not in places:
            continue
        row, col = parse_a1(places[key])
        while len(grid) <= row:
            grid.append([])
        grid[row] += [None] * (col + 1 - len(grid[row]))
        grid[row][col] = text if text.strip() else None
    parsed = _read(games, title, grid, preset)
    if not parsed.tournament.protocols:
        return []
    protocol = parsed.tournament.protocols[0]
    seating = SeatingEntry(stage=game["stage"], round=game["round"], table=game["table"],
                           players=tuple(game["seats"]))
    found = [f.to_dict() for f in form_problems(protocol, preset, language, players=games.get("players") or None,
                                                 seating=seating)]
    fields = {a: key for key, a in places.items()}
    for p in parsed.problems:  # what the reader could not read (a role that is no role)
        if p.location is not None and p.location.cell in fields and p.location.sheet == title:
            seat, column = fields[p.location.cell].split(":", 1)
            found.append({"seat": int(seat) if seat else None, "column": column, "rule": p.rule,
                          "severity": p.severity.value, "message": p.message(language), "related": []})
    seen, out = set(), []
    for f in found:
        marker = (f["seat"], f["column"], f["rule"])
        if marker not in seen:
            seen.add(marker)
            out.append(f)
    return out


def key_known(key: str) -> bool:
    from sheets_sync.web.judge.games import HEADER_KEYS, SEAT_COLUMNS

    seat, _, column = key.partition(":")
    if not seat:
        return column in HEADER_KEYS
    return seat.isdigit() and 1 <= int(seat) <= 10 and column in SEAT_COLUMNS and cell_key(int(seat), column) == key
