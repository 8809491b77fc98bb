"""Who may write where: the protections the sync wants, those the workbook lacks, and those
somebody took away.

The sync owns its tabs (standings, stage tabs, statistics, problems, log, draw report) and the
hidden state tab: only its own account and the organizers («Организаторы» on the Tournament tab)
may edit them.  With «Подтверждение протоколов = да» each protocol's «Проверил» cell may be
written only by the chief judges («Главные судьи») and the sync.  Protocol tabs stay open to
the judges.

The sync decides, the backends translate (:class:`~sheets_sync.backends.base.Protection`): a
Google Sheet gets protected ranges of exactly these editors, an .xlsx sheet protection.  The
state tab remembers what the sync protected (rows ``§protected | tab | cells | editors``), so
that a protection missing at the next read is told from one never set: a removed one is a
warning on the Problems tab and is put back in the same write.

A protection counts as in place when it exists, is not a mere warning, and lets every wanted
editor in.  Editors somebody added to it by hand are left alone: Google itself lists the
spreadsheet's owner among them, and only an editor of the protection (an organizer) can add one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from scoring import labels as L
from scoring.model import Location
from scoring.parse import owned_titles
from scoring.problems import Problem, Severity, problem
from sheets_sync.backends.base import STATE_TAB, Protection, Snapshot, TabWrite

__all__ = ["PROTECTED", "wanted_protections", "protection_changes", "state_rows", "remembered", "restored_problems"]

PROTECTED = "§protected"


def _editors(account: str | None, people: Iterable[str]) -> tuple[str, ...]:
    """The sync's account first, then the people, each once (e-mails compare in lower case)."""
    found = dict.fromkeys(e.lower() for e in ([account] if account else []) + list(people) if e)
    return tuple(found)


def wanted_protections(snapshot: Snapshot, outcome, writes: Sequence[TabWrite],
                       account: str | None) -> tuple[Protection, ...]:
    """Every protection the workbook should hold once ``writes`` are written: each owned tab
    (there or being created, the state tab always) for the sync and the organizers; with confirmation required, each
    protocol's «Проверил» cell for the sync and the chief judges."""
    owned = owned_titles(outcome.preset)
    editors = _editors(account, outcome.settings.organizers)
    titles = dict.fromkeys([*snapshot.order, *(w.title for w in writes), STATE_TAB])
    found = {(t, None): Protection(sheet=t, editors=editors) for t in titles if L.norm(t) in owned}
    if outcome.preset.confirmation:
        judges = _editors(account, outcome.settings.chief_judges)
        for p in outcome.results.tournament.protocols:
            where = p.cells.get("checked_by")
            if where is not None and where.sheet in snapshot.tabs:
                found.setdefault((where.sheet, where.cell), Protection(sheet=where.sheet, cells=where.cell, editors=judges))
    return tuple(found.values())


def _in_place(want: Protection, present: Protection | None, before: Protection | None) -> bool:
    """Whether ``present`` already is ``want``: every wanted editor in, none the sync set and
    no longer wants (``before``: what it set last time)."""
    if present is None:
        return False
    now = {e.lower() for e in present.editors}
    dropped = {e.lower() for e in before.editors} - set(want.editors) if before is not None else set()
    return set(want.editors) <= now and not (dropped & now)


def protection_changes(snapshot: Snapshot, wanted: Sequence[Protection],
                       writes: Sequence[TabWrite]) -> tuple[tuple[Protection, ...], tuple[Protection, ...]]:
    """(protections to set, protections to take away) for the patch.  A backend that does not
    read protections (``snapshot.protections`` None) is asked to protect the tabs it writes."""
    if snapshot.protections is None:
        written = {w.title for w in writes}
        return tuple(p for p in wanted if p.cells is None and p.sheet in written), ()
    present = {p.key: p for p in snapshot.protections}
    before = remembered(snapshot)
    add = tuple(p for p in wanted if not _in_place(p, present.get(p.key), before.get(p.key)))
    keys = {p.key for p in wanted}
    drop = tuple(p for key, p in before.items() if key not in keys and key in present and p.sheet in snapshot.tabs)
    return add, drop


def state_rows(snapshot: Snapshot, wanted: Sequence[Protection]) -> list[tuple[str, ...]]:
    """The state tab's rows that remember what the sync protected (none for a backend that does
    not read protections: nothing could be compared with them)."""
    if snapshot.protections is None:
        return []
    return [(PROTECTED, p.sheet, p.cells or "", " ".join(p.editors)) for p in wanted]


def remembered(snapshot: Snapshot) -> dict[tuple[str, str | None], Protection]:
    """What the last sync protected, by (tab, cells)."""
    found = {}
    for row in snapshot.tabs.get(STATE_TAB, ()):
        if len(row) >= 2 and row[0] == PROTECTED and row[1]:
            cells = str(row[2]) if len(row) > 2 and row[2] else None
            editors = tuple(str(row[3]).split()) if len(row) > 3 and row[3] else ()
            found[(str(row[1]), cells)] = Protection(sheet=str(row[1]), cells=cells, editors=editors)
    return found


def restored_problems(snapshot: Snapshot) -> list[Problem]:
    """A warning for each protection the last sync set that is gone or no longer keeps out
    everybody else (it is put back in this sync's write); nothing when the backend does not read
    protections."""
    if snapshot.protections is None:
        return []
    present: Mapping[tuple[str, str | None], Protection] = {p.key: p for p in snapshot.protections}
    found = []
    for key, before in remembered(snapshot).items():
        if before.sheet not in snapshot.tabs or _in_place(before, present.get(key), None):
            continue
        editors = ", ".join(before.editors) or "—"
        if before.cells is None:
            found.append(problem("protect.tab_restored", Severity.WARNING, Location(before.sheet, "A1"),
                                 tab=before.sheet, editors=editors))
        else:
            found.append(problem("protect.cells_restored", Severity.WARNING, Location(before.sheet, before.cells),
                                 tab=before.sheet, cells=before.cells, editors=editors))
    return found
