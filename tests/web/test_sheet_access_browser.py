"""A co-organizer joins a Google tournament on a phone (Chromium, 390 px), against the fake Google
(issue 43 §1, §2): Anna invites Carol on a server without a mail server — the page says no letter
went and gives the link; Carol, signed out and with no account yet, opens it, goes on to
«Регистрация» from the invitation page, comes back to it by herself and accepts. The sheet is then
shared with her as an editor and she is in «Организаторы»; Dan, accepted after Anna turned off
«Editors can share», is shown with what Anna has to do by hand; once she has, «проверить» finds
the share. Anna's members page: tests/artifacts/newcomer/members-390.png; the push snippet on
127.0.0.1 with its warning: tests/artifacts/newcomer/push-unreachable-390.png."""

from __future__ import annotations

import os

import pytest

from sheets_sync.web.models import Invitation, Membership
from tests.google_support import SA_EMAIL, fake_server, private_key_pem, sa_key  # noqa: F401 - fixtures
from tests.web.browser import ARTIFACTS, chromium, phone  # noqa: F401 - fixtures
from tests.web.test_keeping import _sheet, account  # noqa: F401 - fixtures
from tests.web.test_organizer_browser import sign_in
from tests.web.test_sheet_access import _organizers_cell, _permissions

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Playwright's event loop and the ORM share this thread (the test database's flush at teardown too)
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
PASSWORD = "Korova-2026-mafia"


def test_carol_signs_up_from_the_invitation_comes_back_accepts_and_can_open_the_sheet(
        live_server, chromium, fake_server, account, tmp_path, settings, monkeypatch):
    from django.contrib.auth import get_user_model
    from django.test import Client

    settings.EMAIL_BACKEND = "sheets_sync.web.mail.LogEmailBackend"  # no mail server: letters go to the log
    monkeypatch.delenv("SHEETS_SYNC_PUBLIC_URL", raising=False)  # no public address either
    tournament = _sheet(fake_server, account, tmp_path, "kubok")
    anna = get_user_model().objects.create_user("anna@club.ru", "anna@club.ru", PASSWORD)
    Membership.objects.create(user=anna, tournament=tournament, role=Membership.OWNER)
    owner = chromium.new_context(viewport={"width": 390, "height": 844}, locale="ru-RU").new_page()
    sign_in(owner, live_server, anna)
    members = f"{live_server.url}/o/kubok/members/"
    owner.goto(members)
    owner.fill("#id_email", "carol@club.ru")
    owner.click("main form.card button[type=submit] >> text=Пригласить")
    owner.wait_for_selector("#invite-link")
    said = owner.inner_text("main")
    assert "Почтовый сервер не настроен — письмо не отправлено; передайте ссылку сами" in said
    assert "письмо отправлено." not in said
    link = owner.inner_text("#invite-link").strip()

    carol = chromium.new_context(viewport={"width": 390, "height": 844}, locale="ru-RU").new_page()
    carol.set_default_timeout(15_000)
    carol.goto(link)  # signed out
    carol.click("#invite-signup")  # «Регистрация» on the invitation page itself
    assert carol.input_value("#id_email") == "carol@club.ru"
    carol.fill("#id_password1", PASSWORD)
    carol.fill("#id_password2", PASSWORD)
    carol.click("main button[type=submit]")
    carol.wait_for_url(link)  # back on the invitation, not on an empty «Мои турниры»
    carol.click("#accept")
    carol.wait_for_url(f"{live_server.url}/o/kubok/")
    assert "Вы соорганизатор турнира" in carol.inner_text("main")
    assert _permissions(fake_server, tournament.spreadsheet_id)["carol@club.ru"] == "writer"
    assert _organizers_cell(fake_server, tournament.spreadsheet_id) == "carol@club.ru"

    fake_server.forbid_sharing(tournament.spreadsheet_id)  # Anna turns «Editors can share» off
    invitation = Invitation.objects.create(tournament=tournament, email="dan@club.ru", token="dans-link",
                                           invited_by=anna)
    dan = Client()
    dan.force_login(get_user_model().objects.create_user("dan@club.ru", "dan@club.ru", PASSWORD))
    assert dan.post(f"/invite/{invitation.token}/").status_code == 302
    assert "dan@club.ru" not in _permissions(fake_server, tournament.spreadsheet_id)

    owner.goto(members)
    carol_line = owner.inner_text('[data-access="carol@club.ru"]')
    dan_line = owner.inner_text('[data-access="dan@club.ru"]')
    assert "редактор Google-таблицы" in carol_line
    assert "Откройте таблицу → «Настройки доступа» (кнопка «Поделиться») → добавьте dan@club.ru как редактора" in dan_line
    assert owner.evaluate("document.documentElement.scrollWidth") <= 390
    (ARTIFACTS / "newcomer").mkdir(parents=True, exist_ok=True)
    owner.screenshot(path=str(ARTIFACTS / "newcomer" / "members-390.png"), full_page=True)

    fake_server.share(tournament.spreadsheet_id, "dan@club.ru")  # Anna does as the page says …
    owner.click('[data-recheck="dan@club.ru"]')  # … and asks the service to look again
    owner.wait_for_url(members)
    assert "редактор Google-таблицы" in owner.inner_text('[data-access="dan@club.ru"]')
    assert owner.query_selector('[data-recheck="dan@club.ru"]') is None

    # the push snippet on this computer (no public address): the warning beside it, within the phone's width
    owner.goto(f"{live_server.url}/o/kubok/")
    warning = owner.inner_text("#push-unreachable")
    host = live_server.url.split("//")[1].split(":")[0]  # localhost
    assert f"Google не сможет достучаться до этого адреса: {host}" in warning and "SHEETS_SYNC_PUBLIC_URL" in warning
    assert "// ВНИМАНИЕ: этот адрес Google не виден" in owner.inner_text("#push pre.push-code")
    wide = owner.evaluate("""[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 391 && e.tagName == 'TD')
        .map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)
        + ' ' + (e.innerText || '').slice(0, 60))""")
    assert owner.evaluate("document.documentElement.scrollWidth") <= 390, "\n".join(wide)
    owner.locator("#push").screenshot(path=str(ARTIFACTS / "newcomer" / "push-unreachable-390.png"))
    owner.context.close()
    carol.context.close()
