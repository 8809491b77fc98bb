"""Each service account's Sheets requests kept under Google's per-user quotas: 60 read requests and
60 write requests a minute (a service account is one user), Drive counted apart (its own quota).

:class:`Budget` asks a store for one request's slot before the request is sent; when the rolling
minute is full it waits until a slot frees, and past ``max_wait`` it gives up with
:class:`BudgetExhausted` (the caller defers its job: a failed sync is marked changed again and
the minute's sweep starts it later). The store is pluggable: :class:`MemoryStore` for one process
(tests, the bench), the server's database table for several workers
(:mod:`sheets_sync.web.keeping`)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import Protocol

__all__ = ["READ", "WRITE", "DRIVE", "LIMITS", "WINDOW", "BudgetExhausted", "BudgetStore", "MemoryStore", "Budget",
           "request_kind"]

READ, WRITE, DRIVE = "read", "write", "drive"
WINDOW = 60.0  # seconds: Google's quotas are per minute
# below Google's 60: requests of other programs of the project (a person's `sheets-sync` on the same key) leave room
LIMITS = {READ: 55, WRITE: 55, DRIVE: 600}


class BudgetExhausted(RuntimeError):
    """The account's minute is full for longer than the caller may wait."""


def request_kind(method: str, url: str) -> str:
    """``read`` / ``write`` for a Sheets API request (as Google counts them), ``drive`` otherwise."""
    if "/v4/spreadsheets" not in url:
        return DRIVE
    if method.lower() == "get" or url.endswith("values:batchGetByDataFilter"):
        return READ
    return WRITE


class BudgetStore(Protocol):
    def take(self, account: str, kind: str, now: float, limit: int) -> float:
        """Take one slot: 0.0 when taken, else the seconds until one frees (nothing taken)."""

    def used(self, account: str, kind: str, now: float) -> int:
        """Slots taken in the minute before ``now``."""


class MemoryStore:
    """The rolling minute per account and kind, in this process's memory."""

    def __init__(self) -> None:
        self.times: dict[tuple[str, str], deque[float]] = {}

    def _recent(self, account: str, kind: str, now: float) -> deque[float]:
        times = self.times.setdefault((account, kind), deque())
        while times and times[0] <= now - WINDOW:
            times.popleft()
        return times

    def take(self, account: str, kind: str, now: float, limit: int) -> float:
        times = self._recent(account, kind, now)
        if len(times) >= limit:
            return max(0.01, times[0] + WINDOW - now)
        times.append(now)
        return 0.0

    def used(self, account: str, kind: str, now: float) -> int:
        return len(self._recent(account, kind, now))


class Budget:
    """One account's way through its quota: :meth:`acquire` before every request."""

    def __init__(self, store: BudgetStore, account: str, *, max_wait: float = 30.0,
                 clock: Callable[[], float] = time.time, sleep: Callable[[float], None] = time.sleep,
                 limits: dict[str, int] | None = None) -> None:
        self.store, self.account, self.max_wait = store, account, max_wait
        self.clock, self.sleep = clock, sleep
        self.limits = limits or LIMITS
        self.waited = 0.0  # seconds spent waiting for a slot (diagnostics, the bench)

    def acquire(self, kind: str) -> None:
        """Wait for a slot of ``kind``; :class:`BudgetExhausted` past ``max_wait`` seconds."""
        started = self.clock()
        while True:
            wait = self.store.take(self.account, kind, self.clock(), self.limits[kind])
            if wait <= 0:
                return
            if self.clock() - started + wait > self.max_wait:
                raise BudgetExhausted(f"{self.account}: the minute's {kind} requests are used up")
            self.waited += wait
            self.sleep(wait)

    def left(self, kind: str) -> int:
        return max(0, self.limits[kind] - self.store.used(self.account, kind, self.clock()))
