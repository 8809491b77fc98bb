"""End to end on a real .xlsx: init from CSV, sync, problems, human edits kept, standings.json."""

import json
from decimal import Decimal as D
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner
from openpyxl.comments import Comment
from openpyxl.styles import Font, PatternFill

from scoring.draw import evaluate
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.cli import main
from sheets_sync.loop.sync import sync_once
from sheets_sync.workbook.tournament_setup import CsvError, read_players_csv
from tests.helpers import FIRST_ROW, table

NAMES = [f"Игрок {i:02d}" for i in range(1, 41)]


def _values(path: Path, skip=("Итоги", "Отбор", "Полуфинал", "Финал", "Статистика", "Проверка", "_sheets_sync", "Жеребьёвка", "Журнал")):
    wb = openpyxl.load_workbook(path)
    return {ws.title: [[c.value for c in row] for row in ws.iter_rows()] for ws in wb.worksheets if ws.title not in skip}


@pytest.mark.parametrize("content,encoding", [
    ("\ufeffИгрок;Клуб;Город;Статус;Пропуск\n" + "\n".join(f"{n};Клуб {i % 5};Город;;" for i, n in enumerate(NAMES)), "utf-8"),
    ("Player,Club,City,Status,Excused round\n" + "\n".join(f"{n},Club {i % 5},,," for i, n in enumerate(NAMES)), "utf-8"),
    ("Ник;Клуб\n" + "\n".join(f"{n};К" for n in NAMES), "cp1251"),
])
def test_players_csv_dialects(tmp_path, content, encoding):
    path = tmp_path / "players.csv"
    path.write_bytes(content.encode(encoding))
    players = read_players_csv(path)
    assert [p.nickname for p in players] == NAMES


def test_players_csv_errors_name_the_line(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("Игрок;Статус\nA;\nA;\n", encoding="utf-8")
    with pytest.raises(CsvError, match=r"listed more than once .*: 'A' \(lines 2, 3\)"):
        read_players_csv(path)
    path.write_text("Имя;Статус\nA;\n", encoding="utf-8")
    with pytest.raises(CsvError, match="no 'Игрок' / 'Player' column"):
        read_players_csv(path)


def test_init_then_sync_via_cli(tmp_path):
    csv_path = tmp_path / "players.csv"
    csv_path.write_text("Игрок;Клуб\n" + "\n".join(f"{n};К{i % 4}" for i, n in enumerate(NAMES)), encoding="utf-8-sig")
    book = tmp_path / "cup.xlsx"
    runner = CliRunner()
    result = runner.invoke(main, ["init", str(book), "--players", str(csv_path), "--name", "Кубок"])
    assert result.exit_code == 0, result.output
    wb = openpyxl.load_workbook(book)
    protocol_tabs = [t for t in wb.sheetnames if t.startswith("Тур ")]
    assert len(protocol_tabs) == 28  # 40 players, 4 tables, 7 rounds
    for fixed in ("Турнир", "Игроки", "Рассадка", "Штрафы", "Итоги", "Проверка"):
        assert fixed in wb.sheetnames
    ws = wb["Тур 1 Стол 1"]
    assert ws["A9"].value == "№" and ws["B10"].value in NAMES
    assert ws.freeze_panes == "A10"
    lists = [dv.formula1 for dv in ws.data_validations.dataValidation]
    assert '"мирный,шериф,мафия,дон"' in lists and '"Мирные,Мафия"' in lists
    # the seating tab holds every player once per round
    seating = [[c.value for c in row] for row in wb["Рассадка"].iter_rows(min_row=2)]
    for r in range(1, 8):
        seated = [n for row in seating if row[1] == r for n in row[3:13]]
        assert sorted(seated) == sorted(NAMES)
    # ... with club mates as far apart as four tables allow (10 players in each of four clubs)
    rounds = [[tuple(row[3:13]) for row in seating if row[1] == r] for r in range(1, 8)]
    report = evaluate(NAMES, rounds, {n: f"К{i % 4}" for i, n in enumerate(NAMES)})
    assert report.same_club_meetings == report.same_club_minimum
    result = runner.invoke(main, ["sync", str(book)])
    assert result.exit_code == 0, result.output
    doc = json.loads((tmp_path / "cup.sheets-sync" / "standings.json").read_text(encoding="utf-8"))
    assert len(doc["standings"]) == 40 and doc["games_counted"] == 0


@pytest.mark.slow
def test_draw_via_cli_reports_in_the_tournament_language(tmp_path):
    csv_path = tmp_path / "players.csv"
    csv_path.write_text("Игрок\n" + "\n".join(NAMES), encoding="utf-8")
    book = tmp_path / "cup.xlsx"
    runner = CliRunner()
    assert runner.invoke(main, ["init", str(book), "--players", str(csv_path)]).exit_code == 0
    result = runner.invoke(main, ["draw", str(book), "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "Жеребьёвка: 40 игроков" in result.output and "нижняя граница 2604" in result.output
    result = runner.invoke(main, ["draw", str(book), "--seed", "3", "--language", "en"])
    assert result.exit_code == 0, result.output
    assert "Draw: 40 players" in result.output and "lower bound 2604" in result.output
    assert "Жеребьёвка" in openpyxl.load_workbook(book, read_only=True).sheetnames


def test_existing_workbook_is_not_overwritten_by_init(tmp_path, example):
    csv_path = tmp_path / "p.csv"
    csv_path.write_text("Игрок\nA\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["init", str(example), "--players", str(csv_path)])
    assert result.exit_code == 2 and "уже существует" in result.output  # init speaks the tournament's language


def test_example_sync_counts_every_game_and_writes_json(example):
    report = sync_once(ExcelBackend(example), out_dir=example.parent)
    assert len(report.outcome.results.counted) == 38
    assert report.errors == 0
    doc = json.loads((example.parent / "standings.json").read_text(encoding="utf-8"))
    first = doc["standings"][0]
    for key in ("place", "places", "player", "club", "total", "stages", "games", "wins", "wins_as", "extra_points",
                "best_move_points", "penalties", "shot_first", "eligible", "tiebreak"):
        assert key in first
    assert set(first["stages"]) == {"qualifying", "semifinal", "final"}
    assert set(first["wins_as"]) == {"don", "sheriff", "mafia", "civilian"}
    assert isinstance(first["total"], str) and D(first["total"]) == report.outcome.results.overall[0].stats.total
    # finalists first
    assert [s["group"] for s in doc["standings"][:10]] == ["final"] * 10
    # the late semifinalist and the unannounced absence carry their penalties
    penalised = {s["player"]: s["tournament_penalties"] for s in doc["standings"] if s["tournament_penalties"] != "0.00"}
    assert "-2.00" in penalised.values() and "-0.25" in penalised.values()


def test_second_sync_writes_nothing(example):
    backend = ExcelBackend(example)
    sync_once(backend, out_dir=None)
    before = example.read_bytes()
    report = sync_once(backend, out_dir=None)
    assert report.patch.empty and not report.written
    assert example.read_bytes() == before


def test_broken_protocols_are_listed_and_left_out(example):
    wb = openpyxl.load_workbook(example)
    wb["Тур 1 Стол 1"]["C10"] = wb["Тур 1 Стол 1"]["C11"] = "дон"  # two dons at least: wrong composition
    wb["Тур 2 Стол 1"]["B11"] = "Никто"  # unknown player
    wb["Тур 3 Стол 1"]["I12"] = "много"  # unreadable extra points
    wb.save(example)
    report = sync_once(ExcelBackend(example), out_dir=None)
    errors = {(p.sheet, p.cell, p.rule) for p in report.outcome.problems if p.severity.value == "error"}
    assert ("Тур 2 Стол 1", "B11", "player.unknown") in errors
    assert ("Тур 3 Стол 1", "I12", "read.number") in errors
    assert any(s == "Тур 1 Стол 1" and r == "roles.composition" for s, _, r in errors)
    counted = {p.sheet for p in report.outcome.results.counted}
    assert not {"Тур 1 Стол 1", "Тур 2 Стол 1", "Тур 3 Стол 1"} & counted
    assert len(counted) == 35  # the rest still counts
    problems = openpyxl.load_workbook(example)["Проверка"]
    listed = {(row[0].value, row[1].value) for row in problems.iter_rows(min_row=FIRST_ROW)}
    assert ("Тур 2 Стол 1", "B11") in listed and ("Тур 3 Стол 1", "I12") in listed
    link = next(row[1] for row in problems.iter_rows(min_row=FIRST_ROW) if row[1].value == "B11")
    assert link.hyperlink is not None and link.hyperlink.location == "'Тур 2 Стол 1'!B11"


def test_human_edits_survive_many_syncs(example):
    wb = openpyxl.load_workbook(example)
    ws = wb["Игроки"]
    ws["B2"].font = Font(bold=True, color="FF0000")
    ws["C3"].comment = Comment("приехал поездом", "Организатор")
    wb["Тур 4 Стол 2"]["J12"] = "спорный момент"
    wb["Тур 4 Стол 2"]["J13"].fill = PatternFill(fill_type="solid", start_color="00B0F0", end_color="00B0F0")
    wb["Тур 4 Стол 2"].column_dimensions["J"].width = 40
    wb.save(example)
    before = _values(example)
    backend = ExcelBackend(example)
    for _ in range(3):
        sync_once(backend, out_dir=None)
    after = _values(example)
    assert after == before  # every value in the tabs people type into, cell by cell
    wb = openpyxl.load_workbook(example)
    assert wb["Игроки"]["B2"].font.bold and wb["Игроки"]["B2"].font.color.rgb == "00FF0000"
    assert wb["Игроки"]["C3"].comment.text == "приехал поездом"
    assert wb["Тур 4 Стол 2"]["J13"].fill.start_color.rgb == "0000B0F0"
    assert wb["Тур 4 Стол 2"].column_dimensions["J"].width == 40
    assert wb["Тур 1 Стол 1"].data_validations.dataValidation  # dropdowns kept


def test_hostile_nickname_stays_text(example):
    wb = openpyxl.load_workbook(example)
    players = wb["Игроки"]
    old = players["A2"].value
    players["A2"].value = '=HYPERLINK("http://x")'
    players["A2"].data_type = "s"
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                if c.value == old and ws.title != "Игроки":
                    c.value = '=HYPERLINK("http://x")'
                    c.data_type = "s"
    wb.save(example)
    sync_once(ExcelBackend(example), out_dir=example.parent)
    wb = openpyxl.load_workbook(example)
    cells = [c for row in wb["Итоги"].iter_rows() for c in row if c.value == '=HYPERLINK("http://x")']
    assert cells and all(c.data_type == "s" for c in cells)


def test_english_tournament_end_to_end(tmp_path):
    """language = en: English tabs, labels and words are written and read back."""
    import random

    from scoring.simulate import simulate_game
    from sheets_sync.workbook.layout import protocol_tab
    from sheets_sync.presets import load_preset

    csv_path = tmp_path / "players.csv"
    csv_path.write_text("Player,Club\n" + "\n".join(f"P{i:02d},C{i % 3}" for i in range(30)), encoding="utf-8")
    book = tmp_path / "cup.xlsx"
    assert CliRunner().invoke(main, ["init", str(book), "--players", str(csv_path), "--language", "en"]).exit_code == 0
    wb = openpyxl.load_workbook(book)
    assert {"Tournament", "Players", "Seating", "Penalties", "Round 1 Table 1", "Standings", "Problems"} <= set(wb.sheetnames)
    seated = [wb["Round 1 Table 2"].cell(row=r, column=2).value for r in range(10, 20)]
    preset, _ = load_preset("gmo-2016")
    game = simulate_game(seated, stage="qualifying", round_no=1, table=2, sheet="Round 1 Table 2", preset=preset,
                         rng=random.Random(3))
    tab = protocol_tab(title="Round 1 Table 2", stage_name="Qualifying", round_no=1, table=2, players=seated,
                       language="en", preset=preset, protocol=game)
    ws = wb["Round 1 Table 2"]
    for r, row in enumerate(tab.rows, start=1):
        for c, value in enumerate(row, start=1):
            ws.cell(row=r, column=c).value = value
    wb.save(book)
    report = sync_once(ExcelBackend(book), out_dir=tmp_path)
    assert len(report.outcome.results.counted) == 1 and report.errors == 0
    assert report.outcome.language == "en"
    problems = openpyxl.load_workbook(book)["Problems"]
    assert table(problems.values)[0][0] == "Tab"


def test_a_shorter_owned_tab_keeps_no_link_of_its_longer_self(tmp_path):
    """An owned tab rewritten shorter (a fixed protocol: fewer rows on Проверка) leaves neither
    the old rows' values nor their links behind (a link left on a cleared cell showed its target)."""
    from sheets_sync.backends.base import Link, Patch, TabWrite

    path = tmp_path / "links.xlsx"
    backend = ExcelBackend(path)
    long = tuple((f"row {i}", Link(text=f"B{i}", sheet="Игра", cell=f"B{i}")) for i in range(1, 5))
    backend.apply(Patch(writes=(TabWrite(title="Игра", rows=(("x",),), owned=False),
                                TabWrite(title="Проверка", rows=long))), base=None)
    first = backend.read()
    backend.apply(Patch(writes=(TabWrite(title="Проверка", rows=long[:1]),)), base=first)
    assert backend.read().tabs["Проверка"] == (("row 1", "B1"),)
    ws = openpyxl.load_workbook(path)["Проверка"]
    assert [c.coordinate for row in ws.iter_rows() for c in row if c.hyperlink] == ["B1"]
