"""Raw cells -> typed tournament.  Tolerant first, strict after.

Input is what a backend read: tab title -> rows of raw cell values.  Labels are found by
their text (either language), so a row inserted above a table or a moved column does
not break reading.  Every unreadable value becomes a :class:`~scoring.problems.Problem`
naming its tab and cell; reading never raises and never turns garbage into a zero.
A protocol with a reading error is still returned (the rules decide whether it counts)
so that later checks can point at the rest of its cells too.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from scoring import labels as L
from scoring.cells import a1
from scoring.names import Match, NameIndex, fold, typed_name
from scoring.model import (
    Judge,
    Dispute,
    DisputeStatus,
    Location,
    PenaltyEntry,
    PenaltyReason,
    Player,
    PlayerStatus,
    Protocol,
    Removal,
    Role,
    RowCells,
    SeatingEntry,
    SeatRecord,
    Team,
    Tournament,
)
from scoring.preset import Preset
from scoring.problems import Problem, Severity, Text, problem
from scoring.values import MAX_TEXT, guessed_date, is_blank, is_dash, read_decimal, read_int, shown, text

__all__ = ["Settings", "read_settings", "read_mwt_id", "parse_tournament", "find_tab", "is_protocol_grid", "stage_lookup",
           "evening_of"]

Grid = Sequence[Sequence[object]]
E, W = Severity.ERROR, Severity.WARNING


def _cell(grid: Grid, r: int, c: int) -> object:
    if r < len(grid) and c < len(grid[r]):
        return grid[r][c]
    return None


_WORDS_CACHE: dict[int, tuple[Mapping[str, tuple[str, ...]], dict[str, str]]] = {}


def _words(mapping: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    """Normalised spelling -> key.  The label tables are module constants, so the result is
    cached by identity (it was the hottest line of a sync: rebuilt for every row read)."""
    cached = _WORDS_CACHE.get(id(mapping))
    if cached is not None and cached[0] is mapping:
        return cached[1]
    words = {L.norm(w): key for key, ws in mapping.items() for w in ws}
    _WORDS_CACHE[id(mapping)] = (mapping, words)
    return words


def find_tab(tabs: Mapping[str, Grid], key: str) -> str | None:
    """Title of the tab ``key`` (e.g. "players") in either language, or None."""
    wanted = {L.norm(t) for t in L.TABS[key]}
    for title in tabs:
        if L.norm(title) in wanted:
            return title
    return None


# -- the Tournament tab ------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True, slots=True)
class Settings:
    name: str = ""
    preset_id: str = ""
    language: str = "ru"
    chief_judge: str = ""
    date: str = ""
    season: bool = False  # «Формат: сезон»: a club season
    confirmed: frozenset[str] = frozenset()  # stage names/keys the chief judge confirmed
    released: frozenset[str] = frozenset()
    link: str = ""  # «Ссылка»: the full results' address, put into every VK post
    mwt_tournament_id: int | None = None  # «ID турнира MWT»: the tournament in the world tour (export mwt)
    organizers: tuple[str, ...] = ()  # «Организаторы»: e-mails that may edit the sync's tabs (Google)
    chief_judges: tuple[str, ...] = ()  # «Главные судьи»: e-mails that may write «Проверил» (Google)
    overrides: tuple[tuple[str, object, Location], ...] = ()
    problems: tuple[Problem, ...] = ()
    tab: str | None = None


def read_settings(tabs: Mapping[str, Grid]) -> Settings:
    title = find_tab(tabs, "tournament")
    if title is None:
        return Settings(problems=(problem("read.tab_missing", E, None, tab="Турнир / Tournament"),))
    grid = tabs[title]
    known = {L.norm(w): key for key, words in L.TOURNAMENT_LABELS.items() for w in words}
    values: dict[str, str] = {}
    rows: dict[str, int] = {}
    overrides: list[tuple[str, object, Location]] = []
    problems: list[Problem] = []
    for r, row in enumerate(grid):
        if not row or is_blank(row[0]):
            continue
        key = known.get(L.norm(row[0]))
        value = row[1] if len(row) > 1 else None
        if key is not None:
            if key not in values:
                values[key] = text(value)
                rows[key] = r
            continue
        label_text = text(row[0])
        if "." in label_text or "=" in label_text or "".join(L.norm(label_text).split()) in _override_words():
            if "=" in label_text and is_blank(value):  # "полуфинал.игроков = 20" typed in one cell
                label_text, _, value = label_text.partition("=")
            overrides.append((label_text.strip(), value if not isinstance(value, str) else value.strip(), Location(title, a1(r, 0))))
        elif r > 0 or L.norm(row[0]) not in {L.norm(t) for t in ("Параметр", "Setting", "Турнир", "Tournament")}:
            problems.append(problem("read.unknown_setting", W, Location(title, a1(r, 0)), key=label_text))
    language = L.norm(values.get("language", "ru")) or "ru"
    if language in {"русский", "рус", "ru-ru"}:
        language = "ru"
    if language in {"english", "англ", "английский", "en-us", "en-gb"}:
        language = "en"
    if language not in {"ru", "en"}:
        problems.append(problem("read.bad_setting", W, None, key="Язык / Language", reason=f"{language!r}: ru | en"))
        language = "ru"

    def _flags(key: str) -> frozenset[str]:
        return frozenset(L.norm(v) for v in re.split(r"[,;]", values.get(key, "")) if v.strip())

    mwt_id = None
    if values.get("mwt_tournament_id", "").strip():
        mwt_id = read_mwt_id(values["mwt_tournament_id"])
        if mwt_id is None:
            problems.append(problem("read.mwt_id", W, Location(title, a1(rows["mwt_tournament_id"], 1)),
                                    value=values["mwt_tournament_id"]))

    season = L.norm(values.get("format", "")) in {L.norm(w) for w in L.SEASON_WORDS}
    if not season and L.norm(values.get("format", "")) not in {"", *(L.norm(w) for w in L.TOURNAMENT_FORMAT_WORDS)}:
        problems.append(problem("read.bad_setting", W, Location(title, a1(rows["format"], 1)), key="Формат / Format",
                                reason=f"{values['format']!r}: {L.SEASON_WORDS[0]} | {L.TOURNAMENT_FORMAT_WORDS[0]}"))
    organizers, chief_judges = (_emails(values, rows, key, title, problems) for key in ("organizers", "chief_judges"))
    return Settings(
        name=values.get("name", ""),
        preset_id=values.get("preset", "").strip(),  # a file path keeps its case; a shipped id is matched ignoring case (sheets_sync.presets)
        language=language,
        chief_judge=values.get("chief_judge", ""),
        date=values.get("date", ""),
        link=values.get("link", "").strip(),
        season=season,
        confirmed=_flags("confirmed"),
        released=_flags("released"),
        mwt_tournament_id=mwt_id,
        organizers=organizers,
        chief_judges=chief_judges,
        overrides=tuple(overrides),
        problems=tuple(problems),
        tab=title,
    )


_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


def _emails(values: Mapping[str, str], rows: Mapping[str, int], key: str, title: str,
            problems: list[Problem]) -> tuple[str, ...]:
    """The e-mails of a setting (separated by commas, semicolons or spaces), lower case, each once;
    what is not an e-mail is a warning at the cell and left out."""
    found: dict[str, None] = {}
    for word in re.split(r"[,;\s]+", values.get(key, "")):
        if not word:
            continue
        if _EMAIL.fullmatch(word):
            found[word.lower()] = None
        else:
            words = L.TOURNAMENT_LABELS[key]
            problems.append(problem("read.bad_setting", W, Location(title, a1(rows[key], 1)),
                                    key=f"{words[0]} / {words[1]}",
                                    reason=Text(f"«{word}» — не адрес электронной почты", f"'{word}' is not an e-mail address")))
    return tuple(found)


def read_mwt_id(value: object) -> int | None:
    """An MWT id typed into a cell (``123``, ``"123"``, ``123.0``), or None when it is not one."""
    if is_blank(value):
        return None
    number, rule = read_int(value)
    return number if rule is None and number is not None and number > 0 else None


def _override_words() -> set[str]:
    from scoring.preset import OVERRIDE_ALIASES

    return set(OVERRIDE_ALIASES)


# -- stage names -----------------------------------------------------------------------------
def stage_lookup(preset: Preset) -> dict[str, str]:
    """Normalised stage spelling -> stage key (names in both languages, the key, ПФ/SF)."""
    lookup: dict[str, str] = {}
    for s in preset.stages:
        for spelling in (s.key, s.name_ru, s.name_en):
            lookup[L.norm(spelling)] = s.key
    keys = preset.stage_keys
    if "semifinal" in keys:
        for spelling in ("пф", "sf", "полуфинальный", "1/2"):
            lookup.setdefault(spelling, "semifinal")
    if keys:
        for spelling in ("отборочный", "отборочный тур", "отборочные", "qualification", "квалификация"):
            lookup.setdefault(spelling, keys[0])
    return lookup


# -- table helpers -------------------------------------------------------------------------------
def _header_map(row: Sequence[object], columns: Mapping[str, tuple[str, ...]]) -> dict[str, int]:
    words = _words(columns)
    found: dict[str, int] = {}
    for c, value in enumerate(row):
        if not isinstance(value, str):  # every label is text (words, «№», «#»): a number or an empty cell is none
            continue
        key = words.get(L.norm(value))
        if key is not None and key not in found:
            found[key] = c
    return found


def _find_header_row(grid: Grid, columns: Mapping[str, tuple[str, ...]], required: Sequence[str], limit: int = 40) -> tuple[int, dict[str, int]] | None:
    for r in range(min(len(grid), limit)):
        found = _header_map(grid[r], columns)
        if all(k in found for k in required):
            return r, found
    return None


class _Reader:
    """Collects problems while reading typed values out of one tab."""

    def __init__(self, sheet: str, grid: Grid):
        self.sheet = sheet
        self.grid = grid
        self.problems: list[Problem] = []

    def loc(self, r: int, c: int) -> Location:
        return Location(self.sheet, a1(r, c))

    def add(self, rule: str, severity: Severity, r: int, c: int, **params: object) -> None:
        self.problems.append(problem(rule, severity, self.loc(r, c), **params))

    def text(self, r: int, c: int | None) -> str:
        if c is None:
            return ""
        value = _cell(self.grid, r, c)
        if isinstance(value, (datetime, date)):
            self.add("read.date_guessed", W, r, c, value=shown(value))
        result = text(value)
        if len(result) > MAX_TEXT:
            self.add("read.too_long", E, r, c, length=len(result))
            return result[:MAX_TEXT]
        return result

    def integer(self, r: int, c: int | None, *, severity: Severity = E) -> int | None:
        if c is None:
            return None
        value = _cell(self.grid, r, c)
        number, rule = read_int(value)
        if rule:
            self.add(rule, severity, r, c, value=shown(value))
        return number

    def stage(self, r: int, c: int | None, stages: Mapping[str, str], default: str) -> str | None:
        """A stage key from its name in either language; an empty cell means ``default``."""
        stage_text = self.text(r, c)
        if not stage_text:
            return default
        stage = stages.get(L.norm(stage_text))
        if stage is None:
            self.add("read.stage", E, r, c, value=stage_text)
        return stage

    def decimal(self, r: int, c: int | None) -> tuple[Decimal | None, bool]:
        """(number, ok).  ok is False when the cell held something unreadable."""
        if c is None:
            return None, True
        value = _cell(self.grid, r, c)
        number, rule = read_decimal(value)
        if rule:
            self.add(rule, E, r, c, value=shown(value))
            return None, False
        return number, True

    def typed(self, r: int, c: int | None) -> object:
        """A value of the protocol's seat table as the judge meant it: a lone dash is "nothing"
        (None); a date the spreadsheet made of the input is reported and read as None."""
        if c is None:
            return None
        value = _cell(self.grid, r, c)
        if is_dash(value):
            return None
        when = guessed_date(value)
        if when is not None:
            self.add("read.date_guessed", E, r, c, value=shown(when))
            return None
        return value

    def seat_number(self, r: int, c: int | None, read: Callable[[object], tuple[Any, str | None]] = read_int) -> Any:
        """A number of the seat table: whole (fouls, night, day) or, with ``read_decimal``, not
        (extra points); None when empty, a dash, or reported as unreadable."""
        value = self.typed(r, c)
        number, rule = read(value)
        if rule:
            self.add(rule, E, r, c, value=shown(value))
        return number


# -- Players ----------------------------------------------------------------------------------
def _parse_players(tabs: Mapping[str, Grid], problems: list[Problem]) -> tuple[tuple[Player, ...], tuple[Judge, ...]]:
    """The players, and the judges listed among them with the status «судья» (for their MWT ids)."""
    title = find_tab(tabs, "players")
    if title is None:
        problems.append(problem("read.tab_missing", E, None, tab="Игроки / Players"))
        return (), ()
    grid = tabs[title]
    rd = _Reader(title, grid)
    header = _find_header_row(grid, L.PLAYER_COLUMNS, ("player",))
    if header is None:
        problems.append(problem("read.column_missing", E, Location(title, "A1"), column="Игрок / Player"))
        return (), ()
    hr, cols = header
    status_words = _words(L.STATUS_WORDS)
    judge_words = {L.norm(w) for w in L.JUDGE_WORDS}
    players: list[Player] = []
    judges: list[Judge] = []
    seen: dict[str, int] = {}
    folds: dict[str, tuple[str, int]] = {}
    for r in range(hr + 1, len(grid)):
        nickname = typed_name(rd.text(r, cols["player"]))
        if not nickname:
            continue
        if nickname in seen:
            rd.add("read.duplicate_player", E, r, cols["player"], player=nickname, rows=f"{seen[nickname] + 1}, {r + 1}")
            continue
        seen[nickname] = r
        other, other_row = folds.setdefault(fold(nickname), (nickname, r))
        if other != nickname:  # two spellings a protocol could not tell apart: both are listed, the organizer renames one
            rd.problems.append(problem("read.similar_players", E, rd.loc(r, cols["player"]),
                                       related=(rd.loc(other_row, cols["player"]),),
                                       player=nickname, other=other, rows=f"{other_row + 1}, {r + 1}"))
        mwt_id = None
        if "mwt_id" in cols and not is_blank(_cell(grid, r, cols["mwt_id"])):
            mwt_id = read_mwt_id(_cell(grid, r, cols["mwt_id"]))
            if mwt_id is None:
                rd.add("read.mwt_id", W, r, cols["mwt_id"], value=shown(_cell(grid, r, cols["mwt_id"])))
        status_text = L.norm(rd.text(r, cols.get("status")))
        if status_text in judge_words:
            judges.append(Judge(nickname=nickname, mwt_id=mwt_id, location=rd.loc(r, cols["player"])))
            continue
        status_key = status_words.get(status_text)
        if status_key is None:
            rd.add("read.status", W, r, cols["status"], value=status_text)
            status_key = "playing"
        excused: set[int] = set()
        if "excused" in cols:
            raw = _cell(grid, r, cols["excused"])
            if not is_blank(raw):
                parts = re.split(r"[\s,;]+", text(raw)) if not isinstance(raw, (int, float)) else [text(raw)]
                for part in parts:
                    if not part:
                        continue
                    n, rule = read_int(part)
                    if rule or n is None or n < 1:
                        rd.add("read.rounds_list", E, r, cols["excused"], value=shown(raw))
                        break
                    excused.add(n)
        players.append(
            Player(
                nickname=nickname,
                club=rd.text(r, cols.get("club")),
                city=rd.text(r, cols.get("city")),
                status=PlayerStatus(status_key),
                excused_rounds=frozenset(excused),
                mwt_id=mwt_id,
                location=rd.loc(r, cols["player"]),
            )
        )
    problems.extend(rd.problems)
    return tuple(players), tuple(judges)


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


# -- Penalties ---------------------------------------------------------------------------------
def _parse_penalties(tabs: Mapping[str, Grid], stages: Mapping[str, str], default_stage: str, problems: list[Problem]) -> tuple[PenaltyEntry, ...]:
    title = find_tab(tabs, "penalties")
    if title is None:
        return ()
    grid = tabs[title]
    rd = _Reader(title, grid)
    header = _find_header_row(grid, L.PENALTY_COLUMNS, ("player", "reason"))
    if header is None:
        return ()
    hr, cols = header
    reasons = _words(L.PENALTY_REASON_WORDS)
    entries: list[PenaltyEntry] = []
    for r in range(hr + 1, len(grid)):
        player = typed_name(rd.text(r, cols["player"]))
        if not player:
            continue
        stage = rd.stage(r, cols.get("stage"), stages, default_stage)
        if stage is None:
            continue
        reason_text = rd.text(r, cols["reason"])
        reason = reasons.get(L.norm(reason_text))
        if reason is None:
            rd.add("read.penalty_reason", E, r, cols["reason"], value=reason_text)
            continue
        before = len(rd.problems)
        round_no = rd.integer(r, cols.get("round"))
        minutes = rd.integer(r, cols.get("minutes"))
        points, ok = rd.decimal(r, cols.get("points"))
        if len(rd.problems) > before or not ok:
            continue  # an unreadable penalty is listed, not guessed
        entries.append(
            PenaltyEntry(
                player=player,
                stage=stage,
                round=round_no,
                reason=PenaltyReason(reason),
                minutes_late=minutes,
                points=-abs(points) if points is not None else None,  # "2" and "-2" both mean a penalty
                location=rd.loc(r, cols["player"]),
            )
        )
    problems.extend(rd.problems)
    return tuple(entries)


def _parse_disputes(tabs: Mapping[str, Grid], problems: list[Problem]) -> tuple[Dispute, ...]:
    """The Disputes tab: game (a protocol tab's title), who filed, reason, status (blank = open)."""
    title = find_tab(tabs, "disputes")
    if title is None:
        return ()
    grid = tabs[title]
    rd = _Reader(title, grid)
    header = _find_header_row(grid, L.DISPUTE_COLUMNS, ("game",))
    if header is None:
        return ()
    hr, cols = header
    statuses = _words(L.DISPUTE_STATUS_WORDS)
    disputes: list[Dispute] = []
    for r in range(hr + 1, len(grid)):
        game = rd.text(r, cols["game"])
        if not game:
            continue
        status_text = rd.text(r, cols.get("status"))
        status = statuses.get(L.norm(status_text))
        if status is None:
            rd.add("dispute.bad_status", W, r, cols["status"], value=status_text)
            status = "open"  # an unreadable decision is not taken: the game stays disputed
        disputes.append(Dispute(game=game, filed_by=rd.text(r, cols.get("filed_by")), reason=rd.text(r, cols.get("reason")),
                                status=DisputeStatus(status), location=rd.loc(r, cols["game"])))
    problems.extend(rd.problems)
    return tuple(disputes)


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


_TAB_NAME = re.compile(r"^\s*(?P<prefix>тур|round|пф|sf|полуфинал|semifinal|финал|final)\s*(?P<round>\d+)(\s*(стол|table)\s*(?P<table>\d+))?\s*$", re.I)


def seat_readings(digits: str, count: int = 3) -> list[tuple[int, ...]]:
    """Every way to read a run of digits as ``count`` distinct seats 1–10 ("8910" → 8 9 10).

    A spreadsheet turns a best move typed with separators into such a run: Google Sheets in
    ru_RU takes the spaces of ``8 9 10`` for digit grouping (as in ``1 000``) and stores 8910."""
    found: list[tuple[int, ...]] = []

    def walk(i: int, seats: tuple[int, ...]) -> None:
        if i == len(digits):
            if len(seats) == count and len(set(seats)) == count:
                found.append(seats)
            return
        if len(seats) == count or digits[i] == "0":
            return
        for width in (1, 2):
            if i + width <= len(digits) and 1 <= int(digits[i:i + width]) <= 10:
                walk(i + width, (*seats, int(digits[i:i + width])))

    walk(0, ())
    return found


def _seats_of_run(digits: str) -> tuple[int, ...] | None:
    """A run of digits as three seats when exactly one reading exists, else as two («57», «810»:
    ``8 10`` typed into Google Sheets in ru_RU), else as one seat («5», «10»); None when none or
    several exist.  The best-move rule then says three are needed and scores what was named."""
    for count in (3, 2, 1):
        readings = seat_readings(digits, count)
        if readings:
            return readings[0] if len(readings) == 1 else None
    return None


def _seats_of_date(when: date) -> tuple[int, ...] | None:
    """Three seats a spreadsheet turned into a date: ``8 9 10`` typed into Google Sheets in en_US
    (month, day, two-digit year), ``8.9.10`` into a Russian one or Excel (day, month, year).
    Read back as the set of day, month and year 2001–2010, sorted (the order typed is lost, and a
    best move is a set); None when that is not three distinct seats (a date typed without a year,
    or a real date)."""
    if not 2001 <= when.year <= 2010:
        return None
    seats = {when.day, when.month, when.year - 2000}
    return tuple(sorted(seats)) if len(seats) == 3 and seats <= set(range(1, 11)) else None


def _parse_best_move(value: object) -> tuple[int, ...] | None:
    """The seats named in a best-move cell; () when empty or a dash; None when unreadable."""
    if is_blank(value) or is_dash(value):
        return ()
    if isinstance(value, bool):
        return None
    when = guessed_date(value)
    if when is not None:
        return _seats_of_date(when)
    if isinstance(value, (int, float)):
        if (isinstance(value, float) and not value.is_integer()) or value <= 0:
            return None
        return _seats_of_run(str(int(value)))
    parts = [p for p in re.split(r"[\s,.;/\\\-–—]+", str(value).strip()) if p]
    if not all(p.isdigit() for p in parts):
        return None
    if len(parts) == 1:
        return _seats_of_run(parts[0])
    return tuple(int(p) for p in parts)


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
    )
    return protocol, head.ok, rd.problems


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


def _rows_text(rows: Sequence[int]) -> str:
    """0-based rows as a person reads them: ``4–14``."""
    return f"{rows[0] + 1}–{rows[-1] + 1}" if len(rows) > 1 else str(rows[0] + 1)


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
    marked roles the empty cells stay unknown (and the roles rule reports them)."""
    marked = Counter(rec.role for rec in seats if rec.role is not None)
    if any(marked[role] != n for role, n in _MARKED_ROLES.items()):
        return seats
    return [replace(rec, role=Role.CIVILIAN) if empty else rec for rec, empty in zip(seats, empty_role)]


def _read_seat_row(rd: _Reader, r: int, cols: Mapping[str, int], *, expected_seat: int) -> SeatRecord:
    rec_cells = RowCells(rd.sheet, r, cols)
    if "seat" in cols:
        seat_no = rd.integer(r, cols["seat"])
        if seat_no is not None and seat_no != expected_seat:
            rd.add("read.seat_number", E, r, cols["seat"], expected=expected_seat, value=seat_no)
    player = typed_name(rd.text(r, cols["player"])) or None
    role = None
    role_text = "" if is_dash(_cell(rd.grid, r, cols["role"])) else rd.text(r, cols["role"])
    if role_text:
        key = _words(L.ROLE_WORDS).get(L.norm(role_text).rstrip("."))
        if key is None:
            rd.add("read.role", E, r, cols["role"], value=role_text)
        else:
            role = Role(key)
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


def _read_best_move(rd: _Reader, r: int, c: int) -> tuple[int, ...]:
    raw = _cell(rd.grid, r, c)
    parsed = _parse_best_move(raw)
    if parsed is not None:
        return parsed
    when = guessed_date(raw)  # a warning, as every best move problem: the game counts, the best move scores nothing
    if when is not None:
        rd.add("read.date_guessed", W, r, c, value=shown(when))
    else:
        rd.add("read.best_move", W, r, c, value=shown(raw))
    return ()


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


# -- names typed into protocols, the seating and penalties -----------------------------------------
class _Names:
    """Reads every typed name against the Players tab (:mod:`scoring.names`): a name registered
    under another spelling of the same fold is read as that player, with a warning at its cell;
    a fold several players share is an error there.  An unknown name is left as typed (the
    rules report it, with the nearest players)."""

    def __init__(self, index: NameIndex, problems: list[Problem]):
        self.index = index
        self.problems = problems

    def read(self, typed: str | None, where: Location | None) -> str | None:
        if not typed:
            return typed
        found = self.index.resolve(typed)
        if found.match is Match.FOLDED:
            self.problems.append(problem("player.folded", W, where, typed=typed, player=found.name))
        elif found.match is Match.AMBIGUOUS:
            self.problems.append(problem("player.ambiguous", E, where, typed=typed,
                                         players=", ".join(f"«{n}»" for n in found.candidates)))
        return found.name

    def protocol(self, p: Protocol) -> Protocol:
        names = [self.read(rec.player, rec.cells.get("player")) for rec in p.seats]
        if all(name == rec.player for name, rec in zip(names, p.seats)):
            return p  # the usual case: every name as registered (nothing copied)
        return replace(p, seats=tuple(rec if name == rec.player else replace(rec, player=name)
                                      for name, rec in zip(names, p.seats)))

    def seating(self, e: SeatingEntry) -> SeatingEntry:
        players = tuple(self.read(name, e.seat_location(i)) for i, name in enumerate(e.players))
        return e if players == e.players else replace(e, players=players)

    def penalty(self, e: PenaltyEntry) -> PenaltyEntry:
        player = self.read(e.player, e.location)
        return e if player == e.player else replace(e, player=player)


# -- evening tabs ------------------------------------------------------------------------------
# An evening of a club season is one tab: titled by its date («05.12.2026») and holding the date in
# a «Дата» cell above its blocks.  A date typed in another form is read where it is unambiguous:
# a two-digit year (05.12.26) is 2026, with a warning naming the expected form; a date without a
# year (5.12) takes its year from the tab title or the date cell when that one has it (warning),
# and is an error naming the expected form otherwise — the evening's games are then not placed.
_DATE_TEXT = re.compile(r"^\s*(\d{1,2})[./-](\d{1,2})(?:[./-](\d{4}|\d{2}))?\s*(?:г\.?)?\s*$")
_ISO_DATE = re.compile(r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})\s*$")


@dataclass(frozen=True, slots=True)
class _DateParts:
    day: int
    month: int
    year: int | None  # None: typed without a year
    exact: bool  # typed as DD.MM.YYYY (or a date value): nothing to warn about


def _date_parts(value: object) -> _DateParts | None:
    """Day, month and year of a date as typed in an evening's date cell or tab title, or None."""
    when = guessed_date(value)
    if when is not None:
        return _DateParts(when.day, when.month, when.year, True)
    if not isinstance(value, str):
        return None
    if m := _ISO_DATE.match(value):
        return _DateParts(int(m.group(3)), int(m.group(2)), int(m.group(1)), True)
    if m := _DATE_TEXT.match(value):
        year = m.group(3)
        full = year is not None and len(year) == 4
        return _DateParts(int(m.group(1)), int(m.group(2)), int(year) if full else (2000 + int(year) if year else None),
                          full)
    return None


def _date_in_title(title: str) -> _DateParts | None:
    return _date_parts(title.strip()) if title else None


def _evening_date_cell(grid: Grid, below: int) -> tuple[int, int] | None:
    """The cell of the value of the «Дата» label above the first block, or None."""
    words = {L.norm(w) for w in L.EVENING_DATE_LABELS}
    for r in range(min(below, len(grid))):
        row = grid[r]
        for c, value in enumerate(row):
            if L.norm(value).rstrip(":") in words:
                vc = next((v for v in range(c + 1, min(c + 3, len(row))) if not is_blank(row[v])), c + 1)
                return r, vc
    return None


def _as_date(parts: _DateParts, year: int | None) -> date | None:
    try:
        return date(year, parts.month, parts.day) if year is not None else None
    except ValueError:  # 31.02
        return None


def _evening_date(title: str, grid: Grid, first_block_row: int) -> tuple[date | None, list[Problem]]:
    """The evening's date from its date cell (or, without one, its tab title), and its problems."""
    rd = _Reader(title, grid)
    pos = _evening_date_cell(grid, first_block_row)
    raw: object = _cell(grid, *pos) if pos else None
    where = rd.loc(*pos) if pos else Location(title, "A1")
    cell_parts = _date_parts(raw) if not is_blank(raw) else None
    title_parts = _date_in_title(title)
    parts, typed = (cell_parts, raw) if not is_blank(raw) else (title_parts, title)
    other = title_parts if parts is cell_parts else None
    if parts is None:
        rd.problems.append(problem("evening.date_unreadable", E, where, value=shown(typed)))
        return None, rd.problems
    year = parts.year if parts.year is not None else (other.year if other and (other.day, other.month) == (parts.day, parts.month) else None)
    when = _as_date(parts, year)
    if when is None:
        rd.problems.append(problem("evening.date_unreadable", E, where, value=shown(typed)))
        return None, rd.problems
    if not parts.exact:
        rd.problems.append(problem("evening.date_form", W, where, value=shown(typed), date=when.strftime("%d.%m.%Y")))
    if title_parts is not None and parts is cell_parts and title_parts.year is not None:
        from_title = _as_date(title_parts, title_parts.year)
        if from_title is not None and from_title != when:
            rd.problems.append(problem("evening.date_mismatch", W, where, date=when.strftime("%d.%m.%Y"), title=title))
    return when, rd.problems


def evening_of(title: str, grid: Grid) -> date | None:
    """The date of the evening a tab holds (its date cell, else its title), or None when the tab is
    not an evening or its date cannot be read."""
    found = _split_blocks(grid)
    if _tab_kind(title, grid, found) != "evening":
        return None
    return _evening_date(title, grid, found.blocks[0].first)[0]


def _orphan_problems(title: str, found: _Blocks) -> list[Problem]:
    """Seat rows no header claims: one error naming the rows (the game is not glued to the one above)."""
    return [problem("protocol.no_header", E, Location(title, a1(first, 0)), rows=_rows_text((first, last)))
            for first, last in found.orphans]


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
    return protocols, problems + _orphan_problems(title, found)


# -- the whole workbook ---------------------------------------------------------------------------
def owned_titles(preset: Preset) -> set[str]:
    """Normalised titles of the tabs the sync owns (never read as input)."""
    titles = {L.norm(t) for key in L.OWNED_TABS for t in L.TABS[key]}
    for s in preset.stages:
        titles.add(L.norm(s.name_ru))
        titles.add(L.norm(s.name_en))
    titles.add(L.norm("_sheets_sync"))
    return titles


@dataclass(frozen=True, kw_only=True, slots=True)
class Parsed:
    tournament: Tournament
    problems: tuple[Problem, ...]
    unreadable: frozenset[str] = field(default_factory=frozenset)  # protocol tabs that could not be read at all
    # protocols whose stage, round or table could not be read: they count for nobody, but the
    # rules about their own cells still check them (read with the first stage)
    unplaced: tuple[Protocol, ...] = ()


def parse_tournament(tabs: Mapping[str, Grid], order: Sequence[str], preset: Preset, settings: Settings) -> Parsed:
    problems: list[Problem] = list(settings.problems)
    stages = stage_lookup(preset)
    first_stage = preset.stage_keys[0]
    players, judges = _parse_players(tabs, problems)
    seating = _parse_seating(tabs, stages, first_stage, problems)
    penalties = _parse_penalties(tabs, stages, first_stage, problems)
    disputes = _parse_disputes(tabs, problems)
    input_titles = {find_tab(tabs, k) for k in ("tournament", "players", "seating", "penalties", "disputes")}
    owned = owned_titles(preset)
    protocols: list[Protocol] = []
    unreadable: set[str] = set()
    unplaced: list[Protocol] = []
    for title in order:
        if title in input_titles or L.norm(title) in owned or title not in tabs:
            continue
        read = _protocols_of_tab(title, tabs[title], stages, preset)
        if read is None:
            continue
        found, tab_problems = read
        problems.extend(tab_problems)
        for protocol, placed in found:
            if placed:
                protocols.append(protocol)
            else:
                unreadable.add(title)
                unplaced.append(protocol)
    released = {stages.get(v, v) for v in settings.released}
    names = _Names(NameIndex(p.nickname for p in players), problems)
    protocols = [names.protocol(p) for p in protocols]
    unplaced = [names.protocol(p) for p in unplaced]
    seating = tuple(names.seating(e) for e in seating)
    penalties = tuple(names.penalty(e) for e in penalties)
    return Parsed(
        tournament=Tournament(
            name=settings.name,
            preset_id=preset.id,
            language=settings.language,
            chief_judge=settings.chief_judge,
            date=settings.date,
            link=settings.link,
            season=settings.season,
            players=players,
            seating=seating,
            protocols=tuple(protocols),
            penalties=penalties,
            overrides=tuple((k, text(v), loc) for k, v, loc in settings.overrides),
            released=frozenset(released),
            confirmed_stages=frozenset(stages[v] for v in settings.confirmed if v in stages),
            judges=judges,
            mwt_id=settings.mwt_tournament_id,
            disputes=disputes,
        ),
        problems=tuple(problems),
        unreadable=frozenset(unreadable),
        unplaced=tuple(unplaced),
    )
