"""The queue's rules for a sync (sheets_sync.web.jobs): one waiting sync per sheet however many
changes arrive, one worker at a time per sheet, and a sheet left changed by a killed worker or a
failed sync ends synced."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from sheets_sync.web import jobs
from sheets_sync.web.models import Job, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def excel_tournament(example) -> Tournament:
    return Tournament.objects.create(slug="gmo", source=Tournament.EXCEL, path=str(example))


def test_a_requested_sync_writes_the_site_and_the_summary(excel_tournament):
    job = jobs.request_sync(excel_tournament, "button")
    job.refresh_from_db()
    assert job.status == Job.DONE, job.message
    t = Tournament.objects.get(pk=excel_tournament.pk)
    assert not t.needs_sync and t.lease_until is None and t.last_sync_at is not None
    standings = json.loads((jobs.out_dir(t) / "standings.json").read_text(encoding="utf-8"))
    assert t.last_sync["games"] > 0 and standings["standings"]
    assert (jobs.site_dir(t) / "index.html").exists()
    assert t.title  # the workbook's own name


def test_changes_while_a_sync_waits_add_no_sync(excel_tournament, monkeypatch):
    started = []
    monkeypatch.setattr(jobs, "run_job_task", started.append)  # a queue nobody consumes yet
    first = jobs.request_sync(excel_tournament, "push")
    assert all(jobs.request_sync(excel_tournament, "push") is None for _ in range(1000))
    assert started == [first.pk]
    assert Job.objects.filter(tournament=excel_tournament, action=jobs.SYNC).count() == 1


def test_a_sheet_another_job_holds_is_left_to_it_and_its_sync_waits_queued(excel_tournament, monkeypatch):
    monkeypatch.setattr(jobs, "run_job_task", lambda job_id: None)
    Tournament.objects.filter(pk=excel_tournament.pk).update(lease_until=timezone.now() + jobs.LEASE)
    job = jobs.run_job(jobs.request_sync(excel_tournament, "push").pk)
    job.refresh_from_db()
    # not «done» having done nothing: it waits in the queue for the workbook, and says so
    assert job.status == Job.QUEUED and job.waiting == Job.FOR_WORKBOOK and job.started_at is None
    assert Tournament.objects.get(pk=excel_tournament.pk).needs_sync


def test_a_dead_workers_sync_runs_again_once_its_heartbeat_is_older_than_the_timeout(excel_tournament, monkeypatch):
    from sheets_sync.web import recovery, workers
    from sheets_sync.web.models import Worker

    monkeypatch.setattr(jobs, "run_job_task", lambda job_id: None)
    killed = jobs.request_sync(excel_tournament, "push")
    # the worker took the lease, marked the job running, then died: nothing else happened
    worker = Worker.objects.create(name="gone:1", threads=3, beat_at=timezone.now())
    Tournament.objects.filter(pk=excel_tournament.pk).update(lease_until=timezone.now() + jobs.LEASE, needs_sync=True,
                                                             lease_worker=worker, lease_job=killed)
    Job.objects.filter(pk=killed.pk).update(status=Job.RUNNING, worker=worker, started_at=timezone.now(), attempts=1)
    assert recovery.recover() == [] and jobs.sync_due() == []  # its heartbeat is fresh: it lives
    Worker.objects.filter(pk=worker.pk).update(beat_at=timezone.now() - workers.TIMEOUT - timedelta(seconds=1))
    monkeypatch.setattr(jobs, "run_job_task", jobs.run_job)
    assert recovery.recover() == [killed.pk]
    killed.refresh_from_db()
    assert killed.status == Job.DONE and killed.attempts == 2 and not killed.result.get("skipped")
    t = Tournament.objects.get(pk=excel_tournament.pk)
    assert not t.needs_sync and t.last_sync_at is not None and t.lease_until is None
    assert not Worker.objects.filter(pk=worker.pk).exists()


def test_a_failed_sync_leaves_the_sheet_marked_and_says_why(tmp_path):
    missing = Tournament.objects.create(slug="gone", source=Tournament.EXCEL, path=str(tmp_path / "nowhere.xlsx"))
    job = jobs.request_sync(missing, "button")
    job.refresh_from_db()
    assert job.status == Job.FAILED and job.message
    t = Tournament.objects.get(pk=missing.pk)
    assert t.needs_sync and t.lease_until is None and t.last_error


def test_an_unknown_action_is_refused(excel_tournament):
    with pytest.raises(ValueError):
        jobs.enqueue(excel_tournament, "format-the-disk")


def test_a_change_during_a_sync_is_synced_by_the_next_one(excel_tournament, monkeypatch):
    real = jobs.RUNNERS[jobs.SYNC]
    edits = []

    def sync_while_a_judge_saves(tournament, params):
        if not edits:  # the first sync: a judge saves while it reads
            edits.append(jobs.request_sync(tournament, "push"))
        return real(tournament, params)

    monkeypatch.setitem(jobs.RUNNERS, jobs.SYNC, sync_while_a_judge_saves)
    first = jobs.request_sync(excel_tournament, "button")
    syncs = list(Job.objects.filter(tournament=excel_tournament, action=jobs.SYNC).order_by("pk"))
    assert [j.pk for j in syncs] == [first.pk, edits[0].pk]  # the save's sync is the one more, none besides
    assert [(j.status, j.result.get("deferred", False)) for j in syncs] == [(Job.DONE, False), (Job.DONE, False)]
    assert syncs[1].started_at >= syncs[0].finished_at  # it waited for the first to end
    assert not Tournament.objects.get(pk=excel_tournament.pk).needs_sync


def test_a_sync_the_accounts_minute_holds_back_waits_queued_and_then_runs(excel_tournament, monkeypatch):
    """A sync that meets a spent Google budget (the one a judge's submitted game queues right after
    ten tables' saves) waits in the queue for the next look, not failed until the minute's sweep: the
    standings follow the game seconds later instead of up to a minute."""
    from sheets_sync.keeper.budget import BudgetExhausted
    from sheets_sync.loop import sync as sync_module

    real = sync_module.sync_once

    def spent(*args, **kwargs):
        raise BudgetExhausted("the minute's read requests are used up")

    monkeypatch.setattr(jobs, "run_job_task", lambda job_id: None)
    monkeypatch.setattr(sync_module, "sync_once", spent)
    job = jobs.run_job(jobs.request_sync(excel_tournament, "judge").pk)
    assert job.status == Job.QUEUED and job.waiting == Job.FOR_BUDGET and job.attempts == 0, job.message
    assert Tournament.objects.get(pk=excel_tournament.pk).needs_sync
    monkeypatch.setattr(sync_module, "sync_once", real)
    assert jobs.run_job(job.pk).status == Job.DONE
    assert not Tournament.objects.get(pk=excel_tournament.pk).needs_sync
