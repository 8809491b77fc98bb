"""`python -m bench.rating`: the player rating of 100,000 games replayed (issue 36: ≤ 1 s).

Plain script, not a test: it measures and writes its own dated section of docs/benchmarks.md
(between the ``rating-bench`` markers).  The games are synthetic and seeded: a pool of 2,000
players, ten at a table (three blacks), a game every few minutes, kinds club / tournament /
elite, red wins a little more often than black; every twentieth game has nine players (the halved
K).  They are built before the clock starts and handed to :func:`scoring.rating.replay` in a
shuffled order, so the timed work includes sorting them into the played order.  The replay is
timed several times in this one process; the median is the figure, wall clock and CPU time both
(the machine is shared: CPU time is the work itself).  The default scheme (mafiaratings-2025)
is the target; andrsj's stepped MMR is measured beside it.

    python -m bench.rating            # 100,000 games, 7 replays
    python -m bench.rating --quick    # 20,000 games, 3 replays (no doc written)
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import random
import statistics
import sys
import time

from bench.run import DOC, cpu_model, write_marked_section
from scoring.rating import BLACK, RED, RatedGame, Seat, replay
from sheets_sync.league.ratings import load_rating_scheme

__all__ = ["synthetic_games", "measure"]

BEGIN, END = "<!-- rating-bench:begin -->", "<!-- rating-bench:end -->"
TARGET_S = 1.0


def synthetic_games(count: int, *, players: int = 2000, seed: int = 36) -> list[RatedGame]:
    """``count`` seeded games in a shuffled order (ids 0…count−1, end times a few minutes apart)."""
    rng = random.Random(seed)
    pool = [f"Игрок {i:04d}" for i in range(players)]
    kinds = ("club", "club", "tournament", "tournament", "elite")
    games = []
    minute = 0
    for i in range(count):
        minute += rng.randint(0, 9)  # several games can end in the same minute: then the id decides
        size = 9 if i % 20 == 19 else 10
        seated = rng.sample(pool, size)
        blacks = set(rng.sample(range(size), 3))
        seats = tuple(Seat(p, BLACK if j in blacks else RED) for j, p in enumerate(seated))
        games.append(RatedGame(i, minute, rng.choice(kinds), seats, RED if rng.random() < 0.55 else BLACK,
                               event=f"day {minute // 1440}"))
    rng.shuffle(games)
    return games


def measure(count: int, runs: int, scheme_id: str = "mafiaratings-2025") -> dict:
    scheme = load_rating_scheme(scheme_id)
    games = synthetic_games(count)
    walls, cpus = [], []
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        ratings = replay(games, scheme)
        walls.append(time.perf_counter() - t)
        cpus.append(time.process_time() - c)
    return dict(scheme=scheme_id, count=count, runs=runs, players=len(ratings.players), walls=walls, cpus=cpus,
                wall=statistics.median(walls), cpu=statistics.median(cpus), load=os.getloadavg())


def _verdict(r: dict) -> str:
    if r["wall"] <= TARGET_S:
        return "met"
    return "met in CPU time only (the wall clock waited for other work)" if r["cpu"] <= TARGET_S else "MISSED"


def markdown(results: list[dict]) -> str:
    now = dt.datetime.now().strftime("%Y-%m-%d %H:%M")
    r = results[0]
    lines = [
        BEGIN, "## Player rating (bench/rating.py)", "",
        f"Measured {now} on `{platform.node()}`: {cpu_model()}, {os.cpu_count()} cores, Python "
        f"{sys.version.split()[0]}; load average {r['load'][0]:.1f} / {r['load'][1]:.1f} / {r['load'][2]:.1f} "
        "(1 / 5 / 15 min) after the first scheme — the machine was shared, so CPU time is the steadier figure. "
        f"`python -m bench.rating`: {r['count']:,} synthetic seeded games ({r['players']:,} players, ten a table, "
        "every twentieth of nine), given in a shuffled order to `scoring.rating.replay` (sorting them into the "
        f"played order is timed); {r['runs']} replays in one process, the median shown. Target (issue 36): "
        f"the rating of 100,000 games replayed in ≤ {TARGET_S:g} s, for the default scheme.", "",
        "| scheme | games | replay, wall clock (median) | replay, CPU time (median) | target ≤ 1 s |",
        "|---|---:|---:|---:|---|"]
    lines += [f"| {x['scheme']} | {x['count']:,} | {x['wall'] * 1000:.0f} ms | {x['cpu'] * 1000:.0f} ms | "
              f"{_verdict(x) if x is r else '(not a target)'} |" for x in results]
    lines += ["", "Every run (wall / CPU, s): " + "; ".join(
        f"{x['scheme']}: " + ", ".join(f"{w:.2f} / {c:.2f}" for w, c in zip(x["walls"], x["cpus"])) for x in results),
        END]
    return "\n".join(lines)


def write_section(section: str) -> None:
    write_marked_section(BEGIN, END, section)


def main() -> None:  # pragma: no cover
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    count, runs = (20_000, 3) if args.quick else (100_000, 7)
    results = [measure(count, runs), measure(count, runs, "andrsj-mmr")]
    print(markdown(results))
    if not args.quick:
        write_section(markdown(results))
        print(f"wrote {DOC}")


if __name__ == "__main__":  # pragma: no cover
    main()
