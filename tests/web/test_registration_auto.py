"""What runs by itself (issue 45): a freed place goes to the first in line, who is told; the draw
at the announced time; the fairness report on the public seating page — on an .xlsx tournament."""

from __future__ import annotations

from datetime import datetime, timedelta

import openpyxl
import pytest

from sheets_sync.web import jobs
from sheets_sync.web.models import Application, OutboxMessage, RegistrationWrite
from sheets_sync.web.registration import applications
from tests.web.organizer_support import fresh_tournament, fresh_workbook, organizer, private_data  # noqa: F401
from tests.web.registration_support import apply, open_form, player_rows, with_registration

pytestmark = pytest.mark.django_db


def row_of(path, nickname: str) -> dict:
    rows = player_rows(path)
    return next(dict(zip(rows[0], r)) for r in rows[1:] if r[0] == nickname)


def server_now() -> datetime:
    from django.utils import timezone

    return timezone.localtime().replace(tzinfo=None, microsecond=0)


def set_setting(path, label: str, value) -> None:
    """Retype a Tournament-tab setting (the organizer in Excel)."""
    wb = openpyxl.load_workbook(path)
    ws = wb["Турнир"]
    row = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == label)
    ws.cell(row=row, column=2, value=value)
    wb.save(path)


def test_a_freed_place_goes_to_the_first_in_line_who_is_told(client, fresh_tournament):
    with_registration(fresh_tournament.path, places=21)  # 20 players typed by the organizer: one place
    t = open_form(fresh_tournament)
    me = apply(client, t.slug, nickname="Пума", address="10.0.0.1")["Location"]
    apply(client, t.slug, nickname="Лиса", address="10.0.0.2")
    apply(client, t.slug, nickname="Енот", address="10.0.0.3")
    assert dict(Application.objects.values_list("nickname", "state")) == {
        "Пума": "submitted", "Лиса": "waiting", "Енот": "waiting"}
    Application.objects.filter(nickname="Лиса").update(chat_id=1001)  # Лиса linked the bot
    applications.set_state(Application.objects.get(nickname="Пума"), applications.ApplicationState.CONFIRMED, "ru")
    assert row_of(t.path, "Пума")["Заявка"] == "подтверждена"
    assert row_of(t.path, "Лиса")["Заявка"] == "лист ожидания"  # no place was free
    client.post(me, {"action": "withdraw"})  # the confirmed player withdraws on his page
    assert row_of(t.path, "Пума")["Заявка"] == "снялась"
    assert row_of(t.path, "Лиса")["Заявка"] == "подтверждена"  # the first in line moves in
    assert row_of(t.path, "Енот")["Заявка"] == "лист ожидания"  # one place: one promotion
    assert Application.objects.get(nickname="Лиса").state == "confirmed"
    told = OutboxMessage.objects.get(application__nickname="Лиса", kind="state")
    assert "Освободилось место" in told.text
    assert not OutboxMessage.objects.filter(application__nickname="Енот", text__contains="Освободилось").exists()


def test_a_promotion_is_queued_once_however_many_syncs_see_the_row_still_waiting(client, fresh_tournament, monkeypatch):
    from sheets_sync.web.registration import writer

    with_registration(fresh_tournament.path, places=20)  # full
    t = open_form(fresh_tournament)
    apply(client, t.slug, nickname="Лиса")
    assert row_of(t.path, "Лиса")["Заявка"] == "лист ожидания"
    set_setting(t.path, "Мест", 21)  # the organizer adds a place
    held = []
    monkeypatch.setattr(writer, "run_job_task", held.append)  # the writer has not run yet
    jobs.request_sync(t, "test")
    jobs.request_sync(t, "test")
    promoting = RegistrationWrite.objects.filter(nickname="Лиса", cells={"application": "подтверждена"})
    assert promoting.count() == 1 and len(held) == 1
    assert jobs.run_job(held[0]).status == jobs.Job.DONE
    assert row_of(t.path, "Лиса")["Заявка"] == "подтверждена"
    jobs.request_sync(t, "test")
    assert promoting.count() == 1 and Application.objects.get(nickname="Лиса").state == "confirmed"


def test_the_organizer_who_puts_a_promoted_player_back_on_the_waiting_list_is_not_overruled(client, fresh_tournament):
    with_registration(fresh_tournament.path, places=20)
    t = open_form(fresh_tournament)
    apply(client, t.slug, nickname="Лиса")
    set_setting(t.path, "Мест", 21)
    jobs.request_sync(t, "test")
    assert row_of(t.path, "Лиса")["Заявка"] == "подтверждена"
    wb = openpyxl.load_workbook(t.path)
    ws = wb["Игроки"]
    col = [c.value for c in ws[1]].index("Заявка") + 1
    row = next(r for r in range(2, ws.max_row + 1) if ws.cell(r, 1).value == "Лиса")
    ws.cell(row, col, "лист ожидания")  # his decision, typed by hand
    wb.save(t.path)
    jobs.request_sync(t, "test")
    assert row_of(t.path, "Лиса")["Заявка"] == "лист ожидания"


def test_no_place_is_given_this_way_from_the_start_on(client, fresh_tournament):
    with_registration(fresh_tournament.path, places=20, start=server_now() - timedelta(minutes=5))
    t = open_form(fresh_tournament)
    apply(client, t.slug, nickname="Лиса")
    assert row_of(t.path, "Лиса")["Заявка"] == "лист ожидания"
    set_setting(t.path, "Мест", 21)
    jobs.request_sync(t, "test")
    assert row_of(t.path, "Лиса")["Заявка"] == "лист ожидания"
    assert not RegistrationWrite.objects.filter(nickname="Лиса", cells={"application": "подтверждена"}).exists()
