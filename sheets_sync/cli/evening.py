"""`evening`: adding an evening of a club season (a tab of protocol blocks) to the workbook."""

from __future__ import annotations

from datetime import date

import click

from sheets_sync.cli.common import console, credentials_option, escape, language_option, open_backend, speaking, workbook_argument
from sheets_sync.cli.localized import Command, help_language
from sheets_sync.messages import text

__all__ = ["evening"]


def _day(ctx: click.Context, _param: click.Parameter, value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:  # checked before the workbook is read: the help's language, like click's own errors
        raise click.BadParameter(text("evening.bad_date", help_language(ctx), value=value)) from None


@click.command(cls=Command)
@workbook_argument
@click.option("--date", "day", required=True, callback=_day, metavar="YYYY-MM-DD", help="The evening's date.")
@click.option("--games", type=click.IntRange(min=1, max=60), required=True,
              help="Games of the evening at all tables together, a protocol block each (--games 6 --tables 2: 3 rounds).")
@click.option("--tables", type=click.IntRange(min=1, max=20), default=None,
              help="Tables playing at once: the blocks take them in turn (game 1 at tables 1, 2, then game 2 …).")
@credentials_option
@language_option()
def evening(workbook: str, day: date, games: int, tables: int | None, credentials: str | None) -> None:
    """Add the tab of an evening of a club season: a protocol for each of its games, stacked, titled by the date."""
    from sheets_sync.actions.evening import add_evening

    added = add_evening(open_backend(workbook, credentials=credentials), day=day, games=games, tables=tables)
    key = "evening.added_tables" if added.tables else "evening.added"
    console.print(escape(text(key, speaking(added.language), tab=added.title, games=len(added.games), rounds=added.rounds,
                              tables=added.tables)), soft_wrap=True)
