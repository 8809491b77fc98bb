"""One sync cycle: read → compute → write → publish.

The data flows one way.  :func:`sync_once` reads the workbook (``backend.read()``), computes
(:func:`sheets_sync.loop.outcome.compute`, pure given a snapshot and preset files, then
:func:`build_patch`: a :class:`Patch` of owned tabs and marks), writes the patch
(``backend.apply``) and publishes the files into its output folder (:mod:`sheets_sync.loop.publish`);
when the workbook changed under it between the read and the write, it starts over from a
fresh read.  Before all that it asks the backend for the workbook's fingerprint: a workbook
as the last sync left it (:mod:`sheets_sync.loop.sync_memory`) is not computed again.

Two refusals are not failures of the whole cycle:

* a workbook open in Excel or LibreOffice (a lock file beside it) is read and computed as
  usual and its files are written; only the workbook's own tabs wait (the report's
  ``locked``) until the file is closed — ``watch`` keeps trying;
* a preset that cannot be loaded stops the cycle (:class:`~sheets_sync.loop.outcome.PresetUnavailable`):
  only the Problems tab is written, saying so, and nothing is published;
* so does a workbook without its Tournament or Players tab
  (:class:`~sheets_sync.loop.outcome.WorkbookIncomplete`): the Problems tab names the missing tab
  and the present one that looks like it; every owned tab, mark and published file keeps what the
  last good cycle made, and so does the record of that cycle (it knows which games counted).
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

from scoring import labels as L
from sheets_sync import clock
from scoring.parse import find_tab, owned_titles, read_settings
from scoring.preset import Preset
from scoring.cells import parse_a1
from scoring.model import Location
from scoring.problems import Problem, Severity, cell_names, more_problems, problem, severity_counts
from scoring.secrecy import discreet_problems
from scoring.vanished import counted_games
from sheets_sync.backends.base import (
    STATE_TAB,
    Backend,
    Link,
    Mark,
    Patch,
    Snapshot,
    TabWrite,
    TransientError,
    WorkbookChanged,
    WorkbookLocked,
    values_fingerprint,
)
from sheets_sync.workbook.changelog import (append_jsonl, discreet_changes, is_trust_row, log_tab,
                                           state_rows as trust_state_rows)
from sheets_sync.loop.outcome import (
    DEFAULT_PRESET,
    Outcome,
    PresetUnavailable,
    WorkbookIncomplete,
    compute,
    read_workbook,
    workbook_view,
)
from sheets_sync.files import remove_stale_temps
from sheets_sync.workbook.protection import protection_changes, state_rows as protection_state_rows, wanted_protections
from sheets_sync.refs import workbook_folder
from sheets_sync.render.tabs import owned_tabs
from sheets_sync.render.words import ru_en
from sheets_sync.loop.sync_memory import SyncKey, SyncMemory, file_version, last_sync

__all__ = ["Outcome", "compute", "build_patch", "sync_once", "sync_summary", "SyncReport", "DEFAULT_PRESET", "internal_error_patch",
           "problems_patch", "input_fingerprint", "tabs_fingerprint"]

# -- marks ---------------------------------------------------------------------------------------
# A tab of garbage rows has thousands of problems; a mark each would be thousands of notes in one
# write (26 MB at 5,000 rows) and as many rows of the state tab.  The first marks of each tab in
# reading order are set, the last of them saying how many more the tab holds (the Problems tab
# lists them, itself capped: sheets_sync.render.tabs.PROBLEMS_PER_TAB).
MARKS_PER_TAB = 100
MARKS_MAX = 1000


def _wanted_marks(problems: Sequence[Problem], input_tabs: set[str], language: str,
                  order: Sequence[str] = ()) -> dict[tuple[str, str], Mark]:
    """Fill and note for the cells of the problems (a problem of several cells marks each of them,
    and each note names the problem's other cells): at most :data:`MARKS_PER_TAB` a tab and
    :data:`MARKS_MAX` in all, in the workbook's ``order`` and each tab's reading order."""
    grouped: dict[tuple[str, str], list[tuple[Severity, str]]] = {}
    by_cell: dict[tuple[str, str], list[Problem]] = {}
    for p in problems:
        for loc in p.locations:
            if loc.sheet not in input_tabs:
                continue
            by_cell.setdefault((loc.sheet, loc.cell), []).append(p)
    kept = _kept_cells(by_cell, order)
    for key in (key for cells in kept.values() for key in cells):
        sheet = key[0]
        for p in by_cell[key]:
            line = p.message(language)
            others = [o for o in p.locations if o != Location(*key)]
            if others:
                line += "\n" + ru_en("Другие ячейки этой проблемы: ", "Other cells of this problem: ", language) \
                    + cell_names(others, sheet)
            grouped.setdefault(key, []).append((p.severity, line))
    more = _left_out(by_cell, {key for cells in kept.values() for key in cells}, language)
    return {(sheet, cell): _mark(sheet, cell, items, more.get(sheet, "") if (sheet, cell) == kept[sheet][-1] else "")
            for (sheet, cell), items in grouped.items()}


def _kept_cells(by_cell: Mapping[tuple[str, str], Sequence[Problem]], order: Sequence[str]) -> dict[str, list]:
    """The cells marked, by tab: each tab's first :data:`MARKS_PER_TAB` in reading order, the tabs
    in the workbook's order, :data:`MARKS_MAX` in all (the last cell of a tab carries its «и ещё…»)."""
    rank = {title: i for i, title in enumerate(order)}
    per_tab: dict[str, list[tuple[str, str]]] = {}
    for key in by_cell:
        per_tab.setdefault(key[0], []).append(key)
    kept: dict[str, list[tuple[str, str]]] = {}
    room = MARKS_MAX
    for sheet in sorted(per_tab, key=lambda t: (rank.get(t, len(rank)), t)):
        cells = sorted(per_tab[sheet], key=lambda key: parse_a1(key[1]))[:min(MARKS_PER_TAB, room)]
        room -= len(cells)
        if cells:
            kept[sheet] = cells
    return kept


def _left_out(by_cell: Mapping[tuple[str, str], Sequence[Problem]], kept: set[tuple[str, str]],
              language: str) -> dict[str, str]:
    """Per tab, «и ещё 4 812 ошибок в этом листе»: its problems none of whose cells is marked."""
    shown: set[int] = {id(p) for key, found in by_cell.items() if key in kept for p in found}
    unseen: dict[str, dict[int, Problem]] = {}
    for (sheet, _), found in by_cell.items():
        for p in found:
            if id(p) not in shown:
                unseen.setdefault(sheet, {})[id(p)] = p
    return {sheet: more_problems(*severity_counts(found.values()), language) for sheet, found in unseen.items()}


def _mark(sheet: str, cell: str, items: list[tuple[Severity, str]], more: str) -> Mark:
    severity = "error" if any(sev is Severity.ERROR for sev, _ in items) else "warning"
    # errors first; the note is kept to what every backend stores unchanged, so that the
    # state tab compares equal on the next sync and an unchanged mark is not rewritten
    items = sorted(items, key=lambda item: item[0] is not Severity.ERROR)
    note = "\n".join(dict.fromkeys(line for _, line in items))
    note = _NOTE_UNSAFE.sub("\ufffd", note)
    limit = _NOTE_MAX - (len(more) + 1 if more else 0)
    if len(note) > limit:
        note = note[: limit - 1] + "…"
    if more:
        note += "\n" + more
    return Mark(sheet=sheet, cell=cell, severity=severity, note=note)


_NOTE_MAX = 2000
_NOTE_UNSAFE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _kept_as_they_are(previous: Mapping[tuple[str, str], tuple[str, str]], tabs: frozenset[str]) -> dict:
    """The marks of a tab too full for the state to remember (thousands of rows pasted), left as the
    last sync set them: neither set nor cleared there — touching one cell of a sheet of 600,000
    makes the .xlsx writer load all of it (a gigabyte); its problems are on the Problems tab."""
    return {key: Mark(sheet=key[0], cell=key[1], severity=severity, note=note)
            for key, (severity, note) in previous.items() if key[0] in tabs}


def _previous_marks(snapshot: Snapshot) -> dict[tuple[str, str], tuple[str, str]]:
    grid = snapshot.tabs.get(STATE_TAB, ())
    marks = {}
    for row in grid[1:]:
        if is_trust_row(row):  # confirmations and typed values (sheets_sync.workbook.changelog)
            continue
        if len(row) >= 2 and row[0] and row[1]:
            marks[(str(row[0]), str(row[1]))] = (str(row[2]) if len(row) > 2 and row[2] else "", str(row[3]) if len(row) > 3 and row[3] else "")
    return marks


def build_patch(snapshot: Snapshot, outcome: Outcome, *, links: bool = True, when: str | None = None,
                account: str | None = None) -> Patch:
    """Owned tabs in full, marks to set and to clear, the Log tab with the changes since the last
    sync (stamped ``when``, default now), the state tab that remembers marks, confirmations,
    typed values and protections, and the protections the workbook lacks (``account``: the
    sync's own e-mail, an editor of every protection; :mod:`sheets_sync.workbook.protection`)."""
    language = outcome.language
    # the Problems tab is read by whoever opens the workbook: a problem that would tell a secret of a
    # game in play says only that the cell's note has it (the marks below keep every word)
    listed = discreet_problems(outcome.results.tournament, outcome.preset, outcome.problems)
    if outcome.results.tournament.season:  # a club season: its own tabs (their module loads only then)
        from sheets_sync.render.season_tabs import owned_season_tabs

        writes = owned_season_tabs(outcome.results, listed, language, links=links)
    else:
        writes = owned_tabs(outcome.results, listed, language, links=links, live=outcome.live)
    writes.append(log_tab(snapshot, discreet_changes(outcome.changes, outcome.results.tournament, language),
                          when or sync_time(), language, outcome.preset.log_rows, outcome.results.tournament.name))
    writes, looks = _looks_kept(snapshot, writes)
    # marks go only into tabs people type into: every tab but those the sync owns (in either language)
    owned = owned_titles(outcome.preset)
    input_tabs = {t for t in snapshot.order if L.norm(t) not in owned}
    previous = _previous_marks(snapshot)
    wanted = _wanted_marks(outcome.problems, input_tabs - outcome.oversized, language, snapshot.order)
    wanted |= _kept_as_they_are(previous, outcome.oversized)
    set_marks = tuple(m for key, m in sorted(wanted.items()) if previous.get(key) != (m.severity, m.note))
    clear = tuple(sorted(key for key in previous if key not in wanted and key[0] in snapshot.tabs))
    state_rows = [("sheet", "cell", "severity", "note")] + [(m.sheet, m.cell, m.severity, m.note) for _, m in sorted(wanted.items())]
    state_rows += trust_state_rows(outcome.remember, outcome.values)
    protections = wanted_protections(snapshot, outcome, writes, account)
    state_rows += protection_state_rows(snapshot, protections)
    state_rows += [(LOOK, title, key) for title, key in sorted(looks.items())]
    state = TabWrite(title=STATE_TAB, rows=tuple(state_rows), hidden=True)
    writes.append(state)
    # write only what differs from what the workbook holds now
    changed = tuple(w for w in writes if not _same(snapshot.tabs.get(w.title), w.rows))
    protect, unprotect = protection_changes(snapshot, protections, changed)
    return Patch(writes=changed, set_marks=set_marks, clear_marks=clear, protect=protect, unprotect=unprotect)


LOOK = "§look"  # a state row: an owned tab and the key of the look the sync last gave it


def look_key(w: TabWrite) -> str:
    """A hash of everything a backend draws an owned tab's look from: widths, heights, styles, bold
    rows (as wide as the tab), frozen panes, dropdowns, page, where its links and dates are, and the
    version of the package that draws them.  Not the number of rows: a row added below the styled
    ones has the default look either way, so the Log tab, which grows with every change logged,
    keeps its key — the same in every workbook of the same version, whatever its history."""
    from sheets_sync import __version__

    kinds = tuple((r, c, type(v).__name__) for r, row in enumerate(w.rows) for c, v in enumerate(row)
                  if isinstance(v, (Link, date)))
    width = max((len(row) for row in w.rows), default=0) if w.bold_rows else 0
    spec = (__version__, width, w.column_widths, w.row_heights, w.styles, w.bold_rows, w.frozen_rows, w.frozen_cols,
            w.validations, w.hidden, w.page, kinds)
    return hashlib.sha256(repr(spec).encode()).hexdigest()[:24]


def _looks_kept(snapshot: Snapshot, writes: Sequence[TabWrite]) -> tuple[list[TabWrite], dict[str, str]]:
    """``writes`` with ``look_kept`` set on the owned tabs whose look key is the one the last sync
    remembered (restyling 1,000 rows of Итоги is a fifth of a sync's write at 1000 players), and
    every owned tab's look key for the state tab.  The state tab itself is drawn every time (it
    holds the keys; its look is one call that hides it)."""
    before = {str(row[1]): str(row[2]) for row in snapshot.tabs.get(STATE_TAB, ())
              if len(row) >= 3 and row[0] == LOOK}
    looks = {w.title: look_key(w) for w in writes if w.owned}
    kept = [replace(w, look_kept=True) if w.owned and w.title in snapshot.tabs and before.get(w.title) == looks[w.title]
            else w for w in writes]
    return kept, looks


def sync_time() -> str:
    """The time a sync's log lines carry: local, to the second, with its zone (:func:`clock.log_time`)."""
    return clock.log_time()


def _norm_value(value: object) -> object:
    if isinstance(value, Link):
        return value.text
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float, Decimal)):
        return Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    if value == "":
        return None
    return value


def _same(current, rows) -> bool:
    """The tab holds ``rows`` already (numbers compared as numbers, trailing empty cells and rows
    ignored): compared row by row, so a tab that differs is known at its first differing row."""
    if current is None:
        return False

    def row(grid, r: int) -> list:
        out = [_norm_value(v) for v in grid[r]] if r < len(grid) else []
        while out and out[-1] is None:
            out.pop()
        return out

    return all(row(current, r) == row(rows, r) for r in range(max(len(current), len(rows))))


@dataclass(kw_only=True)
class SyncReport:
    """What one sync did.  ``skipped``: the workbook was as the last sync left it, so nothing
    was computed (``outcome`` and ``snapshot`` are then None; ``summary`` has the last counts)."""

    outcome: Outcome | None
    patch: Patch
    written: bool
    snapshot: Snapshot | None
    files: list[Path] = field(default_factory=list)
    attempts: int = 1
    advanced: str | None = None  # what the sync's own advance did (a confirmed stage), for the organizer
    timings: dict[str, float] = field(default_factory=dict)
    # the same steps in this process's CPU seconds: what the bench compares on a machine shared with other work
    cpu_timings: dict[str, float] = field(default_factory=dict)
    locked: WorkbookLocked | None = None  # the workbook is open in Excel/LibreOffice: its tabs were not written
    skipped: bool = False
    summary: dict = field(default_factory=dict)
    outputs: dict[str, int] = field(default_factory=dict)  # files beside the workbook: written, kept (unchanged)
    fingerprint: str | None = None  # the workbook as the sync left it (None: not known, or skipped)

    @classmethod
    def unchanged(cls, summary: dict, timings: dict[str, float], snapshot: Snapshot | None = None) -> SyncReport:
        return cls(outcome=None, patch=Patch(), written=False, snapshot=snapshot, skipped=True,
                   summary=dict(summary), timings=timings)

    @property
    def errors(self) -> int:
        if self.outcome is None:
            return int(self.summary.get("errors", 0))
        return sum(1 for p in self.outcome.problems if p.severity is Severity.ERROR)

    @property
    def warnings(self) -> int:
        if self.outcome is None:
            return int(self.summary.get("warnings", 0))
        return sum(1 for p in self.outcome.problems if p.severity is Severity.WARNING)


def problems_patch(snapshot: Snapshot, problems: Sequence[Problem], language: str | None = None) -> Patch:
    """Only the Problems tab, holding ``problems`` (in ``language``, else the Tournament tab's): what
    a cycle that cannot compute the standings shows; every other tab keeps what the last good
    cycle wrote.  The workbook's own Problems tab is rewritten whatever language titles it."""
    from sheets_sync.render.tabs import problems_tab

    if language is None:
        try:
            language = read_settings(snapshot.tabs).language
        except Exception:  # noqa: BLE001 - reporting a failure must not fail on the same input
            language = "ru"
    tab = problems_tab(list(problems), language, links=False)  # no name: the settings may be what failed
    existing = find_tab(snapshot.tabs, "problems")
    if existing is not None and existing != tab.title:
        tab = replace(tab, title=existing)
    return Patch(writes=(tab,) if not _same(snapshot.tabs.get(tab.title), tab.rows) else ())


def internal_error_patch(snapshot: Snapshot, error: str, log: str) -> Patch:
    """The Problems tab saying that the sync itself failed (``watch`` shows it to the hall
    instead of dying)."""
    return problems_patch(snapshot, [problem("internal.error", Severity.ERROR, None, error=error, log=log)])


def _show_stop(backend: Backend, snapshot: Snapshot, problems: Sequence[Problem], language: str | None) -> None:
    """Say on the Problems tab why the cycle stopped (best effort: the command line and the
    server's page say it anyway, and nothing else is written)."""
    patch = problems_patch(snapshot, problems, language)
    if not patch.empty:
        try:
            backend.apply(patch, base=snapshot)
        except TransientError:
            pass


def tabs_fingerprint(snapshot: Snapshot, skip: set[str]) -> str:
    """Hash of every tab's title and values but those whose normalised title is in ``skip``."""
    return values_fingerprint(snapshot, skip={t for t in snapshot.order if L.norm(t) in skip}, protections=False)


def input_fingerprint(snapshot: Snapshot, preset: Preset) -> str:
    """Hash of the tabs people type into: the sync's own writes never change it."""
    return tabs_fingerprint(snapshot, owned_titles(preset))


def _sync_key(backend: Backend, outcome: Outcome, fingerprint: str | None) -> SyncKey | None:
    """The key of the workbook as this sync leaves it (``fingerprint``); None when that is not
    known (a write to a backend that cannot say what it wrote: the next sync runs in full)."""
    from sheets_sync.presets import is_preset_file, preset_path

    if fingerprint is None:
        return None
    ref = outcome.settings.preset_id or DEFAULT_PRESET
    preset_file = ""
    if is_preset_file(ref):
        try:
            preset_file = str(preset_path(ref, base_dir=workbook_folder(backend.source)).resolve())
        except Exception:  # noqa: BLE001 - no file to version: never skip on it
            return None
    return SyncKey(source=str(backend.source), workbook=fingerprint, preset_file=preset_file,
                   preset_version=file_version(Path(preset_file)) if preset_file else "")


def sync_summary(outcome: Outcome) -> dict[str, object]:
    """The counts a sync remembers and a dashboard shows: games counted and planned, errors,
    warnings, the name, the language."""
    return {"games": len(outcome.results.counted),
            "planned": planned_games(outcome),
            "errors": sum(1 for p in outcome.problems if p.severity is Severity.ERROR),
            "warnings": sum(1 for p in outcome.problems if p.severity is Severity.WARNING),
            "name": outcome.results.tournament.name, "language": outcome.language}


def planned_games(outcome: Outcome) -> int:
    """The games seated or played, and the counted games whose tab is gone since (still games of
    the tournament: «37 из 38», not «37 из 37»); while the Seating tab is gone, at least the plan
    the last sync knew."""
    from scoring.progress import progress, scheduled_games

    t, gone = outcome.results.tournament, outcome.vanished
    planned = progress(outcome.results).games_total + gone.unplanned(scheduled_games(t.seating, t.protocols))
    return max(planned, gone.planned) if gone.seating else planned


def record_summary(outcome: Outcome) -> dict[str, object]:
    """:func:`sync_summary` and what the next sync compares with (:func:`scoring.vanished.vanished`):
    the games counted, with their tabs, and those gone still to be named; whether there is a seating."""
    games = counted_games(outcome.results.counted) + outcome.vanished.remembered
    return {**sync_summary(outcome), "counted": [[g.tab, g.stage, g.round, g.table] for g in games],
            "seating": bool(outcome.results.tournament.seating) or outcome.vanished.seating}


def publish_files(outcome: Outcome, out_dir: Path, *, updated: datetime | None = None,
                  link: str | None = None) -> list[Path]:
    """:func:`sheets_sync.loop.publish.publish_files`, imported when first called: the renderers' modules
    (Jinja2 and Pillow among them) load only in a sync that has files to write (a dry run, a sync
    with nothing changed and the tests of the core do without them).  ``link``: the VK post's
    link (the server's hosted site) before the Tournament tab's «Ссылка»."""
    from sheets_sync.loop.publish import publish_files as publish

    return publish(outcome, out_dir, updated=updated, link=link)


def _patch(snapshot: Snapshot, outcome: Outcome, backend: Backend, stamp: str, dry_run: bool) -> tuple[Patch, str | None]:
    """The cycle's patch, with the next stage seated in the same write when one was just confirmed
    (the state tab then remembers the seated names as written: the next Журнал logs none of them)."""
    stage_patch, advanced = None, None
    if not dry_run and outcome.settings.confirmed:  # the chief judge confirmed a stage: seat the next one
        from sheets_sync.actions.draw import auto_advance, prefilled_values  # the draw's modules load only then

        stage_patch, advanced = auto_advance(outcome)
        if stage_patch is not None:
            outcome = replace(outcome, values=prefilled_values(outcome.values, stage_patch, snapshot.tabs,
                                                               outcome.language))
    patch = build_patch(snapshot, outcome, links=backend.link_supported(), when=stamp, account=backend.account_email)
    if stage_patch is not None:
        patch = replace(patch, writes=patch.writes + stage_patch.writes)
    return patch, advanced


class _Laps:
    """How long each step of the cycle took, summed over its attempts (the report's ``timings``)."""

    def __init__(self) -> None:
        self.times: dict[str, float] = {}
        self.cpu: dict[str, float] = {}
        self._last = time.perf_counter()
        self._last_cpu = time.process_time()

    def lap(self, step: str) -> dict[str, float]:
        now, cpu = time.perf_counter(), time.process_time()
        self.times[step] = self.times.get(step, 0.0) + now - self._last
        self.cpu[step] = self.cpu.get(step, 0.0) + cpu - self._last_cpu
        self._last, self._last_cpu = now, cpu
        return self.times


def _last_sync(memory: SyncMemory | None, backend: Backend, fingerprint: str | None) -> dict | None:
    """The last sync's summary when the workbook (``fingerprint``) and all else is as it left them."""
    return memory.unchanged(str(backend.source), fingerprint) if memory is not None else None


def _computed(backend: Backend, snapshot: Snapshot, compute_outcome: Callable[..., Outcome],
              memory: SyncMemory | None, dry_run: bool, out_dir: Path | None) -> Outcome:
    """The outcome of ``snapshot``; a preset that cannot be loaded (the last sync's record is then
    forgotten: nothing of it holds) or a missing tab the reading needs is said on the Problems tab
    and raised."""
    try:
        record = (memory or SyncMemory(out_dir)).record() if out_dir is not None else None
        return compute_outcome(snapshot, base_dir=workbook_folder(backend.source), last=last_sync(record))
    except PresetUnavailable as exc:
        if memory is not None:
            memory.forget()
        if not dry_run:
            _show_stop(backend, snapshot, [exc.problem], None)
        raise
    except WorkbookIncomplete as exc:  # the last good sync's record stays: it knows what counted
        if not dry_run:
            _show_stop(backend, snapshot, exc.problems, exc.language)
        raise


def _write(backend: Backend, patch: Patch, snapshot: Snapshot, dry_run: bool) -> tuple[bool, str | None, WorkbookLocked | None]:
    """Write ``patch`` unless it is empty or a dry run: (written, the workbook's fingerprint as
    the sync leaves it, the lock of a workbook open in Excel).  :class:`WorkbookChanged` passes."""
    if dry_run or patch.empty:
        return False, snapshot.fingerprint, None
    try:
        return True, backend.apply(patch, base=snapshot), None
    except WorkbookLocked as exc:  # open in Excel: the files beside it are still written, no key is kept
        return False, None, exc


def _publish(publish: Callable[..., list[Path]], outcome: Outcome, out_dir: Path, memory: SyncMemory | None,
             key: SyncKey | None) -> tuple[list[Path], dict[str, int]]:
    """The files in ``out_dir``, and (with a memory) the record of this sync under ``key``:
    (files written, how many were written, kept and reused)."""
    updated = clock.now()  # the time the outputs say they were made
    if memory is None:
        return publish(outcome, out_dir, updated=updated), {}
    with memory.recording() as log:
        files = publish(outcome, out_dir, updated=updated)
    memory.save(key, log, record_summary(outcome))
    return files, {"written": log.written, "kept": log.kept, "reused": log.reused}


def _change_log(backend: Backend, outcome: Outcome, stamp: str, out_dir: Path) -> list[Path]:
    """``log.jsonl`` in the output folder of a local workbook whose state was written (an
    unwritten state logs the same changes again next time); nothing for Google or memory."""
    return append_jsonl(out_dir, outcome.changes, stamp) if Path(str(backend.source)).is_file() else []


def sync_once(backend: Backend, *, out_dir: Path | None, retries: int = 3, dry_run: bool = False,
              snapshot: Snapshot | None = None, when: str | None = None, remember: bool = True,
              compute_outcome: Callable[..., Outcome] = compute,
              publish: Callable[..., list[Path]] = publish_files) -> SyncReport:
    """Read, compute, write, publish; if the workbook changed under us, start again from a fresh
    read.  The changes since the last sync go to the Log tab and, for a local workbook whose state
    was written, to ``log.jsonl`` in ``out_dir`` (``when``: the time the log says, default now).

    With ``out_dir`` (and ``remember``), a workbook that is exactly as the last sync into that
    folder left it — same fingerprint, preset, templates and package — is not computed again
    (:mod:`sheets_sync.loop.sync_memory`): the report says ``skipped`` and nothing is written.  A
    ``snapshot`` the caller read (watch) has been found changed already: it is computed.
    ``compute_outcome`` and ``publish`` are the two expensive steps, injectable so that tests
    can count what a sync really recomputes and renders."""
    memory = SyncMemory(out_dir) if out_dir is not None and not dry_run and remember else None
    if out_dir is not None and not dry_run:  # what a sync killed mid-write left (in the served site too) goes first
        remove_stale_temps(out_dir)
        remove_stale_temps(out_dir / "site", tree=True)
    laps, given = _Laps(), snapshot
    if given is None and (summary := _last_sync(memory, backend, backend.fingerprint())) is not None:
        return SyncReport.unchanged(summary, laps.lap("read"))
    attempt = 0
    while True:
        attempt += 1
        snapshot = workbook_view(given) if given is not None and attempt == 1 else read_workbook(backend)
        if given is None and attempt == 1 and (summary := _last_sync(memory, backend, snapshot.fingerprint)) is not None:
            return SyncReport.unchanged(summary, laps.lap("read"), snapshot=snapshot)
        laps.lap("read")
        outcome = _computed(backend, snapshot, compute_outcome, memory, dry_run, out_dir)
        stamp = when or sync_time()
        patch, advanced = _patch(snapshot, outcome, backend, stamp, dry_run)
        laps.lap("compute")
        try:
            written, fingerprint, locked = _write(backend, patch, snapshot, dry_run)
        except WorkbookChanged:
            if attempt >= retries:
                raise
            continue
        laps.lap("write")
        files, outputs = [], {}
        if out_dir is not None and not dry_run:
            key = _sync_key(backend, outcome, fingerprint) if memory is not None else None
            files, outputs = _publish(publish, outcome, out_dir, memory, key)
        if written and out_dir is not None:
            files += _change_log(backend, outcome, stamp, out_dir)
        return SyncReport(outcome=outcome, patch=patch, written=written, snapshot=snapshot, files=files,
                          attempts=attempt, advanced=advanced, locked=locked, outputs=outputs,
                          fingerprint=fingerprint, timings=laps.lap("files"), cpu_timings=laps.cpu)
