"""What every command shares: the consoles, the WORKBOOK argument, the common options, and
the small state the root group keeps for its one error path (which workbook, which command)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import click
from rich.console import Console

from sheets_sync.backends import is_google_ref

__all__ = ["console", "err_console", "CliState", "workbook_argument", "out_dir_for", "backups_option",
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


def out_dir_for(ref: str, out: str | None) -> Path:
    """Where standings.json, the site and the VK post go: ``--out``, else beside the workbook
    (a Google spreadsheet: ``sheets-sync-output/`` in the current folder)."""
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
