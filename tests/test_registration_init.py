"""``sheets-sync init --registration`` (issue 45): a tournament whose players apply — the Players tab with
«Заявка», «Подана», «Прибыл», the Tournament tab with the places and the registration's times — written
to an .xlsx and read back as the sync reads it, before and after the organizer fills it in."""

from __future__ import annotations

from datetime import datetime

import openpyxl
from click.testing import CliRunner

from scoring.model import ApplicationState
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.cli import EXIT_USER_ERROR, main
from sheets_sync.loop.outcome import compute


def _cli(*args: str, code: int = 0):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result


def test_init_registration_writes_the_tabs_the_registration_needs_and_reads_them_back(tmp_path):
    book = tmp_path / "cup.xlsx"
    result = _cli("init", book, "--registration", "--places", "40", "--name", "Кубок", "--preset", "gmo-2016")
    assert "мест 40" in result.output
    wb = openpyxl.load_workbook(book)
    assert [c.value for c in wb["Игроки"][1]][-3:] == ["Заявка", "Подана", "Прибыл"]
    labels = [row[0].value for row in wb["Турнир"].iter_rows()]
    assert {"Мест", "Регистрация до", "Начало", "Жеребьёвка", "Часовой пояс"} <= set(labels)
    assert "Рассадка" in wb.sheetnames and not [t for t in wb.sheetnames if t.startswith("Тур ")]
    empty = compute(ExcelBackend(str(book)).read())
    assert empty.results.tournament.places == 40 and empty.results.tournament.players == ()
    assert not [p for p in empty.problems if p.sheet in ("Игроки", "Турнир")]
    # the organizer fills in the times, and two applications come in
    tab = wb["Турнир"]
    for row in tab.iter_rows():
        value = {"Регистрация до": "15.04.2016 23:59", "Начало": "30.04.2016 10:30", "Жеребьёвка": "29.04.2016 20:00",
                 "Часовой пояс": "Europe/Berlin"}.get(row[0].value)
        if value:
            row[1].value = value
    wb["Игроки"].append(["Адам", "Клуб", None, None, None, "оплачена", "01.04.2016 10:00", None])
    wb["Игроки"].append(["Бета", None, None, None, None, "лист ожидания", "02.04.2016 10:00", None])
    wb.save(book)
    read = compute(ExcelBackend(str(book)).read())
    t = read.results.tournament
    assert [p.nickname for p in t.players] == ["Адам"]
    assert [(a.nickname, a.state) for a in t.applications] == [("Адам", ApplicationState.PAID),
                                                               ("Бета", ApplicationState.WAITING)]
    assert (t.registration_until, t.starts_at, t.draw_at, t.time_zone) == (
        datetime(2016, 4, 15, 23, 59), datetime(2016, 4, 30, 10, 30), datetime(2016, 4, 29, 20), "Europe/Berlin")
    assert not [p for p in read.problems if p.sheet in ("Игроки", "Турнир") and p.severity.value == "error"]


def test_init_registration_offers_the_states_as_a_dropdown(tmp_path):
    book = tmp_path / "cup.xlsx"
    _cli("init", book, "--registration", "--name", "Кубок")
    lists = {str(v.sqref).split(":")[0]: v.formula1 for v in openpyxl.load_workbook(book)["Игроки"].data_validations.dataValidation}
    assert "подтверждена" in lists["F2"] and "лист ожидания" in lists["F2"] and "да" in lists["H2"]


def test_init_without_players_nor_registration_says_what_to_give(tmp_path):
    result = _cli("init", tmp_path / "cup.xlsx", "--name", "Кубок", code=EXIT_USER_ERROR)
    assert "--registration" in result.output


def test_from_init_registration_through_check_in_to_the_draw_on_the_command_line(tmp_path):
    book = tmp_path / "cup.xlsx"
    _cli("init", book, "--registration", "--places", "20", "--name", "Кубок", "--preset", "fiim-2023")
    wb = openpyxl.load_workbook(book)
    players = wb["Игроки"]
    for i in range(1, 21):
        players.append([f"Игрок {i:02d}", None, None, None, None, "подтверждена", f"01.04.2016 10:{i:02d}",
                        None if i == 4 else "да"])
    players.append(["Ждущий", None, None, None, None, "лист ожидания", "02.04.2016 10:00", "да"])
    wb.save(book)
    result = _cli("draw", book, "--seed", "2", "--time-limit", "1")
    assert "не отмечены в «Прибыл» и не посажены: Игрок 04" in result.output
    assert "Игрок 04 → Ждущий" in result.output
    wb = openpyxl.load_workbook(book)
    seated = {c.value for row in wb["Рассадка"].iter_rows(min_row=2) for c in row[3:13] if c.value}
    assert "Ждущий" in seated and "Игрок 04" not in seated and len(seated) == 20
    assert [r[5].value for r in wb["Игроки"].iter_rows() if r[0].value == "Ждущий"] == ["подтверждена"]
    read = compute(ExcelBackend(str(book)).read())
    assert "Ждущий" in {p.nickname for p in read.results.tournament.players}
    assert not [p for p in read.problems if p.sheet == "Рассадка"]
