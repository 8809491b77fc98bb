"""Protocols stacked in one tab (issue 23, part 2): a tournament's rounds kept one tab per round,
each round's tables stacked, give exactly the standings of the one-tab-per-game workbook."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import openpyxl
from click.testing import CliRunner

from sheets_sync.backends.base import Snapshot
from sheets_sync.cli import main
from sheets_sync.layout import EVENING_BLOCK_ROWS, EVENING_FIRST_BLOCK, EVENING_HEADER, evening_columns, evening_tab
from sheets_sync.outcome import compute
from sheets_sync.presets import load_preset

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "gmo-2016-example.xlsx"
_TABLE_TAB = re.compile(r"^(Тур|ПФ) (\d+) Стол \d+$")


def stack_rounds(source: Path, target: Path) -> dict[str, tuple[str, int]]:
    """The workbook with each round's protocol tabs stacked into one tab «Тур N» / «ПФ N» (a blank
    row between two protocols), as an organizer who keeps a tab per round lays them out; the
    finals (one table) stay as they are.  Returns each stacked tab -> (its round tab, the rows its
    protocol moved down)."""
    wb = openpyxl.load_workbook(source)
    groups: dict[str, list[str]] = {}
    moved: dict[str, tuple[str, int]] = {}
    for title in wb.sheetnames:
        if m := _TABLE_TAB.match(title):
            groups.setdefault(f"{m.group(1)} {m.group(2)}", []).append(title)
    for name, titles in groups.items():
        ws = wb.create_sheet(name, index=wb.sheetnames.index(titles[0]))
        r = 1
        for title in titles:
            moved[title] = (name, r - 1)
            for row in wb[title].iter_rows(values_only=True):
                for c, value in enumerate(row, 1):
                    if value is not None:
                        ws.cell(r, c, value)
                r += 1
            r += 1
        for title in titles:
            del wb[title]
    wb.save(target)
    return moved


def _sync(book: Path) -> dict:
    result = CliRunner().invoke(main, ["sync", str(book)])
    assert result.exit_code == 0, result.output
    return json.loads((book.parent / "standings.json").read_text(encoding="utf-8"))


def _tab(book: Path, title: str) -> list[tuple]:
    return [tuple(row) for row in openpyxl.load_workbook(book)[title].iter_rows(values_only=True)]


def _without_places(doc: dict) -> dict:
    """The document but where its problems are (a tab and cell: those differ by construction)."""
    rest = {k: v for k, v in doc.items() if k not in ("problems", "generated", "updated")}
    rest["problems"] = sorted((p["rule"], p["severity"]) for p in doc["problems"])
    return rest


def test_stacked_rounds_give_the_standings_of_a_tab_per_game(tmp_path):
    per_game, stacked = tmp_path / "per-game" / "cup.xlsx", tmp_path / "stacked" / "cup.xlsx"
    per_game.parent.mkdir()
    stacked.parent.mkdir()
    shutil.copyfile(EXAMPLE, per_game)
    moved = stack_rounds(EXAMPLE, stacked)
    assert len(moved) == 34 and len({tab for tab, _ in moved.values()}) == 10
    one, many = _sync(per_game), _sync(stacked)
    assert one["games_counted"] == many["games_counted"] == 38
    assert _without_places(many) == _without_places(one)
    assert [(s["player"], s["total"], s["places"]) for s in many["standings"]] == \
           [(s["player"], s["total"], s["places"]) for s in one["standings"]]
    assert _tab(stacked, "Итоги") == _tab(per_game, "Итоги")
    # each problem points into its own block: the round tab, the same cell as many rows down as the block moved
    expected = sorted((p["rule"], *_moved(p["sheet"], p["cell"], moved)) for p in one["problems"])
    assert expected and sorted((p["rule"], p["sheet"], p["cell"]) for p in many["problems"]) == expected


def _moved(sheet: str, cell: str, moved: dict[str, tuple[str, int]]) -> tuple[str, str]:
    if sheet not in moved:
        return sheet, cell
    tab, rows = moved[sheet]
    column, row = re.match(r"([A-Z]+)(\d+)", cell).groups()
    return tab, f"{column}{int(row) + rows}"


# -- an evening of a club season: blocks built by the `evening` layout, filled as a judge fills them ----
CLUB_PRESET = str(Path(__file__).resolve().parent.parent / "config" / "examples" / "club-season.toml")
CLUB = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя", "Иван", "Кира", "Лев", "Мира", "Нина", "Олег",
        "Пётр", "Рита", "Сева", "Тая", "Ульяна", "Фёдор", "Хельга", "Цезарь", "Чара", "Шура"]
ROLES = ("шериф", "дон", "мафия", "мафия", "мирный", "мирный", "мирный", "мирный", "мирный", "мирный")


@dataclass(frozen=True)
class Game:
    """One game a judge records: who sat where (a rotation of the club), the winner, a best move."""

    number: int
    table: int | None
    shift: int
    winner: str = "Мирные"
    extra_seat: int | None = None  # a seat given 0.5 extra points

    def players(self) -> list[str]:
        return [CLUB[(self.shift + i) % len(CLUB)] for i in range(10)]


def evening_rows(day: date, games: Sequence[Game]) -> list[list]:
    """The evening tab's grid: the layout of `sheets-sync evening`, every block filled in."""
    tables = max((g.table or 0) for g in games) or None
    layout = evening_tab(day=day, games=len(games), tables=tables, language="ru", preset=load_preset(CLUB_PRESET)[0])
    rows = [list(r) for r in layout.rows]
    columns = evening_columns(load_preset(CLUB_PRESET)[0])
    for i, g in enumerate(games):
        top = EVENING_FIRST_BLOCK + i * EVENING_BLOCK_ROWS
        head = rows[top]
        head[EVENING_HEADER["round"] + 1], head[EVENING_HEADER["table"] + 1] = g.number, g.table
        head[EVENING_HEADER["judge"] + 1], head[EVENING_HEADER["winner"] + 1] = "Судья Ольга", g.winner
        for seat, (player, role) in enumerate(zip(g.players(), ROLES), 1):
            row = rows[top + 1 + seat]
            row += [None] * (len(columns) - len(row))
            row[columns.index("player")], row[columns.index("role")] = player, role
            if seat == 5:
                row[columns.index("killed_night")], row[columns.index("best_move")] = 1, "2 3 4"
            if seat == g.extra_seat:
                row[columns.index("extra_points")] = 0.5
    return rows


def club_snapshot(evenings: dict[str, list[list]]) -> Snapshot:
    tabs = {"Турнир": [["Название", "Клуб"], ["Регламент", CLUB_PRESET], ["Формат", "сезон"]],
            "Игроки": [["Игрок"], *([n] for n in CLUB)], **evenings}
    return Snapshot(tabs=tabs, order=tuple(tabs), source="memory")


NIGHT = date(2026, 12, 5)
EVENING = [Game(1, 1, 0), Game(1, 2, 10, winner="Мафия"), Game(2, 1, 3, extra_seat=2), Game(2, 2, 13),
           Game(3, 1, 1, winner="Мафия"), Game(3, 2, 12)]


def test_an_evening_tab_counts_each_block_as_a_game():
    outcome = compute(club_snapshot({"05.12.2026": evening_rows(NIGHT, EVENING)}))
    assert [p.message("en") for p in outcome.problems if p.severity.value == "error"] == []
    counted = outcome.results.counted
    assert [(p.round, p.table, p.date, p.game_id) for p in counted] == [
        (g.number, g.table, "2026-12-05", f"05.12.2026!A{EVENING_FIRST_BLOCK + 1 + i * EVENING_BLOCK_ROWS}")
        for i, g in enumerate(EVENING)]
