"""The organizers' actions as queued jobs, and the one rule of a sync: a changed sheet ends synced.

A button, the Drive changes feed and the push hook all end here. :func:`enqueue` records a
:class:`~sheets_sync.web.models.Job` (what the page shows as waiting) and hands its id to the queue
(Huey: a SQLite file in one process, Redis for workers on several machines); :func:`run_job` is
what a worker runs. Each action is a runner registered by name (:func:`runner`) that calls the
same click-free action the command line calls (:mod:`sheets_sync.actions`).

Syncs follow three rules, so that nothing is lost and nothing is done twice:

* :func:`request_sync` marks the tournament ``needs_sync`` and enqueues a sync only when none is
  waiting already — a thousand pushes in a minute start a few syncs, not a thousand;
* a sync holds a lease (``lease_until``) taken by one conditional UPDATE, so two workers never
  sync the same sheet at once;
* ``needs_sync`` is cleared only by a sync that finished, and only if no change arrived while it
  ran (``changed_at`` is still the one it started from); a change during the sync leaves it set,
  and the finished sync asks for the next one at once;
* a worker killed mid-sync leaves ``needs_sync`` set and a lease that runs out; :func:`sync_due`,
  run every minute, enqueues those — the sheet ends synced, and the sync never changes what a
  person typed (the backends write atomically).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from huey.contrib.djhuey import db_task

from scoring.errors import SheetsSyncError
from sheets_sync.web.limits import fitted
from sheets_sync.web.models import Job, Tournament

__all__ = ["RUNNERS", "runner", "enqueue", "run_job", "request_sync", "sync_due", "site_dir", "out_dir",
           "LEASE", "SYNC", "public_link", "problem_rows", "PROBLEMS_KEPT"]

log = logging.getLogger("sheets_sync.web.jobs")

SYNC = "sync"
LEASE = timedelta(minutes=5)  # longer than any sync of a 200-player workbook; a killed worker's lease runs out
RUNNERS: dict[str, Callable[[Tournament, dict], dict]] = {}


def runner(name: str) -> Callable[[Callable[[Tournament, dict], dict]], Callable[[Tournament, dict], dict]]:
    """Register ``fn(tournament, params) -> result`` (JSON-able) as the action ``name``."""
    def register(fn: Callable[[Tournament, dict], dict]) -> Callable[[Tournament, dict], dict]:
        if name in RUNNERS:
            raise ValueError(f"action {name!r} registered twice")
        RUNNERS[name] = fn
        return fn
    return register


def out_dir(tournament: Tournament) -> Path:
    """Where a tournament's syncs write standings.json, the site and the VK post (``site/`` inside)."""
    return Path(settings.DATA_DIR) / "sites" / str(tournament.pk)


def site_dir(tournament: Tournament) -> Path:
    """The site ``/t/<slug>/`` serves: the version of the last sync that finished (not the folder
    a sync is writing: :mod:`sheets_sync.web.site_versions`)."""
    from sheets_sync.web.site_versions import served_site

    return served_site(out_dir(tournament))


def enqueue(tournament: Tournament, action: str, *, params: dict | None = None, user=None) -> Job:
    if action not in RUNNERS:
        raise ValueError(f"unknown action {action!r}")
    job = Job.objects.create(tournament=tournament, action=action, params=params or {}, requested_by=user)
    run_job_task(job.pk)
    return job


def request_sync(tournament: Tournament, reason: str, *, user=None) -> Job | None:
    """Mark the tournament changed and make sure one sync is waiting for it (the new one, or None
    when a queued sync will read the change anyway)."""
    now = timezone.now()
    Tournament.objects.filter(pk=tournament.pk).update(needs_sync=True, changed_at=now)
    with transaction.atomic():
        waiting = (Job.objects.select_for_update().filter(tournament=tournament, action=SYNC, status=Job.QUEUED)
                   .exists())
        if waiting:
            return None
        job = Job.objects.create(tournament=tournament, action=SYNC, params={"reason": reason}, requested_by=user)
    run_job_task(job.pk)
    return job


SYNC_READS = 2  # Sheets reads one sync costs at most (the tab list and the values, neither cached)


def sync_due(now=None) -> list[int]:
    """Enqueue a sync for every tournament marked changed with no live lease and no sync waiting
    (a killed worker's, a failed one's, a full pass after a refused Drive page token): the periodic
    task's sweep, longest waiting first. A Google sheet is started only while its account has reads
    left this minute for it (:data:`SYNC_READS` each): a few hundred sheets marked at once are
    synced over a few minutes instead of filling the queue with syncs that wait for the budget in
    front of the sheets being played. Returns their ids."""
    now = now or timezone.now()
    due = (Tournament.objects.filter(needs_sync=True, share_lost=False, share_view_only=False)
           .filter(Q(lease_until__isnull=True) | Q(lease_until__lt=now))
           .exclude(jobs__action=SYNC, jobs__status=Job.QUEUED).select_related("account")
           .order_by(F("changed_at").asc(nulls_first=True), "pk"))
    started, room = [], {}
    for tournament in due:
        if not _room_for_a_sync(tournament, room):
            continue
        if request_sync(tournament, "due") is not None:
            started.append(tournament.pk)
    return started


def _room_for_a_sync(tournament: Tournament, room: dict[int, int]) -> bool:
    """Take one sync's reads from ``room`` (the syncs each account can still afford this minute)."""
    if tournament.source != Tournament.GOOGLE or tournament.account is None:
        return True
    if tournament.account_id not in room:
        from sheets_sync.keeper.budget import READ, Budget
        from sheets_sync.web import workbooks

        left = Budget(workbooks.budget_store(), tournament.account.email, clock=workbooks.budget_clock).left(READ)
        room[tournament.account_id] = left // SYNC_READS
    if room[tournament.account_id] <= 0:
        return False
    room[tournament.account_id] -= 1
    return True


def _take_lease(tournament: Tournament, now) -> bool:
    free = Q(lease_until__isnull=True) | Q(lease_until__lt=now)
    return bool(Tournament.objects.filter(free, pk=tournament.pk).update(lease_until=now + LEASE))


def _release(tournament: Tournament, seen_change) -> None:
    """Let go of the lease; clear ``needs_sync`` unless a change arrived during the sync, and then
    ask for the next sync at once."""
    Tournament.objects.filter(pk=tournament.pk).update(lease_until=None, last_error="")
    cleared = Tournament.objects.filter(pk=tournament.pk, changed_at=seen_change).update(needs_sync=False)
    if not cleared:
        request_sync(tournament, "changed during the sync")


def run_job(job_id: int) -> Job:
    """Run one queued job to its end (done or failed) and return it."""
    job = Job.objects.select_related("tournament", "tournament__account").get(pk=job_id)
    if job.status != Job.QUEUED:
        return job  # a retry of a job that finished, or one another worker took
    tournament, now = job.tournament, timezone.now()
    seen_change = Tournament.objects.filter(pk=tournament.pk).values_list("changed_at", flat=True).first()
    if job.action == SYNC and not _take_lease(tournament, now):
        # another worker is syncing this sheet: it re-reads, or the sweep starts one after it
        Tournament.objects.filter(pk=tournament.pk).update(needs_sync=True)
        return _finish(job, Job.DONE, "another sync was running", {"deferred": True})
    Job.objects.filter(pk=job.pk).update(status=Job.RUNNING, started_at=now)
    try:
        result = RUNNERS[job.action](tournament, dict(job.params))
    except Exception as exc:  # noqa: BLE001 - the job is failed and explained on the page; the worker goes on
        log.warning("job %s (%s of %s) failed: %s", job.pk, job.action, tournament.slug, exc)
        if job.action == SYNC:
            Tournament.objects.filter(pk=tournament.pk).update(needs_sync=True, lease_until=None, last_error=str(exc))
        return _finish(job, Job.FAILED, str(exc), _failure(exc))
    job = _finish(job, Job.DONE, str(result.pop("message", "")), result)
    if job.action == SYNC:
        _release(tournament, seen_change)
    return job


def _failure(exc: Exception) -> dict:
    """What the page says of a failed job: a refusal (a person can fix it) in both languages, so
    the page speaks its reader's; a bug only as «failed» (its text is in the log)."""
    if isinstance(exc, SheetsSyncError):
        from sheets_sync.web.refusals import messages_of  # the page's words: no flag, no English on a Russian page

        return {"refused": True, "messages": messages_of(exc)}
    return {"refused": False}


def _finish(job: Job, status: str, message: str, result: dict) -> Job:
    Job.objects.filter(pk=job.pk).update(status=status, finished_at=timezone.now(), message=message, result=result)
    job.refresh_from_db()
    return job


@db_task(retries=2, retry_delay=10)
def run_job_task(job_id: int) -> None:
    run_job(job_id)


PROBLEMS_KEPT = 200  # problems a dashboard lists (a broken workbook can have thousands: the sheet has them all)


def public_link(tournament: Tournament) -> str | None:
    """The address of the tournament's hosted site (``SHEETS_SYNC_PUBLIC_URL``/t/<slug>/), which
    the VK post carries; None when the server's public address is not set."""
    base = (getattr(settings, "PUBLIC_URL", None) or os.environ.get("SHEETS_SYNC_PUBLIC_URL") or "").rstrip("/")
    return f"{base}/t/{tournament.slug}/" if base else None


def problem_rows(problems, snapshot, *, google: bool) -> list[dict]:
    """The problems as the dashboard lists them: tab, cell, the tab's sheet id (``gid``, Google
    only: the link opens the sheet at the cell) and the message in both languages."""
    gids = {}
    if google and snapshot is not None and isinstance(snapshot.token, tuple):
        gids = {title: sheet_id for sheet_id, title in snapshot.token}
    return [{"tab": p.sheet, "cell": p.cell, "gid": gids.get(p.sheet), "severity": p.severity.value,
             "ru": p.message("ru"), "en": p.message("en")} for p in list(problems)[:PROBLEMS_KEPT]]


def _summary(tournament: Tournament, report) -> dict:
    """The last sync's summary for the dashboard: the counts, the games planned, the problems
    (an unchanged workbook keeps the previous sync's problems: they are still true)."""
    if report.outcome is None:
        return {**tournament.last_sync, **report.summary, "skipped": True}
    from scoring.progress import progress
    from sheets_sync.loop.sync import sync_summary

    outcome = report.outcome
    done = progress(outcome.results)
    return {**sync_summary(outcome), "planned": done.games_total, "skipped": False,
            "season": bool(outcome.results.tournament.season),
            "problems": problem_rows(outcome.problems, report.snapshot, google=tournament.source == Tournament.GOOGLE),
            "problems_total": len(outcome.problems), "written": bool(report.written),
            "tabs": len(report.patch.writes), "files": len(report.files), "advanced": report.advanced or ""}


def _note_lane_fingerprint(tournament: Tournament, snapshot) -> None:
    """A sheet in the fast lane: what this sync read is what the next poll compares with, so the
    poll after a push's (or Drive's) sync does not start a second sync for the same edit."""
    if snapshot is None or tournament.source != Tournament.GOOGLE:
        return
    from sheets_sync.keeper.plan import input_fingerprint

    Tournament.objects.filter(pk=tournament.pk, fast_until__gt=timezone.now()).update(
        poll_fingerprint=input_fingerprint(snapshot))


@runner(SYNC)
def _sync(tournament: Tournament, params: dict) -> dict:
    from functools import partial

    from sheets_sync.backends.base import PermissionDenied
    from sheets_sync.loop.sync import publish_files, sync_once
    from sheets_sync.web.workbooks import fresh_read, open_tournament_backend

    try:  # a fast-lane poll's fresh read of this sheet (this process) stands in for the sync's own
        report = sync_once(open_tournament_backend(tournament), out_dir=out_dir(tournament),
                           snapshot=fresh_read(tournament) if tournament.source == Tournament.GOOGLE else None,
                           publish=partial(publish_files, link=public_link(tournament)))
    except PermissionDenied:
        if tournament.source == Tournament.GOOGLE:  # a share lowered to «Viewer», or taken away
            from sheets_sync.web.shares import note_refused_access

            note_refused_access(tournament)
        raise
    from sheets_sync.web.site_versions import switch_site

    switch_site(out_dir(tournament), changed=bool(report.files))  # the public site changes all at once, now
    _note_lane_fingerprint(tournament, report.snapshot)
    summary = _summary(tournament, report)
    kind = tournament.kind if "season" not in summary else Tournament.SEASON if summary["season"] else Tournament.TOURNAMENT
    title = fitted(Tournament, "title", str(summary.get("name") or tournament.title))  # a sheet's name of any length
    Tournament.objects.filter(pk=tournament.pk).update(last_sync_at=timezone.now(), last_sync=summary, kind=kind,
                                                       title=title,
                                                       share_view_only=False)  # it wrote what it had to
    return {"skipped": report.skipped, **{k: v for k, v in summary.items() if k != "problems"}}
