"""Registration's decisions (issue 45, scoring.registration): who is in, who waits and in which
order, who moves in when a place is freed, until when applications and excused rounds are taken,
and whom the draw seats once check-in has begun — read from a workbook as organizers type it."""

from __future__ import annotations

from datetime import datetime

import pytest

from scoring.parse import parse_tournament, read_settings
from scoring.preset import RegistrationRule
from scoring.registration import (check_in_begun, draw_field, excuse_allowed, lineup, promotions,
                                  registration_open, takes_part)
from scoring.model import ApplicationState
from sheets_sync.backends.memory import MemoryBackend
from sheets_sync.presets import load_preset

HEADER = ["Игрок", "Клуб", "Статус", "Заявка", "Подана", "Прибыл"]
PAID_ONLY = RegistrationRule(payment_required=True)


def _tournament(rows: list[list], settings: list[list] | None = None):
    tabs = {"Турнир": [["Название", "Кубок"], ["Регламент", "fiim-2023"], *(settings or [])], "Игроки": [HEADER, *rows]}
    snapshot = MemoryBackend(tabs).read()
    parsed = parse_tournament(snapshot.tabs, snapshot.order, load_preset("fiim-2023")[0], read_settings(snapshot.tabs))
    return parsed.tournament


def _row(nickname: str, state: str = "", applied: str = "", arrived: str = "", status: str = "") -> list:
    return [nickname, "", status, state, applied, arrived]


MIXED = [
    _row("Адам", "подтверждена", "01.12.2026 10:00"),
    _row("Бета", "оплачена", "01.12.2026 10:05"),
    _row("Вега", "подана", "01.12.2026 10:10"),
    _row("Жук", "лист ожидания", "01.12.2026 10:40"),  # applied later than Гамма, typed above her
    _row("Гамма", "лист ожидания", "01.12.2026 10:20"),
    _row("Дельта", "снялась", "01.12.2026 09:00"),
    _row("Ева"),  # typed in by the organizer: takes part
    _row("Зоя", "", "", "", "запасной"),  # a reserve of the Players tab is no entrant
]


@pytest.mark.parametrize("rule, places, taking, pending, left", [
    (RegistrationRule(), None, ("Адам", "Бета", "Ева"), ("Вега",), None),
    (RegistrationRule(), 5, ("Адам", "Бета", "Ева"), ("Вега",), 1),
    (RegistrationRule(), 3, ("Адам", "Бета", "Ева"), ("Вега",), 0),  # more held than places: none left, never < 0
    (PAID_ONLY, 6, ("Бета", "Ева"), ("Адам", "Вега"), 2),  # confirmed, unpaid: holds its place, not in
])
def test_lineup(rule, places, taking, pending, left):
    settings = [["Мест", places]] if places else []
    result = lineup(_tournament(MIXED, settings), rule)
    assert result.taking_part == taking
    assert result.pending == pending
    assert result.waiting_nicknames == ("Гамма", "Жук")  # by «Подана», not by row
    assert result.places_left == left


@pytest.mark.parametrize("state, rule, expected", [
    (ApplicationState.CONFIRMED, RegistrationRule(), True), (ApplicationState.PAID, RegistrationRule(), True),
    (ApplicationState.SUBMITTED, RegistrationRule(), False), (ApplicationState.WAITING, RegistrationRule(), False),
    (ApplicationState.WITHDRAWN, RegistrationRule(), False), (ApplicationState.CONFIRMED, PAID_ONLY, False),
    (ApplicationState.PAID, PAID_ONLY, True),
])
def test_takes_part(state, rule, expected):
    assert takes_part(state, rule) is expected


def test_the_waiting_list_without_applied_times_keeps_the_rows_order_after_the_timed():
    rows = [_row("Б", "лист ожидания"), _row("А", "лист ожидания"), _row("В", "лист ожидания", "01.12.2026 12:00")]
    assert lineup(_tournament(rows)).waiting_nicknames == ("В", "Б", "А")


@pytest.mark.parametrize("places, moved", [
    (None, ()),  # no places named: nobody waits for one
    (4, ()),  # Адам, Бета, Ева and the submitted Вега fill four places
    (5, ("Гамма",)),  # Дельта withdrew: one place, the first in line
    (6, ("Гамма", "Жук")),
    (9, ("Гамма", "Жук")),  # more places than waiting
])
def test_promotions_move_the_first_in_line_into_freed_places(places, moved):
    settings = [["Мест", places]] if places else []
    assert tuple(a.nickname for a in promotions(_tournament(MIXED, settings))) == moved


@pytest.mark.parametrize("settings, now, expected", [
    ([], datetime(2030, 1, 1), True),
    ([["Регистрация до", "15.04.2016 23:59"]], datetime(2016, 4, 15, 23, 59), True),
    ([["Регистрация до", "15.04.2016 23:59"]], datetime(2016, 4, 16, 0, 0), False),
    ([["Начало", "30.04.2016 10:30"]], datetime(2016, 4, 30, 10, 0), True),  # no deadline: until the start
    ([["Начало", "30.04.2016 10:30"]], datetime(2016, 4, 30, 10, 31), False),
])
def test_registration_open(settings, now, expected):
    assert registration_open(_tournament([], settings), now) is expected


@pytest.mark.parametrize("now, rule, expected", [
    (datetime(2016, 4, 29, 10, 30), RegistrationRule(), True),  # exactly 24 h before
    (datetime(2016, 4, 29, 10, 31), RegistrationRule(), False),
    (datetime(2016, 4, 29, 10, 31), RegistrationRule(excuse_notice_hours=12), True),
    (datetime(2016, 4, 29, 22, 31), RegistrationRule(excuse_notice_hours=12), False),
])
def test_excuse_allowed_until_the_presets_notice_before_the_start(now, rule, expected):
    assert excuse_allowed(_tournament([], [["Начало", "30.04.2016 10:30"]]), now, rule) is expected


def test_excuse_allowed_without_a_start_always():
    assert excuse_allowed(_tournament([]), datetime(2030, 1, 1))


def test_before_check_in_the_draw_is_made_on_everybody_taking_part():
    field = draw_field(_tournament(MIXED))
    assert not check_in_begun(_tournament(MIXED))
    assert field.players == ("Адам", "Бета", "Ева") and not field.absent and not field.check_in


def test_once_check_in_began_the_absent_are_replaced_by_the_first_waiting_present():
    rows = [
        _row("Адам", "подтверждена", arrived="да"), _row("Бета", "оплачена"), _row("Ева", arrived="+"),
        _row("Вика"),  # absent too: nobody left to replace her
        _row("Жук", "лист ожидания", "01.12.2026 10:40", "да"),
        _row("Гамма", "лист ожидания", "01.12.2026 10:20"),  # first in line but not in the hall
        _row("Лев", "подана", "", "да"),  # not confirmed: never a reserve
    ]
    field = draw_field(_tournament(rows))
    assert field.check_in
    assert field.players == ("Адам", "Ева", "Жук")
    assert field.absent == ("Бета", "Вика")
    assert field.replacements == (("Бета", "Жук"),)
    assert [a.nickname for a in field.promoted] == ["Жук"]


def test_where_the_preset_requires_the_payment_a_confirmed_unpaid_row_is_no_player():
    tabs = {"Турнир": [["Название", "Кубок"], ["Регламент", "gmo-2016"]],
            "Игроки": [HEADER, _row("Адам", "подтверждена"), _row("Бета", "оплачена"), _row("Ева")]}
    snapshot = MemoryBackend(tabs).read()
    preset = load_preset("gmo-2016")[0]
    assert preset.registration.payment_required and preset.registration.excuse_notice_hours == 24
    tournament = parse_tournament(snapshot.tabs, snapshot.order, preset, read_settings(snapshot.tabs)).tournament
    assert [p.nickname for p in tournament.players] == ["Бета", "Ева"]
    assert lineup(tournament, preset.registration).pending == ("Адам",)


@pytest.mark.parametrize("rows, payment_required, hours", [
    ([], True, 24),  # gmo-2016 as shipped
    ([["регистрация.оплата", "нет"]], False, 24),
    ([["пропуск.заранее", 12]], True, 12),
    ([["registration.payment_required", "false"], ["registration.excuse_notice_hours", 48]], False, 48),
])
def test_the_tournament_tab_overrides_the_registration_settings(rows, payment_required, hours):
    from sheets_sync.loop.outcome import compute

    tabs = {"Турнир": [["Название", "Кубок"], ["Регламент", "gmo-2016"], *rows],
            "Игроки": [HEADER, _row("Адам", "подтверждена"), _row("Бета", "оплачена")]}
    outcome = compute(MemoryBackend(tabs).read())
    assert outcome.preset.registration == RegistrationRule(excuse_notice_hours=hours, payment_required=payment_required)
    assert [p.nickname for p in outcome.results.tournament.players] == (["Бета"] if payment_required else ["Адам", "Бета"])
    assert not [p for p in outcome.problems if p.sheet == "Турнир"]


@pytest.mark.parametrize("registration, error", [
    ({"excuse_notice_hours": 24, "payment": True}, "registration.payment: unknown key"),
    ({"excuse_notice_hours": -1}, "registration.excuse_notice_hours"),
    ({"payment_required": "может быть"}, "registration.payment_required: must be true or false"),
])
def test_a_wrong_registration_setting_is_refused(registration, error):
    import copy

    from scoring.preset import Preset, PresetError
    from tests.helpers import preset_dict

    data = copy.deepcopy(preset_dict("gmo-2016"))
    data["registration"] = registration
    with pytest.raises(PresetError) as refused:
        Preset.from_dict(data, source="gmo-2016.toml")
    assert error in str(refused.value)


def test_a_preset_without_registration_takes_the_defaults():
    preset = load_preset("fiim-2023")[0]
    assert preset.registration == RegistrationRule(excuse_notice_hours=24, payment_required=False)


@pytest.mark.parametrize("now, moved", [
    (None, ("Гамма",)), (datetime(2016, 4, 30, 10, 29), ("Гамма",)), (datetime(2016, 4, 30, 10, 30), ()),
])
def test_from_the_start_on_a_freed_place_is_left_to_the_draw(now, moved):
    tournament = _tournament(MIXED, [["Мест", 5], ["Начало", "30.04.2016 10:30"]])
    assert tuple(a.nickname for a in promotions(tournament, now=now)) == moved
