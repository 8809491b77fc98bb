"""What a tournament's page shows at a glance, from what the last sync remembered
(``Tournament.last_sync``, written by the sync runner of :mod:`sheets_sync.web.jobs`) and the
tournament's jobs — no read of the sheet, so the page is as fast with 500 tournaments as with one."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import quote

from sheets_sync.web.jobs import site_dir
from sheets_sync.web.models import Job, Tournament

__all__ = ["Glance", "ProblemLine", "glance", "problem_link", "RECENT_JOBS", "ACTIVE"]

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


def glance(tournament: Tournament, lang: str) -> Glance:
    summary = tournament.last_sync or {}
    counts = {status: 0 for status in (Job.QUEUED, Job.RUNNING, Job.FAILED)}
    recent = list(Job.objects.filter(tournament=tournament).order_by("-created_at", "-pk")[:RECENT_JOBS])
    for status, in Job.objects.filter(tournament=tournament, status__in=ACTIVE).values_list("status"):
        counts[status] += 1
    counts[Job.FAILED] = sum(1 for j in recent if j.status == Job.FAILED)
    problems = _problems(tournament, summary, lang)
    return Glance(games=summary.get("games"), planned=summary.get("planned"), errors=int(summary.get("errors") or 0),
                  warnings=int(summary.get("warnings") or 0), problems=problems,
                  problems_more=max(0, int(summary.get("problems_total") or 0) - len(problems)),
                  synced_at=tournament.last_sync_at, last_sync=summary, waiting=counts[Job.QUEUED],
                  running=counts[Job.RUNNING], failed=counts[Job.FAILED], jobs=recent,
                  published=tournament.public and (site_dir(tournament) / "index.html").is_file(),
                  stopped=bool(summary.get("stopped")))
