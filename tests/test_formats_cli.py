"""Formats that do not divide by ten, through the real command line (issue 13, §4).

``init --games/--rounds/--tables`` plans the qualifying stage; numbers that do not fit are
refused with the nearest formats that do, each as the exact command to run (and running one
works); reserves fill the seats of a table more than the players need; the format lands on
the Tournament tab, where ``draw`` finds it — and a changed ``отбор.игр`` makes ``draw``
re-plan the protocol tabs, removing blank ones and keeping any with typed content.
"""

from __future__ import annotations

import shlex
from collections import Counter
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from scoring.draw.formats import DrawFormatError, Format, nearest_formats, plan_format
from sheets_sync.cli import EXIT_USER_ERROR, main
from sheets_sync.render.tabs import TOP_ROWS
from tests.helpers import FIRST_ROW


def players_csv(folder: Path, n: int, *, reserves: int = 0) -> Path:
    path = folder / "players.csv"
    rows = ["Игрок;Клуб;Статус"] + [f"Игрок {i:02d};Клуб {i % 5};" for i in range(1, n + 1)]
    rows += [f"Резерв {i};;запасной" for i in range(1, reserves + 1)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def cli(*args: str, code: int = 0):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result


def tabs(book: Path) -> list[str]:
    return openpyxl.load_workbook(book, read_only=True).sheetnames


def _tab(wb, *titles):
    return next(wb[t] for t in titles if t in wb.sheetnames)


def tournament_rows(book: Path) -> dict[str, object]:
    ws = _tab(openpyxl.load_workbook(book), "Турнир", "Tournament")
    return {str(r[0].value): r[1].value for r in ws.iter_rows() if r[0].value}


def seating(book: Path) -> list[tuple[int, int, list[str]]]:
    ws = _tab(openpyxl.load_workbook(book), "Рассадка", "Seating")
    return [(r[1], r[2], [c for c in r[3:13]]) for r in ws.iter_rows(min_row=2, values_only=True) if r[0]]


def protocol_tabs(book: Path) -> list[str]:
    return [t for t in tabs(book) if t.startswith("Тур ")]


# -- the pure planner ------------------------------------------------------------------------------------------
def test_plan_format_with_rests_reserves_and_refusals():
    assert plan_format(36, games=5, tables=3) == Format(36, 3, 6)
    assert plan_format(36, games=5, tables=3).resting == 6
    assert plan_format(39, games=7, tables=4) == Format(39, 4, 7, reserves=1)  # one reserve seated each round
    assert plan_format(45, rounds=9) == Format(45, 4, 9) and plan_format(45, rounds=9).games == 8
    with pytest.raises(DrawFormatError) as refused:
        plan_format(36, rounds=7)
    err = refused.value
    assert "5.83 games per player" in str(err) and "5,83 игры на человека" in err.message("ru")
    found = {(f.tables, f.games, f.reserves) for f in err.formats}
    assert {(3, 5, 0), (3, 10, 0), (4, 7, 4)} <= found  # fewer and more games, rests; reserves at 4 tables
    for f in err.formats:  # every suggestion works
        assert plan_format(36, games=f.games, tables=f.tables) == f
    with pytest.raises(DrawFormatError, match="more than one a table"):
        plan_format(30, games=7, tables=4)
    with pytest.raises(DrawFormatError, match="disagree"):
        plan_format(36, games=5, rounds=7, tables=3)


def test_nearest_formats_are_diverse_and_nearest_first():
    formats = nearest_formats(45, tables=4, games=7)
    assert formats[0] == Format(45, 4, 9)  # 8 games: one more, same tables
    assert any(f.reserves for f in formats) and any(f.tables == 3 for f in formats)
    assert Format(36, 3, 6).describe("en") == "36 players, 3 tables, 6 rounds, 5 games each, 6 rest each round"
    assert Format(39, 4, 7, 1).describe("ru") == ("39 игроков, 4 стола, 7 туров, у каждого 7 игр, "
                                                  "в каждом туре за столами 1 запасной")


# -- init -------------------------------------------------------------------------------------------------------
def _commands(output: str) -> list[list[str]]:
    return [shlex.split(line.strip())[1:] for line in output.splitlines() if line.strip().startswith("sheets-sync init")]


@pytest.mark.parametrize("language, heading", [("ru", "Ближайшие форматы, которые получаются"),
                                               ("en", "The nearest formats that work")])
def test_init_that_does_not_fit_lists_the_nearest_formats_as_commands_that_work(tmp_path, monkeypatch, language,
                                                                                heading):
    monkeypatch.chdir(tmp_path)
    players_csv(tmp_path, 36)
    result = cli("init", "cup.xlsx", "--players", "players.csv", "--name", "Кубок Рейна", "--language", language,
                 code=EXIT_USER_ERROR)
    assert heading in result.output
    assert ("5.83 games per player" if language == "en" else "5,83 игры на человека") in result.output
    assert not (tmp_path / "cup.xlsx").exists()
    commands = _commands(result.output)
    assert len(commands) == 4
    assert ["init", "cup.xlsx", "--players", "players.csv", "--name", "Кубок Рейна", "--language", language,
            "--games", "5"] in commands
    assert ["init", "cup.xlsx", "--players", "players.csv", "--name", "Кубок Рейна", "--language", language,
            "--games", "7", "--tables", "4"] in commands
    # the one with players resting: run it exactly as printed
    cli(*["init", "cup.xlsx", "--players", "players.csv", "--name", "Кубок Рейна", "--language", language,
          "--games", "5"])
    assert len(protocol_tabs(tmp_path / "cup.xlsx") if language == "ru" else
               [t for t in tabs(tmp_path / "cup.xlsx") if t.startswith("Round ")]) == 18  # 6 rounds × 3 tables
    games = Counter(p for _, _, ps in seating(tmp_path / "cup.xlsx") for p in ps)
    assert len(games) == 36 and set(games.values()) == {5}


def test_init_games_and_tables_with_rests_write_the_format_on_the_tournament_tab(tmp_path):
    csv = players_csv(tmp_path, 36)
    book = tmp_path / "cup.xlsx"
    result = cli("init", book, "--players", csv, "--games", "5", "--tables", "3")
    assert "36 игроков, 3 стола, 6 туров, у каждого 5 игр, в каждом туре отдыхают 6 игроков" in result.output
    assert tournament_rows(book)["отбор.туров"] == 6
    assert "отбор.столов" not in tournament_rows(book)  # 3 is what 36 players fill anyway
    assert len(protocol_tabs(book)) == 18
    cli("sync", book)  # the workbook reads back clean
    problems = openpyxl.load_workbook(book)["Проверка"]
    assert problems.max_row <= TOP_ROWS or not any(r[0] for r in problems.iter_rows(min_row=FIRST_ROW, values_only=True))


def test_init_rounds_is_the_other_way_to_say_it_and_a_contradiction_is_refused(tmp_path):
    csv = players_csv(tmp_path, 45)
    book = tmp_path / "cup.xlsx"
    result = cli("init", book, "--players", csv, "--rounds", "9", "--language", "en")
    assert "45 players, 4 tables, 9 rounds, 8 games each, 5 rest each round" in result.output
    assert tournament_rows(book)["qualifying.rounds"] == 9
    result = cli("init", book, "--players", csv, "--rounds", "9", "--games", "16", "--force", "--language", "en",
                 code=EXIT_USER_ERROR)
    assert "16 games and 9 rounds disagree: 45 players, 4 tables, 18 rounds, 16 games each" in result.output
    suggested = _commands(result.output)
    assert suggested and all("--rounds" not in c and c[-2:] != ["--games", "16"] for c in suggested)
    assert ["init", str(book), "--players", str(csv), "--language", "en", "--force", "--games", "16",
            "--tables", "5"] in suggested


def test_init_seats_reserves_at_a_table_more_than_the_players_fill(tmp_path):
    csv = players_csv(tmp_path, 36, reserves=1)
    book = tmp_path / "cup.xlsx"
    result = cli("init", book, "--players", csv, "--games", "7", "--tables", "4")
    assert "в каждом туре за столами 4 запасных" in result.output
    assert "Запасной 1, Запасной 2, Запасной 3" in result.output  # the CSV had one reserve: three are added
    rows = tournament_rows(book)
    assert rows["отбор.столов"] == 4 and "отбор.туров" not in rows  # 7 rounds: the preset's
    seated = seating(book)
    assert len(seated) == 28 and all(None not in ps for _, _, ps in seated)  # every seat filled, every round
    games = Counter(p for _, _, ps in seated for p in ps)
    assert set(games.values()) == {7} and {"Резерв 1", "Запасной 1", "Запасной 2", "Запасной 3"} <= set(games)
    players = openpyxl.load_workbook(book)["Игроки"]
    statuses = {r[0]: r[3] for r in players.iter_rows(min_row=2, values_only=True)}
    assert statuses["Запасной 3"] == "запасной"
    # reserves are never ranked, and the sync finds nothing wrong with them in the seating
    cli("sync", book)
    standings = [r[1] for r in openpyxl.load_workbook(book)["Итоги"].iter_rows(min_row=FIRST_ROW, values_only=True)]
    assert "Резерв 1" not in standings and "Игрок 01" in standings


# -- draw re-plans ------------------------------------------------------------------------------------------------
def _set_row(book: Path, label: str, value, *, tab: str = "Турнир") -> None:
    wb = openpyxl.load_workbook(book)
    ws = wb[tab]
    for row in ws.iter_rows():
        if row[0].value == label:
            row[1].value = value
            break
    else:
        ws.append([label, value])
    wb.save(book)


def _type(book: Path, tab: str, cell: str, value) -> None:
    wb = openpyxl.load_workbook(book)
    wb[tab][cell] = value
    wb.save(book)


def test_draw_replans_the_protocol_tabs_after_the_tournament_tab_changes_the_games(tmp_path):
    csv = players_csv(tmp_path, 30)
    book = tmp_path / "cup.xlsx"
    cli("init", book, "--players", csv, "--games", "4")
    assert len(protocol_tabs(book)) == 12
    # more games: draw adds the tabs
    _set_row(book, "отбор.игр", 6)
    result = cli("draw", book, "--seed", "2", "--time-limit", "2")
    assert "30 игроков, 3 стола, 6 туров, у каждого 6 игр" in result.output
    assert len(protocol_tabs(book)) == 18 and "Тур 6 Стол 3" in tabs(book)
    # a judge starts typing in a game of round 6; then the organizer goes back to 4 games
    _type(book, "Тур 6 Стол 2", "D12", 2)  # fouls of seat 3
    _set_row(book, "отбор.игр", 4)
    refused = cli("draw", book, "--seed", "2", "--time-limit", "2", code=EXIT_USER_ERROR)
    assert "протоколы уже заполняются (Тур 6 Стол 2)" in refused.output
    result = cli("draw", book, "--seed", "2", "--time-limit", "2", "--force")
    names = tabs(book)
    assert [t for t in protocol_tabs(book) if t.startswith(("Тур 5", "Тур 6"))] == ["Тур 6 Стол 2"]
    assert "Тур 6 Стол 2" in result.output and "удалите их вручную" in result.output
    assert "удалены пустые вкладки протоколов" in result.output and "Тур 5 Стол 1" in result.output
    assert openpyxl.load_workbook(book)["Тур 6 Стол 2"]["D12"].value == 2  # typed content is never lost
    assert {"Тур 4 Стол 3", "Турнир", "Игроки", "Рассадка"} <= set(names)
    assert {r for r, _, _ in seating(book)} == {1, 2, 3, 4}


def test_draw_refuses_a_format_that_does_not_fit_with_tournament_tab_settings(tmp_path):
    csv = players_csv(tmp_path, 30)
    book = tmp_path / "cup.xlsx"
    cli("init", book, "--players", csv, "--games", "4", "--language", "en")
    _players = openpyxl.load_workbook(book)
    ws = _players["Players"]
    for i in range(1, 7):
        ws.append([f"Late {i}", None, None, None, None])  # 36 players now: 4 rounds at 3 tables do not fit
    _players.save(book)
    result = cli("draw", book, code=EXIT_USER_ERROR)
    assert result.output.strip().startswith("not drawn: 36 players at 3 tables over 4 rounds")
    assert "The nearest formats that work (the Tournament tab):" in result.output
    assert "qualifying.rounds = 6" in result.output  # 5 games each, 6 resting
    assert "qualifying.tables = 4" in result.output  # 4 games each with 4 reserves
    # Russian, from --language
    result = cli("draw", book, "--language", "ru", code=EXIT_USER_ERROR)
    assert result.output.strip().startswith("жеребьёвка не проведена: 36 игроков за 3 столами за 4 тура")
    assert "отбор.туров = 6" in result.output
    # at 4 tables with no reserves registered the draw says what to add
    _set_row(book, "qualifying.tables", 4, tab="Tournament")
    result = cli("draw", book, code=EXIT_USER_ERROR)
    assert "the Players tab has 0 reserves, 4 are needed" in result.output
