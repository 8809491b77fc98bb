"""What the backend keeps of a spreadsheet between requests: its tabs, their ids and grids, its locale.

One metadata GET fills it; the backend caches it (see :class:`~sheets_sync.backends.google.GoogleBackend`)
and the planner updates its copy with the tabs a batchUpdate adds, grows or deletes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

__all__ = ["TabProperties", "SpreadsheetMetadata", "parse_metadata", "METADATA_FIELDS", "DEFAULT_ROWS", "DEFAULT_COLS"]

DEFAULT_ROWS, DEFAULT_COLS = 1000, 26  # the grid Google gives a new tab


@dataclass
class TabProperties:
    """What the backend knows of one tab: its id, title and grid."""

    sheet_id: int
    title: str
    rows: int = DEFAULT_ROWS
    cols: int = DEFAULT_COLS
    hidden: bool = False
    frozen_rows: int = 0
    frozen_cols: int = 0


@dataclass
class SpreadsheetMetadata:
    """The spreadsheet's title, locale and tabs (in order), as of ``loaded_at`` (monotonic time)."""

    title: str
    locale: str | None
    tabs: list[TabProperties] = field(default_factory=list)
    loaded_at: float = 0.0


METADATA_FIELDS = "properties(title,locale),sheets.properties(sheetId,title,index,hidden,gridProperties)"


def parse_metadata(data: dict) -> SpreadsheetMetadata:
    """From the answer of a metadata GET (with :data:`METADATA_FIELDS`) or of a create."""
    props = data.get("properties", {})
    sheets = sorted(data.get("sheets", []), key=lambda s: s.get("properties", {}).get("index", 0))
    tabs = []
    for sheet in sheets:
        p = sheet.get("properties", {})
        grid = p.get("gridProperties", {})
        tabs.append(TabProperties(
            sheet_id=int(p.get("sheetId", 0)),
            title=p.get("title", ""),
            rows=int(grid.get("rowCount", DEFAULT_ROWS)),
            cols=int(grid.get("columnCount", DEFAULT_COLS)),
            hidden=bool(p.get("hidden", False)),
            frozen_rows=int(grid.get("frozenRowCount", 0)),
            frozen_cols=int(grid.get("frozenColumnCount", 0)),
        ))
    return SpreadsheetMetadata(title=props.get("title", ""), locale=props.get("locale"), tabs=tabs, loaded_at=time.monotonic())
