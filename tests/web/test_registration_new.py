"""«Новый турнир» with «Игроки подают заявки» (issue 45): the organizer's form makes the same workbook as
``sheets-sync init --registration`` — no players list needed, the Players tab with «Заявка», «Подана»,
«Прибыл», the Tournament tab with the places — in a new Google sheet."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sheets_sync.web.models import ServiceAccount, Tournament
from tests.google_support import SA_EMAIL, fake_server, sa_key  # noqa: F401  (fixtures)
from tests.web.test_accounts import NEW, google, signed_in  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


def test_a_new_tournament_whose_players_apply_needs_no_players_and_has_the_registrations_columns(google, monkeypatch):  # noqa: F811
    monkeypatch.setenv("SHEETS_SYNC_GOOGLE_ENDPOINT", google.url)
    client, _ = signed_in("anna@club.ru")
    form = client.get(reverse("new_tournament")).content.decode()
    assert 'name="registration"' in form and 'name="places"' in form and "Игроки подают заявки" in form
    answer = client.post(reverse("new_tournament"), {**NEW, "players": "", "registration": "on", "places": 40})
    assert answer.status_code == 302, answer.content.decode()[:3000]
    sid = Tournament.objects.get().spreadsheet_id
    players = google.values(sid, "Игроки")
    assert list(players[0])[-3:] == ["Заявка", "Подана", "Прибыл"] and len([r for r in players if any(r)]) == 1
    tournament_tab = {row[0]: row[1] if len(row) > 1 else "" for row in google.values(sid, "Турнир") if row}
    assert str(tournament_tab["Мест"]) == "40" and "Регистрация до" in tournament_tab and "Часовой пояс" in tournament_tab


def test_a_season_still_needs_its_players():
    ServiceAccount.objects.create(email=SA_EMAIL, key_file="/nonexistent.json")
    client, _ = signed_in("anna@club.ru")
    page = client.post(reverse("new_tournament"), {**NEW, "kind": "season", "preset": "club-season", "players": "",
                                                   "registration": "on"}).content.decode()
    assert "Впишите игроков" in page
