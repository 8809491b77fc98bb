"""The one place the web app opens a registered workbook: a Google sheet as the service account it
is shared with, an .xlsx of the app's folder as a file.

Every sync, button and claim check goes through :func:`open_tournament_backend`, so the transport
(and the per-account request budget around it) is chosen here only: a Google sheet is reached
through a :class:`BudgetedHTTPClient`, which takes a slot of the account's minute
(:mod:`sheets_sync.keeper.budget`, stored in the database so every worker shares it) before each
HTTP attempt — retries included, since Google counts them too.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from datetime import datetime, timezone
from typing import Any, NamedTuple

from django.conf import settings
from django.db import transaction
from django.db.models import F, Sum
from gspread.http_client import HTTPClient

from sheets_sync.backends.base import Backend, Snapshot
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.backends.google.auth import load_credentials
from sheets_sync.backends.google.backend import GoogleBackend
from sheets_sync.backends.google.http import HTTP_TIMEOUT, RetryingHTTPClient, RewritingAuthorizedSession
from sheets_sync.keeper.budget import Budget, BudgetStore, request_kind
from sheets_sync.web.models import RequestTally, ServiceAccount, Tournament

__all__ = ["open_google_backend", "open_tournament_backend", "workbook_ref", "account_http", "BudgetedHTTPClient",
           "budget_clock", "budget_store", "DatabaseBudgetStore", "remember_read", "fresh_read", "FRESH_FOR", "Read",
           "request_moment"]

_CREDENTIALS: dict[tuple[str, str], Any] = {}  # (key file, e-mail) -> credentials: one token per account and process


def budget_clock() -> float:
    """The budget's clock (a test moves its own)."""
    return time.time()


def budget_sleep(seconds: float) -> None:
    time.sleep(seconds)


def request_moment() -> datetime:
    """Now by the clock the account's requests are sent and counted by (:func:`budget_clock`)."""
    return datetime.fromtimestamp(budget_clock(), tz=timezone.utc)


BUDGET_WAIT = 30.0  # seconds a request may wait for its slot before the job is deferred


def budget_store() -> BudgetStore:
    return DatabaseBudgetStore()


class DatabaseBudgetStore:
    """The rolling minute in the database (:class:`~sheets_sync.web.models.RequestTally`), so every
    worker process — on one machine or several — takes from the same budget. Counted in 10-second
    slices; the seven slices that touch the last minute are summed (a window of 60–70 s: never
    more than the limit in any 60 s). Taking is one transaction: a row lock on PostgreSQL, the
    database lock on SQLite."""

    SLICE, SLICES = 10, 7

    def _slices(self, account: str, kind: str, now: float):
        first = int(now // self.SLICE) - self.SLICES + 1
        return RequestTally.objects.filter(account=account, kind=kind, slice__gte=first)

    def take(self, account: str, kind: str, now: float, limit: int) -> float:
        current = int(now // self.SLICE)
        with transaction.atomic():
            rows = list(self._slices(account, kind, now).select_for_update().values_list("slice", "count"))
            if sum(count for _, count in rows) >= limit:
                oldest = min(s for s, count in rows if count)
                return max(0.5, (oldest + self.SLICES) * self.SLICE - now)
            if not RequestTally.objects.filter(account=account, kind=kind, slice=current).update(count=F("count") + 1):
                RequestTally.objects.create(account=account, kind=kind, slice=current, count=1)
        return 0.0

    def used(self, account: str, kind: str, now: float) -> int:
        return self._slices(account, kind, now).aggregate(n=Sum("count"))["n"] or 0

    def forget_before(self, now: float) -> None:
        RequestTally.objects.filter(slice__lt=int(now // self.SLICE) - 2 * self.SLICES).delete()


class _Metered(HTTPClient):
    """Takes a slot of the account's budget before every HTTP attempt."""

    budget: Budget

    def request(self, method: str, endpoint: str, *args: Any, **kwargs: Any):  # type: ignore[override]
        self.budget.acquire(request_kind(method, endpoint))
        return super().request(method, endpoint, *args, **kwargs)


class BudgetedHTTPClient(RetryingHTTPClient, _Metered):
    """The retrying transport (backoff on 429/5xx) with every attempt counted against ``budget``."""

    def __init__(self, auth: Any, session: Any, *, budget: Budget, **kwargs: Any) -> None:
        super().__init__(auth, session, **kwargs)
        self.budget = budget


def account_http(account: ServiceAccount, *, max_wait: float | None = None) -> BudgetedHTTPClient:
    """A budgeted transport acting as ``account`` (its key read once per process; never logged)."""
    key = (account.key_file, account.email)
    if key not in _CREDENTIALS:
        _CREDENTIALS[key] = load_credentials(account.key_file, settings.GOOGLE_ENDPOINT, [])
    credentials = _CREDENTIALS[key]
    budget = Budget(budget_store(), account.email, max_wait=BUDGET_WAIT if max_wait is None else max_wait,
                    clock=lambda: budget_clock(), sleep=lambda seconds: budget_sleep(seconds))
    http = BudgetedHTTPClient(credentials, RewritingAuthorizedSession(credentials, settings.GOOGLE_ENDPOINT),
                              budget=budget, sleep=lambda seconds: budget_sleep(seconds))  # backoff on the same clock
    http.set_timeout(HTTP_TIMEOUT)
    return http


def open_google_backend(spreadsheet_id: str, account: ServiceAccount, *, max_wait: float | None = None) -> GoogleBackend:
    """``max_wait``: seconds a request may wait for the account's budget (None: :data:`BUDGET_WAIT`;
    0: never wait — the fast lane's polls skip a round instead of holding up the others)."""
    return GoogleBackend(spreadsheet_id, endpoint=settings.GOOGLE_ENDPOINT,
                         http_client=account_http(account, max_wait=max_wait))


FRESH_FOR = 5.0  # seconds a fast-lane poll's read stands in for the read of the sync it starts


class Read(NamedTuple):
    snapshot: Snapshot
    at: datetime  # when the read was sent (:func:`request_moment`): every edit made before it is in it


_FRESH_READS: dict[tuple[int, str], tuple[Read, float]] = {}  # (tournament, sheet) -> (a poll's read, monotonic)


def remember_read(tournament: Tournament, snapshot: Snapshot, at: datetime) -> None:
    """A poll found the sheet changed: the sync it starts (in this process, within :data:`FRESH_FOR`
    seconds) computes from this read instead of reading the same values again — one Sheets read
    instead of two for every edit the fast lane finds. A sync on another machine reads for itself."""
    moment = time.monotonic()
    for key in [key for key, (_, kept) in list(_FRESH_READS.items()) if moment - kept > FRESH_FOR]:
        _FRESH_READS.pop(key, None)  # never taken (the sync ran elsewhere)
    _FRESH_READS[(tournament.pk, tournament.spreadsheet_id)] = (Read(snapshot, at), moment)


def fresh_read(tournament: Tournament) -> Read | None:
    """The poll's read of the sheet and when it was made, if it is fresh (taken once), else None:
    the sync reads."""
    remembered = _FRESH_READS.pop((tournament.pk, tournament.spreadsheet_id), None)
    if remembered is None or time.monotonic() - remembered[1] > FRESH_FOR:
        return None
    return remembered[0]


_SYNC_BACKENDS: OrderedDict[tuple[str, int], GoogleBackend] = OrderedDict()
SYNC_BACKENDS_KEPT = 200  # a worker keeps this many sheets' backends (their tab list, cached a minute)


def open_tournament_backend(tournament: Tournament) -> Backend:
    """The tournament's workbook. A Google sheet's backend is kept between this process's syncs
    (least recently used dropped past :data:`SYNC_BACKENDS_KEPT`): its tab list, cached for a
    minute, then saves the metadata read of the next sync — one read request instead of two. Two
    syncs of one sheet never run at once (the lease), so one backend is never shared by two."""
    if tournament.source == Tournament.EXCEL:
        return ExcelBackend(tournament.path)
    assert tournament.account is not None, f"{tournament.slug}: a Google sheet without its service account"
    key = (tournament.spreadsheet_id, tournament.account.pk)
    backend = _SYNC_BACKENDS.pop(key, None) or open_google_backend(tournament.spreadsheet_id, tournament.account)
    _SYNC_BACKENDS[key] = backend
    while len(_SYNC_BACKENDS) > SYNC_BACKENDS_KEPT:
        _SYNC_BACKENDS.popitem(last=False)[1].close()
    return backend


def workbook_ref(tournament: Tournament) -> str:
    """The WORKBOOK argument the command line would be given for this tournament."""
    return tournament.path if tournament.source == Tournament.EXCEL else f"gsheet:{tournament.spreadsheet_id}"
