"""The rules a job starts by, through the pages (Django's test client, the queue immediate):
a press during a running sync waits for it and then syncs; a workbook is written by one job at a
time; one organizer's long jobs never take more than their share of the workers; a job whose
worker died runs again or fails saying what to check — and the job's page says which, in the
reader's language.

The real processes (SIGKILL, several worker threads and processes) are in test_job_lifecycle.py
and test_scale_out.py; here the worker's state is set by hand where a test needs one.
"""

from __future__ import annotations

from datetime import timedelta

import openpyxl
import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from sheets_sync.web import jobs, recovery, runners, workers
from sheets_sync.web.models import Job, Tournament, Worker
from tests.web.organizer_support import (excel_tournament, fresh_tournament, fresh_workbook, member, organizer,  # noqa: F401
                                         private_data, signed_in)

pytestmark = pytest.mark.django_db


def rename(path, name: str) -> None:
    book = openpyxl.load_workbook(path)
    book["Турнир"]["B1"] = name
    book.save(path)


def job_page(client, job: Job, lang: str = "ru") -> str:
    return client.get(reverse("job", args=[job.tournament.slug, job.pk]) + f"?lang={lang}").content.decode()


# -- a press during a running sync ------------------------------------------------------------------
def test_a_press_during_a_running_sync_waits_for_it_then_syncs_the_edit(signed_in, excel_tournament, monkeypatch):
    real, pressed = jobs.RUNNERS[jobs.SYNC], []

    def sync_then_an_edit_and_a_press(tournament, params):
        result = real(tournament, params)
        if not pressed:  # the first sync has read the sheet; the organizer edits it and presses «Обновить сейчас»
            rename(tournament.path, "Кубок после правки")
            signed_in.post(reverse("press", args=[tournament.slug, jobs.SYNC]))
            pressed.append(Job.objects.filter(tournament=tournament, action=jobs.SYNC).latest("pk"))
            assert pressed[0].status == Job.QUEUED and pressed[0].waiting == Job.FOR_WORKBOOK
            assert "ждёт, пока закончится" in job_page(signed_in, pressed[0])  # the page says why it waits
        return result

    monkeypatch.setitem(jobs.RUNNERS, jobs.SYNC, sync_then_an_edit_and_a_press)
    first = jobs.request_sync(excel_tournament, "drive")
    press = Job.objects.get(pk=pressed[0].pk)
    first.refresh_from_db()
    # the press ran after the first sync let the workbook go, as a real sync that read the edit
    assert press.status == Job.DONE and press.started_at >= first.finished_at
    assert not press.result.get("skipped") and press.result["name"] == "Кубок после правки"
    assert Tournament.objects.get(pk=excel_tournament.pk).title == "Кубок после правки"


# -- one workbook, one writer -----------------------------------------------------------------------
def test_a_draw_pressed_while_a_sync_holds_the_workbook_waits_then_draws(signed_in, fresh_tournament, monkeypatch):
    real, draws = jobs.RUNNERS[jobs.SYNC], []

    def sync_during_which_a_draw_is_pressed(tournament, params):
        if not draws:
            signed_in.post(reverse("press", args=[tournament.slug, runners.DRAW]), {"seed": 2, "time_limit": 1})
            draws.append(Job.objects.get(action=runners.DRAW))
            assert draws[0].status == Job.QUEUED and draws[0].waiting == Job.FOR_WORKBOOK
        return real(tournament, params)

    monkeypatch.setitem(jobs.RUNNERS, jobs.SYNC, sync_during_which_a_draw_is_pressed)
    sync = jobs.request_sync(fresh_tournament, "button")
    sync.refresh_from_db()
    draw = Job.objects.get(pk=draws[0].pk)
    assert draw.status == Job.DONE and draw.started_at >= sync.finished_at
    assert "Жеребьёвка" in job_page(signed_in, draw) and draw.result["games"] > 0


# -- one organizer's share ----------------------------------------------------------------------------
@pytest.fixture
def boris(db):
    return get_user_model().objects.create_user("boris@club.ru", "boris@club.ru", "a long password 2")


def running_long_job(tournament: Tournament, owner) -> Job:
    """A draw of ``owner``'s running in some worker."""
    worker = Worker.objects.create(name="elsewhere:1", threads=3, beat_at=timezone.now())
    return Job.objects.create(tournament=tournament, action=runners.DRAW, owner=owner, status=Job.RUNNING,
                              worker=worker, started_at=timezone.now())


def test_an_organizers_second_long_job_waits_for_the_first_and_others_pass_it(
        signed_in, organizer, boris, excel_tournament, tmp_path, example):
    second = member(Tournament.objects.create(slug="second", source=Tournament.EXCEL, path=str(example)), organizer)
    running = running_long_job(excel_tournament, organizer)
    signed_in.post(reverse("press", args=[second.slug, runners.MWT]))
    waiting = Job.objects.get(action=runners.MWT)
    assert waiting.status == Job.QUEUED and waiting.waiting == Job.FOR_SHARE and waiting.owner == organizer
    assert "другая ваша долгая задача" in job_page(signed_in, waiting)
    assert "another long job of yours" in job_page(signed_in, waiting, "en")
    # another organizer's export passes it
    theirs = member(Tournament.objects.create(slug="theirs", source=Tournament.EXCEL, path=str(example)), boris)
    passed = jobs.enqueue(theirs, runners.MWT, user=boris)
    passed.refresh_from_db()
    assert passed.status == Job.DONE
    # the first one ends: the waiting one starts at once
    Job.objects.filter(pk=running.pk).update(status=Job.DONE, finished_at=timezone.now())
    jobs.start_waiting(owner_id=organizer.pk)
    waiting.refresh_from_db()
    assert waiting.status == Job.DONE and waiting.result["games"] > 0


def test_a_long_job_never_takes_the_last_free_thread_but_a_sync_does(excel_tournament, monkeypatch):
    monkeypatch.setitem(workers._state, "threads", 3)
    monkeypatch.setattr(workers, "_busy", {"keeping minute", "a sync", "this task"})  # every thread busy but none free
    export = jobs.enqueue(excel_tournament, runners.VK)
    export.refresh_from_db()
    assert export.status == Job.QUEUED and export.waiting == Job.FOR_THREAD
    sync = jobs.request_sync(excel_tournament, "button")
    sync.refresh_from_db()
    assert sync.status == Job.DONE  # syncs keep moving
    monkeypatch.setattr(workers, "_busy", {"keeping minute", "this task"})  # a thread left free besides this one
    jobs.run_job(export.pk)
    export.refresh_from_db()
    assert export.status == Job.DONE


# -- a worker that died ---------------------------------------------------------------------------------
def died_running(tournament: Tournament, action: str, params: dict | None = None, attempts: int = 1) -> Job:
    worker = Worker.objects.create(name="gone:1", threads=3, beat_at=timezone.now() - workers.TIMEOUT * 2)
    job = Job.objects.create(tournament=tournament, action=action, params=params or {}, status=Job.RUNNING,
                             worker=worker, started_at=timezone.now() - timedelta(minutes=1), attempts=attempts)
    if jobs.RULES[action].leased:
        Tournament.objects.filter(pk=tournament.pk).update(lease_until=timezone.now() + jobs.LEASE, lease_worker=worker,
                                                           lease_job=job)
    return job


@pytest.mark.parametrize("action, params, said_ru, said_en", [
    (runners.ADVANCE, {}, "Рассадить следующий этап", "Seat the next stage"),
    (runners.REPLACE, {"player": "Игрок 07"}, "Игрок 07", "Игрок 07"),
    (runners.DRAW, {"force": True}, "судьи могли уже вписать", "judges may have typed"),
])
def test_a_job_not_safe_to_repeat_fails_saying_what_to_check(signed_in, fresh_tournament, monkeypatch, action, params,
                                                             said_ru, said_en):
    monkeypatch.setattr(jobs, "run_job_task", lambda job_id: None)
    job = died_running(fresh_tournament, action, params)
    assert recovery.recover() == [job.pk]
    job.refresh_from_db()
    assert job.status == Job.FAILED and job.result["interrupted"]
    for lang, said in (("ru", said_ru), ("en", said_en)):
        page = job_page(signed_in, job, lang)
        assert said in page and ("Сервер остановился" if lang == "ru" else "The server stopped") in page
        assert ("выполняется" if lang == "ru" else "running") not in page.split("<h1>", 1)[1]
    assert Tournament.objects.get(pk=fresh_tournament.pk).lease_until is None  # the workbook is free again


def test_an_evening_its_worker_died_in_fails_saying_to_look_for_its_tab(signed_in, organizer, tmp_path, monkeypatch):
    from tests.web.organizer_support import players_csv
    from sheets_sync.actions.init import init_workbook

    path = tmp_path / "season.xlsx"
    init_workbook(str(path), players_csv=players_csv(tmp_path, 12), preset_ref="club-season", name="Сезон",
                  language="ru", season=True)
    season = member(Tournament.objects.create(slug="season", kind=Tournament.SEASON, source=Tournament.EXCEL,
                                              path=str(path)), organizer)
    monkeypatch.setattr(jobs, "run_job_task", lambda job_id: None)
    job = died_running(season, runners.EVENING, {"games": 4})
    recovery.recover()
    page = job_page(signed_in, Job.objects.get(pk=job.pk))
    assert "Сервер остановился" in page and "вкладка нового вечера" in page


def test_a_draw_and_an_export_its_worker_died_in_run_again(signed_in, fresh_tournament):
    draw = died_running(fresh_tournament, runners.DRAW, {"seed": 1, "time_limit": 1})
    export = died_running(fresh_tournament, runners.SEATING, {"round": 1})
    assert sorted(recovery.recover()) == sorted([draw.pk, export.pk])
    draw.refresh_from_db()
    export.refresh_from_db()
    assert draw.status == Job.DONE and draw.attempts == 2 and draw.result["games"] > 0
    assert export.status == Job.DONE and export.result["files"]
    assert not Job.objects.filter(status=Job.RUNNING).exists() and not Worker.objects.exists()


def test_a_job_that_took_its_worker_down_three_times_is_not_run_a_fourth(signed_in, fresh_tournament):
    job = died_running(fresh_tournament, runners.DRAW, {"seed": 1, "time_limit": 1}, attempts=recovery.MAX_ATTEMPTS)
    recovery.recover()
    job.refresh_from_db()
    assert job.status == Job.FAILED and "3" in job_page(signed_in, job)


def test_a_living_workers_jobs_and_its_own_running_ones_are_left_alone(excel_tournament, monkeypatch):
    worker = Worker.objects.create(name="alive:1", threads=3, beat_at=timezone.now())
    other = Job.objects.create(tournament=excel_tournament, action=runners.VK, status=Job.RUNNING, worker=worker,
                               started_at=timezone.now())
    monkeypatch.setitem(workers._state, "me", worker.pk)
    monkeypatch.setattr(workers, "_jobs_here", {other.pk})
    assert recovery.recover() == []
    # one marked running under this worker's name that none of its threads runs is lost: taken back
    monkeypatch.setattr(workers, "_jobs_here", set())
    monkeypatch.setattr(jobs, "run_job_task", lambda job_id: None)
    assert recovery.recover() == [other.pk]
    assert Job.objects.get(pk=other.pk).status == Job.QUEUED


def test_a_queued_job_whose_task_was_lost_is_queued_again(excel_tournament, monkeypatch):
    monkeypatch.setattr(jobs, "run_job_task", lambda job_id: None)  # the task is lost
    job = jobs.enqueue(excel_tournament, runners.VK)
    Job.objects.filter(pk=job.pk).update(created_at=timezone.now() - recovery.FORGOTTEN - timedelta(seconds=1))
    monkeypatch.setattr(jobs, "run_job_task", jobs.run_job)
    recovery.recover()
    assert Job.objects.get(pk=job.pk).status == Job.DONE


def test_two_deliveries_of_one_job_at_once_run_it_once(excel_tournament, monkeypatch):
    """Huey's retry, or a job queued again by a sweep, may reach a second thread while the first
    has read the job as queued: only one of them claims it."""
    ran, started = [], workers.job_started
    monkeypatch.setitem(jobs.RUNNERS, runners.VK, lambda tournament, params: ran.append(tournament.pk) or {})
    monkeypatch.setattr(jobs, "run_job_task", lambda job_id: None)
    job = jobs.enqueue(excel_tournament, runners.VK)

    def the_other_delivery_meanwhile(job_id):
        started(job_id)
        if len(ran) == 0 and not getattr(the_other_delivery_meanwhile, "done", False):
            the_other_delivery_meanwhile.done = True
            jobs.run_job(job_id)  # read as queued by both; this one claims it first

    monkeypatch.setattr(workers, "job_started", the_other_delivery_meanwhile)
    jobs.run_job(job.pk)
    assert ran == [excel_tournament.pk] and Job.objects.get(pk=job.pk).status == Job.DONE
