"""Measuring a seating: `evaluate` turns any rounds of tables into a fairness report.

It is what the report of a draw is built from, and it also measures a hand-edited seating,
so schedule errors (a short table, an unknown or twice-seated player, unequal games) are
listed in the report's `problems` instead of raised.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from scoring.draw.formats import TABLE_SIZE, format_is_valid, lower_bound, pair_count_bound, same_club_minimum
from scoring.draw.report import FairnessReport, PlayerFairness
from scoring.draw.seats import seat_group

__all__ = ["evaluate"]


def evaluate(players: Sequence[str], rounds: Sequence[Sequence[Sequence[str]]],
             clubs: Mapping[str, str] | None = None, *,
             keep_apart: Iterable[tuple[str, str]] = (), seed: int | None = None,
             seconds: float | None = None, teams: Mapping[str, str] | None = None) -> FairnessReport:
    """Fairness of any seating (rounds[r][t][seat-1] = nickname), e.g. a hand-edited one;
    schedule errors are listed in `problems` rather than raised.  `seed` and `seconds`
    (measured by the caller, who has a clock) are carried into the report.  ``teams``: the
    report counts teammates seated together (none given: no line about teams)."""
    clubs = dict(clubs or {})
    keep_apart = tuple(keep_apart)
    names = list(players)
    n = len(names)
    R = len(rounds)
    T = max((len(r) for r in rounds), default=0)
    tally = _Tally.of(names, rounds, T, clubs, keep_apart)
    games = [len(s) for s in tally.seats]
    problems = tally.problems + _unequal_games(names, games)
    hist = _meeting_histogram(tally.pair, n)
    per_player = [_player_fairness(i, names, tally, clubs) for i in range(n)]
    return FairnessReport(
        n_players=n, tables_per_round=T, n_rounds=R, ssq=sum(c * c for c in tally.pair.values()),
        lower_bound=_bound_for(n, R, T, tally.pairs_seated),
        meeting_histogram=tuple(sorted(hist.items())),
        pairs_never_met=hist.get(0, 0),
        pairs_met_3plus=sum(v for c, v in hist.items() if c >= 3),
        max_meetings=max((c for c, v in hist.items() if v), default=0),
        seat_repeats=sum(p.seat_repeats for p in per_player),
        same_club_meetings=tally.club_meetings,
        same_club_minimum=same_club_minimum(tally.playing, clubs, T),
        keep_apart_meetings=tally.keep_apart_meetings, keep_apart_pairs=len({frozenset(p) for p in keep_apart}),
        teams=bool(teams), teammate_meetings=_same_group_meetings(rounds, teams or {}),
        teammate_minimum=same_club_minimum(tally.playing, teams or {}, T),
        players=tuple(per_player),
        problems=tuple(problems), seed=seed, seconds=seconds)


@dataclass(kw_only=True, slots=True)
class _Tally:
    """One pass over a seating: who met whom how often (pair[(i, j)], i < j, player
    indices), seats in round order, games per physical table, rest rounds (1-based) and
    the players seated in each round, per player index."""

    pair: dict[tuple[int, int], int]
    seats: list[list[int]]
    visits: list[list[int]]
    rest_rounds: list[list[int]]
    playing: list[set[str]]
    pairs_seated: int                        # Σ over tables C(players, 2)
    club_meetings: int
    keep_apart_meetings: int
    problems: list[str]

    @classmethod
    def of(cls, names: list[str], rounds: Sequence[Sequence[Sequence[str]]], T: int,
           clubs: Mapping[str, str], keep_apart: Iterable[tuple[str, str]]) -> _Tally:
        n = len(names)
        tally = cls(pair={}, seats=[[] for _ in range(n)], visits=[[0] * T for _ in range(n)],
                    rest_rounds=[[] for _ in range(n)], playing=[], pairs_seated=0,
                    club_meetings=0, keep_apart_meetings=0, problems=[])
        index = {p: i for i, p in enumerate(names)}
        keep = {frozenset((a, b)) for a, b in keep_apart}
        for r, rnd in enumerate(rounds):
            seen: set[str] = set()
            for t, table in enumerate(rnd):
                tally._seat_table(r, t, table, index, seen)
                tally._count_meetings([index[p] for p in dict.fromkeys(table) if p in index],
                                      names, clubs, keep)
            tally.playing.append(seen)
            for i, p in enumerate(names):
                if p not in seen:
                    tally.rest_rounds[i].append(r + 1)
        return tally

    def _seat_table(self, r: int, t: int, table: Sequence[str], index: Mapping[str, int],
                    seen: set[str]) -> None:
        """Seats and table visits of one table; a short table, an unknown player or one
        seated twice in the round is a problem."""
        if len(table) != TABLE_SIZE:
            self.problems.append(f"Round {r + 1}, table {t + 1}: {len(table)} players "
                                 f"instead of {TABLE_SIZE}.")
        for s, p in enumerate(table):
            if p not in index:
                self.problems.append(f"Round {r + 1}, table {t + 1}: unknown player {p!r}.")
                continue
            if p in seen:
                self.problems.append(f"Round {r + 1}: {p} is seated twice.")
                continue
            seen.add(p)
            self.seats[index[p]].append(s + 1)
            self.visits[index[p]][t] += 1

    def _count_meetings(self, idx: list[int], names: list[str], clubs: Mapping[str, str],
                        keep: set[frozenset[str]]) -> None:
        """Pairs meeting at one table (`idx`: its known players, each once)."""
        self.pairs_seated += len(idx) * (len(idx) - 1) // 2
        pair = self.pair
        for i, a in enumerate(idx):
            for b in idx[i + 1:]:
                key = (a, b) if a < b else (b, a)
                pair[key] = pair.get(key, 0) + 1
                if clubs.get(names[a]) and clubs.get(names[a]) == clubs.get(names[b]):
                    self.club_meetings += 1
                if frozenset((names[a], names[b])) in keep:
                    self.keep_apart_meetings += 1


def _unequal_games(names: list[str], games: list[int]) -> list[str]:
    if not names or len(set(games)) <= 1:
        return []
    return ["Players do not all play the same number of games: "
            + ", ".join(f"{names[i]} {games[i]}" for i in range(len(names))
                        if games[i] != max(games)) + f" (others {max(games)})."]


def _meeting_histogram(pair: Mapping[tuple[int, int], int], n: int) -> dict[int, int]:
    """Games together → number of pairs, the pairs that never met included (under 0)."""
    hist: dict[int, int] = {}
    for c in pair.values():
        hist[c] = hist.get(c, 0) + 1
    hist[0] = n * (n - 1) // 2 - len(pair)
    return hist


def _bound_for(n: int, R: int, T: int, pairs_seated: int) -> int:
    """The format's lower bound when the seating has a valid format's shape; for any other
    seating the pair-count bound of the pairs it actually seats."""
    if n >= TABLE_SIZE and R and format_is_valid(n, R, tables=T):
        return lower_bound(n, R, tables=T)
    return pair_count_bound(pairs_seated, n * (n - 1) // 2)


def _player_fairness(i: int, names: list[str], tally: _Tally, clubs: Mapping[str, str]) -> PlayerFairness:
    opp: dict[int, int] = {}
    for (a, b), c in tally.pair.items():
        if a == i:
            opp[b] = c
        elif b == i:
            opp[a] = c
    if opp:
        j, c = max(opp.items(), key=lambda kv: (kv[1], -kv[0]))
    else:
        j, c = -1, 0
    sts = tally.seats[i]
    grp = [0, 0, 0]
    for s in sts:
        grp[seat_group(s)] += 1
    return PlayerFairness(
        name=names[i], club=clubs.get(names[i]), games=len(sts),
        rest_rounds=tuple(tally.rest_rounds[i]), distinct_opponents=len(opp),
        most_repeated_opponent=names[j] if c >= 2 else "",
        most_repeated_count=c if c >= 2 else (1 if c else 0),
        seats=tuple(sts), seat_repeats=len(sts) - len(set(sts)),
        seat_groups=(grp[0], grp[1], grp[2]), seat_sum=sum(sts),
        table_visits=tuple(tally.visits[i]))


def _same_group_meetings(rounds: Sequence[Sequence[Sequence[str]]], group: Mapping[str, str]) -> int:
    """Pairs of one group (team) seated at one table, over every table of every round."""
    total = 0
    for rnd in rounds:
        for table in rnd:
            sizes: dict[str, int] = {}
            for p in dict.fromkeys(table):
                if group.get(p):
                    sizes[group[p]] = sizes.get(group[p], 0) + 1
            total += sum(m * (m - 1) // 2 for m in sizes.values())
    return total
