"""One set of end-to-end scenarios, run against an .xlsx and against the fake Google server.

Each scenario is run on both backends and every observable output is compared: the
standings.json documents, the Problems tab rows, the standings tab and the marks left in
judges' cells (Excel: fill colour + comment read back with openpyxl; Google: the fake's
cell background + note).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sheets_sync.example import EXAMPLE_PATH
from sheets_sync.render.json_out import dumps, standings_document
from sheets_sync.loop.sync import sync_once
from tests.google_support import ExcelBook, GoogleBook, upload_xlsx
from tests.helpers import substitute_cells, table

HOSTILE = '=HYPERLINK("http://evil.example";"клик")'
BROKEN = {
    ("Тур 2 Стол 1", "B11"): "Никто",  # unknown player
    ("Тур 3 Стол 1", "I12"): "много",  # unreadable extra points
    ("Тур 1 Стол 1", "C11"): "дон",  # a second don: wrong composition
}


@pytest.fixture(params=["excel", "google"])
def book(request, tmp_path):
    path = tmp_path / "t.xlsx"
    shutil.copyfile(EXAMPLE_PATH, path)
    if request.param == "excel":
        return ExcelBook(path)
    server = request.getfixturevalue("fake_server")
    key = request.getfixturevalue("sa_key")
    return GoogleBook(server, key, upload_xlsx(server, path))


def observe(book, out: Path) -> dict:
    """Run one sync cycle and collect every output the scenarios compare."""
    report = sync_once(book.backend(), out_dir=None)
    # what standings.json holds (publish_files also renders the site, which is slow and not compared here)
    doc = standings_document(report.outcome.results, report.outcome.problems, language=report.outcome.language)
    return {
        "doc": json.loads(dumps(doc)),
        "problems": book.values("Проверка"),
        "standings": book.values("Итоги"),
        "marks": book.marks(),
        "tabs": book.tabs(),
        "report": report,
    }


# -- the scenarios: each returns the outputs at its checkpoints ---------------------------------------
def scenario_example(book, out: Path) -> list[dict]:
    first = observe(book, out)
    again = observe(book, out)
    assert not again["report"].written and again["report"].patch.empty  # nothing changed, nothing written
    return [first, again]


def scenario_broken_then_fixed(book, out: Path) -> list[dict]:
    clean = observe(book, out)
    original = book.cell_values(BROKEN)
    book.edit(BROKEN)
    broken = observe(book, out)
    book.edit(original)
    fixed = observe(book, out)
    return [clean, broken, fixed]


def scenario_hostile_nickname(book, out: Path) -> list[dict]:
    observe(book, out)
    old = "Вольт"
    edits = {}
    for tab in book.tabs():
        if tab in ("Итоги", "Отбор", "Полуфинал", "Финал", "Статистика", "Проверка", "_sheets_sync"):
            continue
        rows = book.values(tab)
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                if value == old:
                    from scoring.cells import a1

                    edits[(tab, a1(r, c))] = HOSTILE
    assert len(edits) > 5
    book.edit(edits)
    hostile = observe(book, out)
    return [hostile]


SCENARIOS = {"example": scenario_example, "broken_then_fixed": scenario_broken_then_fixed,
             "hostile_nickname": scenario_hostile_nickname}


def _comparable(states: list[dict]) -> list[dict]:
    return [{k: v for k, v in s.items() if k != "report"} for s in states]


# Results of the Excel run of each scenario, for the Google run to compare with.  The
# parametrisation runs "excel" before "google" for each scenario (pytest keeps the order).
_EXCEL_RESULTS: dict[str, list[dict]] = {}


@pytest.mark.slow  # every scenario on both backends
@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_scenario(scenario, book, tmp_path):
    states = SCENARIOS[scenario](book, tmp_path / "out")
    check_scenario(scenario, states, book)
    if book.kind == "excel":
        _EXCEL_RESULTS[scenario] = _comparable(states)
    else:
        excel = _EXCEL_RESULTS.get(scenario)
        if excel is None:  # run alone (-k google): compute the Excel twin now
            path = tmp_path / "twin.xlsx"
            shutil.copyfile(EXAMPLE_PATH, path)
            excel = _comparable(SCENARIOS[scenario](ExcelBook(path), tmp_path / "twin-out"))
        google = _comparable(states)
        for n, (e, g) in enumerate(zip(excel, google, strict=True)):
            for key in e:
                assert g[key] == e[key], f"{scenario}, checkpoint {n}: {key} differs between Excel and Google"


def check_scenario(scenario: str, states: list[dict], book) -> None:
    """What each scenario must show on either backend (beyond Excel == Google)."""
    first = states[0]
    if scenario == "example":
        assert first["doc"]["games_counted"] == 38
        assert not [p for p in first["doc"]["problems"] if p["severity"] == "error"]
        # the two substitutes are warnings marked in their protocol cells
        assert {k for k, (sev, _) in first["marks"].items() if sev == "warning"} >= set(substitute_cells())
        assert len(first["tabs"]) == len(set(first["tabs"]))
    elif scenario == "broken_then_fixed":
        clean, broken, fixed = states
        errors = {k for k, (sev, _) in broken["marks"].items() if sev == "error"}
        assert {("Тур 2 Стол 1", "B11"), ("Тур 3 Стол 1", "I12")} <= errors
        assert any(k[0] == "Тур 1 Стол 1" for k in errors)
        assert all(note for _, note in broken["marks"].values())
        listed = {(row[0], row[1]) for row in table(broken["problems"])[1:]}
        assert ("Тур 2 Стол 1", "B11") in listed and ("Тур 3 Стол 1", "I12") in listed
        assert broken["doc"]["games_counted"] == 35
        # fixed: every mark of the broken state is gone, the outputs are the clean ones again
        assert fixed["marks"] == clean["marks"]
        assert fixed["doc"] == clean["doc"] and fixed["problems"] == clean["problems"]
    elif scenario == "hostile_nickname":
        doc = first["doc"]
        assert HOSTILE in {s["player"] for s in doc["standings"]}
        cells = book.text_cells("Итоги", HOSTILE)
        assert cells and all(cells)  # shown as text, never a formula
