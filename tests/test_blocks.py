"""Protocols stacked in one tab (issue 23, part 2): a tournament's rounds kept one tab per round,
each round's tables stacked, give exactly the standings of the one-tab-per-game workbook."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import openpyxl
from click.testing import CliRunner

from sheets_sync.cli import main

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
