"""The «Организаторы» cell of the Tournament tab, changed as the owner's action when a co-organizer
joins or leaves (issue 43 §1): the e-mails there are the editors of the sync's protected tabs
(:mod:`sheets_sync.workbook.protection`).

The cell is a value people type, which the sync never changes; this is not the sync but an action
the owner took (inviting, removing), and it is done as a person would: the e-mail appended after
what is there (nothing dropped, the separators kept), or only that e-mail taken out. A tab without
the row gets one below its last filled row, labelled in the tournament's language.

Pure: a read's grids in, the one-cell :class:`~sheets_sync.backends.base.TabWrite` out (or None:
nothing to change)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from scoring import labels as L
from scoring.parse.grid import find_tab
from scoring.values import is_blank, text
from sheets_sync.backends.base import Grid, TabWrite

__all__ = ["OrganizersEdit", "organizers_edit", "ADDED", "REMOVED", "ALREADY", "ABSENT", "NO_TAB"]

ADDED, REMOVED, ALREADY, ABSENT, NO_TAB = "added", "removed", "already", "absent", "no-tab"
_SEPARATED = re.compile(r"([,;\s]+)")


@dataclass(frozen=True)
class OrganizersEdit:
    outcome: str  # ADDED / REMOVED / ALREADY (was there: nothing to add) / ABSENT (nothing to take out) / NO_TAB
    write: TabWrite | None = None  # the one cell to write (None: nothing)
    cell: str = ""  # where, as A1 ("" when nothing is written)


def _row_of(grid: Grid) -> int | None:
    labels = {L.norm(w) for w in L.TOURNAMENT_LABELS["organizers"]}
    for r, row in enumerate(grid):
        if row and not is_blank(row[0]) and L.norm(row[0]) in labels:
            return r
    return None


def _words(value: str) -> list[str]:
    return [w for w in _SEPARATED.split(value)[::2] if w]


def _without(value: str, email: str) -> str:
    """``value`` with every ``email`` taken out, the other words and the separators between them kept."""
    parts = _SEPARATED.split(value)  # words at even places, separators at odd
    kept: list[str] = []
    for i in range(0, len(parts), 2):
        word = parts[i]
        if not word or word.casefold() == email:
            continue
        if kept:
            kept.append(parts[i - 1] if i > 0 else ", ")  # the separator typed before this word
        kept.append(word)
    return "".join(kept)


def organizers_edit(tabs: Mapping[str, Grid], email: str, *, add: bool, language: str = "ru") -> OrganizersEdit:
    """Add ``email`` to «Организаторы» (``add``) or take it out."""
    email = email.strip().casefold()
    title = find_tab(tabs, "tournament")
    if title is None:
        return OrganizersEdit(NO_TAB)
    grid = tabs[title]
    r = _row_of(grid)
    raw = grid[r][1] if r is not None and len(grid[r]) > 1 else None
    value = raw.strip() if isinstance(raw, str) else text(raw)  # as typed: line breaks and all
    present = email in {w.casefold() for w in _words(value)}
    if add and present:
        return OrganizersEdit(ALREADY)
    if not add and not present:
        return OrganizersEdit(ABSENT)
    if add:
        new = f"{value}, {email}" if value else email
    else:
        new = _without(value, email)
    if r is None:  # no row yet: one below the last filled one
        r = max((i for i, row in enumerate(grid) if any(not is_blank(v) for v in row)), default=-1) + 1
        label = L.TOURNAMENT_LABELS["organizers"][1 if language == "en" else 0]
        rows: list[tuple] = [()] * r + [(label, new)]
    else:
        rows = [()] * r + [(None, new)]
    return OrganizersEdit(ADDED if add else REMOVED, TabWrite(title=title, rows=tuple(rows), owned=False),
                          cell=f"B{r + 1}")
