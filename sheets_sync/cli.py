"""The `sheets-sync` command line: init, sync, watch and friends.

A WORKBOOK is a path to an .xlsx file, a Google Sheets URL, or `gsheet:ID`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.console import Console

from scoring.preset import PresetError
from sheets_sync.backends.base import Backend, BackendError

__all__ = ["main", "open_backend"]

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


def is_google_ref(ref: str) -> bool:
    return ref.startswith(("gsheet:", "https://docs.google.com/", "http://docs.google.com/"))


def open_backend(ref: str, *, credentials: str | None = None, backups: int | None = None) -> Backend:
    if is_google_ref(ref):
        from sheets_sync.backends.google import GoogleBackend

        return GoogleBackend(ref, credentials=credentials)
    from sheets_sync.backends.excel import ExcelBackend

    return ExcelBackend(ref)


def out_dir_for(ref: str, out: str | None) -> Path:
    if out:
        return Path(out)
    if is_google_ref(ref):
        return Path.cwd() / "sheets-sync-output"
    return Path(ref).resolve().parent


credentials_option = click.option("--credentials", type=click.Path(dir_okay=False), default=None,
                                  help="Google service-account JSON (default: $GOOGLE_APPLICATION_CREDENTIALS).")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sheets-sync")
def main() -> None:
    """Tournament tabulation for sport mafia (FIIM rules) inside your spreadsheet."""


@main.command()
@click.argument("workbook")
@click.option("--players", "players_csv", required=True, type=click.Path(exists=True, dir_okay=False),
              help="CSV with the Players tab's columns (Игрок/Player, Клуб/Club, Город/City, Статус/Status, Пропуск/Excused).")
@click.option("--preset", default="gmo-2016", show_default=True, help="Preset id from config/ or a path to a .toml file.")
@click.option("--name", default=None, help="Tournament name.")
@click.option("--language", type=click.Choice(["ru", "en"]), default="ru", show_default=True)
@click.option("--date", "date_", default="", help="Tournament date(s), shown on the site and the VK post.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the seating draw.")
@click.option("--force", is_flag=True, help="Overwrite an existing workbook file.")
@credentials_option
def init(workbook: str, players_csv: str, preset: str, name: str | None, language: str, date_: str, seed: int,
         force: bool, credentials: str | None) -> None:
    """Create the tournament WORKBOOK: Tournament, Players, Seating, Penalties, one protocol tab per qualifying game."""
    from sheets_sync.commands import init_workbook

    try:
        init_workbook(workbook, players_csv=Path(players_csv), preset_ref=preset, name=name, language=language,
                      date=date_, seed=seed, force=force, credentials=credentials, console=console)
    except (BackendError, PresetError, ValueError) as exc:
        err_console.print(f"[red]error:[/red] {exc}")
        sys.exit(2)


@main.command()
@click.argument("workbook")
@click.option("--out", default=None, help="Folder for standings.json, the site and the VK post (default: beside the workbook).")
@click.option("--dry-run", is_flag=True, help="Compute and report, write nothing.")
@credentials_option
def sync(workbook: str, out: str | None, dry_run: bool, credentials: str | None) -> None:
    """Read every protocol, validate, score, rank; write the owned tabs and standings.json."""
    from sheets_sync.commands import run_sync

    try:
        code = run_sync(workbook, out_dir=out_dir_for(workbook, out), dry_run=dry_run, credentials=credentials, console=console)
    except (BackendError, PresetError) as exc:
        err_console.print(f"[red]error:[/red] {exc}")
        sys.exit(2)
    sys.exit(code)


@main.command()
@click.argument("workbook")
@click.option("--interval", type=float, default=10.0, show_default=True, help="Seconds between polls.")
@click.option("--out", default=None, help="Folder for standings.json, the site and the VK post.")
@click.option("--cycles", type=int, default=None, hidden=True, help="Stop after this many polls (tests).")
@credentials_option
def watch(workbook: str, interval: float, out: str | None, cycles: int | None, credentials: str | None) -> None:
    """Keep the standings up to date while games are played (Ctrl-C stops)."""
    from sheets_sync.watch import run_watch

    try:
        run_watch(open_backend(workbook, credentials=credentials), out_dir=out_dir_for(workbook, out), interval=interval,
                  cycles=cycles, console=console)
    except KeyboardInterrupt:
        console.print("stopped")
    except (BackendError, PresetError) as exc:
        err_console.print(f"[red]error:[/red] {exc}")
        sys.exit(2)


if __name__ == "__main__":  # pragma: no cover
    main()
