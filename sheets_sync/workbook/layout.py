"""Where things sit in the tabs people type into, in Russian or English, and how they look.

Builds the grids of the Tournament, Players, Seating, Penalties and protocol tabs (for
``init``, ``draw`` and the example tournament).  The reader in :mod:`scoring.parse`
finds everything by label, so these positions are a convention, not a contract.

The look is written once, when a tab is created: column widths, plain-text format where
people type names and lists (``8 9 10`` must not become the number 8910), print settings
(A4; the Seating tab ten seats across one page width), and for a protocol tab the FIIM
paper protocol — framed table, shaded labels and column headers, centred seat numbers, one
landscape page.  The printed blank (:mod:`sheets_sync.render.protocols`) takes its columns,
labels and legend from here, so the paper and the tab show the same fields.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date
from decimal import Decimal

from scoring import labels as L
from scoring.draw.report import FairnessReport
from scoring.model import ApplicationState, Player, PlayerStatus, Protocol, Removal, SeatingEntry
from scoring.preset import Preset
from scoring.registration import state_word
from sheets_sync.backends.base import PageSetup, Style, TabWrite, Validation, column_letter
from sheets_sync.render.paper import LINE_PT, paper_page, text_lines
from sheets_sync.render.words import ru_en

__all__ = ["tournament_tab", "players_tab", "seating_tab", "penalties_tab", "protocol_tab", "protocol_title",
           "PROTOCOL_TABLE_ROW", "PROTOCOL_HEADER_KEYS", "protocol_columns", "protocol_legend", "PROTOCOL_WIDTHS",
           "evening_tab", "evening_title", "evening_columns", "evening_block_games", "EVENING_FIRST_BLOCK",
           "EVENING_BLOCK_ROWS", "draw_report_tab"]

PROTOCOL_TABLE_ROW = 8  # 0-based row of the seat table's header
PROTOCOL_HEADER_KEYS = ("stage", "round", "table", "judge", "winner", "checked_by")  # rows 2–7, label | value
# the seat table's columns (Excel character units); the blank prints them in the same proportions
PROTOCOL_WIDTHS = {"seat": 11, "player": 22, "role": 9, "fouls": 9, "killed_night": 8, "voted_day": 12, "removal": 8,
                   "best_move": 9, "extra_points": 8, "auto_extra_taken": 8, "comment": 22, "nominated": 11,
                   "sheriff_check": 10, "don_check": 10}  # fouls: room for four tick boxes on the blank
# what people type as text: names and lists ("8 9 10", "да 3") must not become numbers
_TEXT_COLUMNS = ("player", "removal", "best_move", "comment", "nominated")
_LEFT_COLUMNS = ("player", "comment")  # the rest of the seat table is centred
_LEGEND_COLUMN = 4  # E: beyond the reader's reach for a header value (label in A, value in B–D)
# Rows below a list's last entry that get the text format: room to type more.  In an .xlsx
# every formatted cell is a stored cell the sync reads on every cycle, so not the whole column.
_SPARE_ROWS = 60
_PENALTY_ROWS = 100


def _text_cells(first_col: int, last_col: int, rows: int) -> Style:
    return Style(cells=f"{column_letter(first_col)}2:{column_letter(last_col)}{rows}", text=True)


def _list_page() -> PageSetup:
    """A list people type into: portrait, one page wide, the header row on every page."""
    return PageSetup(repeat_rows=1)


def _lbl(spellings: tuple[str, ...], language: str) -> str:
    return L.label(spellings, language)


def tournament_tab(*, name: str, preset_id: str, language: str, chief_judge: str = "", date: str = "",
                   organizers: Sequence[str] = (), season: bool = False,
                   registration: Mapping[str, object] | None = None) -> TabWrite:
    """The Tournament tab; «Организаторы» (who may edit the sync's tabs of a Google Sheet) only
    when ``init --organizer`` named some.  ``season``: a club season's tab, with the row «Формат |
    сезон» and no stage rows.  ``registration`` (issue 45): the rows «Мест», «Регистрация до»,
    «Начало», «Жеребьёвка», «Часовой пояс», with the values given (the others left to fill)."""
    T = L.TOURNAMENT_LABELS
    rows: tuple[tuple[object, ...], ...] = (
        (_lbl(T["name"], language), name),
        (_lbl(T["preset"], language), preset_id),
        (_lbl(T["language"], language), language),
        (_lbl(T["chief_judge"], language), chief_judge),
        (_lbl(T["date"], language), date),
        (_lbl(T["link"], language), None, ru_en("адрес сайта с результатами: он будет в каждом посте VK",
                                                "the results site's address: every VK post ends with it", language)),
        (_lbl(T["confirmed"], language), None),
        (_lbl(T["released"], language), None),
    )
    if season:
        season_word = L.SEASON_WORDS[0] if language == "ru" else L.SEASON_WORDS[1]
        rows = (*rows[:2], (_lbl(T["format"], language), season_word), *rows[2:6])  # and «Ссылка»
    if organizers:
        rows += ((_lbl(T["organizers"], language), ", ".join(organizers)),)
    if registration is not None:
        rows += tuple((_lbl(T[k], language), registration.get(k), ru_en(*_REGISTRATION_HINTS[k], language))
                      for k in ("places", "registration_until", "starts_at", "draw_at", "time_zone"))
    return TabWrite(title=L.tab("tournament", language), rows=rows, owned=False, column_widths=(24, 40), bold_rows=(),
                    page=PageSetup())


_REGISTRATION_COLUMNS = ("application", "applied_at", "arrived")
# what a new organizer types into the Tournament tab's registration rows (read by scoring.values.read_datetime)
_REGISTRATION_HINTS = {
    "places": ("сверх мест заявки встают в лист ожидания", "applications past the places wait in line"),
    "registration_until": ("дата и время: 20.12.2026 23:59", "date and time: 20.12.2026 23:59"),
    "starts_at": ("первая игра: 30.12.2026 10:30", "the first game: 30.12.2026 10:30"),
    "draw_at": ("когда объявлена жеребьёвка: 29.12.2026 20:00", "when the draw is announced: 29.12.2026 20:00"),
    "time_zone": ("например Europe/Moscow или Europe/Berlin", "e.g. Europe/Moscow or Europe/Berlin"),
}


def players_tab(players: Sequence[Player], language: str, registration: bool = False) -> TabWrite:
    """The Players tab; «Команда» and «Зачёт» only when some player has a team or a
    classification (a tournament without them gets the tab it always had); ``registration``
    (issue 45): «Заявка», «Подана», «Прибыл» last, the state and the arrival as dropdowns."""
    C = L.PLAYER_COLUMNS
    sides = tuple(k for k, has in (("team", any(p.team for p in players)),
                                   ("classifications", any(p.classifications for p in players))) if has)
    extra = _REGISTRATION_COLUMNS if registration else ()
    header = tuple(_lbl(C[k], language) for k in ("player", "club", "city", "status", "excused", *sides, *extra))
    rows = [header]
    for p in players:
        status = "" if p.status is PlayerStatus.PLAYING else L.word(p.status.value, language)
        excused = ", ".join(str(r) for r in sorted(p.excused_rounds)) or None
        side_values = {"team": p.team or None, "classifications": ", ".join(p.classifications) or None}
        rows.append((p.nickname, p.club or None, p.city or None, status or None, excused,
                     *(side_values[k] for k in sides), *(None for _ in extra)))
    statuses = tuple(L.word(k, language) for k in ("withdrawn", "disqualified", "reserve"))
    n = max(len(players) + 50, 100)
    validations = [Validation(cells=f"D2:D{n}", values=statuses)]
    if registration:
        first = column_letter(5 + len(sides))  # «Заявка»; «Прибыл» two columns right
        states = tuple(state_word(s, language) for s in ApplicationState)
        validations += [Validation(cells=f"{first}2:{first}{n}", values=states),
                        Validation(cells=f"{column_letter(7 + len(sides))}2:{column_letter(7 + len(sides))}{n}",
                                   values=(L.word("yes", language),))]
    return TabWrite(title=L.tab("players", language), rows=tuple(rows), owned=False,
                    column_widths=(22, 18, 16, 18, 14, *([18] * len(sides)), *((16, 18, 10) if registration else ())),
                    frozen_rows=1, bold_rows=(0,), validations=tuple(validations),
                    styles=(_text_cells(0, 4 + len(sides), n),), page=_list_page())


def seating_tab(entries: Sequence[SeatingEntry], preset: Preset, language: str) -> TabWrite:
    C = L.SEATING_COLUMNS
    header = (_lbl(C["stage"], language), _lbl(C["round"], language), _lbl(C["table"], language), *range(1, 11))
    rows = [header]
    for e in entries:
        rows.append((preset.stage(e.stage).name(language), e.round, e.table, *e.players))
    n = len(rows) + _SPARE_ROWS
    return TabWrite(title=L.tab("seating", language), rows=tuple(rows), owned=False,
                    column_widths=(12, 6, 6, *([14] * 10)), frozen_rows=1, frozen_cols=3, bold_rows=(0,),
                    styles=(_text_cells(0, 0, n), _text_cells(3, 12, n), Style(cells=f"B1:M{n}", align="center")),
                    page=PageSetup(landscape=True, repeat_rows=1))


def penalties_tab(language: str) -> TabWrite:
    C = L.PENALTY_COLUMNS
    header = tuple(_lbl(C[k], language) for k in ("player", "stage", "round", "reason", "minutes", "points"))
    reasons = tuple(L.word(k, language) for k in ("missed_round", "late", "other"))
    return TabWrite(title=L.tab("penalties", language), rows=(header,), owned=False,
                    column_widths=(22, 12, 6, 14, 14, 8), frozen_rows=1, bold_rows=(0,),
                    validations=(Validation(cells="D2:D500", values=reasons),),
                    styles=(_text_cells(0, 1, _PENALTY_ROWS), _text_cells(3, 3, _PENALTY_ROWS)), page=_list_page())


def protocol_title(preset: Preset, stage: str, round_no: int, table: int, language: str) -> str:
    index = preset.stage_keys.index(stage)
    stage_rule = preset.stage(stage)
    tables = max(1, stage_rule.players // 10) if index > 0 else 2
    return L.protocol_tab_title(index, round_no, table, tables_in_stage=tables, language=language)


def _number(value: Decimal) -> int | float | Decimal:
    return int(value) if value == value.to_integral_value() else value


def protocol_columns(preset: Preset) -> tuple[str, ...]:
    """The seat table's columns, left to right (keys of :data:`scoring.labels.PROTOCOL_COLUMNS`).

    The last three are optional, as on the paper: the days a player was nominated and the
    nights the sheriff and the don checked him; the reader knows them and scores nothing from them."""
    columns = ["seat", "player", "role", "fouls", "killed_night", "voted_day", "removal", "best_move", "extra_points"]
    if preset.auto_extra:
        columns.append("auto_extra_taken")
    return (*columns, "comment", "nominated", "sheriff_check", "don_check")


_LEGEND = (
    ("Роль: пусто — мирный, ш — шериф, м — мафия, д — дон. Фолы: 0–4.",
     "Role: empty civilian, s sheriff, m mafia, d don. Fouls: 0–4."),
    ("Убит ночью, Заголосован днём: номер ночи, дня (1 — первая). Удалён: да или ППК, можно с днём (да 3).",
     "Killed night, Voted day: the night's, the day's number (1 = first). Removed: yes or td, with the day (yes 3)."),
    ("ЛХ: три номера мест (2 5 8) в строке убитого первой ночью. Доп. баллы: 0,5 или 0.5.",
     "Best move: three seats (2 5 8) in the row of the player shot first. Extra points: 0,5 or 0.5."),
    ("Выставлен: дни (1 3). Проверка шерифа, дона: номер ночи. Эти три столбца не обязательны.",
     "Nominated: the days (1 3). Sheriff's, don's check: the night. These three columns are optional."),
)


def protocol_legend(language: str) -> tuple[str, ...]:
    """How to fill the protocol, in a few lines: beside the header block on the tab and on the blank."""
    return tuple(ru_en(ru, en, language) for ru, en in _LEGEND)


def _number(value: Decimal) -> int | float | Decimal:
    return int(value) if value == value.to_integral_value() else value


def protocol_tab(*, title: str, stage_name: str, round_no: int, table: int, players: Sequence[str | None],
                 language: str, preset: Preset, protocol: Protocol | None = None) -> TabWrite:
    """A protocol tab laid out like the FIIM paper protocol, pre-filled or (``protocol``) complete."""
    H, C = L.PROTOCOL_HEADER, L.PROTOCOL_COLUMNS
    columns = protocol_columns(preset)
    header_values: dict[str, object] = {"stage": stage_name, "round": round_no, "table": table}
    if protocol is not None:
        header_values["judge"] = protocol.judge or None
        if protocol.winner is not None:
            header_values["winner"] = L.word(protocol.winner.value, language)
    legend = protocol_legend(language)
    rows: list[tuple] = [(_lbl(L.PROTOCOL_TITLE, language),)]
    for i, key in enumerate(PROTOCOL_HEADER_KEYS):
        row: list[object] = [_lbl(H[key], language), header_values.get(key)]
        if i < len(legend):
            row += [None] * (_LEGEND_COLUMN - 2) + [legend[i]]
        rows.append(tuple(row))
    rows += [(), tuple(_lbl(C[c], language) for c in columns)]
    for seat in range(1, 11):
        rec = protocol.seats[seat - 1] if protocol is not None else None
        values: dict[str, object] = {"seat": seat, "player": players[seat - 1] if seat - 1 < len(players) else None}
        if rec is not None:
            values["player"] = rec.player
            values["role"] = L.word(rec.role.value, language) if rec.role else None
            values["fouls"] = rec.fouls or None
            values["killed_night"] = rec.killed_night
            values["voted_day"] = rec.voted_day
            if rec.removal is Removal.REMOVED:
                values["removal"] = L.word("yes", language) + (f" {rec.removal_day}" if rec.removal_day else "")
            elif rec.removal is Removal.TEAM_DEFEAT:
                values["removal"] = L.word("team_defeat", language) + (f" {rec.removal_day}" if rec.removal_day else "")
            values["best_move"] = " ".join(str(s) for s in rec.best_move) or None
            values["extra_points"] = _number(rec.extra_points) if rec.extra_points else None
            values["comment"] = rec.comment or None
        rows.append(tuple(values.get(c) for c in columns))
    header = PROTOCOL_TABLE_ROW + 1  # 1-based rows of the sheet from here on
    first, last = header + 1, header + 10
    end = column_letter(len(columns) - 1)

    def col(key: str) -> str:
        return column_letter(columns.index(key))

    roles = tuple(L.word(k, language) for k in ("civilian", "sheriff", "mafia", "don"))
    winners = (L.word("red", language), L.word("black", language))
    removals = (L.word("yes", language), L.word("team_defeat", language))
    head_last = 1 + len(PROTOCOL_HEADER_KEYS)
    value_row = {key: 2 + i for i, key in enumerate(PROTOCOL_HEADER_KEYS)}
    styles = [
        Style(cells="A1", bold=True, size=14),
        Style(cells=f"A2:A{head_last}", frame=True, shade=True, bold=True, middle=True),
        Style(cells=f"B2:B{head_last}", frame=True, bold=True, align="left", middle=True),
        *(Style(cells=f"B{value_row[k]}", text=True) for k in ("judge", "checked_by")),
        Style(cells=f"{column_letter(_LEGEND_COLUMN)}2:{column_letter(_LEGEND_COLUMN)}{1 + len(legend)}", muted=True,
              size=9),
        Style(cells=f"A{header}:{end}{header}", frame=True, shade=True, bold=True, size=10, align="center",
              middle=True, wrap=True),
        Style(cells=f"A{first}:{end}{last}", frame=True, align="center", middle=True),
        Style(cells=f"A{first}:A{last}", bold=True),
        *(Style(cells=f"{col(c)}{first}:{col(c)}{last}", align="left") for c in _LEFT_COLUMNS),
        *(Style(cells=f"{col(c)}{first}:{col(c)}{last}", text=True) for c in _TEXT_COLUMNS),
    ]
    heights = (24.0, *([20.0] * len(PROTOCOL_HEADER_KEYS)), 8.0, 30.0, *([28.0] * 10))
    return TabWrite(
        title=title,
        rows=tuple(rows),
        owned=False,
        column_widths=tuple(PROTOCOL_WIDTHS[c] for c in columns),
        row_heights=heights,
        frozen_rows=PROTOCOL_TABLE_ROW + 1,
        bold_rows=(0, PROTOCOL_TABLE_ROW),
        validations=(
            Validation(cells=f"{col('role')}{first}:{col('role')}{last}", values=roles),
            Validation(cells=f"B{value_row['winner']}", values=winners),
            Validation(cells=f"{col('removal')}{first}:{col('removal')}{last}", values=removals),
        ),
        styles=tuple(styles),
        page=PageSetup(landscape=True, fit_height=True, area=f"A1:{end}{last}"),
    )


# -- an evening of a club season: protocol blocks stacked in one tab --------------------------------
# the block's header line: label key -> the column of its label (its value is in the next one); the
# judge's and the checker's names get the wider columns of the seat table below
EVENING_HEADER = {"round": 0, "table": 2, "winner": 4, "judge": 6, "checked_by": 10}
_GAME_LABEL = ("Игра", "Game")  # an evening numbers its games (a spelling of the round label)
EVENING_FIRST_BLOCK = 6  # 0-based row of the first block: the date, the legend and a blank row above it
EVENING_BLOCK_ROWS = 13  # header line, column headers, ten seats, a blank row
_EVENING_WIDTHS = {"penalty": 8, "penalty_reason": 16}


def evening_title(day: date) -> str:
    """The tab of an evening: its date as people write it, «05.12.2026»."""
    return day.strftime("%d.%m.%Y")


def evening_columns(preset: Preset) -> tuple[str, ...]:
    """The seat table of an evening's block: the tournament protocol's scored columns, a penalty of
    any value with its reason, and the comment (the paper protocol of a club evening)."""
    scored = [c for c in protocol_columns(preset) if c not in ("comment", "nominated", "sheriff_check", "don_check")]
    return (*scored, "penalty", "penalty_reason", "comment")


def evening_block_games(games: int, tables: int | None) -> list[tuple[int, int | None]]:
    """(game number, table) of each block, top to bottom: with tables, the games of one time slot
    side by side (game 1 at tables 1 and 2, then game 2 …); without, games 1…N and no table."""
    if not tables:
        return [(i + 1, None) for i in range(games)]
    return [(i // tables + 1, i % tables + 1) for i in range(games)]


def _evening_block(game: int, table: int | None, columns: Sequence[str], language: str) -> list[tuple]:
    H, C = L.PROTOCOL_HEADER, L.PROTOCOL_COLUMNS
    values = {"round": game, "table": table}
    head: list[object] = [None] * (max(EVENING_HEADER.values()) + 2)
    for key, c in EVENING_HEADER.items():
        head[c], head[c + 1] = _lbl(_GAME_LABEL if key == "round" else H[key], language), values.get(key)
    return [tuple(head), tuple(_lbl(C[c], language) for c in columns),
            *((seat, *([None] * (len(columns) - 1))) for seat in range(1, 11)), ()]


def evening_tab(*, day: date, games: int, tables: int | None, language: str, preset: Preset) -> TabWrite:
    """An evening's tab: the date, how to fill it, and ``games`` empty protocol blocks stacked, each
    printing on a landscape A4 page of its own."""
    columns = evening_columns(preset)
    legend = protocol_legend(language)[:3] + (ru_en(
        "Штраф: любое число баллов (−1, 0,5), в «Причина штрафа» — за что.",
        "Penalty: any number of points (−1, 0.5); 'Penalty reason' says what for.", language),)
    rows: list[tuple] = [(_lbl(L.EVENING_DATE_LABELS, language), evening_title(day)), *((line,) for line in legend), ()]
    for game, table in evening_block_games(games, tables):
        rows += _evening_block(game, table, columns, language)
    end = column_letter(len(columns) - 1)

    def col(key: str) -> str:
        return column_letter(columns.index(key))

    starts = [EVENING_FIRST_BLOCK + 1 + i * EVENING_BLOCK_ROWS for i in range(games)]  # 1-based header lines
    styles: list[Style] = [Style(cells="A1", bold=True, shade=True, frame=True), Style(cells="B1", bold=True, text=True),
                           Style(cells=f"A2:A{1 + len(legend)}", muted=True, size=9)]
    validations: list[Validation] = []
    roles = tuple(L.word(k, language) for k in ("civilian", "sheriff", "mafia", "don"))
    winners = (L.word("red", language), L.word("black", language))
    removals = (L.word("yes", language), L.word("team_defeat", language))
    for top in starts:
        first, last = top + 2, top + 11
        styles += [
            *(Style(cells=f"{column_letter(c)}{top}", frame=True, shade=True, bold=True, middle=True)
              for c in EVENING_HEADER.values()),
            *(Style(cells=f"{column_letter(c + 1)}{top}", frame=True, bold=True, align="left", middle=True,
                    text=key in ("judge", "checked_by")) for key, c in EVENING_HEADER.items()),
            Style(cells=f"A{top + 1}:{end}{top + 1}", frame=True, shade=True, bold=True, size=10, align="center",
                  middle=True, wrap=True),
            Style(cells=f"A{first}:{end}{last}", frame=True, align="center", middle=True),
            Style(cells=f"A{first}:A{last}", bold=True),
            *(Style(cells=f"{col(c)}{first}:{col(c)}{last}", align="left") for c in (*_LEFT_COLUMNS, "penalty_reason")),
            *(Style(cells=f"{col(c)}{first}:{col(c)}{last}", text=True)
              for c in (*_TEXT_COLUMNS, "penalty_reason") if c in columns),
        ]
        winner_cell = f"{column_letter(EVENING_HEADER['winner'] + 1)}{top}"
        validations += [Validation(cells=f"{col('role')}{first}:{col('role')}{last}", values=roles),
                        Validation(cells=winner_cell, values=winners),
                        Validation(cells=f"{col('removal')}{first}:{col('removal')}{last}", values=removals)]
    heights = (22.0, *([14.0] * len(legend)), 8.0, *((24.0, 30.0, *([26.0] * 10), 14.0) * games))
    return TabWrite(title=evening_title(day), rows=tuple(rows), owned=False,
                    column_widths=tuple({**PROTOCOL_WIDTHS, **_EVENING_WIDTHS}[c] for c in columns),
                    row_heights=heights, bold_rows=(), validations=tuple(validations), styles=tuple(styles),
                    page=PageSetup(landscape=True, area=f"A1:{end}{starts[-1] + 11}",
                                   breaks=tuple(top - 1 for top in starts[1:])))


# -- the Жеребьёвка tab: how fair a drawn seating is ----------------------------------------------
# the players' table: name, club, games, rests, opponents, most met, times, seats, seat repeats,
# seats 1–3, 4–7, 8–10, seat sum, mean seat, then one column per table
# the name column holds the figures' labels too; each wide enough for the longest word of its header
# at the text's own 11 pt, bold («соперников», «Повторов», «Сумма», «Среднее»: a word is never broken)
_DRAW_WIDTHS = (30, 12, 5, 7, 11, 18, 5, 16, 9, 6, 6, 6, 7, 9)
_DRAW_TABLE_WIDTH = 5
_DRAW_LEFT = (0, 1, 5, 7)  # names and lists; the figures are centred


def _draw_blocks(rows: Sequence[Sequence[object]]) -> list[list[tuple]]:
    """The report's rows split at its empty rows: the figures, the meetings' histogram, the
    problems of a hand-edited seating (when there are any), and last the players' table."""
    blocks: list[list[tuple]] = [[]]
    for row in rows:
        if row:
            blocks[-1].append(tuple(row))
        elif blocks[-1]:
            blocks.append([])
    return [b for b in blocks if b]


def _draw_paragraphs(figures: list[list[tuple]]) -> tuple[list[list[tuple]], list[str]]:
    """The figures without a label | value row whose value is a paragraph («Почему разрыв: …», far
    longer than its cell): that text goes in a framed cell of its own, wrapped (the label begins it)."""
    room = _DRAW_WIDTHS[1] * 2  # a value this many characters long still reads in its cell
    long = [r for block in figures for r in block if len(r) == 2 and isinstance(r[1], str) and len(r[1]) > room]
    return [[r for r in block if r not in long] for block in figures], [str(r[1]) for r in long]


def draw_report_tab(report: FairnessReport, *, stage_name: str, language: str, tournament: str = "",
                    notes: Sequence[str] = ()) -> TabWrite:
    """The Жеребьёвка tab as it prints: its title and the draw in one line, then the figures and the
    meetings' histogram on page 1, each block framed; the players' table from page 2 on, framed
    under a shaded header row repeated on each of its pages, the names on each page across when
    its columns do not fit one page wide (landscape, no letter under 8 pt: render.paper)."""
    what = f"{L.tab('draw_report', language)}: {stage_name}"
    rows: list[tuple] = [(f"{tournament} — {what}" if tournament else what,), (report.text_lines(language)[0],)]
    styles: list[Style] = [Style(cells="A1", bold=True, size=14), Style(cells="A2", muted=True)]
    heights: list[float] = [22.0, LINE_PT]
    for note in notes:  # what the draw could not do (a team rule the field broke), wrapped under the title
        styles.append(Style(cells=f"A{len(rows) + 1}", bold=True, wrap=True, align="left"))
        rows.append((note,))
        heights.append(LINE_PT * text_lines(note, _DRAW_WIDTHS[0]))
    rows.append(())
    heights.append(LINE_PT)
    *figures, players = _draw_blocks(report.rows(language))
    figures, paragraphs = _draw_paragraphs(figures)
    for i, block in enumerate(figures):
        top, end = len(rows) + 1, len(rows) + len(block)  # 1-based
        last = column_letter(max(len(r) for r in block) - 1)
        styles.append(Style(cells=f"A{top}:{last}{end}", frame=True, align="left"))
        # the histogram has a header row; the figures and the problems are label | value
        styles.append(Style(cells=f"A{top}:{last}{top}" if i == 1 else f"A{top}:A{end}", shade=True, bold=True))
        rows += [*block, ()]
        heights += [LINE_PT] * (len(block) + 1)
        if i == 0 and paragraphs:  # under the figures it explains: wrapped, the row as tall as its lines
            for text in paragraphs:
                styles.append(Style(cells=f"A{len(rows) + 1}", frame=True, wrap=True, align="left", middle=True))
                rows += [(text,), ()]
                heights += [LINE_PT * text_lines(text, _DRAW_WIDTHS[0]), LINE_PT]
    header = len(rows) + 1  # 1-based: the players' table starts a page of its own
    rows += players
    end, last = len(rows), column_letter(len(players[0]) - 1)
    styles += [Style(cells=f"A{header}:{last}{header}", frame=True, shade=True, bold=True, align="center",
                     middle=True, wrap=True),
               Style(cells=f"A{header + 1}:{last}{end}", frame=True, align="center"),
               *(Style(cells=f"{column_letter(c)}{header + 1}:{column_letter(c)}{end}", align="left") for c in _DRAW_LEFT)]
    tables = len(players[0]) - len(_DRAW_WIDTHS)
    widths = (*_DRAW_WIDTHS, *([_DRAW_TABLE_WIDTH] * tables))
    heights += [LINE_PT * max(text_lines(h, w) for h, w in zip(players[0], widths)),
                *([LINE_PT] * (len(players) - 1))]
    page = paper_page(widths, heights, landscape=True)  # the header is 11 pt like the rest: no letter under 8 pt
    page = replace(page, repeat_rows=1, repeat_from=header, breaks=(header - 1,), repeat_cols=1)
    return TabWrite(title=L.tab("draw_report", language), rows=tuple(rows), column_widths=widths,
                    row_heights=tuple(heights), bold_rows=(0,), styles=tuple(styles), page=page)
