"""Invitations name whom they are for (issue 42 §7): only the account with the invited e-mail accepts
one; anyone else signed in is asked to sign in as that address; signed out, sign-in and sign-up both
come back to the invitation; it expires after 7 days, and the page and the letter say until when.

Before: whoever held the link became a co-organizer (bob accepted carol's), and it never expired."""

from __future__ import annotations

import re
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from sheets_sync.web.accounts.members import until_words
from sheets_sync.web.models import Invitation, Membership, Tournament
from tests.web.test_accounts import PASSWORD, signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def invited(mailoutbox) -> tuple[Client, Tournament, str]:
    """Anna owns «Кубок» and invites carol@club.ru (typed in another case): the link, from her page."""
    owner, user = signed_in("anna@club.ru")
    tournament = Tournament.objects.create(slug="kubok", title="Кубок")
    Membership.objects.create(user=user, tournament=tournament, role=Membership.OWNER)
    owner.post(reverse("members", args=["kubok"]), {"action": "invite", "email": "Carol@Club.ru"})
    page = owner.get(reverse("members", args=["kubok"])).content.decode()
    link = re.search(r'id="invite-link">http://testserver(/invite/[^<]+/)<', page).group(1)
    return owner, tournament, link


def members_of(tournament: Tournament) -> set[str]:
    return set(tournament.memberships.values_list("user__email", flat=True))


def test_bob_cannot_accept_carols_invitation_and_is_told_whose_it_is(invited):
    _, tournament, link = invited
    bob, _ = signed_in("bob@club.ru")
    page = bob.get(link)
    text = page.content.decode()
    assert page.status_code == 403 and "вы вошли как <strong>bob@club.ru</strong>" in text
    assert "войдите как <strong>carol@club.ru</strong>" in text and 'id="accept"' not in text
    assert bob.post(link).status_code == 403
    assert members_of(tournament) == {"anna@club.ru"}
    assert Invitation.objects.get().accepted_at is None  # still Carol's to accept


def test_carol_accepts_hers_once(invited):
    _, tournament, link = invited
    carol, _ = signed_in("carol@club.ru")
    page = carol.get(link).content.decode()
    assert 'id="accept"' in page and "carol@club.ru" in page
    assert carol.post(link)["Location"] == reverse("tournament", args=["kubok"])
    assert Membership.objects.get(user__email="carol@club.ru").role == Membership.CO_ORGANIZER
    assert carol.post(link).status_code == 410  # used once
    assert members_of(tournament) == {"anna@club.ru", "carol@club.ru"}


def test_an_expired_invitation_is_refused_and_asks_the_owner_for_a_new_one(invited):
    owner, tournament, link = invited
    Invitation.objects.update(created_at=timezone.now() - Invitation.LIFETIME - timedelta(minutes=1))
    carol, _ = signed_in("carol@club.ru")
    page = carol.get(link)
    assert page.status_code == 410 and "Срок этого приглашения истёк" in page.content.decode()
    assert "Попросите владельца турнира прислать новое" in page.content.decode()
    assert carol.post(link).status_code == 410 and members_of(tournament) == {"anna@club.ru"}
    assert "срок истёк — пригласите снова" in owner.get(reverse("members", args=["kubok"])).content.decode()


def test_the_page_and_the_letter_say_for_whom_and_until_when(invited, mailoutbox):
    _, _, link = invited
    until = until_words(Invitation.objects.get().expires_at, "ru")
    assert until.startswith((timezone.localdate() + timedelta(days=7)).strftime("%d.%m.%Y"))
    (letter,) = mailoutbox
    assert letter.to == ["carol@club.ru"] and "carol@club.ru" in letter.body and f"до {until}" in letter.body
    page = Client().get(link).content.decode()
    assert f"Действует до {until}" in page and 'id="invited-email">carol@club.ru<' in page


def test_signed_out_sign_up_comes_back_to_the_invitation(invited):
    _, tournament, link = invited
    visitor = Client()
    page = visitor.get(link).content.decode()
    signup = re.search(r'href="([^"]+)" id="invite-signup"', page).group(1).replace("&amp;", "&")
    assert parse_qs(urlsplit(signup).query) == {"next": [link], "email": ["carol@club.ru"]}
    assert 'value="carol@club.ru"' in visitor.get(signup).content.decode()  # the address filled in
    answer = visitor.post(signup, {"email": "carol@club.ru", "password1": PASSWORD, "password2": PASSWORD,
                                   "next": link})
    assert answer["Location"] == link
    assert visitor.post(link)["Location"] == reverse("tournament", args=["kubok"])
    assert members_of(tournament) == {"anna@club.ru", "carol@club.ru"}


def test_signed_out_sign_in_comes_back_to_the_invitation(invited):
    from django.contrib.auth import get_user_model

    _, tournament, link = invited
    get_user_model().objects.create_user("carol@club.ru", "carol@club.ru", PASSWORD)
    visitor = Client()
    page = visitor.get(link).content.decode()
    login = re.search(r'href="([^"]+)" id="invite-login"', page).group(1).replace("&amp;", "&")
    assert visitor.post(visitor.get(login).wsgi_request.get_full_path(),
                        {"username": "carol@club.ru", "password": PASSWORD})["Location"] == link
    assert visitor.post(link).status_code == 302 and "carol@club.ru" in members_of(tournament)


def test_a_sign_up_never_goes_on_to_another_site(invited):
    answer = Client().post(reverse("signup"), {"email": "dan@club.ru", "password1": PASSWORD, "password2": PASSWORD,
                                               "next": "https://evil.example/steal"})
    assert answer["Location"] == reverse("tournaments")
