"""A broken workbook is not an empty tournament (issue 42 §5), on the memory backend.

Each case starts from the bundled example synced once into an output folder (38 games counted,
the site, standings.json and the VK post written), then breaks the workbook the way the
findings did — a tab renamed or deleted, thousands of garbage rows typed — and syncs again.
What is asserted is what the second sync wrote and what it left alone: the tabs of the memory
workbook (values and marks), the files of the output folder byte for byte, the Problems tab.
"""

from __future__ import annotations

import random
import string
from pathlib import Path

import pytest

from scoring.problems import Problem, more_problems, severity_counts
from sheets_sync.backends.base import STATE_TAB
from sheets_sync.backends.memory import MemoryBackend
from sheets_sync.loop.sync import sync_once, sync_summary
from tests.helpers import FIRST_ROW

GAME = "Тур 3 Стол 2"
OWNED = {"Итоги", "Отбор", "Полуфинал", "Финал", "Статистика", "Проверка", "Журнал", STATE_TAB}


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def synced(example_tabs, tmp_path) -> tuple[MemoryBackend, Path]:
    """The example as the last good sync left it: 38 games counted, everything published."""
    backend, out = MemoryBackend(example_tabs), tmp_path / "out"
    report = sync_once(backend, out_dir=out)
    assert len(report.outcome.results.counted) == 38
    return backend, out


def rename(backend: MemoryBackend, renames: dict[str, str]) -> None:
    backend.tabs = {renames.get(title, title): rows for title, rows in backend.tabs.items()}
    backend.version += 1


def delete(backend: MemoryBackend, *titles: str) -> None:
    for title in titles:
        del backend.tabs[title]
    backend.version += 1


def problems_tab(backend: MemoryBackend, title: str = "Проверка") -> list[tuple]:
    """(tab, cell, message) of the Problems tab's rows."""
    rows = backend.tabs[title][FIRST_ROW - 1:]
    return [(r[0], r[1], r[3]) for r in rows if len(r) > 3 and r[3]]


def tab_values(backend: MemoryBackend, skip: set[str]) -> dict[str, list]:
    return {t: [list(r) for r in rows] for t, rows in backend.tabs.items() if t not in skip}


# -- 1. a tab the sync needs is gone: only the Problems tab is written, nothing is published -----
STOPS = [
    pytest.param({"Турнир": "Турнир (копия)"}, [("Турнир", "Турнир (копия)")], id="tournament-copy"),
    pytest.param({"Турнир": "Tournament1"}, [("Турнир", "Tournament1")], id="tournament1"),
    pytest.param({"Игроки": "Лист7"}, [("Игроки", "Лист7")], id="players-by-content"),
    pytest.param({"Игроки": "Игрки"}, [("Игроки", "Игрки")], id="players-typo"),
    pytest.param({"Турнир": "Турнир (копия)", "Игроки": "Игроки (копия)"},
                 [("Турнир", "Турнир (копия)"), ("Игроки", "Игроки (копия)")], id="both"),
]


@pytest.mark.parametrize("renames, named", STOPS)
def test_a_renamed_tab_stops_the_sync_writing_only_the_problems_tab(synced, renames, named):
    from sheets_sync.loop.outcome import WorkbookIncomplete

    backend, out = synced
    rename(backend, renames)
    before, marks, published = tab_values(backend, {"Проверка"}), dict(backend.marks), files(out)

    with pytest.raises(WorkbookIncomplete) as stopped:
        sync_once(backend, out_dir=out)

    assert tab_values(backend, {"Проверка"}) == before  # Итоги, Отбор… and every typed value as they were
    assert backend.marks == marks
    assert files(out) == published  # the site, standings.json, the VK post and the record: the last good ones
    listed = problems_tab(backend)
    for missing, lookalike in named:
        said = (f"Нет вкладки «{missing}». Похоже, это вкладка «{lookalike}» — верните ей имя «{missing}». "
                "Пока её нет, синхронизация не пересчитывает итоги и ничего не публикует: "
                "итоги, сайт и пост остаются прежними")
        assert (lookalike, "A1", said) in listed
        assert said in stopped.value.message("ru")
    assert len(listed) == len(named)
    assert stopped.value.language == "ru"


def test_a_deleted_tournament_tab_with_nothing_like_it_is_said_so(synced):
    from sheets_sync.loop.outcome import WorkbookIncomplete

    backend, out = synced
    published = files(out)
    delete(backend, "Турнир")
    with pytest.raises(WorkbookIncomplete):
        sync_once(backend, out_dir=out)
    assert problems_tab(backend) == [(None, None, "Нет вкладки «Турнир»: без неё синхронизация не знает ни регламента, "
                                      "ни языка турнира. Пока её нет, синхронизация не пересчитывает итоги и ничего не "
                                      "публикует: итоги, сайт и пост остаются прежними")]
    assert files(out) == published


def test_an_english_workbook_is_told_in_english_from_the_renamed_tabs_own_language(example_tabs, tmp_path):
    from sheets_sync.loop.outcome import WorkbookIncomplete

    row = next(i for i, r in enumerate(example_tabs["Турнир"]) if r and r[0] == "Язык")
    example_tabs["Турнир"][row][1] = "en"
    backend, out = MemoryBackend(example_tabs), tmp_path / "out"
    sync_once(backend, out_dir=out)
    rename(backend, {"Турнир": "Tournament (copy)"})
    with pytest.raises(WorkbookIncomplete) as stopped:
        sync_once(backend, out_dir=out)
    assert stopped.value.language == "en"
    assert "Проверка" not in backend.tabs  # the English workbook's own Problems tab, no Russian one beside it
    assert problems_tab(backend, "Problems") == [(
        "Tournament (copy)", "A1",
        "There is no tab 'Tournament'. Tab 'Tournament (copy)' looks like it — rename it back to 'Tournament'. "
        "Until then the sync does not recompute the standings and publishes nothing: the standings, the site and "
        "the post stay as they were")]


def test_once_the_tab_has_its_name_back_the_sync_runs_as_before(synced):
    from sheets_sync.loop.outcome import WorkbookIncomplete

    backend, out = synced
    rename(backend, {"Турнир": "Турнир (копия)"})
    with pytest.raises(WorkbookIncomplete):
        sync_once(backend, out_dir=out)
    rename(backend, {"Турнир (копия)": "Турнир"})
    report = sync_once(backend, out_dir=out)
    assert len(report.outcome.results.counted) == 38
    assert not any(message.startswith("Нет вкладки") for _, _, message in problems_tab(backend))


# -- 2. what vanished since the last sync is named ------------------------------------------------
def gone_lines(report) -> list[str]:
    return [p.message("ru") for p in report.outcome.problems if p.rule in ("game.tab_gone", "seating.tab_gone")]


def test_a_counted_games_deleted_tab_is_named_and_still_planned(synced):
    backend, out = synced
    delete(backend, GAME)
    report = sync_once(backend, out_dir=out)
    said = (f"Вкладки «{GAME}» больше нет, а её игра Отбор тур 3 стол 2 при прошлой синхронизации была засчитана; "
            "теперь она не засчитана. Верните вкладку (Файл → История версий) или восстановите игру из копии")
    assert gone_lines(report) == [said]
    assert (None, None, said) in problems_tab(backend)
    summary = sync_summary(report.outcome)
    assert (summary["games"], summary["planned"]) == (37, 38)
    # still named by the next sync (an edit elsewhere), not only by the first one after the deletion
    backend.set("Турнир", "B1", "Кубок Рейна (изменён)")
    again = sync_once(backend, out_dir=out)
    assert gone_lines(again) == [said]
    assert (sync_summary(again.outcome)["games"], sync_summary(again.outcome)["planned"]) == (37, 38)


def test_a_deleted_seating_tab_is_named_with_what_it_costs_and_the_counts_stay(synced):
    backend, out = synced
    delete(backend, GAME, "Рассадка")
    report = sync_once(backend, out_dir=out)
    assert gone_lines(report) == [
        "Вкладки «Рассадка» больше нет (при прошлой синхронизации она была). Без неё не проверить, что игроки сидят "
        "за своими столами, и не провести жеребьёвку следующего этапа; игры считаются по протоколам. "
        "Верните вкладку (Файл → История версий)",
        f"Вкладки «{GAME}» больше нет, а её игра Отбор тур 3 стол 2 при прошлой синхронизации была засчитана; "
        "теперь она не засчитана. Верните вкладку (Файл → История версий) или восстановите игру из копии",
    ]
    summary = sync_summary(report.outcome)
    assert (summary["games"], summary["planned"]) == (37, 38)
    assert summary["warnings"] >= 1 and summary["errors"] >= 1  # not «проблем нет»


def test_a_restored_tab_is_counted_again_and_no_longer_named(synced, example_tabs):
    backend, out = synced
    kept = backend.tabs[GAME]
    delete(backend, GAME)
    sync_once(backend, out_dir=out)
    backend.tabs[GAME] = kept
    backend.version += 1
    report = sync_once(backend, out_dir=out)
    assert gone_lines(report) == []
    assert len(report.outcome.results.counted) == 38


# -- 3. garbage rows: marks and the Problems tab stay bounded ------------------------------------
def garbage(n: int, seed: int = 1) -> list[list[str]]:
    rng = random.Random(seed)
    return [["".join(rng.choice(string.ascii_letters) for _ in range(8)) for _ in range(12)] for _ in range(n)]


@pytest.mark.parametrize("tab, n", [("Рассадка", 1500), ("Штрафы", 1500), ("Игроки", 1200), ("Тур 1 Стол 1", 1500)])
def test_garbage_rows_leave_marks_and_the_problems_tab_bounded(synced, tab, n):
    from sheets_sync.loop.sync import MARKS_MAX, MARKS_PER_TAB
    from sheets_sync.render.tabs import PROBLEMS_LISTED, PROBLEMS_PER_TAB

    backend, out = synced
    backend.tabs[tab] += [[]] + garbage(n)
    backend.version += 1
    typed = tab_values(backend, OWNED)

    report = sync_once(backend, out_dir=out)

    in_tab = [p for p in report.outcome.problems if p.sheet == tab]
    marked = [key for key in backend.marks if key[0] == tab]
    assert len(marked) <= MARKS_PER_TAB and len(backend.marks) <= MARKS_MAX
    if len(in_tab) > MARKS_PER_TAB:  # the last mark of the tab says how many more there are
        notes = [backend.marks[key][1] for key in marked]
        assert sum("в этом листе" in note for note in notes) == 1
        assert any(note.split("\n")[-1].startswith("и ещё ") for note in notes)
    listed = problems_tab(backend)
    assert len(listed) <= PROBLEMS_LISTED + 2
    if len(in_tab) > PROBLEMS_PER_TAB:
        assert len([row for row in listed if row[0] == tab]) == PROBLEMS_PER_TAB + 1
        left_out = sorted(in_tab, key=Problem.sort_key)[PROBLEMS_PER_TAB:]
        more = more_problems(*severity_counts(left_out), "ru")
        assert (tab, None, more) in listed and more.endswith(" в этом листе")
    # the state tab remembers only the marks it set, not one row a garbage cell
    state_marks = [r for r in backend.tabs[STATE_TAB][1:] if r and not str(r[0]).startswith("§")]
    assert len(state_marks) == len(backend.marks)
    assert tab_values(backend, OWNED) == typed  # the garbage is kept as typed, like every other value


def test_a_tab_too_full_to_remember_keeps_its_marks_as_they_were(synced):
    from sheets_sync.workbook.changelog import CELLS_REMEMBERED

    backend, out = synced
    backend.set("Рассадка", "D2", "Никто")  # an unknown player: a mark the last sync set
    sync_once(backend, out_dir=out)
    before = {key: mark for key, mark in backend.marks.items() if key[0] == "Рассадка"}
    assert ("Рассадка", "D2") in before
    rows = CELLS_REMEMBERED // 12 + 100
    backend.tabs["Рассадка"] += [[]] + garbage(rows)
    backend.version += 1

    report = sync_once(backend, out_dir=out)

    assert {key: mark for key, mark in backend.marks.items() if key[0] == "Рассадка"} == before
    assert not [m for m in report.patch.set_marks if m.sheet == "Рассадка"]
    assert not [key for key in report.patch.clear_marks if key[0] == "Рассадка"]
    listed = problems_tab(backend)
    assert any(tab == "Рассадка" and message.startswith("На вкладке «Рассадка» больше 100\u00a0000 заполненных ячеек")
               for tab, _, message in listed)
    assert any(tab == "Рассадка" and message.startswith("и ещё ") for tab, _, message in listed)
