"""The draw on the registration (issue 45 §3): it seats only the players taking part and, once check-in
has begun (any «Прибыл» ticked), only those present, the first waiting players present taking the
seats of the absent — and their «Заявка» becomes «подтверждена», so that the sync reads them as players."""

from __future__ import annotations

from collections import Counter

from sheets_sync.actions.draw import draw_workbook
from sheets_sync.backends.memory import MemoryBackend
from sheets_sync.loop.outcome import compute

HEADER = ["Игрок", "Клуб", "Заявка", "Подана", "Прибыл"]


def _book(arrived: bool = True) -> MemoryBackend:
    rows = [[f"Игрок {i:02d}", f"Клуб {i % 6}", "оплачена" if i % 2 else "подтверждена", f"01.03.2026 {8 + i // 10}:{i % 10}0",
             "да" if arrived and i not in (7, 23) else ""] for i in range(1, 41)]
    rows += [["Ждущий В", "", "лист ожидания", "02.03.2026 12:00", "да"],
             ["Ждущий А", "", "лист ожидания", "02.03.2026 10:00", "да"],
             ["Ждущий Б", "", "лист ожидания", "02.03.2026 11:00", "да"],
             ["Подавший", "", "подана", "02.03.2026 09:00", "да"],  # not confirmed: never drawn
             ["Снявшийся", "", "снялась", "01.03.2026 07:00", "да"]]
    if not arrived:
        rows = [row[:4] + [""] for row in rows]
    tabs = {"Турнир": [["Название", "Кубок"], ["Регламент", "fiim-2023"], ["Мест", 40]], "Игроки": [HEADER, *rows]}
    return MemoryBackend(tabs)


def _seated(outcome) -> Counter:
    return Counter(n for e in outcome.entries for n in e.players)


def test_forty_places_three_waiting_two_absent_the_first_two_waiting_take_the_absent_seats():
    backend = _book()
    outcome = draw_workbook(backend, seed=3, time_limit=1)
    seated = _seated(outcome)
    assert len(seated) == 40
    assert "Игрок 07" not in seated and "Игрок 23" not in seated
    assert {"Ждущий А", "Ждущий Б"} <= set(seated) and "Ждущий В" not in seated
    assert not {"Подавший", "Снявшийся"} & set(seated)
    assert outcome.registration.replacements == (("Игрок 07", "Ждущий А"), ("Игрок 23", "Ждущий Б"))
    # the promoted rows are confirmed in the workbook; the third waits on; nothing else was typed over
    players = {row[0]: row for row in backend.read().tabs["Игроки"][1:]}
    assert [players[n][2] for n in ("Ждущий А", "Ждущий Б", "Ждущий В")] == ["подтверждена", "подтверждена", "лист ожидания"]
    assert players["Игрок 07"][2] == "оплачена"
    # and the sync reads the seating it made without an unknown player
    after = compute(backend.read())
    nicknames = {p.nickname for p in after.results.tournament.players}
    assert {"Ждущий А", "Ждущий Б"} <= nicknames
    assert not [p for p in after.problems if p.rule.startswith("seating.") and p.severity.value == "error"]


def test_before_check_in_the_draw_seats_everybody_taking_part_and_nobody_waiting():
    outcome = draw_workbook(_book(arrived=False), seed=3, time_limit=1)
    seated = _seated(outcome)
    assert set(seated) == {f"Игрок {i:02d}" for i in range(1, 41)}
    assert outcome.registration.replacements == () and not outcome.registration.check_in


def test_once_check_in_began_only_the_reserves_present_fill_the_empty_seats():
    rows = [[f"Игрок {i:02d}", "", "подтверждена", "", "" if i == 5 else "да"] for i in range(1, 41)]
    rows += [["Резерв 1", "", "", "", ""], ["Резерв 2", "", "", "", "да"]]
    header = [*HEADER, "Статус"]
    rows = [[*row, ""] for row in rows[:40]] + [[*rows[40], "запасной"], [*rows[41], "запасной"]]
    backend = MemoryBackend({"Турнир": [["Название", "Кубок"], ["Регламент", "fiim-2023"], ["отбор.столов", 4]],
                             "Игроки": [header, *rows]})
    seated = _seated(draw_workbook(backend, seed=3, time_limit=1))
    assert "Игрок 05" not in seated and "Резерв 2" in seated and "Резерв 1" not in seated
    assert len(seated) == 40  # 39 present players and the reserve present, at 4 tables
