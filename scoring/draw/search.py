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
    # what one same-group meeting weighs: W_CLUB for clubs (or teams kept apart); W_HARD when
    # the group is a team and each game may seat only one of its members (a hard rule)
    club_weight: int = 0                     # 0: W_CLUB


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
# One member of a team per game: a meeting outweighs every move's gain in Σc² (a swap changes it
# by at most a few dozen units), so at any temperature of the schedule exp(-W_HARD / T) is 0 and
# a start without teammate meetings keeps none.
W_HARD = 100_000

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
                  pc: list[int], club_of: Sequence[int], kap: list[list[int]], w_club: int = W_CLUB) -> list[list[int]]:
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
                    cost += 2 * w_club
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
    timer = _Timer(clock=clock, deadline=deadline, progress=progress, max_restarts=max_restarts,
                   last_report=clock() if clock is not None else 0.0)
    best: GroupResult | None = None
    total_moves = 0
    restart = 0
    restart_from: Sequence[Sequence[Sequence[int]]] | None = None
    scale = 1.0
    t_hi = T_START
    while True:
        res, moves, stopped = _anneal_once(
            problem, rng, fix_first_round=fix_first_round, timer=timer, restart=restart,
            move_factor=move_factor * scale,
            start=restart_from if restart_from is not None else start,
            fixed_rounds=fixed_rounds, t_hi=t_hi)
        total_moves += moves
        if best is None or _key(res, problem) < _key(best, problem):
            best = res
        restart += 1
        if _meets_targets(best, problem) or stopped or restart >= max_restarts:
            break
        # A fresh run that froze just above the bound (1-2 units on 40/4/7) is reheated from
        # its best state for half a schedule before starting over: on 60 seeds of 40/4/7 the
        # slowest draw fell from 2.2-2.6 s to 1.3 s (median unchanged, about 0.5 s).
        if restart_from is None and _meets_targets(res, problem, c2_slack=2):
            restart_from, scale, t_hi = best.groups, REHEAT_SCALE, REHEAT_T
        else:
            restart_from, scale, t_hi = None, 1.0, T_START
    return GroupResult(groups=best.groups, c2=best.c2, club_meetings=best.club_meetings,
                       keep_apart_meetings=best.keep_apart_meetings, over_cap=best.over_cap,
                       moves=total_moves, restarts=restart, reached_target=best.c2 <= problem.target)


def _meets_targets(res: GroupResult, problem: GroupProblem, c2_slack: int = 0) -> bool:
    """True when `res` is at the bound (give or take `c2_slack`) with no penalty left that
    the format allows to avoid."""
    return (res.c2 <= problem.target + c2_slack and res.over_cap == 0
            and res.club_meetings <= problem.club_target and res.keep_apart_meetings == 0)


def club_weight(problem: GroupProblem) -> int:
    return problem.club_weight or W_CLUB


def _key(res: GroupResult, problem: GroupProblem) -> tuple[int, int]:
    weighted = (res.c2 + club_weight(problem) * res.club_meetings + W_KEEP * res.keep_apart_meetings
                + W_CAP * res.over_cap)
    return (weighted, res.c2)


@dataclass(kw_only=True, slots=True)
class _Timer:
    """The caller's clock, read between blocks of moves: progress reports and the deadline."""

    clock: Callable[[], float] | None
    deadline: float | None
    progress: Callable[[float, int], None] | None
    max_restarts: int
    last_report: float

    def expired(self, fraction_of_run: float, restart: int, c2: int) -> bool:
        """Report progress when a quarter second has passed; True once the deadline is."""
        if self.clock is None or (self.progress is None and self.deadline is None):
            return False
        now = self.clock()
        if self.progress is not None and now - self.last_report >= 0.25:
            self.last_report = now
            self.progress(min(1.0, (restart + fraction_of_run) / self.max_restarts), c2)
        return self.deadline is not None and now >= self.deadline


def _anneal_once(problem: GroupProblem, rng: random.Random, *, fix_first_round: bool,
                 timer: _Timer, restart: int, move_factor: float, start=None,
                 fixed_rounds: int = 0, t_hi: float = T_START) -> tuple[GroupResult, int, bool]:
    """One annealing run from a greedy (or given) start: (best state, moves, stopped by
    the deadline)."""
    state = _AnnealState.build(problem, rng, start, fix_first_round)
    best = state.snapshot()
    if problem.tables < 2 or state.at_target():
        return best, 0, False
    schedule = _Schedule.of_run(problem, move_factor, t_hi, fix_first_round, fixed_rounds)
    rnd = rng.random
    temp = t_hi
    moves = 0
    for blk in range(schedule.n_blocks):
        done = _anneal_block(state, rnd, 1.0 / temp, schedule)
        if done:
            return state.snapshot(), moves + done, False
        moves += schedule.block
        # Snapshots only at block ends: at low temperature the state rarely leaves its
        # best basin within one block, and copying every improvement would cost more.
        if (state.cost, state.c2) < _key(best, problem):
            best = state.snapshot()
        temp *= schedule.ratio
        if timer.expired((blk + 1) / schedule.n_blocks, restart, state.c2):
            return best, moves, True
    # Snapshots are taken at block ends; compare the final state too.
    if (state.cost, state.c2) < _key(best, problem):
        best = state.snapshot()
    return best, moves, False


@dataclass(frozen=True, kw_only=True, slots=True)
class _Schedule:
    """Cooling of one run: `n_blocks` blocks of `block` moves, the temperature multiplied by
    `ratio` after each; moves pick a round in r_lo .. r_lo + r_span - 1."""

    n_blocks: int
    block: int
    ratio: float
    r_lo: int
    r_span: int

    @classmethod
    def of_run(cls, problem: GroupProblem, move_factor: float, t_hi: float,
               fix_first_round: bool, fixed_rounds: int) -> _Schedule:
        R = problem.rounds
        # Move budget grows with the number of (round, player) slots; the temperature falls
        # geometrically from "most uphill moves of size 1-2 accepted" to "almost greedy".
        slots_total = R * problem.k * problem.tables
        n_moves = max(20000, int(slots_total * move_factor))
        # Tuned on 40/4/7, 30/3/10, 100/10/10: hotter starts only add time, colder ends freeze
        # in states two or three units above the bound.
        t_lo = 0.22
        block = 2048
        n_blocks = max(1, n_moves // block)
        r_lo = 1 if fix_first_round and R > 1 else 0
        r_lo = max(r_lo, min(fixed_rounds, R - 1))
        return cls(n_blocks=n_blocks, block=block, ratio=(t_lo / t_hi) ** (1.0 / n_blocks),
                   r_lo=r_lo, r_span=R - r_lo)


@dataclass(kw_only=True, slots=True)
class _AnnealState:
    """The groups being annealed and everything the O(rounds) cost change of a swap reads.

    slots[r] lists round r's players table after table (k each); tab[r][p] is p's table in
    round r (REST = tables when he rests); others[r] holds, for every other round s, the
    overlap matrices M_rs and M_sr (flat, (tables+1)², the last row/column "resting") and
    tab[s]; pc[a·n + b] counts a's games with b (both orders); cc[r][t·n_clubs + c] counts
    club c at table t.  The counters are the cost terms, `cost` their weighted sum.
    """

    n: int
    k: int
    tables: int
    rounds: int
    club_of: list[int]
    n_clubs: int
    kap: list[list[int]]
    has_club: bool
    w_club: int
    has_kap: bool
    has_rest: bool
    cap: int
    target: int
    target_cost: int
    slots: list[list[int]]
    tab: list[list[int]]
    others: list[list[tuple[list[int], list[int], list[int]]]]
    pc: list[int]
    cc: list[list[int]]
    c2: int
    club_cost: int
    kap_cost: int
    over: int
    cost: int

    @classmethod
    def build(cls, problem: GroupProblem, rng: random.Random, start, fix_first_round: bool) -> _AnnealState:
        """The state of a fresh run: `start` rounds where given, greedy rounds otherwise."""
        n, T, R = problem.n, problem.tables, problem.rounds
        club_of = list(problem.club_of) if problem.club_of else []
        n_clubs = (max(club_of) + 1) if club_of else 0
        kap: list[list[int]] = [[] for _ in range(n)]
        for a, b in problem.keep_apart:
            kap[a].append(b)
            kap[b].append(a)
        has_club = n_clubs > 0 and any(c >= 0 for c in club_of)
        w_club = club_weight(problem)
        slots, pc = _starting_slots(problem, rng, start, fix_first_round, club_of, kap)
        tab = _tables_of(slots, n, problem.k, R, REST=T)
        M = _overlap_matrices(tab, n, R, W=T + 1)
        cc, club_cost = _club_counts(tab, club_of, n_clubs, T, has_club)
        kap_cost = sum(1 for a, b in problem.keep_apart for r in range(R) if tab[r][a] == tab[r][b] != T)
        c2 = _shared_pairs(M, R, T)
        over = _over_cap(pc, n, problem.pair_cap)
        return cls(
            n=n, k=problem.k, tables=T, rounds=R, club_of=club_of, n_clubs=n_clubs, kap=kap,
            has_club=has_club, w_club=w_club, has_kap=bool(problem.keep_apart), has_rest=any(problem.rests),
            cap=problem.pair_cap, target=problem.target,
            target_cost=problem.target + w_club * problem.club_target,
            slots=slots, tab=tab, pc=pc, cc=cc,
            others=[[(M[r][s], tab[s], M[s][r]) for s in range(R) if s != r] for r in range(R)],
            c2=c2, club_cost=club_cost, kap_cost=kap_cost, over=over,
            cost=c2 + w_club * club_cost + W_KEEP * kap_cost + W_CAP * over)

    def at_target(self) -> bool:
        return self.c2 <= self.target and self.cost <= self.target_cost and self.over == 0

    def snapshot(self) -> GroupResult:
        k, T = self.k, self.tables
        groups = tuple(tuple(tuple(sl[t * k:(t + 1) * k]) for t in range(T)) for sl in self.slots)
        return GroupResult(groups=groups, c2=self.c2, club_meetings=self.club_cost,
                           keep_apart_meetings=self.kap_cost, over_cap=self.over, moves=0,
                           restarts=0, reached_target=self.c2 <= self.target)


def _count_pairs(pc: list[int], tabs: Sequence[Sequence[int]], n: int) -> None:
    for tb in tabs:
        for a in tb:
            for b in tb:
                if a != b:
                    pc[a * n + b] += 1


def _starting_slots(problem: GroupProblem, rng: random.Random, start, fix_first_round: bool,
                    club_of: list[int], kap: list[list[int]]) -> tuple[list[list[int]], list[int]]:
    """Round-by-round start (given rounds, a fixed first round, else greedy) as slot lists,
    and the symmetric pair counts it gives."""
    n, k, T = problem.n, problem.k, problem.tables
    pc = [0] * (n * n)
    slots: list[list[int]] = []
    for r in range(problem.rounds):
        rest_set = set(problem.rests[r])
        playing = [p for p in range(n) if p not in rest_set]
        if start is not None and r < len(start) and start[r]:
            tabs = [list(tb) for tb in start[r]]
            _count_pairs(pc, tabs, n)
        elif fix_first_round and r == 0:
            tabs = [playing[t * k:(t + 1) * k] for t in range(T)]
            _count_pairs(pc, tabs, n)
        else:
            tabs = _greedy_round(rng, playing, k, T, n, pc, club_of, kap, club_weight(problem))
        slots.append([p for tb in tabs for p in tb])
    return slots, pc


def _tables_of(slots: list[list[int]], n: int, k: int, R: int, REST: int) -> list[list[int]]:
    tab = [[REST] * n for _ in range(R)]
    for r in range(R):
        for x, p in enumerate(slots[r]):
            tab[r][p] = x // k
    return tab


def _overlap_matrices(tab: list[list[int]], n: int, R: int, W: int) -> list[list[list[int]]]:
    """M[r][s][t·W + u] = players at table t in round r and at table u in round s."""
    M: list[list] = [[None] * R for _ in range(R)]
    for r in range(R):
        for s in range(R):
            if r == s:
                continue
            m = [0] * (W * W)
            tr, ts = tab[r], tab[s]
            for p in range(n):
                m[tr[p] * W + ts[p]] += 1
            M[r][s] = m
    return M


def _shared_pairs(M: list[list[list[int]]], R: int, T: int) -> int:
    """Σ over pairs C(c, 2), from the overlap matrices (see the module docstring)."""
    W = T + 1
    c2 = 0
    for r in range(R):
        for s in range(r + 1, R):
            m = M[r][s]
            for t in range(T):
                for u in range(T):
                    v = m[t * W + u]
                    c2 += v * (v - 1) // 2
    return c2


def _club_counts(tab: list[list[int]], club_of: list[int], n_clubs: int, T: int,
                 has_club: bool) -> tuple[list[list[int]], int]:
    """Club members per (round, table, club), and the same-club meetings they make."""
    REST = T
    cc = []
    club_cost = 0
    for tr in tab:
        row = [0] * (T * max(n_clubs, 1))
        if has_club:
            for p, c in enumerate(club_of):
                if c >= 0 and tr[p] != REST:
                    row[tr[p] * n_clubs + c] += 1
            club_cost += sum(v * (v - 1) // 2 for v in row)
        cc.append(row)
    return cc, club_cost


def _over_cap(pc: list[int], n: int, cap: int) -> int:
    """Σ over pairs max(0, c − cap)."""
    over = 0
    for a in range(n):
        for b in range(a + 1, n):
            if pc[a * n + b] > cap:
                over += pc[a * n + b] - cap
    return over


def _anneal_block(state: _AnnealState, rnd: Callable[[], float], inv_t: float,
                  schedule: _Schedule) -> int:
    """One block of moves at temperature 1/inv_t, applied to `state`; returns the number
    of moves made when the state reached the target (0: the whole block ran).

    The per-move work (proposal, cost change, acceptance test) stays inline with the state
    in locals: it runs millions of times per draw, and a function call per move would cost
    a good share of the move.  Only the moves that pass the acceptance test (a few in a
    thousand) call out, for the pair-cap check and the update.
    """
    k, n, KT, W, REST = state.k, state.n, state.k * state.tables, state.tables + 1, state.tables
    KTk = KT - k
    r_lo, r_span = schedule.r_lo, schedule.r_span
    slots, tab, others, pc, cc = state.slots, state.tab, state.others, state.pc, state.cc
    club_of, n_clubs, kap, cap = state.club_of, state.n_clubs, state.kap, state.cap
    has_rest, has_club, has_kap, w_club = state.has_rest, state.has_club, state.has_kap, state.w_club
    target, target_cost = state.target, state.target_cost
    c2, club_cost, kap_cost, over, cost = state.c2, state.club_cost, state.kap_cost, state.over, state.cost
    log = math.log
    done = 0
    for it in range(schedule.block):
        # ---- propose: swap a and b, two players of round r at tables t1 != t2 ----
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
        # ---- cost change: shared pairs (d), club mates (dc), keep-apart pairs (dk) ----
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
        delta = d + w_club * dc + W_KEEP * dk
        # Metropolis: accept if delta <= -temp*ln(u); the cheap test first.
        if delta > 0:
            u = rnd()
            if u <= 0.0 or delta * inv_t > -log(u):
                continue
        # Pair-cap penalty needs the pair counts (O(k)); only computed for moves that
        # would otherwise be accepted (a few in a thousand), as is the update below.
        dp = _pair_cap_change(pc, sl, a, b, t1 * k, t2 * k, k, n, cap)
        if dp > 0:
            delta2 = delta + W_CAP * dp
            if delta2 > 0:
                u = rnd()
                if u <= 0.0 or delta2 * inv_t > -log(u):
                    continue
        _apply_swap(state, r, x, y, t1, t2)
        c2 += d
        club_cost += dc
        kap_cost += dk
        over += dp
        cost += delta + W_CAP * dp
        if cost <= target_cost and c2 <= target and over == 0:
            done = it + 1
            break
    state.c2, state.club_cost, state.kap_cost, state.over, state.cost = c2, club_cost, kap_cost, over, cost
    return done


def _pair_cap_change(pc: list[int], sl: list[int], a: int, b: int, base1: int, base2: int,
                     k: int, n: int, cap: int) -> int:
    """Change of Σ over pairs max(0, c − cap) when a (at slots base1…) and b (at slots
    base2…) swap tables: each leaves his table mates and joins the other's."""
    dp = 0
    for base, leaving, joining in ((base1, a, b), (base2, b, a)):
        r_leaving = leaving * n
        r_joining = joining * n
        for i in range(base, base + k):
            q = sl[i]
            if q != leaving:
                if pc[r_leaving + q] > cap:
                    dp -= 1
                if pc[r_joining + q] >= cap:
                    dp += 1
    return dp


def _apply_swap(state: _AnnealState, r: int, x: int, y: int, t1: int, t2: int) -> None:
    """Swap the players in slots x (table t1) and y (table t2) of round r, updating the
    overlap matrices, pair counts, club counts and tables (the cost counters are the
    caller's)."""
    k, n, W = state.k, state.n, state.tables + 1
    sl = state.slots[r]
    a = sl[x]
    b = sl[y]
    o1 = t1 * W
    o2 = t2 * W
    for Ms, ts, Mt in state.others[r]:
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
    pc = state.pc
    for base, leaving, joining in ((t1 * k, a, b), (t2 * k, b, a)):
        r_leaving = leaving * n
        r_joining = joining * n
        for i in range(base, base + k):
            q = sl[i]
            if q != leaving:
                pc[r_leaving + q] -= 1
                pc[q * n + leaving] -= 1
                pc[r_joining + q] += 1
                pc[q * n + joining] += 1
    if state.has_club:
        ca = state.club_of[a]
        cb = state.club_of[b]
        if ca != cb:
            ccr = state.cc[r]
            n_clubs = state.n_clubs
            if ca >= 0:
                ccr[t1 * n_clubs + ca] -= 1
                ccr[t2 * n_clubs + ca] += 1
            if cb >= 0:
                ccr[t2 * n_clubs + cb] -= 1
                ccr[t1 * n_clubs + cb] += 1
    tr = state.tab[r]
    tr[a] = t2
    tr[b] = t1
    sl[x] = b
    sl[y] = a
