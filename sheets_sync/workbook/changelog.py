"""What the sync remembers between syncs for trust, and the change log it derives from that.

The hidden state tab (``_sheets_sync``) already holds the marks the sync set; below them it
keeps, in rows whose first cell starts with ``§``:

* ``§confirmed | tab | fingerprint | checker | edited`` — each confirmed protocol (see
  :mod:`scoring.trust`);
* ``§values`` and ``§tab | tab | json…`` — every value people typed in the protocol, players,
  seating, penalties and disputes tabs at the last sync, one row per tab: ``{"A1": "text", …}``
  as compact JSON, cut into pieces of at most :data:`CHUNK` characters over the row's next
  cells (a cell holds 32,767 characters in Excel, 50,000 in Google Sheets).  One row per tab
  rather than one per cell: at 200 players the values are 17,000 cells, which made the state
  tab the workbook's biggest and doubled the time of every save and read.  Rows of the older
  form ``§value | tab | cell | text`` are still read.

The previous values therefore come with the one read the sync does anyway: the change log
costs no Google request.  Each sync compares them with the snapshot; the differences are the
new lines of the «Журнал» / Log tab (owned, the newest ``publish.log_rows`` kept) and of
``log.jsonl`` in a local workbook's output folder (every change, appended).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

from scoring import labels as L
from scoring.cells import a1, parse_a1
from scoring.model import GameIndex, Location, Tournament
from scoring.parse import find_tab
from scoring.secrecy import in_play, secret_cells
from scoring.trust import Remembered
from sheets_sync.backends.base import STATE_TAB, Link, Snapshot, TabWrite
from sheets_sync.files import write_text_atomic
from sheets_sync.render.tabs import HEADER_HEIGHT, HEADER_ROW, TABLE_PAGE, TOP_ROWS, header_styles, heading, tab_title
from sheets_sync.render.words import ru_en

__all__ = ["Change", "discreet_changes", "remembered", "previous_values", "typed_cells", "current_values", "logged_tabs", "fingerprints",
           "changes", "state_rows", "is_trust_row", "log_tab", "append_jsonl", "LOG_FILE", "written_values",
           "state_with_values", "CELLS_REMEMBERED"]

CONFIRMED = "§confirmed"
VALUES = "§values"
VALUE = "§value"  # the older form, one row per cell: read, never written
TAB_VALUES = "§tab"
CHUNK = 30000
LOG_FILE = "log.jsonl"


@dataclass(frozen=True, kw_only=True, slots=True)
class Change:
    """One value people typed that differs from the last sync."""

    tab: str
    cell: str
    old: str
    new: str
    confirmed: bool | None  # the protocol was confirmed before this change; None: not a protocol


def is_trust_row(row: Sequence[object]) -> bool:
    return bool(row) and isinstance(row[0], str) and row[0].startswith("§")


def _state(snapshot: Snapshot) -> Sequence[Sequence[object]]:
    return snapshot.tabs.get(STATE_TAB, ())


def _text(row: Sequence[object], i: int) -> str:
    return str(row[i]) if len(row) > i and row[i] is not None else ""


def remembered(snapshot: Snapshot) -> dict[str, Remembered]:
    """The confirmations the last sync remembered, by protocol (its game_id: the tab's title, or
    ``title!A12`` for a block of a tab with several)."""
    return {_text(row, 1): Remembered(fingerprint=_text(row, 2), checker=_text(row, 3), edited=bool(_text(row, 4)))
            for row in _state(snapshot) if row and row[0] == CONFIRMED}


# the typed values of the tabs people type into: tab -> cell (A1) -> text, as the state remembers them
Values = dict[str, dict[str, str]]


def previous_values(snapshot: Snapshot) -> Values | None:
    """tab -> cell -> text at the last sync; None when no sync has remembered values yet (the
    first sync is the baseline: nothing is logged)."""
    grid = _state(snapshot)
    if not any(row and row[0] == VALUES for row in grid):
        return None
    values: Values = {}
    for row in grid:
        if not row:
            continue
        if row[0] == TAB_VALUES:
            tab = _text(row, 1)
            try:
                cells = json.loads("".join(_text(row, i) for i in range(2, len(row))))
            except ValueError:  # a hand-edited state: what cannot be read was not remembered
                continue
            if isinstance(cells, dict):
                values.setdefault(tab, {}).update((str(cell), str(text)) for cell, text in cells.items())
        elif row[0] == VALUE:
            values.setdefault(_text(row, 1), {})[_text(row, 2)] = _text(row, 3)
    return values


def cell_text(value: object) -> str:
    """A value as the log and the state keep it: text, the same on every backend's round trip."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return repr(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, Decimal):
        return format(value.normalize(), "f") if value != 0 else "0"
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    return str(value)


def logged_tabs(snapshot: Snapshot, t: Tournament, unreadable: Iterable[str] = ()) -> list[str]:
    """Tabs whose typed values are logged: players, seating, penalties, disputes and every protocol."""
    titles = {find_tab(snapshot.tabs, k) for k in ("players", "seating", "penalties", "disputes")}
    titles |= {p.sheet for p in t.protocols} | set(unreadable)
    return [title for title in snapshot.order if title in titles]


# one tab's typed cells as the state keeps them: (row, column, A1, text), in reading order, empty ones left out
TypedCells = dict[str, list[tuple[int, int, str, str]]]


# the cells of one tab the state remembers at most: a tournament's biggest tab (the seating of 1000
# players, 15 rounds) holds some 20,000; tens of thousands of garbage rows pasted into a tab would
# otherwise make the state tab — and the write that carries it — grow with them; past it the tab's
# marks are left as they are (sheets_sync.loop.sync: one mark makes the .xlsx writer load the whole
# sheet, 1.1 GB at 600,000 cells) (issue 42 §5)
CELLS_REMEMBERED = 100_000


def typed_cells(snapshot: Snapshot, tabs: Iterable[str]) -> tuple[TypedCells, dict[str, str]]:
    """The text of every non-empty cell of ``tabs`` (:func:`logged_tabs`), made once for both the
    protocols' fingerprints and the values the state remembers (150,000 cells at 1000 players): at
    most :data:`CELLS_REMEMBERED` a tab, in reading order; and, for each tab that has more, the
    first cell left out."""
    cells: TypedCells = {}
    cut: dict[str, str] = {}
    for title in tabs:
        found = cells[title] = []
        for r, row in enumerate(snapshot.tabs.get(title, ())):
            for c, value in enumerate(row):
                if value is None:
                    continue
                shown = value if type(value) is str else cell_text(value)  # most cells are text already
                if shown.strip():
                    if len(found) == CELLS_REMEMBERED:
                        cut[title] = a1(r, c)
                        break
                    found.append((r, c, a1(r, c), shown))
            if title in cut:
                break
    return cells, cut


def current_values(cells: TypedCells) -> Values:
    """tab -> cell -> text: what the state tab remembers for the next sync's change log."""
    return {title: {ref: shown for _, _, ref, shown in found} for title, found in cells.items()}


def fingerprints(cells: TypedCells, t: Tournament) -> dict[str, str]:
    """A hash of each protocol's values but its «Проверил» cell (clearing or retyping the
    checker's name is not an edit of the game), by :attr:`~scoring.model.Protocol.game_id`.  A
    block of a tab that holds several hashes only its own rows, counted from its first row, so
    that editing, adding or moving another block of the evening is no edit of this one.
    ``cells``: :func:`typed_cells` of (at least) every protocol tab."""
    result = {}
    for p in t.protocols:
        checked_by = p.cells.get("checked_by")
        skip = parse_a1(checked_by.cell) if checked_by is not None else None
        found = cells.get(p.sheet, ())
        first, last = p.rows if p.rows is not None else (0, found[-1][0] if found else 0)
        # hashed as one string: the digest of the pieces fed one by one, at a fraction of the calls
        text = "".join(f"{ref if first == 0 else a1(r - first, c)}\x00{shown}\x00" for r, c, ref, shown in found
                       if first <= r <= last and (r, c) != skip)
        result[p.game_id] = hashlib.sha256(text.encode()).hexdigest()[:24]
    return result


def changes(previous: Values | None, current: Values, tab_order: Sequence[str], was_confirmed: Mapping[str, bool],
            games: GameIndex | None = None) -> tuple[Change, ...]:
    """Every (tab, cell) whose text differs from the last sync, in tab order then reading order.
    ``was_confirmed`` is keyed by game (``games`` says which game a cell is in; without it, by tab)."""
    if previous is None:
        return ()
    order = {title: i for i, title in enumerate(tab_order)}
    found: list[tuple[tuple, Change]] = []
    for tab in previous.keys() | current.keys():
        before, now = previous.get(tab, {}), current.get(tab, {})
        if before == now:  # a tab nobody touched: one comparison in C (999 of 1,000 protocols after an edit)
            continue
        for cell in {cell for cell, _ in before.items() ^ now.items()}:  # a changed cell is in both
            old, new = before.get(cell, ""), now.get(cell, "")
            if old == new:
                continue
            r, c = parse_a1(cell)
            game = games.game_at(Location(tab, cell)) if games is not None else tab
            found.append(((order.get(tab, len(order)), tab, r, c),
                          Change(tab=tab, cell=cell, old=old, new=new, confirmed=was_confirmed.get(game or ""))))
    return tuple(change for _, change in sorted(found, key=lambda item: item[0]))


def state_rows(remember: Mapping[str, Remembered], values: Values) -> list[tuple]:
    """The rows of the state tab below the marks."""
    rows: list[tuple] = [(CONFIRMED, sheet, r.fingerprint, r.checker, "edited" if r.edited else "")
                         for sheet, r in sorted(remember.items())]
    return rows + _value_rows(values)


def _value_rows(values: Mapping[str, Mapping[str, str]]) -> list[tuple]:
    rows: list[tuple] = [(VALUES, "", "", "")]
    for tab, cells in values.items():
        if not cells:
            continue
        text = json.dumps(cells, ensure_ascii=False, separators=(",", ":"))
        rows.append((TAB_VALUES, tab, *(text[i:i + CHUNK] for i in range(0, len(text), CHUNK))))
    return rows


def written_values(values: Mapping[str, Mapping[str, str]], writes: Iterable[TabWrite], *,
                   existing: Iterable[str] = (), deleted: Iterable[str] = ()) -> Values:
    """``values`` (tab -> cell -> text) as they stand once a command's ``writes`` are in the
    workbook.  What ``draw``, ``advance``, ``replace`` or the sync's own advance pre-fills (the
    Seating tab, the players of each protocol) is no one's typing: remembered as if the last sync
    had seen it, the next sync logs only what people typed afterwards.  An owned write is the
    whole tab; one into an input tab that ``existing`` has sets only its cells that are not None
    (:class:`~sheets_sync.backends.base.TabWrite`); ``deleted`` tabs are forgotten."""
    result = {tab: dict(cells) for tab, cells in values.items()}
    there = set(existing)
    for w in writes:
        cells = result.setdefault(w.title, {})
        if w.owned or w.title not in there:
            cells.clear()
        for r, row in enumerate(w.rows):
            for c, value in enumerate(row):
                if value is None:
                    continue
                shown = cell_text(value.text if isinstance(value, Link) else value)
                if shown.strip():
                    cells[a1(r, c)] = shown
                else:
                    cells.pop(a1(r, c), None)
    for tab in deleted:
        result.pop(tab, None)
    return result


def state_with_values(grid: Sequence[Sequence[object]], values: Mapping[str, Mapping[str, str]]) -> tuple[tuple, ...]:
    """The state tab ``grid`` with its remembered values replaced by ``values`` (marks,
    confirmations and the rest kept as they are)."""
    kept = [tuple(row) for row in grid if not (row and row[0] in (VALUES, TAB_VALUES, VALUE))]
    return (*kept, *_value_rows(values))


# -- the Log tab and log.jsonl ------------------------------------------------------------------------
def _header(language: str) -> tuple[str, ...]:
    return (ru_en("Время синхронизации", "Sync time", language), ru_en("Вкладка", "Tab", language),
            ru_en("Ячейка", "Cell", language), ru_en("Было", "Old value", language), ru_en("Стало", "New value", language),
            ru_en("Протокол был подтверждён", "Protocol was confirmed", language))


def _confirmed_word(confirmed: bool | None, language: str) -> str | None:
    if confirmed is None:
        return None
    return L.word("yes" if confirmed else "no", language)


_HIDDEN = ("скрыто до конца игры", "hidden until the game ends")


def discreet_changes(changes: Sequence[Change], tournament: Tournament, language: str) -> tuple[Change, ...]:
    """``changes`` as the Log tab may show them to whoever opens the workbook: a value typed into a
    secret cell of a game in play (a role, a best move, a check: :func:`scoring.secrecy.secret_cells`)
    is said to be hidden until the game ends — the cell and the time stay.  ``log.jsonl``, the
    organizer's own file, keeps every value."""
    secret = frozenset().union(*(secret_cells(p) for p in tournament.protocols if in_play(p)))
    if not secret:
        return tuple(changes)
    hidden = ru_en(*_HIDDEN, language)
    return tuple(replace(c, old=c.old and hidden, new=c.new and hidden) if Location(c.tab, c.cell) in secret else c
                 for c in changes)


def log_tab(snapshot: Snapshot, new: Sequence[Change], when: str, language: str, keep: int, name: str = "") -> TabWrite:
    """The Log tab: its title and status line, then what it held below its header (the sync owns it;
    rows are only ever appended), the new changes at the bottom, the newest ``keep`` rows kept."""
    title = L.tab("log", language)
    current = next((grid for t, grid in snapshot.tabs.items() if L.norm(t) in {L.norm(x) for x in L.TABS["log"]}), ())
    old_rows = [tuple(row) for row in _history(current) if any(v not in (None, "") for v in row)]
    added = [(when, c.tab, c.cell, c.old or None, c.new or None, _confirmed_word(c.confirmed, language)) for c in new]
    rows = (old_rows + added)[-keep:]
    status = ru_en(f"изменений: {len(rows)} (хранятся последние {keep})", f"changes: {len(rows)} (the newest {keep} kept)",
                   language)
    shown = tab_title(name, ru_en("Журнал изменений", "Change log", language))
    # the time column holds «2026-12-01 14:05:07 UTC+5:30» without touching the tab beside it
    return TabWrite(title=title, rows=(*heading(shown, status), _header(language), *rows),
                    column_widths=(26, 18, 8, 24, 24, 12), frozen_rows=TOP_ROWS, bold_rows=(0, HEADER_ROW),
                    row_heights=HEADER_HEIGHT, styles=header_styles(len(_header(language))), page=TABLE_PAGE)


def _history(grid: Sequence[Sequence[object]]) -> Sequence[Sequence[object]]:
    """The rows below the Log tab's header, in either language: under the title and status line
    (or, written before they were there, under the first row)."""
    names = {L.norm(_header(language)[0]) for language in ("ru", "en")}
    for r, row in enumerate(grid):
        if row and isinstance(row[0], str) and L.norm(row[0]) in names:
            return grid[r + 1:]
    return grid[1:]


def append_jsonl(folder: Path, new: Sequence[Change], when: str) -> list[Path]:
    """Append the changes to ``folder/log.jsonl`` (the whole log: the tab keeps only the newest)."""
    if not new:
        return []
    path = folder / LOG_FILE
    before = path.read_text(encoding="utf-8") if path.exists() else ""
    lines = "".join(json.dumps({"time": when, "tab": c.tab, "cell": c.cell, "old": c.old, "new": c.new,
                                "confirmed": c.confirmed}, ensure_ascii=False) + "\n" for c in new)
    return [path] if write_text_atomic(path, before + lines) else []
