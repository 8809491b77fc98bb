"""The league site in Chromium: a 390 px phone and an A4 print page (screenshots in
tests/artifacts/league/ to look at); nothing of the page is wider than the screen."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets_sync.actions.league import run_league
from sheets_sync.render.site import player_file
from tests.league_support import write_tournament, game
from tests.test_league import A_GAMES, B_GAMES, LEAGUE_TOML
from tests.web.browser import ARTIFACTS, chromium, phone  # noqa: F401 - fixtures

SHOTS = ARTIFACTS / "league"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("league-site")
    write_tournament(folder / "a.xlsx", A_GAMES + [game([4, 5, 6], "red"), game([1, 3, 9], "black")],
                     name="Кубок Рейна 2020", date="01.02.2020")
    write_tournament(folder / "b.xlsx", B_GAMES, name="Клубный вечер", date="01.03.2020")
    (folder / "league.toml").write_text(LEAGUE_TOML, encoding="utf-8")
    run_league(folder / "league.toml", out=folder / "out")
    return folder / "out" / "site"


def _overflow(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


@pytest.mark.parametrize("name, page_file", [("index", "index.html"), ("player", player_file("Игрок 7")),
                                             ("events", "events.html"), ("series", "series.html")])
def test_phone_390(site, phone, name, page_file):
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.goto((site / page_file).as_uri())
    phone.screenshot(path=str(SHOTS / f"phone-390-{name}.png"), full_page=True)
    assert _overflow(phone) <= 0
    assert phone.locator("h1").inner_text()


def test_a4_print(site, chromium):
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = chromium.new_context(viewport={"width": 794, "height": 1123})
    page = context.new_page()
    try:
        page.emulate_media(media="print")
        for name, page_file in (("index", "index.html"), ("player", player_file("Игрок 7"))):
            page.goto((site / page_file).as_uri())
            page.screenshot(path=str(SHOTS / f"print-a4-{name}.png"), full_page=True)
            assert _overflow(page) <= 0
        assert page.locator("svg.curve polyline").count() == 1
    finally:
        context.close()
