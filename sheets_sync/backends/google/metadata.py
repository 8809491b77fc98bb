"""What the backend keeps of a spreadsheet between requests: its tabs, their ids and grids, its locale.

One metadata GET fills it; the backend caches it (see :class:`~sheets_sync.backends.google.GoogleBackend`)
and the planner updates its copy with the tabs a batchUpdate adds, grows or deletes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

__all__ = ["TabProperties", "ProtectedRange", "SpreadsheetMetadata", "parse_metadata", "parse_protected_range", "METADATA_FIELDS", "DEFAULT_ROWS",
           "DEFAULT_COLS"]

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
class ProtectedRange:
    """One protected range of a tab: its id, the tab, the cells (the API's ``GridRange`` indices;
    None where unbounded: no bound at all is the whole tab), its editors' e-mails and whether it
    only warns."""

    range_id: int | None  # None: being added by the write planned now (Google gives the id)
    sheet_id: int
    bounds: tuple[int | None, int | None, int | None, int | None] = (None, None, None, None)  # rows, columns
    editors: tuple[str, ...] = ()
    warning_only: bool = False


@dataclass
class SpreadsheetMetadata:
    """The spreadsheet's title, locale, tabs (in order) and protected ranges, as of ``loaded_at``
    (monotonic time)."""

    title: str
    locale: str | None
    tabs: list[TabProperties] = field(default_factory=list)
    loaded_at: float = 0.0
    protected: list[ProtectedRange] = field(default_factory=list)


METADATA_FIELDS = ("properties(title,locale),sheets(properties(sheetId,title,index,hidden,gridProperties),"
                   "protectedRanges(protectedRangeId,range,editors,warningOnly))")
_BOUNDS = ("startRowIndex", "endRowIndex", "startColumnIndex", "endColumnIndex")


def parse_protected_range(data: dict, sheet_id: int) -> ProtectedRange:
    """A ``ProtectedRange`` of the API (from a metadata GET or an addProtectedRange reply)."""
    rng = data.get("range", {})
    return ProtectedRange(
        range_id=data.get("protectedRangeId"),
        sheet_id=int(rng.get("sheetId", sheet_id)),
        bounds=tuple(rng.get(k) for k in _BOUNDS),
        editors=tuple(str(e).lower() for e in data.get("editors", {}).get("users", ())),
        warning_only=bool(data.get("warningOnly", False)),
    )


def parse_metadata(data: dict) -> SpreadsheetMetadata:
    """From the answer of a metadata GET (with :data:`METADATA_FIELDS`) or of a create."""
    props = data.get("properties", {})
    sheets = sorted(data.get("sheets", []), key=lambda s: s.get("properties", {}).get("index", 0))
    tabs = []
    protected = []
    for sheet in sheets:
        p = sheet.get("properties", {})
        protected += [parse_protected_range(r, int(p.get("sheetId", 0))) for r in sheet.get("protectedRanges", ())]
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
    return SpreadsheetMetadata(title=props.get("title", ""), locale=props.get("locale"), tabs=tabs, loaded_at=time.monotonic(),
                               protected=protected)
