"""What a new organizer makes on the first day (issue 43 §7–§9): a 40-player cup with his own
nicknames — «Чеширский Кот» and «Гроссмейстер» among the winners —, a club season whose players
include «Гроссмейстер», each synced as `sheets-sync sync` does into the workbook's own folder.

The cup is the bundled example played again with two nicknames changed (the same seed: the same
games, so the same winners under the new names); the season is made with `init --season` and
`evening` and typed into as a judge types. Screenshots of what they show go to
tests/artifacts/newcomer/.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.files import output_folder
from sheets_sync.loop.sync import sync_once

ARTIFACTS = Path(__file__).resolve().parent / "artifacts" / "newcomer"
LONG_NAMES = {"Пума": "Чеширский Кот", "Рубин": "Гроссмейстер"}
SEASON_PLAYERS = "Гроссмейстер Борис Вера Глеб Дина Егор Жанна Зоя Иван Кира".split()


def newcomer_cup(path: Path, *, rounds_played: int | None = None) -> Path:
    """The example tournament with the nicknames of :data:`LONG_NAMES` at ``path`` (finished, or as it
    stood after ``rounds_played`` qualifying rounds)."""
    import sheets_sync.example as example

    names = list(example.NICKNAMES)
    try:
        example.NICKNAMES[:] = [LONG_NAMES.get(n, n) for n in names]
        if rounds_played is None:
            return example.build_example(path)
        full = example.build_example(path.with_name(path.stem + "-full.xlsx"))
        return example.example_mid_qualifying(path, rounds_played=rounds_played, source=full)
    finally:
        example.NICKNAMES[:] = names


def synced(workbook: Path) -> Path:
    """Sync ``workbook`` as the command does; its output folder."""
    out = output_folder(str(workbook))
    sync_once(ExcelBackend(workbook), out_dir=out)
    return out


def newcomer_season(folder: Path) -> Path:
    """A club season made as the README shows (init --season, evening), with one evening of two games
    typed in; «Гроссмейстер» played both."""
    from tests.test_season import GAMES
    from tests.test_season_cli import _cli, _csv, typed_block
    from tests.judge import ExcelDesk

    players = _csv(folder / "players.csv", SEASON_PLAYERS)
    book = folder / "club.xlsx"
    _cli("init", str(book), "--season", "--players", str(players), "--preset", "club-season", "--name", "Клуб «Ночь»")
    games = [dataclasses.replace(g, seats=tuple(dataclasses.replace(r, player="Гроссмейстер") if r.player == "Анна"
                                                else r for r in g.seats)) for g in GAMES[:2]]
    _cli("evening", str(book), "--date", "2026-12-05", "--games", "2")
    desk = ExcelDesk(book)
    grid = desk.grid("05.12.2026")
    desk.type({("05.12.2026", cell): text for i, g in enumerate(games) for cell, text in typed_block(grid, i, g).items()})
    return book


def fresh_artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS

