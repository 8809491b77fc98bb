"""A judge and an organizer at the keyboard: what they type into a tournament workbook.

Tests use this to fill protocol tabs the way people do — strings typed into cells of the
real workbook, stored the way the real client stores them — instead of building protocol
objects in memory:

* :func:`typed_protocol` turns a game (a :class:`~scoring.model.Protocol`, usually from the
  seeded simulator) into the texts a judge types into a pre-filled protocol tab: ``д``, ``м``,
  ``ш``, ``мирный``, fouls, night/day numbers, ``да 2`` for a removal, ``2 5 8`` for a best
  move, ``0,3`` for extra points (the Russian decimal comma), ``Мирные``/``Мафия``.
* :class:`ExcelDesk` stores typed text as Russian Excel does (``0,3`` and ``7`` become numbers,
  everything else stays text) and saves the file; :class:`GoogleDesk` types through the fake
  Sheets server's USER_ENTERED parsing in the spreadsheet's locale (ru_RU).

Cells are found by the labels people see (``Игрок``, ``Роль``, ``Судья``, ``Победа``), never by
hard-coded coordinates.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import openpyxl

from scoring.cells import a1
from scoring.model import Protocol, Removal, Role, Team

__all__ = ["typed_protocol", "seated_players", "ExcelDesk", "GoogleDesk", "excel_ru_entered"]

_ROLE_TYPED = {Role.DON: "д", Role.MAFIA: "м", Role.SHERIFF: "ш", Role.CIVILIAN: "мирный"}
_COLUMNS = {"игрок": "player", "роль": "role", "фолы": "fouls", "убит ночью": "killed", "заголосован днём": "voted",
            "удалён": "removal", "лх": "best_move", "доп. баллы": "extra"}
_HEADER = {"судья": "judge", "победа": "winner"}


def _norm(value: Any) -> str:
    return " ".join(str(value or "").split()).lower().replace("ё", "е")


def _table(grid: list[list[Any]]) -> tuple[int, dict[str, int], dict[str, tuple[int, int]]]:
    """(row of the seat table's header, column of each field, cell of each header value)."""
    columns = {_norm(k): v for k, v in _COLUMNS.items()}
    header_cells: dict[str, tuple[int, int]] = {}
    for r, row in enumerate(grid):
        found = {columns[_norm(v)]: c for c, v in enumerate(row) if _norm(v) in columns}
        if "player" in found and "role" in found:
            return r, found, header_cells
        if row and _norm(row[0]) in _HEADER:
            header_cells[_HEADER[_norm(row[0])]] = (r, 1)
    raise AssertionError("no protocol table in this tab")


def seated_players(grid: list[list[Any]]) -> list[str]:
    """The ten nicknames pre-filled in a protocol tab, seat 1 first."""
    r, cols, _ = _table(grid)
    rows = grid[r + 1:r + 11]
    return [str(row[cols["player"]]) if cols["player"] < len(row) and row[cols["player"]] else "" for row in rows]


def typed_protocol(grid: list[list[Any]], game: Protocol, *, judge: str) -> dict[str, str]:
    """A1 cell → the text a judge types for ``game`` into the protocol tab ``grid`` (the
    players' cells only where the player differs from the pre-filled one: a substitute)."""
    r, cols, header = _table(grid)
    out: dict[str, str] = {}
    out[a1(*header["judge"])] = judge
    if game.winner is not None:
        out[a1(*header["winner"])] = "Мирные" if game.winner is Team.RED else "Мафия"
    pre = seated_players(grid)
    for i, rec in enumerate(game.seats):
        row = r + 1 + i

        def put(field: str, text: str) -> None:
            out[a1(row, cols[field])] = text

        if rec.player and rec.player != pre[i]:
            put("player", rec.player)
        if rec.role is not None:
            put("role", _ROLE_TYPED[rec.role])
        if rec.fouls:
            put("fouls", str(rec.fouls))
        if rec.killed_night is not None:
            put("killed", str(rec.killed_night))
        if rec.voted_day is not None:
            put("voted", str(rec.voted_day))
        if rec.removal is not None:
            word = "ППК" if rec.removal is Removal.TEAM_DEFEAT else "да"
            put("removal", f"{word} {rec.removal_day}" if rec.removal_day else word)
        if rec.best_move:
            put("best_move", " ".join(str(s) for s in rec.best_move))
        if rec.extra_points:
            put("extra", format(rec.extra_points.normalize(), "f").replace(".", ","))
    return out


def excel_ru_entered(text: str) -> Any:
    """What Excel with Russian regional settings stores when a person types ``text``: whole
    numbers and decimal-comma numbers become numbers, everything else stays text."""
    t = text.strip()
    if re.fullmatch(r"[+-]?\d+", t):
        return int(t)
    if re.fullmatch(r"[+-]?\d+,\d+", t):
        return float(t.replace(",", "."))
    return text


class ExcelDesk:
    """An organizer's .xlsx, typed into the way Russian Excel stores input, then saved."""

    kind = "excel"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.ref = str(path)
        self.cli_extra: list[str] = []
        self._loaded: tuple[tuple[int, int], Any] | None = None

    def _workbook(self) -> Any:
        """The workbook as saved now (loaded once per version of the file)."""
        st = self.path.stat()
        if self._loaded is None or self._loaded[0] != (st.st_size, st.st_mtime_ns):
            self._loaded = ((st.st_size, st.st_mtime_ns), openpyxl.load_workbook(self.path))
        return self._loaded[1]

    def grid(self, tab: str) -> list[list[Any]]:
        return [[c.value for c in row] for row in self._workbook()[tab].iter_rows()]

    def tabs(self) -> list[str]:
        return self._workbook().sheetnames

    def type(self, edits: Mapping[tuple[str, str], str]) -> None:
        wb = openpyxl.load_workbook(self.path)
        for (tab, cell), text in edits.items():
            wb[tab][cell].value = excel_ru_entered(text)
        wb.save(self.path)


class GoogleDesk:
    """A spreadsheet in the fake Google server, typed into through its USER_ENTERED parsing."""

    kind = "google"

    def __init__(self, server: Any, sid: str, key: str) -> None:
        self.server, self.sid = server, sid
        self.ref = f"gsheet:{sid}"
        self.cli_extra = ["--credentials", key]

    def grid(self, tab: str) -> list[list[Any]]:
        return self.server.values(self.sid, tab)

    def tabs(self) -> list[str]:
        return self.server.tabs(self.sid)

    def type(self, edits: Mapping[tuple[str, str], str]) -> None:
        for (tab, cell), text in edits.items():
            self.server.set_values(self.sid, tab, [[text]], start=cell)
