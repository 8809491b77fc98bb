"""Role nominations: best don, sheriff, mafia, civilian, and MVP, as the preset defines them.

Each ``[[nominations]]`` entry of a preset names a role (none for MVP), the minimum
number of games in that role, and a formula: the components summed over the player's
games in that role (the point items' words, :data:`scoring.items.NOMINATION_COMPONENTS`).
Rules (documented in docs/presets.md):

* components are taken **before** stage coefficients (a nomination rates play in the
  role, not the stage it was played in): ``win``, ``extra`` (judge's extra points),
  ``auto_extra``, ``best_move``, ``penalties`` (removals in those games, ≤ 0; for MVP also
  the tournament penalties), ``ci`` (exact), ``total`` (every item of the game, Ci included);
* only players eligible for awards count, with at least ``min_games`` games in the role;
* the highest score wins when it is above 0; equal scores share the nomination (never
  random, never by name); the full ranking is kept with shared places ("2–3").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from scoring.collation import name_key
from scoring.items import ITEM, ITEMS, TOTAL, GameLine
from scoring.numbers import quantize
from scoring.preset import NominationRule
from scoring.ranking import place
from scoring.stats import PlayerStats

__all__ = ["NominationEntry", "Nomination", "nominate", "nominations", "score_line", "DEFAULT_NAMES"]

DEFAULT_NAMES: dict[str, tuple[str, str]] = {
    "don": ("Лучший дон", "Best don"),
    "sheriff": ("Лучший шериф", "Best sheriff"),
    "mafia": ("Лучшая мафия", "Best mafia"),
    "civilian": ("Лучший мирный", "Best civilian"),
    "mvp": ("Самый ценный игрок (MVP)", "Most valuable player (MVP)"),
}
# the item each formula word stands for ("total" stands for all of them)
_ITEM_OF = {item.nomination: item for item in ITEMS if item.nomination}
PENALTIES = ITEM["removal"].nomination  # for MVP the word takes the tournament penalties too


@dataclass(frozen=True, kw_only=True, slots=True)
class NominationEntry:
    player: str
    games: int  # games in the role (all games for MVP)
    score: Fraction  # exact
    place: int
    places: str  # "1" or "2–3"

    @property
    def shown(self) -> Decimal:
        """The score rounded half up to 0.001 for display (exact when it is a short decimal)."""
        return quantize(self.score)


@dataclass(frozen=True, kw_only=True, slots=True)
class Nomination:
    key: str
    role: str | None
    min_games: int
    formula: tuple[str, ...]
    name_ru: str
    name_en: str
    winners: tuple[str, ...]  # several = shared; empty = nobody qualified or nobody scored above 0
    ranking: tuple[NominationEntry, ...]  # every qualified player, best first

    def name(self, language: str) -> str:
        return self.name_en if language == "en" else self.name_ru

    @property
    def shared(self) -> bool:
        return len(self.winners) > 1

    @property
    def score(self) -> Decimal | None:
        """The winners' score rounded for display; None when nobody won."""
        return self.ranking[0].shown if self.winners else None


def score_line(line: GameLine, formula: Sequence[str]) -> Fraction:
    """The formula's components of one game, before the stage coefficient, exact."""
    total = Fraction(0)
    for part in formula:
        if part == TOTAL:
            total += sum((line.before_coefficient(i.key) for i in ITEMS), Fraction(0))
        else:
            total += line.before_coefficient(_ITEM_OF[part].key)
    return total


def nominate(rules: Iterable[NominationRule], stats: Iterable[PlayerStats]) -> tuple[Nomination, ...]:
    """Every nomination of ``rules`` over the players' ``stats``."""
    stats = list(stats)
    return tuple(_nomination(rule, stats) for rule in rules)


@dataclass(frozen=True, slots=True)
class _Scored:
    player: str
    games: int
    score: Fraction


def _nomination(rule: NominationRule, stats: Sequence[PlayerStats]) -> Nomination:
    scored = [entry for s in stats if (entry := _scored(rule, s)) is not None]
    # the name only orders the listing of equal scores
    ranking = tuple(NominationEntry(player=p.entry.player, games=p.entry.games, score=p.entry.score, place=p.place,
                                    places=p.places)
                    for p in place(scored, key=lambda e: e.score, listing=lambda e: name_key(e.player)))
    winners = tuple(e.player for e in ranking if e.place == 1 and e.score > 0)
    ru, en = DEFAULT_NAMES.get(rule.key, (rule.key, rule.key))
    return Nomination(key=rule.key, role=rule.role, min_games=rule.min_games, formula=rule.formula,
                      name_ru=rule.name_ru or ru, name_en=rule.name_en or en, winners=winners, ranking=ranking)


def _scored(rule: NominationRule, s: PlayerStats) -> _Scored | None:
    """The player's score in the nomination; None when he is not eligible or played too few games in the role."""
    if not s.eligible:
        return None
    lines = [ln for ln in s.lines if not ln.substitute and (rule.role is None or ln.role.value == rule.role)]
    if len(lines) < rule.min_games or not lines:
        return None
    score = sum((score_line(ln, rule.formula) for ln in lines), Fraction(0))
    if rule.role is None and PENALTIES in rule.formula:
        score += Fraction(s.tournament_penalties)  # MVP: the tournament penalties count too
    return _Scored(s.player, len(lines), score)


def nominations(results: Any) -> tuple[Nomination, ...]:
    """The nominations of ``results`` (scoring.standings.Results); for public outputs pass
    ``scoring.standings.published(results)`` so that a hidden final stays hidden."""
    return tuple(results.nominations)
