"""The draws themselves: qualifying rounds, a several-table stage, a one-table final.

A qualifying draw fixes the rests, searches the groups (who shares a table, see
`scoring.draw.search`; square fields start from orthogonal rounds, see
`scoring.draw.orthogonal`), then orders them over the physical tables and seats everybody
(`scoring.draw.seats`); the result carries its fairness report (`scoring.draw.measure`).

The same players in the same order with the same seed give the same draw, unless a
`deadline` stops the search early.  No clock is read here: a caller that wants a deadline,
progress reports or the elapsed seconds passes its clock in.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, Sequence

from scoring.draw.formats import TABLE_SIZE, DrawFormatError, Teams, bounds, check_format, same_club_minimum
from scoring.draw.measure import evaluate
from scoring.draw.orthogonal import orthogonal_rounds
from scoring.draw.report import FairnessReport
from scoring.draw.search import W_HARD, GroupProblem, optimise_groups
from scoring.draw.seats import assign_seats, assign_tables, final_seating

__all__ = ["Draw", "Teams", "draw_qualifying", "draw_stage", "draw_final", "check_one_per_game"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Draw:
    """A drawn stage: the seating of every round, who rests, and its fairness report."""

    rounds: tuple[tuple[tuple[str, ...], ...], ...]   # rounds[r][t][seat-1] = nickname
    rests: tuple[tuple[str, ...], ...]                # rests[r] = resting nicknames
    seed: int
    report: FairnessReport


def _check_players(players: Sequence[str]) -> list[str]:
    names = [str(p) for p in players]
    dup = sorted({p for p in names if names.count(p) > 1})
    if dup:
        raise ValueError("Duplicate player names: " + ", ".join(dup))
    return names


def _rest_schedule(n: int, rest: int, rounds: int, rng: random.Random) -> list[list[int]]:
    """Rests taken in a shuffled cyclic order: nobody rests twice before everybody has
    rested once, and consecutive rests only happen when more than half the field rests."""
    if rest == 0:
        return [[] for _ in range(rounds)]
    order = list(range(n))
    rng.shuffle(order)
    return [[order[(r * rest + i) % n] for i in range(rest)] for r in range(rounds)]


def _start_is_settled(start: Sequence[Sequence[Sequence[int]]], club_of: Sequence[int],
                      kap: Sequence[tuple[int, int]], club_minimum: int) -> bool:
    """True when every round of `start` seats no keep-apart pair together and has at most
    `club_minimum` same-club meetings (what spreading each club evenly gives in one round)."""
    for rnd in start:
        table_of = {p: t for t, group in enumerate(rnd) for p in group}
        if any(table_of[a] == table_of[b] for a, b in kap):
            return False
        if club_of:
            per_table: dict[tuple[int, int], int] = {}
            for p, t in table_of.items():
                if club_of[p] >= 0:
                    per_table[(club_of[p], t)] = per_table.get((club_of[p], t), 0) + 1
            if sum(v * (v - 1) // 2 for v in per_table.values()) > club_minimum:
                return False
    return True


def _club_indices(names: Sequence[str], index: Mapping[str, int],
                  clubs: Mapping[str, str]) -> tuple[int, ...]:
    """Club number per player (-1: none), () when no club has two players in the field."""
    unknown = sorted(p for p in clubs if p not in index)
    if unknown:
        raise ValueError("Clubs given for unknown players: " + ", ".join(unknown))
    # clubs with a single member cannot meet themselves; dropping them keeps the search lean
    sizes: dict[str, int] = {}
    for p in names:
        if clubs.get(p):
            sizes[clubs[p]] = sizes.get(clubs[p], 0) + 1
    club_ids = {c: i for i, c in enumerate(sorted(c for c, m in sizes.items() if m > 1))}
    return tuple(club_ids.get(clubs.get(p, ""), -1) for p in names) if club_ids else ()


def _keep_apart_indices(index: Mapping[str, int],
                        keep_apart: Iterable[tuple[str, str]]) -> list[tuple[int, int]]:
    kap = []
    for a, b in keep_apart:
        if a not in index or b not in index:
            raise ValueError(f"Keep-apart pair names an unknown player: {a!r}, {b!r}")
        if a != b:
            kap.append((index[a], index[b]))
    return kap


def _search_schedule(rounds: int, k: int, tables: int) -> tuple[int, float]:
    """(restarts, move factor) of the group search for a format."""
    per_restart = max(20000, int(rounds * k * tables * 1200))
    max_restarts = max(1, min(40, 3_000_000 // per_restart))
    move_factor = 1200.0
    if max_restarts <= 2:
        # Large fields (100/10/10): restarts cut short by a time limit end hot, in a poor
        # state; one longer schedule of about 2.4M moves (~6 s) finishes and does better.
        max_restarts = 1
        move_factor = max(1200.0, 2_400_000 / (rounds * k * tables))
    return max_restarts, move_factor


def _square_start(n: int, k: int, rounds: int, rng: random.Random, club_of: Sequence[int],
                  kap: Sequence[tuple[int, int]],
                  club_minimum_per_round: int) -> tuple[list[list[list[int]]], int]:
    """(starting rounds, how many of them stay fixed) for a square field without rests;
    ([], 0) for any other field.

    Square fields (k tables of k) start from rounds that are orthogonal by construction,
    with club mates and keep-apart pairs spread over the grid, and keep those rounds fixed
    when they already are as good as clubs and keep-apart pairs allow."""
    apart = [list(pair) for pair in kap]
    if club_of:
        members: dict[int, list[int]] = {}
        for p, c in enumerate(club_of):
            if c >= 0:
                members.setdefault(c, []).append(p)
        apart += list(members.values())
    start = orthogonal_rounds(n, k, rounds, rng, apart)
    fixed = len(start) if start and _start_is_settled(start, club_of, kap, club_minimum_per_round) else 0
    return start, fixed


def _draw(names: list[str], rounds: int, seed: int, clubs: Mapping[str, str] | None,
          keep_apart: Iterable[tuple[str, str]], progress: Callable[[float, int, int], None] | None,
          deadline: float | None, clock: Callable[[], float] | None, k: int = TABLE_SIZE,
          tables: int | None = None, teams: Teams | None = None) -> Draw:
    if deadline is not None and clock is None:
        raise ValueError("A deadline needs the clock it is measured on.")
    started = clock() if clock is not None else 0.0
    n = len(names)
    check_format(n, rounds, k, tables)
    T = n // k if tables is None else tables
    rest = n - k * T
    g = k * T * rounds // n
    rng = random.Random(seed)
    index = {p: i for i, p in enumerate(names)}
    hard = teams is not None and teams.one_per_game
    if hard:
        check_one_per_game(teams.of, names, T)
    clubs = dict(clubs or {})
    # teams, when the draw has them, are the group it spreads (a team is what a team tournament
    # keeps apart; its members are usually club mates anyway)
    apart = dict(teams.of) if teams is not None else clubs
    club_of = _club_indices(names, index, apart)
    kap = _keep_apart_indices(index, keep_apart)
    rests = _rest_schedule(n, rest, rounds, rng)
    bound = max(bounds(n, rounds, k, T))
    S = k * (k - 1) // 2 * T * rounds
    lam = (k - 1) * g / (n - 1)
    playing = [[names[p] for p in range(n) if p not in set(rests[r])] for r in range(rounds)]
    club_target = same_club_minimum(playing, apart if club_of else {}, T)
    # Pair cap at least 3: with λ ≤ 1 a cap of 2 (penalising every third meeting) cost
    # 100/10/10 about 110 of Σc² (5992 → 5870) to save nine pairs meeting three times.
    problem = GroupProblem(
        n=n, k=k, tables=T, rounds=rounds, rests=tuple(tuple(r) for r in rests),
        club_of=club_of, keep_apart=tuple(kap),
        pair_cap=max(3, math.ceil(lam) + 1), target=(bound - S + 1) // 2, club_target=club_target,
        club_weight=W_HARD if hard else 0)
    max_restarts, move_factor = _search_schedule(rounds, k, T)
    cb = None
    if progress is not None:
        def cb(frac: float, c2: int) -> None:
            progress(frac, S + 2 * c2, bound)
    # seats and tables take a few percent of the time: keep that share of the limit for them
    search_deadline = None if deadline is None else started + 0.85 * (deadline - started)
    # without rests every round seats everybody, so the club minimum is the same each round
    if hard:  # every round dealt team by team over the tables: no teammates meet, and none ever will
        start, fixed = _one_per_game_start(rests, n, k, T, club_of, rng), 0
    else:
        start, fixed = (_square_start(n, k, rounds, rng, club_of, kap, club_target // rounds)
                        if rest == 0 else ([], 0))
    res = optimise_groups(problem, rng, max_restarts=max_restarts, deadline=search_deadline,
                          clock=clock, progress=cb, move_factor=move_factor,
                          fix_first_round=not start and not club_of and not kap and rest == 0,
                          start=start or None, fixed_rounds=fixed)
    tables = assign_tables(res.groups, n, rng=rng)
    seated = assign_seats(tables, n, k, rng=rng)
    out_rounds = tuple(tuple(tuple(names[p] for p in tb) for tb in rnd) for rnd in seated)
    out_rests = tuple(tuple(names[p] for p in sorted(r)) for r in rests)
    if progress is not None:
        progress(1.0, S + 2 * res.c2, bound)
    report = evaluate(names, out_rounds, clubs, keep_apart=[(names[a], names[b]) for a, b in kap],
                      seed=seed, seconds=None if clock is None else clock() - started,
                      teams=teams.of if teams is not None else None)
    if hard and report.teammate_meetings:  # the search never accepts one; a guard, not a retry
        raise RuntimeError(f"the draw seated teammates together {report.teammate_meetings} time(s)")
    return Draw(rounds=out_rounds, rests=out_rests, seed=seed, report=report)


def check_one_per_game(teams: Mapping[str, str], players: Sequence[str], tables: int) -> None:
    """Refuse a field where a game cannot seat at most one member of each team: a team with
    more players than a round has tables."""
    sizes: dict[str, int] = {}
    for p in players:
        if teams.get(p):
            sizes[teams[p]] = sizes.get(teams[p], 0) + 1
    too_big = sorted((team, m) for team, m in sizes.items() if m > tables)
    if too_big:
        listed = ", ".join(f"{team} ({m})" for team, m in too_big)
        raise DrawFormatError(
            f"One member of each team per game needs teams of at most {tables} players "
            f"(a round has {tables} table(s)); too big: {listed}. Make the teams smaller or turn "
            f"teams.one_per_game off.",
            ru=f"По одному игроку команды за столом: в команде не больше {tables} игроков "
               f"(столов в туре: {tables}); больше в командах: {listed}. Уменьшите команды или "
               f"выключите teams.one_per_game.")


def _one_per_game_start(rests: Sequence[Sequence[int]], n: int, k: int, T: int, team_of: Sequence[int],
                        rng: random.Random) -> list[list[list[int]]]:
    """Rounds where no table seats two teammates: the round's players listed team after team
    (teams and members in random order), the i-th to table i mod T — a team of at most T
    players lands on different tables, and every table gets exactly k."""
    start = []
    for rest in rests:
        resting = set(rest)
        groups: dict[int, list[int]] = {}
        for p in range(n):
            if p not in resting:
                groups.setdefault(team_of[p] if team_of and team_of[p] >= 0 else -1 - p, []).append(p)
        order = list(groups.values())
        rng.shuffle(order)
        listed = []
        for members in order:
            rng.shuffle(members)
            listed.extend(members)
        start.append([listed[t::T] for t in range(T)])
    return start


def draw_qualifying(players: Sequence[str], *, rounds: int, seed: int, tables: int | None = None,
                    clubs: Mapping[str, str] | None = None,
                    keep_apart: Iterable[tuple[str, str]] = (),
                    progress: Callable[[float, int, int], None] | None = None,
                    deadline: float | None = None,
                    clock: Callable[[], float] | None = None,
                    teams: Teams | None = None) -> Draw:
    """Qualifying rounds at `tables` tables a round (default ⌊players/10⌋; fewer leave more
    players resting each round).

    The core reads no clock: the caller passes one (`clock()`, seconds, e.g.
    `time.monotonic`) to have the elapsed seconds in the report, `progress` reports and a
    `deadline` (a `clock()` reading) at which the best draw found so far is returned.
    `progress(fraction_done, current_ssq, bound)` is called at most about four times a
    second while searching, which needs the clock, and once when the draw is done.  ``teams``:
    teammates kept apart instead of club mates; with ``one_per_game``, never two at one table
    (refused when a team has more players than a round has tables).
    """
    names = _check_players(players)
    return _draw(names, rounds, seed, clubs, keep_apart, progress, deadline, clock, tables=tables, teams=teams)


def draw_stage(players: Sequence[str], *, tables: int, games: int, seed: int,
               clubs: Mapping[str, str] | None = None,
               clock: Callable[[], float] | None = None, teams: Teams | Mapping[str, str] | None = None) -> Draw:
    """A stage where everybody plays every game (e.g. semifinal: 20 players, 2 tables,
    3 games): opponents, seats and tables balanced as in qualifying.  With a `clock` the
    report has the elapsed seconds.  ``teams``: teammates kept apart (a plain mapping, or
    :class:`Teams`); with ``one_per_game`` never two at one table, as in qualifying (refused
    when a team has more players than the stage has tables — :func:`scoring.advance.stage_teams`
    decides that before drawing)."""
    names = _check_players(players)
    if len(names) != TABLE_SIZE * tables:
        raise DrawFormatError(
            f"A stage of {tables} table(s) needs exactly {TABLE_SIZE * tables} players "
            f"(got {len(names)}).",
            [(TABLE_SIZE * tables, tables, games)])
    if teams is not None and not isinstance(teams, Teams):
        teams = Teams(of=teams)
    return _draw(names, games, seed, clubs, (), None, None, clock, teams=teams if teams and teams.of else None)


def draw_final(players: Sequence[str], *, games: int, clock: Callable[[], float] | None = None,
               teams: Mapping[str, str] | None = None) -> Draw:
    """One table of 10: a different seat every game for everybody, equal seat sums and
    balanced seat groups.  No seed: a final's seating follows from the list alone.  With a
    `clock` the report has the elapsed seconds; with ``teams`` it counts teammates at the table
    (one table leaves nothing to keep apart)."""
    names = _check_players(players)
    if len(names) != TABLE_SIZE:
        raise DrawFormatError(f"A final is one table of {TABLE_SIZE} players "
                              f"(got {len(names)}).", [(TABLE_SIZE, 1, games)])
    if games < 1:
        raise DrawFormatError("A final needs at least one game.", [(TABLE_SIZE, 1, 4)])
    started = clock() if clock is not None else 0.0
    seats = final_seating(games, TABLE_SIZE)
    rounds = []
    for j in range(games):
        table = [""] * TABLE_SIZE
        for i, s in enumerate(seats[j]):
            table[s - 1] = names[i]
        rounds.append((tuple(table),))
    out = tuple(rounds)
    report = evaluate(names, out, seed=0, seconds=None if clock is None else clock() - started, teams=teams or None)
    return Draw(rounds=out, rests=tuple(() for _ in range(games)), seed=0, report=report)
