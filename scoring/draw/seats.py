"""Physical tables and seat numbers for groups that are already drawn.

Neither the physical table nor the seat changes who meets whom, so both are decided after
the opponent search, each as a sequence of small assignment problems (Hungarian method):
groups → physical tables per round (spread table visits), players → seats per table
(distinct seats, seat groups 1–3 / 4–7 / 8–10 and seat sums balanced).  Also the direct
seating of a one-table final.
"""

from __future__ import annotations

import itertools
import math
import random
from typing import Sequence

__all__ = ["hungarian", "assign_tables", "assign_seats", "seat_cost", "final_seating",
           "seat_group", "edge_colour_seats"]

INF = float("inf")

# Weights of one player's seat profile.  A repeated seat is the thing players complain
# about, so it dominates; then seat groups (who speaks early / late), then the seat sum.
W_REPEAT = 1e6
W_GROUP = 20.0
W_SUM = 1.0


def seat_group(seat: int, k: int = 10) -> int:
    """0 = seats 1–3, 1 = seats 4–7, 2 = seats 8–10 (for k = 10; proportional otherwise)."""
    if k == 10:
        return 0 if seat <= 3 else (1 if seat <= 7 else 2)
    third = k * 3 / 10
    return 0 if seat <= third else (1 if seat <= k - third else 2)


_TABLES: dict[int, tuple[list[int], tuple[float, float, float]]] = {}


def _tables(k: int) -> tuple[list[int], tuple[float, float, float]]:
    """Seat → group lookup (index 0 unused) and each group's share of the seats."""
    got = _TABLES.get(k)
    if got is None:
        grp = [0] + [seat_group(s, k) for s in range(1, k + 1)]
        counts = [grp[1:].count(i) for i in range(3)]
        got = (grp, (counts[0] / k, counts[1] / k, counts[2] / k))
        _TABLES[k] = got
    return got


def seat_cost(seats: Sequence[int], k: int = 10,
              w_repeat: float = W_REPEAT, w_group: float = W_GROUP, w_sum: float = W_SUM) -> float:
    """Unfairness of one player's seats over his games (0 = perfect)."""
    g = len(seats)
    if g == 0:
        return 0.0
    grp_of, share = _tables(k)
    cnt = [0] * (k + 1)
    g0 = g1 = g2 = 0
    rep = 0
    for s in seats:
        rep += cnt[s]
        cnt[s] += 1
        q = grp_of[s]
        if q == 0:
            g0 += 1
        elif q == 1:
            g1 += 1
        else:
            g2 += 1
    gdev = (g0 - g * share[0]) ** 2 + (g1 - g * share[1]) ** 2 + (g2 - g * share[2]) ** 2
    sdev = (sum(seats) - g * (k + 1) / 2) ** 2
    return w_repeat * rep + w_group * gdev + w_sum * sdev


def _seat_row(others: Sequence[int], size: int, k: int) -> list[float]:
    """seat_cost(others + [s]) for s = 1..size, in O(size + len(others))."""
    grp_of, share = _tables(k)
    cnt = [0] * (k + 1)
    gc = [0, 0, 0]
    rep = 0
    for s in others:
        rep += cnt[s]
        cnt[s] += 1
        gc[grp_of[s]] += 1
    g = len(others) + 1
    e0, e1, e2 = g * share[0], g * share[1], g * share[2]
    base = [(gc[0] - e0) ** 2, (gc[1] - e1) ** 2, (gc[2] - e2) ** 2]
    after = [(gc[0] + 1 - e0) ** 2, (gc[1] + 1 - e1) ** 2, (gc[2] + 1 - e2) ** 2]
    tot = sum(base)
    mid = g * (k + 1) / 2
    total = sum(others)
    row = []
    for s in range(1, size + 1):
        q = grp_of[s]
        gdev = tot - base[q] + after[q]
        row.append(W_REPEAT * (rep + cnt[s]) + W_GROUP * gdev + W_SUM * (total + s - mid) ** 2)
    return row


def hungarian(cost: Sequence[Sequence[float]]) -> list[int]:
    """Minimum-cost perfect assignment of a square matrix: result[row] = column.

    The O(n³) potentials version; n is at most a few dozen here.
    """
    n = len(cost)
    u = [0.0] * (n + 1)
    v = [0.0] * (n + 1)
    p = [0] * (n + 1)
    way = [0] * (n + 1)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = [INF] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[j0] = True
            i0 = p[j0]
            delta = INF
            j1 = 0
            row = cost[i0 - 1]
            ui0 = u[i0]
            for j in range(1, n + 1):
                if not used[j]:
                    cur = row[j - 1] - ui0 - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(n + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    result = [0] * n
    for j in range(1, n + 1):
        if p[j]:
            result[p[j] - 1] = j - 1
    return result


def assign_tables(groups: Sequence[Sequence[Sequence[int]]], n: int,
                  passes: int = 8, rng: random.Random | None = None) -> list[list[list[int]]]:
    """Order each round's groups over the physical tables so that every player visits the
    tables as evenly as possible (minimises Σ visits³ by coordinate descent: one exact
    assignment per round, repeated).  The groups of a well-balanced draw are nearly
    orthogonal, so a group's ten players have different table histories and perfect
    rotation is usually impossible; annealing on table exchanges was tried and found
    nothing better than this descent on 40/4/7 for Σ visits³; what the descent leaves is
    a few players with one table far too often, so a short annealing on exchanges of two
    groups' tables within a round follows, on a steeper cost (see `_anneal_tables`).
    """
    R = len(groups)
    if R == 0:
        return []
    T = len(groups[0])
    order = [list(range(T)) for _ in range(R)]   # order[r][g] = physical table of group g
    visits = [[0] * T for _ in range(n)]

    def solve(r: int) -> None:
        cost = []
        for g in groups[r]:
            row = []
            for t in range(T):
                # marginal growth of Σ visits³: the cube (not the square) so one player's
                # fourth visit outweighs several players' second visits
                row.append(float(sum(3 * visits[p][t] * (visits[p][t] + 1) + 1 for p in g)))
            cost.append(row)
        order[r] = hungarian(cost)
        for gi, g in enumerate(groups[r]):
            for p in g:
                visits[p][order[r][gi]] += 1

    for r in range(R):
        solve(r)
    for _ in range(passes - 1):
        changed = False
        for r in range(R):
            old = order[r][:]
            for gi, g in enumerate(groups[r]):
                for p in g:
                    visits[p][order[r][gi]] -= 1
            solve(r)
            changed |= old != order[r]
        if not changed:
            break
    if T > 1 and R > 1:
        # the cap keeps the annealing from trading one player's extra visit for many
        # smaller gains (Σ 5^visits is not exactly "most visits first")
        cap = max(max(row) for row in visits)
        if T <= _DFS_MAX_TABLES:
            # few tables, few orders per round: search them directly for a smaller cap
            while cap > 1:
                found = _orders_within(groups, n, T, cap - 1, _DFS_BUDGET)
                if found is None:
                    break
                order, cap = found, cap - 1
                visits = [[0] * T for _ in range(n)]
                for r in range(R):
                    for gi, g in enumerate(groups[r]):
                        for p in g:
                            visits[p][order[r][gi]] += 1
        _anneal_tables(groups, order, visits, T, rng or random.Random(0), cap)
    out = []
    for r in range(R):
        phys: list[list[int]] = [[] for _ in range(T)]
        for gi, g in enumerate(groups[r]):
            phys[order[r][gi]] = list(g)
        out.append(phys)
    return out


_DFS_MAX_TABLES = 3
_DFS_BUDGET = 30000


def _orders_within(groups, n: int, T: int, cap: int, budget: int):
    """Table orders (order[r][group] = table) with nobody more than `cap` times at one
    table, by depth-first search over each round's permutations (least-visited first);
    None when there is none or `budget` permutations were tried without finding one."""
    R = len(groups)
    perms = list(itertools.permutations(range(T)))
    visits = [[0] * T for _ in range(n)]
    order: list[list[int]] = [list(range(T)) for _ in range(R)]
    left = [budget]

    def rec(r: int) -> bool:
        if r == R:
            return True
        cands = []
        for pm in (perms if r else perms[:1]):    # relabelling tables: round 1 fixed
            ok = True
            score = 0
            for gi, g in enumerate(groups[r]):
                t = pm[gi]
                for p in g:
                    v = visits[p][t]
                    if v >= cap:
                        ok = False
                        break
                    score += v * v
                if not ok:
                    break
            if ok:
                cands.append((score, pm))
        cands.sort()
        for _, pm in cands:
            left[0] -= 1
            if left[0] < 0:
                return False
            for gi, g in enumerate(groups[r]):
                for p in g:
                    visits[p][pm[gi]] += 1
            order[r] = list(pm)
            if rec(r + 1):
                return True
            for gi, g in enumerate(groups[r]):
                for p in g:
                    visits[p][pm[gi]] -= 1
        return False

    return order if rec(0) else None


def _visit_cost(visits) -> int:
    return sum(5 ** v for row in visits for v in row)


def _anneal_tables(groups, order, visits, T: int, rng: random.Random,
                   cap: int = 1 << 30) -> None:
    """Exchange the physical tables of two groups of one round (annealing) on the cost
    Σ over players and tables of 5^visits: one more visit at a table a player already
    sat at three times outweighs a lot of twos, so the search drives down the most visits
    of any player to one table (the "table spread") first, then the number at that level.
    Never exceeds `cap` visits; keeps the best order seen."""
    R = len(groups)
    base = 5
    pw = [base ** v for v in range(R + 2)]
    cost = _visit_cost(visits)
    best_cost = cost
    best = [o[:] for o in order]
    rnd = rng.random
    iters = 600 * R * T
    temp_hi = float(pw[2])
    temp_lo = 0.3
    cool = (temp_lo / temp_hi) ** (1.0 / iters)
    temp = temp_hi
    exp = math.exp
    for _ in range(iters):
        temp *= cool
        r = int(rnd() * R)
        gi = int(rnd() * T)
        gj = int(rnd() * (T - 1))
        if gj >= gi:
            gj += 1
        o = order[r]
        a, b = o[gi], o[gj]
        d = 0
        full = False
        for p in groups[r][gi]:
            v = visits[p]
            va, vb = v[a], v[b]
            d += pw[va - 1] - pw[va] + pw[vb + 1] - pw[vb]
            full |= vb >= cap
        for p in groups[r][gj]:
            v = visits[p]
            va, vb = v[a], v[b]
            d += pw[vb - 1] - pw[vb] + pw[va + 1] - pw[va]
            full |= va >= cap
        if full:
            continue
        if d > 0 and rnd() >= exp(-d / temp):
            continue
        for p in groups[r][gi]:
            visits[p][a] -= 1
            visits[p][b] += 1
        for p in groups[r][gj]:
            visits[p][b] -= 1
            visits[p][a] += 1
        o[gi], o[gj] = b, a
        cost += d
        if cost < best_cost:
            best_cost = cost
            best = [x[:] for x in order]
    for r in range(R):
        order[r] = best[r]


def assign_seats(tables: Sequence[Sequence[Sequence[int]]], n: int, k: int = 10,
                 passes: int = 6, rng: random.Random | None = None) -> list[list[list[int]]]:
    """Seat order for every table of every round (result[r][t][seat-1] = player).

    First a greedy pass round by round, then coordinate descent: each table is re-seated
    optimally with every other game fixed, until nothing improves.  With games ≤ k a
    seating without repeats always exists (bipartite edge colouring) and this finds one
    in practice.
    """
    R = len(tables)
    seats_of: list[dict[int, int]] = [dict() for _ in range(n)]   # player -> {round: seat}
    out = [[list(tb) for tb in rnd] for rnd in tables]

    def solve(r: int, t: int) -> bool:
        members = out[r][t]
        size = len(members)
        cost = []
        for p in members:
            others = [s for rr, s in seats_of[p].items() if rr != r]
            cost.append(_seat_row(others, size, k))
        assign = hungarian(cost)
        new = [0] * size
        for i, p in enumerate(members):
            new[assign[i]] = p
        changed = new != members
        out[r][t] = new
        for s, p in enumerate(new):
            seats_of[p][r] = s + 1
        return changed

    games = [0] * n
    for rnd in out:
        for tb in rnd:
            for p in tb:
                games[p] += 1
    exact = bool(R) and max(games) <= k and all(len(tb) == k for rnd in out for tb in rnd)
    if exact:
        # Distinct seats for everybody, exactly: an edge colouring (König), then the
        # descent below only balances seat groups and sums (it never adds a repeat: the
        # current seating of a table is always one of the assignments it considers, and
        # a repeat costs more than any balance gain).
        out = edge_colour_seats(out, n, k, rng)
        for r in range(R):
            for t, tb in enumerate(out[r]):
                for s, p in enumerate(tb):
                    seats_of[p][r] = s + 1
    else:
        for r in range(R):
            for t in range(len(out[r])):
                if rng is not None:
                    rng.shuffle(out[r][t])   # ties broken differently per seed
                solve(r, t)

    def descend() -> None:
        for _ in range(passes):
            changed = False
            for r in range(R):
                for t in range(len(out[r])):
                    changed |= solve(r, t)
            if not changed:
                break

    descend()
    if rng is not None and R > 1:
        _anneal_seats(out, seats_of, k, rng, R)
        for r in range(R):
            for t, tb in enumerate(out[r]):
                for s, p in enumerate(tb):
                    seats_of[p][r] = s + 1
        descend()
    return out


def edge_colour_seats(tables: Sequence[Sequence[Sequence[int]]], n: int, k: int = 10,
                      rng: random.Random | None = None) -> list[list[list[int]]]:
    """Seats without any repeat, by colouring the bipartite multigraph players × games
    (one edge per player per game, colours = seats 1..k) with the alternating-path proof
    of König's theorem: every game has degree k and every player at most k, so k colours
    suffice and each game's colours are exactly its seats.  result[r][t][seat-1] = player."""
    cells = [(r, t) for r in range(len(tables)) for t in range(len(tables[r]))]
    cid = {c: i for i, c in enumerate(cells)}
    pcol = [[-1] * k for _ in range(n)]            # player -> colour -> cell
    ccol = [[-1] * k for _ in cells]               # cell -> colour -> player
    edges = [(p, cid[(r, t)]) for (r, t) in cells for p in tables[r][t]]
    if rng is not None:
        rng.shuffle(edges)
    for p, c in edges:
        pc_, cc_ = pcol[p], ccol[c]
        alpha = pc_.index(-1)
        if cc_[alpha] != -1:
            beta = cc_.index(-1)
            # alternating α/β path from the cell; it cannot end at p (bipartite), so
            # swapping its colours frees α at the cell and keeps α free at p
            path = []
            x, col, on_cell = c, alpha, True
            while True:
                if on_cell:
                    y = ccol[x][col]
                    if y == -1:
                        break
                    path.append((y, x, col))
                    x, on_cell = y, False
                else:
                    y = pcol[x][col]
                    if y == -1:
                        break
                    path.append((x, y, col))
                    x, on_cell = y, True
                col = beta if col == alpha else alpha
            for q, cell, col in path:
                pcol[q][col] = -1
                ccol[cell][col] = -1
            for q, cell, col in path:
                new = beta if col == alpha else alpha
                pcol[q][new] = cell
                ccol[cell][new] = q
        pc_[alpha] = c
        cc_[alpha] = p
    out: list[list[list[int]]] = [[[] for _ in rnd] for rnd in tables]
    for i, (r, t) in enumerate(cells):
        out[r][t] = list(ccol[i])
    return out


def _anneal_seats(out, seats_of, k: int, rng: random.Random, R: int) -> None:
    """Exchanging two players' seats at one table: escapes the descent's local optima,
    which for games = 10 (every seat exactly once: a Latin-square-like structure) still
    hold a few repeats."""
    rnd = rng.random
    prof: dict[int, list[int]] = {}
    for p, d in enumerate(seats_of):
        if d:
            prof[p] = [d[r] for r in sorted(d)]
    rounds_of = {p: sorted(d) for p, d in enumerate(seats_of) if d}
    cost = {p: seat_cost(v, k) for p, v in prof.items()}
    if sum(cost.values()) < W_REPEAT:
        return                    # no repeats left: the descent's balance is good enough
    cells = [(r, t) for r in range(R) for t in range(len(out[r]))]
    iters = 150 * len(cells) * k
    temp = 40.0
    cool = (0.5 / temp) ** (1.0 / iters)
    for _ in range(iters):
        r, t = cells[int(rnd() * len(cells))]
        tb = out[r][t]
        i = int(rnd() * k)
        j = int(rnd() * (k - 1))
        if j >= i:
            j += 1
        a, b = tb[i], tb[j]
        ia = rounds_of[a].index(r)
        ib = rounds_of[b].index(r)
        pa, pb = prof[a], prof[b]
        pa[ia], pb[ib] = j + 1, i + 1
        ca, cb = seat_cost(pa, k), seat_cost(pb, k)
        d = ca + cb - cost[a] - cost[b]
        if d <= 0 or rnd() < math.exp(-d / temp):
            cost[a], cost[b] = ca, cb
            tb[i], tb[j] = b, a
        else:
            pa[ia], pb[ib] = i + 1, j + 1
        temp *= cool


def final_seating(n_games: int, k: int = 10, iterations: int = 15000) -> list[list[int]]:
    """Seats for a one-table stage: result[game][player index] = seat (1..k).

    Every player a different seat each game (while games ≤ k), seat sums and seat groups
    as equal as possible.  For 4 games the direct construction p, k+1−p, q, k+1−q gives equal
    sums; a deterministic local search then balances seat groups (it never accepts a
    worse profile), and handles any other number of games.
    """
    g = n_games
    if g <= 0:
        return []
    # Start: Latin-square rows; for an even number of games, mirror pairs p / k+1−p, which
    # makes every seat sum equal to g(k+1)/2 from the start.
    seats: list[list[int]] = []
    shifts = [0, 3, 1, 5, 2, 7, 4, 9, 6, 8]
    for j in range(g):
        if g % 2 == 0 and j % 2 == 1:
            seats.append([k + 1 - s for s in seats[j - 1]])
        else:
            sh = shifts[(j // 2 if g % 2 == 0 else j) % len(shifts)] if k == 10 else j
            seats.append([((i + sh) % k) + 1 for i in range(k)])

    def player_cost(i: int) -> float:
        # equal sums weigh most in a final: every seat-sum unit is a visible difference
        return seat_cost([seats[j][i] for j in range(g)], k, w_repeat=1e6, w_group=10.0, w_sum=1000.0)

    costs = [player_cost(i) for i in range(k)]
    rng = random.Random(0)          # the final has no seed: the same input, the same seats
    total = sum(costs)
    temp = 5.0
    for it in range(iterations):
        j = int(rng.random() * g)
        a = int(rng.random() * k)
        b = int(rng.random() * (k - 1))
        if b >= a:
            b += 1
        row = seats[j]
        row[a], row[b] = row[b], row[a]
        ca, cb = player_cost(a), player_cost(b)
        d = ca + cb - costs[a] - costs[b]
        if d <= 0 or rng.random() < pow(2.718281828, -d / temp):
            costs[a], costs[b] = ca, cb
            total += d
        else:
            row[a], row[b] = row[b], row[a]
        if it % 500 == 499:
            temp *= 0.8
    # finish greedily: the annealing may end one step above its best
    improved = True
    while improved:
        improved = False
        for j in range(g):
            for a in range(k):
                for b in range(a + 1, k):
                    row = seats[j]
                    row[a], row[b] = row[b], row[a]
                    ca, cb = player_cost(a), player_cost(b)
                    if ca + cb < costs[a] + costs[b] - 1e-9:
                        costs[a], costs[b] = ca, cb
                        improved = True
                    else:
                        row[a], row[b] = row[b], row[a]
    return seats
