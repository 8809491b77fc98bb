"""The paper protocol as a form on the judge's phone: what :mod:`scoring.rules` finds wrong with
it, each problem at its field (a seat and a column, or a header field), in the judge's language.

The form's protocol is checked by the very rules that check a protocol tab — never a second
copy: it is given the cells of the protocol tab as ``init`` lays it out, validated as the only
game of a one-game tournament, and every cell a problem names is turned back into its field.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from scoring.cells import a1
from scoring.model import Location, Player, Protocol, RowCells, SeatingEntry, Tournament
from scoring.preset import Preset
from scoring.rules import validate

__all__ = ["FieldProblem", "form_problems", "FORM_COLUMNS"]

FORM_SHEET = "form"
# the header's value cells (label in A, value in B) and the seat table, as init lays out the tab
_HEADER_ROWS = {"stage": 1, "round": 2, "table_number": 3, "judge": 4, "winner": 5, "checked_by": 6}
_TABLE_ROW = 8
FORM_COLUMNS = ("seat", "player", "role", "fouls", "killed_night", "voted_day", "removal", "best_move", "extra_points",
                "auto_extra_taken", "penalty", "penalty_reason", "comment")
_COLUMN_INDEX = {key: i for i, key in enumerate(FORM_COLUMNS)}
Field = tuple[int | None, str]  # (seat, column key), or (None, header key)


@dataclass(frozen=True, kw_only=True, slots=True)
class FieldProblem:
    field: Field  # where it is shown: (seat, column) or (None, header field)
    rule: str
    severity: str  # "error" (the game does not count until fixed) or "warning"
    message: str
    related: tuple[Field, ...] = ()  # the other fields involved

    def to_dict(self) -> dict[str, object]:
        return {"seat": self.field[0], "column": self.field[1], "rule": self.rule, "severity": self.severity,
                "message": self.message, "related": [list(f) for f in self.related]}


def _with_cells(protocol: Protocol) -> Protocol:
    cells = {key: Location(FORM_SHEET, a1(row, 1)) for key, row in _HEADER_ROWS.items()}
    cells["table"] = Location(FORM_SHEET, a1(_TABLE_ROW, 0))  # the seat table's corner
    seats = tuple(replace(rec, cells=RowCells(FORM_SHEET, _TABLE_ROW + rec.seat, _COLUMN_INDEX)) for rec in protocol.seats)
    return replace(protocol, sheet=FORM_SHEET, anchor="", rows=None, cells=cells, seats=seats)


def _fields() -> dict[Location, Field]:
    out: dict[Location, Field] = {Location(FORM_SHEET, a1(row, 1)): (None, key) for key, row in _HEADER_ROWS.items()}
    out[Location(FORM_SHEET, a1(_TABLE_ROW, 0))] = (None, "table")
    for seat in range(1, 11):
        for key, col in _COLUMN_INDEX.items():
            out[Location(FORM_SHEET, a1(_TABLE_ROW + seat, col))] = (seat, key)
    return out


_FIELDS = _fields()


def form_problems(protocol: Protocol, preset: Preset, language: str, *, players: Sequence[str] | None = None,
                  seating: SeatingEntry | None = None) -> list[FieldProblem]:
    """Every problem the rules find in the form's ``protocol``: names checked against ``players``
    (the tournament's, when given; else the form's own names), seats against ``seating``."""
    form = _with_cells(protocol)
    names = players if players is not None else [rec.player for rec in form.seats if rec.player]
    placed = form.stage in preset.stage_keys  # a stage the preset lacks: the rules of its own cells only
    tournament = Tournament(name="", preset_id="", language=language,
                            players=tuple(Player(nickname=n) for n in dict.fromkeys(names)),
                            protocols=(form,) if placed else (), seating=(seating,) if seating is not None else ())
    found = validate(tournament, preset, () if placed else (form,))
    return [FieldProblem(field=_FIELDS.get(p.location, (None, "game")), rule=p.rule, severity=p.severity.value,
                         message=p.message(language), related=tuple(_FIELDS.get(r, (None, "game")) for r in p.related))
            for p in found]
