"""The registration writer: ONE job per tournament puts the new applications as rows of the Players
tab and the pages' changes (a state, an arrival, a withdrawal, an excused round) into their cells.

Like the judges' writer (:mod:`sheets_sync.web.judge.writer`): :func:`request_write` queues the
tournament's writer unless one is queued already — that one takes everything stored meanwhile, so
200 applications in a minute make a few reads and writes of the sheet, not 200. The job is leased
(one job holds a workbook at a time) and, on Google, goes through the account's budget: a spent
budget puts it back in the queue unstarted; an .xlsx open in Excel waits until it is closed.

A burst on Google is gathered (:data:`SETTLE`): a lone application after a quiet while is written at
once, but while more keep coming (several waiting, or a write just before) the job waits until they
pause, ten seconds at most, and writes them together.

The cells are written as an input tab's pre-fill (``TabWrite(owned=False)``): only those cells. A new
application's row is appended below the tab's last row — nickname, club, city, «Заявка» (подана, or
лист ожидания past the places), «Подана» (when, on the tournament's clock) — never its contacts; a
nickname the tab holds already gets no second row. A column the tab lacks («Заявка», «Подана»,
«Прибыл», «Пропуск»…) is added at the header's end. A change is written only while the cell holds
what the server knew (``base``) — never over a person's typing — else it is reported, not written.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from scoring import labels as L
from scoring.cells import a1
from scoring.model import ApplicationState
from scoring.names import fold, typed_name
from scoring.parse.grid import _find_header_row, find_tab
from scoring.registration import state_word
from sheets_sync.backends.base import Patch, Snapshot, TabWrite, WorkbookChanged, WorkbookLocked
from sheets_sync.keeper.budget import BudgetExhausted
from sheets_sync.web.jobs import TryLater, run_job_task, runner
from sheets_sync.web.judge.games import shown_text
from sheets_sync.web.judge.writer import same_text
from sheets_sync.web.models import Application, Job, RegistrationWrite, Tournament

__all__ = ["REGISTRATION_WRITE", "request_write", "plan_rows", "RowPlan", "ROW_COLUMNS"]

log = logging.getLogger("sheets_sync.web.registration")
REGISTRATION_WRITE = "registration-write"
ATTEMPTS = 3  # reads and plans when the .xlsx was saved between the writer's read and its write
# a burst on Google (a tournament announced in a chat): while applications keep coming, the writer
# waits until none came for SETTLE seconds, GATHER at most — one read and one write for the lot,
# not one a form; a lone application is written at once
SETTLE, GATHER = 2.0, 10.0
# the columns a registration row uses, in the order a missing one is added to the header
ROW_COLUMNS = ("player", "club", "city", "application", "applied_at", "arrived", "excused")


def request_write(tournament: Tournament) -> Job | None:
    """Make sure one writer job is waiting for the tournament (None: a queued one takes the new rows)."""
    with transaction.atomic():
        if Job.objects.select_for_update().filter(tournament=tournament, action=REGISTRATION_WRITE,
                                                  status=Job.QUEUED).exists():
            return None
        job = Job.objects.create(tournament=tournament, action=REGISTRATION_WRITE, params={})
    run_job_task(job.pk)
    return job


@dataclass
class RowPlan:
    tab: str = ""
    cells: dict[tuple[int, int], object] = field(default_factory=dict)  # (row, column) → value
    appended: dict[int, int] = field(default_factory=dict)  # application pk → its row (new, or the nickname's own)
    written: dict[int, list[str]] = field(default_factory=dict)  # change pk → keys written
    conflicts: dict[int, list[dict]] = field(default_factory=dict)  # change pk → [{key, cell, sheet, mine}]
    missing: dict[int, str] = field(default_factory=dict)  # change pk → why not written
    waiting: set[int] = field(default_factory=set)  # changes of rows not in the sheet yet: kept for the next job

    def patch(self) -> Patch:
        if not self.cells:
            return Patch()
        rows: list[list] = [[] for _ in range(max(r for r, _ in self.cells) + 1)]
        for (r, c), value in self.cells.items():
            rows[r] += [None] * (c + 1 - len(rows[r]))
            rows[r][c] = value
        return Patch(writes=(TabWrite(title=self.tab, rows=tuple(tuple(r) for r in rows), owned=False),))


def _header(plan: RowPlan, grid, language: str) -> tuple[int, dict[str, int]] | None:
    """The header row and its columns, the missing ones of :data:`ROW_COLUMNS` added at its end."""
    found = _find_header_row(grid, L.PLAYER_COLUMNS, ("player",))
    if found is None:
        if any(any(v not in (None, "") for v in row) for row in grid):
            return None  # a tab of other things: no row is put under a header that is not there
        hr, cols = 0, {}
    else:
        hr, cols = found[0], dict(found[1])
    width = max([len(grid[hr]) if hr < len(grid) else 0, *(c + 1 for c in cols.values())])
    for key in ROW_COLUMNS:
        if key not in cols:
            cols[key] = width
            plan.cells[(hr, width)] = L.label(L.PLAYER_COLUMNS[key], language)
            width += 1
    return hr, cols


def _text(plan: RowPlan, grid, r: int, c: int, language: str) -> str:
    if (r, c) in plan.cells:
        return shown_text(plan.cells[(r, c)], language)
    return shown_text(grid[r][c] if r < len(grid) and c < len(grid[r]) else None, language)


def plan_rows(snapshot: Snapshot, language: str, new: Sequence[dict], changes: Sequence[RegistrationWrite]) -> RowPlan | None:
    """What to write for the applications ``new`` (dicts: pk, nickname, club, city, state, applied_at
    as the tournament's clock shows it, as text) and ``changes``, into the workbook as read; None: the
    Players tab has no header to write under."""
    plan = RowPlan(tab=find_tab(snapshot.tabs, "players") or L.tab("players", language))
    grid = snapshot.tabs.get(plan.tab, ())
    header = _header(plan, grid, language)
    if header is None:
        return None
    hr, cols = header
    rows = {fold(typed_name(grid[r][cols["player"]])): r for r in range(hr + 1, len(grid))
            if cols["player"] < len(grid[r]) and typed_name(grid[r][cols["player"]])}
    next_row = max(len(grid), hr + 1)
    for app in new:
        if fold(app["nickname"]) in rows:  # typed by the organizer, or written before a crash: no second row
            plan.appended[app["pk"]] = rows[fold(app["nickname"])]
            continue
        r, next_row = next_row, next_row + 1
        rows[fold(app["nickname"])] = plan.appended[app["pk"]] = r
        word = state_word(ApplicationState(app["state"]), language)
        for key, value in (("player", app["nickname"]), ("club", app["club"]), ("city", app["city"]),
                           ("application", word), ("applied_at", app["applied_at"])):
            if value:  # an empty club stays an empty cell
                plan.cells[(r, cols[key])] = value
    for change in changes:
        _plan_change(plan, grid, change, rows.get(fold(change.nickname)), cols, language)
    return plan


def _plan_change(plan: RowPlan, grid, change: RegistrationWrite, r: int | None, cols: dict, language: str) -> None:
    if r is None:
        if change.application_id is not None and not Application.objects.filter(
                pk=change.application_id, written_at__isnull=False).exists():
            plan.waiting.add(change.pk)  # its row is not in the sheet yet (the next job writes both)
        else:
            plan.missing[change.pk] = "no_row"
        return
    plan.written[change.pk] = []
    for key, mine in change.cells.items():
        c = cols[key]
        sheet = _text(plan, grid, r, c, language)
        if same_text(sheet, str(mine)):
            continue
        if same_text(sheet, str(change.base.get(key, ""))):
            plan.cells[(r, c)] = int(mine) if key == "excused" and str(mine).isdigit() else mine
            plan.written[change.pk].append(key)
        else:
            plan.conflicts.setdefault(change.pk, []).append({"key": key, "cell": f"{plan.tab}!{a1(r, c)}",
                                                             "sheet": sheet, "mine": str(mine)})


def _new_rows(tournament: Tournament) -> list[dict]:
    from sheets_sync.web.registration.desk import local_moment, read_desk

    desk = read_desk(tournament)
    # as text, as a person types a moment (the reader takes it; a date cell would need the look the tab keeps)
    shape = "%Y-%m-%d %H:%M:%S" if desk.get("language") == "en" else "%d.%m.%Y %H:%M:%S"
    return [{"pk": a.pk, "nickname": a.nickname, "club": a.club, "city": a.city, "state": a.state,
             "applied_at": local_moment(desk, a.applied_at).strftime(shape)}
            for a in Application.objects.filter(tournament=tournament, written_at__isnull=True).order_by("applied_at", "pk")]


def _write(backend, tournament: Tournament, changes: list[RegistrationWrite], language: str) -> tuple[RowPlan | None, list]:
    for attempt in range(1, ATTEMPTS + 1):
        new = _new_rows(tournament)
        snapshot = backend.read()
        plan = plan_rows(snapshot, language, new, changes)
        if plan is None or plan.patch().empty:
            return plan, new
        try:
            backend.apply(plan.patch(), base=snapshot)
            return plan, new
        except WorkbookChanged:
            if attempt == ATTEMPTS:
                raise
    raise AssertionError("unreachable")


def _record(plan: RowPlan | None, new: list[dict], changes: list[RegistrationWrite]) -> None:
    now = timezone.now()
    if plan is None:  # no header: said on each change and left for the organizer to see
        RegistrationWrite.objects.filter(pk__in=[c.pk for c in changes]).update(written_at=now, result={"missing": "no_header"})
        return
    Application.objects.filter(pk__in=list(plan.appended)).update(written_at=now)
    for change in changes:
        if change.pk in plan.waiting:
            continue
        result = {"written": plan.written.get(change.pk, []), "conflicts": plan.conflicts.get(change.pk, []),
                  "missing": plan.missing.get(change.pk, "")}
        RegistrationWrite.objects.filter(pk=change.pk).update(written_at=now, result=result)


def _gathering(tournament: Tournament) -> bool:
    """On Google, more keep coming: wait for them (see :data:`SETTLE`)."""
    if tournament.source != Tournament.GOOGLE or SETTLE <= 0:
        return False
    moments = [*Application.objects.filter(tournament=tournament, written_at__isnull=True).values_list("created_at", flat=True),
               *RegistrationWrite.objects.filter(tournament=tournament, written_at__isnull=True).values_list("created_at", flat=True)]
    now = timezone.now()
    if not moments or (now - max(moments)).total_seconds() >= SETTLE or (now - min(moments)).total_seconds() >= GATHER:
        return False
    # a burst: several waiting, or a write of this tournament's just before (a lone one after quiet is not held)
    return len(moments) > 1 or Job.objects.filter(tournament=tournament, action=REGISTRATION_WRITE, status=Job.DONE,
                                                  finished_at__gte=now - timedelta(seconds=GATHER)).exists()


@runner(REGISTRATION_WRITE, leased=True, again=True)
def _write_rows(tournament: Tournament, params: dict) -> dict:
    from sheets_sync.web.jobs import _sync, request_sync
    from sheets_sync.web.registration.desk import read_desk
    from sheets_sync.web.workbooks import open_tournament_backend

    changes = list(RegistrationWrite.objects.filter(tournament=tournament, written_at__isnull=True).order_by("pk"))
    if not changes and not Application.objects.filter(tournament=tournament, written_at__isnull=True).exists():
        return {"rows": 0, "message": ""}
    if _gathering(tournament):
        raise TryLater(delay=SETTLE, waiting=Job.FOR_BUDGET)  # the next ones join this write (the budget's sake)
    language = read_desk(tournament).get("language") or tournament.language or "ru"
    try:
        plan, new = _write(open_tournament_backend(tournament), tournament, changes, language)
    except BudgetExhausted:
        raise TryLater() from None  # nothing written: the rows wait for the next minute's budget
    except WorkbookLocked:
        raise TryLater(delay=5.0, waiting=Job.FOR_WORKBOOK) from None  # open in Excel: written once it is closed
    _record(plan, new, changes)
    cells = 0 if plan is None else len(plan.cells)
    if plan is not None and plan.waiting:
        request_write(tournament)  # a change of a row that came after this job's read: the next job
    if cells or (plan is not None and plan.conflicts):  # a conflict: the sheet says otherwise, the mirror takes it
        if tournament.source == Tournament.EXCEL:
            _sync(tournament, {"reason": "registration"})
        else:
            request_sync(tournament, "registration")
    return {"rows": 0 if plan is None else len(plan.appended), "cells": cells, "message": ""}
