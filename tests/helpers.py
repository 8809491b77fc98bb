"""Small builders shared by tests: presets from config, compact protocols and tournaments."""

from __future__ import annotations

import copy
import os
import tomllib
from decimal import Decimal
from pathlib import Path

from scoring.model import (
    Player,
    Protocol,
    Removal,
    Role,
    SeatingEntry,
    SeatRecord,
    Team,
    Tournament,
)
from scoring.preset import Preset
from sheets_sync.render.tabs import HEADER_ROW, TOP_ROWS

ROOT = Path(__file__).resolve().parent.parent
ROLE = {"д": Role.DON, "м": Role.MAFIA, "ш": Role.SHERIFF, "к": Role.CIVILIAN}


def preset_dict(preset_id: str = "gmo-2016") -> dict:
    with open(ROOT / "config" / f"{preset_id}.toml", "rb") as fh:
        return tomllib.load(fh, parse_float=Decimal)


def preset(preset_id: str = "gmo-2016", **changes) -> Preset:
    data = copy.deepcopy(preset_dict(preset_id))
    for dotted, value in changes.items():
        section, key = dotted.split("__")
        data[section][key] = value
    return Preset.from_dict(data, source=f"{preset_id}.toml")


def seat(n: int, player: str, role: str, **kw) -> SeatRecord:
    if "extra" in kw:
        kw["extra_points"] = Decimal(str(kw.pop("extra")))
    if "removed" in kw:
        kw["removal"] = Removal.REMOVED if kw.pop("removed") else None
    return SeatRecord(seat=n, player=player, role=ROLE[role], **kw)


def protocol(players: str | list[str], roles: str, winner: str | None, *, stage="qualifying", round_no=1, table=1,
             sheet=None, **per_seat) -> Protocol:
    """players: 10 names (list or space-separated); roles: 10 letters д/м/ш/к;
    per_seat: s3={"killed_night": 1, "best_move": (1, 2, 4)}."""
    names = players.split() if isinstance(players, str) else players
    seats = tuple(seat(i + 1, names[i], roles[i], **per_seat.get(f"s{i + 1}", {})) for i in range(10))
    return Protocol(sheet=sheet or f"Тур {round_no} Стол {table}", stage=stage, round=round_no, table=table,
                    winner={"red": Team.RED, "black": Team.BLACK, None: None}[winner], seats=seats)


def tournament(players: list[str], protocols=(), seating=(), penalties=(), **kw) -> Tournament:
    pl = tuple(p if isinstance(p, Player) else Player(nickname=p) for p in players)
    return Tournament(name="T", preset_id="gmo-2016", language="ru", players=pl, protocols=tuple(protocols),
                      seating=tuple(seating), penalties=tuple(penalties), **kw)


def seating_of(p: Protocol) -> SeatingEntry:
    return SeatingEntry(stage=p.stage, round=p.round, table=p.table, players=tuple(s.player for s in p.seats))


def substitute_cells() -> tuple[tuple[str, str], tuple[str, str]]:
    """(tab, cell) where the example's two reserves sit in for absent players — found, not
    hard-coded, since the example is regenerated whenever the simulator or the draw changes."""
    from scoring.cells import a1
    from sheets_sync.backends.excel import ExcelBackend
    from sheets_sync.example import EXAMPLE_PATH

    cells = {}
    for title, rows in ExcelBackend(EXAMPLE_PATH).read().tabs.items():
        if title.startswith("Тур "):
            for r, row in enumerate(rows):
                for c, value in enumerate(row):
                    if value in ("Запасной Один", "Запасной Два"):
                        cells[value] = (title, a1(r, c))
    return cells["Запасной Один"], cells["Запасной Два"]


def examples(n: int) -> int:
    """How many examples a Hypothesis property runs: ``n`` in ``make test``, a fifth in
    ``make test-fast`` (``HYPOTHESIS_PROFILE=fast``)."""
    return max(2, n // 5) if os.environ.get("HYPOTHESIS_PROFILE") == "fast" else n


# an owned tab opens with its title and status line; its table's header row comes next
FIRST_ROW = TOP_ROWS + 1  # the first row under an owned tab's header, 1-based (openpyxl's min_row)


def table(grid) -> list:
    """An owned tab's table: its header row and the rows under it (the title and status line above left out)."""
    return list(grid)[HEADER_ROW:]
