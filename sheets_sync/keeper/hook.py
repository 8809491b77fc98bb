"""The push trigger's debounce: while judges type, a sync starts a few seconds after the last push,
and never later than a few seconds after the first one that is still waiting.

Pure: the web glue stores ``pending_since`` and ``due`` on the tournament and starts the sync
once ``due`` has passed (at most one waiting: :func:`sheets_sync.web.jobs.request_sync` dedupes)."""

from __future__ import annotations

from datetime import datetime, timedelta

__all__ = ["QUIET", "MAX_WAIT", "next_due"]

QUIET = timedelta(seconds=2)  # a judge's next keystroke-save usually comes within this
MAX_WAIT = timedelta(seconds=5)  # with the sync's own ~2 s this keeps edit → site within the 10 s promised


def next_due(pending_since: datetime | None, now: datetime) -> tuple[datetime, datetime]:
    """(pending_since, due) after a push at ``now``: ``QUIET`` after this push, capped at ``MAX_WAIT``
    after the first push not yet synced."""
    first = pending_since or now
    return first, min(now + QUIET, first + MAX_WAIT)
