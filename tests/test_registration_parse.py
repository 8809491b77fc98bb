"""Registration on the workbook (issue 45): the Players tab's «Заявка», «Подана» and «Прибыл», the
Tournament tab's places and times, read tolerant of how organizers type them."""

from __future__ import annotations

from datetime import datetime

import pytest

from scoring.model import ApplicationState
from scoring.parse import parse_tournament, read_settings
from sheets_sync.presets import load_preset
from scoring.values import read_datetime
from sheets_sync.backends.memory import MemoryBackend


def _parsed(players: list[list], tournament_rows: list[list] | None = None, preset: str = "gmo-2016"):
    tabs = {
        "Турнир": [["Название", "Кубок"], ["Регламент", "gmo-2016"], *(tournament_rows or [])],
        "Игроки": players,
    }
    snapshot = MemoryBackend(tabs).read()
    settings = read_settings(snapshot.tabs)
    parsed = parse_tournament(snapshot.tabs, snapshot.order, load_preset(preset)[0], settings)
    return parsed.tournament, parsed.problems


HEADER = ["Игрок", "Клуб", "Город", "Статус", "Заявка", "Подана", "Прибыл"]


def test_states_decide_who_is_a_player_and_every_application_is_kept_in_order():
    tournament, problems = _parsed([
        HEADER,
        ["Адам", "Клуб", "Берлин", "", "подтверждена", "01.12.2026 10:00", "да"],
        ["Бета", "", "", "", "Оплачена", "01.12.2026 10:05", ""],
        ["Вега", "", "", "", "подана", "2026-12-01 10:10", ""],
        ["Гамма", "", "", "", "лист ожидания", "01.12.2026 10:20", ""],
        ["Дельта", "", "", "", "снялась", "", ""],
        ["Ева", "", "", "", "", "", "+"],  # typed in by the organizer: a player, no application
    ], preset="fiim-2023")  # gmo-2016 requires the payment (test_registration_lineup)
    assert [p.nickname for p in tournament.players] == ["Адам", "Бета", "Ева"]
    assert [p.arrived for p in tournament.players] == [True, False, True]
    assert [(a.nickname, a.state) for a in tournament.applications] == [
        ("Адам", ApplicationState.CONFIRMED), ("Бета", ApplicationState.PAID), ("Вега", ApplicationState.SUBMITTED),
        ("Гамма", ApplicationState.WAITING), ("Дельта", ApplicationState.WITHDRAWN)]
    assert tournament.applications[2].applied_at == datetime(2026, 12, 1, 10, 10)
    assert tournament.applications[0].state_location.cell == "E2"
    assert [a.state.holds_place for a in tournament.applications] == [True, True, True, False, False]
    assert not [p for p in problems if p.sheet == "Игроки"]


def test_an_unknown_state_is_a_warning_at_its_cell_and_the_row_stays_a_player():
    tournament, problems = _parsed([HEADER, ["Адам", "", "", "", "может быть", "", ""]])
    assert [p.nickname for p in tournament.players] == ["Адам"]
    assert [(p.rule, p.cell) for p in problems if p.sheet == "Игроки"] == [("read.application", "E2")]


def test_registration_settings_of_the_tournament_tab():
    tournament, problems = _parsed([HEADER], [
        ["Мест", 40], ["Регистрация до", "20.12.2026 23:59"], ["Начало", datetime(2026, 12, 22, 10, 0)],
        ["Жеребьёвка", 46012.75], ["Часовой пояс", "Europe/Berlin"]])
    assert tournament.places == 40
    assert tournament.registration_until == datetime(2026, 12, 20, 23, 59)
    assert tournament.starts_at == datetime(2026, 12, 22, 10, 0)
    assert tournament.draw_at == datetime(2025, 12, 21, 18, 0)
    assert tournament.time_zone == "Europe/Berlin"
    assert not [p for p in problems if p.sheet == "Турнир"]


def test_bad_registration_settings_are_warnings_at_their_cells():
    tournament, problems = _parsed([HEADER], [["Мест", "сорок"], ["Начало", "в субботу"]])
    assert tournament.places is None and tournament.starts_at is None
    assert sorted(p.cell for p in problems if p.sheet == "Турнир") == ["B3", "B4"]


@pytest.mark.parametrize("typed, expected", [
    ("20.12.2026 18:00", datetime(2026, 12, 20, 18, 0)), ("2026-12-20 18:00", datetime(2026, 12, 20, 18, 0)),
    ("20.12.2026", datetime(2026, 12, 20)), (" 20.12.2026  18:00 ", datetime(2026, 12, 20, 18, 0)),
    (46011.5, datetime(2025, 12, 20, 12, 0)), ("завтра", None), (7, None), ("", None),
])
def test_moments_as_typed(typed, expected):
    assert read_datetime(typed) == expected
