"""The registration's warnings to the judge (issue 45), at their cells, as a sync computes them: more
players than places, an application confirmed out of turn, a «Пропуск» typed after the preset's limit
(read from the change log), and a nickname applied for twice."""

from __future__ import annotations

from datetime import datetime

import pytest

from scoring.problems import Severity
from sheets_sync.backends.memory import MemoryBackend
from sheets_sync.loop.outcome import compute
from sheets_sync.workbook.excuse_times import log_moment

HEADER = ["Игрок", "Клуб", "Заявка", "Подана", "Пропуск"]


def _problems(rows: list[list], settings: list[list] | None = None, log: list[list] | None = None, preset="fiim-2023"):
    tabs = {"Турнир": [["Название", "Кубок"], ["Регламент", preset], *(settings or [])], "Игроки": [HEADER, *rows]}
    if log is not None:
        tabs["Журнал"] = [["Журнал изменений"], [""], ["Время синхронизации", "Вкладка", "Ячейка", "Было", "Стало"], *log]
    return [p for p in compute(MemoryBackend(tabs).read()).problems if p.rule.startswith(("registration.", "read.dup",
                                                                                            "read.similar"))]


def test_more_players_than_places_is_a_warning_at_the_last_confirmed_in_the_order_applied():
    found = _problems([
        ["Ева", "", "", "", ""],  # typed by the organizer: keeps his place
        ["Адам", "", "подтверждена", "01.12.2026 10:00", ""],
        ["Бета", "", "подтверждена", "01.12.2026 12:00", ""],
        ["Вега", "", "оплачена", "01.12.2026 11:00", ""],
    ], [["Мест", 2]])
    assert [(p.rule, p.severity, p.location.cell, [r.cell for r in p.related]) for p in found] == [
        ("registration.over_places", Severity.WARNING, "C5", ["C4"])]  # Вега (11:00, row 5), then Бета (12:00)
    assert "мест 2" in found[0].message("ru") and "лишних 2" in found[0].message("ru")


def test_as_many_players_as_places_is_no_warning():
    assert _problems([["Адам", "", "подтверждена", "", ""], ["Бета", "", "", "", ""]], [["Мест", 2]]) == []


def test_an_application_confirmed_while_an_earlier_one_waits_is_out_of_turn():
    found = _problems([
        ["Адам", "", "подтверждена", "01.12.2026 10:00", ""],  # applied before the waiting one: in turn
        ["Гамма", "", "лист ожидания", "01.12.2026 10:20", ""],
        ["Жук", "", "подтверждена", "01.12.2026 10:40", ""],
    ])
    assert [(p.rule, p.location.cell, [r.cell for r in p.related]) for p in found] == [
        ("registration.out_of_turn", "C4", ["C3"])]
    assert "«Гамма» в листе ожидания с 01.12.2026 10:20" in found[0].message("ru")


@pytest.mark.parametrize("logged, late", [
    ("2016-04-29 10:30:00 UTC+2", False),  # exactly 24 h before the start (Europe/Berlin, summer time)
    ("2016-04-29 08:31:00 UTC", True),  # 10:31 in Cologne
    ("2016-04-29 09:00:00 UTC+2", False),
])
def test_a_pass_typed_after_the_limit_is_a_warning_at_its_cell(logged, late):
    rows = [["Адам", "", "", "", "3"]]
    settings = [["Начало", "30.04.2016 10:30"], ["Часовой пояс", "Europe/Berlin"]]
    found = _problems(rows, settings, log=[[logged, "Игроки", "E2", "", "3"]])
    assert [(p.rule, p.location.cell) for p in found] == ([("registration.late_excuse", "E2")] if late else [])


def test_a_pass_emptied_and_typed_again_counts_from_the_second_typing():
    settings = [["Начало", "30.04.2016 10:30"]]
    log = [["2016-04-20 10:00:00 UTC", "Игроки", "E2", "", "3"], ["2016-04-29 20:00:00 UTC", "Игроки", "E2", "3", ""],
           ["2016-04-29 21:00:00 UTC", "Игроки", "E2", "", "4"]]
    found = _problems([["Адам", "", "", "", "4"]], settings, log=log)
    assert [(p.rule, p.location.cell) for p in found] == [("registration.late_excuse", "E2")]
    assert "29.04.2016 21:00" in found[0].message("ru")


def test_a_pass_the_log_never_saw_typed_is_not_judged():
    assert _problems([["Адам", "", "", "", "3"]], [["Начало", "30.04.2016 10:30"]], log=[]) == []


@pytest.mark.parametrize("text, zone, expected", [
    ("2016-04-29 08:31:00 UTC", "Europe/Berlin", datetime(2016, 4, 29, 10, 31)),
    ("2016-04-29 14:01:00 UTC+5:30", "Europe/Berlin", datetime(2016, 4, 29, 10, 31)),
    ("2016-04-29 08:31:00 UTC+3", "", datetime(2016, 4, 29, 8, 31)),  # no zone named: as written
    ("2016-04-29 08:31:00 UTC+3", "Марс/Олимп", datetime(2016, 4, 29, 8, 31)),
    ("вчера", "", None),
])
def test_log_moment(text, zone, expected):
    assert log_moment(text, zone) == expected


@pytest.mark.parametrize("second", ["Адам", "адам ", "AДAM"])  # the same, its case, Latin look-alikes
def test_a_nickname_applied_for_twice_is_an_error_whatever_the_state(second):
    found = _problems([["Адам", "", "подтверждена", "", ""], [second, "", "лист ожидания", "", ""]])
    assert [(p.rule, p.severity, p.location.cell) for p in found] in (
        [("read.duplicate_player", Severity.ERROR, "A3")], [("read.similar_players", Severity.ERROR, "A3")])


def _late(report) -> list[tuple[str, str]]:
    return [(p.location.cell, p.message("ru")) for p in report.outcome.problems if p.rule == "registration.late_excuse"]


def test_through_the_syncs_a_pass_typed_after_the_limit_is_warned_at_its_cell():
    from sheets_sync.loop.sync import sync_once

    backend = MemoryBackend({"Турнир": [["Название", "Кубок"], ["Регламент", "fiim-2023"], ["Начало", "30.04.2016 10:30"]],
                             "Игроки": [HEADER, ["Адам", "", "", "", ""], ["Бета", "", "", "", ""]]})
    assert not _late(sync_once(backend, out_dir=None, when="2016-04-20 10:00:00 UTC"))  # the first sync: the baseline
    backend.set("Игроки", "E2", "3")  # in time
    assert not _late(sync_once(backend, out_dir=None, when="2016-04-28 09:00:00 UTC"))
    backend.set("Игроки", "A4", "Ева")  # a new row, logged after the limit
    sync_once(backend, out_dir=None, when="2016-04-29 12:00:00 UTC")
    backend.set("Игроки", "E3", "5")  # typed since: later than the newest logged line, so late already in this sync
    found = _late(sync_once(backend, out_dir=None, when="2016-04-29 12:05:00 UTC"))
    assert [cell for cell, _ in found] == ["E3"] and "в эту синхронизацию" in found[0][1]
    found = _late(sync_once(backend, out_dir=None, when="2016-04-29 12:10:00 UTC"))  # and from the log afterwards
    assert [cell for cell, _ in found] == ["E3"] and "29.04.2016 12:05" in found[0][1]


def test_where_the_payment_is_required_a_confirmed_unpaid_row_still_counts_against_the_places():
    found = _problems([
        ["Адам", "", "оплачена", "01.04.2016 10:00", ""],
        ["Бета", "", "подтверждена", "01.04.2016 11:00", ""],  # not paid yet: not a player, but confirmed
        ["Вега", "", "подана", "01.04.2016 12:00", ""],  # not decided: no warning for it
    ], [["Мест", 1]], preset="gmo-2016")
    assert [(p.rule, p.location.cell) for p in found] == [("registration.over_places", "C3")]
    assert "Подтверждено игроков: 2, а мест 1" in found[0].message("ru")


def test_an_unpaid_confirmation_out_of_turn_is_out_of_turn_too():
    found = _problems([["Гамма", "", "лист ожидания", "01.04.2016 10:00", ""],
                       ["Жук", "", "подтверждена", "01.04.2016 11:00", ""]], preset="gmo-2016")
    assert [(p.rule, p.location.cell) for p in found] == [("registration.out_of_turn", "C3")]


@pytest.mark.parametrize("typed, warned", [
    ("Europe/Berlin", False), ("Europe/Moscow", False), ("UTC", False), ("", False),
    ("Europe/Berln", True), ("Москва", True), ("GMT+3", True),
])
def test_a_time_zone_the_server_does_not_know_is_a_warning_at_its_cell(typed, warned):
    """The deadline, the excused round's limit and the timed draw are read in «Часовой пояс»: an
    unknown one falls back to the server's clock, an hour or three off — the organizer is told."""
    tabs = {"Турнир": [["Название", "Кубок"], ["Регламент", "fiim-2023"], ["Начало", "30.04.2016 10:30"],
                       ["Часовой пояс", typed]], "Игроки": [HEADER, ["Адам", "", "", "", ""]]}
    found = [p for p in compute(MemoryBackend(tabs).read()).problems if p.rule == "registration.unknown_time_zone"]
    assert [(p.severity, p.location.sheet, p.location.cell) for p in found] == (
        [(Severity.WARNING, "Турнир", "B4")] if warned else [])
    if warned:
        assert f"«{typed}»" in found[0].message("ru") and "Europe/Moscow" in found[0].message("ru")
