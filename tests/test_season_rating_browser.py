"""The rated season's site (config/examples/club-season-rating.toml) in a real headless Chromium on a
phone (390 px): the season table with its rating columns, an evening's page and a player's page never overflow the
page (the wide table scrolls inside its box); the table's screenshot goes to
tests/artifacts/rating/season-phone-390.png."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from sheets_sync.render.season_site import evening_file
from sheets_sync.render.site import player_file, write_site
from tests.test_browser import ARTIFACTS, CHROMIUM, _run, assert_pages_fit_a_phone
from tests.test_season_rating import _results

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="headless Chromium not installed: apt-get install -y chromium"),
]

PAGES = ["index.html", "race.html", evening_file("2026-12-19"), player_file("Анна")]


@pytest.fixture(scope="module")
def site() -> Path:
    root = Path(tempfile.mkdtemp(prefix="season-rating-browser-"))
    write_site(_results(), [], root, language="ru")
    yield root
    shutil.rmtree(root, ignore_errors=True)


def test_rated_season_pages_fit_a_phone(site):
    assert_pages_fit_a_phone(site, PAGES)


def test_rated_season_phone_screenshot(site):
    target = ARTIFACTS / "rating" / "season-phone-390.png"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.unlink(missing_ok=True)
    page = (site / "index.html").read_text(encoding="utf-8")
    assert "Порядок по рейтингу игрока" in page and ">1008<" in page  # what the screenshot shows
    _run(["--screenshot=" + str(target), "--window-size=390,844", (site / "index.html").as_uri()])
    assert target.exists() and target.stat().st_size > 1000
