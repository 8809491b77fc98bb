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
    return ref.startswith(("gsheet:", "https://docs.google.com/", "http://docs.google.com/", "docs.google.com/"))


def open_backend(ref: str, *, credentials: str | None = None, backups: int | None = None,
                 output: str | None = None) -> Backend:
    if backups is None or output is None:  # `sync`/`watch` options reach run_sync's call too
        ctx = click.get_current_context(silent=True)
        params = ctx.params if ctx is not None else {}
        backups = params.get("backups") if backups is None else backups
        output = params.get("output") if output is None else output
    if is_google_ref(ref):
        from sheets_sync.backends.google import GoogleBackend

        backend: Backend = GoogleBackend(ref, credentials=credentials)
    else:
        from sheets_sync.backends.excel import DEFAULT_BACKUPS, ExcelBackend

        backend = ExcelBackend(ref, backups=DEFAULT_BACKUPS if backups is None else backups)
    if output:
        from sheets_sync.backends.excel import DEFAULT_BACKUPS, OutputWorkbookBackend

        if not is_google_ref(ref) and Path(output).resolve() == Path(ref).resolve():
            raise click.UsageError("--output must be a different file from the workbook")
        backend = OutputWorkbookBackend(backend, output, backups=DEFAULT_BACKUPS if backups is None else backups)
    return backend


def out_dir_for(ref: str, out: str | None) -> Path:
    if out:
        return Path(out)
    if is_google_ref(ref):
        return Path.cwd() / "sheets-sync-output"
    return Path(ref).resolve().parent


backups_option = click.option("--backups", type=click.IntRange(min=0), default=None,
                              help="Keep this many previous versions of an .xlsx in sheets-sync-backups/ beside it "
                                   "(default 5; 0: none).")
output_option = click.option("--output", type=click.Path(dir_okay=False), default=None,
                             help="Write the results tabs to this separate .xlsx instead of into the workbook "
                                  "(for workbooks with shapes or Excel 2010+ features openpyxl cannot keep).")
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

    try:
        init_workbook(workbook, players_csv=Path(players_csv), preset_ref=preset, name=name, language=language,
                      date=date_, seed=seed, force=force, credentials=credentials, share_with=share_with,
                      console=console)
    except (BackendError, PresetError, ValueError) as exc:
        err_console.print(f"[red]error:[/red] {exc}")
        sys.exit(2)


@main.command()
@click.argument("workbook")
@click.option("--out", default=None, help="Folder for standings.json, the site and the VK post (default: beside the workbook).")
@click.option("--dry-run", is_flag=True, help="Compute and report, write nothing.")
@backups_option
@output_option
@credentials_option
def sync(workbook: str, out: str | None, dry_run: bool, backups: int | None, output: str | None,
         credentials: str | None) -> None:
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
@backups_option
@output_option
@credentials_option
def watch(workbook: str, interval: float, out: str | None, cycles: int | None, backups: int | None,
          output: str | None, credentials: str | None) -> None:
    """Keep the standings up to date while games are played (Ctrl-C stops)."""
    from sheets_sync.watch import run_watch

    try:
        run_watch(open_backend(workbook, credentials=credentials, backups=backups, output=output),
                  out_dir=out_dir_for(workbook, out), interval=interval,
                  cycles=cycles, console=console)
    except KeyboardInterrupt:
        console.print("stopped")
    except (BackendError, PresetError) as exc:
        err_console.print(f"[red]error:[/red] {exc}")
        sys.exit(2)
import sheets_sync.cli_publish  # noqa: E402,F401


# -- the draw and later stages ------------------------------------------------------------------
@main.command()
@click.argument("workbook")
@click.option("--seed", type=int, default=1, show_default=True, help="Same seed, same draw.")
@click.option("--time-limit", type=float, default=None, help="Stop optimising after this many seconds.")
@click.option("--force", is_flag=True, help="Draw again even though protocols were already typed.")
@click.option("--language", type=click.Choice(["ru", "en"]), default=None, help="Language of the printed report (default: the tournament's).")
@credentials_option
def draw(workbook: str, seed: int, time_limit: float | None, force: bool, language: str | None, credentials: str | None) -> None:
    """Draw the qualifying seating: balanced opponents, seats, clubs apart; fill Seating and the protocol tabs."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from sheets_sync.draw_commands import CommandRefused, draw_workbook

    try:
        with Progress(TextColumn("draw"), BarColumn(), TextColumn("Σc² {task.fields[ssq]} (bound {task.fields[bound]})"),
                      TimeElapsedColumn(), console=err_console, transient=True) as bar:
            task = bar.add_task("draw", total=1.0, ssq="…", bound="…")

            def progress(done: float, ssq: int, bound: int) -> None:
                bar.update(task, completed=done, ssq=ssq, bound=bound)

            result = draw_workbook(open_backend(workbook, credentials=credentials), seed=seed, time_limit=time_limit,
                                   force=force, progress=progress)
    except (CommandRefused, BackendError, PresetError) as exc:
        err_console.print(f"[red]not drawn:[/red] {exc}")
        sys.exit(2)
    for line in result.draw.report.text_lines(language or result.language):
        console.print(line, soft_wrap=True)
    console.print(f"seating written: {len(result.entries)} games")


@main.command()
@click.argument("workbook")
@click.option("--stage", default=None, help="Stage key to seat (default: the next one not seated yet).")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--force", is_flag=True, help="Seat even though the previous stage has missing or broken games.")
@credentials_option
def advance(workbook: str, stage: str | None, seed: int, force: bool, credentials: str | None) -> None:
    """Seat the next stage (semifinal, final) from the standings and add its protocol tabs."""
    from sheets_sync.draw_commands import CommandRefused, advance_workbook

    try:
        result = advance_workbook(open_backend(workbook, credentials=credentials), seed=seed, force=force, stage=stage)
    except (CommandRefused, BackendError, PresetError) as exc:
        err_console.print(f"[red]not advanced:[/red] {exc}")
        sys.exit(2)
    players = sorted({n for e in result.entries for n in e.players if n})
    console.print(f"{result.stage}: {len(players)} players, {len(result.entries)} games seated: {', '.join(players)}")


@main.command("replace")
@click.argument("workbook")
@click.argument("player")
@click.option("--stage", default=None, help="Stage key (default: the latest stage the player is seated in).")
@credentials_option
def replace_cmd(workbook: str, player: str, stage: str | None, credentials: str | None) -> None:
    """Replace PLAYER (e.g. late for the semifinal) by the next one in the ranking."""
    from sheets_sync.draw_commands import CommandRefused, replace_player

    try:
        newcomer, result = replace_player(open_backend(workbook, credentials=credentials), player=player, stage=stage)
    except (CommandRefused, BackendError, PresetError) as exc:
        err_console.print(f"[red]not replaced:[/red] {exc}")
        sys.exit(2)
    console.print(f"{result.stage}: {player} → {newcomer} in {len(result.entries)} games")


if __name__ == "__main__":  # pragma: no cover
    main()
