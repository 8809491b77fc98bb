"""The fairness report's figures as the public seating page shows them (issue 45), read back from
the «Жеребьёвка» / «Draw report» tab the draw wrote (:func:`sheets_sync.workbook.layout.draw_report_tab`).

The tab is the sync's own (``labels.OWNED_TABS``): the draw writes it, the sync never does, so its
figures are read from the snapshot like any tab. Only the figures block is taken — label | value,
no player's name — and nothing at all when the tab is missing, emptied or not of that shape (an
older report, a person's edits): the page then shows the seating alone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring import labels as L
from scoring.parse.grid import find_tab

__all__ = ["DrawFigures", "draw_figures"]

MAX_FIGURES = 40  # the report has about 15; a tab pasted over is not shown whole


@dataclass(frozen=True, slots=True)
class DrawFigures:
    """The draw's stage (its name as the tab says it), its one-line summary and its figures."""

    stage: str
    summary: str
    rows: tuple[tuple[str, str], ...]


def _text(value: object, language: str) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        value = int(value) if value.is_integer() else value
        if isinstance(value, float):
            text = f"{value:g}"
            return text.replace(".", ",") if language == "ru" else text
    return str(value).strip()


def _cells(row: Sequence[object], language: str) -> list[str]:
    cells = [_text(v, language) for v in row]
    while cells and not cells[-1]:
        cells.pop()
    return cells


def draw_figures(tabs: Mapping[str, Sequence[Sequence[object]]], language: str) -> DrawFigures | None:
    """The report's figures in ``tabs`` (a snapshot's); None without a readable report."""
    title = find_tab(tabs, "draw_report")
    grid = [_cells(row, language) for row in tabs.get(title, ())] if title else []
    if len(grid) < 4 or not grid[0]:
        return None
    head = grid[0][0]
    word = next((w for w in L.TABS["draw_report"] if f"{w}: " in head), None)
    if word is None:
        return None
    stage = head.rpartition(f"{word}: ")[2]
    summary = grid[1][0] if grid[1] else ""
    start = next((i for i in range(2, len(grid)) if not grid[i]), None)  # the blank row under the title and notes
    if start is None:
        return None
    rows = []
    for cells in grid[start + 1:]:
        if not cells:
            break
        if len(cells) > 2 or not cells[0]:
            return None  # not the figures' label | value: not this layout
        rows.append((cells[0], cells[1] if len(cells) > 1 else ""))
    if not rows or len(rows) > MAX_FIGURES:
        return None
    return DrawFigures(stage=stage, summary=summary, rows=tuple(rows))
