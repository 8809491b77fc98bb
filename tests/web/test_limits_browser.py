"""The press limit as an organizer meets it on a phone (Chromium, 390 px): ten presses of «Обновить
сейчас» in a row go through, the eleventh is held back and the page says so in Russian, with when
to press again. Screenshot in tests/artifacts/web/press-limit.png."""

from __future__ import annotations

import os

import pytest

from sheets_sync.web import throttle
from sheets_sync.web.models import Job
from tests.web.browser import ARTIFACTS, chromium, phone  # noqa: F401 - fixtures
from tests.web.organizer_support import excel_tournament, organizer, private_data  # noqa: F401 - fixtures
from tests.web.test_organizer_browser import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Playwright's event loop and the ORM share this thread (the test database's flush at teardown too)
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def test_the_eleventh_press_in_a_row_is_held_back_and_said_in_russian(live_server, phone, organizer,
                                                                      excel_tournament, monkeypatch):
    moment = throttle.clock()
    monkeypatch.setattr(throttle, "clock", lambda: moment)  # the presses come faster than one each 6 s
    sign_in(phone, live_server, organizer)
    phone.goto(f"{live_server.url}/o/{excel_tournament.slug}/")
    for _ in range(10):
        phone.click("#sync-now")
        phone.wait_for_load_state()
        assert "Слишком много" not in phone.inner_text("main")
    syncs = Job.objects.filter(action="sync").count()
    phone.click("#sync-now")
    phone.wait_for_selector("text=Слишком много нажатий подряд")
    said = phone.inner_text("main")
    assert "следующую кнопку можно нажать через 6 секунд" in said
    assert Job.objects.filter(action="sync").count() == syncs  # nothing queued
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    (ARTIFACTS / "web").mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "web" / "press-limit.png"), full_page=False)
