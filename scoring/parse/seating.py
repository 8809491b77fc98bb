"""The Seating tab."""

from __future__ import annotations

from collections.abc import Mapping

from scoring import labels as L
from scoring.model import SeatingEntry
from scoring.names import typed_name
from scoring.problems import Problem
from scoring.values import is_blank, read_int
from scoring.parse.grid import Grid, _Reader, _find_header_row, find_tab


# -- Seating ------------------------------------------------------------------------------------
def _parse_seating(tabs: Mapping[str, Grid], stages: Mapping[str, str], default_stage: str, problems: list[Problem]) -> tuple[SeatingEntry, ...]:
    title = find_tab(tabs, "seating")
    if title is None:
        return ()
    grid = tabs[title]
    rd = _Reader(title, grid)
    header = _find_header_row(grid, L.SEATING_COLUMNS, ("round",))
    if header is None:
        return ()
    hr, cols = header
    seat_cols: dict[int, int] = {}
    for c, value in enumerate(grid[hr]):
        n, rule = read_int(value)
        if rule is None and n is not None and 1 <= n <= 10 and n not in seat_cols:
            seat_cols[n] = c
    entries: list[SeatingEntry] = []
    for r in range(hr + 1, len(grid)):
        row = grid[r]
        if all(is_blank(v) for v in row):
            continue
        stage = rd.stage(r, cols.get("stage"), stages, default_stage)
        if stage is None:
            continue
        round_no = rd.integer(r, cols["round"])
        table = rd.integer(r, cols.get("table")) if "table" in cols else 1
        if round_no is None or table is None:
            continue
        seated = tuple(typed_name(rd.text(r, seat_cols.get(s))) or None for s in range(1, 11))
        seat_locs = tuple(rd.loc(r, seat_cols[s]) if s in seat_cols else None for s in range(1, 11))
        entries.append(SeatingEntry(stage=stage, round=round_no, table=table, players=seated,
                                    location=rd.loc(r, cols["round"]), seat_locations=seat_locs))
    problems.extend(rd.problems)
    return tuple(entries)
