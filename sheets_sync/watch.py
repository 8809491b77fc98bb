"""`watch`: keep the standings current while games are played.

loop { read; if the values' hash changed → compute → write what differs → one line per
change }.  Transient errors (quota, network, a judge saving at the same moment, the file
open in Excel) are reported and retried on the next poll; Ctrl-C stops cleanly between
cycles.  For a local file a cheap stat() decides whether to read at all.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console

from scoring.problems import Severity
from sheets_sync.backends.base import Backend, BackendError, TransientError
from sheets_sync.sync import SyncReport, input_fingerprint, sync_once

__all__ = ["Watcher", "run_watch"]


class Watcher:
    """One poll at a time; keeps what it needs to tell what changed."""

    def __init__(self, backend: Backend, *, out_dir: Path | None, say: Callable[[str], None]):
        self.backend = backend
        self.out_dir = out_dir
        self.say = say
        self.last_hash: str | None = None
        self.preset = None
        self.last_stat: tuple[int, ...] | None = None
        self.last_tabs: dict = {}
        self.last_places: dict[str, str] = {}
        self.cycles = 0
        self.writes = 0
        self.failures = 0
        self.last_problem: str | None = None  # the last failure said, so a retry loop is not a flood

    def complain(self, text: str) -> None:
        """Say a failure once; say it again only when it changes (or after a success)."""
        self.failures += 1
        if text != self.last_problem:
            self.say(text)
        self.last_problem = text

    def _file_stat(self) -> tuple[int, ...] | None:
        path = getattr(self.backend, "path", None)
        if path is None:
            return None
        try:
            st = Path(path).stat()
        except OSError:
            return None
        return (st.st_size, st.st_mtime_ns, st.st_ino)  # the inode: every atomic save makes a new one

    def poll(self) -> SyncReport | None:
        """Run one cycle if the input changed; return its report (None when idle or failed)."""
        self.cycles += 1
        stat = self._file_stat()
        if stat is not None and stat == self.last_stat and self.last_hash is not None:
            return None
        try:
            snapshot = self.backend.read()
            if self.preset is not None and input_fingerprint(snapshot, self.preset) == self.last_hash:
                self.last_stat = stat
                return None
            report = sync_once(self.backend, out_dir=self.out_dir, snapshot=snapshot)
        except TransientError as exc:
            self.complain(f"[yellow]will retry:[/yellow] {exc}")
            return None
        if self.last_problem is not None:
            self.say("[green]ok again[/green]")
            self.last_problem = None
        # Our own write changes the file but not the input tabs: remember the file as *we*
        # wrote it (the backend stats its temp file before the rename), never a fresh stat —
        # a judge's save landing just after ours would otherwise look like ours and be skipped.
        # Without a write, keep the stat taken before the read: at worst one extra read.
        written = getattr(self.backend, "written_stat", None) if report.written else None
        self.last_stat = written if written is not None else stat
        self.preset = report.outcome.preset
        self.last_hash = input_fingerprint(report.snapshot, self.preset)
        self._report(report.snapshot.tabs, report)
        self.last_tabs = dict(report.snapshot.tabs)
        return report

    def _report(self, tabs, report: SyncReport) -> None:
        outcome = report.outcome
        changed = [t for t in tabs if t in self.last_tabs and tabs[t] != self.last_tabs[t]
                   and t in {p.sheet for p in outcome.results.tournament.protocols}]
        places = {st.stats.player: st.places for st in outcome.results.overall}
        moved = [f"{p} {self.last_places[p]}→{places[p]}" for p in places
                 if p in self.last_places and self.last_places[p] != places[p]]
        errors = sum(1 for p in outcome.problems if p.severity is Severity.ERROR)
        stamp = time.strftime("%H:%M:%S")
        parts = []
        if changed:
            parts.append("changed: " + ", ".join(changed[:8]) + (" …" if len(changed) > 8 else ""))
        if moved:
            parts.append("moved: " + ", ".join(moved[:6]) + (" …" if len(moved) > 6 else ""))
        if not self.last_places:
            parts.append(f"{len(outcome.results.counted)} games counted")
        parts.append(f"{errors} errors")
        if report.written:
            self.writes += 1
            parts.append("written")
        self.say(f"{stamp} " + "; ".join(parts))
        self.last_places = places


def run_watch(backend: Backend, *, out_dir: Path | None, interval: float = 10.0, cycles: int | None = None,
              console: Console | None = None, sleep: Callable[[float], None] = time.sleep) -> Watcher:
    console = console or Console(highlight=False)
    watcher = Watcher(backend, out_dir=out_dir, say=console.print)
    console.print(f"watching {backend.source} every {interval:g} s (Ctrl-C stops)")
    n = 0
    while cycles is None or n < cycles:
        n += 1
        started = time.monotonic()
        try:
            watcher.poll()
        except BackendError as exc:  # not transient: say it, keep watching (the organizer may fix it)
            watcher.complain(f"[red]error:[/red] {exc}")
        if cycles is not None and n >= cycles:
            break
        # the interval runs from the start of one poll to the next, so a slow cycle does not
        # add its own duration to how long an edit waits
        sleep(max(0.0, interval - (time.monotonic() - started)))
    return watcher
