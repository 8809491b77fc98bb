"""Garbage in random protocol cells of the example workbook never crashes the sync.

Hypothesis writes values that are never valid in the cell they land in (text in number
columns, dates a spreadsheet guessed, formulas, booleans, out-of-range and fractional
numbers, unknown words) into 1–3 cells of the example tournament's protocol tabs and syncs
a copy held in memory.  Then:

* the sync did not raise;
* every garbage cell carries an error naming its sheet and cell, and is marked in red;
* no other tab got an error;
* the standings equal those of the same workbook with the broken protocol tabs removed
  (a broken game counts for nobody, and derives no missed-round penalty);
* a second sync writes nothing.

Garbage in a best-move cell is different (issue 25 §6: a detail that cannot score never refuses a
game): a warning at that cell, marked yellow, every game counts, and the standings are those of
the workbook with that cell left empty.
"""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.problems import Severity
from sheets_sync.backends.base import MARK_COLOURS, Snapshot
from sheets_sync.backends.memory import MemoryBackend
from sheets_sync.loop.sync import compute, sync_once
from tests.helpers import examples

# cells whose content the reader checks: header values and the seat table (not judge/comment)
HEADER_CELLS = ["B2", "B3", "B4", "B6"]
TABLE_COLUMNS = "ABCDEFGI"  # № Игрок Роль Фолы Убит Заголосован Удалён Доп.баллы
TABLE_CELLS = [f"{c}{r}" for r in range(10, 20) for c in TABLE_COLUMNS]
CELLS = HEADER_CELLS + TABLE_CELLS
BEST_MOVE_CELLS = [f"H{r}" for r in range(10, 20)]  # ЛХ


@pytest.fixture(scope="module")
def fuzz_workbook(example_snapshot):
    snapshot = example_snapshot
    protocols = [t for t in snapshot.order if t.startswith(("Тур ", "ПФ ", "Финал "))]
    assert len(protocols) == 38
    grid = snapshot.tabs[protocols[0]]
    assert grid[8][:9] == ("№", "Игрок", "Роль", "Фолы", "Убит ночью", "Заголосован днём", "Удалён", "ЛХ", "Доп. баллы")
    assert [row[0] for row in grid[1:6]] == ["Этап", "Тур", "Стол", "Судья", "Победа"]
    tabs = {title: [list(row) for row in rows] for title, rows in snapshot.tabs.items()}
    return tabs, list(snapshot.order), protocols


def _never_valid_float(f: float) -> bool:
    return not f.is_integer() and not (0 <= f <= 1)


garbage = st.one_of(
    st.text(max_size=20).map(lambda t: "?" + t),  # a word that means nothing anywhere
    st.text(max_size=12).map(lambda t: "=" + t),  # a formula
    st.floats(allow_nan=True, allow_infinity=True).filter(_never_valid_float),
    st.integers(max_value=-1),
    st.integers(min_value=10**9 + 1, max_value=10**15),
    st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2030, 12, 31)),
    st.booleans(),
)


def _standings(outcome):
    r = outcome.results
    overall = [(s.places, s.stats.player, s.stats.total, s.stats.penalties) for s in r.overall]
    stages = {k: [(s.places, s.stats.player, s.stats.total) for s in v] for k, v in r.stages.items()}
    return overall, stages, sorted((p.player, p.stage, p.round, p.points) for p in r.penalties)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.data())
def test_garbage_in_protocol_cells(fuzz_workbook, data):
    tabs, order, protocols = fuzz_workbook
    writes = data.draw(st.lists(st.tuples(st.sampled_from(protocols), st.sampled_from(CELLS), garbage),
                                min_size=1, max_size=3, unique_by=lambda w: (w[0], w[1])), label="writes")
    backend = MemoryBackend(tabs)
    for sheet, cell, value in writes:
        backend.set(sheet, cell, value)

    report = sync_once(backend, out_dir=None)  # must not raise

    problems = report.outcome.problems
    broken = {sheet for sheet, _, _ in writes}
    errors_at = {(p.sheet, p.cell) for p in problems if p.severity is Severity.ERROR}
    for sheet, cell, value in writes:
        assert (sheet, cell) in errors_at, (sheet, cell, value)
        colour, note = backend.marks[(sheet, cell)]
        assert colour == MARK_COLOURS["error"] and note
    assert {p.sheet for p in problems if p.severity is Severity.ERROR} == broken

    counted = {p.sheet for p in report.outcome.results.counted}
    assert not counted & broken and len(counted) == 38 - len(broken)
    without = Snapshot(tabs={t: tuple(map(tuple, g)) for t, g in tabs.items() if t not in broken},
                       order=tuple(t for t in order if t not in broken))
    assert _standings(report.outcome) == _standings(compute(without))
    assert sync_once(backend, out_dir=None).patch.empty  # marks and tabs are stable: nothing rewritten


@settings(max_examples=examples(10), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.data())
def test_garbage_in_a_best_move_cell_is_a_warning_and_every_game_counts(fuzz_workbook, data):
    tabs, order, protocols = fuzz_workbook
    writes = data.draw(st.lists(st.tuples(st.sampled_from(protocols), st.sampled_from(BEST_MOVE_CELLS), garbage),
                                min_size=1, max_size=3, unique_by=lambda w: (w[0], w[1])), label="writes")
    backend, cleared = MemoryBackend(tabs), MemoryBackend(tabs)
    for sheet, cell, value in writes:
        backend.set(sheet, cell, value)
        cleared.set(sheet, cell, None)

    report = sync_once(backend, out_dir=None)
    problems = report.outcome.problems
    assert not [p for p in problems if p.severity is Severity.ERROR]
    warned = {(p.sheet, p.cell) for p in problems if p.severity is Severity.WARNING}
    for sheet, cell, value in writes:
        assert (sheet, cell) in warned, (sheet, cell, value)
        assert backend.marks[(sheet, cell)][0] == MARK_COLOURS["warning"]
    assert len(report.outcome.results.counted) == 38
    assert _standings(report.outcome) == _standings(compute(cleared.read()))
