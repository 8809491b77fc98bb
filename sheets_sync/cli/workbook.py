"""`init`, `sync` and `watch`: creating the tournament workbook and keeping its results current."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from sheets_sync.backends import open_backend
from sheets_sync.cli.common import (
    backups_option,
    console,
    credentials_option,
    output_option,
    workbook_argument,
)
from sheets_sync.files import out_dir_for

__all__ = ["init", "sync", "watch"]


@click.command()
@workbook_argument
@click.option("--players", "players_csv", required=True, type=click.Path(exists=True, dir_okay=False),
              help="CSV with the Players tab's columns (Игрок/Player, Клуб/Club, Город/City, Статус/Status, Пропуск/Excused).")
@click.option("--preset", default="gmo-2016", show_default=True, help="Preset id from config/ or a path to a .toml file.")
@click.option("--name", default=None, help="Tournament name.")
@click.option("--language", type=click.Choice(["ru", "en"]), default="ru", show_default=True)
@click.option("--date", "date_", default="", help="Tournament date(s), shown on the site and the VK post.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the seating draw.")
@click.option("--force", is_flag=True, help="Overwrite an existing workbook file (Google: replace the tournament's tabs "
              "in a spreadsheet that is not empty).")
@click.option("--share-with", "share_with", multiple=True, metavar="EMAIL",
              help="Google: create a new spreadsheet (also with WORKBOOK gsheet:new) and give EMAIL editor access; "
                   "repeatable.")
@credentials_option
def init(workbook: str, players_csv: str, preset: str, name: str | None, language: str, date_: str, seed: int,
         force: bool, share_with: tuple[str, ...], credentials: str | None) -> None:
    """Create the tournament WORKBOOK: Tournament, Players, Seating, Penalties, one protocol tab per qualifying game.

    WORKBOOK: a new .xlsx path, gsheet:new (a new Google spreadsheet), or gsheet:ID / a spreadsheet URL of an empty
    spreadsheet shared with the service account."""
    from sheets_sync.commands import init_workbook

    init_workbook(workbook, players_csv=Path(players_csv), preset_ref=preset, name=name, language=language,
                  date=date_, seed=seed, force=force, credentials=credentials, share_with=share_with,
                  console=console)


@click.command()
@workbook_argument
@click.option("--out", default=None, help="Folder for standings.json, the site and the VK post (default: beside the workbook).")
@click.option("--dry-run", is_flag=True, help="Compute and report, write nothing.")
@backups_option
@output_option
@credentials_option
def sync(workbook: str, out: str | None, dry_run: bool, backups: int | None, output: str | None,
         credentials: str | None) -> None:
    """Read every protocol, validate, score, rank; write the owned tabs and standings.json."""
    from sheets_sync.commands import run_sync

    code = run_sync(workbook, out_dir=out_dir_for(workbook, out), dry_run=dry_run, credentials=credentials,
                    backups=backups, output=output, console=console)
    sys.exit(code)


@click.command()
@workbook_argument
@click.option("--interval", type=float, default=10.0, show_default=True, help="Seconds between polls.")
@click.option("--out", default=None, help="Folder for standings.json, the site and the VK post.")
@click.option("--cycles", type=int, default=None, hidden=True, help="Stop after this many polls (tests).")
@backups_option
@output_option
@credentials_option
def watch(workbook: str, interval: float, out: str | None, cycles: int | None, backups: int | None,
          output: str | None, credentials: str | None) -> None:
    """Keep the standings up to date while games are played (Ctrl-C stops)."""
    from sheets_sync.watch import run_watch

    try:
        run_watch(open_backend(workbook, credentials=credentials, backups=backups, output=output),
                  out_dir=out_dir_for(workbook, out), interval=interval, cycles=cycles, console=console,
                  workbook=workbook)
    except KeyboardInterrupt:
        console.print("stopped")
