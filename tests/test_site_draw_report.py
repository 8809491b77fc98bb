"""The public seating page shows the draw's fairness report (issue 45): its figures read back from
the «Жеребьёвка» tab the draw wrote, as a small table under the seating; nothing when the tab is
missing or not of the report's shape, nor for a stage the public does not see."""

from __future__ import annotations

import dataclasses
from functools import lru_cache

import pytest

from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.example import EXAMPLE_PATH
from sheets_sync.loop.draw_figures import draw_figures
from sheets_sync.loop.publish import PublicResults
from sheets_sync.loop.sync import compute
from sheets_sync.render.site import write_site
from tests.test_site import check_golden
from tests.web.browser import ARTIFACTS, chromium, phone  # noqa: F401 - fixtures

# the tab as sheets_sync.workbook.layout.draw_report_tab writes it (an .xlsx keeps numbers as numbers)
REPORT = (
    ("German Mafia Open 2016 — Жеребьёвка: Отбор",), ("Жеребьёвка: 40 игроков, столов в туре: 4, туров: 7",), (),
    ("Σc²", 4718), ("Нижняя граница", 4710), ("Разрыв", 8), ("Пар без встреч", 302), ("Пар с 3+ встречами", 0),
    ("Максимум встреч пары", 2), ("Повторов места", 0), ("Встреч одноклубников", 12), ("Зерно", 7), ("Секунд", 3.5), (),
    ("Совместных игр", "Пар"), (0, 302), (1, 416), (2, 62), (),
    ("Игрок", "Клуб", "Игр"), ("Жасмин", "Клуб 1", 7),
)


@lru_cache(maxsize=None)
def outcome_with(report: tuple | None):
    snap = ExcelBackend(EXAMPLE_PATH).read()
    if report is not None:
        snap = dataclasses.replace(snap, tabs={**snap.tabs, "Жеребьёвка": report}, order=(*snap.order, "Жеребьёвка"))
    return compute(snap)


def seating_page(report: tuple | None) -> str:
    public = PublicResults.of(outcome_with(report))
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        write_site(public.results, public.problems, Path(folder), language=public.language,
                   progress=public.progress, live=public.live, draw_figures=public.draw_figures)
        return (Path(folder) / "seating.html").read_text(encoding="utf-8")


def test_the_figures_are_read_back_from_the_draws_tab():
    figures = draw_figures({"Жеребьёвка": REPORT}, "ru")
    assert figures.stage == "Отбор" and figures.summary.startswith("Жеребьёвка: 40 игроков")
    assert figures.rows[0] == ("Σc²", "4718") and ("Секунд", "3,5") in figures.rows
    assert all(name not in str(figures) for name in ("Жасмин", "Клуб 1"))  # the figures only: no player


def test_the_seating_page_shows_the_report_under_the_seating_golden():
    page = seating_page(REPORT)
    assert 'id="draw-report"' in page and page.index('id="draw-report"') > page.rindex("seating-card")
    check_golden("site/seating-draw-report.html", page)


def test_no_report_tab_no_report_and_the_page_is_as_before():
    page = seating_page(None)
    assert 'id="draw-report"' not in page and "Отчёт о жеребьёвке" not in page


def test_a_tab_not_of_the_reports_shape_shows_nothing():
    assert draw_figures({"Жеребьёвка": (("заметки",), ("что-то",), (), ("a", "b", "c"))}, "ru") is None
    assert draw_figures({"Жеребьёвка": ()}, "ru") is None
    assert draw_figures({"Жеребьёвка": (("Жеребьёвка: Отбор",), ("x",))}, "ru") is None
    assert 'id="draw-report"' not in seating_page((("Кубок — Жеребьёвка: Отбор",), ("x",), (), ("a", "b", "c")))


def test_the_report_of_a_stage_the_public_does_not_see_seated_is_not_shown():
    other = (("German Mafia Open 2016 — Жеребьёвка: Суперфинал",), *REPORT[1:])
    assert 'id="draw-report"' not in seating_page(other)


@pytest.mark.browser
def test_the_report_reads_on_a_phone(phone, tmp_path):
    """At 390 px the report's table fits the screen (no sideways scroll): a picture for the review."""
    public = PublicResults.of(outcome_with(REPORT))
    write_site(public.results, public.problems, tmp_path, language=public.language, progress=public.progress,
               live=public.live, draw_figures=public.draw_figures)
    phone.goto((tmp_path / "seating.html").as_uri())
    report = phone.locator("#draw-report")
    report.scroll_into_view_if_needed()
    assert report.locator("tr").count() == len(REPORT[3:13])
    box = report.locator("table").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, "the report's table is wider than the phone"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot = ARTIFACTS / "registration" / "draw-public-390.png"
    shot.unlink(missing_ok=True)
    report.screenshot(path=str(shot))
    assert shot.exists() and shot.stat().st_size > 1000
