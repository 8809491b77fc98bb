"""Protocols stacked in one tab (issue 23, part 2): a tournament's rounds kept one tab per round,
each round's tables stacked, give exactly the standings of the one-tab-per-game workbook."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cells import column_letter, parse_a1

from sheets_sync.backends.base import Patch, Snapshot, TabWrite
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.backends.memory import MemoryBackend
from sheets_sync.cli import main
from sheets_sync.actions.draw import CommandRefused
from sheets_sync.actions.evening import add_evening
from sheets_sync.workbook.layout import EVENING_BLOCK_ROWS, EVENING_FIRST_BLOCK, EVENING_HEADER, evening_columns, evening_tab
from sheets_sync.loop.outcome import compute
from sheets_sync.presets import load_preset
from sheets_sync.loop.sync import sync_once
from tests.google_support import google_backend, norm_rows, upload_tabs
from tests.helpers import FIRST_ROW

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
    return json.loads((book.parent / f"{book.stem}.sheets-sync" / "standings.json").read_text(encoding="utf-8"))


def _tab(book: Path, title: str) -> list[tuple]:
    return [tuple(row) for row in openpyxl.load_workbook(book)[title].iter_rows(values_only=True)]


def _without_places(doc: dict) -> dict:
    """The document but where its problems are (a tab and cell: those differ by construction)."""
    rest = {k: v for k, v in doc.items() if k not in ("problems", "generated", "updated")}
    rest["problems"] = sorted((p["rule"], p["severity"]) for p in doc["problems"])
    return rest


def test_stacked_rounds_give_the_standings_of_a_tab_per_game(tmp_path, monkeypatch):
    # the progress says «Обновлено» to the minute: two syncs either side of a minute would differ
    monkeypatch.setenv("SHEETS_SYNC_NOW", "2026-12-01T14:05")
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


# the departures that make each winner plain: shot on night 1 (seat 5, who names three blacks), then …
_RED_WIN = {5: {"killed_night": 1}, 2: {"voted_day": 1}, 6: {"killed_night": 2}, 3: {"voted_day": 2},
            4: {"voted_day": 3}}
_BLACK_WIN = {5: {"killed_night": 1}, 6: {"voted_day": 1}, 7: {"killed_night": 2}, 8: {"voted_day": 2}}


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
                row[columns.index("best_move")] = "2 3 4"
            for key, value in (_RED_WIN if g.winner == "Мирные" else _BLACK_WIN).get(seat, {}).items():
                row[columns.index(key)] = value
            if seat == g.extra_seat:
                row[columns.index("extra_points")] = 0.5
    return rows


def club_snapshot(evenings: dict[str, list[list]]) -> Snapshot:
    tabs = {"Турнир": [["Название", "Клуб"], ["Регламент", CLUB_PRESET], ["Формат", "сезон"]],
            "Игроки": [["Игрок"], *([n] for n in CLUB)]}
    tabs.update(evenings)
    return Snapshot(tabs=tabs, order=tuple(tabs), source="memory")


NIGHT = date(2026, 12, 5)
EVENING = [Game(1, 1, 0), Game(1, 2, 10, winner="Мафия"), Game(2, 1, 3, extra_seat=2), Game(2, 2, 13),
           Game(3, 1, 1, winner="Мафия"), Game(3, 2, 12)]


def test_an_evening_tab_counts_each_block_as_a_game():
    outcome = compute(club_snapshot({"05.12.2026": evening_rows(NIGHT, EVENING)}))
    assert [p.message("en") for p in outcome.problems if p.severity.value == "error"] == []
    counted = outcome.results.counted
    assert [(p.round, p.table, p.date, p.game_id) for p in counted] == [
        (g.number, g.table, NIGHT, f"05.12.2026!A{EVENING_FIRST_BLOCK + 1 + i * EVENING_BLOCK_ROWS}")
        for i, g in enumerate(EVENING)]


# -- bad input of blocks (issue 23, part 7): one table of cases, each with the cell it must name ---------
SECOND_NIGHT = date(2026, 12, 12)
SECOND_EVENING = [Game(1, None, 4), Game(2, None, 9, winner="Мафия")]


def _top(block: int) -> int:
    """The 1-based row of block ``block``'s header line (0-based block) on a fresh evening tab."""
    return EVENING_FIRST_BLOCK + 1 + block * EVENING_BLOCK_ROWS


def _delete(rows: list[list], *numbers: int) -> None:
    for n in sorted(numbers, reverse=True):
        del rows[n - 1]


def _put(rows: list[list], cell: str, value: object) -> None:
    r, c = parse_a1(cell)
    while len(rows[r]) <= c:
        rows[r].append(None)
    rows[r][c] = value


def _retitle(tabs: dict, old: str, new: str) -> None:
    tabs[new] = tabs.pop(old)


def _columns() -> tuple[str, ...]:
    return evening_columns(load_preset(CLUB_PRESET)[0])


def _col(key: str) -> str:
    return column_letter(_columns().index(key))


@dataclass(frozen=True)
class Bad:
    name: str
    change: Callable[[dict], None]  # what the person did to the tabs (evening «05.12.2026» and «12.12.2026»)
    rule: str
    cell: str  # 'tab'!A1 the problem names
    counted: int  # of the 8 games: the others still count
    severity: str = "error"


_B2 = _top(1)  # block 2: game 1 at table 2 (its seats in rows _B2 + 2 … _B2 + 11)
BAD: tuple[Bad, ...] = (
    Bad("nine seat rows", lambda t: _delete(t["05.12.2026"], _B2 + 11),
        "protocol.seat_rows", f"'05.12.2026'!A{_B2 + 1}", 7),
    Bad("eleven seat rows", lambda t: t["05.12.2026"].insert(_B2 + 11, [11, CLUB[20], "мирный"]),
        "protocol.seat_rows", f"'05.12.2026'!A{_B2 + 12}", 7),
    Bad("a header line deleted", lambda t: _delete(t["05.12.2026"], _top(2)),
        "protocol.no_header", f"'05.12.2026'!A{_top(2)}", 7),
    Bad("a header line and the column headers deleted", lambda t: _delete(t["05.12.2026"], _top(2), _top(2) + 1),
        "protocol.no_header", f"'05.12.2026'!A{_top(2)}", 7),
    Bad("two blocks with one game number and table", lambda t: _put(t["05.12.2026"], f"D{_top(3)}", 1),
        "protocol.duplicate_evening", f"'05.12.2026'!B{_top(3)}", 6),
    Bad("… and the first of the two", lambda t: _put(t["05.12.2026"], f"D{_top(3)}", 1),
        "protocol.duplicate_evening", f"'05.12.2026'!B{_top(2)}", 6),
    Bad("two blocks with one game number, no tables", lambda t: _put(t["12.12.2026"], f"B{_top(1)}", 1),
        "protocol.duplicate_evening", f"'12.12.2026'!B{_top(1)}", 6),
    Bad("one player in two games of a time slot", lambda t: _put(t["05.12.2026"], f"{_col('player')}{_B2 + 4}", "Анна"),
        "player.two_games_evening", f"'05.12.2026'!B{_B2 + 4}", 6),
    Bad("the same player, the other game's cell", lambda t: _put(t["05.12.2026"], f"{_col('player')}{_B2 + 4}", "Анна"),
        "player.two_games_evening", f"'05.12.2026'!B{_top(0) + 2}", 6),
    Bad("a date without its year, the title has it", lambda t: _put(t["05.12.2026"], "B1", "5.12"),
        "evening.date_form", "'05.12.2026'!B1", 8, "warning"),
    Bad("a two-digit year", lambda t: _put(t["05.12.2026"], "B1", "05.12.26"),
        "evening.date_form", "'05.12.2026'!B1", 8, "warning"),
    Bad("a two-digit year in the title, no date cell",
        lambda t: (_put(t["05.12.2026"], "B1", None), _retitle(t, "05.12.2026", "05.12.26")),
        "evening.date_form", "'05.12.26'!B1", 8, "warning"),
    Bad("a date without a year anywhere", lambda t: (_put(t["05.12.2026"], "B1", "5.12"), _retitle(t, "05.12.2026", "5.12")),
        "evening.date_unreadable", "'5.12'!B1", 2),
    Bad("no such day", lambda t: _put(t["05.12.2026"], "B1", "31.02.2026"),
        "evening.date_unreadable", "'05.12.2026'!B1", 2),
    Bad("the date cell and the title disagree", lambda t: _put(t["05.12.2026"], "B1", "06.12.2026"),
        "evening.date_mismatch", "'05.12.2026'!B1", 8, "warning"),
    Bad("a ПУ line naming another seat than the one shot", lambda t: _summary(t["05.12.2026"], 0, 6, None),
        "protocol.summary_conflict", f"'05.12.2026'!B{_top(0) + 12}", 7),
    Bad("a ЛХ line other than the seat's own best move", lambda t: _summary(t["05.12.2026"], 0, None, "1 2 3"),
        "protocol.summary_conflict", f"'05.12.2026'!B{_top(0) + 12}", 7),
    Bad("a penalty without its reason", lambda t: _put(t["12.12.2026"], f"{_col('penalty')}{_top(0) + 3}", -1),
        "penalty.no_reason", f"'12.12.2026'!{_col('penalty')}{_top(0) + 3}", 8, "warning"),
)


def _club() -> dict[str, list[list]]:
    return {"05.12.2026": evening_rows(NIGHT, EVENING), "12.12.2026": evening_rows(SECOND_NIGHT, SECOND_EVENING)}


def _summary(rows: list[list], block: int, shot: int | None, best: str | None) -> None:
    """The closing line of club spreadsheets under a block's seats: «ПУ 5 ЛХ 2 3 4» (in its blank row)."""
    line = _top(block) + 12
    cells = [("ПУ", shot)] if shot is not None else []
    cells += [("ЛХ", best)] if best is not None else []
    for i, (label, value) in enumerate(cells):
        _put(rows, f"{column_letter(2 * i)}{line}", label)
        _put(rows, f"{column_letter(2 * i + 1)}{line}", value)


def test_the_closing_line_of_a_block_reads_as_the_seat_rows():
    """«ПУ 5 ЛХ 2 3 4» below the seats instead of the seat rows' own cells: the same standings."""
    plain = _club()
    lined = _club()
    rows = lined["05.12.2026"]
    for block in range(len(EVENING)):
        _put(rows, f"{_col('killed_night')}{_top(block) + 6}", None)
        _put(rows, f"{_col('best_move')}{_top(block) + 6}", None)
        _summary(rows, block, 5, "2 3 4")
    one, two = compute(club_snapshot(plain)), compute(club_snapshot(lined))
    assert [(str(p.location), p.rule) for p in two.problems] == []
    assert [(s.stats.player, s.stats.total) for s in two.results.overall] == \
           [(s.stats.player, s.stats.total) for s in one.results.overall]
    assert two.results.counted[0].seats[4].cells["best_move"].cell == f"D{_top(0) + 12}"


@pytest.mark.parametrize("case", BAD, ids=lambda c: c.name)
def test_bad_blocks_are_named_at_their_cell_and_the_other_games_count(case):
    tabs = _club()
    case.change(tabs)
    outcome = compute(club_snapshot(tabs))
    found = [p for p in outcome.problems if p.rule == case.rule]
    assert any(str(p.location) == case.cell and p.severity.value == case.severity for p in found), \
        [(str(p.location), p.rule) for p in outcome.problems]
    assert all(p.message("ru") != p.message("en") for p in found)  # both languages, filled in
    assert len(outcome.results.counted) == case.counted


def test_a_good_club_workbook_has_no_problem_of_blocks():
    outcome = compute(club_snapshot(_club()))
    assert [(str(p.location), p.rule) for p in outcome.problems] == []
    assert len(outcome.results.counted) == 8


# -- reordering blocks never changes the standings ------------------------------------------------------
# the evening with two mistakes in it: a seventh game whose player also sits at table 1 of game 3, and a
# game recorded twice (same number and table), so that the problems are compared too
MIXED = [*EVENING, Game(3, 3, 2, extra_seat=4), Game(2, 2, 13, winner="Мафия")]


def _standings(games: Sequence[Game]) -> tuple:
    outcome = compute(club_snapshot({"05.12.2026": evening_rows(NIGHT, games),
                                     "12.12.2026": evening_rows(SECOND_NIGHT, SECOND_EVENING)}))
    table = [(s.stats.player, s.stats.total, s.places, s.stats.games) for s in outcome.results.overall]
    problems = sorted((p.rule, p.severity.value) for p in outcome.problems)
    return table, problems, len(outcome.results.counted)


_ORDERED = _standings(MIXED)


@settings(max_examples=15, deadline=None)
@given(st.permutations(MIXED))
def test_reordering_blocks_never_changes_the_standings(games):
    assert _standings(games) == _ORDERED


# -- `sheets-sync evening` through the real command line, on an .xlsx and on a Google Sheet -------------
def _club_tabs() -> dict[str, list[list]]:
    return {"Турнир": [["Название", "Клуб"], ["Регламент", CLUB_PRESET], ["Формат", "сезон"], ["Язык", "ru"]],
            "Игроки": [["Игрок"], *([n] for n in CLUB)]}


def _club_xlsx(path: Path) -> Path:
    ExcelBackend(path).apply(Patch(writes=tuple(TabWrite(title=t, rows=tuple(map(tuple, rows)), owned=False)
                                                for t, rows in _club_tabs().items())), base=None)
    return path


def test_evening_command_adds_the_blocks_and_refuses_a_second_tab_for_the_day(tmp_path):
    book = _club_xlsx(tmp_path / "club.xlsx")
    result = CliRunner().invoke(main, ["evening", str(book), "--date", "2026-12-05", "--games", "6", "--tables", "2"])
    assert result.exit_code == 0, result.output
    assert "05.12.2026" in result.output
    again = CliRunner().invoke(main, ["evening", str(book), "--date", "2026-12-05", "--games", "2"])
    assert again.exit_code == 2 and "вечер 05.12.2026 уже есть" in again.output
    ws = openpyxl.load_workbook(book)["05.12.2026"]
    assert ws["A1"].value == "Дата" and ws["B1"].value == "05.12.2026"
    heads = [(ws.cell(top, 1).value, ws.cell(top, 2).value, ws.cell(top, 4).value)
             for top in (_top(i) for i in range(6))]
    assert heads == [("Игра", g, t) for g in (1, 2, 3) for t in (1, 2)]
    assert [b.id for b in ws.row_breaks.brk] == [_top(i) - 1 for i in range(1, 6)]  # a block a page
    assert ws.page_setup.orientation == "landscape" and ws.print_area == f"'05.12.2026'!$A$1:$L${_top(5) + 11}"
    player = _col("player")
    assert ws[f"{player}{_top(0) + 2}"].number_format == "@"  # a name stays text
    # the judges fill the six games in; the sync counts each block as a game
    filled = evening_rows(NIGHT, EVENING)
    for r, row in enumerate(filled, 1):
        for c, value in enumerate(row, 1):
            if value is not None and ws.cell(r, c).value != value:
                ws.cell(r, c, value)
    ws.parent.save(book)
    typed = [tuple(row) for row in openpyxl.load_workbook(book)["05.12.2026"].iter_rows(values_only=True)]
    doc = _sync(book)
    assert doc["games_counted"] == 6
    assert [tuple(row) for row in openpyxl.load_workbook(book)["05.12.2026"].iter_rows(values_only=True)] == typed


def test_evening_on_a_google_sheet_is_the_tab_of_the_xlsx(tmp_path, fake_server, sa_key):
    sid = upload_tabs(fake_server, _club_tabs(), title="Клуб")
    google = google_backend(fake_server, sa_key, sid)
    added = add_evening(google, day=NIGHT, games=3)
    book = _club_xlsx(tmp_path / "club.xlsx")
    add_evening(ExcelBackend(book), day=NIGHT, games=3)
    assert added.title == "05.12.2026" and added.games == ((1, None), (2, None), (3, None))
    assert norm_rows(google.read().tabs["05.12.2026"]) == norm_rows(ExcelBackend(book).read().tabs["05.12.2026"])
    with pytest.raises(CommandRefused, match="already in the workbook"):
        add_evening(google, day=NIGHT, games=1)


@pytest.mark.libreoffice
def test_an_evening_prints_one_block_a_page(tmp_path):
    from tests.test_libreoffice import LANDSCAPE, SOFFICE, _pages, _png, _print_tabs, _text

    if SOFFICE is None:
        pytest.skip("LibreOffice is not installed")
    book = _club_xlsx(tmp_path / "club.xlsx")
    add_evening(ExcelBackend(book), day=NIGHT, games=6, tables=2)
    wb = openpyxl.load_workbook(book)  # the first game recorded, as a judge fills the block in
    for r, row in enumerate(evening_rows(NIGHT, EVENING)[:_top(1) - 1], 1):
        for c, value in enumerate(row, 1):
            if value is not None:
                wb["05.12.2026"].cell(r, c, value)
    wb.save(book)
    pdf = _print_tabs(book, ["05.12.2026"], tmp_path / "pdf", tmp_path / "profile")["05.12.2026"]
    assert _pages(pdf) == [LANDSCAPE] * 6
    for page, (game, table) in enumerate(((g, t) for g in (1, 2, 3) for t in (1, 2)), 1):
        text = _text(pdf, page)
        assert re.search(rf"Игра\s+{game}\s+Стол\s+{table}\s+Победа", text), (page, text[:300])
        for word in ("Судья", "Проверил", "Игрок", "Роль", "Фолы", "Удалён", "ЛХ", "Доп.", "Штраф", "Причина штрафа",
                     "Комментарий"):
            assert word in text, (page, word)
    assert "Анна" in _text(pdf, 1) and "Анна" not in _text(pdf, 2)
    _png(pdf, "evening-tab.png")


# -- confirmation, the log and disputes per block ------------------------------------------------------
def _checked(block: int) -> str:
    return f"{column_letter(EVENING_HEADER['checked_by'] + 1)}{_top(block)}"


def test_confirmation_and_the_log_are_per_block():
    tabs = {**_club_tabs(), "05.12.2026": evening_rows(NIGHT, EVENING)}
    memory = MemoryBackend({t: [list(r) for r in rows] for t, rows in tabs.items()})
    memory.set("05.12.2026", _checked(0), "Судья Пётр")  # a second judge confirms game 1 at table 1
    first = sync_once(memory, out_dir=None).outcome
    block_1, block_2 = (p.game_id for p in first.results.tournament.protocols[:2])
    assert set(first.remember) >= {block_1} and first.remember[block_1].fingerprint
    extra = f"{_col('extra_points')}{_top(1) + 3}"
    memory.set("05.12.2026", extra, 0.5)  # an edit of the block below: block 1 stays confirmed
    second = sync_once(memory, out_dir=None).outcome
    assert block_1 not in second.results.tournament.edited_after_confirmation
    assert [(c.cell, c.confirmed) for c in second.changes] == [(extra, False)]
    memory.set("05.12.2026", f"{_col('fouls')}{_top(0) + 3}", 1)  # an edit of block 1 itself
    third = sync_once(memory, out_dir=None).outcome
    assert third.results.tournament.edited_after_confirmation == {block_1}
    assert [c.confirmed for c in third.changes] == [True]


@pytest.mark.parametrize("game", ["05.12.2026 2 1", "05.12.2026 игра 2 стол 1", "05.12.2026!A33"])
def test_a_dispute_names_one_block_of_an_evening(game):
    tabs = {**_club_tabs(), "05.12.2026": evening_rows(NIGHT, EVENING),
            "Протесты": [["Игра", "Подал", "Причина", "Статус"], [game, "Вера", "ЛХ", "принят"]]}
    outcome = compute(club_snapshot(tabs))
    assert [p.rule for p in outcome.problems] == []
    assert outcome.results.cancelled == {f"05.12.2026!A{_top(2)}"}
    assert len(outcome.results.counted) == len(EVENING) - 1


# -- garbage below a protocol (issue 34 §11): one warning at its first cell, never silence, never thousands ---
GARBAGE = 10_000


def _garbage(first_row: int, column: int = 0) -> dict[tuple[int, int], object]:
    """(0-based row, column) -> text: ten thousand non-empty rows pasted from ``first_row`` on."""
    return {(first_row + i, column + i % 3): f"мусор {i}" for i in range(GARBAGE)}


def _with(rows: list[list], cells: dict[tuple[int, int], object]) -> list[list]:
    rows = [list(r) for r in rows]
    for (r, c), value in cells.items():
        while len(rows) <= r:
            rows.append([])
        rows[r] += [None] * (c + 1 - len(rows[r]))
        rows[r][c] = value
    return rows


def test_garbage_below_a_single_game_tab_is_one_warning_in_the_xlsx(tmp_path):
    from tests.judge import write_xlsx
    from tests.rulebook import TAB, workbook
    from tests.test_marks import WARNING, _fill

    tabs = {t: [list(r) for r in rows] for t, rows in workbook().read().tabs.items()}
    tabs[TAB] = _with(tabs[TAB], _garbage(len(tabs[TAB]) + 2))  # from A22: a blank row under seat 10, then a paste
    book = write_xlsx(tmp_path / "cup.xlsx", tabs)
    report = sync_once(ExcelBackend(book), out_dir=None)
    got = [(p.sheet, p.cell, p.rule, p.severity.value, p.message("ru"), p.message("en")) for p in report.outcome.problems]
    assert got == [(TAB, "A22", "protocol.unread_rows", "warning",
                    f"Строки 22–{21 + GARBAGE} под протоколом (непустых: {GARBAGE}) не читаются как часть протокола "
                    "и не учтены; если они попали сюда случайно, удалите их",
                    f"Rows 22–{21 + GARBAGE} below the protocol ({GARBAGE} not empty) are not read as part of it and "
                    "count for nothing; if they got here by mistake, delete them")]
    assert [p.sheet for p in report.outcome.results.counted] == [TAB]  # the game itself counts
    ws = openpyxl.load_workbook(book)[TAB]
    assert _fill(ws["A22"]) == WARNING and _fill(ws["B23"]) is None  # one mark, at the first cell
    listed = [r[1].value for r in openpyxl.load_workbook(book)["Проверка"].iter_rows(min_row=FIRST_ROW) if r[0].value]
    assert listed == ["A22"]


def test_garbage_that_reads_as_more_seats_is_the_seat_rows_error_and_one_warning_for_the_rest():
    from tests.rulebook import TAB, run, workbook

    backend = workbook()
    for (r, c), value in _garbage(21, column=1).items():  # B22 a player, C23 a role: an 11th and 12th seat
        backend.set(TAB, f"{column_letter(c)}{r + 1}", value)
    got = [(p.cell, p.rule, p.severity.value) for p in run(backend) if p.sheet == TAB]
    assert got == [("A22", "protocol.seat_rows", "error"), ("D24", "protocol.unread_rows", "warning")]


@pytest.mark.parametrize("where", ["below_the_last_block", "between_two_blocks"])
def test_garbage_in_an_evening_tab_is_one_warning_and_every_game_counts(where):
    rows = evening_rows(NIGHT, EVENING)
    if where == "below_the_last_block":
        top = len(rows) + 1
        rows = _with(rows, _garbage(top))
    else:  # pasted over the blank rows between blocks 2 and 3 (a 10,000-row paste moves the rest down)
        top = _top(2) - 2  # 0-based: the row above block 3's header line
        rows = rows[:top] + [[f"мусор {i}"] for i in range(GARBAGE)] + rows[top:]
    outcome = compute(club_snapshot({"05.12.2026": rows}))
    got = [(str(p.location), p.rule) for p in outcome.problems]
    assert got == [(f"'05.12.2026'!A{top + 1}", "protocol.unread_rows")]
    assert len(outcome.results.counted) == len(EVENING)
