"""`python -m bench.league`: a league of 50 workbooks — the full first run, a run with nothing
changed, and a run after one workbook changed, beside one workbook's own sync (issue 36: one
changed workbook should cost about one workbook's sync).

Plain script, not a test: it measures and writes its own dated section of docs/benchmarks.md
(between the ``league-bench`` markers).  The workbooks are the bundled example tournament (40
players, 7 rounds, semifinal and final) played with 50 seeds, built before the clock
starts.  "One changed" types a new date into one workbook's Tournament tab, so that workbook is
read and computed again and its games move in time (the rating is replayed over everything).

    python -m bench.league            # 50 workbooks, 3 runs each
    python -m bench.league --quick    # 10 workbooks, 1 run (no doc written)
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.run import cpu_model, write_marked_section
from sheets_sync.actions.league import run_league
from sheets_sync.backends.base import Patch, TabWrite
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.example import build_example

__all__ = ["build_league_folder", "measure"]

BEGIN, END = "<!-- league-bench:begin -->", "<!-- league-bench:end -->"


def _type_date(path: Path, date: str) -> None:
    typed = ((None, None), (None, None), (None, None), (None, None), (None, date))
    ExcelBackend(path, backups=0).apply(Patch(writes=(TabWrite(title="Турнир", rows=typed, owned=False),)), base=None)


def build_league_folder(folder: Path, count: int) -> Path:
    text = 'name = "Bench"\nrating = "mafiaratings-2025"\nseries = "mwt-series"\nbest_n = 5\n'
    for i in range(count):
        path = build_example(folder / f"t{i:02d}.xlsx", seed=5000 + i)
        _type_date(path, f"{1 + i % 28:02d}.{1 + i // 28:02d}.2026")
        text += f'\n[[event]]\nworkbook = "t{i:02d}.xlsx"\nkind = "tournament"\nstars = {1 + i % 3}\n'
    (folder / "league.toml").write_text(text, encoding="utf-8")
    return folder / "league.toml"


def _timed(fn) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def _one_sync(folder: Path) -> tuple[float, float]:
    from sheets_sync.actions.sync import run_sync

    copy = folder / "one-sync.xlsx"
    shutil.copy(folder / "t00.xlsx", copy)
    return _timed(lambda: run_sync(str(copy), out_dir=folder / "one-sync-out", backups=0))


def measure(count: int, runs: int) -> dict:
    results: dict[str, list[tuple[float, float]]] = {"full": [], "unchanged": [], "one_changed": [], "one_sync": []}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        toml = build_league_folder(folder, count)
        for run in range(runs):
            out = folder / f"out{run}"
            results["full"].append(_timed(lambda: run_league(toml, out=out)))
            results["unchanged"].append(_timed(lambda: run_league(toml, out=out)))
            _type_date(folder / "t07.xlsx", f"{10 + run:02d}.12.2026")
            league = []
            results["one_changed"].append(_timed(lambda: league.append(run_league(toml, out=out))))
            assert league[0].league.read_again == ("t07.xlsx",)
            results["one_sync"].append(_one_sync(folder))
        games = len(league[0].league.ratings.history)
    return {"count": count, "games": games, **{k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
                                               for k, v in results.items()}}


def markdown(r: dict) -> str:
    rows = [("full first run (every workbook read)", r["full"]), ("nothing changed (all from the cache)", r["unchanged"]),
            ("one workbook changed", r["one_changed"]), ("one workbook's `sync` (for comparison)", r["one_sync"])]
    lines = [BEGIN, "## League (`python -m bench.league`)", "",
             f"{dt.date.today().isoformat()} · {cpu_model()} · {os.cpu_count()} cores (shared) · Python "
             f"{platform.python_version()} · {r['count']} workbooks, {r['games']} rated games; medians", "",
             "| case | wall s | CPU s |", "|---|---:|---:|"]
    lines += [f"| {name} | {w:.2f} | {c:.2f} |" for name, (w, c) in rows]
    lines += ["", "Each run also writes league.json, the league site (a page per player) and the cache; the rating "
              "is replayed over every game each time (replay is milliseconds at this size).", END]
    return "\n".join(lines)


def main() -> None:  # pragma: no cover
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    result = measure(10, 1) if args.quick else measure(50, 3)
    section = markdown(result)
    print(section)
    if not args.quick:
        write_marked_section(BEGIN, END, section)
    sys.stdout.flush()


if __name__ == "__main__":  # pragma: no cover
    main()
