"""Registration on a Google sheet (issue 45), through the fake Sheets server: applications land as
rows of the Players tab through the account's budget (no contact, a formula typed as a nickname stays
text), a state typed in the sheet wins, and a spent budget holds the rows back, unwritten, until the
next minute."""

from __future__ import annotations

import pytest
from django.utils import timezone

from sheets_sync.web import jobs
from sheets_sync.web.models import Application, Job, RequestTally, Tournament
from sheets_sync.web.registration.writer import REGISTRATION_WRITE
from tests.google_support import fake_server, sa_key, upload_xlsx  # noqa: F401 - fixtures
from tests.web.organizer_support import fresh_workbook, google_account, member, organizer, private_data  # noqa: F401
from tests.web.registration_support import apply, open_form, with_registration

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_gathering(monkeypatch):
    """The test queue runs a job at once and keeps no delayed look: the writer writes each time here
    (the gathering of a burst has its own test)."""
    from sheets_sync.web.registration import writer

    monkeypatch.setattr(writer, "SETTLE", 0.0)


@pytest.fixture
def gcup(organizer, google_account, fake_server, fresh_workbook) -> Tournament:
    with_registration(fresh_workbook, places=22)
    sid = upload_xlsx(fake_server, fresh_workbook)
    t = member(Tournament.objects.create(slug="gcup", spreadsheet_id=sid, account=google_account), organizer)
    return open_form(t)


def players(fake_server, t: Tournament) -> list[list]:
    return fake_server.values(t.spreadsheet_id, "Игроки")


def test_applications_land_in_the_google_sheet_through_the_budget(client, gcup, fake_server, google_account):
    assert apply(client, gcup.slug, nickname="Пума", email="puma@example.org").status_code == 302
    assert apply(client, gcup.slug, nickname='=HYPERLINK("http://x/","y")', address="10.0.0.2").status_code == 302
    assert apply(client, gcup.slug, nickname="Сова", address="10.0.0.3").status_code == 302
    rows = players(fake_server, gcup)
    head = rows[0]
    by_name = {r[0]: dict(zip(head, r)) for r in rows[1:] if r}
    assert by_name["Пума"]["Заявка"] == "подана" and by_name["Пума"]["Клуб"] == "Котики"
    assert by_name['=HYPERLINK("http://x/","y")']["Заявка"] == "подана"  # a string value: text, never a formula
    assert by_name["Сова"]["Заявка"] == "лист ожидания"  # 20 typed + 2 places taken: the third waits
    assert "puma@example.org" not in repr(rows) and "@puma_mafia" not in repr(rows)
    assert RequestTally.objects.filter(account=google_account.email, kind="write").exists()
    assert not Application.objects.filter(written_at__isnull=True).exists()
    assert dict(Application.objects.values_list("nickname", "state"))["Сова"] == "waiting"


def test_a_state_typed_in_the_google_sheet_wins(client, gcup, fake_server):
    apply(client, gcup.slug, nickname="Пума")
    rows = players(fake_server, gcup)
    col = rows[0].index("Заявка")
    r = next(i for i, row in enumerate(rows) if row and row[0] == "Пума")
    from scoring.cells import a1

    fake_server.set_values(gcup.spreadsheet_id, "Игроки", [["подтверждена"]], start=a1(r, col), user="anna@example.org")
    jobs.request_sync(gcup, "test")
    assert Application.objects.get().state == "confirmed"


def test_a_spent_budget_holds_the_rows_back_unwritten_and_unlost(client, gcup, fake_server, monkeypatch):
    from sheets_sync.keeper.budget import BudgetExhausted
    from sheets_sync.web import workbooks

    real = workbooks.open_tournament_backend

    def spent(tournament):
        raise BudgetExhausted("spent")

    monkeypatch.setattr(workbooks, "open_tournament_backend", spent)
    apply(client, gcup.slug, nickname="Пума")
    job = Job.objects.filter(action=REGISTRATION_WRITE).latest("pk")
    assert job.status == Job.QUEUED and job.waiting == Job.FOR_BUDGET
    assert Application.objects.get().written_at is None
    monkeypatch.setattr(workbooks, "open_tournament_backend", real)
    assert jobs.run_job(job.pk).status == Job.DONE
    assert any(r and r[0] == "Пума" for r in players(fake_server, gcup))


def test_a_burst_is_gathered_into_one_write_a_lone_application_is_written_at_once(client, gcup, fake_server, monkeypatch):
    from datetime import timedelta

    from sheets_sync.web.registration import writer

    monkeypatch.setattr(writer, "SETTLE", 2.0)
    apply(client, gcup.slug, nickname="Пума")  # alone after a quiet while: written at once
    assert Application.objects.get().written_at is not None
    queued = []
    monkeypatch.setattr(writer, "run_job_task", queued.append)
    apply(client, gcup.slug, nickname="Сова", address="10.0.0.2")
    apply(client, gcup.slug, nickname="Лиса", address="10.0.0.3")
    assert len(queued) == 1
    fake_server.reset_counts()
    job = jobs.run_job(queued[0])  # they keep coming: the job waits for the pause
    assert job.status == Job.QUEUED and job.waiting == Job.FOR_BUDGET
    assert Application.objects.filter(written_at__isnull=True).count() == 2
    assert fake_server.quota.busiest_minute("read") == 0  # the sheet not even read
    Application.objects.update(created_at=timezone.now() - timedelta(seconds=writer.SETTLE + 1))  # a pause
    Job.objects.filter(action=REGISTRATION_WRITE, status=Job.DONE).update(finished_at=timezone.now() - timedelta(seconds=60))
    assert jobs.run_job(job.pk).status == Job.DONE
    assert not Application.objects.filter(written_at__isnull=True).exists()
    names = [r[0] for r in players(fake_server, gcup) if r]
    assert {"Пума", "Сова", "Лиса"} <= set(names)
    assert fake_server.quota.busiest_minute("write") == 2  # both in the writer's one write, then the sync's


def test_in_a_burst_even_a_single_waiting_application_joins_the_next_write(client, gcup, monkeypatch):
    from sheets_sync.web.registration import writer

    monkeypatch.setattr(writer, "SETTLE", 2.0)
    apply(client, gcup.slug, nickname="Пума")  # written at once: the writer has just run
    queued = []
    monkeypatch.setattr(writer, "run_job_task", queued.append)
    apply(client, gcup.slug, nickname="Сова", address="10.0.0.2")
    assert jobs.run_job(queued[0]).status == Job.QUEUED  # a write a moment ago: a burst, gathered
    assert Application.objects.get(nickname="Сова").written_at is None
