"""Registration in the server (issue 45): the public form makes an application, the registration
writer appends it to the Players tab (no contacts), the mirror sets its state as the sheet says, the
organizer's page sets a state through the writer; on an .xlsx here (the Google path:
test_registration_google.py)."""

from __future__ import annotations

from datetime import datetime, timedelta

import openpyxl
import pytest
from django.utils import timezone

from sheets_sync.web.models import Application, Job, Tournament
from sheets_sync.web.registration.writer import REGISTRATION_WRITE
from sheets_sync.web.signals import application_state_changed
from tests.web.organizer_support import fresh_tournament, fresh_workbook, organizer, private_data, signed_in  # noqa: F401
from tests.web.registration_support import apply, open_form, player_rows, with_registration

pytestmark = pytest.mark.django_db


def header(path) -> tuple:
    return player_rows(path)[0]


def row_of(path, nickname: str) -> dict:
    rows = player_rows(path)
    return next(dict(zip(rows[0], r)) for r in rows[1:] if r[0] == nickname)


def test_an_application_becomes_a_row_of_the_players_tab_without_its_contacts(client, fresh_tournament):
    with_registration(fresh_tournament.path, places=40)
    t = open_form(fresh_tournament)
    answer = apply(client, t.slug, telegram="@puma_mafia", email="puma@example.org", phone="+49 170 1234567")
    assert answer.status_code == 302 and answer["Location"].startswith("/me/")
    app = Application.objects.get(nickname="Пума")
    assert app.written_at is not None and app.state == "submitted"
    row = row_of(t.path, "Пума")
    assert row["Клуб"] == "Котики" and row["Город"] == "Берлин" and row["Заявка"] == "подана"
    written = datetime.strptime(row["Подана"], "%d.%m.%Y %H:%M:%S")  # the tournament's clock (the server's here)
    assert abs(written - timezone.localtime(app.applied_at).replace(tzinfo=None)) < timedelta(seconds=2)
    assert {"Заявка", "Подана", "Прибыл"} <= set(header(t.path))  # the columns the tab lacked, added at its end
    everything = repr([[c.value for row in ws.iter_rows() for c in row] for ws in openpyxl.load_workbook(t.path)])
    for contact in ("puma_mafia", "puma@example.org", "1234567"):
        assert contact not in everything
    page = client.get(answer["Location"]).content.decode()
    assert "Пума" in page and "ждёт подтверждения" in page


def test_the_sheet_wins_a_state_typed_in_the_sheet_is_mirrored_and_told(client, fresh_tournament):
    from sheets_sync.web import jobs

    t = open_form(fresh_tournament)
    apply(client, t.slug)
    wb = openpyxl.load_workbook(t.path)
    ws = wb["Игроки"]
    col = [c.value for c in ws[1]].index("Заявка") + 1
    row = next(r for r in range(2, ws.max_row + 1) if ws.cell(r, 1).value == "Пума")
    ws.cell(row, col, "оплачена")
    wb.save(t.path)
    heard = []
    application_state_changed.connect(lambda sender, application, old, new, **kw: heard.append((application.nickname, old, new)),
                                      dispatch_uid="test-heard", weak=False)
    try:
        jobs.request_sync(t, "test")
    finally:
        application_state_changed.disconnect(dispatch_uid="test-heard")
    assert Application.objects.get(nickname="Пума").state == "paid"
    assert heard == [("Пума", "submitted", "paid")]
    from sheets_sync.web.registration.desk import read_desk

    row = next(r for r in read_desk(t)["rows"] if r["nickname"] == "Пума")
    assert row["takes_part"] and row["state"] == "paid"  # a paid application takes part: a player now


def test_a_new_application_is_told_with_old_empty(client, fresh_tournament):
    with_registration(fresh_tournament.path, places=21)
    t = open_form(fresh_tournament)
    heard = []
    application_state_changed.connect(lambda sender, application, old, new, **kw: heard.append((application.nickname, old, new)),
                                      dispatch_uid="test-heard-new", weak=False)
    try:
        apply(client, t.slug, nickname="Первый", address="10.0.0.1")
        apply(client, t.slug, nickname="Второй", address="10.0.0.2")
    finally:
        application_state_changed.disconnect(dispatch_uid="test-heard-new")
    assert heard == [("Первый", "", "submitted"), ("Второй", "", "waiting")]


def test_past_the_places_an_application_waits_and_knows_its_number(client, fresh_tournament):
    with_registration(fresh_tournament.path, places=21)  # 20 players typed by the organizer
    t = open_form(fresh_tournament)
    apply(client, t.slug, nickname="Первый", address="10.0.0.1")
    apply(client, t.slug, nickname="Второй", address="10.0.0.2")
    answer = apply(client, t.slug, nickname="Третий", address="10.0.0.3")
    states = dict(Application.objects.values_list("nickname", "state"))
    assert states == {"Первый": "submitted", "Второй": "waiting", "Третий": "waiting"}
    assert row_of(t.path, "Второй")["Заявка"] == "лист ожидания"
    page = client.get(answer["Location"]).content.decode()
    assert "номер в листе ожидания: 2" in page


def test_two_hundred_applications_make_a_few_writes_not_two_hundred(client, fresh_tournament, monkeypatch):
    from sheets_sync.backends.excel import ExcelBackend
    from sheets_sync.web import jobs
    from sheets_sync.web.registration import writer

    t = open_form(fresh_tournament)
    queued = []
    monkeypatch.setattr(writer, "run_job_task", queued.append)  # the queue holds the job while the form takes them
    for i in range(200):
        assert apply(client, t.slug, nickname=f"Новичок {i:03d}", not_me=f"Новичок {i:03d}",  # «Это вы?» — no
                     address=f"10.1.{i // 250}.{i % 250}").status_code == 302
    assert len(queued) == 1 and Job.objects.filter(action=REGISTRATION_WRITE, status=Job.QUEUED).count() == 1
    writes = []
    real_apply = ExcelBackend.apply
    monkeypatch.setattr(ExcelBackend, "apply", lambda self, patch, *, base: writes.append(patch) or real_apply(self, patch, base=base))
    assert jobs.run_job(queued[0]).status == Job.DONE
    assert len([p for p in writes if p.writes and not any(w.owned for w in p.writes)]) == 1
    assert not Application.objects.filter(written_at__isnull=True).exists()
    names = [r[0] for r in player_rows(t.path)]
    assert all(f"Новичок {i:03d}" in names for i in range(200)) and len(names) == len(set(names))


def test_the_organizer_sets_a_state_with_a_button_and_it_reaches_the_sheet(signed_in, client, fresh_tournament):
    t = open_form(fresh_tournament)
    apply(client, t.slug)
    app = Application.objects.get()
    page = signed_in.get(f"/o/{t.slug}/applications/").content.decode()
    assert "@puma_mafia" in page and "подана" in page  # the organizer sees the contact
    signed_in.post(f"/o/{t.slug}/applications/", {"action": "state", "application": app.pk, "state": "confirmed"})
    assert row_of(t.path, "Пума")["Заявка"] == "подтверждена"
    assert Application.objects.get().state == "confirmed"


def test_the_organizers_button_never_writes_over_a_state_a_person_typed(signed_in, client, fresh_tournament):
    t = open_form(fresh_tournament)
    apply(client, t.slug)
    app = Application.objects.get()
    wb = openpyxl.load_workbook(t.path)  # typed in the sheet, not yet synced
    ws = wb["Игроки"]
    col = [c.value for c in ws[1]].index("Заявка") + 1
    row = next(r for r in range(2, ws.max_row + 1) if ws.cell(r, 1).value == "Пума")
    ws.cell(row, col, "снялась")
    wb.save(t.path)
    signed_in.post(f"/o/{t.slug}/applications/", {"action": "state", "application": app.pk, "state": "paid"})
    assert row_of(t.path, "Пума")["Заявка"] == "снялась"  # the person's word stands
    assert Application.objects.get().state == "withdrawn"  # and the mirror took it
    page = signed_in.get(f"/o/{t.slug}/applications/").content.decode()
    assert "уже «снялась»" in page


def test_the_form_is_closed_when_off_and_after_the_deadline(client, fresh_tournament):
    with_registration(fresh_tournament.path, until=datetime.now() - timedelta(hours=1))
    from sheets_sync.web import jobs

    jobs.request_sync(fresh_tournament, "test")
    page = client.get(f"/apply/{fresh_tournament.slug}/").content.decode()
    assert "Регистрация закрыта." in page and "<form" not in page.split("</header>")[1]
    assert apply(client, fresh_tournament.slug).status_code == 200 and not Application.objects.exists()
    Tournament.objects.filter(pk=fresh_tournament.pk).update(registration_open=True)
    page = client.get(f"/apply/{fresh_tournament.slug}/").content.decode()
    assert "заявки принимались до" in page
    assert apply(client, fresh_tournament.slug).status_code == 200 and not Application.objects.exists()


def test_the_players_pages_speak_english_when_asked(client, fresh_tournament):
    t = open_form(fresh_tournament)
    page = client.get(f"/apply/{t.slug}/?lang=en").content.decode()
    assert "Apply for the tournament" in page and "Nickname" in page and "Заявка на турнир" not in page
    refused = client.post(f"/apply/{t.slug}/", {"nickname": "Пума"}).content.decode()
    assert "Give at least one contact" in refused
    me = apply(client, t.slug)["Location"]
    page = client.get(me).content.decode()
    assert "My application" in page and "awaits the organizers" in page


def test_the_writers_plan_adds_the_missing_columns_and_never_a_second_row_of_a_name():
    from sheets_sync.backends.base import Snapshot
    from sheets_sync.web.models import RegistrationWrite
    from sheets_sync.web.registration.writer import plan_rows

    grid = (("Игрок", "Клуб", "Статус", "Заявка"), ("Лиса", "Клуб 1", None, "подтверждена"), ("Сова",))
    snapshot = Snapshot(tabs={"Игроки": grid}, order=("Игроки",))
    new = [{"pk": 1, "nickname": "Пума", "club": "", "city": "Берлин", "state": "waiting", "applied_at": "06.12.2026 10:00:00"},
           {"pk": 2, "nickname": "сова", "club": "", "city": "", "state": "submitted", "applied_at": "06.12.2026 10:00:01"}]
    changes = [RegistrationWrite(pk=7, nickname="Лиса", cells={"application": "оплачена"}, base={"application": "подана"}),
               RegistrationWrite(pk=8, nickname="Пума", cells={"arrived": "да"}, base={"arrived": ""})]
    plan = plan_rows(snapshot, "ru", new, changes)
    # the header gets «Город», «Подана», «Прибыл», «Пропуск» after its last column (E, F, G, H)
    assert {plan.cells[(0, c)] for c in range(4, 8)} == {"Город", "Подана", "Прибыл", "Пропуск"}
    city, applied, arrived = (next(c for c in range(4, 8) if plan.cells[(0, c)] == w) for w in ("Город", "Подана", "Прибыл"))
    assert plan.cells[(3, 0)] == "Пума" and plan.cells[(3, 3)] == "лист ожидания" and plan.cells[(3, city)] == "Берлин"
    assert plan.cells[(3, applied)] == "06.12.2026 10:00:00" and (3, 1) not in plan.cells  # no club: nothing written
    assert plan.appended == {1: 3, 2: 2}  # «сова» is the organizer's «Сова»: no second row
    assert not any(r == 4 for r, _ in plan.cells)
    assert plan.conflicts[7] == [{"key": "application", "cell": "Игроки!D2", "sheet": "подтверждена", "mine": "оплачена"}]
    assert plan.written == {7: [], 8: ["arrived"]} and plan.cells[(3, arrived)] == "да"  # the new row's arrival, too


def test_the_deadline_is_on_the_tournaments_own_clock(client, fresh_tournament):
    from zoneinfo import ZoneInfo

    from sheets_sync.web import jobs

    far_east = datetime.now(ZoneInfo("Asia/Vladivostok")).replace(tzinfo=None, microsecond=0)
    wb = openpyxl.load_workbook(fresh_tournament.path)
    ws = wb["Турнир"]
    ws.append(["Регистрация до", far_east - timedelta(hours=1)])  # an hour ago there; 9 h ahead on UTC's clock
    ws.append(["Часовой пояс", "Asia/Vladivostok"])
    wb.save(fresh_tournament.path)
    jobs.request_sync(fresh_tournament, "test")
    Tournament.objects.filter(pk=fresh_tournament.pk).update(registration_open=True)
    page = client.get(f"/apply/{fresh_tournament.slug}/").content.decode()
    assert "заявки принимались до" in page
    ws = (wb := openpyxl.load_workbook(fresh_tournament.path))["Турнир"]
    row = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == "Регистрация до")
    ws.cell(row, 2, far_east + timedelta(hours=1))
    wb.save(fresh_tournament.path)
    jobs.request_sync(fresh_tournament, "test")
    assert apply(client, fresh_tournament.slug).status_code == 302
