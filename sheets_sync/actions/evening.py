"""`evening`: adding an evening of a club season to the workbook — one tab, its protocol blocks.

The tab is titled by the evening's date («05.12.2026») and holds ``games`` empty protocol blocks
stacked one under another (:func:`sheets_sync.workbook.layout.evening_tab`); the reader finds them by
their labels (:mod:`scoring.parse`).  One read, one write through the backend (an .xlsx or a
Google Sheet alike); nothing is written when the evening is already there.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from scoring import labels as L
from scoring.parse import evening_of
from sheets_sync.backends.base import Backend, Patch
from sheets_sync.actions.draw import CommandRefused
from sheets_sync.workbook.layout import evening_block_games, evening_tab, evening_title
from sheets_sync.loop.outcome import compute, read_workbook
from sheets_sync.messages import fail
from sheets_sync.refs import workbook_folder

__all__ = ["EveningAdded", "add_evening"]


@dataclass(frozen=True, kw_only=True, slots=True)
class EveningAdded:
    title: str
    games: tuple[tuple[int, int | None], ...]  # (game number, table) of each block, top to bottom
    language: str

    @property
    def rounds(self) -> int:
        """The time slots: the games of all tables together, ``tables`` at a time (6 at 2 tables: 3)."""
        return max((game for game, _ in self.games), default=0)

    @property
    def tables(self) -> int | None:
        return max((t for _, t in self.games if t is not None), default=None)


def add_evening(backend: Backend, *, day: date, games: int, tables: int | None = None) -> EveningAdded:
    """Add the tab of the evening ``day`` with ``games`` empty protocol blocks: ``games`` counts the
    evening's games at all tables together, one block each (tables 1…``tables`` taking the games of
    each time slot in turn: 6 games at 2 tables are 3 rounds).  Refused when the workbook already has that
    evening: a tab of that title, or an evening tab whose date cell says that day."""
    snapshot = read_workbook(backend)
    outcome = compute(snapshot, base_dir=workbook_folder(backend.source))
    title = evening_title(day)
    language = outcome.language
    same = [t for t in snapshot.order if L.norm(t) == L.norm(title) or evening_of(t, snapshot.tabs[t]) == day]
    if same:
        raise fail(CommandRefused, "evening.exists", language=language, title=title, tab=same[0])
    tab = evening_tab(day=day, games=games, tables=tables, language=language, preset=outcome.preset)
    backend.apply(Patch(writes=(tab,)), base=snapshot)
    return EveningAdded(title=title, games=tuple(evening_block_games(games, tables)), language=language)
