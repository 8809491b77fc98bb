"""The draw with teams (issue 36 §4): teammates kept apart, and one member of each team per game
(a hard rule), against the same field without teams; its own section of docs/benchmarks.md.

    python -m bench.team_draw

For each format: the median seconds of three seeds, Σc² against the proven bound, and the
teammate meetings (0 wherever the teams are no bigger than the tables).  Seconds are the
machine's, recorded with its date and CPU, never asserted in a test.
"""

from __future__ import annotations

import statistics
import time
from datetime import date

from bench.run import cpu_model, write_marked_section
from scoring.draw.draws import draw_qualifying
from scoring.draw.formats import Teams

BEGIN = "<!-- team-draw:begin (python -m bench.team_draw) -->"
END = "<!-- team-draw:end -->"
# (players, tables a round, rounds, team size): a cup of teams of three, four, and a big field of ten teams of ten
FORMATS = ((30, 3, 6, 3), (40, 4, 8, 4), (100, 10, 10, 10))
SEEDS = (1, 2, 3)


def measure(n: int, tables: int, rounds: int, team_size: int, mode: str) -> tuple[float, list[int], int, list[int]]:
    names = [f"p{i}" for i in range(n)]
    teams = {p: f"T{i // team_size}" for i, p in enumerate(names)}
    draw_teams = None if mode == "none" else Teams(of=teams, one_per_game=mode == "one per game")
    seconds, ssq, meetings, bound = [], [], [], 0
    for seed in SEEDS:
        started = time.perf_counter()
        draw = draw_qualifying(names, rounds=rounds, tables=tables, seed=seed, teams=draw_teams)
        seconds.append(time.perf_counter() - started)
        ssq.append(draw.report.ssq)
        bound = draw.report.lower_bound
        meetings.append(sum(1 for rnd in draw.rounds for table in rnd for i, a in enumerate(table)
                            for b in table[i + 1:] if teams[a] == teams[b]))
    return statistics.median(seconds), ssq, bound, meetings


def main() -> None:
    rows = ["| players / tables / rounds, team size | teams | median s | Σc² (3 seeds) | bound | teammate meetings |",
            "|---|---|---|---|---|---|"]
    for n, tables, rounds, size in FORMATS:
        for mode in ("none", "apart", "one per game"):
            sec, ssq, bound, meetings = measure(n, tables, rounds, size, mode)
            rows.append(f"| {n} / {tables} / {rounds}, {size} | {mode} | {sec:.1f} | {', '.join(map(str, ssq))} | {bound} "
                        f"| {', '.join(map(str, meetings))} |")
            print(rows[-1], flush=True)
    section = "\n".join([BEGIN, "## Draw with teams (bench/team_draw.py)", "",
                         f"{date.today().isoformat()}, {cpu_model()}; seconds of a shared machine (other jobs ran "
                         "beside it), Σc² and meetings are the draw's own.", "", *rows, END])
    write_marked_section(BEGIN, END, section)


if __name__ == "__main__":
    main()
