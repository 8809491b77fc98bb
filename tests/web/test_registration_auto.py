"""What runs by itself (issue 45): a freed place goes to the first in line, who is told; the draw
at the announced time; the fairness report on the public seating page — on an .xlsx tournament."""

from __future__ import annotations

from datetime import datetime, timedelta

import openpyxl
import pytest

from sheets_sync.web import jobs
from sheets_sync.web.models import Application, OutboxMessage, RegistrationWrite, Tournament
from sheets_sync.web.registration import applications
from tests.web.organizer_support import fresh_tournament, fresh_workbook, organizer, private_data  # noqa: F401
from tests.web.registration_support import apply, open_form, row_of, server_now, with_registration

pytestmark = pytest.mark.django_db


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


# -- the draw at the announced time -------------------------------------------------------------------
@pytest.fixture
def open_tournament(tmp_path, organizer) -> Tournament:
    """A tournament made by ``init --registration`` (no seating yet: the draw is to come), 20 players typed."""
    from sheets_sync.actions.init import init_workbook
    from tests.web.organizer_support import member, players_csv

    path = tmp_path / "open.xlsx"
    init_workbook(str(path), players_csv=players_csv(tmp_path, 20), preset_ref="gmo-2016", name="Кубок",
                  language="ru", registration=True)
    return member(Tournament.objects.create(slug="open", source=Tournament.EXCEL, path=str(path)), organizer)


def type_setting(path, label: str, value) -> None:
    """The organizer types a Tournament-tab setting (its row if the tab has one, else a new row)."""
    wb = openpyxl.load_workbook(path)
    ws = wb["Турнир"]
    row = next((r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == label), ws.max_row + 1)
    ws.cell(row=row, column=1, value=label)
    ws.cell(row=row, column=2, value=value)
    wb.save(path)


def announce_draw(path, at: datetime, zone: str = "Europe/Moscow") -> None:
    type_setting(path, "Жеребьёвка", at)
    type_setting(path, "Часовой пояс", zone)


def moscow(text: str) -> datetime:
    from zoneinfo import ZoneInfo

    return datetime.fromisoformat(text).replace(tzinfo=ZoneInfo("Europe/Moscow"))


def draws(t):
    return jobs.Job.objects.filter(tournament=t, action="draw")


def seating_rows(path) -> int:
    wb = openpyxl.load_workbook(path)
    name = next((n for n in wb.sheetnames if n in ("Рассадка", "Seating")), None)
    return 0 if name is None else sum(1 for r in wb[name].iter_rows(values_only=True) if any(v not in (None, "") for v in r))


def test_the_draw_starts_by_itself_at_the_announced_time_on_the_tournaments_clock(open_tournament, monkeypatch):
    from sheets_sync.web import keeping

    monkeypatch.setattr(keeping.jobs, "sync_due", lambda: [])  # the minute's other work is not this test's
    announce_draw(open_tournament.path, datetime(2026, 12, 6, 20, 0))  # 20:00 in Moscow = 17:00 UTC
    t = open_form(open_tournament)
    keeping.tick(moscow("2026-12-06T19:59"))
    assert not draws(t).exists()  # 16:59 UTC: not yet on the tournament's clock
    keeping.tick(moscow("2026-12-06T20:00:30"))
    job = draws(t).get()
    assert job.status == jobs.Job.DONE and job.params["timed"] == "2026-12-06T20:00:00"
    assert isinstance(job.params["seed"], int) and job.result["games"] > 0
    seated = seating_rows(t.path)
    assert seated > 0
    keeping.tick(moscow("2026-12-06T20:01"))  # the next minute: the draw is made, nothing more
    assert draws(t).count() == 1 and seating_rows(t.path) == seated


def test_a_timed_draw_is_never_made_over_a_seating_nor_twice_for_one_time(open_tournament, monkeypatch):
    from sheets_sync.web import keeping

    monkeypatch.setattr(keeping.jobs, "sync_due", lambda: [])
    announce_draw(open_tournament.path, datetime(2026, 12, 6, 20, 0))
    t = open_form(open_tournament)
    failed = jobs.Job.objects.create(tournament=t, action="draw", status=jobs.Job.FAILED,
                                     params={"timed": "2026-12-06T20:00:00", "seed": 1})
    keeping.tick(moscow("2026-12-06T20:05"))
    assert list(draws(t)) == [failed]  # refused once for this time: the organizer looks, no retry each minute
    failed.delete()
    jobs.enqueue(t, "draw", params={"seed": 1})  # the organizer drew himself before the time
    assert draws(t).get().status == jobs.Job.DONE
    keeping.tick(moscow("2026-12-06T20:05"))
    assert draws(t).count() == 1


def test_the_sheets_own_seating_stops_a_timed_draw(open_tournament, monkeypatch):
    from sheets_sync.actions.draw import draw_workbook
    from sheets_sync.backends.excel import ExcelBackend
    from sheets_sync.web import keeping

    monkeypatch.setattr(keeping.jobs, "sync_due", lambda: [])
    announce_draw(open_tournament.path, datetime(2026, 12, 6, 20, 0))
    draw_workbook(ExcelBackend(open_tournament.path), seed=5)  # drawn on the command line, then synced
    t = open_form(open_tournament)
    keeping.tick(moscow("2026-12-06T20:05"))
    assert not draws(t).exists()


def test_a_draw_more_than_twelve_hours_late_waits_for_the_organizer(open_tournament, monkeypatch):
    from django.test import Client

    from sheets_sync.web import keeping

    monkeypatch.setattr(keeping.jobs, "sync_due", lambda: [])
    announce_draw(open_tournament.path, datetime(2026, 12, 6, 20, 0))
    t = open_form(open_tournament)
    keeping.tick(moscow("2026-12-07T08:01"))  # the server was down all night
    assert not draws(t).exists()
    owner = Client()
    owner.force_login(t.memberships.get().user)
    monkeypatch.setattr("sheets_sync.web.registration.timed.timezone.now", lambda: moscow("2026-12-07T08:01"))
    page = owner.get(f"/o/{t.slug}/").content.decode()
    assert "Время жеребьёвки (06.12.2026 в 20:00) прошло" in page


def test_the_organizers_page_says_when_the_draw_is_and_then_how_it_went(open_tournament, monkeypatch):
    from django.test import Client

    from sheets_sync.web import keeping
    from sheets_sync.web.registration import timed

    monkeypatch.setattr(keeping.jobs, "sync_due", lambda: [])
    announce_draw(open_tournament.path, datetime(2026, 12, 6, 20, 0))
    t = open_form(open_tournament)
    owner = Client()
    owner.force_login(t.memberships.get().user)
    monkeypatch.setattr(timed.timezone, "now", lambda: moscow("2026-12-06T18:00"))
    page = owner.get(f"/o/{t.slug}/").content.decode()
    assert "Жеребьёвка в 20:00 (по времени турнира)" in page
    keeping.tick(moscow("2026-12-06T20:00"))
    monkeypatch.setattr(timed.timezone, "now", lambda: moscow("2026-12-06T20:02"))
    page = owner.get(f"/o/{t.slug}/").content.decode()
    job = draws(t).get()
    assert "Жеребьёвка в 20:00 проведена" in page and f"/o/{t.slug}/jobs/{job.pk}/" in page


# -- the fairness report on the public seating page ----------------------------------------------------
def test_after_the_draw_the_public_seating_page_shows_the_fairness_report(open_tournament, client):
    t = open_form(open_tournament)
    from sheets_sync.web import runners  # noqa: F401 - the draw job's runner

    job = jobs.enqueue(t, "draw", params={"seed": 3})  # the organizer's press (a sync follows the draw)
    job.refresh_from_db()
    assert job.status == jobs.Job.DONE, (job.status, job.waiting, job.message)
    page = (jobs.site_dir(t) / "seating.html").read_text(encoding="utf-8")
    report = page[page.index('id="draw-report"'):]
    assert "Отчёт о жеребьёвке: Отбор" in report and "Σc²" in report and "Нижняя граница" in report
    assert "Игрок 01" not in report  # the figures only, no player's line
    served = client.get(f"/t/{t.slug}/seating.html")
    assert served.status_code == 200 and 'id="draw-report"' in b"".join(served.streaming_content).decode()


def test_a_seating_made_since_the_last_sync_is_kept_the_timed_draw_is_refused(open_tournament, monkeypatch):
    from sheets_sync.actions.draw import draw_workbook
    from sheets_sync.backends.excel import ExcelBackend
    from sheets_sync.web import keeping

    monkeypatch.setattr(keeping.jobs, "sync_due", lambda: [])
    announce_draw(open_tournament.path, datetime(2026, 12, 6, 20, 0))
    t = open_form(open_tournament)  # synced: no seating yet
    draw_workbook(ExcelBackend(t.path), seed=5)  # drawn on the command line; no sync since
    before = openpyxl.load_workbook(t.path)["Рассадка"]
    seated = [r for r in before.iter_rows(values_only=True)]
    keeping.tick(moscow("2026-12-06T20:05"))
    job = draws(t).get()
    assert job.status == jobs.Job.FAILED and "уже рассажен" in job.result["messages"]["ru"]
    assert [r for r in openpyxl.load_workbook(t.path)["Рассадка"].iter_rows(values_only=True)] == seated


def test_a_desk_of_an_older_version_starts_no_draw(open_tournament):
    from sheets_sync.web.registration.desk import read_desk, write_desk
    from sheets_sync.web.registration.timed import due_draw

    announce_draw(open_tournament.path, datetime(2026, 12, 6, 20, 0))
    t = open_form(open_tournament)
    desk = read_desk(t)
    assert due_draw(t, desk, moscow("2026-12-06T20:05")) == "2026-12-06T20:00:00"
    del desk["seated"]  # written before the desk said whether a seating is there
    write_desk(t, desk)
    assert due_draw(t, read_desk(t), moscow("2026-12-06T20:05")) is None
