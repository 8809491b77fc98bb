"""What a tab holds: protocols, an evening, or neither."""

from __future__ import annotations

from datetime import date

from scoring.parse.blocks import _Blocks, _split_blocks
from scoring.parse.evenings import _date_in_title, _evening_date, _evening_date_cell
from scoring.parse.grid import Grid


def is_protocol_grid(grid: Grid, title: str = "") -> bool:
    """The tab holds protocols: a seat table with a stage label above it, or it is an evening tab."""
    return _tab_kind(title, grid, _split_blocks(grid)) is not None


def _tab_kind(title: str, grid: Grid, found: _Blocks) -> str | None:
    """"evening" (a date above the blocks or as the title), "protocols" (a stage label above a seat
    table), or None: the tab holds no protocol."""
    if not found.blocks:
        return None
    if _evening_date_cell(grid, found.blocks[0].first) is not None or _date_in_title(title) is not None:
        return "evening"
    return "protocols" if any("stage" in b.labels for b in found.blocks) else None


def evening_of(title: str, grid: Grid) -> date | None:
    """The date of the evening a tab holds (its date cell, else its title), or None when the tab is
    not an evening or its date cannot be read."""
    found = _split_blocks(grid)
    if _tab_kind(title, grid, found) != "evening":
        return None
    return _evening_date(title, grid, found.blocks[0].first)[0]
