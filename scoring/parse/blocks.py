"""Where the protocols of a tab are: blocks (a header, a seat table, up to ten seat rows) and
the seat rows no header claims."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring import labels as L
from scoring.values import is_blank, read_int
from scoring.parse.grid import Grid, _cell, _header_map, _words


# -- Protocols ---------------------------------------------------------------------------------
# A protocol tab holds one protocol or several stacked one under another (an evening of a club
# season, a round's tables): each *block* is a header (labels such as «Игра», «Стол», «Судья»
# with their values, on one line or several), the seat table's header row, and up to ten seat
# rows.  Blocks are found by their labels anywhere in the tab, and each is read exactly as a
# tab's only protocol is read.
_LABEL_ROWS = 30  # how far above its seat table a block's header labels may be


@dataclass(frozen=True, kw_only=True, slots=True)
class _Block:
    """Where one protocol sits in a tab (0-based rows and columns)."""

    table_row: int  # the seat table's header row
    cols: Mapping[str, int]
    labels: Mapping[str, tuple[int, int]]  # header label key -> the cell of its value
    first: int  # the block's first row: its first label (the table row when it has none)
    anchor: tuple[int, int]  # the first label's own cell
    seat_rows: tuple[int, ...]  # up to ten
    end: int  # the block's last row
    extra_rows: tuple[int, ...] = ()  # seat rows beyond the tenth (an error of this block)
    summary_row: int | None = None  # the line «ПУ 5 ЛХ 2 3 4» below the seats, when the block has one


@dataclass(frozen=True, kw_only=True, slots=True)
class _Blocks:
    """The blocks of one tab, and the seat rows no header claims (rows, 0-based, first to last)."""

    blocks: tuple[_Block, ...]
    orphans: tuple[tuple[int, int], ...] = ()


def _label_key(value: object) -> str | None:
    return _words(L.PROTOCOL_HEADER).get(L.norm(value).rstrip(":"))


def _labels_in(grid: Grid, top: int, bottom: int) -> tuple[dict[str, tuple[int, int]], tuple[int, int] | None]:
    """Header label key -> the cell of its value, for the labels in rows ``top``..``bottom - 1``
    (several on one line too); and the first label's own cell.  A label's value is the next
    non-blank cell within two to its right that is not itself a label, else the cell beside it."""
    found: dict[str, tuple[int, int]] = {}
    first: tuple[int, int] | None = None
    for r in range(top, bottom):
        row = grid[r]
        for c, value in enumerate(row):
            key = _label_key(value) if isinstance(value, str) else None
            if key is None or key in found:
                continue
            first = first or (r, c)
            vc = c + 1
            while vc < len(row) and is_blank(row[vc]) and vc < c + 3:
                vc += 1
            taken = vc < len(row) and not is_blank(row[vc]) and _label_key(row[vc]) is None
            found[key] = (r, vc if taken else c + 1)
    return found, first


_PROTOCOL_TITLES = frozenset(L.norm(w) for w in L.PROTOCOL_TITLE)


def _is_label_row(row: Sequence[object]) -> bool:
    """The row starts a block: its first non-blank cell is a header label or the protocol's title."""
    first = next((v for v in row if not is_blank(v)), None)
    return isinstance(first, str) and (_label_key(first) is not None or L.norm(first) in _PROTOCOL_TITLES)


def _seat_like(row: Sequence[object], cols: Mapping[str, int]) -> bool:
    """A row beyond the tenth that still reads as a seat: a seat number, or a player or a role
    under an empty seat cell (text in the seat cell is a note below the table, as before blocks)."""
    if "seat" in cols and not is_blank(seat := _cell([row], 0, cols["seat"])):
        return read_int(seat)[0] is not None
    return any(not is_blank(_cell([row], 0, cols[k])) for k in ("player", "role"))


def _restarts(row: Sequence[object], cols: Mapping[str, int]) -> bool:
    """The row is seat 1: a new game's seats (whose header is missing), not an eleventh seat."""
    return "seat" in cols and read_int(_cell([row], 0, cols["seat"]))[0] == 1


def _summary_key(value: object) -> str | None:
    return _words(L.BLOCK_SUMMARY_LABELS).get(L.norm(value).rstrip(":")) if isinstance(value, str) else None


def _seat_rows_below(grid: Grid, hr: int, cols: Mapping[str, int], tables: set[int]) -> tuple[list[int], int | None]:
    """The non-blank rows below the seat table's header ``hr`` up to the next block, and the
    block's closing line «ПУ … ЛХ …» when it has one (it ends the block)."""
    rows: list[int] = []
    for r in range(hr + 1, len(grid)):
        row = grid[r]
        if r in tables or _is_label_row(row):
            break
        if all(is_blank(v) for v in row):
            continue
        if _summary_key(next(v for v in row if not is_blank(v))) is not None:
            return rows, r
        if len(rows) >= 10 and not _seat_like(row, cols):
            break
        rows.append(r)
    return rows, None


def _split_blocks(grid: Grid) -> _Blocks:
    """Every block of the tab, top to bottom; seat rows without a header above them apart."""
    tables = [(r, cols) for r in range(len(grid))
              if all(k in (cols := _header_map(grid[r], L.PROTOCOL_COLUMNS)) for k in L.REQUIRED_PROTOCOL_COLUMNS)]
    table_set = {r for r, _ in tables}
    blocks: list[_Block] = []
    orphans: list[tuple[int, int]] = []
    previous_end = -1
    for hr, cols in tables:
        labels, anchor = _labels_in(grid, max(previous_end + 1, hr - _LABEL_ROWS), hr)
        rows, summary = _seat_rows_below(grid, hr, cols, table_set)
        previous_end = summary if summary is not None else rows[-1] if rows else hr
        if anchor is None:  # a seat table whose header line is missing
            orphans.append((hr, previous_end))
            continue
        seats, extra = rows[:10], rows[10:]
        if extra and _restarts(grid[extra[0]], cols):  # the next game's seats, its header deleted
            orphans.append((extra[0], summary if summary is not None else extra[-1]))
            extra, summary = [], None
        end = summary if summary is not None else (extra or seats or [hr])[-1]
        blocks.append(_Block(table_row=hr, cols=cols, labels=labels, first=anchor[0], anchor=anchor,
                             seat_rows=tuple(seats), end=end, extra_rows=tuple(extra), summary_row=summary))
    return _Blocks(blocks=tuple(blocks), orphans=tuple(orphans))
