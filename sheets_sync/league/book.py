"""The «Лига» workbook (issue 36 §2): a league file kept as a tab of an .xlsx or a Google sheet
instead of TOML, for an organizer who lives in spreadsheets.

The tab «Лига» (en "League") holds the league-wide settings as label | value rows at the top
(«Лига» — the league's name, «Язык», «Рейтинг», «Серия», «Лучших турниров», «Вывод»), then a
header row «Турнир/сезон | Вид | Звёзд | Название» and one row an event — every key of a TOML
``[[event]]``, columns in any order, labels in either language.  The reader turns the tab into
the very dict a TOML league file loads to and hands it to the one validator,
:func:`sheets_sync.league.league_file.parse_league`; what the validator finds wrong is said naming the
tab and cell («Лига»!B9) instead of the key.

«Вывод» left empty writes the «Рейтинг»/«Серия» tabs into the league workbook itself (TOML
without ``output`` writes none: a text file cannot hold them).  Relative .xlsx paths are
relative to the league workbook's folder (to the current folder for a Google league sheet).
:func:`league_book_tab` is the empty tab ``sheets-sync league --init`` writes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from scoring import labels as L
from scoring.cells import a1
from sheets_sync.backends.base import Grid, PageSetup, Patch, Style, TabWrite
from sheets_sync.league.league_file import FileProblem, LeagueFile, LeagueFileError, parse_league
from sheets_sync.refs import is_google_ref

__all__ = ["LEAGUE_TABS", "SETTING_LABELS", "EVENT_COLUMNS", "KIND_WORDS", "is_league_book", "read_league_book",
           "league_from_grid", "league_book_tab", "init_league_book", "events_rows"]

LEAGUE_TABS = ("Лига", "League")
# TOML key -> spellings of its label (the first Russian one and the first English one are written)
SETTING_LABELS: dict[str, tuple[str, ...]] = {
    "name": ("Лига", "League", "Название лиги", "League name"),
    "language": ("Язык", "Language"),
    "rating": ("Рейтинг", "Rating", "Схема рейтинга", "Rating scheme"),
    "series": ("Серия", "Series", "Схема серии", "Series scheme"),
    "best_n": ("Лучших турниров", "Best events", "Лучших", "Best N", "best_n"),
    "output": ("Вывод", "Output", "Таблица рейтинга", "Rating workbook"),
}
EVENT_COLUMNS: dict[str, tuple[str, ...]] = {
    "workbook": ("Турнир/сезон", "Workbook", "Таблица", "Турнир / сезон", "Event workbook"),
    "kind": ("Вид", "Kind"),
    "stars": ("Звёзд", "Stars", "Звезды"),
    "name": ("Название", "Name"),
}
# the event kinds as an organizer types them (the TOML's own words pass too)
KIND_WORDS = {"турнир": "tournament", "клуб": "club", "клубный": "club", "клубная": "club", "элита": "elite",
              "элитный": "elite", "элитный турнир": "elite", "tournament": "tournament", "club": "club",
              "elite": "elite"}
_LANGUAGE_WORDS = {"ru": "ru", "русский": "ru", "en": "en", "english": "en", "английский": "en"}
_HINTS = {  # the grey third column of the settings the init writes
    "name": ("название лиги на её сайте", "the league's name on its site"),
    "language": ("ru или en: язык сайта и вкладок", "ru or en: the language of the site and tabs"),
    "rating": ("mafiaratings-2025, andrsj-mmr или путь к файлу схемы", "mafiaratings-2025, andrsj-mmr or a scheme file"),
    "series": ("необязательно: mwt-series — очки серии по месту и звёздам",
               "optional: mwt-series — series points by place and stars"),
    "best_n": ("в серии считаются лучшие N турниров игрока (0 — все)", "a player's best N events count (0: all)"),
    "output": ("куда писать «Рейтинг» и «Серия»; пусто — в эту же таблицу",
               "where the Rating and Series tabs go; empty: this workbook"),
}


def is_league_book(ref: str) -> bool:
    """A league kept in a workbook (.xlsx, a Google sheet) rather than a TOML file."""
    return is_google_ref(ref) or Path(ref).suffix.lower() in (".xlsx", ".xlsm")


def _label_key(value: object, labels: Mapping[str, tuple[str, ...]]) -> str | None:
    wanted = L.norm(value)
    return next((key for key, spellings in labels.items() if wanted in {L.norm(s) for s in spellings}), None)


def _value(value: object) -> Any:
    """A cell as the TOML would hold it: whole numbers as int, text trimmed, empty as None."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        if text.lstrip("-").isdigit():
            return int(text)
        return text or None
    return value


@dataclass
class _Reading:
    """What one pass over the tab collects: the dict for the validator, each key's cell, and
    the mistakes only a workbook can make (an unknown label, a column twice)."""

    tab: str
    data: dict[str, Any]
    places: dict[str, str]
    problems: list[FileProblem]

    def cell(self, row: int, col: int) -> str:
        return f"«{self.tab}»!{a1(row, col)}"


def _header_row(grid: Grid) -> int | None:
    for r, row in enumerate(grid):
        if any(_label_key(v, {"workbook": EVENT_COLUMNS["workbook"]}) for v in row):
            return r
    return None


def _read_settings(grid: Grid, end: int, reading: _Reading) -> None:
    for r in range(end):
        row = grid[r]
        if not row or row[0] is None or not str(row[0]).strip():
            continue
        key = _label_key(row[0], SETTING_LABELS)
        if key is None:
            known = ", ".join(f"«{s[0]}»" for s in SETTING_LABELS.values())
            reading.problems.append(FileProblem(reading.cell(r, 0), f"unknown setting «{row[0]}» (one of: {known})",
                                                f"неизвестная настройка «{row[0]}» (допустимы: {known})"))
            continue
        reading.places[key] = reading.cell(r, 1)
        value = _value(row[1]) if len(row) > 1 else None
        if key == "language" and isinstance(value, str):
            value = _LANGUAGE_WORDS.get(L.norm(value), value)
        if value is not None:
            reading.data[key] = value if key == "best_n" else str(value)


def _columns(header: Sequence[object], r: int, reading: _Reading) -> dict[str, int]:
    columns: dict[str, int] = {}
    for c, title in enumerate(header):
        if title is None or not str(title).strip():
            continue
        key = _label_key(title, EVENT_COLUMNS)
        if key is None or key in columns:
            known = ", ".join(f"«{s[0]}»" for s in EVENT_COLUMNS.values())
            en, ru = ((f"«{title}» is a second column for the same thing", f"«{title}» — второй столбец о том же")
                      if key else (f"unknown column «{title}» (one of: {known})", f"неизвестный столбец «{title}» (допустимы: {known})"))
            reading.problems.append(FileProblem(reading.cell(r, c), en, ru))
            continue
        columns[key] = c
    return columns


def _read_events(grid: Grid, header: int, reading: _Reading) -> None:
    columns = _columns(grid[header], header, reading)
    events: list[dict[str, Any]] = []
    for r in range(header + 1, len(grid)):
        row = grid[r]
        values = {key: _value(row[c]) if c < len(row) else None for key, c in columns.items()}
        if all(v is None for v in values.values()):
            continue  # a blank row between events
        event: dict[str, Any] = {k: v for k, v in values.items() if v is not None}
        if isinstance(event.get("kind"), str):
            event["kind"] = KIND_WORDS.get(L.norm(event["kind"]), event["kind"])
        event = {k: str(v) if k in ("workbook", "name") else v for k, v in event.items()}
        events.append(event)
        i = len(events)
        for key, c in columns.items():
            reading.places[f"event[{i}].{key}"] = reading.cell(r, c)
        for key in EVENT_COLUMNS.keys() - columns.keys():  # a column the tab lacks: the event's row
            reading.places[f"event[{i}].{key}"] = f"«{reading.tab}»!{r + 1}:{r + 1}"
        reading.places[f"event[{i}]"] = f"«{reading.tab}»!{r + 1}:{r + 1}"
    if events:
        reading.data["event"] = events


def _in_cells(problem: FileProblem, reading: _Reading, header: int | None) -> FileProblem:
    """A validator's problem named by the cell it is about («Лига»!C9 (event[2].stars))."""
    if problem.key == "event":
        where = reading.cell(header, 0) if header is not None else f"«{reading.tab}»"
        titles = " | ".join(s[0] for s in EVENT_COLUMNS.values())
        return FileProblem(where, f"no events: list them in rows under a header «{titles}»",
                           f"нет турниров: перечислите их строками под заголовком «{titles}»")
    cell = reading.places.get(problem.key)
    if cell is None:  # a setting never typed (its default was fine) cannot be wrong: keep the key
        return problem
    ru = problem.ru
    if problem.key.endswith(".kind"):  # the tab's own words for the kinds
        ru = ru.split(" — ")[0] + " — не один из видов: турнир, клуб, элита"
    return FileProblem(f"{cell} ({problem.key})", problem.en, ru)


def league_from_grid(grid: Grid, *, tab: str, source: str, base_dir: Path, own_ref: str | None = None) -> LeagueFile:
    """The «Лига» tab ``grid`` as a league (``own_ref``: the league workbook, where the rating
    tabs go when «Вывод» is empty); every mistake at once, each naming its cell."""
    reading = _Reading(tab=tab, data={}, places={}, problems=[])
    header = _header_row(grid)
    _read_settings(grid, len(grid) if header is None else header, reading)
    if header is not None:
        _read_events(grid, header, reading)
    if not any(L.norm(tab) == L.norm(t) for t in LEAGUE_TABS[:1]) and "language" not in reading.data:
        reading.data["language"] = "en"  # a «League» tab speaks English unless it says otherwise
    try:
        file = parse_league(reading.data, source=source, base_dir=base_dir)
    except LeagueFileError as exc:
        if not exc.problems:
            raise
        reading.problems += [_in_cells(p, reading, header) for p in exc.problems]
    if reading.problems:
        said = reading.data.get("language")
        raise LeagueFileError.of(source, reading.problems, language=said if said in ("ru", "en") else None)
    if file.output is None and own_ref is not None:
        file = replace(file, output=own_ref)
    return replace(file, places=dict(reading.places))


def _league_tab(tabs: Mapping[str, Grid]) -> str | None:
    wanted = {L.norm(t) for t in LEAGUE_TABS}
    return next((title for title in tabs if L.norm(title) in wanted), None)


def read_league_book(ref: str, *, credentials: str | None = None) -> LeagueFile:
    """The league kept in workbook ``ref`` (an .xlsx path or a Google sheet reference)."""
    from sheets_sync.backends import open_backend

    source = ref if is_google_ref(ref) else Path(ref).name
    snapshot = open_backend(ref, credentials=credentials).read()
    tab = _league_tab(snapshot.tabs)
    if tab is None:
        raise LeagueFileError.of(source, [FileProblem(
            "", "no tab «Лига» (League): create the workbook with `sheets-sync league --init FILE` or add the tab",
            "нет вкладки «Лига»: создайте таблицу командой `sheets-sync league --init FILE` или добавьте вкладку")])
    base_dir = Path.cwd() if is_google_ref(ref) else Path(ref).resolve().parent
    own = ref if is_google_ref(ref) else str(Path(ref).resolve())
    return league_from_grid(snapshot.tabs[tab], tab=tab, source=source, base_dir=base_dir, own_ref=own)


# -- writing the tab -------------------------------------------------------------------------------------
def events_rows(events: Sequence[tuple[str, str, int | None, str]], language: str) -> list[tuple[object, ...]]:
    """Event rows (workbook, kind, stars, name) as the tab spells them."""
    words = {"tournament": "турнир", "club": "клуб", "elite": "элита"}
    return [(wb, words.get(kind, kind) if language == "ru" else kind, stars, name or None)
            for wb, kind, stars, name in events]


def league_book_tab(language: str = "ru", *, settings: Mapping[str, object] | None = None,
                    events: Sequence[tuple[str, str, int | None, str]] = ()) -> TabWrite:
    """The «Лига» tab: the settings (``settings`` by TOML key; the defaults when None) with a
    hint each, a blank row, the events' header and ``events`` (workbook, kind, stars, name)."""
    pick = 0 if language == "ru" else 1
    values = {"name": "", "language": language, "rating": "mafiaratings-2025", "series": None, "best_n": 0,
              "output": None} | dict(settings or {})
    rows: list[tuple[object, ...]] = [(SETTING_LABELS[key][pick], values.get(key), _HINTS[key][pick])
                                      for key in SETTING_LABELS]
    rows.append(())
    rows.append(tuple(spellings[pick] for spellings in EVENT_COLUMNS.values()))
    rows += events_rows(events, language)
    header = len(SETTING_LABELS) + 1
    # on paper: landscape, every column on one page width (the paths are long, the hints longer)
    return TabWrite(title=LEAGUE_TABS[pick], rows=tuple(rows), owned=False, column_widths=(28, 40, 16, 44),
                    bold_rows=(header,), frozen_rows=header + 1, page=PageSetup(landscape=True),
                    styles=(Style(cells=f"C1:C{len(SETTING_LABELS)}", muted=True),
                            Style(cells=f"B1:B{len(SETTING_LABELS)}", align="left")))


def init_league_book(ref: str, *, language: str = "ru", credentials: str | None = None) -> str:
    """Create workbook ``ref`` with an empty «Лига» tab (refused when it exists and has one)."""
    from sheets_sync.backends import open_backend

    exists = is_google_ref(ref) or Path(ref).exists()
    backend = open_backend(ref, credentials=credentials, must_exist=False)
    snapshot = backend.read() if exists else None
    there = None if snapshot is None else _league_tab(snapshot.tabs)
    if there is not None:
        raise LeagueFileError.of(ref, [FileProblem("", f"already has the tab «{there}»", f"уже есть вкладка «{there}»")])
    backend.apply(Patch(writes=(league_book_tab(language),)), base=snapshot)
    return ref
