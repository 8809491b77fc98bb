"""`sheets-sync league FILE`: one rating over many workbooks (issue 36 §2); the work is
:func:`sheets_sync.actions.league.run_league`."""

from __future__ import annotations

import click

from sheets_sync.cli.common import console, credentials_option, escape, language_option, speaking
from sheets_sync.cli.localized import Command
from sheets_sync.messages import text

__all__ = ["league"]


@click.command("league", cls=Command)
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--out", default=None, help="Folder for league.json, the league site and the cache (default: league/ beside FILE).")
@click.option("--init", "init", is_flag=True, help="Create FILE empty instead: a workbook with the «Лига» tab, or a league.toml.")
@credentials_option
@language_option()
def league(file: str, out: str | None, init: bool, credentials: str | None) -> None:
    """A league: the rating over every tournament and season FILE lists (league.toml, or a workbook
    with a «Лига» tab) — league.json, the league site and the rating tab of the output workbook."""
    from sheets_sync.actions.league import init_league, run_league

    if init:
        language = speaking()
        init_league(file, language=language, credentials=credentials)
        console.print(escape(text("league.created", language, file=file)))
        return

    run = run_league(file, out=out, credentials=credentials)
    language = speaking(run.league.file.language)
    console.print(escape(text("league.done", language, events=len(run.league.events),
                              read=len(run.league.read_again), games=len(run.league.ratings.history),
                              players=len(run.league.ratings.players))))
    site = next(p for p in run.written if p.name == "index.html")
    console.print(escape(text("league.site", language, path=site, json=run.written[0])))
    if run.output_tabs:
        console.print(escape(text("league.tabs", language, tabs=", ".join(run.output_tabs), workbook=run.league.file.output)))
