"""This process as a worker of the queue: its row in the database with a heartbeat, the leases
it holds kept alive by that heartbeat, and how many of its threads are busy.

A consumer (the server's worker threads, ``sheets-sync worker``, the app) registers a
:class:`~sheets_sync.web.models.Worker` when it starts (:func:`register`) and beats every
:data:`BEAT` seconds from a thread of its own (:func:`beat`, called by
:class:`sheets_sync.web.recovery.Heartbeat`). A worker is alive while its last beat is younger
than :data:`TIMEOUT` (``SHEETS_SYNC_WORKER_TIMEOUT``, 30 s); the workbook leases its jobs hold
(``Tournament.lease_until``) are moved on by each beat, so a lease lasts exactly as long as its
worker lives — a killed worker's lease is free a timeout later, not after a fixed 5 minutes.

Its threads: Huey's signals count the tasks this process is executing (the keeping minute
included), so a long job can tell whether it would take the last free thread
(:func:`room_for_long`). A process with no consumer (the web threads alone, tests in Huey's
immediate mode) has no worker row and no thread rule.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from sheets_sync.web.models import Tournament, Worker

__all__ = ["TIMEOUT", "BEAT", "register", "current", "beat", "retire", "dead_before", "count_busy", "room_for_long",
           "job_started", "job_ended", "running_here"]

log = logging.getLogger("sheets_sync.web.workers")

TIMEOUT = timedelta(seconds=getattr(settings, "WORKER_TIMEOUT", 30.0))
BEAT = TIMEOUT / 6  # six beats may be missed (a busy database, a long pause) before the worker counts as dead

_state = {"me": None, "threads": None}
_lock = threading.Lock()
_busy: set[str] = set()  # Huey task ids executing in this process
_jobs_here: set[int] = set()  # jobs this process is running (or about to claim)

_BUSY_ENDS = ("complete", "error", "interrupted", "canceled", "timeout", "rate-limited", "locked", "expired", "revoked")


def register(threads: int, now: datetime | None = None) -> Worker:
    """This process's row: named by host and pid, alive from now."""
    worker = Worker.objects.create(name=f"{socket.gethostname()}:{os.getpid()}", threads=threads,
                                   beat_at=now or timezone.now())
    _state.update(me=worker.pk, threads=threads)
    return worker


def current() -> int | None:
    """This process's worker id (None where no consumer runs)."""
    return _state["me"]


def beat(now: datetime | None = None) -> bool:
    """Say this worker lives, and move its leases on. False when its row was taken back as dead
    (a pause longer than the timeout): it registers again, and its jobs' ends are ignored."""
    me, now = current(), now or timezone.now()
    if me is None:
        return False
    if not Worker.objects.filter(pk=me).update(beat_at=now):
        log.warning("worker %s was taken for dead (no heartbeat for %s s): registering again", me, TIMEOUT.seconds)
        register(_state["threads"] or 1, now)
        return False
    Tournament.objects.filter(lease_worker_id=me).update(lease_until=now + TIMEOUT)
    return True


def retire() -> int | None:
    """This worker stops: its row is aged past the timeout so that what it leaves running is
    taken back at once (:func:`sheets_sync.web.recovery.recover`); returns its id."""
    me = current()
    if me is not None:
        Worker.objects.filter(pk=me).update(beat_at=timezone.now() - 2 * TIMEOUT)
    _state.update(me=None, threads=None)
    return me


def dead_before(now: datetime | None = None) -> datetime:
    """A worker whose last beat is older than this is dead."""
    return (now or timezone.now()) - TIMEOUT


# -- this process's threads -------------------------------------------------------------------------
def _task_started(signal, task, *args, **kwargs) -> None:  # noqa: ARG001 - Huey's receiver signature
    with _lock:
        _busy.add(task.id)


def _task_ended(signal, task, *args, **kwargs) -> None:  # noqa: ARG001
    with _lock:
        _busy.discard(task.id)


def count_busy(huey) -> None:
    """Count the tasks ``huey``'s consumer in this process is executing (connected once)."""
    huey.disconnect_signal(_task_started)
    huey.disconnect_signal(_task_ended)
    huey.signal("executing")(_task_started)
    huey.signal(*_BUSY_ENDS)(_task_ended)


def room_for_long() -> bool:
    """Whether a long job may start on this thread and still leave another thread free (its own
    task already counts as busy). No consumer, or a single thread: no such rule."""
    threads = _state["threads"]
    if threads is None or threads < 2:
        return True
    with _lock:
        return len(_busy) < threads


def job_started(job_id: int) -> None:
    with _lock:
        _jobs_here.add(job_id)


def job_ended(job_id: int) -> None:
    with _lock:
        _jobs_here.discard(job_id)


def running_here() -> set[int]:
    with _lock:
        return set(_jobs_here)
