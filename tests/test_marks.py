"""Problems shown in the judge's own cell: colour by severity, a note with the message; gone once fixed.

Most checks run on a MemoryBackend copy of the example tournament; one round trip goes
through a real .xlsx file re-opened with openpyxl.
"""

from __future__ import annotations


import openpyxl
import pytest

from scoring.problems import Problem
from sheets_sync.backends.base import MARK_COLOURS, STATE_TAB, Link
from sheets_sync.backends.excel import NOTE_AUTHOR, ExcelBackend
from sheets_sync.backends.memory import MemoryBackend
from sheets_sync.loop.sync import sync_once
from tests.helpers import FIRST_ROW, substitute_cells, table

ERROR, WARNING = MARK_COLOURS["error"], MARK_COLOURS["warning"]
OWNED = {"Итоги", "Отбор", "Полуфинал", "Финал", "Статистика", "Проверка", "Жеребьёвка", "Журнал", STATE_TAB}


SUB1, SUB2 = substitute_cells()


@pytest.fixture
def memory(example_tabs):
    backend = MemoryBackend(example_tabs)
    sync_once(backend, out_dir=None)  # the example as shipped: two substitute warnings
    return backend


def _inputs(backend: MemoryBackend) -> dict:
    return {t: [list(r) for r in rows] for t, rows in backend.read().tabs.items() if t not in OWNED}


def test_example_marks_only_the_substitutes(memory):
    assert set(memory.marks) == {SUB1, SUB2}
    assert {colour for colour, _ in memory.marks.values()} == {WARNING}
    assert "Тур 5" not in memory.hidden and STATE_TAB in memory.hidden


def test_marks_set_listed_and_cleared_when_fixed(memory):
    original = memory.read().tabs["Тур 2 Стол 1"][10][1]
    memory.set("Тур 2 Стол 1", "B11", "Никто")  # unknown player: error
    memory.set("Тур 3 Стол 1", "D12", 4)  # 4 fouls but not removed: error
    memory.set("Тур 4 Стол 2", "B6", None)  # winner cleared: not finished (warning)
    typed = _inputs(memory)

    report = sync_once(memory, out_dir=None)

    assert memory.marks[("Тур 2 Стол 1", "B11")] == (ERROR, "Место 2: «Никто» нет в списке игроков. Новый игрок — новая строка на вкладке «Игроки»")
    assert memory.marks[("Тур 3 Стол 1", "D12")] == (ERROR, "Место 3: 4 фола, но игрок не удалён")
    assert memory.marks[("Тур 4 Стол 2", "B6")] == (WARNING, "Игра не завершена: победитель не указан")
    assert _inputs(memory) == typed  # the sync never changes a value a person typed
    counted = {p.sheet for p in report.outcome.results.counted}
    assert not {"Тур 2 Стол 1", "Тур 3 Стол 1", "Тур 4 Стол 2"} & counted and len(counted) == 35

    # the Problems tab lists every problem sorted by tab and cell, each cell a link to itself
    rows = table(memory.tabs["Проверка"])[1:]
    listed = [(r[0], r[1].cell if isinstance(r[1], Link) else r[1]) for r in rows]
    expected = sorted(report.outcome.problems, key=Problem.sort_key)
    assert listed == [(p.sheet, p.cell) for p in expected]
    assert all(isinstance(r[1], Link) and (r[1].sheet, r[1].cell) == (r[0], r[1].text) for r in rows)
    assert ("Тур 2 Стол 1", "B11") in listed

    # the judge fixes two of them; the next sync removes exactly those marks
    memory.set("Тур 2 Стол 1", "B11", original)
    memory.set("Тур 3 Стол 1", "D12", 2)
    sync_once(memory, out_dir=None)
    assert ("Тур 2 Стол 1", "B11") not in memory.marks and ("Тур 3 Стол 1", "D12") not in memory.marks
    assert ("Тур 4 Стол 2", "B6") in memory.marks
    state = {(r[0], r[1]) for r in memory.tabs[STATE_TAB][1:] if not str(r[0]).startswith("§")}  # marks; § rows: sheets_sync.workbook.changelog
    assert state == set(memory.marks)

    # nothing changed: nothing written
    assert sync_once(memory, out_dir=None).patch.empty


def test_a_mark_changes_colour_when_an_error_joins_a_warning(memory):
    memory.set(*SUB1, "Запасной Один ")  # stray space: still the same reserve
    sync_once(memory, out_dir=None)
    assert memory.marks[SUB1][0] == WARNING
    memory.set(*SUB1, "запасной оди")
    sync_once(memory, out_dir=None)
    colour, note = memory.marks[SUB1]
    assert colour == ERROR and note == (f"Место {int(SUB1[1][1:]) - 9}: «запасной оди» нет в списке игроков (может быть, "
                                        "«Запасной Один»?). Новый игрок — новая строка на вкладке «Игроки»")


def test_notes_are_stable_for_garbage_with_control_characters(memory):
    memory.set("Тур 1 Стол 1", "I12", "\x01\x02" + "Ы" * 5000)
    first = sync_once(memory, out_dir=None)
    assert ("Тур 1 Стол 1", "I12") in memory.marks
    assert "\x01" not in memory.marks[("Тур 1 Стол 1", "I12")][1]
    assert not first.patch.empty and sync_once(memory, out_dir=None).patch.empty


def _fill(cell) -> str | None:
    if cell.fill is None or cell.fill.fill_type is None:
        return None
    return cell.fill.fgColor.rgb[-6:]


def test_excel_round_trip(example):
    path = example
    wb = openpyxl.load_workbook(path)
    wb["Тур 2 Стол 1"]["I12"] = "много"  # unreadable extra points
    wb["Тур 2 Стол 1"]["J12"].comment = openpyxl.comments.Comment("спорный момент", "Судья")  # the judge's own note
    wb.save(path)

    sync_once(ExcelBackend(path), out_dir=None)
    wb = openpyxl.load_workbook(path)
    ws = wb["Тур 2 Стол 1"]
    assert ws["I12"].value == "много"
    assert _fill(ws["I12"]) == ERROR
    assert ws["I12"].comment.author == NOTE_AUTHOR and ws["I12"].comment.text == "«много» — не число"
    assert _fill(wb[SUB1[0]][SUB1[1]]) == WARNING and "замена" in wb[SUB1[0]][SUB1[1]].comment.text
    assert wb[STATE_TAB].sheet_state == "hidden"
    link = next(r[1] for r in wb["Проверка"].iter_rows(min_row=FIRST_ROW) if r[0].value == "Тур 2 Стол 1" and r[1].value == "I12")
    assert link.hyperlink is not None and link.hyperlink.location == "'Тур 2 Стол 1'!I12"

    ws["I12"] = 0.3  # the judge fixes it
    wb.save(path)
    sync_once(ExcelBackend(path), out_dir=None)
    wb = openpyxl.load_workbook(path)
    ws = wb["Тур 2 Стол 1"]
    assert ws["I12"].value == 0.3 and _fill(ws["I12"]) is None and ws["I12"].comment is None
    assert ws["J12"].comment.text == "спорный момент"  # not ours: left alone
    assert _fill(wb[SUB1[0]][SUB1[1]]) == WARNING  # other marks stay
    assert all(r[0].value != "Тур 2 Стол 1" for r in wb["Проверка"].iter_rows(min_row=FIRST_ROW))


def test_problem_in_a_merged_cell_does_not_crash_the_excel_sync(example):
    path = example
    wb = openpyxl.load_workbook(path)
    wb["Тур 1 Стол 1"].merge_cells("C10:C11")  # seat 2's role cell is now the hidden half of a merge
    wb.save(path)
    report = sync_once(ExcelBackend(path), out_dir=None)
    assert ("Тур 1 Стол 1", "C11", "roles.missing") in {(p.sheet, p.cell, p.rule) for p in report.outcome.problems}
    # the mark lands on the visible top-left cell of the merged range, with the message
    anchor = openpyxl.load_workbook(path)["Тур 1 Стол 1"]["C10"]
    assert anchor.comment is not None and "2" in anchor.comment.text
    assert _fill(anchor) == ERROR
