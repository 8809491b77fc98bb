"""Rounds that are exactly orthogonal by construction, for the square format (k tables of k).

When the field is k tables of k players (100 players at tables of 10), two rounds can be
*orthogonal*: every table of one round sends exactly one player to every table of the other,
so no pair meets in both.  Orthogonal rounds are what the lower bound assumes, and annealing
finds them badly (on 100/10/10 it settles at 10–20 repeated meetings for every pair of
rounds).  A pair of orthogonal Latin squares gives four of them at once: put the players in a
k × k grid and seat them by row, by column, by the first square's symbol and by the second
square's symbol.

Why four and not more, for k = 10: a fifth would need three mutually orthogonal Latin squares
of order 10, whose existence is a famous open problem, and ten pairwise orthogonal rounds
(what Σc² = 4500 on 100/10/10 needs) would complete to an affine plane of order 10, which
does not exist (Bruck's completion theorem with Lam, Thiel and Swiercz 1989).  For a prime k
the k + 1 parallel classes of the affine plane over GF(k) are used (only the tests' small
formats need that).
"""

from __future__ import annotations

import random
from typing import Sequence

__all__ = ["ORTHOGONAL_PAIR_10", "orthogonal_partitions", "orthogonal_rounds"]

# A pair of orthogonal Latin squares of order 10 ("Euler spoilers"), one row per string.
# Found once by a transversal search (random Latin squares until one had an orthogonal mate)
# and relabelled so that both first rows read 0…9; tests/test_draw.py re-checks that both
# are Latin squares and that all 100 symbol pairs occur.
ORTHOGONAL_PAIR_10: tuple[tuple[str, ...], tuple[str, ...]] = (
    ("0123456789", "2954803671", "3207645198", "1598374026", "8639710245",
     "6410298357", "9346087512", "7865132904", "4071529863", "5782961430"),
    ("0123456789", "1508367492", "9685714320", "7946103258", "4357289061",
     "5061932874", "8270591643", "6792048135", "2439870516", "3814625907"),
)


def _is_prime(k: int) -> bool:
    return k >= 2 and all(k % d for d in range(2, int(k ** 0.5) + 1))


def orthogonal_partitions(k: int) -> list[list[list[int]]]:
    """Pairwise orthogonal partitions of the cells 0..k²-1 (cell = row·k + column) into k
    groups of k; empty when no construction is known here."""
    rows = [[r * k + c for c in range(k)] for r in range(k)]
    cols = [[r * k + c for r in range(k)] for c in range(k)]
    if k == 10:
        out = [rows, cols]
        for square in ORTHOGONAL_PAIR_10:
            groups: list[list[int]] = [[] for _ in range(k)]
            for r, line in enumerate(square):
                for c, ch in enumerate(line):
                    groups[int(ch)].append(r * k + c)
            out.append(groups)
        return out
    if _is_prime(k):
        # lines y = a·x + b of the affine plane over GF(k), one class per slope a, then x = b
        out = [rows]
        for a in range(k):
            out.append([[x * k + (a * x + b) % k for x in range(k)] for b in range(k)])
        return out
    return []


def orthogonal_rounds(n: int, k: int, rounds: int, rng: random.Random,
                      apart: Sequence[Sequence[int]] = ()) -> list[list[list[int]]]:
    """Up to `rounds` pairwise orthogonal rounds for n = k·k players (player indices); []
    when n ≠ k² or nothing is known for k.

    Players are placed in the grid in a seeded random order, except that each group in
    `apart` (a club, a keep-apart pair) is spread greedily: every member takes the free cell
    that shares a table with the fewest members already placed, summed over the rounds.
    """
    if n != k * k or rounds < 1:
        return []
    parts = orthogonal_partitions(k)[:rounds]
    if not parts:
        return []
    line = [[0] * n for _ in parts]             # line[class][cell] = table in that round
    for ci, part in enumerate(parts):
        for t, group in enumerate(part):
            for c in group:
                line[ci][c] = t
    partners: dict[int, set[int]] = {}
    for group in apart:
        for p in group:
            partners.setdefault(p, set()).update(q for q in group if q != p)
    free = list(range(n))
    rng.shuffle(free)
    cell_of: dict[int, int] = {}
    # most constrained first; ties in a seeded order so that seeds give different grids
    order = sorted(partners, key=lambda p: (-len(partners[p]), rng.random()))
    for p in order:
        placed = [cell_of[q] for q in partners[p] if q in cell_of]
        best_i, best_cost = 0, None
        for i, c in enumerate(free):
            cost = 0
            for ln in line:
                lc = ln[c]
                for d in placed:
                    if ln[d] == lc:
                        cost += 1
            if best_cost is None or cost < best_cost:
                best_i, best_cost = i, cost
                if cost == 0:
                    break
        cell_of[p] = free.pop(best_i)
    others = [p for p in range(n) if p not in cell_of]
    rng.shuffle(others)
    for p, c in zip(others, free):
        cell_of[p] = c
    cell_player = [0] * n
    for p, c in cell_of.items():
        cell_player[c] = p
    return [[[cell_player[c] for c in group] for group in part] for part in parts]
