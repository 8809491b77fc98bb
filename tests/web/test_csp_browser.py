"""The pages still work in Chromium under their Content-Security-Policy (issue 42 §8), at 390 px:
the job page polls and reloads itself when its job ends, the VK post's copy button copies, a
button that writes into the sheet asks first (and does nothing when the answer is no), the new
tournament's regulation follows its kind — and the browser refuses nothing on any of these pages
nor on the public site (no «Refused to …» in its console, no securitypolicyviolation event)."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from sheets_sync.web import jobs
from sheets_sync.web.models import Job, ServiceAccount
from tests.web.browser import ARTIFACTS, chromium, phone  # noqa: F401 - fixtures
from tests.web.organizer_support import excel_tournament, organizer, private_data  # noqa: F401 - fixtures
from tests.web.test_organizer_browser import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = ARTIFACTS / "web"

# Playwright's event loop and the ORM share this thread (the test database's flush at teardown too)
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

WATCH = ("document.addEventListener('securitypolicyviolation', e => "
         "console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));")


def test_the_pages_work_under_their_policy_on_a_phone(transactional_db, live_server, phone, organizer,
                                                      excel_tournament, monkeypatch):
    refused: list[str] = []
    phone.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text
             or "CSP violation" in m.text or "Refused to" in m.text else None)
    phone.add_init_script(WATCH)
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    sign_in(phone, live_server, organizer)
    jobs.request_sync(excel_tournament, "first")  # the public site exists

    # a job that waits: the page polls its status and reloads itself when it ends
    monkeypatch.setattr(jobs, "run_job_task", lambda job_id: None)  # a queue nobody consumes yet
    phone.goto(f"{live_server.url}/o/gmo/")
    phone.click("#action-vk summary")
    phone.click("#press-vk")
    phone.wait_for_selector("#job-status")
    assert "vk" in phone.url or "/jobs/" in phone.url
    job = Job.objects.get(action="vk")
    jobs.run_job(job.pk)  # the worker takes it now; the page notices by itself
    phone.wait_for_selector("#vk-post", timeout=20_000)
    phone.click("#copy")
    expect(phone.locator("#copy")).to_have_text("Скопировано")  # a selector, not a script: the policy forbids eval
    assert phone.evaluate("navigator.clipboard.readText()") == phone.input_value("#vk-text")
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(SHOTS / "job-vk-csp.png"), full_page=True)

    # a button that writes asks first: «no» sends nothing, «yes» sends it
    answers = iter([False, True])
    asked: list[str] = []

    def answer(dialog) -> None:
        asked.append(dialog.message)
        dialog.accept() if next(answers) else dialog.dismiss()

    phone.on("dialog", answer)
    phone.goto(f"{live_server.url}/o/gmo/")
    phone.click("#action-draw summary")
    phone.click("#press-draw")
    assert asked and not Job.objects.filter(action="draw").exists()
    phone.click("#press-draw")
    phone.wait_for_selector("#job-status")
    assert Job.objects.filter(action="draw").count() == 1 and len(asked) == 2

    # the new tournament's regulation follows its kind until the organizer picks one
    ServiceAccount.objects.create(email="sheets-sync@example.iam.gserviceaccount.com", key_file="/nonexistent.json")
    phone.goto(f"{live_server.url}/new/")
    assert phone.input_value("#id_preset") == "gmo-2016"
    phone.select_option("#id_kind", "season")
    assert phone.input_value("#id_preset") == "club-season"

    for page in ("/t/gmo/", "/t/gmo/players.html", "/login/", "/no/such/page/"):
        phone.goto(live_server.url + page)
        phone.wait_for_load_state("load")
    assert refused == []
