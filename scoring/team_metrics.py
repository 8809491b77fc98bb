"""Team tiebreak metrics: what separates two teams with equal points, named in the preset's
``teams.tiebreaks`` and checked when it loads (like the players' :mod:`scoring.metrics`).

Each metric reads the team's *counted* members — the ones whose points make the team's
total (all of them, or the best k, :mod:`scoring.teams`) — as (main place, statistics) pairs,
and declares whether a higher or a lower value is better.  Equal on every metric: the teams
share their places; there is never a random tiebreak.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from scoring.metrics import Better, Value
from scoring.stats import PlayerStats

__all__ = ["TeamMetric", "TEAM_METRICS", "Member"]

Member = tuple[int, PlayerStats]  # the member's place in the main standings, his statistics


@dataclass(frozen=True, kw_only=True, slots=True)
class TeamMetric:
    key: str
    name_ru: str
    name_en: str
    value: Callable[[Sequence[Member]], Value]
    better: Better = Better.HIGHER

    def name(self, language: str) -> str:
        return self.name_en if language == "en" else self.name_ru

    def rank_key(self, members: Sequence[Member]) -> Value:
        """Higher is better, whatever the declared direction."""
        value = self.value(members)
        return value if self.better is Better.HIGHER else -value


def _sum(read: Callable[[PlayerStats], Value]) -> Callable[[Sequence[Member]], Value]:
    return lambda members: sum((read(stats) for _, stats in members), Decimal(0))


def _best_place(members: Sequence[Member]) -> int:
    # no member: a place no real one has, so the team ranks below every team with a member
    return min((place for place, _ in members), default=1 << 30)


def _best_member(members: Sequence[Member]) -> Value:
    return max((stats.exact_total for _, stats in members), default=Decimal(0))


def _m(key: str, ru: str, en: str, value: Callable[[Sequence[Member]], Value], better: Better = Better.HIGHER) -> TeamMetric:
    return TeamMetric(key=key, name_ru=ru, name_en=en, value=value, better=better)


TEAM_METRICS: dict[str, TeamMetric] = {
    m.key: m
    for m in (
        # short: «выше по критерию: лучший игрок» fits the standings' column on paper
        _m("best_member", "лучший игрок", "best member", _best_member),
        _m("best_place", "лучшее место игрока", "best member's place", _best_place, Better.LOWER),
        _m("wins", "побед у игроков команды", "members' wins", _sum(lambda s: s.wins)),
        _m("extra_points", "доп. баллов у игроков команды", "members' extra points", _sum(lambda s: s.extra_points)),
        _m("recognised_best", "признавались лучшими", "times members were recognised best",
           _sum(lambda s: s.recognised_best)),
        _m("best_move_points", "баллов за лучший ход", "members' best move points",
           _sum(lambda s: s.best_move_points)),
        _m("fewer_penalties", "меньше штрафов у игроков команды", "fewer penalties of members",
           _sum(lambda s: -s.penalties), Better.LOWER),
        _m("games", "игр сыграно", "games played", _sum(lambda s: s.games)),
    )
}
