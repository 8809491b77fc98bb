"""Names as people type them: what a name cell holds, and when two typed names are one player.

A judge types «пума» for «Пума», «Пyма» with a Latin y on a keyboard left in English, a name
with a space too many; a spreadsheet user types ``'+1+1`` so that the cell is not a formula.
:func:`typed_name` is the name a cell holds (the leading apostrophe is the spreadsheet's text
escape — a plain-text Google cell keeps it visible — not part of the name); :func:`fold` is the
form two names are compared by: case-folded, trimmed, single spaces, ё → е, and the Cyrillic
and Latin letters that look alike folded to one alphabet.  Folding is an equivalence (the same
for «ТОМ», «Том» and «Tom»: case-insensitive equality and look-alike letters compose), so the
Players tab never holds two names of one fold and a protocol's name matches by fold or not.

:func:`resolve` reads a typed name against the registered ones: the exact name, the one name
of the same fold (read as that player, with a warning), several (an error) or none (an error
naming the nearest players by edit distance of the folded names).  Pure.
"""

from __future__ import annotations

import enum
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from scoring.collation import name_key
from scoring.problems import Text
from scoring.values import text

__all__ = ["typed_name", "fold", "distance", "nearest", "nearest_hint", "Match", "Resolution", "NameIndex"]

# Cyrillic letters (as case-folded) -> the Latin letter they look like.  Upper-case-only
# look-alikes (В/B, К/K, М/M, Н/H, Т/T) are folded in lower case too: «Том» equals «ТОМ»
# case-insensitively and «ТОМ» looks like «TOM», so «Том» must fold as «Tom» does.
_LOOKALIKES = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x",
    "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l", "һ": "h", "ү": "y",
    "\u00a0": " ",
})
_ESCAPE = "'"  # the spreadsheet's text escape typed before a name that looks like a number or formula


def typed_name(value: object) -> str:
    """The name a cell holds: its text (trimmed, single spaces) without a leading apostrophe."""
    name = text(value)
    if name.startswith(_ESCAPE):
        name = name[1:].strip()
    return name


def fold(name: str) -> str:
    """The form names are compared by (see the module's docstring)."""
    name = name.strip()
    if name.startswith(_ESCAPE):
        name = name[1:]
    return " ".join(name.casefold().translate(_LOOKALIKES).split())


def distance(a: str, b: str) -> int:
    """Levenshtein distance: the fewest letters inserted, deleted or replaced to turn a into b."""
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def nearest(name: str, known: Iterable[str], *, limit: int = 3) -> list[str]:
    """The registered names closest to ``name`` by the edit distance of their folds (the
    closest first, ties by name), up to ``limit``: those a typo could have made (at most about a
    third of the letters different, at least two), and at most one letter farther than the
    closest («запасной оди» names «Запасной Один», not also «Запасной Два»)."""
    probe = fold(name)
    scored = sorted(((distance(probe, fold(k)), k) for k in set(known)), key=lambda dk: (dk[0], name_key(dk[1])))
    most = min(max(2, len(probe) // 3), scored[0][0] + 1) if scored else 0
    return [k for d, k in scored if d <= most][:limit]


def nearest_hint(name: str, known: Iterable[str]) -> Text | str:
    """« (может быть, «Лиса»?)» after an unknown name: the nearest registered names, or nothing."""
    guesses = nearest(name, known)
    if not guesses:
        return ""
    return Text(" (может быть, " + " или ".join(f"«{g}»" for g in guesses) + "?)",
                " (did you mean " + " or ".join(f"'{g}'" for g in guesses) + "?)")


class Match(enum.Enum):
    EXACT = "exact"
    FOLDED = "folded"  # exactly one registered name of the same fold: read as that player
    AMBIGUOUS = "ambiguous"  # several registered names of the same fold
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Resolution:
    match: Match
    name: str  # the registered name it is read as (the typed one when not exact or folded)
    candidates: tuple[str, ...] = ()  # ambiguous: the registered names of its fold; unknown: the nearest


class NameIndex:
    """The registered names, by fold."""

    def __init__(self, names: Iterable[str]):
        self.names = frozenset(names)
        by_fold: dict[str, list[str]] = defaultdict(list)
        for n in sorted(self.names, key=name_key):
            by_fold[fold(n)].append(n)
        self.by_fold: Mapping[str, tuple[str, ...]] = {k: tuple(v) for k, v in by_fold.items()}

    def resolve(self, typed: str) -> Resolution:
        if typed in self.names:
            return Resolution(Match.EXACT, typed)
        same = self.by_fold.get(fold(typed), ())
        if len(same) == 1:
            return Resolution(Match.FOLDED, same[0])
        if same:
            return Resolution(Match.AMBIGUOUS, typed, same)
        return Resolution(Match.UNKNOWN, typed, tuple(nearest(typed, self.names)))
