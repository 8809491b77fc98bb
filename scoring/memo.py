"""Remember the last answer of a pure function of one frozen object, by identity.

One sync renders the same :class:`~scoring.standings.Results` into the Standings tab, the site,
standings.json and the VK post, and each asks for the same derived tables (the race, who can
still qualify).  Results are frozen, so the same object always gives the same answer: keeping
the last one (one entry, compared with ``is``) saves the repeats without keeping old
tournaments alive in a long ``watch``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

__all__ = ["last_answer"]

A = TypeVar("A")
R = TypeVar("R")


def last_answer(fn: Callable[[A], R]) -> Callable[[A], R]:
    """``fn`` that answers again without recomputing when called with the very same object."""
    last: list[tuple[A, R]] = []

    @functools.wraps(fn)
    def remembered(arg: A) -> R:
        if last and last[0][0] is arg:
            return last[0][1]
        answer = fn(arg)
        last[:] = [(arg, answer)]
        return answer

    return remembered
