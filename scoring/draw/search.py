"""Who sits at the same table as whom: the opponent-balancing search behind the draw.

The search works on "groups" only (which players share a table in each round); physical
table numbers and seats are decided later (`scoring.draw.seats`) because neither changes
who meets whom.

Why the cost is computed from round-pair overlap matrices instead of pair counts:
Σ over pairs of c² = S + 2·Σ over pairs C(c, 2), and Σ over pairs C(c, 2) counts every
(pair, two rounds) in which the pair shares a table both times, which equals
Σ over round pairs (r, s) Σ over table cells C(M_rs[t][u], 2), where M_rs[t][u] is the number
of players at table t in round r and at table u in round s.  Swapping two players of round r
between tables changes four cells of each matrix M_rs, so the exact change of Σc² costs
O(rounds) integer operations rather than O(table size) pair updates, and the matrices show
directly why the round-pair lower bound holds.  The search is simulated annealing on
"swap two players of one round sitting at different tables" with restarts (a run that froze
one or two units above the bound is first reheated from its best state); it stops as soon as
it reaches the proven lower bound.

Everything is integer arithmetic on flat lists (plain CPython), and the random stream comes
only from the `random.Random` passed in, so a seed reproduces the same groups.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Callable, Sequence

__all__ = ["GroupProblem", "GroupResult", "optimise_groups", "pair_counts", "ssq_of"]


@dataclass(frozen=True, kw_only=True, slots=True)
class GroupProblem:
    """Everything the search needs, as player indices 0..n-1."""

    n: int
    k: int                                   # table size (10 in the public API)
    tables: int                              # tables per round
    rounds: int
    rests: tuple[tuple[int, ...], ...]       # rests[r] = resting players of round r
    club_of: tuple[int, ...] = ()            # club index per player, -1 = none; () = no clubs
    keep_apart: tuple[tuple[int, int], ...] = ()
    pair_cap: int = 1 << 30                  # pairs above this many meetings are penalised
    target: int = 0                          # Σ C(c,2) at the proven bound: stop when reached
    club_target: int = 0                     # minimal possible same-club meetings


@dataclass(frozen=True, kw_only=True, slots=True)
class GroupResult:
    groups: tuple[tuple[tuple[int, ...], ...], ...]   # groups[r][t] = k players
    c2: int                                  # Σ over pairs C(c, 2)
    club_meetings: int
    keep_apart_meetings: int
    over_cap: int                            # Σ over pairs max(0, c - pair_cap)
    moves: int
    restarts: int
    reached_target: bool


# Penalty weights in units of one shared (pair, round-pair), i.e. half a unit of Σc².
# A same-club meeting weighs like eight repeated meetings: with a weight of three the search
# traded one club meeting for one unit of Σc² (30 players, six clubs of three), and
# organisers treat club mates at one table as the worse unfairness.  Keep-apart pairs are
# explicit organiser requests, so they weigh more still.  Pairs far above the mean are
# what players notice first.
W_CLUB = 8
W_KEEP = 12
W_CAP = 4

# Annealing temperatures in the same units: a fresh run starts at T_START; a reheat of a run
# that froze near the bound starts at REHEAT_T with REHEAT_SCALE of the move budget.
T_START = 0.5
REHEAT_T = 0.35
REHEAT_SCALE = 0.5


def ssq_of(groups: Sequence[Sequence[Sequence[int]]], n: int) -> int:
    """Σ over pairs of c² for groups given as player indices."""
    pc = pair_counts(groups, n)
    return sum(c * c for c in pc)


def pair_counts(groups: Sequence[Sequence[Sequence[int]]], n: int) -> list[int]:
    """Games shared by each pair, flat upper triangle in row-major order (i < j)."""
    pc = [0] * (n * n)
    for rnd in groups:
        for table in rnd:
            for i, a in enumerate(table):
                for b in table[i + 1:]:
                    pc[a * n + b if a < b else b * n + a] += 1
    return [pc[a * n + b] for a in range(n) for b in range(a + 1, n)]


def _greedy_round(rng: random.Random, playing: list[int], k: int, tables: int, n: int,
                  pc: list[int], club_of: Sequence[int], kap: list[list[int]]) -> list[list[int]]:
    """One round built greedily: each player (random order) joins the open table where he
    has met the fewest players so far; gives the annealing a start far better than random."""
    order = playing[:]
    rng.shuffle(order)
    tabs: list[list[int]] = [[] for _ in range(tables)]
    for a in order:
        best = None
        best_cost = None
        row = a * n
        ca = club_of[a] if club_of else -1
        for t in range(tables):
            members = tabs[t]
            if len(members) >= k:
                continue
            cost = 0
            for q in members:
                c = pc[row + q]
                cost += 2 * c + 1
                if ca >= 0 and club_of[q] == ca:
                    cost += 2 * W_CLUB
            for q in kap[a]:
                if q in members:
                    cost += 2 * W_KEEP
            # random tie-break keeps different seeds genuinely different
            cost = cost * 4 + int(rng.random() * 4)
            if best_cost is None or cost < best_cost:
                best, best_cost = t, cost
        tabs[best].append(a)
        for q in tabs[best]:
            if q != a:
                pc[row + q] += 1
                pc[q * n + a] += 1
    return tabs


def optimise_groups(problem: GroupProblem, rng: random.Random, *,
                    max_restarts: int = 60,
                    deadline: float | None = None,
                    clock: Callable[[], float] | None = None,
                    progress: Callable[[float, int], None] | None = None,
                    fix_first_round: bool = False,
                    move_factor: float = 1200.0,
                    start: Sequence[Sequence[Sequence[int]]] | None = None,
                    fixed_rounds: int = 0) -> GroupResult:
    """Simulated annealing with restarts; returns the best state seen.

    The time is the caller's: `clock()` (seconds) is read between blocks of moves to stop
    at `deadline` (a `clock()` reading) and to call `progress(fraction, c2)` at most about
    four times a second; without a clock neither happens.
    """
    if deadline is not None and clock is None:
        raise ValueError("A deadline needs the clock it is measured on.")
    best: GroupResult | None = None
    total_moves = 0
    restart = 0
    last_report = clock() if clock is not None else 0.0
    restart_from: Sequence[Sequence[Sequence[int]]] | None = None
    scale = 1.0
    t_hi = T_START
    while True:
        res, moves, last_report, stopped = _anneal_once(
            problem, rng, fix_first_round=fix_first_round, deadline=deadline,
            clock=clock, progress=progress, last_report=last_report, restart=restart,
            max_restarts=max_restarts, move_factor=move_factor * scale,
            start=restart_from if restart_from is not None else start,
            fixed_rounds=fixed_rounds, t_hi=t_hi)
        total_moves += moves
        key = _key(res)
        if best is None or key < _key(best):
            best = res
        restart += 1
        done = (best.c2 <= problem.target and best.over_cap == 0
                and best.club_meetings <= problem.club_target and best.keep_apart_meetings == 0)
        if done or stopped or restart >= max_restarts:
            break
        # A fresh run that froze just above the bound (1-2 units on 40/4/7) is reheated from
        # its best state for half a schedule before starting over: on 60 seeds of 40/4/7 the
        # slowest draw fell from 2.2-2.6 s to 1.3 s (median unchanged, about 0.5 s).
        near = (restart_from is None and res.c2 <= problem.target + 2 and res.over_cap == 0
                and res.club_meetings <= problem.club_target and res.keep_apart_meetings == 0)
        if near:
            restart_from, scale, t_hi = best.groups, REHEAT_SCALE, REHEAT_T
        else:
            restart_from, scale, t_hi = None, 1.0, T_START
    assert best is not None
    return GroupResult(groups=best.groups, c2=best.c2, club_meetings=best.club_meetings,
                       keep_apart_meetings=best.keep_apart_meetings, over_cap=best.over_cap,
                       moves=total_moves, restarts=restart, reached_target=best.c2 <= problem.target)


def _key(res: GroupResult) -> tuple[int, int]:
    weighted = (res.c2 + W_CLUB * res.club_meetings + W_KEEP * res.keep_apart_meetings
                + W_CAP * res.over_cap)
    return (weighted, res.c2)


def _anneal_once(problem: GroupProblem, rng: random.Random, *, fix_first_round: bool,
                 deadline: float | None, clock, progress, last_report: float, restart: int,
                 max_restarts: int, move_factor: float, start=None, fixed_rounds: int = 0,
                 t_hi: float = T_START):
    n, k, T, R = problem.n, problem.k, problem.tables, problem.rounds
    KT = k * T
    W = T + 1                      # matrices carry one extra row/column: "resting"
    REST = T
    rnd = rng.random
    club_of = list(problem.club_of) if problem.club_of else []
    n_clubs = (max(club_of) + 1) if club_of else 0
    kap: list[list[int]] = [[] for _ in range(n)]
    for a, b in problem.keep_apart:
        kap[a].append(b)
        kap[b].append(a)
    has_kap = bool(problem.keep_apart)
    has_club = n_clubs > 0 and any(c >= 0 for c in club_of)
    has_rest = any(problem.rests)
    cap = problem.pair_cap

    # ---- start: greedy rounds -------------------------------------------------------
    pcg = [0] * (n * n)
    rest_sets = [set(rs) for rs in problem.rests]
    slots: list[list[int]] = []
    for r in range(R):
        playing = [p for p in range(n) if p not in rest_sets[r]]
        if start is not None and r < len(start) and start[r]:
            tabs = [list(tb) for tb in start[r]]
            for tb in tabs:
                for a in tb:
                    for b in tb:
                        if a != b:
                            pcg[a * n + b] += 1
        elif fix_first_round and r == 0:
            tabs = [playing[t * k:(t + 1) * k] for t in range(T)]
            for tb in tabs:
                for a in tb:
                    for b in tb:
                        if a != b:
                            pcg[a * n + b] += 1
        else:
            tabs = _greedy_round(rng, playing, k, T, n, pcg, club_of, kap)
        slots.append([p for tb in tabs for p in tb])
    pc = pcg                        # symmetric pair counts, both (a,b) and (b,a)

    tab = [[REST] * n for _ in range(R)]
    for r in range(R):
        for x, p in enumerate(slots[r]):
            tab[r][p] = x // k
    M = [[None] * R for _ in range(R)]
    for r in range(R):
        for s in range(R):
            if r == s:
                continue
            m = [0] * (W * W)
            tr, ts = tab[r], tab[s]
            for p in range(n):
                m[tr[p] * W + ts[p]] += 1
            M[r][s] = m
    # cost terms
    c2 = 0
    for r in range(R):
        for s in range(r + 1, R):
            m = M[r][s]
            for t in range(T):
                for u in range(T):
                    v = m[t * W + u]
                    c2 += v * (v - 1) // 2
    cc = []
    club_cost = 0
    for r in range(R):
        row = [0] * (T * max(n_clubs, 1))
        if has_club:
            for p in range(n):
                if club_of[p] >= 0 and tab[r][p] != REST:
                    row[tab[r][p] * n_clubs + club_of[p]] += 1
            club_cost += sum(v * (v - 1) // 2 for v in row)
        cc.append(row)
    kap_cost = 0
    for a, b in problem.keep_apart:
        for r in range(R):
            if tab[r][a] == tab[r][b] != REST:
                kap_cost += 1
    over = 0
    for a in range(n):
        for b in range(a + 1, n):
            if pc[a * n + b] > cap:
                over += pc[a * n + b] - cap
    cost = c2 + W_CLUB * club_cost + W_KEEP * kap_cost + W_CAP * over

    others = []
    for r in range(R):
        others.append([(M[r][s], tab[s], M[s][r]) for s in range(R) if s != r])

    target_cost = problem.target + W_CLUB * problem.club_target

    def snapshot():
        groups = tuple(tuple(tuple(slots[r][t * k:(t + 1) * k]) for t in range(T)) for r in range(R))
        return GroupResult(groups=groups, c2=c2, club_meetings=club_cost,
                           keep_apart_meetings=kap_cost, over_cap=over, moves=0,
                           restarts=0, reached_target=c2 <= problem.target)

    best = snapshot()
    if T < 2 or (c2 <= problem.target and cost <= target_cost and over == 0):
        return best, 0, last_report, False

    # ---- schedule --------------------------------------------------------------------
    # Move budget grows with the number of (round, player) slots; the temperature falls
    # geometrically from "most uphill moves of size 1-2 accepted" to "almost greedy".
    slots_total = R * KT
    n_moves = max(20000, int(slots_total * move_factor))
    # Tuned on 40/4/7, 30/3/10, 100/10/10: hotter starts only add time, colder ends freeze
    # in states two or three units above the bound.
    t_lo = 0.22
    block = 2048
    n_blocks = max(1, n_moves // block)
    ratio = (t_lo / t_hi) ** (1.0 / n_blocks)
    temp = t_hi
    r_lo = 1 if fix_first_round and R > 1 else 0
    r_lo = max(r_lo, min(fixed_rounds, R - 1))
    r_span = R - r_lo
    moves = 0
    stopped = False
    log = math.log
    KTk = KT - k
    for blk in range(n_blocks):
        inv_t = 1.0 / temp
        for it in range(block):
            r = r_lo + int(rnd() * r_span)
            sl = slots[r]
            x = int(rnd() * KT)
            t1 = x // k
            y = int(rnd() * KTk)
            if y >= t1 * k:
                y += k
            t2 = y // k
            a = sl[x]
            b = sl[y]
            o1 = t1 * W
            o2 = t2 * W
            d = 0
            if has_rest:
                for Ms, ts, _ in others[r]:
                    ua = ts[a]
                    ub = ts[b]
                    if ua != ub:
                        if ua != REST:
                            d += Ms[o2 + ua] - Ms[o1 + ua] + 1
                        if ub != REST:
                            d += Ms[o1 + ub] - Ms[o2 + ub] + 1
            else:
                for Ms, ts, _ in others[r]:
                    ua = ts[a]
                    ub = ts[b]
                    if ua != ub:
                        d += Ms[o2 + ua] - Ms[o1 + ua] + Ms[o1 + ub] - Ms[o2 + ub] + 2
            dc = 0
            if has_club:
                ca = club_of[a]
                cb = club_of[b]
                if ca != cb:
                    ccr = cc[r]
                    if ca >= 0:
                        dc += ccr[t2 * n_clubs + ca] - ccr[t1 * n_clubs + ca] + 1
                    if cb >= 0:
                        dc += ccr[t1 * n_clubs + cb] - ccr[t2 * n_clubs + cb] + 1
            dk = 0
            if has_kap:
                tr = tab[r]
                for q in kap[a]:
                    tq = tr[q]
                    if tq == t1:
                        dk -= 1
                    elif tq == t2 and q != b:
                        dk += 1
                for q in kap[b]:
                    tq = tr[q]
                    if tq == t2:
                        dk -= 1
                    elif tq == t1 and q != a:
                        dk += 1
            delta = d + W_CLUB * dc + W_KEEP * dk
            # Metropolis: accept if delta <= -temp*ln(u); the cheap test first.
            if delta > 0:
                u = rnd()
                if u <= 0.0 or delta * inv_t > -log(u):
                    continue
            # Pair-cap penalty needs the pair counts (O(k)); only computed for moves that
            # would otherwise be accepted.  Rejected moves never need it.
            dp = 0
            ra = a * n
            rb = b * n
            base1 = t1 * k
            base2 = t2 * k
            for i in range(base1, base1 + k):
                q = sl[i]
                if q != a:
                    if pc[ra + q] > cap:
                        dp -= 1
                    if pc[rb + q] >= cap:
                        dp += 1
            for i in range(base2, base2 + k):
                q = sl[i]
                if q != b:
                    if pc[rb + q] > cap:
                        dp -= 1
                    if pc[ra + q] >= cap:
                        dp += 1
            if dp > 0:
                delta2 = delta + W_CAP * dp
                if delta2 > 0:
                    u = rnd()
                    if u <= 0.0 or delta2 * inv_t > -log(u):
                        continue
            # ---- apply ----
            for Ms, ts, Mt in others[r]:
                ua = ts[a]
                ub = ts[b]
                if ua != ub:
                    Ms[o1 + ua] -= 1
                    Ms[o2 + ua] += 1
                    Ms[o2 + ub] -= 1
                    Ms[o1 + ub] += 1
                    ra_ = ua * W
                    rb_ = ub * W
                    Mt[ra_ + t1] -= 1
                    Mt[ra_ + t2] += 1
                    Mt[rb_ + t2] -= 1
                    Mt[rb_ + t1] += 1
            for i in range(base1, base1 + k):
                q = sl[i]
                if q != a:
                    pc[ra + q] -= 1
                    pc[q * n + a] -= 1
                    pc[rb + q] += 1
                    pc[q * n + b] += 1
            for i in range(base2, base2 + k):
                q = sl[i]
                if q != b:
                    pc[rb + q] -= 1
                    pc[q * n + b] -= 1
                    pc[ra + q] += 1
                    pc[q * n + a] += 1
            if has_club:
                ca = club_of[a]
                cb = club_of[b]
                if ca != cb:
                    ccr = cc[r]
                    if ca >= 0:
                        ccr[t1 * n_clubs + ca] -= 1
                        ccr[t2 * n_clubs + ca] += 1
                    if cb >= 0:
                        ccr[t2 * n_clubs + cb] -= 1
                        ccr[t1 * n_clubs + cb] += 1
            tr = tab[r]
            tr[a] = t2
            tr[b] = t1
            sl[x] = b
            sl[y] = a
            c2 += d
            club_cost += dc
            kap_cost += dk
            over += dp
            cost += delta + W_CAP * dp
            if cost <= target_cost and c2 <= problem.target and over == 0:
                best = snapshot()
                return best, moves + it + 1, last_report, False
        moves += block
        # Snapshots only at block ends: at low temperature the state rarely leaves its
        # best basin within one block, and copying every improvement would cost more.
        if _key_tuple(cost, c2) < _key(best):
            best = snapshot()
        temp *= ratio
        if clock is not None and (progress is not None or deadline is not None):
            now = clock()
            if progress is not None and now - last_report >= 0.25:
                last_report = now
                frac = min(1.0, (restart + (blk + 1) / n_blocks) / max_restarts)
                progress(frac, c2)
            if deadline is not None and now >= deadline:
                stopped = True
                break
    # Snapshots are taken at block ends; compare the final state too.
    if _key_tuple(cost, c2) < _key(best):
        best = snapshot()
    return best, moves, last_report, stopped


def _key_tuple(cost: int, c2: int) -> tuple[int, int]:
    return (cost, c2)
