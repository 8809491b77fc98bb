"""Every registered Google sheet kept synced within Google's quotas (issue 35 §4): the server's glue
around :mod:`sheets_sync.keeper`.

* **Drive feed** (:func:`read_drive`): per service account, one Drive ``changes`` call a minute
  covers every file shared with it (its page token in :class:`DriveCursor`). A change by someone
  else that Drive dates after the last sync's read → :func:`~sheets_sync.web.jobs.request_sync`
  and the fast lane for 30 minutes; our own write, or a change dated before that read (Drive is
  minutes late: the claim code typed before registration, an edit a push or a poll synced
  already) → nothing at all (:func:`~sheets_sync.keeper.drive.change_kind`); ``removed`` →
  ``share_lost``, as is a 403 to a fast-lane poll (nothing else stops; a later change seen
  through the account shows access again and clears it). A share lowered to «Viewer» is marked
  by the sync its write was refused to (:mod:`sheets_sync.web.shares`); a change seen for it
  then asks Drive (one call) whether the service edits again before syncing.
* **Fast lane** (:func:`poll_fast_lane`): Drive is up to 3 minutes late, so sheets being played
  are read directly every :data:`~sheets_sync.keeper.plan.INTERVAL` seconds as the accounts'
  read budgets allow (:func:`~sheets_sync.keeper.plan.plan_polls`); a poll is one Sheets read,
  compared with what the last read (a sync's or a poll's, kept when the sheet leaves the lane)
  saw; a poll that finds an edit keeps the lane open another 30 minutes.
* **Push** (:func:`hook`): the sheet's onEdit trigger posts its id and secret; a push marks the
  fast lane and a debounced sync (:mod:`sheets_sync.keeper.hook`), started by
  :func:`start_due_pushes`.
* **Periodic work** (:func:`keeping_minute`): Huey's periodic tasks run once a minute, so that one
  task loops within its minute: the Drive feed and ``sync_due`` once, every second the due pushes
  and the fast lane's due sheets (each ``INTERVAL`` after its own last poll) — one consumer thread
  for the whole minute.

Idle sheets cost no Sheets request at all — after their first sync too: nothing but someone's
edit after the last sync's read brings a sheet into the fast lane (issue 42 §4).
"""

from __future__ import annotations

import hmac
import json
import logging
import secrets
import time
from datetime import datetime, timedelta

from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from huey import crontab
from huey.contrib.djhuey import db_periodic_task

from sheets_sync.backends.base import BackendError, PermissionDenied
from sheets_sync.keeper.budget import READ, Budget, BudgetExhausted
from sheets_sync.keeper.drive import EDIT, REMOVED, Change, DriveChanges, StalePageToken, change_kind
from sheets_sync.keeper.hook import next_due
from sheets_sync.keeper.plan import FastSheet, input_fingerprint, plan_polls
from sheets_sync.web import jobs
from sheets_sync.web.models import DriveCursor, ServiceAccount, Tournament
from sheets_sync.web.registration.timed import start_timed_draws
from sheets_sync.web.shares import edit_access
from sheets_sync.web import workbooks
from sheets_sync.web.workbooks import account_http, budget_store, open_google_backend

__all__ = ["FAST_LANE", "now", "ensure_hook_secret", "hook", "start_due_pushes", "read_drive",
           "poll_fast_lane", "tick", "keeping_minute"]

log = logging.getLogger("sheets_sync.web.keeping")

FAST_LANE = timedelta(minutes=30)  # someone's edit seen: the tournament is being played
_BACKENDS: dict[int, object] = {}  # fast-lane backends of this process (their tab list cached a minute)


def now() -> datetime:
    """The keeper's clock (tests move their own)."""
    return timezone.now()


# -- push -------------------------------------------------------------------------------------------
def ensure_hook_secret(tournament: Tournament) -> str:
    """The sheet's push secret, made on first use."""
    if not tournament.hook_secret:
        tournament.hook_secret = secrets.token_urlsafe(32)
        Tournament.objects.filter(pk=tournament.pk, hook_secret="").update(hook_secret=tournament.hook_secret)
        tournament.refresh_from_db(fields=["hook_secret"])
    return tournament.hook_secret


def _posted_secret(request: HttpRequest) -> str:
    if request.content_type == "application/json":
        try:
            return str(json.loads(request.body or b"{}").get("secret", ""))
        except (ValueError, AttributeError):
            return ""
    return request.POST.get("secret", "")


@csrf_exempt
@require_POST
def hook(request: HttpRequest, spreadsheet_id: str) -> JsonResponse:
    """``POST /hook/<spreadsheet_id>/`` from the sheet's trigger: 404 unless the secret matches
    (compared in constant time); else the fast lane and a debounced sync. Nothing is read here."""
    secret = _posted_secret(request)
    matching = [t for t in Tournament.objects.filter(spreadsheet_id=spreadsheet_id).exclude(hook_secret="")
                if hmac.compare_digest(t.hook_secret.encode(), secret.encode())]
    if not secret or not matching:
        return JsonResponse({"ok": False}, status=404)
    moment = now()
    for tournament in matching:
        pending, due = next_due(tournament.push_pending_since, moment)
        Tournament.objects.filter(pk=tournament.pk).update(
            pushed_at=moment, fast_until=moment + FAST_LANE, push_pending_since=pending, push_due_at=due)
    return JsonResponse({"ok": True})


def start_due_pushes(moment: datetime | None = None) -> list[int]:
    """Start the sync of every sheet whose pushes' quiet time has passed (one each) — unless a
    sync finished meanwhile that read the sheet after the last push came: the pushed edits were
    made before their push, so that read had them (the fast lane's poll often finds the edit
    within the quiet time; a second sync would only read it again)."""
    moment = moment or now()
    started = []
    for tournament in Tournament.objects.filter(push_due_at__lte=moment):
        cleared = Tournament.objects.filter(pk=tournament.pk, push_due_at=tournament.push_due_at).update(
            push_due_at=None, push_pending_since=None)
        read_since = tournament.sync_read_at is not None and tournament.pushed_at is not None \
            and tournament.sync_read_at > tournament.pushed_at  # the same moment: which came first is unknown
        if cleared and not read_since:  # another worker did not take it first; no sync read it yet
            jobs.request_sync(tournament, "push")
            started.append(tournament.pk)
    return started


# -- the Drive feed ---------------------------------------------------------------------------------
def read_drive(account: ServiceAccount, moment: datetime | None = None) -> int:
    """One pass of ``account``'s changes feed; returns how many registered sheets it touched."""
    moment = moment or now()
    feed = DriveChanges(account_http(account))
    cursor = DriveCursor.objects.filter(account=account).first()
    if cursor is None:  # the first pass only sets the start: sheets are synced when registered
        DriveCursor.objects.create(account=account, page_token=feed.start_token())
        return 0
    try:
        changes, token = feed.read(cursor.page_token)
    except StalePageToken:
        return _restart_feed(account, cursor, feed, moment)
    touched = 0
    by_file = {t.spreadsheet_id: t for t in account.tournaments.filter(source=Tournament.GOOGLE)}
    for change in changes:
        tournament = by_file.get(change.file_id)
        if tournament is None:
            continue
        touched += 1
        _apply_change(tournament, change, account, moment)
    DriveCursor.objects.filter(pk=cursor.pk).update(page_token=token)
    return touched


def _restart_feed(account: ServiceAccount, cursor: DriveCursor, feed: DriveChanges, moment: datetime) -> int:
    """Google refused the stored page token: take a fresh start token and mark every sheet of the
    account changed — an edit made between the old token and the new one would be lost otherwise.
    The sheets are not synced here: the sweep (:func:`~sheets_sync.web.jobs.sync_due`) starts them
    as the account's read budget allows, a few each minute."""
    DriveCursor.objects.filter(pk=cursor.pk).update(page_token=feed.start_token())
    marked = (account.tournaments.filter(source=Tournament.GOOGLE, share_lost=False)
              .update(needs_sync=True, changed_at=moment))
    log.warning("Drive page token of %s refused by Google: started again from a fresh one; "
                "%d sheets marked for a full pass", account.email, marked)
    return marked


def _apply_change(tournament: Tournament, change: Change, account: ServiceAccount, moment: datetime) -> None:
    """One change of the feed. Only someone's edit after the last sync's read costs a Sheets
    request; our own write and a change that read had cost none (a judge's edit hidden behind our
    write: docs/decisions.md, 2026-12-05)."""
    rows = Tournament.objects.filter(pk=tournament.pk)
    kind = change_kind(change, account.email, tournament.sync_read_at)
    if kind == REMOVED:
        rows.update(share_lost=True)
        return
    if tournament.share_view_only:  # the refused sync is still owed, whatever the change
        if edit_access(tournament.account, tournament.spreadsheet_id) is not True:
            return  # still a viewer (one Drive call): a sync would only be refused its write again
    elif kind != EDIT:
        rows.filter(share_lost=True).update(share_lost=False)  # the account sees the file: shared again
        return
    rows.update(share_lost=False, share_view_only=False,
                **({"fast_until": moment + FAST_LANE} if kind == EDIT else {}))
    jobs.request_sync(tournament, "drive")


# -- the fast lane ----------------------------------------------------------------------------------
def _reads_left(accounts) -> dict[str, int]:
    return {a.email: Budget(budget_store(), a.email, clock=workbooks.budget_clock).left(READ) for a in accounts}


def poll_fast_lane(moment: datetime | None = None) -> list[int]:
    """Read the due sheets of the fast lane (as the budgets allow) and start a sync for each whose
    typed tabs changed since the last read — the last poll's, or the last sync's, kept when the
    sheet left the lane: the first poll of a lane syncs only what is new. Returns the polled ids."""
    moment = moment or now()
    lane = list(Tournament.objects.filter(source=Tournament.GOOGLE, share_lost=False, share_view_only=False,
                                          fast_until__gt=moment)
                .select_related("account"))
    for pk in set(_BACKENDS) - {t.pk for t in lane}:
        _BACKENDS.pop(pk, None)
    sheets = [FastSheet(t.pk, t.account.email, t.polled_at.timestamp() if t.polled_at else None) for t in lane]
    chosen = set(plan_polls(sheets, _reads_left({t.account for t in lane}), moment.timestamp()))
    for tournament in lane:
        if tournament.pk in chosen:
            _poll(tournament, moment)
    return sorted(chosen)


def _poll(tournament: Tournament, moment: datetime) -> None:
    backend = _BACKENDS.get(tournament.pk)
    if backend is None:
        backend = _BACKENDS[tournament.pk] = open_google_backend(tournament.spreadsheet_id, tournament.account,
                                                                 max_wait=0.0)  # a full minute: skip this round
    try:
        snapshot = backend.read()
        seen = input_fingerprint(snapshot)
    except PermissionDenied:  # a 403 before Drive says so: the share was revoked
        Tournament.objects.filter(pk=tournament.pk).update(share_lost=True)
        _BACKENDS.pop(tournament.pk, None)
        return
    except (BackendError, BudgetExhausted) as exc:
        log.info("fast lane: %s not read now: %s", tournament.slug, type(exc).__name__)
        return
    if seen == tournament.poll_fingerprint:
        Tournament.objects.filter(pk=tournament.pk).update(polled_at=moment)
        return
    # someone typed: the tournament is being played, its lane stays open (Drive's word of this edit,
    # minutes late, is dated before the sync's read and opens nothing)
    Tournament.objects.filter(pk=tournament.pk).update(polled_at=moment, poll_fingerprint=seen,
                                                       fast_until=moment + FAST_LANE)
    workbooks.remember_read(tournament, snapshot, moment)  # the sync computes from this read: no second one
    jobs.request_sync(tournament, "poll")


# -- periodic work ----------------------------------------------------------------------------------
def tick(moment: datetime | None = None) -> None:
    """The minute's work: every account's Drive feed, the sweep of changed sheets, pushes, the fast
    lane, the draws whose announced time has come."""
    moment = moment or now()
    for account in ServiceAccount.objects.all():
        try:
            read_drive(account, moment)
        except Exception as exc:  # noqa: BLE001 - one account's trouble must not stop the others
            log.warning("Drive feed of %s not read: %s", account.email, type(exc).__name__)
    jobs.sync_due()
    start_due_pushes(moment)
    poll_fast_lane(moment)
    budget_store().forget_before(workbooks.budget_clock())
    start_timed_draws(moment)  # «Жеребьёвка» on the Tournament tab: the draw at the announced time


@db_periodic_task(crontab(minute="*"))
def keeping_minute(seconds: float = 55.0) -> None:
    """Huey runs this every minute; it loops within its minute, every second: the due pushes, and
    the fast lane's sheets that are due (each ``INTERVAL`` after its own last poll). A poll its
    account's full minute held back is so taken the first second a read frees, not a whole
    interval later; and the polls spread over the interval instead of coming in one burst."""
    started = time.monotonic()
    tick()
    while time.monotonic() - started < seconds:
        time.sleep(1.0)
        start_due_pushes()
        poll_fast_lane()
