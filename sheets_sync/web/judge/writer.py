"""The judges' saves into the workbook: ONE writer job per tournament (issue 44 §2, §6).

A save is stored at once (:class:`~sheets_sync.web.models.JudgeSave`) and :func:`request_write`
queues the tournament's writer unless one is queued already — that one takes the new saves too,
so ten tables saving at once make one read and one write of the sheet. The job is leased like a
sync (one job holds a workbook at a time) and, on Google, goes through the account's budget like
every request (:mod:`sheets_sync.web.workbooks`): a spent budget puts it back in the queue unstarted.

Never over a person's typing (§6): the writer re-reads the workbook and compares each cell's value
with the save's ``base`` (what the page had read). Equal — or already the judge's value — it is
written; else it is a conflict, kept for the page and not written, until the judge chooses
(``choose``: ``mine`` writes over the sheet, ``sheet`` takes the sheet's). The cells are written as
an input tab's pre-fill (``TabWrite(owned=False)``): only those cells, ``""`` clearing one the judge
emptied; the write names the snapshot it was planned on (``base=``), and an .xlsx saved meanwhile
(``WorkbookChanged``) is read and planned again.

Then the standings follow: in the app (an .xlsx) the sync runs in the same job, under the same
lease; on Google a sync is queued (it takes the lease as soon as the writer lets go) — a second
read in the same job would double the reads of every write.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from scoring.cells import parse_a1
from sheets_sync.backends.base import Patch, Snapshot, TabWrite, WorkbookChanged, WorkbookLocked
from sheets_sync.keeper.budget import BudgetExhausted
from sheets_sync.web.jobs import TryLater, out_dir, run_job_task, runner
from sheets_sync.web.judge.games import shown_text
from sheets_sync.web.models import Job, JudgeGame, JudgeSave, Tournament

__all__ = ["JUDGE_WRITE", "request_write", "plan_writes", "Plan", "same_text", "typed_value"]

log = logging.getLogger("sheets_sync.web.judge")
JUDGE_WRITE = "judge-write"
ATTEMPTS = 3  # reads and plans when the .xlsx was saved between the writer's read and its write
_WHOLE = ("fouls", "killed_night", "voted_day")


def request_write(tournament: Tournament) -> Job | None:
    """Make sure one writer job is waiting for the tournament (None: a queued one takes the saves)."""
    with transaction.atomic():
        if Job.objects.select_for_update().filter(tournament=tournament, action=JUDGE_WRITE, status=Job.QUEUED).exists():
            return None
        job = Job.objects.create(tournament=tournament, action=JUDGE_WRITE, params={})
    run_job_task(job.pk)
    return job


def same_text(a: str, b: str) -> bool:
    """The same entry (spaces, letter case and the decimal comma aside)."""
    def norm(t: str) -> str:
        t = " ".join(str(t).split()).casefold().replace("ё", "е")
        return t.replace(",", ".") if re.fullmatch(r"[+-]?\d+[.,]\d+", t) else t
    return norm(a) == norm(b)


def typed_value(column: str, text: str) -> object:
    """What the cell gets for the judge's ``text``: a whole number in the number columns and a number
    of extra points as numbers (as a spreadsheet stores them typed), all else as text — a formula
    typed as a name stays text (a Google write of a string value is never parsed), ``""`` clears."""
    t = text.strip()
    if not t:
        return ""
    if column in _WHOLE and re.fullmatch(r"\d{1,3}", t):
        return int(t)
    if column == "extra_points" and re.fullmatch(r"[+-]?\d{1,3}([.,]\d{1,4})?", t):
        return Decimal(t.replace(",", "."))
    return text


@dataclass
class Plan:
    cells: dict[str, dict[str, object]] = field(default_factory=dict)  # tab → A1 → value
    written: dict[int, list[str]] = field(default_factory=dict)  # save pk → keys written
    conflicts: dict[str, dict[str, dict]] = field(default_factory=dict)  # gid → key → conflict
    settled: dict[str, set[str]] = field(default_factory=dict)  # gid → keys no longer in conflict
    missing: dict[int, str] = field(default_factory=dict)  # save pk → why it cannot be written

    def patch(self) -> Patch:
        writes = []
        for tab, cells in self.cells.items():
            places = [(parse_a1(a), v) for a, v in cells.items()]
            rows: list[list] = [[] for _ in range(max(r for (r, _), _ in places) + 1)]
            for (r, c), value in places:
                rows[r] += [None] * (c + 1 - len(rows[r]))
                rows[r][c] = value
            writes.append(TabWrite(title=tab, rows=tuple(tuple(r) for r in rows), owned=False))
        return Patch(writes=tuple(writes))


def _sheet_text(snapshot: Snapshot, tab: str, a1: str, language: str) -> str:
    grid = snapshot.tabs.get(tab, ())
    r, c = parse_a1(a1)
    return shown_text(grid[r][c] if r < len(grid) and c < len(grid[r]) else None, language)


def plan_writes(saves: Sequence[JudgeSave], games: Mapping[str, dict], snapshot: Snapshot, language: str) -> Plan:
    """What to write of ``saves`` (in the order they came) into the workbook as read (``snapshot``)."""
    plan, now_text = Plan(), {}
    for save in saves:
        game = games.get(save.gid)
        if game is None or not game.get("tab") or game["tab"] not in snapshot.tabs:
            plan.missing[save.pk] = "no_tab"
            continue
        tab, conflicts, settled = game["tab"], plan.conflicts.setdefault(save.gid, {}), plan.settled.setdefault(save.gid, set())
        plan.written[save.pk] = []
        for key, mine in save.cells.items():
            a1 = game["where"].get(key)
            if a1 is None:
                continue
            sheet = now_text.get((tab, a1), None)
            sheet = _sheet_text(snapshot, tab, a1, language) if sheet is None else sheet
            base = save.base.get(key, game["cells"].get(key, ""))
            choice = save.choose.get(key)
            if choice == "sheet" or same_text(sheet, mine):
                conflicts.pop(key, None)
                settled.add(key)
            elif choice == "mine" or same_text(sheet, base):
                plan.cells.setdefault(tab, {})[a1] = typed_value(key.partition(":")[2], mine)
                now_text[(tab, a1)] = mine
                plan.written[save.pk].append(key)
                conflicts.pop(key, None)
                settled.add(key)
            else:
                conflicts[key] = {"key": key, "base": base, "sheet": sheet, "mine": mine}
                settled.discard(key)
    return plan


def _write(backend, saves: list[JudgeSave], games: Mapping[str, dict], language: str) -> Plan:
    for attempt in range(1, ATTEMPTS + 1):
        snapshot = backend.read()
        plan = plan_writes(saves, games, snapshot, language)
        patch = plan.patch()
        if patch.empty:
            return plan
        try:
            backend.apply(patch, base=snapshot)
            return plan
        except WorkbookChanged:
            if attempt == ATTEMPTS:
                raise
    raise AssertionError("unreachable")


def _record(tournament: Tournament, saves: list[JudgeSave], plan: Plan) -> None:
    now = timezone.now()
    for save in saves:
        result = {"written": plan.written.get(save.pk, []), "missing": plan.missing.get(save.pk, "")}
        JudgeSave.objects.filter(pk=save.pk).update(written_at=now, result=result)
    for gid, conflicts in plan.conflicts.items():
        kept, _ = JudgeGame.objects.get_or_create(tournament=tournament, gid=gid)
        old = {c["key"]: c for c in kept.conflicts if c["key"] not in plan.settled.get(gid, set())}
        old.update(conflicts)
        kept.conflicts = list(old.values())
        kept.saved_at = now
        kept.save(update_fields=["conflicts", "saved_at", "updated_at"])


@runner(JUDGE_WRITE, leased=True, again=True)
def _write_saves(tournament: Tournament, params: dict) -> dict:
    from sheets_sync.web.jobs import _sync, request_sync
    from sheets_sync.web.judge.games import read_games
    from sheets_sync.web.workbooks import open_tournament_backend

    saves = list(JudgeSave.objects.filter(tournament=tournament, written_at__isnull=True).order_by("pk"))
    games = read_games(out_dir(tournament))
    if not saves or games is None:
        return {"saves": 0, "message": ""}
    by_gid = {g["gid"]: g for g in games["games"]}
    try:
        plan = _write(open_tournament_backend(tournament), saves, by_gid, games.get("language", "ru"))
    except BudgetExhausted:
        raise TryLater() from None  # nothing written: the saves wait for the next minute's budget
    except WorkbookLocked:
        raise TryLater(delay=5.0, waiting=Job.FOR_WORKBOOK) from None  # open in Excel: written once it is closed
    _record(tournament, saves, plan)
    written = sum(len(keys) for keys in plan.written.values())
    conflicts = sum(len(c) for c in plan.conflicts.values())
    if written:
        if tournament.source == Tournament.EXCEL:
            _sync(tournament, {"reason": "judge"})
        else:
            request_sync(tournament, "judge")
    return {"saves": len(saves), "cells": written, "conflicts": conflicts, "message": ""}
