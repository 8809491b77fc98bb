"""Blank protocol tabs and a game typed into the wrong one (issue 34 §1), through a real .xlsx.

A tournament is made by ``init`` (its draw pre-fills every protocol tab with its players); a
judge types a game the way tests/judge.py does, saved by openpyxl as Russian Excel would, and
one real sync runs.  What the organizer sees is read back from the file: the fills of the marks
and the Problems tab.  A blank tab — the draw's pre-filled header and players, nothing a judge
typed (docs/workbook.md) — is not a game: no problem, no mark, and its players play nowhere.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from scoring.parse import parse_tournament, read_settings
from scoring.simulate import simulate_game
from sheets_sync.backends.base import MARK_COLOURS
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.cli import main
from sheets_sync.presets import load_preset
from sheets_sync.loop.sync import sync_once
from tests.helpers import FIRST_ROW
from tests.judge import ExcelDesk, seated_players, typed_protocol
from tests.rulebook import NAMES as TEN, protocol_grid

PRESET = load_preset("gmo-2016")[0]
NAMES = [f"Игрок {i:02d}" for i in range(1, 41)]


@pytest.fixture(scope="module")
def fresh_book(tmp_path_factory) -> Path:
    """40 players, 4 tables, 7 rounds: 28 pre-filled protocol tabs, nothing typed."""
    folder = tmp_path_factory.mktemp("init")
    players = folder / "players.csv"
    players.write_text("Игрок\n" + "\n".join(NAMES) + "\n", encoding="utf-8")
    book = folder / "cup.xlsx"
    result = CliRunner().invoke(main, ["init", str(book), "--players", str(players), "--name", "Кубок"])
    assert result.exit_code == 0, result.output
    return book


@pytest.fixture
def desk(fresh_book, tmp_path) -> ExcelDesk:
    book = tmp_path / "cup.xlsx"
    shutil.copy(fresh_book, book)
    return ExcelDesk(book)


def _type_game(desk: ExcelDesk, tab: str, players: list[str], *, round_no: int, table: int, seed: int = 1) -> None:
    """A judge types a whole game of ``players`` into ``tab`` (over the pre-filled names where they differ)."""
    game = simulate_game(players, stage="qualifying", round_no=round_no, table=table, sheet=tab, preset=PRESET,
                         rng=random.Random(seed))
    desk.type({(tab, cell): text for cell, text in typed_protocol(desk.grid(tab), game, judge="Судья Анна").items()})


def _fills(book: Path, tab: str) -> dict[str, str]:
    """The cells of ``tab`` filled in a mark's colour (the template's grey header is not one)."""
    ws = openpyxl.load_workbook(book)[tab]
    marks = set(MARK_COLOURS.values())
    return {c.coordinate: rgb for row in ws.iter_rows() for c in row
            if c.fill is not None and c.fill.fill_type is not None and (rgb := c.fill.fgColor.rgb[-6:]) in marks}


def _listed(book: Path, language: str = "ru") -> list[tuple[str, str, str]]:
    """(tab, cell, message) of every row of the Problems tab."""
    ws = openpyxl.load_workbook(book)[{"ru": "Проверка", "en": "Problems"}[language]]
    return [(r[0].value, r[1].value, r[3].value) for r in ws.iter_rows(min_row=FIRST_ROW) if r[0].value]


def test_a_fresh_tournament_of_blank_tabs_has_no_problem(desk):
    report = sync_once(ExcelBackend(desk.path), out_dir=None)
    assert report.outcome.problems == ()


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_game_typed_into_another_tables_tab_is_one_problem_saying_whose_it_is(desk, language):
    if language == "en":
        row = next(i for i, r in enumerate(desk.grid("Турнир"), 1) if r and r[0] == "Язык")
        desk.type({("Турнир", f"B{row}"): "en"})
    table3 = seated_players(desk.grid("Тур 2 Стол 3"))
    _type_game(desk, "Тур 2 Стол 2", table3, round_no=2, table=2)  # table 3's game, into table 2's tab
    report = sync_once(ExcelBackend(desk.path), out_dir=None)
    got = [(p.sheet, p.cell, p.rule, p.severity.value) for p in report.outcome.problems]
    assert got == [("Тур 2 Стол 2", "B4", "protocol.other_table", "error")]  # the «Стол» of the header; was 30
    (listed,) = _listed(desk.path, language)
    assert listed == ("Тур 2 Стол 2", "B4", {
        "ru": "Похоже, это протокол Тур 2 Стол 3: здесь игроки, которых рассадка посадила за тот стол (10 из 10), "
              "а не за стол 2. Игра не засчитана, пока её не перенесут на свою вкладку или не исправят стол в шапке",
        "en": "This looks like the protocol of Тур 2 Стол 3: it holds the players the seating put at that table "
              "(10 of 10), not those of table 2. The game does not count until it is moved to its own tab or the "
              "header's table is fixed"}[language])
    assert _fills(desk.path, "Тур 2 Стол 3") == {}  # the blank tab its judge never touched: no red
    assert _fills(desk.path, "Тур 2 Стол 2") == {"B4": MARK_COLOURS["error"]}


def test_fixing_the_table_number_makes_the_game_count(desk):
    table3 = seated_players(desk.grid("Тур 2 Стол 3"))
    _type_game(desk, "Тур 2 Стол 2", table3, round_no=2, table=2)
    desk.type({("Тур 2 Стол 2", "B4"): "3"})  # the judge answers the message: this is table 3's game
    report = sync_once(ExcelBackend(desk.path), out_dir=None)
    # the tab's name still says table 2 (a warning); the blank «Тур 2 Стол 3» is no duplicate of it
    assert [(p.sheet, p.rule) for p in report.outcome.problems] == [("Тур 2 Стол 2", "protocol.header_mismatch")]
    assert [p.key for p in report.outcome.results.counted] == [("qualifying", 2, 3)]


def test_a_seating_replaced_by_hand_leaves_blank_tabs_out_of_the_games(desk):
    # the README invites editing the Seating tab: every round reshuffled, the blank tabs keep the old names
    grid = desk.grid("Рассадка")
    rng = random.Random(7)
    edits, new_round_1 = {}, []
    for round_no in range(1, 8):
        rows = [i for i, r in enumerate(grid) if r and r[1] == round_no]
        players = [p for i in rows for p in grid[i][3:13]]
        rng.shuffle(players)
        new_round_1 = new_round_1 or players[:10]
        for k, i in enumerate(rows):
            for s in range(10):
                edits[("Рассадка", f"{openpyxl.utils.get_column_letter(4 + s)}{i + 1}")] = players[10 * k + s]
    desk.type(edits)
    _type_game(desk, "Тур 1 Стол 1", new_round_1, round_no=1, table=1)  # typed with the new seating
    report = sync_once(ExcelBackend(desk.path), out_dir=None)
    # before: 280 problems — a seating mismatch at every seat of the 27 blank tabs, «играет в двух играх» against them
    assert report.outcome.problems == ()
    assert [p.key for p in report.outcome.results.counted] == [("qualifying", 1, 1)]
    for tab in desk.tabs():
        if tab.startswith("Тур ") and tab != "Тур 1 Стол 1":
            assert _fills(desk.path, tab) == {}, tab


# -- what «blank» means, cell by cell ------------------------------------------------------------
# The rulebook's tab with its roles and winner cleared is a blank pre-filled tab; each case types one
# thing a judge types.  Seat 3's cells: C12 role, D12 fouls, J12 comment; B5 judge, B6 winner, B7 checked by.
_CLEARED = {"B5": None, "B6": None}


def _blank_grid(edits: dict[str, object]) -> list[list]:
    from scoring.cells import parse_a1

    grid = [list(r) + [None] * (13 - len(r)) for r in protocol_grid(roles=[None] * 10)]
    for ref, value in {**_CLEARED, **edits}.items():
        r, c = parse_a1(ref)
        grid[r][c] = value
    return grid


@pytest.mark.parametrize("edits, blank", [
    pytest.param({}, True, id="pre-filled"),
    pytest.param({"B12": "Незнакомец"}, True, id="another_player_name"),  # a seating changed since the draw
    pytest.param({"E2": "Роль: пусто — мирный"}, True, id="the_draws_notes_beside_the_header"),
    pytest.param({"B5": "Судья Анна"}, False, id="judge"),
    pytest.param({"B6": "Мирные"}, False, id="winner"),
    pytest.param({"B6": "ничья"}, False, id="unreadable_winner"),
    pytest.param({"B7": "Судья Борис"}, False, id="checked_by"),
    pytest.param({"C12": "м"}, False, id="one_role"),
    pytest.param({"C12": "мафиозник"}, False, id="an_unreadable_role"),
    pytest.param({"D12": 0}, False, id="fouls_zero"),
    pytest.param({"D12": "-"}, False, id="a_dash"),
    pytest.param({"J12": "опоздал"}, False, id="comment"),
    pytest.param({"M12": "x"}, False, id="a_cell_right_of_the_table"),
])
def test_a_tab_is_blank_when_nothing_but_the_pre_filled_players_is_in_it(edits, blank):
    tabs = {"Турнир": [["Регламент", "gmo-2016"]], "Игроки": [["Игрок"]] + [[n] for n in TEN],
            "Тур 1 Стол 1": _blank_grid(edits)}
    parsed = parse_tournament(tabs, list(tabs), PRESET, read_settings(tabs))
    (protocol,) = [*parsed.tournament.protocols, *parsed.unplaced]
    assert protocol.blank is blank
