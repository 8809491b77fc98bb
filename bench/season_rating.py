"""`python -m bench.season_rating`: what a player rating costs a club season's sync (issue 36 §1).

Plain script, not a test: it measures and writes its own dated section of docs/benchmarks.md
(between the ``season-rating-bench`` markers).  The seasons are bench/season.py's (the real
season's size and the stress season), generated into an in-memory workbook; the same tabs are
computed twice — the Tournament tab naming ``club-season.toml`` (no rating) and
``club-season-rating.toml`` (the mafiaratings rating, the season ranked by it) — in one process,
and each step is timed in CPU seconds of the process (the machine is shared), the median of a
few rounds: the computation (``outcome.compute``: parse, validate, score, rank), the season with
its race, the rating alone, and the outputs (the Итоги tab, standings.json, the site's pages).

    python -m bench.season_rating            # both seasons, 3 rounds
    python -m bench.season_rating --quick    # the real season, 1 round (no doc written)
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import statistics
import time

from bench.run import ROOT, cpu_model, write_marked_section
from bench.season import SIZES, season_patch

__all__ = ["measure"]

BEGIN, END = "<!-- season-rating-bench:begin -->", "<!-- season-rating-bench:end -->"
EXAMPLES = ROOT / "config" / "examples"
STEPS = ("compute", "season", "rating", "outputs")
NOTE = ("The rating itself (the replay of the season's games and every evening's table of ratings) is the "
        "«of which the rating» column; the outputs' extra time is mostly the rated season's pages: each "
        "player's page shows his rating after every evening (a 100-cell row for each of 400 players in the "
        "stress season) and the season table has five more columns. Compute varies by a few hundredths "
        "between rounds on this shared machine (the with-rating figure below the without one is that noise).")


def _snapshot(size: dict, preset_file: str):
    from sheets_sync.backends.memory import MemoryBackend

    backend = MemoryBackend()
    patch = season_patch(**size)
    backend.apply(patch, base=None)
    settings = backend.tabs["Турнир"]
    for row in settings:  # the Tournament tab names the preset beside the workbook
        if row and row[0] in ("Регламент", "Preset"):
            row[1] = preset_file
    return backend.read()


def _round(snapshot) -> dict[str, float]:
    from scoring.rating.club import workbook_rating
    from scoring.season import season
    from sheets_sync.loop.outcome import compute
    from sheets_sync.render.json_out import standings_document
    from sheets_sync.render.season_tabs import season_standings_tab
    from sheets_sync.render.site import site_files

    spent: dict[str, float] = {}
    start = time.process_time()
    outcome = compute(snapshot, base_dir=EXAMPLES)
    spent["compute"] = time.process_time() - start
    start = time.process_time()
    workbook_rating(outcome.results)
    spent["rating"] = time.process_time() - start
    start = time.process_time()
    season(outcome.results)
    spent["season"] = time.process_time() - start + spent["rating"]  # the season asks for the rating first
    start = time.process_time()
    season_standings_tab(outcome.results, "ru")
    standings_document(outcome.results, outcome.problems, language="ru")
    site_files(outcome.results, outcome.problems, language="ru")
    spent["outputs"] = time.process_time() - start
    return spent


def measure(size: dict, rounds: int) -> dict[str, dict[str, float]]:
    """The median CPU seconds of each step, without and with the rating."""
    found = {}
    for label, preset_file in (("without", "club-season.toml"), ("with", "club-season-rating.toml")):
        snapshot = _snapshot(size, preset_file)
        runs = [_round(snapshot) for _ in range(rounds)]
        found[label] = {step: statistics.median(r[step] for r in runs) for step in STEPS}
    return found


def _section(rows: list[tuple[str, dict, dict]], rounds: int) -> str:
    now = dt.datetime.now().strftime("%Y-%m-%d %H:%M")
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    lines = [BEGIN, "## A player rating in a club season (bench/season_rating.py)", "",
             f"Measured {now} on `{platform.node()}`: {cpu_model()}, {os.cpu_count()} cores, Python "
             f"{platform.python_version()}; load average {load} (1 / 5 / 15 min) at the end — the machine was "
             f"shared. `python -m bench.season_rating`: bench/season.py's seasons in memory, computed without a "
             f"rating (club-season) and with one (club-season-rating: mafiaratings-2025, ranked by it); CPU "
             f"seconds of the process, the median of {rounds} rounds.", "",
             "| season | games | compute (parse … rank): without / with | season + race: without → with | of which the rating "
             "| outputs (Итоги, standings.json, site): without → with |",
             "|---|---:|---:|---:|---:|---:|"]
    for label, size, found in rows:
        w, r = found["without"], found["with"]
        lines.append(f"| {label} | {size['games']} | {w['compute']:.2f} s / {r['compute']:.2f} s | "
                     f"{w['season']:.3f} → {r['season']:.3f} s | {r['rating']:.3f} s | "
                     f"{w['outputs']:.2f} → {r['outputs']:.2f} s |")
    lines += ["", NOTE, END]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    sizes = SIZES[:1] if args.quick else SIZES
    rounds = 1 if args.quick else 3
    rows = []
    for label, players, evenings, games, tables in sizes:
        size = dict(players=players, evenings=evenings, games=games, tables=tables)
        found = measure(size, rounds)
        rows.append((label, size, found))
        print(label, {k: {s: round(v, 3) for s, v in d.items()} for k, d in found.items()}, flush=True)
    if not args.quick:
        write_marked_section(BEGIN, END, _section(rows, rounds))
        print("docs/benchmarks.md: written")


if __name__ == "__main__":
    main()
