"""A judge and an organizer at the keyboard: what they type into a tournament workbook.

Tests use this to fill protocol tabs the way people do — strings typed into cells of the
real workbook, stored the way the real client stores them — instead of building protocol
objects in memory:

* :func:`typed_protocol` turns a game (a :class:`~scoring.model.Protocol`, usually from the
  seeded simulator) into the texts a judge types into a pre-filled protocol tab: ``д``, ``м``,
  ``ш``, ``мирный``, fouls, night/day numbers, ``да 2`` for a removal, ``2 5 8`` for a best
  move, ``0,3`` for extra points (the Russian decimal comma), ``Мирные``/``Мафия``.
* :class:`ExcelDesk` stores typed text as Russian Excel does (``0,3`` and ``7`` become numbers,
  ``1.2`` and ``8.9.10`` dates, everything else stays text) and saves the file; :class:`GoogleDesk`
  types through the fake Sheets server's USER_ENTERED parsing in the spreadsheet's locale
  (ru_RU or en_US: see tests/fake_sheets.py for what Google makes of each input).
* :func:`table_tournament` is a one-round tournament of many tables, every protocol holding the
  same valid game, for typing one case into each table; :func:`write_xlsx` saves tabs as an
  .xlsx the way an organizer's file holds them (text stays text).

Cells are found by the labels people see (``Игрок``, ``Роль``, ``Судья``, ``Победа``), never by
hard-coded coordinates.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime
from pathlib import Path
from typing import Any

import openpyxl

from scoring.cells import a1
from scoring.model import Protocol, Removal, Role, Team

__all__ = ["typed_protocol", "seated_players", "ExcelDesk", "GoogleDesk", "excel_ru_entered", "table_tournament",
           "write_xlsx"]

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


def excel_ru_entered(text: str, today: date | None = None) -> Any:
    """What Excel with Russian regional settings stores when a person types ``text``: whole
    numbers and decimal-comma numbers become numbers; a day and month with dots (``1.2``,
    ``8.9.10``) a date (this year when none is typed; two-digit years 00–29 are 20xx, 30–99 19xx,
    as Microsoft documents for Excel); everything else stays text (``0.5``, ``8 9 10``, ``½``, ``-``),
    and a leading apostrophe only says "text" (``'8.9.10``)."""
    if text.startswith("'"):
        return text[1:]
    t = text.strip()
    if re.fullmatch(r"[+-]?\d+", t):
        return int(t)
    if re.fullmatch(r"[+-]?\d+,\d+", t):
        return float(t.replace(",", "."))
    m = re.fullmatch(r"(\d{1,2})\.(\d{1,2})(?:\.(\d{2}|\d{4}))?", t)
    if m:
        year = int(m.group(3)) if m.group(3) else (today or date.today()).year
        if m.group(3) and len(m.group(3)) == 2:
            year += 2000 if year < 30 else 1900
        try:
            return datetime(year, int(m.group(2)), int(m.group(1)))
        except ValueError:
            return text
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

    def type(self, edits: Mapping[tuple[str, str], str | None]) -> None:
        """Type each text (None: the judge clears the cell), then save."""
        wb = openpyxl.load_workbook(self.path)
        for (tab, cell), text in edits.items():
            wb[tab][cell].value = None if text is None else excel_ru_entered(text)
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

    def type(self, edits: Mapping[tuple[str, str], str | None]) -> None:
        """Type each text (None: the judge clears the cell)."""
        for (tab, cell), text in edits.items():
            self.server.set_values(self.sid, tab, [[text]], start=cell)


def table_tournament(tables: int, *, language: str = "ru", roles: list[str] | None = None,
                     game: Mapping[str, Any] | None = None, winner: str = "Мирные") -> dict[str, list[list[Any]]]:
    """A one-round tournament of ``tables`` games (tabs ``Тур 1 Стол k``), each with its own ten
    players and the same protocol: the rulebook's valid red win (tests/rulebook.py) unless
    ``game``/``roles``/``winner`` say otherwise.  Cells as the rulebook lays them out."""
    from scoring.cells import parse_a1
    from tests.rulebook import NAMES, RED_GAME, ROLES, protocol_grid

    names = {k: [f"{n} {k}" for n in NAMES] for k in range(1, tables + 1)}
    tabs: dict[str, list[list[Any]]] = {
        "Турнир": [["Название", "Кубок"], ["Регламент", "gmo-2016"], ["Язык", language]],
        "Игроки": [["Игрок", "Клуб", "Город", "Статус", "Пропуск"]] + [[n] for k in names for n in names[k]],
        "Рассадка": [["Этап", "Тур", "Стол", *range(1, 11)]] + [["Отбор", 1, k, *names[k]] for k in names],
        "Штрафы": [["Игрок", "Этап", "Тур", "Причина", "Опоздание, мин", "Баллы"]],
    }
    for k in names:
        grid = protocol_grid(names[k], roles or ROLES, table=k, winner=winner)
        for ref, value in (RED_GAME if game is None else game).items():
            r, c = parse_a1(ref)
            while len(grid[r]) <= c:
                grid[r].append(None)
            grid[r][c] = value
        tabs[f"Тур 1 Стол {k}"] = grid
    return tabs


def write_xlsx(path: Path, tabs: Mapping[str, list[list[Any]]]) -> Path:
    """``tabs`` saved as an .xlsx (strings stored as text, numbers as numbers)."""
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for title, rows in tabs.items():
        ws = wb.create_sheet(title)
        for r, row in enumerate(rows, start=1):
            for c, value in enumerate(row, start=1):
                if value is not None and value != "":
                    cell = ws.cell(row=r, column=c, value=value)
                    if isinstance(value, str):
                        cell.data_type = "s"
    wb.save(path)
    return path
