"""A worker that died mid-job: its jobs run again or fail truthfully, its leases are freed, and
nothing shows «выполняется» while nothing runs.

Every consumer beats from a thread of its own (:class:`Heartbeat`, started by
:mod:`sheets_sync.web.serving`): each beat says the worker lives (:func:`workers.beat`) and then
sweeps (:func:`recover`) for

* **dead workers** — no beat for :data:`~sheets_sync.web.workers.TIMEOUT`: each of their running
  jobs is taken back by one conditional UPDATE (so two sweeping workers never take one twice).
  A job safe to repeat runs again (the sync, the exports, a draw — it writes all at once and
  refuses over typed games — and the claim check); one that is not (advance, replace, evening,
  a forced draw, a new tournament) fails with what the organizer should check before pressing
  again, in both languages. A job that took its worker down :data:`MAX_ATTEMPTS` times fails
  too. Their workbook leases are freed and the jobs waiting for them started;
* **this worker's own lost jobs** — running under its name but not in its threads (a task whose
  end raised, or a Huey retry that found the job claimed): taken back the same way;
* **lost tasks** — a queued job nobody looked at for :data:`FORGOTTEN` (its task was in the
  hands of a worker killed between taking it from the queue and claiming the job): queued again.
  A second task of one job is harmless: the claim is conditional.

A worker that starts sweeps at once, so jobs of workers that died long ago are taken back before
the first beat; one stopping (Ctrl+C, SIGTERM) ages its own row and sweeps, so the jobs its
threads could not finish are taken back without waiting for the timeout.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta

from django.db import close_old_connections
from django.db.models import Q
from django.utils import timezone

from sheets_sync.web import jobs, workers
from sheets_sync.web.models import Job, Tournament, Worker
from sheets_sync.web.words import word

__all__ = ["recover", "Heartbeat", "MAX_ATTEMPTS", "FORGOTTEN", "interrupted_messages"]

log = logging.getLogger("sheets_sync.web.recovery")

MAX_ATTEMPTS = 3  # runs of one job a dying worker may take before it is failed (a job that kills its worker)
FORGOTTEN = timedelta(minutes=3)  # a queued job no worker looked at for this long lost its task


def interrupted_messages(job: Job) -> dict[str, str]:
    """What the page says of a job its worker died in, in both languages: what happened and what
    to check before pressing again."""
    if job.attempts >= MAX_ATTEMPTS:
        key = "organizer.job.interrupted.again"
    else:
        key = f"organizer.job.interrupted.{job.action}"
        key = key if _known(key) else "organizer.job.interrupted.any"
    values = {"player": job.params.get("player", ""), "name": job.params.get("name", ""), "times": job.attempts}
    return {lang: word(key, lang, **values) for lang in ("ru", "en")}


def _known(key: str) -> bool:
    from sheets_sync.web.words import WORDS

    return key in WORDS


def _take_back(job: Job, now: datetime) -> bool:
    """Run the job again or fail it (whichever is true of it); its lease freed. False when
    another sweep took it back first."""
    rules = jobs.RULES.get(job.action, jobs.Rules())
    mine = Job.objects.filter(pk=job.pk, status=Job.RUNNING, worker_id=job.worker_id)
    if rules.runs_again(job.params) and job.attempts < MAX_ATTEMPTS:
        taken = mine.update(status=Job.QUEUED, worker=None, started_at=None, waiting="", looked_at=now)
    else:
        messages = interrupted_messages(job)
        taken = mine.update(status=Job.FAILED, worker=None, finished_at=now, message=messages["en"],
                            result={"refused": False, "interrupted": True, "messages": messages})
    if not taken:
        return False
    log.warning("job %s (%s) was running in a worker that stopped: %s", job.pk, job.action,
                "run again" if rules.runs_again(job.params) and job.attempts < MAX_ATTEMPTS else "failed")
    if job.tournament_id is not None:
        Tournament.objects.filter(pk=job.tournament_id, lease_job_id=job.pk).update(
            lease_until=None, lease_worker=None, lease_job=None)
    if job.action == jobs.SYNC:
        Tournament.objects.filter(pk=job.tournament_id).update(needs_sync=True)
    if Job.objects.filter(pk=job.pk, status=Job.QUEUED).exists():
        jobs.queue_again(job.pk)
    jobs.start_waiting(tournament_id=job.tournament_id, owner_id=job.owner_id)
    return True


def recover(now: datetime | None = None) -> list[int]:
    """One sweep (see the module's docstring); the ids of the jobs taken back."""
    now = now or timezone.now()
    stale = workers.dead_before(now)
    dead = list(Worker.objects.filter(beat_at__lt=stale).values_list("pk", flat=True))
    me = workers.current()
    lost = Q(worker_id__in=dead) | Q(worker__isnull=True, started_at__lt=stale)
    if me is not None:
        lost |= Q(worker_id=me) & ~Q(pk__in=workers.running_here())
    taken = [job.pk for job in Job.objects.filter(lost, status=Job.RUNNING).order_by("pk") if _take_back(job, now)]
    if dead:
        freed = list(Tournament.objects.filter(lease_worker_id__in=dead).values_list("pk", flat=True))
        Tournament.objects.filter(pk__in=freed).update(lease_until=None, lease_worker=None, lease_job=None)
        Worker.objects.filter(pk__in=dead).exclude(jobs__status=Job.RUNNING).delete()
        for tournament_id in freed:
            jobs.start_waiting(tournament_id=tournament_id)
    _queue_forgotten(now)
    return taken


def _queue_forgotten(now: datetime) -> None:
    forgotten = (Job.objects.filter(status=Job.QUEUED)
                 .filter(Q(looked_at__lt=now - FORGOTTEN) | Q(looked_at__isnull=True, created_at__lt=now - FORGOTTEN))
                 .values_list("pk", flat=True))
    for job_id in list(forgotten):
        jobs.queue_again(job_id)


class Heartbeat:
    """This process as a living worker: registered, beating every :data:`~workers.BEAT` and
    sweeping for what dead workers left, from a daemon thread of its own (a job holding every
    worker thread never stops the beat)."""

    def __init__(self, threads: int) -> None:
        self.threads = threads
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> Heartbeat:
        workers.register(self.threads)
        self._sweep()  # jobs of workers that died before this one started
        self._thread = threading.Thread(target=self._run, name="sheets-sync heartbeat", daemon=True)
        self._thread.start()
        return self

    def _sweep(self) -> None:
        try:
            recover()
        except Exception:  # noqa: BLE001 - a sweep that failed (the database busy) is tried at the next beat
            log.exception("the sweep for stopped workers failed")

    def _run(self) -> None:
        try:
            while not self._stop.wait(workers.BEAT.total_seconds()):
                try:
                    workers.beat()
                except Exception:  # noqa: BLE001 - a missed beat is not fatal: six may be missed
                    log.exception("heartbeat not recorded")
                    continue
                self._sweep()
        finally:
            close_old_connections()

    def stop(self) -> None:
        """Stop beating; what this worker leaves running is taken back now (see the module's docstring)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=workers.BEAT.total_seconds() + 5)
        workers.retire()
        self._sweep()
