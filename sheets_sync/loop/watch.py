"""`watch`: keep the standings current while games are played.

loop { if the workbook's fingerprint changed: read; if the values' hash changed → compute →
write what differs → one line per change }.  Transient errors (quota, network, a judge saving
at the same moment) are reported and retried on the next poll; Ctrl-C stops cleanly between
cycles.  For a local file the backend's cheap fingerprint (its bytes' hash) decides whether to
read at all, and file events (:mod:`sheets_sync.loop.file_events`: inotify, FSEvents,
ReadDirectoryChangesW) wake the loop as soon as it is saved — the interval is then only the
longest wait; elsewhere the loop polls every interval.  Our own save wakes it too, but the
fingerprint the write returned is the file's now, so one save is one cycle.

A workbook caught in the middle of a save (Excel writes it in place or replaces it: for a
moment it is empty, cut short, missing or locked) is waited for: read again a second later,
quietly — one short note if it takes more than a few seconds, and the error only when the file
stays unreadable for :data:`SAVE_GRACE` seconds (then it is broken, not being saved).

A workbook open in Excel or LibreOffice is still read and its files (site, JSON, VK post)
are written; the write of its tabs is retried on every poll until the file is closed.  A
workbook that is not there when the watch starts (or cannot be read at all) ends it with
the message: there is nothing to wait for.  Lines are said in the tournament's language
(or ``language``, the ``--language`` given).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from scoring.errors import SheetsSyncError
from scoring.parse import read_settings
from scoring.problems import Severity
from sheets_sync.backends.base import (
    STATE_TAB,
    Backend,
    PermissionDenied,
    Snapshot,
    TransientError,
    WorkbookNotFound,
    WorkbookUnreadable,
)
from sheets_sync.messages import system_language, text
from sheets_sync.loop.outcome import read_workbook
from sheets_sync.loop.sync import (
    SyncReport,
    input_fingerprint,
    internal_error_patch,
    sync_once,
    tabs_fingerprint,
)

__all__ = ["Watcher", "run_watch", "SAVE_GRACE", "SAVE_NOTE_AFTER"]

SAVE_GRACE = 30.0  # seconds a workbook may stay unreadable (a save under way) before it is an error
SAVE_NOTE_AFTER = 3.0  # a save that takes longer than this is mentioned, once
SAVE_RETRY = 1.0  # seconds to the next look while a save is under way
# what a save under way looks like: a file cut short or empty, gone for a moment (replaced), locked (Windows)
_SAVING = (WorkbookUnreadable, WorkbookNotFound, PermissionDenied)


class Watcher:
    """One poll at a time; keeps what it needs to tell what changed."""

    def __init__(self, backend: Backend, *, out_dir: Path | None, say: Callable[[str], None],
                 workbook: str | None = None, language: str | None = None):
        self.backend = backend
        self.intro: tuple[str, float] | None = None  # (source, interval): said before the first line
        self.pinned_language = language  # --language; else the tournament's once read
        self.tournament_language: str | None = None
        self.pending_hash: str | None = None  # input computed while the workbook was open in Excel (not written)
        self.out_dir = out_dir
        self._say = say
        self.last_hash: str | None = None
        self.preset = None
        # the workbook as the last cycle left it (the fingerprint its write returned, or of its read)
        self.last_fingerprint: str | None = None
        self.last_tabs: dict = {}
        self.last_places: dict[str, str] = {}
        self.cycles = 0
        self.writes = 0
        self.failures = 0
        self.last_problem: str | None = None  # the last failure said, so a retry loop is not a flood
        self.workbook = workbook  # as the organizer typed it: where the error log goes
        self.failed_input: str | None = None  # fingerprint of an input the sync failed on (a bug)
        self.last_internal: str | None = None
        self.log_path = Path("-")
        self.clock = time.monotonic
        self.read_once = False  # a read succeeded: a workbook missing or locked later is being saved
        self.saving_since: float | None = None  # when the workbook was first found mid-save (None: it is not)
        self.saving_noted = False
        self.save_given_up = False

    @property
    def language(self) -> str:
        return self.pinned_language or self.tournament_language or system_language()

    def words(self, key: str, **values: object) -> str:
        return text(key, self.language, **values)

    def say(self, line: str) -> None:
        """Say ``line``; the first line of a watch is preceded by what it watches, in the
        tournament's language when the workbook could be read by then."""
        if self.intro is not None:
            source, interval = self.intro
            self.intro = None
            self._say(self.words("watch.start", source=escape(source), interval=f"{interval:g}"))
        self._say(line)

    def complain(self, line: str) -> None:
        """Say a failure once; say it again only when it changes (or after a success)."""
        self.failures += 1
        if line != self.last_problem:
            self.say(line)
        self.last_problem = line

    def poll(self) -> SyncReport | None:
        """Run one cycle if the input changed; return its report (None when idle or failed)."""
        self.cycles += 1
        now = self.backend.fingerprint()
        if now is not None and now == self.last_fingerprint and (self.last_hash is not None or self.failed_input is not None):
            return None
        snapshot = None
        try:
            snapshot = read_workbook(self.backend)
            self.read_once, self.saving_since, self.saving_noted, self.save_given_up = True, None, False, False
            self.tournament_language = read_settings(snapshot.tabs).language
            if self.failed_input is not None and _failure_fingerprint(snapshot) == self.failed_input:
                self.last_fingerprint = snapshot.fingerprint  # the input the sync failed on: do not fail on it again
                return None
            if self.preset is not None and input_fingerprint(snapshot, self.preset) == self.last_hash:
                self.last_fingerprint = snapshot.fingerprint
                return None
            report = sync_once(self.backend, out_dir=self.out_dir, snapshot=snapshot)
        except TransientError as exc:
            self.complain(f"[yellow]{self.words('watch.retry')}[/yellow] {escape(exc.message(self.language))}")
            return None
        except _SAVING as exc:
            if self._mid_save(exc):
                return None
            raise  # not a save: said by run_watch (or, at the start, ends the watch)
        except SheetsSyncError:
            raise  # the organizer's to fix (permissions, a workbook we must not write): said by run_watch
        except Exception as exc:  # noqa: BLE001 - a bug must not stop the hall's standings: say it, keep watching
            self._internal_error(exc, snapshot, now)
            return None
        self.failed_input = None
        if report.locked is not None:
            return self._locked(report)
        self.pending_hash = None
        if self.last_problem is not None:
            self.say(f"[green]{self.words('watch.ok')}[/green]")
            self.last_problem = None
        # Our own write changes the file but not the input tabs: remember the file as *we*
        # wrote it (the fingerprint the write returned), never a fresh look at it — a judge's
        # save landing just after ours would otherwise look like ours and be skipped.
        self.last_fingerprint = report.fingerprint
        self.preset = report.outcome.preset
        self.last_hash = input_fingerprint(report.snapshot, self.preset)
        self._report(report.snapshot.tabs, report)
        self.last_tabs = dict(report.snapshot.tabs)
        return report

    @property
    def saving(self) -> bool:
        """The workbook was found mid-save at the last poll (the loop looks again soon)."""
        return self.saving_since is not None

    def _mid_save(self, exc: SheetsSyncError) -> bool:
        """Whether ``exc`` is a save under way to wait for (quietly; a note once after a few seconds).
        A file missing or locked before any read is not: there is nothing to watch.  After
        :data:`SAVE_GRACE` seconds it is not either: the error is said as any other."""
        if self.save_given_up or (not isinstance(exc, WorkbookUnreadable) and not self.read_once):
            return False
        now = self.clock()
        if self.saving_since is None:
            self.saving_since = now
        waited = now - self.saving_since
        if waited >= SAVE_GRACE:  # broken, not being saved: an error from now on, until the file is read again
            self.saving_since, self.saving_noted, self.save_given_up = None, False, True
            return False
        if waited >= SAVE_NOTE_AFTER and not self.saving_noted:
            self.saving_noted = True
            self.say(f"[dim]{escape(self.words('watch.saving', name=Path(str(self.backend.source)).name))}[/dim]")
        return True

    def _locked(self, report: SyncReport) -> SyncReport:
        """The files are written but the workbook is open in Excel: say so once, and keep
        neither the fingerprint nor the input's hash, so the next poll computes and tries again."""
        fingerprint = input_fingerprint(report.snapshot, report.outcome.preset)
        if fingerprint != self.pending_hash:
            self.pending_hash = fingerprint
            self._report(report.snapshot.tabs, report)
            self.last_tabs = dict(report.snapshot.tabs)
        lock = report.locked
        self.complain("[yellow]" + escape(self.words("watch.locked", name=Path(str(lock.path or self.backend.source)).name,
                                                     lock=Path(str(lock.lock or "?")).name)) + "[/yellow]")
        return report

    def _internal_error(self, exc: Exception, snapshot: Snapshot | None, before: str | None) -> None:
        """Log the bug once, say it once, show it on the Problems tab, and wait for the input to change."""
        from sheets_sync.crashlog import crash_line, write_crash_log

        line = f"{type(exc).__name__}: {exc}"
        if line != self.last_internal:
            self.log_path = write_crash_log(exc, workbook=self.workbook, command="watch")
            self.last_internal = line
        self.complain(escape(crash_line(exc, command="watch", log=self.log_path, language=self.language)))
        self.last_fingerprint = before  # the workbook as it was when this cycle began
        if snapshot is None:
            return
        self.failed_input = _failure_fingerprint(snapshot)
        try:
            patch = internal_error_patch(snapshot, line, str(self.log_path))
            if not patch.empty:
                self.last_fingerprint = self.backend.apply(patch, base=snapshot)
        except Exception as write_exc:  # noqa: BLE001 - the message above already went out
            self.complain(f"[yellow]{self.words('watch.problems_tab')}[/yellow] {escape(str(write_exc))}")

    def _report(self, tabs, report: SyncReport) -> None:
        outcome = report.outcome
        changed = [t for t in tabs if t in self.last_tabs and tabs[t] != self.last_tabs[t]
                   and t in {p.sheet for p in outcome.results.tournament.protocols}]
        places = {st.stats.player: st.places for st in outcome.results.overall}
        moved = [f"{escape(p)} {self.last_places[p]}→{places[p]}" for p in places  # «[/b]x» is a nickname
                 if p in self.last_places and self.last_places[p] != places[p]]
        errors = sum(1 for p in outcome.problems if p.severity is Severity.ERROR)
        stamp = time.strftime("%H:%M:%S")
        parts = []
        if changed:
            parts.append(self.words("watch.changed", tabs=escape(", ".join(changed[:8])) + (" …" if len(changed) > 8 else "")))
        if moved:
            parts.append(self.words("watch.moved", moves=", ".join(moved[:6]) + (" …" if len(moved) > 6 else "")))
        if not self.last_places:
            parts.append(self.words("watch.counted", n=len(outcome.results.counted)))
        parts.append(self.words("watch.errors", n=errors))
        if report.written:
            self.writes += 1
            parts.append(self.words("watch.written"))
        self.say(f"{stamp} " + "; ".join(parts))
        self.last_places = places


def run_watch(backend: Backend, *, out_dir: Path | None, interval: float = 10.0, cycles: int | None = None,
              console: Console | None = None, sleep: Callable[[float], None] | None = None,
              workbook: str | None = None, language: str | None = None) -> Watcher:
    """Poll every ``interval`` seconds until Ctrl-C (or ``cycles`` polls).  A workbook that is
    missing or unreadable at the first poll ends the watch with its error (raised)."""
    console = console or Console(highlight=False, emoji=False)  # a nickname «:fire:» as typed
    watcher = Watcher(backend, out_dir=out_dir, say=console.print, workbook=workbook or str(backend.source),
                      language=language)
    watcher.intro = (str(backend.source), interval)
    events = None
    if sleep is None:  # tests that pass their own sleep drive the loop by polls
        from sheets_sync.loop.file_events import file_events

        local = Path(str(backend.source))  # a local workbook (not Google, not in memory) has events
        events = file_events(local) if local.is_file() else None
    sleep = sleep or time.sleep
    try:
        return _loop(watcher, interval=interval, cycles=cycles, sleep=sleep, events=events)
    finally:
        if events is not None:
            events.close()


def _loop(watcher: Watcher, *, interval: float, cycles: int | None, sleep: Callable[[float], None],
          events) -> Watcher:
    n = 0
    while cycles is None or n < cycles:
        n += 1
        started = time.monotonic()
        try:
            watcher.poll()
        except SheetsSyncError as exc:  # not transient: say it, keep watching (the organizer may fix it)
            if n == 1 and isinstance(exc, (WorkbookNotFound, PermissionDenied)):
                raise  # nothing to watch: stop with the message rather than wait for a file that is not coming
            language = watcher.pinned_language or exc.language or watcher.language
            watcher.complain(f"[red]{text('error', language)}:[/red] {escape(exc.message(language))}")
        if cycles is not None and n >= cycles:
            break
        # the interval runs from the start of one poll to the next, so a slow cycle does not
        # add its own duration to how long an edit waits
        wait = max(0.0, interval - (time.monotonic() - started))
        if watcher.saving:  # a save under way: look again in a moment rather than a whole interval
            wait = min(wait, SAVE_RETRY)
        if events is not None and wait > 0:  # --interval 0 polls without pause, as before
            events.wait(wait)  # returns as soon as the workbook is saved (and its events settle)
        else:
            sleep(wait)
    return watcher


def _failure_fingerprint(snapshot: Snapshot) -> str:
    """Hash of every tab but the two a failed cycle may write (Problems, the state tab): the
    same input fails the same way, so the watch waits until somebody changes it."""
    from scoring import labels as L

    return tabs_fingerprint(snapshot, {L.norm(t) for t in L.TABS["problems"]} | {L.norm(STATE_TAB)})
