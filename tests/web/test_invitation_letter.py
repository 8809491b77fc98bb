"""Where the invitation's letter went (issue 43 §2): with no mail server set up the letter only
reaches the server's log, and the page says so — «почтовый сервер не настроен — письмо не
отправлено; передайте ссылку сами» — with the link to copy; a mail server that answers with an error
is said too, and the invitation stands.

Before: «письмо отправлено» whatever happened to the letter."""

from __future__ import annotations

import re
import smtplib

import pytest
from django.urls import reverse

from sheets_sync.web.models import Invitation, Membership, Tournament
from tests.web.test_accounts import log_mail, signed_in  # noqa: F401 - fixture

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna():
    owner, user = signed_in("anna@club.ru")
    tournament = Tournament.objects.create(slug="kubok", title="Кубок")
    Membership.objects.create(user=user, tournament=tournament, role=Membership.OWNER)
    return owner


def _invite(owner, lang="ru") -> str:
    return owner.post(reverse("members", args=["kubok"]) + f"?lang={lang}", {"action": "invite", "email": "carol@club.ru"},
                      follow=True).content.decode()


def _link(page: str) -> str:
    return re.search(r'id="invite-link">(http://testserver/invite/[^<]+/)<', page).group(1)


@pytest.mark.parametrize("lang, says, not_said", [
    ("ru", "Почтовый сервер не настроен — письмо не отправлено; передайте ссылку сами", "письмо отправлено."),
    ("en", "No mail server is set up — no letter was sent; pass the link on yourself", "it is mailed"),
])
def test_without_a_mail_server_the_page_says_no_letter_went_and_gives_the_link(anna, log_mail, caplog, lang, says,
                                                                              not_said):
    with caplog.at_level("INFO", logger="sheets_sync.web.mail"):
        page = _invite(anna, lang)
    assert says in page and not_said not in page
    assert _link(page) in caplog.text  # where it went: the server's log, as the page says
    invitation = Invitation.objects.get(email="carol@club.ru")
    assert _link(page).endswith(f"/invite/{invitation.token}/")
    # the form says it before anyone presses
    form = anna.get(reverse("members", args=["kubok"]) + f"?lang={lang}").content.decode()
    assert ("передайте её сами" if lang == "ru" else "pass it on yourself") in form


def test_with_a_mail_server_the_letter_is_sent_and_said(anna, mailoutbox):
    page = _invite(anna)
    assert "письмо отправлено" in page and len(mailoutbox) == 1 and _link(page) in mailoutbox[0].body


def test_a_mail_server_error_is_said_and_the_invitation_stands(anna, mailoutbox, monkeypatch):
    from django.core.mail.backends import locmem

    def refused(self, messages):
        raise smtplib.SMTPRecipientsRefused({"carol@club.ru": (550, b"no such user")})

    monkeypatch.setattr(locmem.EmailBackend, "send_messages", refused)
    page = _invite(anna)
    assert "письмо не ушло: почтовый сервер ответил ошибкой" in page and "Передайте ссылку сами" in page
    assert Invitation.objects.filter(email="carol@club.ru").exists() and _link(page)
