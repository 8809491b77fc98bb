"""Tiebreak metrics: each one a key, a name in both languages and a value per player.

A preset lists metric keys in order (its tiebreak chain); ranking sorts by the tuple
(total, metric values…), higher first.  Keys are checked when the preset loads, so an
unknown or duplicated key never reaches a ranking.  There is never a random tiebreak:
when every metric is equal, the places are shared.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scoring.stats import PlayerStats

__all__ = ["Metric", "METRICS"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Metric:
    key: str
    name_ru: str
    name_en: str
    # value(stats) -> comparable; higher is better
    value: Callable[[PlayerStats], Any]
    final_only: bool = False  # regulation: "in the final only"

    def name(self, language: str) -> str:
        return self.name_en if language == "en" else self.name_ru


def _m(key: str, ru: str, en: str, value: Callable[[PlayerStats], Any], final_only: bool = False) -> Metric:
    return Metric(key=key, name_ru=ru, name_en=en, value=value, final_only=final_only)


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
        _m("fewer_penalties", "меньше штрафов", "fewer penalties", lambda s: s.penalties),  # penalties are ≤ 0
        _m("ci", "компенсация Ci", "Ci compensation", lambda s: s.ci_exact),
        # not a tiebreak: the reason shown when totals are equal only after rounding Ci for display
        _m("exact_total", "сумма с точным Ci (до округления)", "total with exact Ci (before rounding)",
           lambda s: s.exact_total),
        _m(
            "qualifying_place",
            "место после отбора",
            "place after qualifying",
            lambda s: -s.qualifying_place if s.qualifying_place else -(10**9),
            final_only=True,
        ),
    )
}
