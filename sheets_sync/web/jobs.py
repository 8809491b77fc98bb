"""The organizers' actions as queued jobs, and the rules that keep them whole: a changed sheet
ends synced, a workbook is written by one job at a time, one organizer never holds every worker.

A button, the Drive changes feed and the push hook all end here. :func:`enqueue` records a
:class:`~sheets_sync.web.models.Job` (what the page shows as waiting) and hands its id to the queue
(Huey: a SQLite file in one process, Redis for workers on several machines); :func:`run_job` is
what a worker runs. Each action is a runner registered by name (:func:`runner`) that calls the
same click-free action the command line calls (:mod:`sheets_sync.actions`), and says what kind of
job it is: ``leased`` (it reads and writes the workbook: the sync, draw, advance, replace,
evening), ``long`` (it can hold a thread for long: the draw's search, the exports, a new
tournament), ``again`` (safe to run again when its worker died mid-way).

A job starts only when it may (:func:`_admit`, one transaction), else it stays queued, says why
(``Job.waiting``) and is looked at again a moment later — the jobs behind it pass it:

* **the workbook's lease** — a leased job takes ``Tournament.lease_until`` by one conditional
  UPDATE naming its worker and itself; a second leased job of the same tournament (a sync while
  a draw runs, a press during a sync) waits for it and is started as soon as it is let go;
* **the organizer's share** — at most one long job per organizer (the tournament's owner, or
  who pressed when there is no tournament yet) runs at a time, counted under a lock on that
  organizer's row, so several worker processes agree;
* **the last free thread** — a long job never takes the last free thread of its process
  (:func:`sheets_sync.web.workers.room_for_long`): syncs keep moving.

A lease lasts while its worker's heartbeat is fresh (:mod:`sheets_sync.web.workers`); a worker
that died leaves its jobs to :mod:`sheets_sync.web.recovery`, which runs them again or fails them
with what to check. The claim (QUEUED → RUNNING) is conditional too, so a retry by Huey or a job
queued twice never runs it twice at once.

Syncs keep their own rules, so that nothing is lost and nothing is done twice:

* :func:`request_sync` marks the tournament ``needs_sync`` and enqueues a sync only when none is
  waiting already — a thousand pushes in a minute start a few syncs, not a thousand; a press
  during a running sync is that waiting sync: it runs once the running one lets the lease go;
* ``needs_sync`` is cleared only by a sync that finished, and only if no change arrived while it
  ran (``changed_at`` is still the one it started from); a change during the sync leaves it set,
  and the finished sync asks for the next one at once;
* :func:`sync_due`, run every minute, enqueues the sheets left marked (a failed sync's, a full
  pass after a refused Drive page token) — the sheet ends synced, and the sync never changes what
  a person typed (the backends write atomically).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from huey.contrib.djhuey import db_task

from scoring.errors import SheetsSyncError
from sheets_sync.keeper.budget import BudgetExhausted
from sheets_sync.web import workers
from sheets_sync.web.limits import fitted
from sheets_sync.web.models import Job, Membership, Tournament
from sheets_sync.web.words import word

__all__ = ["RUNNERS", "RULES", "Rules", "runner", "enqueue", "run_job", "request_sync", "sync_due", "site_dir",
           "out_dir", "LEASE", "SYNC", "LOOK_AGAIN", "public_link", "public_base", "problem_rows", "PROBLEMS_KEPT", "owner_of",
           "queue_again", "start_waiting", "TryLater"]

log = logging.getLogger("sheets_sync.web.jobs")

SYNC = "sync"
LEASE = workers.TIMEOUT  # a lease outlives its worker's last heartbeat by this much, no more
LOOK_AGAIN = 2.0  # seconds before a job that had to wait is looked at again (a release starts it sooner)
RUNNERS: dict[str, Callable[[Tournament | None, dict], dict]] = {}


@dataclass(frozen=True)
class Rules:
    """What kind of job an action is (see the module's docstring)."""

    leased: bool = False
    long: bool = False
    again: bool | Callable[[dict], bool] = False

    def runs_again(self, params: dict) -> bool:
        return self.again(params) if callable(self.again) else self.again


RULES: dict[str, Rules] = {}


def runner(name: str, *, leased: bool = False, long: bool = False, again: bool | Callable[[dict], bool] = False
           ) -> Callable[[Callable[[Tournament | None, dict], dict]], Callable[[Tournament | None, dict], dict]]:
    """Register ``fn(tournament, params) -> result`` (JSON-able) as the action ``name``, with its rules."""
    def register(fn: Callable[[Tournament | None, dict], dict]) -> Callable[[Tournament | None, dict], dict]:
        if name in RUNNERS:
            raise ValueError(f"action {name!r} registered twice")
        RUNNERS[name] = fn
        RULES[name] = Rules(leased=leased, long=long, again=again)
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


def owner_of(tournament: Tournament | None, user=None) -> int | None:
    """The organizer a job counts to: the tournament's owner, else whoever pressed."""
    if tournament is not None:
        owner = (Membership.objects.filter(tournament=tournament, role=Membership.OWNER)
                 .values_list("user_id", flat=True).first())
        if owner is not None:
            return owner
    return getattr(user, "pk", None)


def enqueue(tournament: Tournament | None, action: str, *, params: dict | None = None, user=None) -> Job:
    """A job for ``tournament`` (None: an organizer's job before there is one, owned by ``user``)."""
    if action not in RUNNERS:
        raise ValueError(f"unknown action {action!r}")
    job = Job.objects.create(tournament=tournament, action=action, params=params or {}, requested_by=user,
                             owner_id=owner_of(tournament, user) if RULES[action].long or tournament is None else None)
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
    (a failed one's, a full pass after a refused Drive page token): the periodic task's sweep,
    longest waiting first. A Google sheet is started only while its account has reads left this
    minute for it (:data:`SYNC_READS` each): a few hundred sheets marked at once are synced over a
    few minutes instead of filling the queue with syncs that wait for the budget in front of the
    sheets being played. Returns their ids."""
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


# -- starting a job: the lease, the organizer's share, the last free thread ---------------------------
class _Waits(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


_TAKEN = "taken"  # another worker claimed the job first (a retry, or the job queued twice)


def _take_lease(job: Job, now) -> bool:
    free = Q(lease_until__isnull=True) | Q(lease_until__lt=now)
    return bool(Tournament.objects.filter(free, pk=job.tournament_id).update(
        lease_until=now + LEASE, lease_worker_id=workers.current(), lease_job_id=job.pk))


def _share_taken(job: Job) -> bool:
    """Whether the job's organizer has a long job running (under a lock on the organizer's row:
    two workers starting two of their jobs at once see each other's)."""
    list(get_user_model().objects.select_for_update().filter(pk=job.owner_id).values_list("pk"))
    long_actions = [name for name, rules in RULES.items() if rules.long]
    return Job.objects.filter(owner_id=job.owner_id, status=Job.RUNNING, action__in=long_actions).exists()


def _admit(job: Job, rules: Rules, now) -> str:
    """Claim the job for this worker (RUNNING, the workbook's lease taken) in one transaction;
    "" when it runs now, else why it waits (``Job.FOR_*``, or ``_TAKEN``)."""
    if rules.long and not workers.room_for_long():
        return Job.FOR_THREAD
    try:
        with transaction.atomic():
            if rules.long and job.owner_id is not None and _share_taken(job):
                raise _Waits(Job.FOR_SHARE)
            if rules.leased and job.tournament_id is not None and not _take_lease(job, now):
                raise _Waits(Job.FOR_WORKBOOK)
            claimed = Job.objects.filter(pk=job.pk, status=Job.QUEUED).update(
                status=Job.RUNNING, started_at=now, looked_at=now, worker_id=workers.current(), waiting="",
                attempts=F("attempts") + 1)
            if not claimed:
                raise _Waits(_TAKEN)
    except _Waits as waits:
        return waits.reason
    return ""


def _look_again(job_id: int, delay: float = LOOK_AGAIN) -> None:
    """The job's task again after ``delay`` seconds (Huey's schedule; a test's stand-in queue has none)."""
    schedule = getattr(run_job_task, "schedule", None)
    if schedule is not None:
        schedule((job_id,), delay=delay)


def _wait(job: Job, reason: str, now) -> Job:
    Job.objects.filter(pk=job.pk, status=Job.QUEUED).update(waiting=reason, looked_at=now)
    _look_again(job.pk)
    job.waiting = reason
    return job


def queue_again(job_id: int) -> None:
    """Hand a queued job to the queue once more (a release, a recovery, a lost task)."""
    Job.objects.filter(pk=job_id, status=Job.QUEUED).update(looked_at=timezone.now())
    run_job_task(job_id)


def start_waiting(*, tournament_id: int | None = None, owner_id: int | None = None) -> None:
    """Start the oldest job waiting for this workbook's lease, and the oldest waiting for this
    organizer's share, now that one was let go (they would start on their next look anyway)."""
    for reason, match in ((Job.FOR_WORKBOOK, {"tournament_id": tournament_id}), (Job.FOR_SHARE, {"owner_id": owner_id})):
        if next(iter(match.values())) is None:
            continue
        first = (Job.objects.filter(status=Job.QUEUED, waiting=reason, **match).order_by("pk")
                 .values_list("pk", flat=True).first())
        if first is not None:
            queue_again(first)


class TryLater(Exception):
    """Raised by a runner before it changed anything: put the job back in the queue for
    ``delay`` seconds (the account's Google budget is spent for this minute)."""

    def __init__(self, delay: float = 15.0, waiting: str = Job.FOR_BUDGET) -> None:
        super().__init__(waiting)
        self.delay, self.waiting = delay, waiting


BUDGET_AGAIN = 15.0  # seconds before a job the budget held back is looked at again


def _later(job: Job, later: TryLater) -> Job:
    """Back to the queue, unstarted: its run does not count as an attempt."""
    back = Job.objects.filter(pk=job.pk, status=Job.RUNNING, worker_id=workers.current()).update(
        status=Job.QUEUED, started_at=None, worker=None, waiting=later.waiting, looked_at=timezone.now(),
        attempts=F("attempts") - 1)
    if back:
        _look_again(job.pk, later.delay)
    job.refresh_from_db()
    return job


# -- running it -----------------------------------------------------------------------------------------
def run_job(job_id: int) -> Job | None:
    """Run one queued job to its end (done or failed) when it may start now; else leave it
    queued, saying why, to be looked at again. Returns it (None: it no longer exists)."""
    job = Job.objects.select_related("tournament", "tournament__account").filter(pk=job_id).first()
    if job is None or job.status != Job.QUEUED:
        return job  # a retry of a job that finished, or one another worker took
    rules, now = RULES[job.action], timezone.now()
    seen_change = Tournament.objects.filter(pk=job.tournament_id).values_list("changed_at", flat=True).first()
    workers.job_started(job.pk)  # before the claim: the heartbeat never takes a job being claimed for lost
    try:
        waits = _admit(job, rules, now)
        if waits == _TAKEN:
            return job
        if waits:
            return _wait(job, waits, now)
        return _run(job, rules, seen_change)
    finally:
        workers.job_ended(job.pk)


def _run(job: Job, rules: Rules, seen_change) -> Job:
    tournament = job.tournament
    try:
        result = RUNNERS[job.action](tournament, dict(job.params))
    except TryLater as later:
        job = _later(job, later)
        _let_go(job, rules)
        return job
    except Exception as exc:  # noqa: BLE001 - the job is failed and explained on the page; the worker goes on
        log.warning("job %s (%s of %s) failed: %s", job.pk, job.action, tournament.slug if tournament else "-", exc)
        if job.action == SYNC:
            Tournament.objects.filter(pk=tournament.pk).update(needs_sync=True, last_error=str(exc))
        job = _finish(job, Job.FAILED, str(exc), _failure(exc))
        _let_go(job, rules)
        return job
    job = _finish(job, Job.DONE, str(result.pop("message", "")), result)
    if job.action == SYNC:
        Tournament.objects.filter(pk=tournament.pk).update(last_error="")
    _let_go(job, rules, seen_change=seen_change)
    return job


def _let_go(job: Job, rules: Rules, *, seen_change=None) -> None:
    """Free the workbook's lease (if this job still holds it) and start who waited for it or for
    the organizer's share. A sync that finished clears ``needs_sync`` unless a change arrived
    while it ran — then it asks for the next sync at once."""
    if rules.leased and job.tournament_id is not None:
        Tournament.objects.filter(pk=job.tournament_id, lease_job_id=job.pk).update(
            lease_until=None, lease_worker=None, lease_job=None)
        if job.action == SYNC and job.status == Job.DONE:
            cleared = Tournament.objects.filter(pk=job.tournament_id, changed_at=seen_change).update(needs_sync=False)
            if not cleared:
                request_sync(job.tournament, "changed during the sync")
    start_waiting(tournament_id=job.tournament_id if rules.leased else None,
                  owner_id=job.owner_id if rules.long else None)


def _failure(exc: Exception) -> dict:
    """What the page says of a failed job: a refusal (a person can fix it) in both languages, so
    the page speaks its reader's; a bug only as «failed» (its text is in the log)."""
    if isinstance(exc, SheetsSyncError):
        from sheets_sync.web.refusals import messages_of  # the page's words: no flag, no English on a Russian page

        return {"refused": True, "messages": messages_of(exc)}
    if isinstance(exc, BudgetExhausted):  # Google's quota of the account, not a bug: say so and when to try
        return {"refused": True, "messages": {lang: word("organizer.job.quota", lang) for lang in ("ru", "en")}}
    return {"refused": False}


def _finish(job: Job, status: str, message: str, result: dict) -> Job:
    """Record the end — only while the job is still this worker's (a worker taken for dead has
    had its jobs taken back: what it finishes late is not written over them)."""
    ended = Job.objects.filter(pk=job.pk, status=Job.RUNNING, worker_id=workers.current()).update(
        status=status, finished_at=timezone.now(), message=message, result=result)
    if not ended:
        log.warning("job %s ended after it was taken back from this worker: its end is not recorded", job.pk)
    job.refresh_from_db()
    return job


@db_task(retries=2, retry_delay=10)
def run_job_task(job_id: int) -> None:
    run_job(job_id)


PROBLEMS_KEPT = 200  # problems a dashboard lists (a broken workbook can have thousands: the sheet has them all)


def public_base() -> str:
    """The server's public address (``SHEETS_SYNC_PUBLIC_URL``, no trailing slash; "" when not set):
    what the VK post links and what the push snippet gives Google."""
    return (getattr(settings, "PUBLIC_URL", None) or os.environ.get("SHEETS_SYNC_PUBLIC_URL") or "").rstrip("/")


def public_link(tournament: Tournament) -> str | None:
    """The address of the tournament's hosted site (``SHEETS_SYNC_PUBLIC_URL``/t/<slug>/), which
    the VK post carries; None when the server's public address is not set."""
    base = public_base()
    return f"{base}/t/{tournament.slug}/" if base else None


def problem_rows(problems, snapshot, *, google: bool) -> list[dict]:
    """The problems as the dashboard lists them: tab, cell, the tab's sheet id (``gid``, Google
    only: the link opens the sheet at the cell) and the message in both languages."""
    gids = {}
    if google and snapshot is not None and isinstance(snapshot.token, tuple):
        gids = {title: sheet_id for sheet_id, title in snapshot.token}
    return [{"tab": p.sheet, "cell": p.cell, "gid": gids.get(p.sheet), "severity": p.severity.value,
             "ru": p.message("ru"), "en": p.message("en")} for p in list(problems)[:PROBLEMS_KEPT]]


def stage_choices(outcome) -> dict:
    """What the page's forms offer to choose from, without reading the sheet (issue 43 §6): the
    preset's stages (key, Russian and English name) and who is seated in each stage after the first
    (the late player to replace is one of them)."""
    from scoring.collation import name_key

    stages = outcome.preset.stages
    seated = {s.key: sorted({n for e in outcome.results.tournament.seating if e.stage == s.key for n in e.players if n},
                            key=name_key) for s in stages[1:]}
    return {"stages": [[s.key, s.name_ru or s.key, s.name_en or s.name_ru or s.key] for s in stages],
            "seated": {key: names for key, names in seated.items() if names}}


def _summary(tournament: Tournament, report) -> dict:
    """The last sync's summary for the dashboard: the counts, the games planned, the problems
    (an unchanged workbook keeps the previous sync's problems: they are still true)."""
    if report.outcome is None:
        return {**tournament.last_sync, **report.summary, "skipped": True}
    from sheets_sync.loop.sync import sync_summary

    outcome = report.outcome
    return {**sync_summary(outcome), "skipped": False,  # «planned» keeps the games whose tab is gone (issue 42 §5)
            "computed_at": timezone.now().isoformat(),  # a later unchanged sync says the edits were counted then
            "season": bool(outcome.results.tournament.season),
            "problems": problem_rows(outcome.problems, report.snapshot, google=tournament.source == Tournament.GOOGLE),
            "problems_total": len(outcome.problems), "written": bool(report.written), **stage_choices(outcome),
            "tabs": len(report.patch.writes), "files": len(report.files), "advanced": report.advanced or ""}


def _note_stopped(tournament: Tournament, exc) -> None:
    """A sync stopped by a missing tab (``WorkbookIncomplete``): the page says so at the top and lists
    what is missing; the counts stay the last good sync's, as the published site does."""
    kept = {k: v for k, v in (tournament.last_sync or {}).items()
            if k in ("games", "planned", "name", "language", "season", "stages", "seated")}
    summary = {**kept, "stopped": True, "skipped": False, "written": False, "errors": len(exc.problems), "warnings": 0,
               "problems": problem_rows(exc.problems, exc.snapshot, google=tournament.source == Tournament.GOOGLE),
               "problems_total": len(exc.problems)}
    Tournament.objects.filter(pk=tournament.pk).update(last_sync_at=timezone.now(), last_sync=summary)


def _note_sync_read(tournament: Tournament, snapshot, read_at) -> None:
    """A Google sheet: what this sync read (its typed tabs' fingerprint) and when, kept whether or
    not the sheet is in the fast lane. A poll compares with the fingerprint, so the poll after a
    push's or Drive's sync does not sync the same edit again; and a change Drive dates before
    ``read_at`` was in this read (:func:`sheets_sync.keeper.drive.change_kind`) — Drive, minutes
    late, starts no second sync for it (issue 42 §4)."""
    if snapshot is None or tournament.source != Tournament.GOOGLE:
        return
    from sheets_sync.keeper.plan import input_fingerprint

    Tournament.objects.filter(pk=tournament.pk).update(poll_fingerprint=input_fingerprint(snapshot),
                                                       sync_read_at=read_at)


@runner(SYNC, leased=True, again=True)
def _sync(tournament: Tournament, params: dict) -> dict:
    from functools import partial

    from sheets_sync.backends.base import PermissionDenied
    from sheets_sync.loop.outcome import WorkbookIncomplete
    from sheets_sync.loop.sync import publish_files, sync_once
    from sheets_sync.web.workbooks import fresh_read, open_tournament_backend, request_moment

    # a fast-lane poll's fresh read of this sheet (this process) stands in for the sync's own
    fresh = fresh_read(tournament) if tournament.source == Tournament.GOOGLE else None
    read_at = fresh.at if fresh else request_moment()  # before the read: an edit dated earlier is in it
    from sheets_sync.web.judge.games import games_file, write_games

    try:
        report = sync_once(open_tournament_backend(tournament), out_dir=out_dir(tournament),
                           snapshot=fresh.snapshot if fresh else None,
                           publish=partial(publish_files, link=public_link(tournament)))
    except PermissionDenied:
        if tournament.source == Tournament.GOOGLE:  # a share lowered to «Viewer», or taken away
            from sheets_sync.web.shares import note_refused_access

            note_refused_access(tournament)
        raise
    except WorkbookIncomplete as exc:  # nothing computed or published: the job fails, the page says why
        _note_stopped(tournament, exc)
        raise
    except BudgetExhausted:  # the account's minute is spent: wait queued for the next look (a sync may run
        raise TryLater() from None  # again: it writes what it computes), not failed until the minute's sweep
    from sheets_sync.web.site_versions import switch_site

    switch_site(out_dir(tournament), changed=bool(report.files))  # the public site changes all at once, now
    if report.outcome is None and not games_file(out_dir(tournament)).exists():  # a server updated: computed once
        report_read = sync_once(open_tournament_backend(tournament), out_dir=None, dry_run=True)
        write_games(out_dir(tournament), report_read.outcome, report_read.snapshot, read_at=read_at.isoformat())
    elif report.outcome is not None and report.snapshot is not None:  # the judges' pages read this, not the sheet
        write_games(out_dir(tournament), report.outcome, report.snapshot, read_at=read_at.isoformat())
    _note_sync_read(tournament, report.snapshot, read_at)
    if report.outcome is not None:
        from sheets_sync.web.signals import after_sync

        after_sync(tournament, report.outcome, report.snapshot)
    summary = _summary(tournament, report)
    kind = tournament.kind if "season" not in summary else Tournament.SEASON if summary["season"] else Tournament.TOURNAMENT
    title = fitted(Tournament, "title", str(summary.get("name") or tournament.title))  # a sheet's name of any length
    Tournament.objects.filter(pk=tournament.pk).update(last_sync_at=timezone.now(), last_sync=summary, kind=kind,
                                                       title=title,
                                                       share_view_only=False)  # it wrote what it had to
    # the job's page shows the counts: the problems and the forms' choices stay on the tournament
    return {"skipped": report.skipped, **{k: v for k, v in summary.items() if k not in ("problems", "stages", "seated")}}
