"""A club season's site in a real headless Chromium: the season table, an evening and a player's
page on a phone (390 px) never overflow the page; the season page's screenshot goes to
tests/artifacts/season-phone.png."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from sheets_sync.render.season_site import evening_file
from sheets_sync.render.site import player_file, write_site
from tests.test_browser import ARTIFACTS, CHROMIUM, _run, assert_pages_fit_a_phone
from tests.test_season_outputs import _results

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="headless Chromium not installed: apt-get install -y chromium"),
]

PAGES = ["index.html", "evenings.html", evening_file("2026-12-05"), player_file("Анна"), player_file("Лев")]


@pytest.fixture(scope="module")
def site() -> Path:
    root = Path(tempfile.mkdtemp(prefix="season-browser-"))
    write_site(_results(), [], root, language="ru")
    yield root
    shutil.rmtree(root, ignore_errors=True)


def test_season_pages_fit_a_phone(site):
    assert_pages_fit_a_phone(site, PAGES)


def test_season_phone_screenshot(site):
    target = ARTIFACTS / "season-phone.png"
    target.unlink(missing_ok=True)
    _run(["--screenshot=" + str(target), "--window-size=390,844", (site / "index.html").as_uri()])
    assert target.exists() and target.stat().st_size > 1000
    player = ARTIFACTS / "season-phone-player.png"
    player.unlink(missing_ok=True)
    _run(["--screenshot=" + str(player), "--window-size=390,1200", (site / player_file("Анна")).as_uri()])
    assert player.exists() and player.stat().st_size > 1000
