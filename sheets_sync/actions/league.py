"""`sheets-sync league FILE`: the league's rating over many workbooks, as one click-free action.

Reads the league file and every event's workbook (the cache in ``OUT/.league-cache`` keeps what
did not change), replays the rating, and writes ``OUT/league.json``, the league site
``OUT/site/`` and — when the file names ``output`` — the «Рейтинг» tab (and «Серия» with a
series) into that workbook.  Those tabs are the league's own: a tab of that name that the league
did not write (its first cell is not the league's header) is never overwritten.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from scoring.errors import SheetsSyncError
from sheets_sync.backends.base import Grid, Patch, TabWrite
from sheets_sync.league.league_file import League, LeagueFile, build_league, load_league
from sheets_sync.refs import is_google_ref

__all__ = ["LeagueRun", "LeagueOutputRefused", "run_league", "rating_tab", "series_tab", "TAB_TITLES", "HEADER",
           "load_any_league", "init_league", "TOML_TEMPLATE"]

TOML_TEMPLATE = """# A league: `sheets-sync league {name}` (docs: README, «A league»)
name = ""
language = "{language}"
rating = "mafiaratings-2025"   # or andrsj-mmr, or the path of a scheme .toml
# series = "mwt-series"        # MWT points by place, stars and field
# best_n = 2                   # a player's best N events count in the series
# output = "rating.xlsx"       # the «Рейтинг» and «Серия» tabs go there

# one [[event]] a tournament or season:
# [[event]]
# workbook = "stage-1.xlsx"    # relative to this file, or a Google Sheets link
# kind = "tournament"          # club / tournament / elite
# stars = 2
"""

TAB_TITLES = {"ru": ("Рейтинг", "Серия"), "en": ("Rating", "Series")}
HEADER = {"ru": "Рейтинг лиги (sheets-sync league)", "en": "League rating (sheets-sync league)"}
_COLUMNS = {"ru": ("Место", "Игрок", "Рейтинг", "За игру", "За турнир/вечер", "Красные", "Чёрные", "Игр", "Побед"),
            "en": ("Place", "Player", "Rating", "Last game", "Last event", "Red", "Black", "Games", "Wins")}
_SERIES_COLUMNS = {"ru": ("Место", "Игрок", "Баллы", "Турниров", "Зачтено"),
                   "en": ("Place", "Player", "Points", "Events", "Counted")}


class LeagueOutputRefused(SheetsSyncError):
    """The output workbook has a tab of the league's name that the league did not write."""


@dataclass(frozen=True)
class LeagueRun:
    league: League
    written: tuple[Path, ...]
    output_tabs: tuple[str, ...] = ()  # tabs written into the file's ``output`` workbook


def rating_tab(league: League) -> Grid:
    """The «Рейтинг» tab: the listed players, then those below the minimum (no place)."""
    from sheets_sync.render.league_site import rating_rows

    lang = league.file.language
    rows: list[tuple] = [(f"{HEADER[lang]}: {league.file.name}",), _COLUMNS[lang]]
    for r in rating_rows(league):
        rows.append((r["place"] or "", r["player"], float(r["rating"]), float(r["last_game"]), float(r["last_event"]),
                     float(r["red"]), float(r["black"]), r["games"], r["wins"]))
    return tuple(rows)


def series_tab(league: League) -> Grid:
    lang = league.file.language
    rows: list[tuple] = [(f"{HEADER[lang]}: {league.file.name}",), _SERIES_COLUMNS[lang]]
    for p in league.series or ():
        rows.append((p.place, p.entry.player, float(p.entry.points), p.entry.events, len(p.entry.counted)))
    return tuple(rows)


def _write_output(league: League, ref: str, credentials: str | None) -> tuple[str, ...]:
    from sheets_sync.backends import open_backend

    lang = league.file.language
    titles = TAB_TITLES[lang]
    writes = [TabWrite(title=titles[0], rows=rating_tab(league), owned=True, frozen_rows=2, bold_rows=(0, 1),
                       column_widths=(7, 24, 10, 10, 14, 10, 10, 7, 7))]
    if league.series is not None:
        writes.append(TabWrite(title=titles[1], rows=series_tab(league), owned=True, frozen_rows=2, bold_rows=(0, 1),
                               column_widths=(7, 24, 10, 10, 10)))
    exists = is_google_ref(ref) or Path(ref).exists()
    backend = open_backend(ref, credentials=credentials, must_exist=False)
    snapshot = backend.read() if exists else None
    for w in writes:
        grid = snapshot.tabs.get(w.title) if snapshot is not None else None
        if grid and not (grid[0] and str(grid[0][0] or "").startswith(HEADER[lang])):
            raise LeagueOutputRefused(f"{ref}: the tab «{w.title}» was not written by the league; "
                                      "rename it or choose another output workbook")
    backend.apply(Patch(writes=tuple(writes)), base=snapshot)
    return tuple(w.title for w in writes)


def load_any_league(path: str | Path, *, credentials: str | None = None) -> LeagueFile:
    """The league of FILE: a TOML file, or a «Лига» workbook (.xlsx or a Google sheet) — two
    readers, one validated :class:`LeagueFile`."""
    from sheets_sync.league.book import is_league_book, read_league_book

    ref = str(path)
    if is_league_book(ref):
        return read_league_book(ref, credentials=credentials)
    return load_league(Path(ref))


def init_league(path: str | Path, *, language: str = "ru", credentials: str | None = None) -> str:
    """A new, empty league FILE: a workbook with the «Лига» tab, or a commented TOML file
    (refused when the TOML file or the workbook's «Лига» tab is already there)."""
    from sheets_sync.league.league_file import FileProblem, LeagueFileError
    from sheets_sync.league.book import init_league_book, is_league_book

    ref = str(path)
    if is_league_book(ref):
        return init_league_book(ref, language=language, credentials=credentials)
    if Path(ref).exists():
        raise LeagueFileError.of(Path(ref).name, [FileProblem("", "already exists", "уже существует")])
    Path(ref).write_text(TOML_TEMPLATE.format(name=Path(ref).name, language=language), encoding="utf-8")
    return ref


def run_league(path: str | Path, *, out: str | Path | None = None, credentials: str | None = None) -> LeagueRun:
    """Everything `sheets-sync league FILE` does; ``out`` defaults to ``league/`` beside the file
    (FILE: league.toml or a «Лига» workbook)."""
    from sheets_sync.render.league_site import write_league_outputs

    file = load_any_league(path, credentials=credentials)
    out_dir = Path(out) if out else file.base_dir / "league"
    league = build_league(file, cache=out_dir / ".league-cache", credentials=credentials)
    written = write_league_outputs(league, out_dir)
    tabs: tuple[str, ...] = ()
    if file.output:
        ref = file.output if is_google_ref(file.output) or Path(file.output).is_absolute() \
            else str(file.base_dir / file.output)
        tabs = _write_output(league, ref, credentials)
    return LeagueRun(league, tuple(written), tabs)
