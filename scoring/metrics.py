"""Tiebreak metrics: each one a key, a name in both languages, a value per player and
whether a higher or a lower value is better.

A preset lists metric keys in order (its tiebreak chain); ranking sorts by the tuple
(total, metric keys…), best first, where each metric's :meth:`Metric.rank_key` turns its
value into "higher is better" by the declared direction, and a missing value (a player
without a place after qualifying) ranks below every present one.  Keys are checked when
the preset loads, so an unknown or duplicated key never reaches a ranking.  There is never
a random tiebreak: when every metric is equal, the places are shared.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from scoring.stats import PlayerStats

__all__ = ["Better", "Metric", "METRICS"]

Value = int | Decimal | Fraction


class Better(enum.Enum):
    HIGHER = "higher"
    LOWER = "lower"


@dataclass(frozen=True, kw_only=True, slots=True)
class Metric:
    key: str
    name_ru: str
    name_en: str
    value: Callable[[PlayerStats], Value | None]  # as people read it; None: the player has none
    better: Better = Better.HIGHER
    final_only: bool = False  # regulation: "in the final only"

    def name(self, language: str) -> str:
        return self.name_en if language == "en" else self.name_ru

    def rank_key(self, stats: PlayerStats) -> tuple[bool, Value]:
        """A key where higher is better: (has a value, the value signed by the direction)."""
        value = self.value(stats)
        if value is None:
            return (False, 0)
        return (True, value if self.better is Better.HIGHER else -value)


def _m(key: str, ru: str, en: str, value: Callable[[PlayerStats], Value | None], *, better: Better = Better.HIGHER,
       final_only: bool = False) -> Metric:
    return Metric(key=key, name_ru=ru, name_en=en, value=value, better=better, final_only=final_only)


METRICS: dict[str, Metric] = {
    m.key: m
    for m in (
        _m("recognised_best", "признавался лучшим", "times recognised best", lambda s: s.recognised_best),
        _m("extra_points", "сумма доп. баллов", "extra points", lambda s: s.extra_points),
        _m("wins", "побед", "wins", lambda s: s.wins),
        _m("wins_don", "побед доном", "wins as don", lambda s: s.wins_as["don"]),
        _m("wins_sheriff", "побед шерифом", "wins as sheriff", lambda s: s.wins_as["sheriff"]),
        _m("wins_mafia", "побед мафией", "wins as mafia", lambda s: s.wins_as["mafia"]),
        _m("wins_civilian", "побед мирным", "wins as civilian", lambda s: s.wins_as["civilian"]),
        _m("shot_first", "убит в первую ночь", "times shot first", lambda s: s.shot_first),
        _m("best_move_points", "баллы за лучший ход", "best move points", lambda s: s.best_move_points),
        # the points lost to penalties (≥ 0: penalties are stored as negative points)
        _m("fewer_penalties", "меньше штрафов", "fewer penalties", lambda s: -s.penalties, better=Better.LOWER),
        _m("ci", "компенсация Ci", "Ci compensation", lambda s: s.ci_exact),
        # not a tiebreak: the reason shown when totals are equal only after rounding Ci for display
        _m("exact_total", "сумма с точным Ci (до округления)", "total with exact Ci (before rounding)",
           lambda s: s.exact_total),
        _m("qualifying_place", "место после отбора", "place after qualifying", lambda s: s.qualifying_place,
           better=Better.LOWER, final_only=True),
    )
}
