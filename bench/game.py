"""`python -m bench.game`: the judge's game as an event log (issue 44) — what the server pays per
event the phone sends, and per form checked.

Plain script, not a test: it measures and writes its own dated section of docs/benchmarks.md
(between the ``game-bench`` markers).  Games are the seeded random event logs of
:mod:`scoring.game.simulate` (fouls, removals, undos, refused events among them).  Timed, each
the median over the games, wall clock and CPU time (the machine is shared):

* a whole game replayed (``replay``: what the server does to answer one event, since
  ``GameLog.add`` replays the log with the event added);
* the last event of a game added to its log (``GameLog.add``);
* a whole game recorded event by event through the log (the sum the server pays over a game);
* the protocol derived and its cells (``protocol_of`` + ``protocol_cells``);
* a paper protocol's form checked by the rules (``form_problems``).

    python -m bench.game            # 200 games
    python -m bench.game --quick    # 30 games (no doc written)
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import random
import statistics
import time
from collections.abc import Callable

from bench.run import DOC, cpu_model, write_marked_section
from scoring.game import GameLog, GameRules, form_problems, protocol_cells, protocol_of, replay
from scoring.game.simulate import PLAYERS, simulate_events
from scoring.model import SeatingEntry
from sheets_sync.presets import load_preset

BEGIN, END = "<!-- game-bench:begin -->", "<!-- game-bench:end -->"


def _timed(fn: Callable[[], object]) -> tuple[float, float]:
    t, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - t, time.process_time() - c


def _whole_log(events, rules: GameRules) -> None:
    log = GameLog(players=PLAYERS, rules=rules)
    for event in events:
        log, _ = log.add(event)


def measure(games: int) -> dict:
    preset, _ = load_preset("gmo-2016")
    rules = GameRules.of(preset)
    seating = SeatingEntry(stage=preset.stage_keys[0], round=1, table=1, players=PLAYERS)
    logs = [simulate_events(random.Random(seed), rules=rules, undo=0.02, junk=0.02) for seed in range(games)]
    cases = {
        "replay": lambda e: replay(e, players=PLAYERS, rules=rules),
        "add": lambda e: GameLog(events=e[:-1], players=PLAYERS, rules=rules).add(e[-1]),
        "log": lambda e: _whole_log(e, rules),
        "protocol": lambda e: protocol_cells(protocol_of(e, seating, rules=rules), "ru"),
        "form": lambda e: form_problems(protocol_of(e, seating, rules=rules), preset, "ru", players=PLAYERS),
    }
    found: dict = {"games": games, "events": statistics.median(len(e) for e in logs), "max_events": max(map(len, logs)),
                   "load": os.getloadavg()}
    for name, fn in cases.items():
        runs = [_timed(lambda e=e: fn(e)) for e in logs]
        found[name] = (statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs),
                       max(w for w, _ in runs))
    return found


def markdown(r: dict) -> str:
    now = dt.datetime.now().strftime("%Y-%m-%d %H:%M")
    load = " / ".join(f"{x:.1f}" for x in r["load"])
    rows = [("a whole game replayed (`replay`)", "replay"), ("the last event added to its log (`GameLog.add`)", "add"),
            ("a whole game recorded through the log, event by event", "log"),
            ("the protocol and its cells (`protocol_of` + `protocol_cells`)", "protocol"),
            ("a form checked by the rules (`form_problems`)", "form")]
    lines = [BEGIN, "## The judge's game as an event log (bench/game.py)", "",
             f"Measured {now} on `{platform.node()}`: {cpu_model()}, Python {platform.python_version()}; load average "
             f"{load} (1 / 5 / 15 min) — the machine is shared, so CPU time is the steadier figure. "
             f"`python -m bench.game`: {r['games']} seeded random games of `scoring.game.simulate` (fouls, removals, "
             f"undos and refused events among them), {r['events']:.0f} events a game (median; at most "
             f"{r['max_events']}); each figure the median over the games.", "",
             "| what | wall clock (median) | CPU time (median) | slowest game, wall |", "|---|---:|---:|---:|"]
    lines += [f"| {label} | {r[k][0] * 1000:.1f} ms | {r[k][1] * 1000:.1f} ms | {r[k][2] * 1000:.1f} ms |"
              for label, k in rows]
    lines += ["", "The server answers each event the phone sends with one replay of the game's log (the log is "
              "what the judge pressed; no state is kept between requests), so a game costs the server the "
              "\"whole game recorded\" row spread over its events.", END]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    result = measure(30 if args.quick else 200)
    text = markdown(result)
    print(text)
    if not args.quick:
        write_marked_section(BEGIN, END, text)
        print(f"written to {DOC}")


if __name__ == "__main__":
    main()
