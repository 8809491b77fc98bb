"""A sync cycle runs with Python's cyclic garbage collector paused, and that is safe.

Why (sheets_sync/sync.py's docstring, docs/benchmarks.md): each full pass of the collector
walked every object of the cycle and all the process held, and freed nothing; on the
2,000-game season those passes made a sync after one edit compute slower than the first
sync.  Paused is safe only while a cycle leaves (almost) no reference cycles behind, which
reference counting cannot free: the second test counts them on the example tournament and
on a club season, through the real .xlsx backend.  Nothing here is timed.
"""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.outcome import compute
from sheets_sync.sync import publish_files, sync_once


@pytest.mark.parametrize("enabled_before", [True, False])
def test_the_collector_is_paused_while_computing_and_publishing_and_restored_after(example, enabled_before):
    seen: list[tuple[str, bool]] = []

    def computing(snapshot, **kw):
        seen.append(("compute", gc.isenabled()))
        return compute(snapshot, **kw)

    def publishing(outcome, out_dir, **kw):
        seen.append(("publish", gc.isenabled()))
        return publish_files(outcome, out_dir, **kw)

    (gc.enable if enabled_before else gc.disable)()
    try:
        sync_once(ExcelBackend(example, backups=0), out_dir=example.parent / "out", compute_outcome=computing,
                  publish=publishing)
        assert seen == [("compute", False), ("publish", False)]
        assert gc.isenabled() is enabled_before  # as the caller had it: a caller's own choice is kept
    finally:
        gc.enable()


def test_a_failing_sync_turns_the_collector_back_on(example):
    def broken(snapshot, **kw):
        raise RuntimeError("a bug in the computation")

    gc.enable()
    with pytest.raises(RuntimeError):
        sync_once(ExcelBackend(example, backups=0), out_dir=None, compute_outcome=broken)
    assert gc.isenabled()


def _cyclic_garbage_of_a_sync(book: Path) -> int:
    """Objects only the cyclic collector could free, left by one sync of ``book``."""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection would free is kept in gc.garbage to be counted
    try:
        report = sync_once(ExcelBackend(book, backups=0), out_dir=book.parent / "out")
        del report
        gc.collect()
        return len(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


def test_a_sync_leaves_almost_no_reference_cycles(example, tmp_path):
    """A sync builds hundreds of thousands of objects (cells, protocols, lines, pages); what only
    the collector can free is a few hundred at most (a JSON encoder's closures, ctypes' types,
    made once per process) — so pausing the collector for the cycle costs no memory worth having."""
    from bench.season import PRESET, season_workbook

    assert _cyclic_garbage_of_a_sync(example) < 1000
    season = season_workbook(tmp_path / "season" / "club.xlsx", players=40, evenings=4, games=16, tables=1)
    assert (season.parent / PRESET.name).is_file()
    assert _cyclic_garbage_of_a_sync(season) < 1000
