"""When each «Пропуск» of the Players tab was typed, read from the Log tab (issue 45 §2).

The regulation lets a player skip a round without penalty only when he says so in advance (the
preset's ``registration.excuse_notice_hours`` before «Начало»).  The scoring core reads no clock:
this edge gives :func:`scoring.registration.late_excuses` the moment each cell's present value was
logged, in the tournament's time zone («Часовой пояс»; none: the time as the log wrote it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta, timezone

from scoring import labels as L
from scoring.model import Tournament
from sheets_sync.backends.base import Snapshot
from sheets_sync.clock import zone
from sheets_sync.workbook.changelog import Change, _history

__all__ = ["excuses_filled_at", "log_moment"]

# «2026-12-01 14:05:07 UTC+5:30», «… UTC» (sheets_sync.clock.log_time)
_LOG_TIME = re.compile(r"^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})\s*UTC(?:([+-])(\d{1,2})(?::(\d{2}))?)?$")


def log_moment(text: str, time_zone: str = "") -> datetime | None:
    """A Log tab time as a naive moment in ``time_zone`` (an IANA name; "" or unknown: as written)."""
    found = _LOG_TIME.match(text.strip())
    if found is None:
        return None
    written = datetime.fromisoformat(found[1])
    local = zone(time_zone)
    if local is None:
        return written
    offset = timedelta(hours=int(found[3] or 0), minutes=int(found[4] or 0)) * (-1 if found[2] == "-" else 1)
    return written.replace(tzinfo=timezone(offset)).astimezone(local).replace(tzinfo=None)


def _log_grid(snapshot: Snapshot) -> Sequence[Sequence[object]]:
    names = {L.norm(x) for x in L.TABS["log"]}
    return next((grid for title, grid in snapshot.tabs.items() if L.norm(title) in names), ())


def excuses_filled_at(snapshot: Snapshot, tournament: Tournament, changes: Iterable[Change] = ()
                      ) -> tuple[dict[str, datetime], frozenset[str]]:
    """The Players tab's «Пропуск» cell -> when the sync saw its present value typed (its last logged
    change to a value; a cell the log never saw filled, typed before the first sync, is not listed),
    and the cells typed since the last sync (``changes``, not logged yet): such a cell was typed after
    every logged line, so it is listed with the newest logged moment, a bound it is later than."""
    cells = {p.excused_location.cell: p.excused_location.sheet for p in tournament.players
             if p.excused_location is not None and p.excused_rounds}
    found: dict[str, datetime] = {}
    newest: datetime | None = None
    for row in _history(_log_grid(snapshot)):
        moment = log_moment(str(row[0] or ""), tournament.time_zone) if row else None
        if moment is None:
            continue
        newest = moment if newest is None else max(newest, moment)
        if len(row) < 5 or not isinstance(row[2], str) or cells.get(row[2]) != row[1]:
            continue
        if row[4] in (None, ""):
            found.pop(row[2], None)  # emptied: a later value is a new announcement
        else:
            found[row[2]] = moment
    now: set[str] = set()
    for change in changes:
        if cells.get(change.cell) == change.tab:
            found.pop(change.cell, None)
            if change.new and newest is not None:
                found[change.cell] = newest
                now.add(change.cell)
    return found, frozenset(now)
