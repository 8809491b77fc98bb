"""`init`, `sync` and `watch`: creating the tournament workbook and keeping its results current."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from click.core import ParameterSource

from sheets_sync.cli.common import (
    EXIT_ERRORS_LEFT,
    EXIT_WORKBOOK_LOCKED,
    backups_option,
    console,
    credentials_option,
    err_console,
    protect_password_option,
    language_option,
    open_backend,
    output_option,
    pinned_language,
    speaking,
    tournament_language,
    workbook_argument,
)
from sheets_sync.cli.localized import Command
from sheets_sync.files import out_dir_for
from sheets_sync.messages import shell_word

__all__ = ["init", "sync", "watch"]

# init's options a command for another format repeats when the organizer typed them
_REPEATED = ("players_csv", "preset", "name", "language", "date_", "seed", "force", "share_with", "organizers",
             "credentials")


def _init_command(ctx: click.Context, workbook: str):
    """The exact ``init`` command for another qualifying format: what the organizer typed,
    with --games (and --tables when not the default) of that format."""
    from sheets_sync.actions.draw import default_tables

    typed: list[str] = ["sheets-sync", "init", workbook]
    for param in ctx.command.params:
        if param.name not in _REPEATED or ctx.get_parameter_source(param.name) is not ParameterSource.COMMANDLINE:
            continue
        value = ctx.params[param.name]
        flag = max(param.opts, key=len)
        if isinstance(value, bool):
            typed += [flag] if value else []
        elif isinstance(value, tuple):
            for v in value:
                typed += [flag, str(v)]
        else:
            typed += [flag, str(value)]

    def command(fmt, _language: str) -> str:
        words = typed + ["--games", str(fmt.games)]
        if fmt.tables != default_tables(fmt.players):
            words += ["--tables", str(fmt.tables)]
        return " ".join(shell_word(w) for w in words)

    return command


@click.command(cls=Command)
@workbook_argument
@click.option("--players", "players_csv", default=None, type=click.Path(exists=True, dir_okay=False),
              help="CSV with the Players tab's columns (Игрок/Player, Клуб/Club, Город/City, Статус/Status, Пропуск/Excused); "
                   "with --registration optional.")
@click.option("--registration", is_flag=True, help="The players apply: the Players tab gets «Заявка», «Подана», "
              "«Прибыл», the Tournament tab the places, the registration's deadline, the start, the draw's time and "
              "the time zone; no seating until `sheets-sync draw`.")
@click.option("--places", type=click.IntRange(min=1), default=None, help="With --registration: the number of places.")
@click.option("--preset", default="gmo-2016", show_default=True,
              help="Shipped preset id (gmo-2016, fiim-2019, fiim-2023; the example schemes club-season, "
                   "club-season-average, club-evening, team-asymmetric) or a path to a .toml file (written on the "
                   "Tournament tab as a path from the workbook's folder: keep the file beside the workbook).")
@click.option("--games", type=click.IntRange(min=1), default=None,
              help="Qualifying games each player plays (default: the preset's rounds).")
@click.option("--rounds", type=click.IntRange(min=1), default=None,
              help="Qualifying rounds (the same as --games when nobody rests).")
@click.option("--tables", type=click.IntRange(min=1), default=None,
              help="Tables a round (default: players/10; fewer: more players rest each round; one more: reserves "
                   "fill the empty seats).")
@click.option("--name", default=None, help="Tournament name.")
@language_option(default="ru", expose_value=True,
                 help="Language of the tournament: its tabs, outputs and these messages.")
@click.option("--date", "date_", default="", help="Tournament date(s), shown on the site and the VK post.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the seating draw.")
@click.option("--force", is_flag=True, help="Overwrite an existing workbook file (Google: replace the tournament's tabs "
              "in a spreadsheet that is not empty).")
@click.option("--share-with", "share_with", multiple=True, metavar="EMAIL",
              help="Google: create a new spreadsheet (also with WORKBOOK gsheet:new) and give EMAIL editor access; "
                   "repeatable.")
@click.option("--organizer", "organizers", multiple=True, metavar="EMAIL",
              help="Google: EMAIL may edit the tabs the sync writes (with the sync itself, nobody else may); written "
                   "to the Tournament tab's «Организаторы» and given editor access like --share-with; repeatable.")
@click.option("--season", is_flag=True, help="A club season instead of a tournament: Tournament («Формат: сезон»), "
              "Players, Penalties; no draw, no seating. Add each evening with `sheets-sync evening`; a row typed into "
              "the Players tab later is a player.")
@protect_password_option
@credentials_option
@click.pass_context
def init(ctx: click.Context, workbook: str, players_csv: str | None, registration: bool, places: int | None,
         preset: str, games: int | None, rounds: int | None,
         tables: int | None, name: str | None, language: str, date_: str, seed: int, force: bool,
         share_with: tuple[str, ...], organizers: tuple[str, ...], season: bool, protect_password: str | None,
         credentials: str | None) -> None:
    """Create the tournament WORKBOOK: Tournament, Players, Seating, Penalties, one protocol tab per qualifying game.

    WORKBOOK: a new .xlsx path, gsheet:new (a new Google spreadsheet), or gsheet:ID / a spreadsheet URL of an empty
    spreadsheet shared with the service account.  When the players, --games and --tables do not fit (everybody must
    play the same number of games), init lists the nearest formats that do, each as the command to run."""
    from sheets_sync.actions.init import QualifyingRequest, init_workbook

    name = name or _asked_name(workbook, speaking(language))
    request = QualifyingRequest(games=games, rounds=rounds, tables=tables, command=_init_command(ctx, workbook))
    init_workbook(workbook, players_csv=Path(players_csv) if players_csv else None, preset_ref=preset, name=name, language=language,
                  date=date_, seed=seed, force=force, credentials=credentials, share_with=share_with,
                  console=console, qualifying=request, organizers=organizers, season=season,
                  protect_password=protect_password, registration=registration, places=places)


def _asked_name(workbook: str, language: str) -> str | None:
    """The title of a new .xlsx when --name is not given (issue 43 §8: a season made as the README
    shows was titled «club»): asked at a terminal, the file name written as a person would write it
    offered as the answer; from a script that title, said with how to change it. A Google sheet
    keeps the action's own default."""
    from sheets_sync.messages import text
    from sheets_sync.refs import is_google_ref
    from sheets_sync.workbook.tournament_setup import title_from_file_name

    if is_google_ref(workbook):
        return None
    title = title_from_file_name(Path(workbook).stem)
    if sys.stdin.isatty() and sys.stdout.isatty():
        return click.prompt(text("init.name_prompt", language), default=title).strip() or title
    console.print(text("init.name_default", language, name=title), markup=False)
    return title


def _out_dir(workbook: str, out: str | None, *, dry_run: bool = False) -> Path:
    """The output folder of ``sync`` and ``watch``; the outputs of the layout before each workbook
    had a folder of its own are moved into it first, saying so in one line (not by a dry run)."""
    if out is None and not dry_run:
        from sheets_sync.messages import text
        from sheets_sync.loop.sync_memory import move_old_outputs

        moved = move_old_outputs(workbook)
        if moved is not None:
            console.print(text("outputs.moved", speaking(tournament_language(workbook)), workbook=workbook,
                               files=moved.files, folder=moved.folder), markup=False)
    return out_dir_for(workbook, out)


@click.command(cls=Command)
@workbook_argument
@click.option("--out", default=None, help="Folder for standings.json, the site and the VK post (default: the "
              "workbook's own, cup.sheets-sync/ beside cup.xlsx).")
@click.option("--dry-run", is_flag=True, help="Compute and report, write nothing.")
@click.option("--strict", is_flag=True, help="Exit 1 when errors remain on the Problems tab (for scripts).")
@backups_option
@output_option
@protect_password_option
@credentials_option
@language_option()
def sync(workbook: str, out: str | None, dry_run: bool, strict: bool, backups: int | None, output: str | None,
         protect_password: str | None, credentials: str | None) -> None:
    """Read every protocol, validate, score, rank; write the owned tabs and standings.json.

    A workbook open in Excel or LibreOffice is still read and the site, standings.json and the VK post are
    written; its tabs are written once it is closed (run sync again, or watch) — exit code 75.

    Exit codes: 0 done (errors may remain: --strict makes that 1), 2 a mistake to fix, 75 open in Excel, 70 a bug."""
    from sheets_sync.actions.sync import run_sync

    report = run_sync(workbook, out_dir=_out_dir(workbook, out, dry_run=dry_run), dry_run=dry_run, credentials=credentials,
                      backups=backups, output=output, console=console, language=pinned_language(),
                      protect_password=protect_password)
    if report.locked is not None:
        sys.exit(EXIT_WORKBOOK_LOCKED)
    if strict and report.errors:
        from sheets_sync.messages import text

        language = pinned_language() or (report.outcome.language if report.outcome is not None
                                         else str(report.summary.get("language") or "ru"))
        err_console.print(text("report.strict", language, errors=report.errors), markup=False)
        sys.exit(EXIT_ERRORS_LEFT)
    sys.exit(0)


@click.command(cls=Command)
@workbook_argument
@click.option("--interval", type=float, default=10.0, show_default=True, help="Seconds between polls.")
@click.option("--out", default=None, help="Folder for standings.json, the site and the VK post.")
@click.option("--cycles", type=int, default=None, hidden=True, help="Stop after this many polls (tests).")
@click.option("--serve", "port", type=click.IntRange(0, 65535), default=None, metavar="PORT",
              help="Also serve the site (read-only) on this port while watching: PORT/screen.html is the hall's screen.")
@click.option("--bind", default="127.0.0.1", show_default=True,
              help="Address --serve listens on (0.0.0.0: every network of this computer, e.g. the hall's TV).")
@backups_option
@output_option
@protect_password_option
@credentials_option
@language_option()
def watch(workbook: str, interval: float, out: str | None, cycles: int | None, port: int | None, bind: str,
          backups: int | None, output: str | None, protect_password: str | None, credentials: str | None) -> None:
    """Keep the standings up to date while games are played (Ctrl-C stops).

    While the workbook is open in Excel or LibreOffice the site and files are still updated and the write of its
    tabs is retried until the file is closed.  A workbook that is not there at the start ends the watch.
    With --serve the site is served on the local network (the hall's screen: /screen.html)."""
    from sheets_sync.messages import text
    from sheets_sync.loop.watch import run_watch

    out_dir = _out_dir(workbook, out)
    server = None
    try:
        if port is not None:
            from sheets_sync.loop.serve import serve_site

            server = serve_site(out_dir / "site", port=port, bind=bind, language=speaking(None))
            console.print(text("serve.url", speaking(None), url=server.url), markup=False)
        run_watch(open_backend(workbook, credentials=credentials, backups=backups, output=output,
                               protect_password=protect_password),
                  out_dir=out_dir, interval=interval, cycles=cycles, console=console,
                  workbook=workbook, language=pinned_language())
    except KeyboardInterrupt:
        console.print(text("stopped", speaking(None)))
    finally:
        if server is not None:
            server.close()
