"""The one clock of the public outputs: «Обновлено: 01.12.2026 14:05» on the site and the VK post.

The scoring core and the renderers read no clock; the commands that write outputs ask
:func:`now` once and pass the time on.  ``SHEETS_SYNC_NOW`` (an ISO date-time, e.g.
``2026-12-01T14:05``) pins it, so that tests, goldens and `make demo` give the same bytes.
"""

from __future__ import annotations

import os
from datetime import datetime

from scoring.errors import SheetsSyncError

__all__ = ["now", "ENV", "BadClock"]

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
