"""The `sheets-sync` command line: the root group, its commands, and the one way errors leave.

A WORKBOOK is a path to an .xlsx file, a Google Sheets URL, or `gsheet:ID`.

Like hatch's ``cli/__init__.py``, this module only builds the root group and adds the
commands, which live in small modules beside it (``workbook``: init, sync, watch;
``stages``: draw, advance, replace; ``publish``: export, print-protocols, print-seating; ``server``:
server, worker, app — the web face) and call
click-free actions.  Every error leaves through :meth:`RootGroup.invoke`:

* an error a person can fix (:class:`scoring.errors.SheetsSyncError`: a bad preset, a
  refused command, a workbook that cannot be read) → its message on one line, exit 2;
* anything else is a bug → one line saying what failed and what to do, the traceback in
  ``sheets-sync-error.log`` beside the workbook (its path printed), exit 70; never a traceback
  on the screen;
* click's usage errors (a missing WORKBOOK, an unknown option, a bad value) → click's message
  in the help's language (:func:`sheets_sync.cli.localized.localized_error`), exit 2.

Both speak ``--language``, else the tournament's language (the error's, or the Tournament
tab of a local workbook), else the system's (:mod:`sheets_sync.messages`).
"""

from __future__ import annotations

import click

from scoring.errors import SheetsSyncError
from sheets_sync.cli.common import (
    EXIT_INTERNAL_ERROR,
    EXIT_USER_ERROR,
    EXIT_WORKBOOK_LOCKED,
    CliState,
    console,
    err_console,
    escape,
    tournament_language,
)
from sheets_sync.cli.evening import evening
from sheets_sync.cli.league import league
from sheets_sync.cli.localized import Group, localized_error
from sheets_sync.cli.publish import export, print_protocols, print_seating
from sheets_sync.cli.server import app, server, worker
from sheets_sync.cli.stages import advance, draw, replace
from sheets_sync.cli.workbook import init, sync, watch
from sheets_sync.messages import system_language, text

__all__ = ["main", "run", "RootGroup", "EXIT_USER_ERROR", "EXIT_INTERNAL_ERROR", "EXIT_WORKBOOK_LOCKED", "console",
           "err_console"]

# how a refusal of these commands begins ("not drawn: tie at the cut line…")
_REFUSED = {"draw": "refused.draw", "advance": "refused.advance", "replace": "refused.replace",
            "evening": "refused.evening"}


class RootGroup(Group):
    """The root group: runs a command and turns whatever escapes it into a message and an exit code."""

    def make_context(self, info_name, args, parent=None, **extra) -> click.Context:
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.ClickException as exc:  # the root's own usage errors (sheets-sync --bogus), in its language
            raise localized_error(exc, None) from exc

    def invoke(self, ctx: click.Context):
        state = ctx.ensure_object(CliState)
        try:
            return super().invoke(ctx)
        except click.ClickException as exc:  # a command's usage errors: click's words in the help's language
            raise localized_error(exc, ctx) from exc
        except (click.exceptions.Exit, click.Abort, SystemExit, KeyboardInterrupt):
            raise
        except SheetsSyncError as exc:
            language = state.language or exc.language or tournament_language(state.workbook) or system_language()
            command = state.command.split()[1] if len(state.command.split()) > 1 else ""
            prefix = text(_REFUSED.get(command, "error"), language)
            err_console.print(f"[red]{prefix}:[/red] {escape(exc.message(language))}", soft_wrap=True)
            ctx.exit(EXIT_USER_ERROR)
        except Exception as exc:  # noqa: BLE001 - the one place a bug is caught, logged and explained
            from sheets_sync.crashlog import crash_line, write_crash_log

            language = state.language or tournament_language(state.workbook) or system_language()
            command = state.command.split(maxsplit=1)[1] if " " in state.command else (ctx.invoked_subcommand or "")
            log = write_crash_log(exc, workbook=state.workbook, command=state.command or "sheets-sync")
            err_console.print(crash_line(exc, command=command, log=log, language=language), soft_wrap=True,
                              markup=False, highlight=False)
            ctx.exit(EXIT_INTERNAL_ERROR)


@click.group(name="sheets-sync", cls=RootGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sheets-sync")
def main() -> None:
    """Tournament tabulation for sport mafia (FIIM rules) inside your spreadsheet."""


for _command in (init, sync, watch, draw, advance, replace, evening, export, print_protocols, print_seating, league,
                 server, worker, app):
    main.add_command(_command)
