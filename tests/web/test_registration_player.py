"""The player's side (issue 45): his own page (state, withdraw → «снялась», the excused round until the
preset's notice before the start → «Пропуск», the Telegram link) and the check-in on the day (the
organizer's tick and the self check-in with the hall's code → «Прибыл»), on an .xlsx."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client

from sheets_sync.web.models import Application, Tournament
from tests.web.organizer_support import fresh_tournament, fresh_workbook, organizer, private_data  # noqa: F401
from tests.web.registration_support import apply, open_form, player_rows, row_of, server_now, with_registration

pytestmark = pytest.mark.django_db


def test_the_player_withdraws_on_his_page_and_the_sheet_says_so(client, fresh_tournament):
    t = open_form(fresh_tournament)
    me = apply(client, t.slug)["Location"]
    page = client.post(me, {"action": "withdraw"}).content.decode()
    assert "Заявка снята." in page and "вы снялись" in page
    assert row_of(t.path, "Пума")["Заявка"] == "снялась"
    assert Application.objects.get().state == "withdrawn"
    assert 'id="withdraw"' not in page  # nothing more to withdraw


def test_the_excused_round_is_asked_until_the_notice_before_the_start(client, fresh_tournament):
    with_registration(fresh_tournament.path, start=server_now() + timedelta(hours=48))
    t = open_form(fresh_tournament)
    me = apply(client, t.slug)["Location"]
    page = client.get(me).content.decode()
    assert "Пропуск можно попросить до" in page
    page = client.post(me, {"action": "excuse", "round": "99"}).content.decode()
    assert "Выберите тур от 1 до" in page and Application.objects.get().excused_round is None
    page = client.post(me, {"action": "excuse", "round": "3"}).content.decode()
    assert "Вы попросили пропустить тур 3." in page
    assert row_of(t.path, "Пума")["Пропуск"] == 3
    assert Application.objects.get().excused_round == 3
    assert "Пропуск уже попрошен" in client.post(me, {"action": "excuse", "round": "4"}).content.decode()
    assert row_of(t.path, "Пума")["Пропуск"] == 3


def test_past_the_notice_the_excused_round_is_refused(client, fresh_tournament):
    with_registration(fresh_tournament.path, start=server_now() + timedelta(hours=10))  # 24 h notice: too late
    t = open_form(fresh_tournament)
    me = apply(client, t.slug)["Location"]
    page = client.post(me, {"action": "excuse", "round": "2"}).content.decode()
    assert "теперь только через организатора" in page
    assert row_of(t.path, "Пума")["Пропуск"] is None and Application.objects.get().excused_round is None


def test_the_page_shows_the_telegram_link_when_the_server_runs_a_bot(client, fresh_tournament, monkeypatch):
    t = open_form(fresh_tournament)
    me = apply(client, t.slug)["Location"]
    assert 'id="telegram"' not in client.get(me).content.decode()
    monkeypatch.setenv("SHEETS_SYNC_TELEGRAM_TOKEN", "123:abc")
    monkeypatch.setenv("SHEETS_SYNC_TELEGRAM_BOT", "cup_bot")
    page = client.get(me).content.decode()
    assert f"https://t.me/cup_bot?start={Application.objects.get().start_code}" in page
    assert "123:abc" not in page


def test_the_organizer_ticks_arrivals_on_a_phone_list(fresh_tournament):
    t = open_form(fresh_tournament)
    owner = Client()
    owner.force_login(t.memberships.get().user)
    page = owner.get(f"/o/{t.slug}/checkin/").content.decode()
    assert "На месте: 0 из 20." in page and "Игрок 07" in page
    owner.post(f"/o/{t.slug}/checkin/", {"action": "arrived", "nickname": "Игрок 07"})
    assert row_of(t.path, "Игрок 07")["Прибыл"] == "да"
    page = owner.get(f"/o/{t.slug}/checkin/").content.decode()
    assert "На месте: 1 из 20." in page
    owner.post(f"/o/{t.slug}/checkin/", {"action": "arrived", "nickname": "Никто"})  # not a player: nothing
    assert all(r[0] != "Никто" for r in player_rows(t.path))


def test_players_check_in_themselves_with_the_code_shown_in_the_hall(client, fresh_tournament):
    t = open_form(fresh_tournament)
    assert "Отметка ещё не открыта" in client.get(f"/checkin/{t.slug}/").content.decode()
    owner = Client()
    owner.force_login(t.memberships.get().user)
    owner.post(f"/o/{t.slug}/checkin/", {"action": "code"})
    code = Tournament.objects.get(pk=t.pk).checkin_code
    assert len(code) == 6 and code in owner.get(f"/o/{t.slug}/checkin/").content.decode()
    wrong = client.post(f"/checkin/{t.slug}/", {"nickname": "Игрок 05", "code": "000000" if code != "000000" else "111111"})
    assert wrong.status_code == 400 and row_of(t.path, "Игрок 05").get("Прибыл") is None
    done = client.post(f"/checkin/{t.slug}/", {"nickname": "игрок 05", "code": code})  # any case: his fold
    assert "Отмечено: Игрок 05 на месте." in done.content.decode()
    assert row_of(t.path, "Игрок 05")["Прибыл"] == "да"


def test_self_check_in_is_throttled_per_address(client, fresh_tournament):
    t = open_form(fresh_tournament)
    Tournament.objects.filter(pk=t.pk).update(checkin_code="123456")
    for _ in range(10):
        assert client.post(f"/checkin/{t.slug}/", {"nickname": "Игрок 05", "code": "999999"}).status_code == 400
    refused = client.post(f"/checkin/{t.slug}/", {"nickname": "Игрок 05", "code": "123456"})
    assert refused.status_code == 429 and "Попробуйте снова через" in refused.content.decode()
    assert row_of(t.path, "Игрок 05").get("Прибыл") is None


def test_the_check_in_list_has_the_players_and_reserves_not_the_applicants_still_waiting(client, fresh_tournament):
    import openpyxl

    wb = openpyxl.load_workbook(fresh_tournament.path)
    ws = wb["Игроки"]
    ws.append(["Запасной Один", None, None, "запасной"])
    wb.save(fresh_tournament.path)
    t = open_form(fresh_tournament)
    apply(client, t.slug, nickname="Пума")  # submitted: not (yet) a player
    owner = Client()
    owner.force_login(t.memberships.get().user)
    page = owner.get(f"/o/{t.slug}/checkin/").content.decode()
    assert "Запасной Один" in page and "На месте: 0 из 21." in page
    assert "Пума" not in page
    done = client.post(f"/checkin/{t.slug}/", {"nickname": "Пума", "code": "x"})
    assert done.status_code == 200 and "Отметка ещё не открыта" in done.content.decode()
