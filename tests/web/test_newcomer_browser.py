"""The organizer's choices and answers on a 390 px phone (issue 43 §6), pressed in Chromium: the
stage and the late player picked from lists, the job list naming what started each sync, the
fairness report as tables, the MWT page's short list, the copy buttons; screenshots in
tests/artifacts/newcomer/."""

from __future__ import annotations

import os

import pytest

from sheets_sync.web.models import Job, ServiceAccount
from tests.web.browser import ARTIFACTS, chromium, phone  # noqa: F401 - fixtures
from tests.web.organizer_support import (  # noqa: F401 - fixtures
    excel_tournament,
    fresh_tournament,
    fresh_workbook,
    organizer,
    private_data,
    qualified_tournament,
)
from tests.web.test_organizer_browser import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = ARTIFACTS / "newcomer"

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop and the ORM share this thread


def fits(page) -> None:
    wide = page.evaluate("[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 391"
                         " && !e.closest('.scroll')).map(e => e.tagName + '#' + e.id + '.' + e.className).slice(0, 8)")
    assert not wide, wide
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_advance_by_the_stages_name_then_replace_a_late_player_picked_from_the_seated(
        live_server, phone, organizer, qualified_tournament):
    SHOTS.mkdir(parents=True, exist_ok=True)
    sign_in(phone, live_server, organizer)
    phone.on("dialog", lambda dialog: dialog.accept())
    phone.goto(f"{live_server.url}/o/qualified/")
    phone.click("#sync-now")
    phone.wait_for_selector("#games")
    phone.click("#action-advance summary")
    phone.select_option("#advance-stage", label="Полуфинал")
    phone.click("#press-advance")
    phone.wait_for_selector("#draw-report")
    fits(phone)
    phone.screenshot(path=str(SHOTS / "advance-report.png"), full_page=True)
    advanced = Job.objects.get(tournament=qualified_tournament, action="advance")
    assert advanced.params.get("stage") == "semifinal" and advanced.status == Job.DONE

    phone.goto(f"{live_server.url}/o/qualified/")
    phone.wait_for_function("!document.querySelector('#refreshing')")
    phone.reload()
    phone.click("#action-replace summary")
    assert "Кто опоздал (Полуфинал)" in phone.inner_text("#action-replace")
    offered = phone.eval_on_selector_all("#replace-player option:not([disabled])", "os => os.map(o => o.textContent)")
    assert offered == advanced.result["players"]
    phone.select_option("#replace-player", label=offered[2])
    fits(phone)
    phone.screenshot(path=str(SHOTS / "replace-choice.png"), full_page=True)
    phone.click("#press-replace")
    phone.wait_for_selector("#replaced")
    assert offered[2] in phone.inner_text("#replaced")

    phone.goto(f"{live_server.url}/o/qualified/")
    recent = phone.inner_text("#recent")
    assert "Обновление после замены игрока" in recent and "Обновление после рассадки этапа" in recent
    assert recent.count("Обновить сейчас") == 1  # the one press
    fits(phone)
    phone.screenshot(path=str(SHOTS / "jobs.png"), full_page=True)


def test_the_draws_report_is_tables_that_fit_the_phone(live_server, phone, organizer, fresh_tournament):
    SHOTS.mkdir(parents=True, exist_ok=True)
    sign_in(phone, live_server, organizer)
    phone.on("dialog", lambda dialog: dialog.accept())
    phone.goto(f"{live_server.url}/o/cup/")
    phone.click("#action-draw summary")
    phone.fill("#draw-time", "2")
    phone.click("#press-draw")
    phone.wait_for_selector("#draw-figures")
    assert phone.query_selector("pre.report") is None
    assert "Нижняя граница" in phone.inner_text("#draw-figures")
    phone.click("#draw-players summary")
    assert phone.locator("#draw-players tr").count() == 21
    fits(phone)  # the players' wide table scrolls inside its box, the page does not
    phone.screenshot(path=str(SHOTS / "draw-report.png"), full_page=True)


def test_the_mwt_page_lists_who_lacks_an_id_in_a_few_lines(live_server, phone, organizer, excel_tournament):
    SHOTS.mkdir(parents=True, exist_ok=True)
    sign_in(phone, live_server, organizer)
    phone.goto(f"{live_server.url}/o/gmo/")
    phone.click("#action-mwt summary")
    phone.click("#press-mwt")
    phone.wait_for_selector("#mwt-missing")
    said = phone.inner_text("main")
    assert "null" not in said and "Не указан «ID турнира MWT»" in said
    assert phone.locator("#mwt-missing p.error, #mwt-missing summary").count() <= 3
    fits(phone)
    phone.screenshot(path=str(SHOTS / "mwt.png"), full_page=True)
    phone.click("#mwt-players summary")
    fits(phone)
    phone.screenshot(path=str(SHOTS / "mwt-players.png"), full_page=True)


def test_the_service_address_is_copied_with_one_press(live_server, phone, organizer):
    SHOTS.mkdir(parents=True, exist_ok=True)
    account = ServiceAccount.objects.create(email="sheets-sync@cup-123.iam.gserviceaccount.com", key_file="/no/key.json")
    sign_in(phone, live_server, organizer)
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    phone.goto(f"{live_server.url}/add/")
    phone.click("button[data-copies=service-account]")
    phone.wait_for_function("document.querySelector('button[data-copies=service-account]').textContent === 'Скопировано'")
    assert phone.evaluate("navigator.clipboard.readText()") == account.email
    fits(phone)
    phone.screenshot(path=str(SHOTS / "add-sheet-copied.png"), full_page=True)
