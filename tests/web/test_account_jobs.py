"""The claim check («Проверить») and a new tournament («Создать таблицу») never wait for the
service account's budget inside a web request (issue 42 §3): with the account's minute full the
press answers at once with a page that follows the job, the job waits in a worker and finishes
later, and the page then lands on the tournament — or shows the refusal in its own language.

The fake Google server and its quota; the budget's clock is the test's own, so a wait is a
recorded sleep, never a real one.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from sheets_sync.keeper.budget import READ
from sheets_sync.web import jobs, workbooks
from sheets_sync.web.accounts.new import NEW as NEW_JOB
from sheets_sync.web.accounts.sheets import CHECK
from sheets_sync.web.models import Job, ServiceAccount, Tournament
from tests.google_support import SA_EMAIL
from tests.web.test_accounts import (NEW, example_sheet, google, signed_in,  # noqa: F401 - fixtures
                                     start_claim, type_code)

pytestmark = pytest.mark.django_db


class Minute:
    """The budget's clock and sleep: sleeping moves the clock; each sleep is recorded with who slept."""

    def __init__(self, monkeypatch) -> None:
        import time

        self.now, self.slept, self.where = time.time(), [], "web request"
        monkeypatch.setattr(workbooks, "budget_clock", lambda: self.now)
        monkeypatch.setattr(workbooks, "budget_sleep", self.sleep)

    def sleep(self, seconds: float) -> None:
        self.slept.append((self.where, seconds))
        self.now += seconds

    def fill(self, ago: float = 0.0) -> None:
        """Every read of the account's minute taken ``ago`` seconds before now (by syncs of other
        sheets, say): they free up a minute after that."""
        store = workbooks.budget_store()
        while store.take(SA_EMAIL, READ, self.now - ago, 55) == 0:
            pass


@pytest.fixture
def queue_later(monkeypatch):
    """A queue the test runs by hand (a worker that takes the job a moment later)."""
    queued = []
    monkeypatch.setattr(jobs, "run_job_task", queued.append)
    return queued


def in_a_worker(job: Job, minute: Minute, monkeypatch) -> Job:
    """The worker takes the job up (what the job itself enqueues — the first sync — runs too)."""
    minute.where = "worker"
    monkeypatch.setattr(jobs, "run_job_task", jobs.run_job)
    jobs.run_job(job.pk)
    job.refresh_from_db()
    return job


def a_minute_later(client, job: Job, minute: Minute, monkeypatch, said: str) -> Job:
    """The worker found the minute still full: the job waits queued, its page says why; a minute
    later it runs."""
    job = in_a_worker(job, minute, monkeypatch)
    assert job.status == Job.QUEUED and job.waiting == Job.FOR_BUDGET and job.attempts == 0
    assert said in client.get(reverse("account_job", args=[job.pk])).content.decode()
    minute.now += 70
    from django.core.cache import cache

    cache.clear()  # the pause between one organizer's checks (5 s) is long over
    return in_a_worker(job, minute, monkeypatch)


def test_the_claim_check_under_a_full_budget_answers_at_once_and_finishes_later(google, example_sheet, monkeypatch,
                                                                                 queue_later):
    minute = Minute(monkeypatch)
    client, user = signed_in("anna@club.ru")
    claim = start_claim(client, example_sheet)
    type_code(google, example_sheet, claim.code)
    minute.fill(ago=45)  # the reads free up within the budget's wait: the one who reads waits for them
    google.reset_counts()
    answer = client.post(reverse("add_sheet"), {"claim": claim.pk})
    assert minute.slept == [] and google.request_count == 0  # the request waited for nothing, asked Google nothing
    job = Job.objects.get(action=CHECK, owner=user)
    assert answer.status_code == 302 and answer["Location"] == reverse("account_job", args=[job.pk])
    page = client.get(answer["Location"]).content.decode()
    assert "Читаем таблицу" in page and reverse("account_job_status", args=[job.pk]) in page  # it polls
    assert client.get(reverse("account_job_status", args=[job.pk])).json()["status"] == Job.QUEUED
    # a second press while it waits shows the same job instead of a second check
    assert client.post(reverse("add_sheet"), {"claim": claim.pk})["Location"] == answer["Location"]
    job = in_a_worker(job, minute, monkeypatch)
    assert job.status == Job.DONE, job.result
    assert {where for where, _ in minute.slept} == {"worker"}  # the worker waited for the budget, not the page
    tournament = Tournament.objects.get(spreadsheet_id=example_sheet)
    landed = client.get(answer["Location"])
    assert landed.status_code == 302 and landed["Location"] == reverse("tournament", args=[tournament.slug])


def test_a_new_tournament_under_a_full_budget_answers_at_once_and_finishes_later(google, monkeypatch, queue_later):
    monkeypatch.setenv("SHEETS_SYNC_GOOGLE_ENDPOINT", google.url)
    ServiceAccount.objects.get()  # the fixture's account
    minute = Minute(monkeypatch)
    client, user = signed_in("anna@club.ru")
    minute.fill()
    google.reset_counts()
    answer = client.post(reverse("new_tournament") + "?lang=en", NEW)
    assert minute.slept == [] and google.request_count == 0 and not Tournament.objects.exists()
    job = Job.objects.get(action=NEW_JOB, owner=user)
    assert "Creating the tournament" in client.get(answer["Location"]).content.decode()
    job = a_minute_later(client, job, minute, monkeypatch, "used up")
    assert job.status == Job.DONE, job.result
    tournament = Tournament.objects.get()
    assert tournament.title == "Кубок осени" and tournament.memberships.get().user == user
    assert client.get(answer["Location"])["Location"] == reverse("tournament", args=[tournament.slug])


def test_a_refused_check_shows_the_form_again_in_the_pages_language(google, example_sheet):
    client, _ = signed_in("anna@club.ru")
    claim = start_claim(client, example_sheet)  # the code is never typed into the sheet
    page = client.post(reverse("add_sheet") + "?lang=en", {"claim": claim.pk}, follow=True).content.decode()
    assert f"The code {claim.code} is not in" in page and 'id="claim-code"' in page  # the same code, to try again


def test_an_organizers_job_page_is_theirs_only(google, example_sheet):
    client, _ = signed_in("anna@club.ru")
    claim = start_claim(client, example_sheet)
    answer = client.post(reverse("add_sheet"), {"claim": claim.pk})
    other, _ = signed_in("boris@club.ru")
    assert other.get(answer["Location"]).status_code == 404
    assert other.get(answer["Location"] + "status.json").status_code == 404
