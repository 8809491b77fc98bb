"""Places with ties: sort best first by a key, and let equal keys share a place ("5–6").

The one ranking loop of the standings and the nominations.  There is never a random
tiebreak: entries with equal keys share their places and are only listed in the order
``listing`` gives (a nickname), so that the result never depends on the input order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

__all__ = ["Placed", "place", "format_places"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Placed(Generic[T]):
    entry: T
    key: Any  # what it was ranked by
    place: int  # the first place of the range it shares
    places: str  # "5" or "5–6"


def format_places(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}–{last}"


def place(entries: Iterable[T], key: Callable[[T], Any], *, listing: Callable[[T], Any], start: int = 1) -> list[Placed[T]]:
    """``entries`` best first (the highest ``key``), placed from ``start``; equal keys share a range."""
    listed = sorted(entries, key=listing)
    listed_keys = [key(e) for e in listed]  # each entry's key once (a key may build Fractions)
    order = sorted(range(len(listed)), key=listed_keys.__getitem__, reverse=True)  # stable: ties keep listing order
    ordered = [listed[i] for i in order]
    keys = [listed_keys[i] for i in order]
    placed: list[Placed[T]] = []
    first = 0
    while first < len(ordered):
        last = first
        while last + 1 < len(ordered) and keys[last + 1] == keys[first]:
            last += 1
        places = format_places(start + first, start + last)
        placed.extend(Placed(ordered[i], keys[i], start + first, places) for i in range(first, last + 1))
        first = last + 1
    return placed
