"""The draw at the announced time (issue 45): «Жеребьёвка» on the Tournament tab, on the
tournament's clock («Часовой пояс»), read from the last sync (:mod:`sheets_sync.web.registration.desk`).

The keeper's minute (:func:`sheets_sync.web.keeping.tick`) starts a draw job once that moment has
passed — the same job as the organizer's button, seating those present
(:func:`scoring.registration.draw_field`) — with ``params["timed"]`` the announced moment, so:

* at most once per announced time (a job of that moment exists, whatever its end: a refused draw
  is the organizer's to look at, not retried every minute; a time retyped is a new announcement);
* never when a draw was made (a draw job done, or the sheet has a seating): a timed draw is never
  forced over a seating, the organizer redraws with his button;
* never when the moment is more than :data:`LATE` past: a server down for a day does not draw by
  surprise, the organizer presses.

The seed is drawn at random and kept in the job's parameters (its page shows it)."""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta

from django.utils import timezone

from sheets_sync.web import jobs
from sheets_sync.web.models import Job, Tournament
from sheets_sync.web.registration.desk import aware, local_moment, read_desk
from sheets_sync.web.runners import DRAW
from sheets_sync.web.words import word

__all__ = ["LATE", "due_draw", "start_timed_draws", "draw_line"]

log = logging.getLogger("sheets_sync.web.registration")
LATE = timedelta(hours=12)  # past this, the announced draw waits for the organizer's press


def _draw_made(tournament: Tournament, desk: dict) -> bool:
    return bool(desk.get("seated")) or Job.objects.filter(tournament=tournament, action=DRAW, status=Job.DONE).exists()


def due_draw(tournament: Tournament, desk: dict, moment: datetime) -> str | None:
    """The announced moment (as the desk keeps it) whose draw starts now; None: nothing to start."""
    at = aware(desk, "draw_at")
    if at is None or moment < at or moment - at > LATE or "seated" not in desk or _draw_made(tournament, desk):
        return None  # ("seated" unknown: a desk of an older version; the next sync says)
    timed = desk["draw_at"]
    busy = Job.objects.filter(tournament=tournament, action=DRAW)
    if busy.filter(params__timed=timed).exists() or busy.filter(status__in=(Job.QUEUED, Job.RUNNING)).exists():
        return None  # started for this time already, or the organizer's own draw is under way
    return timed


def start_timed_draws(moment: datetime | None = None) -> list[int]:
    """Start every tournament's draw whose announced time has come; the jobs' ids."""
    moment = moment or timezone.now()
    started = []
    for tournament in Tournament.objects.filter(kind=Tournament.TOURNAMENT):
        desk = read_desk(tournament)
        if not desk.get("draw_at"):
            continue
        try:
            timed = due_draw(tournament, desk, moment)
            if timed is not None:
                job = jobs.enqueue(tournament, DRAW, params={"timed": timed, "seed": secrets.randbelow(1_000_000)})
                started.append(job.pk)
        except Exception:  # noqa: BLE001 - one tournament's trouble must not stop the others' draws
            log.exception("the timed draw of tournament %s not started", tournament.pk)
    return started


def _when(at: datetime, today, lang: str) -> str:
    if at.date() == today:
        return word("timed.when.today", lang, time=f"{at:%H:%M}")
    return word("timed.when.day", lang, date=f"{at:%d.%m.%Y}", time=f"{at:%H:%M}")


def draw_line(tournament: Tournament, moment: datetime | None = None, lang: str = "ru") -> dict | None:
    """What the organizer's page says of the announced draw: ``text`` and the job's ``job`` (or None)."""
    desk = read_desk(tournament)
    at = aware(desk, "draw_at")
    if at is None:
        return None
    moment = moment or timezone.now()
    when = _when(at.replace(tzinfo=None), local_moment(desk, moment).date(), lang)
    job = Job.objects.filter(tournament=tournament, action=DRAW, params__timed=desk["draw_at"]).order_by("-pk").first()
    if job is None:
        if _draw_made(tournament, desk):
            return None  # the organizer drew himself: the job list says so
        return {"text": word("timed.missed" if moment - at > LATE else "timed.coming", lang, when=when), "job": None}
    if job.status == Job.DONE:
        text = word("timed.done", lang, when=when, games=(job.result or {}).get("games", 0), seed=job.params.get("seed"))
    elif job.status == Job.FAILED:
        reason = ((job.result or {}).get("messages") or {}).get(lang) or ""
        text = word("timed.failed", lang, when=when, reason=reason).strip()
    else:
        text = word("timed.running", lang, when=when)
    return {"text": text, "job": job}
