"""One sync cycle: read → parse → validate → score → rank → render → write.

The data flows one way.  :func:`sheets_sync.outcome.compute` is pure given a snapshot and
preset files; :func:`build_patch` turns its outcome into a :class:`Patch` of owned tabs and
marks; :func:`sync_once` reads, computes, writes the workbook and the public files beside it
(:mod:`sheets_sync.publish`), and starts over from a fresh read when the workbook changed
under it.

Two refusals are not failures of the whole cycle:

* a workbook open in Excel or LibreOffice (a lock file beside it) is read and computed as
  usual and its files are written; only the workbook's own tabs wait (the report's
  ``locked``) until the file is closed — ``watch`` keeps trying;
* a preset that cannot be loaded stops the cycle (:class:`~sheets_sync.outcome.PresetUnavailable`):
  only the Problems tab is written, saying so, and nothing is published.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path

from scoring import labels as L
from sheets_sync import clock
from scoring.liveness import current_liveness
from scoring.race import race
from scoring.standings import published
from scoring.parse import owned_titles, read_settings
from scoring.preset import Preset
from scoring.problems import Problem, Severity, cell_names, problem
from sheets_sync.backends.base import (
    STATE_TAB,
    Backend,
    Mark,
    Patch,
    Snapshot,
    TabWrite,
    TransientError,
    WorkbookChanged,
    WorkbookLocked,
)
from sheets_sync.changelog import append_jsonl, is_trust_row, log_tab, state_rows as trust_state_rows
from sheets_sync.draw_commands import auto_advance
from sheets_sync.outcome import (
    DEFAULT_PRESET,
    Outcome,
    PresetUnavailable,
    compute,
    read_workbook,
    workbook_view,
)
from sheets_sync.overlap import in_child
from sheets_sync.protection import protection_changes, state_rows as protection_state_rows, wanted_protections
from sheets_sync.refs import workbook_folder
from sheets_sync.render.season_tabs import owned_season_tabs
from sheets_sync.render.tabs import owned_tabs
from sheets_sync.render.words import ru_en

__all__ = ["Outcome", "compute", "build_patch", "sync_once", "SyncReport", "DEFAULT_PRESET", "internal_error_patch",
           "problems_patch", "input_fingerprint", "workbook_fingerprint"]

# -- marks ---------------------------------------------------------------------------------------
def _wanted_marks(problems: Sequence[Problem], input_tabs: set[str], language: str) -> dict[tuple[str, str], Mark]:
    """Fill and note for every cell of every problem; a problem of several cells marks each of
    them, and each note names the problem's other cells."""
    grouped: dict[tuple[str, str], list[tuple[Severity, str]]] = {}
    for p in problems:
        for loc in p.locations:
            if loc.sheet not in input_tabs:
                continue
            line = p.message(language)
            others = [o for o in p.locations if o != loc]
            if others:
                line += "\n" + ru_en("Другие ячейки этой проблемы: ", "Other cells of this problem: ", language) \
                    + cell_names(others, loc.sheet)
            grouped.setdefault((loc.sheet, loc.cell), []).append((p.severity, line))
    marks = {}
    for (sheet, cell), items in grouped.items():
        severity = "error" if any(sev is Severity.ERROR for sev, _ in items) else "warning"
        # errors first; the note is kept to what every backend stores unchanged, so that the
        # state tab compares equal on the next sync and an unchanged mark is not rewritten
        items = sorted(items, key=lambda item: item[0] is not Severity.ERROR)
        note = "\n".join(dict.fromkeys(line for _, line in items))
        note = _NOTE_UNSAFE.sub("\ufffd", note)
        if len(note) > _NOTE_MAX:
            note = note[: _NOTE_MAX - 1] + "…"
        marks[(sheet, cell)] = Mark(sheet=sheet, cell=cell, severity=severity, note=note)
    return marks


_NOTE_MAX = 2000
_NOTE_UNSAFE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _previous_marks(snapshot: Snapshot) -> dict[tuple[str, str], tuple[str, str]]:
    grid = snapshot.tabs.get(STATE_TAB, ())
    marks = {}
    for row in grid[1:]:
        if is_trust_row(row):  # confirmations and typed values (sheets_sync.changelog)
            continue
        if len(row) >= 2 and row[0] and row[1]:
            marks[(str(row[0]), str(row[1]))] = (str(row[2]) if len(row) > 2 and row[2] else "", str(row[3]) if len(row) > 3 and row[3] else "")
    return marks


def build_patch(snapshot: Snapshot, outcome: Outcome, *, links: bool = True, when: str | None = None,
                account: str | None = None) -> Patch:
    """Owned tabs in full, marks to set and to clear, the Log tab with the changes since the last
    sync (stamped ``when``, default now), the state tab that remembers marks, confirmations,
    typed values and protections, and the protections the workbook lacks (``account``: the
    sync's own e-mail, an editor of every protection; :mod:`sheets_sync.protection`)."""
    language = outcome.language
    tabs = owned_season_tabs if outcome.results.tournament.season else owned_tabs  # a club season: its own
    writes = tabs(outcome.results, outcome.problems, language, links=links)
    writes.append(log_tab(snapshot, outcome.changes, when or sync_time(), language, outcome.preset.log_rows))
    # marks go only into tabs people type into: every tab but those the sync owns (in either language)
    owned = owned_titles(outcome.preset)
    input_tabs = {t for t in snapshot.order if L.norm(t) not in owned}
    wanted = _wanted_marks(outcome.problems, input_tabs, language)
    previous = _previous_marks(snapshot)
    set_marks = tuple(m for key, m in sorted(wanted.items()) if previous.get(key) != (m.severity, m.note))
    clear = tuple(sorted(key for key in previous if key not in wanted and key[0] in snapshot.tabs))
    state_rows = [("sheet", "cell", "severity", "note")] + [(m.sheet, m.cell, m.severity, m.note) for _, m in sorted(wanted.items())]
    state_rows += trust_state_rows(outcome.remember, outcome.values)
    protections = wanted_protections(snapshot, outcome, writes, account)
    state_rows += protection_state_rows(snapshot, protections)
    state = TabWrite(title=STATE_TAB, rows=tuple(state_rows), hidden=True)
    writes.append(state)
    # write only what differs from what the workbook holds now
    changed = tuple(w for w in writes if not _same(snapshot.tabs.get(w.title), w.rows))
    protect, unprotect = protection_changes(snapshot, protections, changed)
    return Patch(writes=changed, set_marks=set_marks, clear_marks=clear, protect=protect, unprotect=unprotect)


def sync_time() -> str:
    """The time a sync's log lines carry: UTC, to the second."""
    from datetime import UTC, datetime

    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def _norm_value(value: object) -> object:
    from decimal import Decimal

    from sheets_sync.backends.base import Link

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
    if current is None:
        return False
    def trimmed(grid):
        out = [tuple(_norm_value(v) for v in row) for row in grid]
        out = [row[: max((i + 1 for i, v in enumerate(row) if v is not None), default=0)] for row in out]
        while out and not out[-1]:
            out.pop()
        return out
    return trimmed(current) == trimmed(rows)


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
    locked: WorkbookLocked | None = None  # the workbook is open in Excel/LibreOffice: its tabs were not written
    skipped: bool = False
    summary: dict = field(default_factory=dict)
    outputs: dict[str, int] = field(default_factory=dict)  # files beside the workbook: written, kept (unchanged)

    @classmethod
    def unchanged(cls, summary: dict, backend: Backend, timings: dict[str, float],
                  snapshot: Snapshot | None = None) -> SyncReport:
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


def problems_patch(snapshot: Snapshot, problems: Sequence[Problem]) -> Patch:
    """Only the Problems tab, holding ``problems``: what a cycle that cannot compute the
    standings shows; every other tab keeps what the last good cycle wrote."""
    from sheets_sync.render.tabs import problems_tab

    try:
        language = read_settings(snapshot.tabs).language
    except Exception:  # noqa: BLE001 - reporting a failure must not fail on the same input
        language = "ru"
    tab = problems_tab(list(problems), language, links=False)
    return Patch(writes=(tab,) if not _same(snapshot.tabs.get(tab.title), tab.rows) else ())


def internal_error_patch(snapshot: Snapshot, error: str, log: str) -> Patch:
    """The Problems tab saying that the sync itself failed (``watch`` shows it to the hall
    instead of dying)."""
    return problems_patch(snapshot, [problem("internal.error", Severity.ERROR, None, error=error, log=log)])


def _show_unavailable_preset(backend: Backend, snapshot: Snapshot, exc: PresetUnavailable) -> None:
    """Say on the Problems tab that the preset cannot be loaded (best effort: the command
    line says it anyway, and nothing else is written)."""
    patch = problems_patch(snapshot, [exc.problem])
    if not patch.empty:
        try:
            backend.apply(patch, base=snapshot)
        except TransientError:
            pass


def tabs_fingerprint(snapshot: Snapshot, skip: set[str]) -> str:
    """Hash of every tab's title and values but those whose normalised title is in ``skip``."""
    h = hashlib.sha256()
    for title in snapshot.order:
        if L.norm(title) in skip:
            continue
        h.update(b"\x00T" + title.encode())
        for row in snapshot.tabs.get(title, ()):
            h.update(b"\x00R" + repr(row).encode())
    return h.hexdigest()


def input_fingerprint(snapshot: Snapshot, preset: Preset) -> str:
    """Hash of the tabs people type into: the sync's own writes never change it."""
    return tabs_fingerprint(snapshot, owned_titles(preset))


def workbook_fingerprint(backend: Backend, snapshot: Snapshot) -> str | None:
    """The whole workbook's fingerprint as read: the backend's own (an .xlsx: its bytes) or,
    without one, every tab's values (a Google spreadsheet, an input + results workbook pair)."""
    own = getattr(backend, "snapshot_fingerprint", None)
    if own is not None:
        return own(snapshot)
    h = hashlib.sha256(tabs_fingerprint(snapshot, set()).encode())
    if snapshot.protections:  # a protection taken away is a change to answer (put it back)
        h.update(b"\x00protections" + repr(sorted((p.key, p.editors) for p in snapshot.protections)).encode())
    if snapshot.results_workbook is not None:
        h.update(b"\x00results" + tabs_fingerprint(snapshot.results_workbook, set()).encode())
    return h.hexdigest()


def _sync_key(backend: Backend, snapshot: Snapshot, outcome: Outcome, written: bool):
    """The key of the workbook as this sync leaves it; None when that is not known (a write
    to a backend that cannot say what it wrote: the next sync runs in full and records it)."""
    from sheets_sync.presets import is_preset_file, preset_path
    from sheets_sync.sync_memory import SyncKey, file_version

    fingerprint = getattr(backend, "written_fingerprint", None) if written else workbook_fingerprint(backend, snapshot)
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


def _summary(outcome: Outcome) -> dict[str, object]:
    return {"games": len(outcome.results.counted),
            "errors": sum(1 for p in outcome.problems if p.severity is Severity.ERROR),
            "warnings": sum(1 for p in outcome.problems if p.severity is Severity.WARNING),
            "name": outcome.results.tournament.name, "language": outcome.language}


def publish_files(outcome: Outcome, out_dir: Path, *, updated: datetime | None = None,
                  share: str | None = None) -> list[Path]:
    """:func:`sheets_sync.publish.publish_files`, imported when first called: the renderers' modules
    (Jinja2 and Pillow among them) load only in a sync that has files to write (a dry run, a sync
    with nothing changed and the tests of the core do without them)."""
    from sheets_sync.publish import publish_files as publish

    return publish(outcome, out_dir, updated=updated, share=share)


# the two shares of the files (sheets_sync.publish.SHARES, named here so that the sync does not
# import the rendering modules): what needs the race, and the rest
_SHARES = ("race", "other")


def _publish_recorded(publish, outcome: Outcome, out_dir: Path, memory, updated, share: str | None = None):
    """The files of ``outcome`` (one share of them, or all) and the log of what was written (None
    without a memory)."""
    kw = {"updated": updated} if share is None else {"updated": updated, "share": share}
    if memory is None:
        return publish(outcome, out_dir, **kw), None
    with memory.recording() as log:
        files = publish(outcome, out_dir, **kw)
    return files, log


def _ready_to_publish(outcome: Outcome) -> None:
    """What the Standings tab (here) and every rendering child ask for, worked out once before
    the children are forked and remembered in all of them (scoring.memo): the public view of the
    results, who can still qualify, the race over the rounds; and the renderers' modules, loaded
    once.  Done before a quick reading is settled: the time this process would otherwise spend
    waiting for openpyxl's values (sheets_sync.backends.excel_worker)."""
    public = published(outcome.results)
    current_liveness(outcome.results)
    current_liveness(public)
    race(public)
    import sheets_sync.publish  # noqa: F401  (the children's rendering modules: imported once, here)


class _Publishing:
    """The files being rendered: in two forked children side by side (each one share) where the
    platform can fork, else here when asked for.  The renderers' modules, the race and who can
    still qualify were loaded and worked out before the fork (:func:`_ready_to_publish`), so the
    two children share them and split the pages."""

    def __init__(self, start: Callable[[str | None], Callable[[], tuple]], parallel: bool):
        self.pending = [in_child(start(share), enabled=parallel) for share in _SHARES]
        if not all(p.forked for p in self.pending):  # no fork (or only one): all of it, here, in one go
            for p in self.pending:
                _reap(p)
            self.pending = [in_child(start(None), enabled=False)]

    @property
    def forked(self) -> bool:
        return any(p.forked for p in self.pending)

    def result(self) -> tuple[list[Path], object]:
        """(files written, the output log of both shares together) — every child waited for
        even when one of them failed."""
        answers, error = [], None
        for p in self.pending:
            try:
                answers.append(p.result())
            except BaseException as exc:  # noqa: BLE001 - the other child is still waited for
                error = error or exc
        if error is not None:
            raise error
        files = sorted(f for fs, _ in answers for f in fs)  # the same list however the work was shared
        logs = [log for _, log in answers if log is not None]
        if not logs:
            return files, None
        from sheets_sync.files import OutputLog

        merged = OutputLog(root=logs[0].root, previous=logs[0].previous)
        for log in logs:
            merged.current.update(log.current)
            merged.inputs.update(log.inputs)
            merged.written += log.written
            merged.kept += log.kept
            merged.reused += log.reused
        return files, merged


def _patch(snapshot: Snapshot, outcome: Outcome, backend: Backend, stamp: str, dry_run: bool) -> tuple[Patch, str | None]:
    """The cycle's patch, with the next stage seated in the same write when one was just confirmed."""
    patch = build_patch(snapshot, outcome, links=backend.link_supported(), when=stamp,
                        account=getattr(backend, "account_email", None))
    password = getattr(backend, "protect_password", None)  # an .xlsx's --protect-password
    if password and patch.protect:
        patch = replace(patch, protect_password=password)
    advanced = None
    if not dry_run:
        stage_patch, advanced = auto_advance(outcome)
        if stage_patch is not None:
            patch = replace(patch, writes=patch.writes + stage_patch.writes)
    return patch, advanced


def _reap(publishing) -> None:
    """Wait for the rendering child of a cycle that fails: no child left behind."""
    if publishing is not None and publishing.forked:
        with contextlib.suppress(Exception):  # the cycle's own error is the one to tell
            publishing.result()


def sync_once(backend: Backend, *, out_dir: Path | None, retries: int = 3, dry_run: bool = False,
              snapshot: Snapshot | None = None, when: str | None = None, remember: bool = True,
              compute_outcome: Callable[..., Outcome] = compute,
              publish: Callable[..., list[Path]] = publish_files, parallel: bool = True) -> SyncReport:
    """Read, compute, write; if the workbook changed under us, start again from a fresh read.
    The changes since the last sync go to the Log tab and, for a local workbook whose state was
    written, to ``log.jsonl`` beside it (``when``: the time the log says, default now).

    With ``out_dir`` (and ``remember``), a workbook that is exactly as the last sync into that
    folder left it — same fingerprint, preset, templates and package — is not computed again
    (:mod:`sheets_sync.sync_memory`): the report says ``skipped`` and nothing is written.
    ``compute_outcome`` and ``publish`` are the two expensive steps, injectable so that tests
    can count what a sync really recomputes and renders.  With ``parallel`` the files are
    rendered in a forked child while the workbook is saved (:mod:`sheets_sync.overlap`)."""
    try:
        return _sync(backend, out_dir=out_dir, retries=retries, dry_run=dry_run, snapshot=snapshot, when=when,
                     remember=remember, compute_outcome=compute_outcome, publish=publish, parallel=parallel)
    finally:
        gc.unfreeze()
        release = getattr(backend, "release", None)
        if release is not None:  # a worker holding openpyxl's workbook that had nothing to write
            release()


def _sync(backend: Backend, *, out_dir: Path | None, retries: int, dry_run: bool, snapshot: Snapshot | None,
          when: str | None, remember: bool, compute_outcome: Callable[..., Outcome], publish: Callable[..., list[Path]],
          parallel: bool) -> SyncReport:
    from sheets_sync.sync_memory import SyncMemory

    memory = SyncMemory(out_dir) if out_dir is not None and not dry_run and remember else None
    # a caller that read the workbook itself (watch) has decided already that it changed
    may_skip = memory is not None and snapshot is None
    attempt = 0
    while True:
        attempt += 1
        t0 = time.perf_counter()
        if may_skip and attempt == 1:
            quick = getattr(backend, "quick_fingerprint", None)
            if quick is not None:  # an .xlsx: its bytes say it without openpyxl
                summary = memory.unchanged(str(backend.source), quick())
                if summary is not None:
                    return SyncReport.unchanged(summary, backend, {"read": time.perf_counter() - t0})
        snapshot = read_workbook(backend) if snapshot is None or attempt > 1 else workbook_view(snapshot)
        # what was just read (openpyxl's whole workbook) lives until the save: the collector
        # need not walk it again and again while the standings and pages are built
        gc.freeze()
        t1 = time.perf_counter()
        if may_skip and attempt == 1 and getattr(backend, "quick_fingerprint", None) is None:
            summary = memory.unchanged(str(backend.source), workbook_fingerprint(backend, snapshot))
            if summary is not None:
                return SyncReport.unchanged(summary, backend, {"read": t1 - t0}, snapshot=snapshot)
        try:
            outcome = compute_outcome(snapshot, base_dir=workbook_folder(backend.source))
            publishes = out_dir is not None and not dry_run
            # a quick reading of the workbook (sheets_sync.backends.excel_worker) is compared with
            # openpyxl's before anything computed from it is written; if they differ, openpyxl's counts.
            # While openpyxl's values are still on their way, what the rendering needs is worked out.
            settle = getattr(backend, "settle", None)
            settle_ready = getattr(backend, "settle_ready", None)
            if publishes and settle_ready is not None and not settle_ready(snapshot):
                _ready_to_publish(outcome)
            if settle is not None and (settled := settle(snapshot)) is not snapshot:
                snapshot = settled
                outcome = compute_outcome(snapshot, base_dir=workbook_folder(backend.source))
        except PresetUnavailable as exc:
            if memory is not None:
                memory.forget()
            if not dry_run:
                _show_unavailable_preset(backend, snapshot, exc)
            raise
        stamp = when or sync_time()
        patch, advanced = _patch(snapshot, outcome, backend, stamp, dry_run)
        prepare = getattr(backend, "prepare", None)
        if not dry_run and not patch.empty and prepare is not None:
            prepare(patch, base=snapshot)  # an .xlsx's worker saves it while the files are rendered
        # the files beside the workbook are rendered in child processes while the workbook is
        # saved; they depend on the outcome only
        publishing = None
        if publishes:
            _ready_to_publish(outcome)  # (remembered: nothing to do when done while settling)
            updated = clock.now()  # the time the outputs say they were made
            publishing = _Publishing(
                lambda share: lambda: _publish_recorded(publish, outcome, out_dir, memory, updated, share), parallel)
        t2 = time.perf_counter()
        written = False
        locked = None
        if not dry_run and not patch.empty:
            try:
                backend.apply(patch, base=snapshot)
                written = True
            except WorkbookChanged:
                if publishing is not None:
                    publishing.result()  # let the child finish; the next attempt writes again
                if attempt >= retries:
                    raise
                continue
            except WorkbookLocked as exc:  # open in Excel: the files beside it are still written
                locked = exc
            except BaseException:
                _reap(publishing)
                raise
        t3 = time.perf_counter()
        files: list[Path] = []
        outputs: dict[str, int] = {}
        if publishing is not None:
            files, log = publishing.result()
            if memory is not None and log is not None:
                outputs = {"written": log.written, "kept": log.kept, "reused": log.reused}
                # a workbook whose tabs wait (open in Excel) is not as this sync wants it: no key
                key = None if locked is not None else _sync_key(backend, snapshot, outcome, written)
                memory.save(key, log, _summary(outcome))
        if written and Path(str(backend.source)).is_file():  # a local workbook (not Google, not in memory);
            # an unwritten state logs the same changes again next time, so only a written one appends
            files += append_jsonl(Path(str(backend.source)).resolve().parent, outcome.changes, stamp)
        t4 = time.perf_counter()
        return SyncReport(outcome=outcome, patch=patch, written=written, snapshot=snapshot, files=files, attempts=attempt,
                          advanced=advanced, locked=locked, outputs=outputs,
                          timings={"read": t1 - t0, "compute": t2 - t1, "write": t3 - t2, "files": t4 - t3})
