"""Registration's safety (issue 45): the form throttled per address and honest about when to try
again; an organizer of another tournament sees no contact (a 404, as for no tournament); a player's
link reaches only his own application; bad input (5,000 letters, a formula, HTML, line breaks)
refused or kept as text; nothing public shows a contact."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from sheets_sync.web import throttle
from sheets_sync.web.models import Application, Membership, RegistrationWrite, Tournament
from tests.web.organizer_support import fresh_tournament, fresh_workbook, organizer, private_data  # noqa: F401
from tests.web.registration_support import apply, open_form

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(fresh_tournament) -> Tournament:
    return open_form(fresh_tournament)


def test_the_form_is_throttled_per_address_and_says_when_to_try_again(client, cup, monkeypatch):
    now = [1_000_000.0]
    monkeypatch.setattr(throttle, "clock", lambda: now[0])
    for i in range(5):
        name = f"Игрок-гость {i}"
        assert apply(client, cup.slug, nickname=name, not_me=name).status_code == 302
    refused = apply(client, cup.slug, nickname="Шестой", not_me="Шестой")
    said = refused.content.decode()
    assert refused.status_code == 429 and "Попробуйте снова через 12 минут" in said
    assert 700 < int(refused["Retry-After"]) <= 721  # one application earned back each 12 minutes
    assert not Application.objects.filter(nickname="Шестой").exists()
    assert apply(client, cup.slug, nickname="Шестой", address="10.9.9.9").status_code == 302  # another address: taken
    now[0] += 12 * 60 + 1
    assert apply(client, cup.slug, nickname="Седьмой", not_me="Седьмой").status_code == 302  # and the first one again, later


def test_bad_input_is_refused_with_a_message_or_kept_as_text(client, cup):
    long_name = apply(client, cup.slug, nickname="Я" * 5000)
    assert long_name.status_code == 400 and "Не длиннее 60 знаков (сейчас 5000)" in long_name.content.decode()
    broken = apply(client, cup.slug, nickname="Пума\nДва")
    assert broken.status_code == 400 and "Без переводов строк" in broken.content.decode()
    nothing = apply(client, cup.slug, nickname="Пума", telegram="")
    assert nothing.status_code == 400 and "хотя бы один контакт" in nothing.content.decode()
    bad_tg = apply(client, cup.slug, nickname="Пума", telegram="<script>")
    assert bad_tg.status_code == 400 and "Ник в телеграме" in bad_tg.content.decode()
    assert not Application.objects.exists()
    html = "<b>Пума</b>"
    assert apply(client, cup.slug, nickname=html, club="Неизвестный клуб").status_code == 302
    app = Application.objects.get()
    assert app.nickname == html and app.club == "Неизвестный клуб"  # kept as typed, as text
    page = client.get(f"/me/{app.token}/").content.decode()
    assert "&lt;b&gt;Пума&lt;/b&gt;" in page and "<b>Пума</b>" not in page  # shown as text, never as HTML


def test_a_near_duplicate_nickname_is_asked_about_not_stored_twice(client, cup):
    assert apply(client, cup.slug, nickname="Игрок 01").status_code == 400  # the organizer typed him (same name)
    asked = apply(client, cup.slug, nickname="Игрок 1")  # a letter away from «Игрок 01»
    page = asked.content.decode()
    assert asked.status_code == 200 and "Это вы?" in page and "«Игрок 01»" in page and not Application.objects.exists()
    assert apply(client, cup.slug, nickname="ИГРОК 01").status_code == 400  # the same fold: one player to a protocol
    assert apply(client, cup.slug, nickname="Игрок 2", not_me="Игрок 1").status_code == 200  # asked of another name
    assert apply(client, cup.slug, nickname="Игрок 1", not_me="Игрок 1").status_code == 302  # «no, another player»
    assert Application.objects.get().nickname == "Игрок 1"


def test_an_organizer_of_another_tournament_sees_no_contact(client, cup):
    apply(client, cup.slug, nickname="Пума", email="puma@example.org")
    boris = get_user_model().objects.create_user("boris@club.ru", "boris@club.ru", "a long password 1")
    theirs = Tournament.objects.create(slug="theirs", spreadsheet_id="sheet-theirs")
    Membership.objects.create(user=boris, tournament=theirs)
    other = Client()
    other.force_login(boris)
    app = Application.objects.get()
    for address in (f"/o/{cup.slug}/applications/", f"/o/{cup.slug}/checkin/"):
        answer = other.get(address)
        assert answer.status_code == 404 and "puma@example.org" not in answer.content.decode()
        assert other.post(address, {"action": "delete", "application": app.pk}).status_code == 404
    assert other.post(f"/o/{cup.slug}/applications/", {"action": "open"}).status_code == 404
    assert Application.objects.filter(pk=app.pk).exists()
    assert other.get(f"/o/{theirs.slug}/applications/").status_code == 200  # his own page answers
    # nothing public shows it: the form, the check-in, the site, the player's own page neither
    for address in (f"/apply/{cup.slug}/", f"/checkin/{cup.slug}/", f"/me/{app.token}/"):
        assert "puma@example.org" not in Client().get(address).content.decode()


def test_a_players_link_reaches_only_his_own_application(client, cup):
    apply(client, cup.slug, nickname="Пума", address="10.0.0.1")
    apply(client, cup.slug, nickname="Сова", address="10.0.0.2")
    puma, owl = Application.objects.get(nickname="Пума"), Application.objects.get(nickname="Сова")
    assert "Пума" in client.get(f"/me/{puma.token}/").content.decode()
    assert "Сова" not in client.get(f"/me/{puma.token}/").content.decode()
    for wrong in (owl.token[:-1], owl.token + "x", "x" * 43, "x" * 500, owl.token_hash):
        assert client.get(f"/me/{wrong}/").status_code == 404
        assert client.post(f"/me/{wrong}/", {"action": "withdraw"}).status_code == 404
    client.post(f"/me/{puma.token}/", {"action": "withdraw"})
    assert Application.objects.get(pk=owl.pk).state == "submitted"
    assert Application.objects.get(pk=puma.pk).state == "withdrawn"
    assert list(RegistrationWrite.objects.values_list("nickname", flat=True)) == ["Пума"]
    puma.delete()  # deleted on his request: the link is dead
    assert client.get(f"/me/{puma.token}/").status_code == 404


def test_deleting_a_players_data_removes_his_contacts_and_link(client, cup):
    apply(client, cup.slug, nickname="Пума", email="puma@example.org")
    app = Application.objects.get()
    owner = Client()
    owner.force_login(cup.memberships.get().user)
    page = owner.get(f"/o/{cup.slug}/applications/").content.decode()
    assert "puma@example.org" in page
    said = owner.post(f"/o/{cup.slug}/applications/", {"action": "delete", "application": app.pk}, follow=True)
    assert "Данные игрока Пума удалены" in said.content.decode()
    assert not Application.objects.exists() and client.get(f"/me/{app.token}/").status_code == 404


def test_a_formula_typed_as_a_nickname_lands_in_the_xlsx_as_text(client, cup):
    import openpyxl

    assert apply(client, cup.slug, nickname="=1+1", club='=HYPERLINK("http://x/","y")').status_code == 302
    ws = openpyxl.load_workbook(cup.path)["Игроки"]
    row = next(r for r in ws.iter_rows() if r[0].value == "=1+1")
    assert row[0].data_type == "s" and row[1].data_type == "s"  # text, never a formula
    assert row[1].value == '=HYPERLINK("http://x/","y")'
    assert Application.objects.get().written_at is not None
