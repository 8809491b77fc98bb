"""The server as an organizer with only a phone uses it, from first visit to the public page, on
the fake Google server (issue 35 §7): sign up, add a sheet and prove it is theirs with the shown
code, see the standings, see a judge's slip listed with a link to its cell, the standings follow
the judge's fix, advance to the semifinal, and open the hosted public page.

(The draw button of a fresh tournament is pressed in test_organizer_browser.py; here the sheet
comes with its qualifying played, as on the evening a semifinal is seated.)"""

from __future__ import annotations

import re

import pytest

from sheets_sync.web.models import Job, Tournament
from tests.google_support import GoogleBook, upload_xlsx
from tests.web.browser import ARTIFACTS, chromium, phone  # noqa: F401 - fixtures
from tests.web.organizer_support import qualified_workbook

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS / "web"
SLIP = ("Тур 1 Стол 1", "D10")  # a foul count no player can have


@pytest.fixture(scope="module", autouse=True)
def orm_beside_playwright():
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        yield


def _sign_up(page, url: str) -> None:
    page.goto(f"{url}/signup/")
    page.fill("#id_email", "anna@club.ru")
    page.fill("#id_password1", "Korova-2026-mafia")
    page.fill("#id_password2", "Korova-2026-mafia")
    page.click("main button[type=submit]")
    page.wait_for_url(f"{url}/")


def _claim(page, url: str, book: GoogleBook, sid: str) -> Tournament:
    page.click("text=Добавить таблицу")
    page.fill("#id_link", f"https://docs.google.com/spreadsheets/d/{sid}/edit")
    page.click("main button[type=submit]")
    code = page.inner_text("#claim-code").strip()
    book.edit({("Турнир", "E3"): code})  # typed by the organizer into the sheet's Tournament tab
    page.click("button[name=check]")
    page.wait_for_url(re.compile(r"/o/[a-z0-9-]+/$"))
    return Tournament.objects.get(spreadsheet_id=sid)


def test_from_sign_up_to_the_public_page_on_a_google_sheet(live_server, phone, settings, fake_server, sa_key,
                                                           tmp_path, monkeypatch):
    settings.GOOGLE_ENDPOINT, settings.SERVICE_ACCOUNTS = fake_server.url, sa_key
    monkeypatch.setenv("SHEETS_SYNC_GOOGLE_ENDPOINT", fake_server.url)
    SHOTS.mkdir(parents=True, exist_ok=True)
    sid = upload_xlsx(fake_server, qualified_workbook(tmp_path / "qualified.xlsx"))
    book, page = GoogleBook(fake_server, sa_key, sid), phone
    page.on("dialog", lambda dialog: dialog.accept())

    _sign_up(page, live_server.url)
    t = _claim(page, live_server.url, book, sid)
    page.goto(f"{live_server.url}/o/{t.slug}/")
    page.wait_for_selector("#games")
    assert page.inner_text("#games").strip().startswith("28 из")  # the sync the claim started: 7 rounds × 4 tables

    book.edit({SLIP: 9})  # a judge's slip
    page.click("#sync-now")
    page.wait_for_selector("#problems li")
    gid = dict((title, g) for g, title in book.backend().read().token)[SLIP[0]]
    link = page.get_attribute("#problems li a", "href")
    assert link == f"https://docs.google.com/spreadsheets/d/{sid}/edit#gid={gid}&range={SLIP[1]}"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the push snippet scrolls inside its box
    page.screenshot(path=str(SHOTS / "story-problem.png"), full_page=True)

    book.edit({SLIP: 1})  # the judge fixes it
    page.click("#sync-now")
    page.wait_for_function("!document.querySelector('#problems li')")
    page.click("#action-advance summary")
    page.click("#press-advance")
    page.wait_for_selector("#draw-report")
    assert "Рассажены:" in page.inner_text("#draw-report")
    assert any(title.startswith("ПФ") for title in book.tabs())  # the semifinal's protocol tabs, in the sheet
    assert not Job.objects.filter(tournament=t, status=Job.FAILED).exists()

    page.goto(f"{live_server.url}/t/{t.slug}/")
    assert "Кубок города" in page.inner_text("body")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(SHOTS / "story-public.png"), full_page=False)
