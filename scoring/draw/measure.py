"""Measuring a seating: `evaluate` turns any rounds of tables into a fairness report.

It is what the report of a draw is built from, and it also measures a hand-edited seating,
so schedule errors (a short table, an unknown or twice-seated player, unequal games) are
listed in the report's `problems` instead of raised.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from scoring.draw.formats import TABLE_SIZE, format_is_valid, lower_bound, same_club_minimum, tables_per_round
from scoring.draw.report import FairnessReport, PlayerFairness
from scoring.draw.seats import seat_group

__all__ = ["evaluate"]


def evaluate(players: Sequence[str], rounds: Sequence[Sequence[Sequence[str]]],
             clubs: Mapping[str, str] | None = None, *,
             keep_apart: Iterable[tuple[str, str]] = (), seed: int | None = None,
             seconds: float | None = None) -> FairnessReport:
    """Fairness of any seating (rounds[r][t][seat-1] = nickname), e.g. a hand-edited one;
    schedule errors are listed in `problems` rather than raised."""
    clubs = dict(clubs or {})
    names = list(players)
    index = {p: i for i, p in enumerate(names)}
    n = len(names)
    problems: list[str] = []
    R = len(rounds)
    T = max((len(r) for r in rounds), default=0)
    pair: dict[tuple[int, int], int] = {}
    seats: list[list[int]] = [[] for _ in range(n)]
    visits = [[0] * T for _ in range(n)]
    rest_rounds: list[list[int]] = [[] for _ in range(n)]
    club_meet = 0
    keep = {frozenset((a, b)) for a, b in keep_apart}
    keep_meet = 0
    S = 0
    playing_sets = []
    for r, rnd in enumerate(rounds):
        seen: set[str] = set()
        for t, table in enumerate(rnd):
            if len(table) != TABLE_SIZE:
                problems.append(f"Round {r + 1}, table {t + 1}: {len(table)} players "
                                f"instead of {TABLE_SIZE}.")
            for s, p in enumerate(table):
                if p not in index:
                    problems.append(f"Round {r + 1}, table {t + 1}: unknown player {p!r}.")
                    continue
                if p in seen:
                    problems.append(f"Round {r + 1}: {p} is seated twice.")
                    continue
                seen.add(p)
                seats[index[p]].append(s + 1)
                visits[index[p]][t] += 1
            idx = [index[p] for p in dict.fromkeys(table) if p in index]
            S += len(idx) * (len(idx) - 1) // 2
            for i, a in enumerate(idx):
                for b in idx[i + 1:]:
                    key = (a, b) if a < b else (b, a)
                    pair[key] = pair.get(key, 0) + 1
                    if clubs.get(names[a]) and clubs.get(names[a]) == clubs.get(names[b]):
                        club_meet += 1
                    if frozenset((names[a], names[b])) in keep:
                        keep_meet += 1
        playing_sets.append(seen)
        for i, p in enumerate(names):
            if p not in seen:
                rest_rounds[i].append(r + 1)
    games = [len(s) for s in seats]
    if n and len(set(games)) > 1:
        problems.append("Players do not all play the same number of games: "
                        + ", ".join(f"{names[i]} {games[i]}" for i in range(n)
                                    if games[i] != max(games)) + f" (others {max(games)}).")
    counts = [0] * (n * (n - 1) // 2)
    hist: dict[int, int] = {}
    P = n * (n - 1) // 2
    ssq = sum(c * c for c in pair.values())
    for c in pair.values():
        hist[c] = hist.get(c, 0) + 1
    hist[0] = P - len(pair)
    del counts
    # lower bound: the format's bound when the format is a valid one
    if n >= TABLE_SIZE and R and format_is_valid(n, R) and T == tables_per_round(n):
        bound = lower_bound(n, R)
    else:
        L = S // P if P else 0
        bound = P * L * L + (S - L * P) * (2 * L + 1) if P else 0
    per_player = []
    for i, name in enumerate(names):
        opp: dict[int, int] = {}
        for (a, b), c in pair.items():
            if a == i:
                opp[b] = c
            elif b == i:
                opp[a] = c
        if opp:
            j, c = max(opp.items(), key=lambda kv: (kv[1], -kv[0]))
        else:
            j, c = -1, 0
        sts = seats[i]
        grp = [0, 0, 0]
        for s in sts:
            grp[seat_group(s)] += 1
        per_player.append(PlayerFairness(
            name=name, club=clubs.get(name), games=games[i],
            rest_rounds=tuple(rest_rounds[i]), distinct_opponents=len(opp),
            most_repeated_opponent=names[j] if c >= 2 else "",
            most_repeated_count=c if c >= 2 else (1 if c else 0),
            seats=tuple(sts), seat_repeats=len(sts) - len(set(sts)),
            seat_groups=(grp[0], grp[1], grp[2]), seat_sum=sum(sts),
            table_visits=tuple(visits[i])))
    return FairnessReport(
        n_players=n, tables_per_round=T, n_rounds=R, ssq=ssq, lower_bound=bound,
        meeting_histogram=tuple(sorted(hist.items())),
        pairs_never_met=hist.get(0, 0),
        pairs_met_3plus=sum(v for c, v in hist.items() if c >= 3),
        max_meetings=max((c for c, v in hist.items() if v), default=0),
        seat_repeats=sum(p.seat_repeats for p in per_player),
        same_club_meetings=club_meet,
        same_club_minimum=same_club_minimum(playing_sets, clubs, T),
        keep_apart_meetings=keep_meet, players=tuple(per_player),
        problems=tuple(problems), seed=seed, seconds=seconds)
