"""An in-memory workbook: the sync without files or HTTP (tests, the example generator)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from sheets_sync.backends.base import MARK_COLOURS, CellValue, Link, Patch, Snapshot, WorkbookChanged, values_fingerprint

__all__ = ["MemoryBackend"]


class MemoryBackend:
    account_email = None  # no per-person rights

    def __init__(self, tabs: Mapping[str, list[list[CellValue]]] | None = None, *, source: str = "memory"):
        self.tabs: dict[str, list[list[CellValue]]] = {k: [list(r) for r in v] for k, v in (tabs or {}).items()}
        self.marks: dict[tuple[str, str], tuple[str, str]] = {}  # (sheet, cell) -> (colour, note)
        self.hidden: set[str] = set()
        self.source = source
        self.version = 0
        self.applied = 0

    def link_supported(self) -> bool:
        return True

    def read(self) -> Snapshot:
        tabs = {}
        for title, rows in self.tabs.items():
            out = []
            for row in rows:
                end = len(row)
                while end and (row[end - 1] is None or row[end - 1] == ""):
                    end -= 1
                out.append(tuple(_plain(v) for v in row[:end]))
            while out and not out[-1]:
                out.pop()
            tabs[title] = tuple(out)
        snapshot = Snapshot(tabs=tabs, order=tuple(self.tabs), source=self.source, token=self.version)
        return replace(snapshot, fingerprint=values_fingerprint(snapshot))

    def fingerprint(self) -> str | None:
        return self.read().fingerprint

    def set(self, sheet: str, cell: str, value: CellValue) -> None:
        """Type a value like a judge would."""
        from scoring.cells import parse_a1

        r, c = parse_a1(cell)
        rows = self.tabs[sheet]
        while len(rows) <= r:
            rows.append([])
        while len(rows[r]) <= c:
            rows[r].append(None)
        rows[r][c] = value
        self.version += 1

    def apply(self, patch: Patch, *, base: Snapshot | None) -> str | None:
        if base is not None and base.token != self.version:
            raise WorkbookChanged("the workbook changed since it was read")
        for title in patch.delete_tabs:
            self.tabs.pop(title, None)
        for w in patch.writes:
            if w.owned or w.title not in self.tabs:
                self.tabs[w.title] = [list(r) for r in w.rows]
            else:
                for r, row in enumerate(w.rows):
                    for c, value in enumerate(row):
                        if value is not None:
                            from scoring.cells import a1

                            self.set(w.title, a1(r, c), value)
            if w.hidden:
                self.hidden.add(w.title)
        for key in patch.clear_marks:
            self.marks.pop(key, None)
        for m in patch.set_marks:
            self.marks[(m.sheet, m.cell)] = (MARK_COLOURS[m.severity], m.note)
        self.version += 1
        self.applied += 1
        return self.fingerprint()


def _plain(value: CellValue) -> CellValue:
    from decimal import Decimal

    if isinstance(value, Link):
        return value.text
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value
