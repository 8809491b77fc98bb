"""The seating draw (жеребьёвка): who plays whom, at which table and in which seat.

Qualifying rounds are drawn so that every player plays the same number of games, rests
are spread evenly, opponents are as even as possible (Σ over pairs of games-together² as
close as possible to the proven lower bound), seats do not repeat and seat groups balance,
club mates and keep-apart pairs are separated, and physical tables rotate.  Semifinal and
final stages have their own small constructions.  `evaluate` measures any seating, also a
hand-edited one, and is what the fairness report of a draw is built from.

Pure: no I/O.  The same players in the same order with the same seed give the same draw,
unless a `time_limit` stops the search early.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from time import perf_counter
from typing import Callable, Iterable, Mapping, Sequence

from scoring.errors import SheetsSyncError
from scoring.draw_mols import orthogonal_rounds
from scoring.draw_search import GroupProblem, optimise_groups
from scoring.draw_seats import assign_seats, assign_tables, final_seating, seat_group

__all__ = [
    "TABLE_SIZE", "DrawFormatError", "Draw", "FairnessReport", "PlayerFairness",
    "tables_per_round", "check_format", "lower_bound", "draw_qualifying", "draw_stage",
    "draw_final", "evaluate",
]

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


def _valid(n: int, rounds: int, k: int = TABLE_SIZE) -> bool:
    t = n // k
    return t >= 1 and rounds >= 1 and (k * t * rounds) % n == 0


def _suggest(n: int, rounds: int, k: int = TABLE_SIZE, limit: int = 5) -> list[tuple[int, int, int]]:
    # Changing the number of rounds is usually easier for an organiser than changing the
    # number of players, so a round weighs one and a player weighs one and a half.
    cands = []
    for n2 in range(max(k, n - 12), n + 13):
        for r2 in range(max(1, rounds - 6), rounds + 7):
            if (n2, r2) != (n, rounds) and _valid(n2, r2, k):
                cands.append((abs(r2 - rounds) + 1.5 * abs(n2 - n), abs(n2 - n), n2, r2))
    cands.sort()
    return [(n2, n2 // k, r2) for _, _, n2, r2 in cands[:limit]]


def check_format(n_players: int, rounds: int) -> None:
    """Raise DrawFormatError unless every player can play the same whole number of games."""
    _check_format_k(n_players, rounds, TABLE_SIZE)


def _check_format_k(n: int, rounds: int, k: int) -> None:
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

def _x_min(m: int, cells: int) -> int:
    """Fewest pairs sharing a table in both of two rounds when m players play both and
    the two rounds' tables form `cells` (table, table) combinations."""
    q, rho = divmod(m, cells)
    return rho * (q + 1) * q // 2 + (cells - rho) * q * (q - 1) // 2


def _bounds_k(n: int, rounds: int, k: int) -> tuple[int, int]:
    """(SSQ0, SSQ1) for n players, tables of k (format assumed valid)."""
    t = n // k
    rest = n - k * t
    g = k * t * rounds // n
    S = k * (k - 1) // 2 * t * rounds
    P = n * (n - 1) // 2
    L = S // P
    ssq0 = P * L * L + (S - L * P) * (2 * L + 1)
    npairs = rounds * (rounds - 1) // 2
    if npairs == 0:
        return ssq0, S
    # Two rounds share m = n − |rests_r ∪ rests_s| players.  Σ over round pairs of the
    # overlaps of rest sets is fixed (every player rests R − g times), and _x_min is convex
    # in m, so spreading the shared players evenly over the round pairs minimises the sum.
    total_m = npairs * (n - 2 * rest) + n * (rounds - g) * (rounds - g - 1) // 2
    base, extra = divmod(total_m, npairs)
    cells = t * t
    ssq1 = S + 2 * (extra * _x_min(base + 1, cells) + (npairs - extra) * _x_min(base, cells))
    return ssq0, ssq1


def lower_bound(n_players: int, rounds: int) -> int:
    """Proven lower bound on Σ over pairs of c² (c = games a pair plays together)."""
    check_format(n_players, rounds)
    return max(_bounds_k(n_players, rounds, TABLE_SIZE))


def _lower_bound_k(n: int, rounds: int, k: int) -> int:
    _check_format_k(n, rounds, k)
    return max(_bounds_k(n, rounds, k))


# ----------------------------------------------------------------------------- results

@dataclass(frozen=True, kw_only=True, slots=True)
class PlayerFairness:
    name: str
    club: str | None
    games: int
    rest_rounds: tuple[int, ...]              # 1-based round numbers
    distinct_opponents: int
    most_repeated_opponent: str               # "" when he met nobody twice
    most_repeated_count: int
    seats: tuple[int, ...]                    # seat per game, in round order
    seat_repeats: int                         # games − distinct seats
    seat_groups: tuple[int, int, int]         # games in seats 1–3, 4–7, 8–10
    seat_sum: int
    table_visits: tuple[int, ...]             # games at physical table 1, 2, …


@dataclass(frozen=True, kw_only=True, slots=True)
class FairnessReport:
    n_players: int
    tables_per_round: int
    n_rounds: int
    ssq: int                                  # Σ over pairs of c²
    lower_bound: int
    meeting_histogram: tuple[tuple[int, int], ...]   # (games together, number of pairs)
    pairs_never_met: int
    pairs_met_3plus: int
    max_meetings: int
    seat_repeats: int
    same_club_meetings: int
    same_club_minimum: int
    keep_apart_meetings: int
    players: tuple[PlayerFairness, ...]
    problems: tuple[str, ...]                 # schedule errors (hand-edited seatings)
    seed: int | None = None
    seconds: float | None = None

    @property
    def gap(self) -> int:
        return self.ssq - self.lower_bound

    @property
    def gap_percent(self) -> float:
        return 100.0 * self.gap / self.lower_bound if self.lower_bound else 0.0

    @property
    def at_bound(self) -> bool:
        return self.ssq <= self.lower_bound

    @property
    def table_spread(self) -> int:
        """Most games any player plays at one physical table."""
        return max((max(p.table_visits) for p in self.players if p.table_visits), default=0)

    @property
    def square_field_gap(self) -> bool:
        """True for 10 tables of 10 over 5+ rounds above the bound: the bound counts every two
        rounds as orthogonal, which no known seating achieves beyond four rounds (see
        `scoring.draw_mols`), so the report explains the gap instead of leaving it unexplained."""
        return (self.tables_per_round == TABLE_SIZE and self.n_players == TABLE_SIZE * TABLE_SIZE
                and self.n_rounds >= 5 and self.ssq > self.lower_bound)

    def text_lines(self, language: str = "en") -> list[str]:
        L = _LABELS["ru" if language == "ru" else "en"]
        hist = ", ".join(f"{c}×: {cnt}" for c, cnt in self.meeting_histogram)
        lines = [
            L["title"].format(n=self.n_players, t=self.tables_per_round, r=self.n_rounds),
            L["ssq"].format(ssq=self.ssq, bound=self.lower_bound, gap=self.gap,
                            pct=self.gap_percent),
            L["hist"].format(hist=hist),
            L["never"].format(never=self.pairs_never_met, three=self.pairs_met_3plus,
                              mx=self.max_meetings),
            L["seats"].format(rep=self.seat_repeats),
            L["clubs"].format(got=self.same_club_meetings, min=self.same_club_minimum,
                              keep=self.keep_apart_meetings),
        ]
        if self.square_field_gap:
            lines.insert(2, L["square"])
        if self.seed is not None or self.seconds is not None:
            lines.append(L["seed"].format(seed=self.seed if self.seed is not None else "—",
                                          sec=self.seconds or 0.0))
        for p in self.problems:
            lines.append(L["problem"].format(p=p))
        lines.append(L["players_head"])
        for p in self.players:
            lines.append(L["player"].format(
                name=p.name, games=p.games, opp=p.distinct_opponents,
                rep=(f"{p.most_repeated_opponent} ×{p.most_repeated_count}"
                     if p.most_repeated_opponent else "—"),
                seats=" ".join(str(s) for s in p.seats), srep=p.seat_repeats,
                grp="/".join(str(x) for x in p.seat_groups), ssum=p.seat_sum,
                tables=" ".join(str(v) for v in p.table_visits),
                rests=",".join(str(r) for r in p.rest_rounds) or "—"))
        return lines

    def rows(self, language: str = "en") -> list[list[str | int | float]]:
        L = _LABELS["ru" if language == "ru" else "en"]
        rows: list[list[str | int | float]] = [
            [L["r_ssq"], self.ssq],
            [L["r_bound"], self.lower_bound],
            [L["r_gap"], self.gap],
            *([[L["r_why"], L["square"]]] if self.square_field_gap else []),
            [L["r_never"], self.pairs_never_met],
            [L["r_three"], self.pairs_met_3plus],
            [L["r_max"], self.max_meetings],
            [L["r_seatrep"], self.seat_repeats],
            [L["r_club"], self.same_club_meetings],
            [L["r_clubmin"], self.same_club_minimum],
            [L["r_keep"], self.keep_apart_meetings],
            [L["r_seed"], self.seed if self.seed is not None else ""],
            [L["r_time"], round(self.seconds, 2) if self.seconds is not None else ""],
            [],
            [L["r_hist_c"], L["r_hist_n"]],
        ]
        rows += [[c, cnt] for c, cnt in self.meeting_histogram]
        rows.append([])
        for p in self.problems:
            rows.append([L["r_problem"], p])
        if self.problems:
            rows.append([])
        head: list[str | int | float] = list(L["r_head"])
        head += [f"{L['r_table']} {t + 1}" for t in range(self.tables_per_round)]
        rows.append(head)
        for p in self.players:
            row: list[str | int | float] = [
                p.name, p.club or "", p.games, ",".join(str(r) for r in p.rest_rounds),
                p.distinct_opponents, p.most_repeated_opponent, p.most_repeated_count,
                " ".join(str(s) for s in p.seats), p.seat_repeats, p.seat_groups[0],
                p.seat_groups[1], p.seat_groups[2], p.seat_sum,
                round(p.seat_sum / p.games, 2) if p.games else 0.0,
            ]
            row += list(p.table_visits)
            rows.append(row)
        return rows


_LABELS = {
    "en": {
        "title": "Draw: {n} players, {t} table(s) per round, {r} round(s)",
        "ssq": "Opponent balance Σc² = {ssq} (lower bound {bound}, gap {gap} = {pct:.1f}%)",
        "hist": "Pairs by games together: {hist}",
        "never": "Pairs never meeting: {never}; meeting 3+ times: {three}; most: {mx}",
        "seats": "Seat repeats: {rep}",
        "clubs": "Same-club meetings: {got} (minimum possible {min}); keep-apart meetings: {keep}",
        "square": "Why the gap: with 10 tables of 10, no known seating keeps more than 4 "
                  "rounds free of repeated meetings (a 5th needs three mutually orthogonal "
                  "Latin squares of order 10, an open problem; 10 would make an affine plane "
                  "of order 10, which does not exist). The bound counts every round that way.",
        "r_why": "Why the gap",
        "seed": "Seed {seed}, {sec:.2f} s",
        "problem": "PROBLEM: {p}",
        "players_head": "Player: games, distinct opponents, most repeated opponent, seats "
                        "(repeats), seat groups 1–3/4–7/8–10, seat sum, table visits, rests",
        "player": "{name}: {games} games, {opp} opponents, most often {rep}; seats {seats} "
                  "({srep}); groups {grp}; sum {ssum}; tables {tables}; rests {rests}",
        "r_ssq": "Σc²", "r_bound": "Lower bound", "r_gap": "Gap",
        "r_never": "Pairs never meeting", "r_three": "Pairs meeting 3+ times",
        "r_max": "Most games together", "r_seatrep": "Seat repeats",
        "r_club": "Same-club meetings", "r_clubmin": "Same-club minimum",
        "r_keep": "Keep-apart meetings", "r_seed": "Seed", "r_time": "Seconds",
        "r_hist_c": "Games together", "r_hist_n": "Pairs", "r_problem": "Problem",
        "r_head": ("Player", "Club", "Games", "Rests", "Distinct opponents",
                   "Most repeated opponent", "Times", "Seats", "Seat repeats",
                   "Seats 1–3", "Seats 4–7", "Seats 8–10", "Seat sum", "Mean seat"),
        "r_table": "Table",
    },
    "ru": {
        "title": "Жеребьёвка: {n} игроков, столов в туре: {t}, туров: {r}",
        "ssq": "Баланс соперников Σc² = {ssq} (нижняя граница {bound}, разрыв {gap} = {pct:.1f}%)",
        "hist": "Пар по числу совместных игр: {hist}",
        "never": "Ни разу не встретились: {never} пар; 3 и более раз: {three}; максимум: {mx}",
        "seats": "Повторов места: {rep}",
        "clubs": "Встреч одноклубников: {got} (минимально возможно {min}); "
                 "встреч разведённых пар: {keep}",
        "square": "Почему разрыв: при 10 столах по 10 игроков ни одна известная рассадка не "
                  "даёт больше 4 туров без повторных встреч (для 5-го нужны три взаимно "
                  "ортогональных латинских квадрата порядка 10 — открытая задача; 10 таких "
                  "туров дали бы аффинную плоскость порядка 10, которой не существует). "
                  "Нижняя граница считает такими все туры.",
        "r_why": "Почему разрыв",
        "seed": "Зерно {seed}, {sec:.2f} с",
        "problem": "ОШИБКА: {p}",
        "players_head": "Игрок: игр, разных соперников, чаще всего встречался с, места "
                        "(повторы), группы мест 1–3/4–7/8–10, сумма мест, столы, отдых",
        "player": "{name}: игр {games}, соперников {opp}, чаще всего {rep}; места {seats} "
                  "({srep}); группы {grp}; сумма {ssum}; столы {tables}; отдых {rests}",
        "r_ssq": "Σc²", "r_bound": "Нижняя граница", "r_gap": "Разрыв",
        "r_never": "Пар без встреч", "r_three": "Пар с 3+ встречами",
        "r_max": "Максимум встреч пары", "r_seatrep": "Повторов места",
        "r_club": "Встреч одноклубников", "r_clubmin": "Минимум встреч одноклубников",
        "r_keep": "Встреч разведённых пар", "r_seed": "Зерно", "r_time": "Секунд",
        "r_hist_c": "Совместных игр", "r_hist_n": "Пар", "r_problem": "Ошибка",
        "r_head": ("Игрок", "Клуб", "Игр", "Отдых", "Разных соперников",
                   "Чаще всего с", "Раз", "Места", "Повторов места",
                   "Места 1–3", "Места 4–7", "Места 8–10", "Сумма мест", "Среднее место"),
        "r_table": "Стол",
    },
}


@dataclass(frozen=True, kw_only=True, slots=True)
class Draw:
    rounds: tuple[tuple[tuple[str, ...], ...], ...]   # rounds[r][t][seat-1] = nickname
    rests: tuple[tuple[str, ...], ...]                # rests[r] = resting nicknames
    seed: int
    report: FairnessReport


# ---------------------------------------------------------------------------- evaluate

def _club_minimum(rounds_playing: Sequence[Iterable[str]], clubs: Mapping[str, str],
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
            total += _x_min(m, max(tables, 1))
    return total


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
    if n >= TABLE_SIZE and R and _valid(n, R) and T == tables_per_round(n):
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
        same_club_minimum=_club_minimum(playing_sets, clubs, T),
        keep_apart_meetings=keep_meet, players=tuple(per_player),
        problems=tuple(problems), seed=seed, seconds=seconds)


# -------------------------------------------------------------------------------- draws

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


def _draw(names: list[str], rounds: int, seed: int, clubs: Mapping[str, str] | None,
          keep_apart: Iterable[tuple[str, str]], progress, time_limit: float | None,
          k: int = TABLE_SIZE) -> Draw:
    started = perf_counter()
    n = len(names)
    _check_format_k(n, rounds, k)
    T = n // k
    rest = n - k * T
    g = k * T * rounds // n
    rng = random.Random(seed)
    index = {p: i for i, p in enumerate(names)}
    clubs = dict(clubs or {})
    unknown = sorted(p for p in clubs if p not in index)
    if unknown:
        raise ValueError("Clubs given for unknown players: " + ", ".join(unknown))
    # clubs with a single member cannot meet themselves; dropping them keeps the search lean
    sizes: dict[str, int] = {}
    for p in names:
        if clubs.get(p):
            sizes[clubs[p]] = sizes.get(clubs[p], 0) + 1
    club_ids = {c: i for i, c in enumerate(sorted(c for c, m in sizes.items() if m > 1))}
    club_of = tuple(club_ids.get(clubs.get(p, ""), -1) for p in names) if club_ids else ()
    kap = []
    for a, b in keep_apart:
        if a not in index or b not in index:
            raise ValueError(f"Keep-apart pair names an unknown player: {a!r}, {b!r}")
        if a != b:
            kap.append((index[a], index[b]))
    rests = _rest_schedule(n, rest, rounds, rng)
    bound = max(_bounds_k(n, rounds, k))
    S = k * (k - 1) // 2 * T * rounds
    lam = (k - 1) * g / (n - 1)
    playing = [[names[p] for p in range(n) if p not in set(rests[r])] for r in range(rounds)]
    club_target = _club_minimum(playing, clubs if club_ids else {}, T)
    # Pair cap at least 3: with λ ≤ 1 a cap of 2 (penalising every third meeting) cost
    # 100/10/10 about 110 of Σc² (5992 → 5870) to save nine pairs meeting three times.
    problem = GroupProblem(
        n=n, k=k, tables=T, rounds=rounds, rests=tuple(tuple(r) for r in rests),
        club_of=club_of, keep_apart=tuple(kap),
        pair_cap=max(3, math.ceil(lam) + 1), target=(bound - S + 1) // 2, club_target=club_target)
    per_restart = max(20000, int(rounds * k * T * 1200))
    max_restarts = max(1, min(40, 3_000_000 // per_restart))
    move_factor = 1200.0
    if max_restarts <= 2:
        # Large fields (100/10/10): restarts cut short by a time limit end hot, in a poor
        # state; one longer schedule of about 2.4M moves (~6 s) finishes and does better.
        max_restarts = 1
        move_factor = max(1200.0, 2_400_000 / (rounds * k * T))
    cb = None
    if progress is not None:
        def cb(frac: float, c2: int) -> None:
            progress(frac, S + 2 * c2, bound)
    # seats and tables take a few percent of the time: keep that share of the limit for them
    search_limit = None if time_limit is None else 0.85 * time_limit
    # Square fields (k tables of k): start from rounds that are orthogonal by construction,
    # with club mates and keep-apart pairs spread over the grid, and keep those rounds fixed
    # when they already are as good as clubs and keep-apart pairs allow.
    apart = [list(pair) for pair in kap]
    if club_of:
        members: dict[int, list[int]] = {}
        for p, c in enumerate(club_of):
            if c >= 0:
                members.setdefault(c, []).append(p)
        apart += list(members.values())
    start = orthogonal_rounds(n, k, rounds, rng, apart) if rest == 0 else []
    # without rests every round seats everybody, so the club minimum is the same each round
    fixed = (len(start) if start and _start_is_settled(start, club_of, kap, club_target // rounds)
             else 0)
    res = optimise_groups(problem, rng, max_restarts=max_restarts, time_limit=search_limit,
                          progress=cb, move_factor=move_factor,
                          fix_first_round=not start and not club_of and not kap and rest == 0,
                          start=start or None, fixed_rounds=fixed)
    tables = assign_tables(res.groups, n, rng=rng)
    seated = assign_seats(tables, n, k, rng=rng)
    out_rounds = tuple(tuple(tuple(names[p] for p in tb) for tb in rnd) for rnd in seated)
    out_rests = tuple(tuple(names[p] for p in sorted(r)) for r in rests)
    if progress is not None:
        progress(1.0, S + 2 * res.c2, bound)
    elapsed = perf_counter() - started
    report = evaluate(names, out_rounds, clubs, keep_apart=[(names[a], names[b]) for a, b in kap],
                      seed=seed, seconds=elapsed)
    return Draw(rounds=out_rounds, rests=out_rests, seed=seed, report=report)


def draw_qualifying(players: Sequence[str], *, rounds: int, seed: int,
                    clubs: Mapping[str, str] | None = None,
                    keep_apart: Iterable[tuple[str, str]] = (),
                    progress: Callable[[float, int, int], None] | None = None,
                    time_limit: float | None = None) -> Draw:
    """Qualifying rounds.  `progress(fraction_done, current_ssq, bound)` is called at most
    about four times a second; `time_limit` (seconds) returns the best draw found so far."""
    names = _check_players(players)
    return _draw(names, rounds, seed, clubs, keep_apart, progress, time_limit)


def draw_stage(players: Sequence[str], *, tables: int, games: int, seed: int,
               clubs: Mapping[str, str] | None = None) -> Draw:
    """A stage where everybody plays every game (e.g. semifinal: 20 players, 2 tables,
    3 games): opponents, seats and tables balanced as in qualifying."""
    names = _check_players(players)
    if len(names) != TABLE_SIZE * tables:
        raise DrawFormatError(
            f"A stage of {tables} table(s) needs exactly {TABLE_SIZE * tables} players "
            f"(got {len(names)}).",
            [(TABLE_SIZE * tables, tables, games)])
    return _draw(names, games, seed, clubs, (), None, None)


def draw_final(players: Sequence[str], *, games: int) -> Draw:
    """One table of 10: a different seat every game for everybody, equal seat sums and
    balanced seat groups.  No seed: a final's seating follows from the list alone."""
    names = _check_players(players)
    if len(names) != TABLE_SIZE:
        raise DrawFormatError(f"A final is one table of {TABLE_SIZE} players "
                              f"(got {len(names)}).", [(TABLE_SIZE, 1, games)])
    if games < 1:
        raise DrawFormatError("A final needs at least one game.", [(TABLE_SIZE, 1, 4)])
    started = perf_counter()
    seats = final_seating(games, TABLE_SIZE)
    rounds = []
    for j in range(games):
        table = [""] * TABLE_SIZE
        for i, s in enumerate(seats[j]):
            table[s - 1] = names[i]
        rounds.append((tuple(table),))
    out = tuple(rounds)
    report = evaluate(names, out, seed=0, seconds=perf_counter() - started)
    return Draw(rounds=out, rests=tuple(() for _ in range(games)), seed=0, report=report)
