"""Remember the last answers of a pure function of one frozen object, by identity.

One sync renders the same :class:`~scoring.standings.Results` into the Standings tab, the site,
standings.json and the VK post, and each asks for the same derived tables (the race, who can
still qualify, the public view).  Results are frozen, so the same object always gives the same
answer: keeping the last two (compared with ``is``: the full results the organizers' tabs show
and the public ones the files show, when a final is hidden) saves the repeats.  The arguments
are held weakly, and an answer goes with its argument: a long ``watch`` keeps no earlier cycle's
tournament alive while it computes the next (its peak memory at 1000 players was the sync's plus
the last cycle's results).
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from typing import TypeVar

__all__ = ["last_answer"]

A = TypeVar("A")
R = TypeVar("R")


_SAME = object()  # an answer that is the argument itself (held through the weak reference only)


def last_answer(fn: Callable[[A], R]) -> Callable[[A], R]:
    """``fn`` that answers again without recomputing when called with one of the very same two
    objects it was last called with (which must accept weak references)."""
    last: list[tuple[weakref.ref, object]] = []

    def forget(gone: weakref.ref) -> None:
        last[:] = [entry for entry in last if entry[0] is not gone]

    @functools.wraps(fn)
    def remembered(arg: A) -> R:
        for known, answer in last:
            if known() is arg:
                return arg if answer is _SAME else answer  # type: ignore[return-value]
        answer = fn(arg)
        last[:] = [(weakref.ref(arg, forget), _SAME if answer is arg else answer), *last[:1]]
        return answer

    return remembered
