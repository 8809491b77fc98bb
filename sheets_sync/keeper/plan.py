"""The fast lane: which sheets being played to poll now, within each account's read budget.

Drive's changes feed sees a Sheets edit up to about three minutes late, so a tournament in the
fast lane (``fast_until`` in the future) is also read directly every ``INTERVAL`` seconds. The
Google backend has no cheaper way to tell "nothing changed" than reading the values
(``GoogleBackend.fingerprint()`` is None; a read is one ``values:batchGet``, plus the tab list
once a minute), so a poll costs one read request; ``RESERVE`` reads a minute are left for the
syncs the polls start. :func:`input_fingerprint` hashes only the tabs people type into: the
sync's own writes (owned tabs, the state tab, marks) do not look like an edit, so a poll never
starts a sync because of a sync."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring import labels as L
from sheets_sync.backends.base import STATE_TAB, Snapshot
from sheets_sync.loop.outcome import owned_tab_titles

__all__ = ["INTERVAL", "RESERVE", "FastSheet", "plan_polls", "input_fingerprint"]

INTERVAL = 10.0  # seconds between two polls of one sheet being played
SLACK = 0.5  # seconds
RESERVE = 6  # reads a minute an account keeps for the syncs the polls start (one read each, the tab list cached)


@dataclass(frozen=True)
class FastSheet:
    key: int
    account: str
    polled_at: float | None  # seconds (the caller's clock); None: never polled in this lane


def plan_polls(sheets: Sequence[FastSheet], reads_left: Mapping[str, int], now: float,
               interval: float = INTERVAL) -> list[int]:
    """The keys to poll now: those due (never polled, or ``interval`` ago), longest waiting first,
    as many per account as its reads left minus ``RESERVE`` allow."""
    # a little slack: the loop calls every `interval`, and a stored time rounded up must not skip a round
    due = [s for s in sheets if s.polled_at is None or now - s.polled_at >= interval - SLACK]
    due.sort(key=lambda s: (s.polled_at is not None, s.polled_at or 0.0, s.key))
    spare = {account: left - RESERVE for account, left in reads_left.items()}
    chosen = []
    for sheet in due:
        if spare.get(sheet.account, 0) > 0:
            spare[sheet.account] -= 1
            chosen.append(sheet.key)
    return chosen


def input_fingerprint(snapshot: Snapshot) -> str:
    """A hash of the values of the tabs people type into (not the owned tabs, not the state tab)."""
    owned = owned_tab_titles(snapshot)
    digest = hashlib.sha256()
    for title in snapshot.order:
        if title == STATE_TAB or L.norm(title) in owned:
            continue
        digest.update(json.dumps([title, snapshot.tabs[title]], default=str, ensure_ascii=False).encode())
    return digest.hexdigest()

