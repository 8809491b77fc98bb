"""An invitation on a phone (Chromium, 390 px): Bob, signed in, opens the link Anna sent Carol and is
told it is Carol's and to sign in as her; he signs out from that page, Carol — with no account yet —
goes on from the sign-in page to sign up, comes back to the invitation by herself and accepts it.
Screenshot of Bob's page in tests/artifacts/web/invitation-someone-else.png."""

from __future__ import annotations

import os

import pytest

from sheets_sync.web.models import Invitation, Membership
from tests.web.browser import ARTIFACTS, chromium, phone  # noqa: F401 - fixtures
from tests.web.organizer_support import excel_tournament, organizer, private_data  # noqa: F401 - fixtures
from tests.web.test_organizer_browser import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Playwright's event loop and the ORM share this thread (the test database's flush at teardown too)
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def test_bob_is_sent_to_sign_in_as_carol_who_signs_up_comes_back_and_accepts(live_server, phone, organizer,
                                                                             excel_tournament):
    from django.contrib.auth import get_user_model

    invitation = Invitation.objects.create(tournament=excel_tournament, email="carol@club.ru", token="carols-link",
                                           invited_by=organizer)
    bob = get_user_model().objects.create_user("bob@club.ru", "bob@club.ru", "Korova-2026-mafia")
    sign_in(phone, live_server, bob)
    link = f"{live_server.url}/invite/{invitation.token}/"
    phone.goto(link)
    said = phone.inner_text("#invitation-state")
    assert "не для вашей учётной записи: вы вошли как bob@club.ru" in said and "войдите как carol@club.ru" in said
    assert phone.query_selector("#accept") is None
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    (ARTIFACTS / "web").mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "web" / "invitation-someone-else.png"), full_page=True)

    phone.click("#switch-account")  # signed out, on to the sign-in page that comes back here
    phone.wait_for_url(f"{live_server.url}/login/?next=*")
    phone.click("main >> text=Регистрация")
    phone.fill("#id_email", "carol@club.ru")
    phone.fill("#id_password1", "Korova-2026-mafia")
    phone.fill("#id_password2", "Korova-2026-mafia")
    phone.click("main button[type=submit]")
    phone.wait_for_url(link)
    assert "Действует до" in phone.inner_text("main")
    phone.click("#accept")
    phone.wait_for_url(f"{live_server.url}/o/{excel_tournament.slug}/")
    assert "Вы соорганизатор турнира" in phone.inner_text("main")
    assert set(Membership.objects.filter(tournament=excel_tournament).values_list("user__email", flat=True)) == {
        organizer.email, "carol@club.ru"}
