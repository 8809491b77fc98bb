"""The registration and check-in pages in a real browser at 390 px (a phone), against the live
server: a player applies (and is asked «Это вы?» for a near-duplicate), the organizer ticks arrivals
and shows the hall's code, a player checks in himself — each landing in the workbook; screenshots in
tests/artifacts/registration/."""

from __future__ import annotations

import os

import openpyxl
import pytest

from sheets_sync.web.models import Application
from tests.web.browser import ARTIFACTS, chromium, phone  # noqa: F401 - fixtures
from tests.web.organizer_support import fresh_tournament, fresh_workbook, organizer, private_data  # noqa: F401
from tests.web.registration_support import open_form, with_registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = ARTIFACTS / "registration"

# Playwright's event loop and the ORM share this thread (the test database's flush at teardown too)
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def players(path) -> dict[str, dict]:
    rows = [tuple(c.value for c in r) for r in openpyxl.load_workbook(path)["Игроки"].iter_rows()]
    return {r[0]: dict(zip(rows[0], r)) for r in rows[1:] if r[0]}


def fits_the_phone(page) -> None:
    wide = page.evaluate("[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 391)"
                         ".map(e => e.tagName + '#' + e.id + '.' + e.className).slice(0, 8)")
    assert not wide, wide
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def sign_in(page, live_server, user) -> None:
    from django.test import Client

    client = Client()
    client.force_login(user)
    page.context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])


def test_a_player_applies_on_a_phone(transactional_db, live_server, phone, fresh_tournament):
    SHOTS.mkdir(parents=True, exist_ok=True)
    with_registration(fresh_tournament.path, places=40)
    t = open_form(fresh_tournament)
    phone.goto(f"{live_server.url}/apply/{t.slug}/")
    assert "Мест: 40, свободно: 20." in phone.inner_text("#facts")
    phone.fill("#id_nickname", "Пума")
    phone.fill("#id_club", "Котики")
    phone.fill("#id_city", "Берлин")
    phone.fill("#id_telegram", "@puma_mafia")
    fits_the_phone(phone)
    phone.screenshot(path=str(SHOTS / "apply-form.png"), full_page=True)
    phone.click("#send")
    phone.wait_for_selector("#done")
    assert "Заявка принята" in phone.inner_text("#done") and "ждёт подтверждения" in phone.inner_text("#state")
    fits_the_phone(phone)
    phone.screenshot(path=str(SHOTS / "apply-done.png"), full_page=True)
    assert players(t.path)["Пума"]["Заявка"] == "подана"
    # a near-duplicate: asked, then sent as another player
    phone.goto(f"{live_server.url}/apply/{t.slug}/")
    phone.fill("#id_nickname", "Пумa1")
    phone.fill("#id_email", "other@example.org")
    phone.click("#send")
    phone.wait_for_selector("#similar")
    assert "Это вы?" in phone.inner_text("#similar") and "«Пума»" in phone.inner_text("#similar")
    fits_the_phone(phone)
    phone.screenshot(path=str(SHOTS / "apply-is-it-you.png"), full_page=True)
    phone.click("#not-me")
    phone.wait_for_selector("#done")
    assert set(Application.objects.values_list("nickname", flat=True)) == {"Пума", "Пумa1"}
    # a refusal in words on the page
    phone.goto(f"{live_server.url}/apply/{t.slug}/")
    phone.fill("#id_nickname", "Сова")
    phone.click("#send")
    phone.wait_for_selector("#form-errors")
    assert "хотя бы один контакт" in phone.inner_text("#form-errors")
    phone.screenshot(path=str(SHOTS / "apply-refused.png"), full_page=True)


def test_check_in_on_a_phone_by_the_organizer_and_by_a_player(transactional_db, live_server, phone, chromium,
                                                             organizer, fresh_tournament):
    SHOTS.mkdir(parents=True, exist_ok=True)
    t = open_form(fresh_tournament)
    sign_in(phone, live_server, organizer)
    phone.goto(f"{live_server.url}/o/{t.slug}/checkin/")
    phone.click("#new-code")
    phone.wait_for_selector("#code")
    code = phone.inner_text("#code").strip()
    phone.click("li[data-nickname='Игрок 03'] button")
    phone.wait_for_selector("li.here[data-nickname='Игрок 03']")
    assert "На месте: 1 из 20." in phone.inner_text("#count")
    fits_the_phone(phone)
    phone.screenshot(path=str(SHOTS / "checkin-organizer.png"), full_page=True)
    assert players(t.path)["Игрок 03"]["Прибыл"] == "да"
    player = chromium.new_context(viewport={"width": 390, "height": 844}, locale="ru-RU").new_page()
    try:
        player.goto(f"{live_server.url}/checkin/{t.slug}/")
        player.fill("#id_nickname", "Игрок 11")
        player.fill("#id_code", code)
        player.click("#check-in")
        player.wait_for_selector("#done")
        assert "Игрок 11 на месте" in player.inner_text("#done")
        fits_the_phone(player)
        player.screenshot(path=str(SHOTS / "checkin-player.png"), full_page=True)
    finally:
        player.context.close()
    assert players(t.path)["Игрок 11"]["Прибыл"] == "да"


def test_the_organizer_confirms_an_application_on_a_phone(transactional_db, live_server, phone, organizer,
                                                          fresh_tournament, client):
    SHOTS.mkdir(parents=True, exist_ok=True)
    t = open_form(fresh_tournament)
    client.post(f"/apply/{t.slug}/", {"nickname": "Пума", "club": "Котики", "city": "Берлин",
                                      "telegram": "@puma_mafia", "phone": "+49 170 1234567"})
    sign_in(phone, live_server, organizer)
    phone.goto(f"{live_server.url}/o/{t.slug}/")
    phone.click("#to-applications")
    card = "[data-nickname='Пума']"
    phone.wait_for_selector(card)
    assert "@puma_mafia" in phone.inner_text(card) and "подана" in phone.inner_text(f"{card} .state")
    phone.click(f"{card} button[data-state='confirmed']")
    phone.wait_for_function("document.querySelector(\"[data-nickname='Пума'] .state\").textContent === 'подтверждена'")
    fits_the_phone(phone)
    phone.screenshot(path=str(SHOTS / "applications-organizer.png"), full_page=True)
    assert players(t.path)["Пума"]["Заявка"] == "подтверждена"
