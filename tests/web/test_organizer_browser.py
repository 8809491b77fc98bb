"""The organizer's page in a real browser at 390 px (a phone): sync now, draw (its fairness
report), advance, then the public page — with screenshots in tests/artifacts/web/."""

from __future__ import annotations

import os

import openpyxl
import pytest

from tests.web.browser import ARTIFACTS, chromium, phone  # noqa: F401 - fixtures
from tests.web.organizer_support import (  # noqa: F401 - fixtures
    fresh_tournament,
    fresh_workbook,
    organizer,
    private_data,
    qualified_tournament,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = ARTIFACTS / "web"


# Playwright's event loop and the ORM share this thread (the test database's flush at teardown too)
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def sign_in(page, live_server, user) -> None:
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])


def test_sync_draw_advance_and_the_public_page_on_a_phone(transactional_db, live_server, phone, organizer,
                                                          fresh_tournament, qualified_tournament):
    SHOTS.mkdir(parents=True, exist_ok=True)
    sign_in(phone, live_server, organizer)
    phone.on("dialog", lambda dialog: dialog.accept())  # «write into the sheet?» — yes
    phone.goto(f"{live_server.url}/o/cup/")
    phone.click("#sync-now")
    phone.wait_for_selector("#games")
    assert phone.inner_text("#games").strip().startswith("0 из")
    phone.click("#action-draw summary")
    phone.fill("#draw-time", "2")
    phone.click("#press-draw")
    phone.wait_for_selector("#draw-report")
    report = phone.inner_text("#draw-report")
    assert "Отчёт о жеребьёвке" in report and "Σc²" in report
    phone.screenshot(path=str(SHOTS / "draw-report.png"), full_page=True)
    phone.goto(f"{live_server.url}/o/qualified/")
    phone.click("#action-advance summary")
    phone.click("#press-advance")
    phone.wait_for_selector("#draw-report")
    assert "Рассажены:" in phone.inner_text("#draw-report")
    wb = openpyxl.load_workbook(qualified_tournament.path)  # a judge's slip: the page lists it with its cell
    wb["Тур 1 Стол 1"]["D10"] = 9
    wb.save(qualified_tournament.path)
    phone.goto(f"{live_server.url}/o/qualified/")
    phone.click("#sync-now")
    phone.wait_for_selector("#problems li")
    assert "Тур 1 Стол 1!D10" in phone.inner_text("#problems")
    phone.screenshot(path=str(SHOTS / "tournament-page.png"), full_page=True)
    wide = phone.evaluate("[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 391)"
                          ".map(e => e.tagName + '#' + e.id + '.' + e.className).slice(0, 8)")
    assert not wide, wide
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    phone.screenshot(path=str(SHOTS / "tournament-page.png"), full_page=True)
    phone.goto(f"{live_server.url}/t/cup/")
    assert "Кубок" in phone.inner_text("body")
    phone.screenshot(path=str(SHOTS / "public-page.png"), full_page=False)
