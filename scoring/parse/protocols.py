"""One protocol tab read: each block's header and seat rows, into :class:`~scoring.model.Protocol`."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date
from decimal import Decimal

from scoring import labels as L
from scoring.cells import a1
from scoring.model import Location, Protocol, Removal, Role, RowCells, SeatRecord, Team
from scoring.names import typed_name
from scoring.preset import Preset
from scoring.problems import Problem, Text, problem
from scoring.values import is_blank, is_dash, read_decimal, read_int, shown, text
from scoring.parse.best_move import _read_best_move
from scoring.parse.blocks import _Block, _Blocks, _is_label_row, _split_blocks, _summary_key
from scoring.parse.evenings import _evening_date
from scoring.parse.grid import E, Grid, W, _Reader, _cell, _rows_text, _words
from scoring.parse.kinds import _tab_kind


_TAB_NAME = re.compile(r"^\s*(?P<prefix>тур|round|пф|sf|полуфинал|semifinal|финал|final)\s*(?P<round>\d+)(\s*(стол|table)\s*(?P<table>\d+))?\s*$", re.I)


def _parse_block(title: str, grid: Grid, block: _Block, stages: Mapping[str, str], preset: Preset, *,
                 evening: date | None, several: bool) -> tuple[Protocol, bool, list[Problem]]:
    """(the protocol of one block, whether its header places it in a stage, round and table, its
    problems).  A protocol that cannot be placed is still returned, read with the first stage, so
    that the rules about its own cells can point at every other mistake in the block too."""
    rd = _Reader(title, grid)
    anchor = rd.loc(*block.anchor)
    stage_required = evening is None and len(preset.stages) > 1
    head = _ProtocolHeader(rd, block.labels, anchor, required=("stage", "round") if stage_required else ("round",))
    stage = head.stage(stages, preset.stage_keys[0] if preset.stages else "")
    round_no = head.number("round", 0, required=True)
    table = head.number("table", 1, required=False)  # a one-table stage may leave it blank
    judge = head.text("judge")
    checked = head.text("checked_by")
    winner, winner_text = head.winner()
    seats = _read_seat_rows(rd, block.seat_rows, block.cols)
    if block.summary_row is not None:
        seats = _with_summary(rd, block.summary_row, seats)
    if block.extra_rows:
        rd.add("protocol.seat_rows", E, block.extra_rows[0], block.cols.get("seat", block.cols["player"]),
               count=len(block.seat_rows) + len(block.extra_rows), rows=_rows_text(block.seat_rows + block.extra_rows))
    if head.ok and evening is None:
        _check_tab_name(rd, stages, preset, stage, round_no, table, head.cells.get("round"), several=several)
    cells = dict(head.cells)
    if "table" in head.cells:  # the header's «Стол» value (``cells["table"]`` is the seat table's corner)
        cells["table_number"] = head.cells["table"]
    cells["table"] = rd.loc(block.table_row, block.cols.get("seat", block.cols["player"]))
    protocol = Protocol(
        sheet=title,
        anchor=anchor.cell if several else "",
        rows=(block.first, block.end) if several else None,
        date=evening,
        stage=stage,
        round=round_no,
        table=table,
        judge=judge,
        checked_by=checked,
        winner=winner,
        winner_text=winner_text,
        seats=tuple(seats),
        cells=cells,
        blank=_is_blank_block(grid, block),
    )
    return protocol, head.ok, rd.problems


_PRE_FILLED_COLUMNS = ("seat", "player")  # what the draw writes into a seat row; a judge types the rest
_TYPED_LABELS = ("judge", "winner", "checked_by")  # header values only a judge types


def _is_blank_block(grid: Grid, block: _Block) -> bool:
    """The block holds nothing a judge typed: its «Судья», «Победа» and «Проверил» are empty and
    every cell of its seat rows but the seat number and the player is empty — a tab as the draw
    pre-filled it (even with the players of a seating changed since).  Such a block is not a game
    yet: the rules leave it alone, so an untouched tab never turns red (docs/workbook.md)."""
    if block.extra_rows or block.summary_row is not None:
        return False
    if any(not is_blank(_cell(grid, *block.labels[k])) for k in _TYPED_LABELS if k in block.labels):
        return False
    kept = {block.cols[k] for k in _PRE_FILLED_COLUMNS if k in block.cols}
    return all(is_blank(v) for r in block.seat_rows for c, v in enumerate(grid[r]) if c not in kept)


def _with_summary(rd: _Reader, r: int, seats: list[SeatRecord]) -> list[SeatRecord]:
    """The seats with what the block's closing line says: the seat shot first (ПУ) is shot on
    night 1, and the best move (ЛХ) is his.  A line that contradicts the seat rows is an error at
    its cell; the seat rows are then read as typed."""
    row = rd.grid[r]
    found: dict[str, int] = {}
    for c, value in enumerate(row):
        key = _summary_key(value)
        if key is not None and key not in found:
            found[key] = next((v for v in range(c + 1, min(c + 3, len(row))) if not is_blank(row[v])), c + 1)
    shot = [rec.seat for rec in seats if rec.killed_night == 1]
    first = shot[0] if len(shot) == 1 else None
    if "first_killed" in found:
        seat = rd.integer(r, found["first_killed"])
        if seat is not None and (not 1 <= seat <= len(seats) or (first is not None and first != seat)):
            rd.add("protocol.summary_conflict", E, r, found["first_killed"], label="ПУ", value=seat)
        elif seat is not None:
            first = seat
            seats[seat - 1] = replace(seats[seat - 1], killed_night=1,
                                      cells={**seats[seat - 1].cells, "killed_night": rd.loc(r, found["first_killed"])})
    if "best_move" in found and not is_blank(_cell(rd.grid, r, found["best_move"])):
        named = _read_best_move(rd, r, found["best_move"])
        own = seats[first - 1].best_move if first is not None else ()
        if first is None or (own and set(own) != set(named)):
            rd.add("protocol.summary_conflict", E, r, found["best_move"], label="ЛХ",
                   value=" ".join(map(str, named)) or shown(_cell(rd.grid, r, found["best_move"])))
        elif named:
            seats[first - 1] = replace(seats[first - 1], best_move=named,
                                       cells={**seats[first - 1].cells, "best_move": rd.loc(r, found["best_move"])})
    return seats


class _ProtocolHeader:
    """Reads the values next to the protocol's header labels (stage, round, table, judge,
    checked by, winner), remembering each value's cell; `ok` turns False when the stage,
    round or table is missing or unreadable — then the protocol cannot be placed."""

    def __init__(self, rd: _Reader, labels: Mapping[str, tuple[int, int]], anchor: Location,
                 required: Sequence[str] = ("stage", "round")):
        self.rd = rd
        self.labels = labels
        self.anchor = anchor  # where a missing label is reported: the block's first label
        self.required = required
        self.cells: dict[str, Location] = {}
        self.ok = True

    def position(self, key: str) -> tuple[int, int] | None:
        """Where the value of label ``key`` is; a missing required label is a problem."""
        if key not in self.labels:
            if key in self.required:
                self.rd.problems.append(problem("read.label_missing", E, self.anchor,
                                                label=L.label(L.PROTOCOL_HEADER[key], "ru")))
                self.ok = False
            return None
        r, c = self.labels[key]
        self.cells[key] = self.rd.loc(r, c)
        return r, c

    def stage(self, stages: Mapping[str, str], default: str) -> str:
        pos = self.position("stage")
        if not pos:
            return default
        stage_text = self.rd.text(*pos)
        found = stages.get(L.norm(stage_text))
        if found is None:
            self.rd.add("read.stage", E, *pos, value=stage_text)
            self.ok = False
            return default
        return found

    def number(self, key: str, default: int, *, required: bool) -> int:
        """The round or table number (1–100); a blank cell is a problem when ``required``,
        otherwise it means ``default``."""
        pos = self.position(key)
        if not pos:
            return default
        n = self.rd.integer(*pos)
        if n is None:
            if is_blank(_cell(self.rd.grid, *pos)):
                if not required:
                    return default
                self.rd.add("read.integer", E, *pos, value="")
            self.ok = False  # an unreadable number was reported by rd.integer
            return default
        if 1 <= n <= 100:
            return n
        self.rd.add("read.integer", E, *pos, value=n)
        self.ok = False
        return default

    def text(self, key: str) -> str:
        pos = self.position(key)
        return self.rd.text(*pos) if pos else ""

    def winner(self) -> tuple[Team | None, str]:
        """(team, the cell's text); an unreadable text is one error (the game is finished, its
        winner not understood), never also "not finished"."""
        pos = self.position("winner")
        if not pos:
            return None, ""
        winner_text = self.rd.text(*pos)
        if not winner_text:
            return None, ""
        team = winner_team(winner_text)
        if team is None:
            self.rd.add("read.winner", E, *pos, value=winner_text)
        return team, winner_text


_VICTORY = frozenset(L.norm(w) for w in L.VICTORY_WORDS)
_NOT_A_WORD = re.compile(r"[^\w\s]+")


def winner_team(value: str) -> Team | None:
    """The team a judge wrote in the winner cell: a team word, with or without words of victory
    around it and punctuation ("Мирные", "мирные победили", "Победа: мафия!", "Ч", "red wins")."""
    words = [w for w in L.norm(_NOT_A_WORD.sub(" ", value)).split() if w not in _VICTORY]
    key = _words(L.WINNER_WORDS).get(" ".join(words))
    return Team(key) if key is not None else None


_YES = frozenset(L.norm(w) for w in L.YES_WORDS)
_TEAM_DEFEAT = frozenset(L.norm(w) for w in L.TEAM_DEFEAT_WORDS)
# what a judge types in "auto extra taken" to say yes: the yes words, or a dash for "none left"
_AUTO_EXTRA_TAKEN = _YES | {"-", "−", "нет авто"}


def _read_seat_rows(rd: _Reader, rows: Sequence[int], cols: Mapping[str, int]) -> list[SeatRecord]:
    """The block's seat rows (blank rows were skipped when the block was found)."""
    seats: list[SeatRecord] = []
    empty_role: list[bool] = []
    for r in rows:
        seats.append(_read_seat_row(rd, r, cols, expected_seat=len(seats) + 1))
        role = _cell(rd.grid, r, cols["role"])
        empty_role.append(is_blank(role) or is_dash(role))
    return _empty_roles_are_civilians(seats, empty_role)


_MARKED_ROLES = {Role.DON: 1, Role.MAFIA: 2, Role.SHERIFF: 1}


def _empty_roles_are_civilians(seats: list[SeatRecord], empty_role: Sequence[bool]) -> list[SeatRecord]:
    """The paper protocol's convention («Роль: пусто — мирный»): when exactly one don, two mafia
    and one sheriff are marked, a seat whose role cell is empty is a civilian.  With any other
    marked roles the empty cells stay unknown (the roles rule reports them, or — when too many of
    a role are marked — the composition, saying why they were not read as civilians)."""
    marked = Counter(rec.role for rec in seats if rec.role is not None)
    if any(marked[role] != n for role, n in _MARKED_ROLES.items()):
        return seats
    return [replace(rec, role=Role.CIVILIAN) if empty else rec for rec, empty in zip(seats, empty_role)]


def _read_role(rd: _Reader, r: int, c: int, typed: str) -> Role | None:
    """The role typed at (r, c); None with one error at the cell when it is none — naming the letter
    when a Latin one stands for its Cyrillic lookalike (or the other way round)."""
    words = _words(L.ROLE_WORDS)
    key = words.get(L.norm(typed).rstrip("."))
    if key is not None:
        return Role(key)
    alike = L.lookalike_word(L.norm(typed).rstrip("."), words)
    if alike is None:
        rd.add("read.role", E, r, c, value=typed)
        return None
    key, fixed, letters = alike
    latin = letters[0][0] in L.LATIN_LOOKALIKES
    rd.add("read.role_lookalike", E, r, c, value=typed, fixed=fixed, role=Text(L.ROLE_WORDS[key][0], key),
           typed=[a for a, _ in letters], meant=[b for _, b in letters],
           script=Text("латинская", "Latin") if latin else Text("русская", "Cyrillic"),
           other=Text("русской", "Cyrillic") if latin else Text("латинской", "Latin"),
           alphabet=Text("русскими", "Cyrillic") if latin else Text("латинскими", "Latin"))
    return None


def _read_seat_row(rd: _Reader, r: int, cols: Mapping[str, int], *, expected_seat: int) -> SeatRecord:
    rec_cells = RowCells(rd.sheet, r, cols)
    if "seat" in cols:
        seat_no = rd.integer(r, cols["seat"])
        if seat_no is not None and seat_no != expected_seat:
            rd.add("read.seat_number", E, r, cols["seat"], expected=expected_seat, value=seat_no)
    player = typed_name(rd.text(r, cols["player"])) or None
    role_text = "" if is_dash(_cell(rd.grid, r, cols["role"])) else rd.text(r, cols["role"])
    role = _read_role(rd, r, cols["role"], role_text) if role_text else None
    fouls = rd.seat_number(r, cols.get("fouls"))
    killed = rd.seat_number(r, cols.get("killed_night"))
    voted = rd.seat_number(r, cols.get("voted_day"))
    removal, removal_day = _read_removal(rd, r, cols["removal"]) if "removal" in cols else (None, None)
    best_move = _read_best_move(rd, r, cols["best_move"]) if "best_move" in cols else ()
    extra = rd.seat_number(r, cols.get("extra_points"), read_decimal)
    penalty = rd.seat_number(r, cols.get("penalty"), read_decimal)
    auto_taken = False
    if "auto_extra_taken" in cols:
        auto_taken = L.norm(rd.text(r, cols["auto_extra_taken"])) in _AUTO_EXTRA_TAKEN
    return SeatRecord(
        seat=expected_seat,
        player=player,
        role=role,
        fouls=fouls or 0,
        killed_night=killed,
        voted_day=voted,
        removal=removal,
        removal_day=removal_day,
        best_move=best_move,
        extra_points=extra if extra is not None else Decimal(0),
        auto_extra_taken=auto_taken,
        penalty=-abs(penalty) if penalty is not None else Decimal(0),  # "2" and "-2" both mean a penalty
        penalty_reason=rd.text(r, cols.get("penalty_reason")),
        role_unread=bool(role_text) and role is None,
        comment=rd.text(r, cols.get("comment")),
        cells=rec_cells,
    )


def _read_removal(rd: _Reader, r: int, c: int) -> tuple[Removal | None, int | None]:
    """(removal, day) from the removal cell: a day number, a yes word with an optional day
    ("да 3", "д2"), a team-defeat word, or a no word."""
    raw = _cell(rd.grid, r, c)
    if is_blank(raw):
        return None, None
    if rd.typed(r, c) is None:  # a date the spreadsheet guessed (reported), or a dash: not removed
        return None, None
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        n, rule = read_int(raw)
        if rule is None and n is not None and n >= 1:
            return Removal.REMOVED, n
        rd.add("read.removal", E, r, c, value=shown(raw))
        return None, None
    words = L.norm(text(raw))
    m = re.match(r"^(?P<word>.*?)[\s,]*(?:день\s*|day\s*|д)?(?P<day>\d+)?$", words)
    word_part = (m.group("word") if m else words).strip(" ,")
    day_part = m.group("day") if m else None
    removal = None
    if word_part in _TEAM_DEFEAT:
        removal = Removal.TEAM_DEFEAT
    elif word_part in _YES or (word_part == "" and day_part):
        removal = Removal.REMOVED
    elif word_part in {"нет", "no", "-", "0"} and not day_part:
        removal = None
    else:
        rd.add("read.removal", E, r, c, value=shown(raw))
    return removal, int(day_part) if removal is not None and day_part else None


def _check_tab_name(rd: _Reader, stages: Mapping[str, str], preset: Preset, stage: str, round_no: int, table: int,
                    round_cell: Location | None, *, several: bool = False) -> None:
    """The tab's name is only a label, but a mismatch with the header usually means a copied tab.
    A tab of ``several`` blocks named without a table («Тур 3») holds that round's tables."""
    m = _TAB_NAME.match(rd.sheet)
    if not m:
        return
    prefix = L.norm(m.group("prefix"))
    name_stage = stages.get(prefix) or ({"тур": preset.stage_keys[0], "round": preset.stage_keys[0]}.get(prefix) if preset.stages else None)
    name_round = int(m.group("round"))
    name_table = int(m.group("table")) if m.group("table") else (table if several else 1)
    if (name_stage and name_stage != stage) or name_round != round_no or name_table != table:
        loc = round_cell or Location(rd.sheet, "A1")
        stage_name = Text(preset.stage(stage).name_ru, preset.stage(stage).name_en) if stage in preset.stage_keys else stage
        rd.problems.append(problem("protocol.header_mismatch", W, loc, stage=stage_name, round=round_no, table=table))


def _orphan_problems(title: str, found: _Blocks) -> list[Problem]:
    """Seat rows no header claims: one error naming the rows (the game is not glued to the one above)."""
    return [problem("protocol.no_header", E, Location(title, a1(first, 0)), rows=_rows_text((first, last)))
            for first, last in found.orphans]


def _unread_rows(title: str, grid: Grid, found: _Blocks) -> list[Problem]:
    """Rows below a protocol that no block reads (below the last one, or between two): one
    warning for each such stretch, at its first cell, never one for each row — ten thousand rows
    pasted under a protocol are said once, and not taken in silence either."""
    spans = sorted([(b.first, b.end) for b in found.blocks] + list(found.orphans))
    gaps = [(end + 1, nxt[0]) for (_, end), nxt in zip(spans, spans[1:])] + [(spans[-1][1] + 1, len(grid))]
    problems: list[Problem] = []
    for top, bottom in gaps:
        filled = [r for r in range(top, bottom) if not _is_label_row(grid[r]) and any(not is_blank(v) for v in grid[r])]
        if filled:
            first = next(c for c, v in enumerate(grid[filled[0]]) if not is_blank(v))
            problems.append(problem("protocol.unread_rows", W, Location(title, a1(filled[0], first)),
                                    rows=_rows_text((filled[0], filled[-1])), count=len(filled)))
    return problems


def _protocols_of_tab(title: str, grid: Grid, stages: Mapping[str, str],
                      preset: Preset) -> tuple[list[tuple[Protocol, bool]], list[Problem]] | None:
    """The protocols of one tab (each with whether it is placed) and the tab's problems; None when
    the tab holds no protocol (no seat table with a stage label above it, and not an evening)."""
    found = _split_blocks(grid)
    kind = _tab_kind(title, grid, found)
    if kind is None:
        return None
    evening_tab = kind == "evening"
    problems: list[Problem] = []
    evening: date | None = None
    if evening_tab:
        evening, date_problems = _evening_date(title, grid, found.blocks[0].first)
        problems += date_problems
    several = len(found.blocks) > 1 or bool(found.orphans)
    protocols: list[tuple[Protocol, bool]] = []
    for block in found.blocks:
        protocol, placed, block_problems = _parse_block(title, grid, block, stages, preset, evening=evening,
                                                        several=several)
        protocols.append((protocol, placed and (evening is not None or not evening_tab)))
        problems += block_problems
    return protocols, problems + _orphan_problems(title, found) + _unread_rows(title, grid, found)
