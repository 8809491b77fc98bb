"""The one clock of the public outputs: «Обновлено: 01.12.2026 14:05» on the site and the VK post.

The scoring core and the renderers read no clock; the commands that write outputs ask
:func:`now` once and pass the time on.  ``SHEETS_SYNC_NOW`` (an ISO date-time, e.g.
``2026-12-01T14:05``) pins it, so that tests, goldens and `make demo` give the same bytes.
"""

from __future__ import annotations

import os
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from scoring.errors import SheetsSyncError

__all__ = ["now", "log_time", "zone", "ENV", "BadClock"]

ENV = "SHEETS_SYNC_NOW"


class BadClock(SheetsSyncError, ValueError):
    pass


def now() -> datetime:
    """Local time, to the minute (what people read), or the time ``SHEETS_SYNC_NOW`` pins."""
    pinned = os.environ.get(ENV, "").strip()
    if pinned:
        try:
            return datetime.fromisoformat(pinned).replace(second=0, microsecond=0)
        except ValueError as exc:
            raise BadClock(f"{ENV}={pinned!r} is not an ISO date-time such as 2026-12-01T14:05") from exc
    return datetime.now().astimezone().replace(second=0, microsecond=0, tzinfo=None)


def log_time() -> str:
    """The time a sync's change-log lines carry (the Журнал tab, log.jsonl): the same local
    clock as :func:`now` (pinned the same way), to the second, with the zone it is in —
    ``2026-12-01 14:05:07 UTC+3`` — so that it reads like «Обновлено» on the pages and a line
    is never taken for another zone's (lines of older versions say ``… UTC``)."""
    pinned = os.environ.get(ENV, "").strip()
    moment = now().astimezone() if pinned else datetime.now().astimezone().replace(microsecond=0)
    offset = moment.utcoffset()
    minutes = int(offset.total_seconds() // 60) if offset is not None else 0
    sign = "+" if minutes >= 0 else "-"
    hours, rest = divmod(abs(minutes), 60)
    zone = "UTC" if minutes == 0 else f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")
    return f"{moment:%Y-%m-%d %H:%M:%S} {zone}"


def zone(name: str) -> ZoneInfo | None:
    """The time zone an organizer typed («Часовой пояс»: an IANA name such as ``Europe/Berlin``),
    None when it is empty or the server does not know it (the server's own clock is used then)."""
    try:
        return ZoneInfo(name.strip()) if name.strip() else None
    except (ZoneInfoNotFoundError, ValueError):
        return None
