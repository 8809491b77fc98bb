"""Which formats can be drawn, and the best any draw of a format can do.

A format is (players, tables, rounds) at tables of ten: every round seats the tables (by
default ⌊players/10⌋) and the rest of the field rests, and it is drawable when everybody
plays the same whole number of games.  When the tables have more seats than there are
players (36 players at 4 tables), reserve players fill the empty seats every round — at
most one a table.  :func:`plan_format` checks an organizer's format and, when it does not
work, names the nearest ones that do (:func:`nearest_formats`: more or fewer games, players
resting each round at fewer tables, reserves seated at more).  The lower bounds here are
what the search aims for and what the fairness report measures a draw against (proofs in
the engineering notes, "The draw").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from scoring.errors import SheetsSyncError

__all__ = ["TABLE_SIZE", "DrawFormatError", "Format", "tables_per_round", "format_is_valid", "check_format",
           "plan_format", "nearest_formats", "games_per_player", "fewest_shared_pairs", "pair_count_bound", "bounds",
           "lower_bound", "same_club_minimum", "Teams"]

TABLE_SIZE = 10
MAX_ROUNDS = 40  # the preset's limit on a stage's rounds


class DrawFormatError(SheetsSyncError, ValueError):
    """A format that cannot be drawn fairly; `suggestions` are nearby valid
    (players, tables per round, rounds) formats, nearest first; `formats` are the nearest
    :class:`Format` for the same players (what an organizer can change: games, tables)."""

    def __init__(self, message: str, suggestions: Sequence[tuple[int, int, int]] = (), *,
                 formats: Sequence[Format] = (), ru: str | None = None):
        super().__init__(message, ru=ru)
        self.suggestions: tuple[tuple[int, int, int], ...] = tuple(suggestions)
        self.formats: tuple[Format, ...] = tuple(formats)


def _ru_plural(n: int, one: str, few: str, many: str) -> str:
    if n % 10 == 1 and n % 100 != 11:
        return f"{n} {one}"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return f"{n} {few}"
    return f"{n} {many}"


def _ru_number(x: float) -> str:
    return f"{x:.2f}".replace(".", ",")


def _en_plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


@dataclass(frozen=True, slots=True)
class Format:
    """A qualifying format: ``players`` ranked players at ``tables`` tables of ten over
    ``rounds`` rounds; ``reserves`` reserve players fill the seats the players leave empty
    (then everybody plays every round), otherwise ``resting`` players rest each round."""

    players: int
    tables: int
    rounds: int
    reserves: int = 0

    @property
    def field(self) -> int:
        """Everybody drawn: the players and the reserves seated."""
        return self.players + self.reserves

    @property
    def resting(self) -> int:
        return self.field - TABLE_SIZE * self.tables

    @property
    def games(self) -> int:
        """Games each player plays."""
        return TABLE_SIZE * self.tables * self.rounds // self.field

    def describe(self, language: str) -> str:
        """"36 players, 3 tables, 6 rounds, 5 games each, 6 rest each round" (ru or en)."""
        if language == "ru":
            parts = [_ru_plural(self.players, "игрок", "игрока", "игроков"),
                     _ru_plural(self.tables, "стол", "стола", "столов"),
                     _ru_plural(self.rounds, "тур", "тура", "туров"),
                     "у каждого " + _ru_plural(self.games, "игра", "игры", "игр")]
            if self.resting:
                parts.append(f"в каждом туре {'отдыхает' if self.resting % 10 == 1 and self.resting % 100 != 11 else 'отдыхают'} "
                             + _ru_plural(self.resting, "игрок", "игрока", "игроков"))
            if self.reserves:
                parts.append("в каждом туре за столами " + _ru_plural(self.reserves, "запасной", "запасных", "запасных"))
            return ", ".join(parts)
        parts = [_en_plural(self.players, "player"), _en_plural(self.tables, "table"),
                 _en_plural(self.rounds, "round"), f"{_en_plural(self.games, 'game')} each"]
        if self.resting:
            parts.append(f"{self.resting} rest{'s' if self.resting == 1 else ''} each round")
        if self.reserves:
            parts.append(f"{_en_plural(self.reserves, 'reserve')} seated each round")
        return ", ".join(parts)


# ---------------------------------------------------------------------------- formats

def tables_per_round(n_players: int) -> int:
    """Tables played in every round: ⌊n/10⌋; the other n − 10·tables players rest."""
    return n_players // TABLE_SIZE


def format_is_valid(n: int, rounds: int, table_size: int = TABLE_SIZE, tables: int | None = None) -> bool:
    """True when n players at `tables` tables (default ⌊n/size⌋) of `table_size` all play the
    same whole number of games."""
    t = n // table_size if tables is None else tables
    return 1 <= t <= n // table_size and rounds >= 1 and (table_size * t * rounds) % n == 0


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


def check_format(n_players: int, rounds: int, table_size: int = TABLE_SIZE, tables: int | None = None) -> None:
    """Raise DrawFormatError unless every player can play the same whole number of games
    (at `tables` tables a round, default ⌊n/size⌋)."""
    n, k = n_players, table_size
    if rounds < 1:
        raise DrawFormatError(f"At least one round is needed (got {rounds}).",
                              _suggest(max(n, k), 1, k), ru=f"Нужен хотя бы один тур (указано {rounds}).")
    if n < k:
        raise DrawFormatError(f"{n} players cannot fill one table of {k}.",
                              [(k, 1, max(rounds, 1))],
                              ru=f"{_ru_plural(n, 'игрок', 'игрока', 'игроков')} — меньше одного стола на {k}.")
    t = n // k if tables is None else tables
    if not 1 <= t <= n // k:
        raise DrawFormatError(f"{n} players cannot fill {t} table(s) of {k}.", _suggest(n, rounds, k),
                              ru=f"{_ru_plural(n, 'игрок', 'игрока', 'игроков')} не заполнят "
                                 f"{_ru_plural(t, 'стол', 'стола', 'столов')} на {k}.")
    if (k * t * rounds) % n:
        en, ru = _uneven_rounds(n, t, rounds, k * t * rounds / n)
        raise DrawFormatError(en, _suggest(n, rounds, k), ru=ru)


# --------------------------------------------------------------------- an organizer's format

_SAME_GAMES = ("everybody must play the same whole number of games.", "у всех должно быть одно и то же целое число игр.")


def _at_tables(players: int, tables: int) -> tuple[str, str]:
    """("36 players at 3 tables", "36 игроков за 3 столами")."""
    return (f"{players} players at {tables} tables",
            f"{_ru_plural(players, 'игрок', 'игрока', 'игроков')} за {_ru_plural(tables, 'столом', 'столами', 'столами')}")


def _uneven_rounds(players: int, tables: int, rounds: int, per_player: float) -> tuple[str, str]:
    en, ru = _at_tables(players, tables)
    return (f"{en} over {rounds} rounds would give {per_player:.2f} games per player; {_SAME_GAMES[0]}",
            f"{ru} за {_ru_plural(rounds, 'тур', 'тура', 'туров')} — это {_ru_number(per_player)} игры на человека; "
            f"{_SAME_GAMES[1]}")

def _reserves_for(players: int, tables: int) -> int | None:
    """Reserves needed to fill `tables` for `players` (0 when some rest); None: more than one a table."""
    reserves = max(0, TABLE_SIZE * tables - players)
    return reserves if reserves <= tables else None


def plan_format(players: int, *, tables: int | None = None, rounds: int | None = None,
                games: int | None = None) -> Format:
    """The qualifying format of `players` ranked players at `tables` tables (default
    ⌊players/10⌋, at least one) given its `rounds` or the `games` each player plays (or both,
    when they agree).  Raises DrawFormatError, with the nearest formats that work, when the
    numbers do not fit: everybody must play the same whole number of games, and empty seats
    are filled by at most one reserve a table."""
    if rounds is None and games is None:
        raise ValueError("plan_format needs the rounds or the games")
    t = tables if tables else max(1, players // TABLE_SIZE)
    want = games if games is not None else rounds
    assert want is not None

    def refuse(en: str, ru: str) -> DrawFormatError:
        return DrawFormatError(en, ru=ru, formats=nearest_formats(players, tables=t, games=max(1, want)))

    reserves = _reserves_for(players, t)
    if t < 1 or reserves is None:
        seats = TABLE_SIZE * t
        raise refuse(f"{t} tables are {seats} seats: {players} players would need {seats - players} reserves, "
                     "more than one a table.",
                     f"{_ru_plural(t, 'стол', 'стола', 'столов')} — это {seats} мест: для "
                     f"{_ru_plural(players, 'игрока', 'игроков', 'игроков')} нужно {seats - players} запасных, "
                     "больше одного на стол.")
    field = players + reserves
    seats = TABLE_SIZE * t
    if games is not None and games < 1 or rounds is not None and rounds < 1:
        raise refuse("At least one game is needed.", "Нужна хотя бы одна игра.")
    asked_rounds = rounds
    if games is not None:
        if (field * games) % seats:
            need = field * games / seats
            en, ru = _at_tables(players, t)
            raise refuse(f"{en} cannot all play {games} games: that takes {need:.2f} rounds; {_SAME_GAMES[0]}",
                         f"{ru} не могут все сыграть по {_ru_plural(games, 'игре', 'игры', 'игр')}: для этого нужно "
                         f"{_ru_number(need)} тура; {_SAME_GAMES[1]}")
        rounds = field * games // seats
    if (seats * rounds) % field:
        raise refuse(*_uneven_rounds(players, t, rounds, seats * rounds / field))
    planned = Format(players, t, rounds, reserves)
    if asked_rounds is not None and asked_rounds != rounds:
        raise refuse(f"{games} games and {asked_rounds} rounds disagree: {planned.describe('en')}.",
                     f"{_ru_plural(games or 0, 'игра', 'игры', 'игр')} и "
                     f"{_ru_plural(asked_rounds, 'тур', 'тура', 'туров')} не сходятся: {planned.describe('ru')}.")
    if rounds > MAX_ROUNDS:
        raise refuse(f"{rounds} rounds are more than {MAX_ROUNDS}.", f"{rounds} туров — больше {MAX_ROUNDS}.")
    return planned


def nearest_formats(players: int, *, tables: int, games: int, limit: int = 4) -> list[Format]:
    """Formats that work for `players`, nearest to `games` games each at `tables` tables:
    the nearest with fewer and with more games at those tables, with players resting at
    another number of tables, and with reserves seated at more tables — then the next
    nearest, up to `limit`."""
    found: list[tuple[float, str, Format]] = []
    for t in range(1, -(-players // TABLE_SIZE) + 1):
        reserves = _reserves_for(players, t)
        if reserves is None:
            continue
        field, seats = players + reserves, TABLE_SIZE * t
        for g in range(max(1, games - 6), games + 7):
            r, rest = divmod(field * g, seats)
            if rest or not 1 <= r <= MAX_ROUNDS or (t, g) == (tables, games):
                continue
            kind = ("reserves" if reserves else "other tables" if t != tables
                    else "fewer games" if g < games else "more games")
            cost = abs(g - games) + 1.5 * abs(t - tables) + (0.5 if reserves else 0)
            found.append((cost, kind, Format(players, t, r, reserves)))
    found.sort(key=lambda c: (c[0], c[2].tables, c[2].rounds))
    best_of_kind = {}
    for cost, kind, f in found:
        best_of_kind.setdefault(kind, (cost, f))
    chosen = [f for _, f in sorted(best_of_kind.values(), key=lambda c: c[0])][:limit]
    for _, _, f in found:
        if len(chosen) >= limit:
            break
        if f not in chosen:
            chosen.append(f)
    return chosen


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


def bounds(n: int, rounds: int, table_size: int, tables: int | None = None) -> tuple[int, int]:
    """(SSQ0, SSQ1) for n players at `tables` tables (default ⌊n/size⌋) of `table_size`
    (format assumed valid): the pair-count bound and the round-pair bound on Σ over pairs of c²."""
    k = table_size
    t = n // k if tables is None else tables
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


def lower_bound(n_players: int, rounds: int, table_size: int = TABLE_SIZE, tables: int | None = None) -> int:
    """Proven lower bound on Σ over pairs of c² (c = games a pair plays together)."""
    check_format(n_players, rounds, table_size, tables)
    return max(bounds(n_players, rounds, table_size, tables))


@dataclass(frozen=True, kw_only=True, slots=True)
class Teams:
    """The draw's teams: ``of`` maps a player to his team; the draw keeps teammates apart
    instead of club mates, and with ``one_per_game`` no game seats two of them (a hard rule)."""

    of: Mapping[str, str]
    one_per_game: bool = False


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
