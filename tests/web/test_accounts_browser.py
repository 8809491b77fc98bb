"""An organizer with only a phone's browser (390 px, Chromium through Playwright): signs up, adds
a Google sheet on the fake Sheets server by typing the shown code into its Tournament tab, and finds
it in the list. Screenshots in tests/artifacts/web/ (sign-up, the add-sheet page with its code)."""

from __future__ import annotations

import os
import re

import pytest

from sheets_sync.example import EXAMPLE_PATH
from sheets_sync.web.models import Tournament
from tests.google_support import SA_EMAIL, GoogleBook, upload_xlsx
from tests.web.browser import ARTIFACTS, chromium, phone  # noqa: F401 - fixtures

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS / "web"


@pytest.fixture(scope="module", autouse=True)
def orm_beside_playwright():
    """Playwright's sync API runs an event loop in this thread; the test's own ORM calls (and the
    database set-up) are plain blocking calls. Module-wide: it must be set before ``chromium`` starts."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        yield


def fits_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= 390


def test_sign_up_add_a_sheet_with_its_code_and_see_it_listed(live_server, phone, settings, fake_server, sa_key):
    settings.GOOGLE_ENDPOINT, settings.SERVICE_ACCOUNTS = fake_server.url, sa_key
    SHOTS.mkdir(parents=True, exist_ok=True)
    sid = upload_xlsx(fake_server, EXAMPLE_PATH)
    page = phone

    page.goto(f"{live_server.url}/signup/")
    page.fill("#id_email", "Anna@Club.ru")
    page.fill("#id_password1", "Korova-2026-mafia")
    page.fill("#id_password2", "Korova-2026-mafia")
    assert fits_the_phone(page)
    page.screenshot(path=str(SHOTS / "signup.png"), full_page=True)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    assert "двумя способами" in page.inner_text("main") and "anna@club.ru" in page.inner_text("header")

    page.click("text=Добавить таблицу")
    assert SA_EMAIL in page.inner_text("#service-account")
    page.fill("#id_link", f"https://docs.google.com/spreadsheets/d/{sid}/edit#gid=0")
    page.click("main button[type=submit]")
    code = page.inner_text("#claim-code").strip()
    assert code.startswith("SS-") and fits_the_phone(page)
    page.screenshot(path=str(SHOTS / "add-sheet-code.png"), full_page=True)

    GoogleBook(fake_server, sa_key, sid).edit({("Турнир", "E3"): code})  # the organizer types it into the sheet
    page.click("button[name=check]")  # «Проверить»
    page.wait_for_url(re.compile(r"/o/[a-z0-9-]+/$"))
    tournament = Tournament.objects.get(spreadsheet_id=sid)
    assert page.url == f"{live_server.url}/o/{tournament.slug}/"
    assert code in page.inner_text("main")  # «you may now delete the code»

    page.click("header a.app")
    page.wait_for_url(f"{live_server.url}/")
    row = page.inner_text("table.tournaments")
    assert str(Tournament.objects.get(pk=tournament.pk)) in row and fits_the_phone(page)
    page.screenshot(path=str(SHOTS / "tournament-list.png"), full_page=True)
    assert os.path.getsize(SHOTS / "add-sheet-code.png") > 1000

    for address, shot in ((f"/o/{tournament.slug}/members/", "members.png"), ("/new/", "new-tournament.png")):
        page.goto(live_server.url + address)
        assert fits_the_phone(page), address
        page.screenshot(path=str(SHOTS / shot), full_page=True)
    assert page.input_value("#id_preset") == "gmo-2016"
    page.select_option("#id_kind", "season")
    assert page.input_value("#id_preset") == "club-season"  # a season's regulation follows the choice

    page.goto(f"{live_server.url}/o/{tournament.slug}/members/")
    page.fill("#id_email", "boris@club.ru")
    page.click("main button:has-text('Пригласить')")
    page.screenshot(path=str(SHOTS / "members-invited.png"), full_page=True)
    assert "/invite/" in page.inner_text("#invite-link") and fits_the_phone(page)
