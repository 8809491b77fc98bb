"""What a tournament's page shows at a glance, from what the last sync remembered
(``Tournament.last_sync``, written by the sync runner of :mod:`sheets_sync.web.jobs`) and the
tournament's jobs — no read of the sheet, so the page is as fast with 500 tournaments as with one."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import quote

from django.utils import timezone

from sheets_sync.web.jobs import SYNC, site_dir
from sheets_sync.web.models import Job, Tournament
from sheets_sync.web.words import WORDS, word

__all__ = ["Glance", "ProblemLine", "glance", "problem_link", "job_title", "RECENT_JOBS", "ACTIVE"]

RECENT_JOBS = 10
ACTIVE = (Job.QUEUED, Job.RUNNING)


@dataclass(frozen=True)
class ProblemLine:
    where: str  # «Отбор 1-2!C5»
    message: str
    severity: str
    link: str | None  # opens the Google sheet at the cell; None for an .xlsx


@dataclass(frozen=True)
class Glance:
    games: int | None
    planned: int | None
    errors: int
    warnings: int
    problems: list[ProblemLine]
    problems_more: int  # problems beyond those kept (the sheet's Problems tab has them all)
    synced_at: object
    last_sync: dict
    waiting: int
    running: int
    failed: int
    jobs: list[Job] = field(default_factory=list)
    published: bool = False
    # the last sync stopped: a tab it needs is missing (its problems say which); nothing was published
    stopped: bool = False
    lang: str = "ru"

    @property
    def unchanged(self) -> str:
        """What a sync that found nothing new says: when the last edits were counted (not «the sheet
        had not changed», read right after a judge's edit was synced as «my edit was not seen»)."""
        if not self.last_sync.get("skipped"):
            return ""
        when = _moment(self.last_sync.get("computed_at"))
        if when is None:
            return word("organizer.unchanged", self.lang)
        return word("organizer.unchanged.since", self.lang, when=timezone.localtime(when).strftime("%H:%M:%S"))

    @property
    def busy(self) -> bool:
        return bool(self.waiting or self.running)


def problem_link(tournament: Tournament, tab: str, cell: str, gid: object) -> str | None:
    """Google: ``…/edit#gid=<gid>&range=<A1>`` opens the tab at the cell; an .xlsx has no address."""
    if tournament.source != Tournament.GOOGLE or not tournament.spreadsheet_id:
        return None
    base = f"https://docs.google.com/spreadsheets/d/{quote(tournament.spreadsheet_id, safe='')}/edit"
    if gid is None:
        return base
    return f"{base}#gid={gid}" + (f"&range={quote(cell, safe='')}" if cell else "")


def _problems(tournament: Tournament, summary: dict, lang: str) -> list[ProblemLine]:
    lines = []
    for p in summary.get("problems") or ():
        where = f"{p.get('tab')}!{p.get('cell')}" if p.get("cell") else str(p.get("tab") or "")
        lines.append(ProblemLine(where=where, message=str(p.get(lang) or p.get("ru") or ""),
                                 severity=str(p.get("severity") or "error"),
                                 link=problem_link(tournament, str(p.get("tab") or ""), str(p.get("cell") or ""),
                                                   p.get("gid"))))
    return lines


def _moment(text: object):
    try:
        return datetime.fromisoformat(str(text)) if text else None
    except ValueError:
        return None


# what started a sync (``request_sync``'s reason) -> the words naming it
_SYNC_REASONS = {"changed during the sync": "again", "created": "added"}


def job_title(job: Job, lang: str) -> str:
    """A job as the page lists it: a sync by what started it — the organizer's press, a judge's
    edit (the push, Drive's feed), the keeper's look, the action before it — never every one of
    them «Обновить сейчас»; another action by its button's name."""
    if job.action == SYNC:
        reason = str((job.params or {}).get("reason") or "")
        key = f"organizer.sync.by.{_SYNC_REASONS.get(reason, reason)}"
        return word(key if key in WORDS else "organizer.sync.by.other", lang)
    key = f"organizer.action.{job.action}"
    return word(key, lang) if key in WORDS else job.action


def glance(tournament: Tournament, lang: str) -> Glance:
    summary = tournament.last_sync or {}
    counts = {status: 0 for status in (Job.QUEUED, Job.RUNNING, Job.FAILED)}
    recent = list(Job.objects.filter(tournament=tournament).order_by("-created_at", "-pk")[:RECENT_JOBS])
    for status, in Job.objects.filter(tournament=tournament, status__in=ACTIVE).values_list("status"):
        counts[status] += 1
    counts[Job.FAILED] = sum(1 for j in recent if j.status == Job.FAILED)
    for job in recent:
        job.title = job_title(job, lang)
    problems = _problems(tournament, summary, lang)
    return Glance(games=summary.get("games"), planned=summary.get("planned"), errors=int(summary.get("errors") or 0),
                  warnings=int(summary.get("warnings") or 0), problems=problems,
                  problems_more=max(0, int(summary.get("problems_total") or 0) - len(problems)),
                  synced_at=tournament.last_sync_at, last_sync=summary, waiting=counts[Job.QUEUED],
                  running=counts[Job.RUNNING], failed=counts[Job.FAILED], jobs=recent,
                  published=tournament.public and (site_dir(tournament) / "index.html").is_file(),
                  stopped=bool(summary.get("stopped")), lang=lang)
