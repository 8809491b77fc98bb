"""The fairness report of a seating: what `evaluate` measures, printable and tabular.

`FairnessReport` holds the figures of one seating (opponent balance against the proven
bound, meetings, seats, clubs, table rotation, schedule problems of a hand-edited seating)
and renders them as text lines or sheet rows in Russian or English; `PlayerFairness` is
one player's line of it.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.draw.formats import TABLE_SIZE

__all__ = ["PlayerFairness", "FairnessReport"]


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
    keep_apart_meetings: int                  # games together of the pairs asked to sit apart
    players: tuple[PlayerFairness, ...]
    problems: tuple[str, ...]                 # schedule errors (hand-edited seatings)
    seed: int | None = None
    seconds: float | None = None
    keep_apart_pairs: int = 0                 # pairs asked to sit apart: none, no line about them
    teams: bool = False                       # the players have teams: the report counts teammates
    teammate_meetings: int = 0                # pairs of teammates seated at one table, every game
    teammate_minimum: int = 0                 # the fewest the rounds' players allow

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
        `scoring.draw.orthogonal`), so the report explains the gap instead of leaving it unexplained."""
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
            L["clubs"].format(got=self.same_club_meetings, min=self.same_club_minimum)
            + (L["keep"].format(keep=self.keep_apart_meetings, pairs=self.keep_apart_pairs)
               if self.keep_apart_pairs else ""),
        ]
        if self.teams:
            lines.append(L["teams"].format(got=self.teammate_meetings, min=self.teammate_minimum))
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
            *([[L["r_keep"], self.keep_apart_meetings]] if self.keep_apart_pairs else []),
            *([[L["r_team"], self.teammate_meetings], [L["r_teammin"], self.teammate_minimum]] if self.teams else []),
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
        "clubs": "Same-club meetings: {got} (minimum possible {min})",
        "keep": "; games together of the {pairs} pair(s) asked to sit apart: {keep}",
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
        "teams": "Teammate meetings: {got} (minimum possible {min})",
        "r_team": "Teammate meetings", "r_teammin": "Teammate minimum",
        "r_keep": "Games together of pairs asked to sit apart", "r_seed": "Seed", "r_time": "Seconds",
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
        "clubs": "Встреч одноклубников: {got} (минимально возможно {min})",
        # pairs the organizers asked never to seat at one table («развести» read as «divorced»: issue 34 §11)
        "keep": "; игр за одним столом у пар «не сажать вместе» (пар: {pairs}): {keep}",
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
        "teams": "Встреч игроков одной команды: {got} (минимально возможно {min})",
        "r_team": "Встреч игроков одной команды", "r_teammin": "Минимум встреч игроков одной команды",
        "r_keep": "Игр за одним столом у пар «не сажать вместе»", "r_seed": "Зерно", "r_time": "Секунд",
        "r_hist_c": "Совместных игр", "r_hist_n": "Пар", "r_problem": "Ошибка",
        "r_head": ("Игрок", "Клуб", "Игр", "Отдых", "Разных соперников",
                   "Чаще всего с", "Раз", "Места", "Повторов места",
                   "Места 1–3", "Места 4–7", "Места 8–10", "Сумма мест", "Среднее место"),
        "r_table": "Стол",
    },
}
