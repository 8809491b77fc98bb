"""What every command shares: the consoles, the WORKBOOK argument, the common options, and
the small state the root group keeps for its one error path (which workbook, which command)."""

from __future__ import annotations

from dataclasses import dataclass

import click
from rich.console import Console

__all__ = ["console", "err_console", "CliState", "workbook_argument", "backups_option",
           "output_option", "credentials_option"]

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


@dataclass
class CliState:
    """Filled in while a command runs, read by the root group when something escapes it."""

    workbook: str | None = None
    command: str = ""


def _remember_workbook(ctx: click.Context, _param: click.Parameter, value: str) -> str:
    state = ctx.find_object(CliState)
    if state is not None:
        state.workbook = value
        state.command = ctx.command_path
    return value


workbook_argument = click.argument("workbook", callback=_remember_workbook)


backups_option = click.option("--backups", type=click.IntRange(min=0), default=None,
                              help="Keep this many previous versions of an .xlsx in sheets-sync-backups/ beside it "
                                   "(default 5; 0: none).")
output_option = click.option("--output", type=click.Path(dir_okay=False), default=None,
                             help="Write the results tabs to this separate .xlsx instead of into the workbook "
                                  "(for workbooks with shapes or Excel 2010+ features openpyxl cannot keep).")
credentials_option = click.option("--credentials", type=click.Path(dir_okay=False), default=None,
                                  help="Google service-account JSON (default: $GOOGLE_APPLICATION_CREDENTIALS).")
