"""Which formats can be drawn, and the best any draw of a format can do.

A format is (players, rounds) at tables of ten: every round seats ⌊players/10⌋ tables and
the rest of the field rests, and it is drawable when everybody plays the same whole number
of games.  The lower bounds here are what the search aims for and what the fairness report
measures a draw against (proofs in the engineering notes, "The draw").
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from scoring.errors import SheetsSyncError

__all__ = ["TABLE_SIZE", "DrawFormatError", "tables_per_round", "format_is_valid", "check_format",
           "games_per_player", "fewest_shared_pairs", "pair_count_bound", "bounds", "lower_bound", "same_club_minimum"]

TABLE_SIZE = 10


class DrawFormatError(SheetsSyncError, ValueError):
    """A format that cannot be drawn fairly; `suggestions` are nearby valid
    (players, tables per round, rounds) formats, nearest first."""

    def __init__(self, message: str, suggestions: Sequence[tuple[int, int, int]] = ()):
        super().__init__(message)
        self.suggestions: tuple[tuple[int, int, int], ...] = tuple(suggestions)


# ---------------------------------------------------------------------------- formats

def tables_per_round(n_players: int) -> int:
    """Tables played in every round: ⌊n/10⌋; the other n − 10·tables players rest."""
    return n_players // TABLE_SIZE


def format_is_valid(n: int, rounds: int, table_size: int = TABLE_SIZE) -> bool:
    """True when n players at tables of `table_size` all play the same whole number of games."""
    t = n // table_size
    return t >= 1 and rounds >= 1 and (table_size * t * rounds) % n == 0


def _suggest(n: int, rounds: int, k: int = TABLE_SIZE, limit: int = 5) -> list[tuple[int, int, int]]:
    # Changing the number of rounds is usually easier for an organiser than changing the
    # number of players, so a round weighs one and a player weighs one and a half.
    cands = []
    for n2 in range(max(k, n - 12), n + 13):
        for r2 in range(max(1, rounds - 6), rounds + 7):
            if (n2, r2) != (n, rounds) and format_is_valid(n2, r2, k):
                cands.append((abs(r2 - rounds) + 1.5 * abs(n2 - n), abs(n2 - n), n2, r2))
    cands.sort()
    return [(n2, n2 // k, r2) for _, _, n2, r2 in cands[:limit]]


def check_format(n_players: int, rounds: int, table_size: int = TABLE_SIZE) -> None:
    """Raise DrawFormatError unless every player can play the same whole number of games."""
    n, k = n_players, table_size
    if rounds < 1:
        raise DrawFormatError(f"At least one round is needed (got {rounds}).",
                              _suggest(max(n, k), 1, k))
    if n < k:
        raise DrawFormatError(f"{n} players cannot fill one table of {k}.",
                              [(k, 1, max(rounds, 1))])
    t = n // k
    if (k * t * rounds) % n:
        g = k * t * rounds / n
        raise DrawFormatError(
            f"{n} players at {t} table(s) of {k} over {rounds} rounds would give "
            f"{g:.2f} games per player; the number of games must be the same whole number "
            f"for everybody.", _suggest(n, rounds, k))


def games_per_player(n_players: int, rounds: int) -> int:
    check_format(n_players, rounds)
    return TABLE_SIZE * tables_per_round(n_players) * rounds // n_players


# ------------------------------------------------------------------------------ bounds

def fewest_shared_pairs(m: int, cells: int) -> int:
    """Fewest pairs sharing a table in both of two rounds when m players play both and
    the two rounds' tables form `cells` (table, table) combinations."""
    q, rho = divmod(m, cells)
    return rho * (q + 1) * q // 2 + (cells - rho) * q * (q - 1) // 2


def pair_count_bound(S: int, P: int) -> int:
    """Least Σ over pairs of c² when S meetings fall on P pairs: as evenly as possible,
    every pair ⌊S/P⌋ or one more (0 without pairs)."""
    if not P:
        return 0
    L = S // P
    return P * L * L + (S - L * P) * (2 * L + 1)


def bounds(n: int, rounds: int, table_size: int) -> tuple[int, int]:
    """(SSQ0, SSQ1) for n players, tables of `table_size` (format assumed valid): the
    pair-count bound and the round-pair bound on Σ over pairs of c²."""
    k = table_size
    t = n // k
    rest = n - k * t
    g = k * t * rounds // n
    S = k * (k - 1) // 2 * t * rounds
    ssq0 = pair_count_bound(S, n * (n - 1) // 2)
    npairs = rounds * (rounds - 1) // 2
    if npairs == 0:
        return ssq0, S
    # Two rounds share m = n − |rests_r ∪ rests_s| players.  Σ over round pairs of the
    # overlaps of rest sets is fixed (every player rests R − g times), and
    # fewest_shared_pairs is convex in m, so spreading the shared players evenly over the
    # round pairs minimises the sum.
    total_m = npairs * (n - 2 * rest) + n * (rounds - g) * (rounds - g - 1) // 2
    base, extra = divmod(total_m, npairs)
    cells = t * t
    ssq1 = S + 2 * (extra * fewest_shared_pairs(base + 1, cells)
                    + (npairs - extra) * fewest_shared_pairs(base, cells))
    return ssq0, ssq1


def lower_bound(n_players: int, rounds: int, table_size: int = TABLE_SIZE) -> int:
    """Proven lower bound on Σ over pairs of c² (c = games a pair plays together)."""
    check_format(n_players, rounds, table_size)
    return max(bounds(n_players, rounds, table_size))


def same_club_minimum(rounds_playing: Sequence[Iterable[str]], clubs: Mapping[str, str],
                      tables: int) -> int:
    """Same-club meetings if every club were spread over the tables as evenly as its size
    allows, round by round (a lower bound; table capacity can make it unreachable)."""
    total = 0
    for playing in rounds_playing:
        sizes: dict[str, int] = {}
        for p in playing:
            c = clubs.get(p)
            if c:
                sizes[c] = sizes.get(c, 0) + 1
        for m in sizes.values():
            total += fewest_shared_pairs(m, max(tables, 1))
    return total
