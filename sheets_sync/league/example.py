"""The example league (``examples/league/``): three tournaments played by the bundled example's
40 players with other seeds, a few weeks apart, and the league file that rates them with a
series over them — as ``league.toml`` and as the same league in a «Лига» workbook
(``league.xlsx``, whose «Рейтинг»/«Серия» tabs go into itself).  Regenerate with
``python -m sheets_sync.league.example``."""

from __future__ import annotations

from pathlib import Path

from sheets_sync.backends.base import Patch, TabWrite
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.example import build_example

__all__ = ["EXAMPLE_LEAGUE", "STAGES", "build_example_league", "write_example_league_book", "LEAGUE_FILE",
           "LEAGUE_SETTINGS"]

EXAMPLE_LEAGUE = Path(__file__).resolve().parents[2] / "examples" / "league"
# (file, the tournament's name, its date, the simulator's seed, kind, stars)
STAGES = (("stage-1.xlsx", "Кубок Рейна, этап 1", "14.03.2026", 2101, "tournament", 2),
          ("stage-2.xlsx", "Кубок Рейна, этап 2", "11.04.2026", 2102, "tournament", 2),
          ("final.xlsx", "Кубок Рейна, финал", "16.05.2026", 2103, "elite", 3))

LEAGUE_FILE = '''# The example league: `sheets-sync league examples/league/league.toml`
name = "Кубок Рейна 2026"
language = "ru"
rating = "mafiaratings-2025"   # or a path to a club's own scheme file (config/ratings/*.toml)
series = "mwt-series"          # the Mafia World Tour's points by place, stars and field
best_n = 2                     # each player's best two stages count
output = "rating.xlsx"         # the «Рейтинг» and «Серия» tabs go here (optional)
'''


# the same league-wide settings for the «Лига» workbook (its rating tabs go into itself: no output)
LEAGUE_SETTINGS = {"name": "Кубок Рейна 2026", "language": "ru", "rating": "mafiaratings-2025",
                   "series": "mwt-series", "best_n": 2}


def write_example_league_book(folder: Path = EXAMPLE_LEAGUE) -> Path:
    """``league.xlsx``: the example league as a «Лига» workbook (the workbooks must be in ``folder``)."""
    from sheets_sync.league.book import league_book_tab

    path = folder / "league.xlsx"
    if path.exists():
        path.unlink()
    tab = league_book_tab("ru", settings=LEAGUE_SETTINGS,
                          events=[(file, kind, stars, "") for file, _, _, _, kind, stars in STAGES])
    ExcelBackend(path, backups=0).apply(Patch(writes=(tab,)), base=None)
    return path


def _event(name: str, kind: str, stars: int) -> str:
    return f'\n[[event]]\nworkbook = "{name}"\nkind = "{kind}"\nstars = {stars}\n'


def build_example_league(folder: Path = EXAMPLE_LEAGUE) -> Path:
    """The three workbooks and league.toml in ``folder``; the league file's path."""
    folder.mkdir(parents=True, exist_ok=True)
    text = LEAGUE_FILE
    for file, name, date, seed, kind, stars in STAGES:
        path = build_example(folder / file, seed=seed)
        # the Tournament tab's name and date, typed as an organizer would (rows 1 and 5, column B)
        typed = ((None, name), (None, None), (None, None), (None, None), (None, date))
        ExcelBackend(path, backups=0).apply(Patch(writes=(TabWrite(title="Турнир", rows=typed, owned=False),)),
                                           base=None)
        text += _event(file, kind, stars)
    (folder / "league.toml").write_text(text, encoding="utf-8")
    write_example_league_book(folder)
    return folder / "league.toml"


if __name__ == "__main__":  # pragma: no cover
    print(build_example_league())
