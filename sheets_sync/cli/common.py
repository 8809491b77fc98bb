"""What every command shares: the consoles, the WORKBOOK argument, the common options, and
the small state the root group keeps for its one error path (which workbook, which command,
which language).

The language of every line (see :mod:`sheets_sync.messages`): ``--language`` when given,
else the tournament's, else the system's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from sheets_sync.messages import LANGUAGES, system_language

__all__ = ["CONSOLE_OPTIONS", "console", "err_console", "escape", "open_backend", "CliState", "workbook_argument", "backups_option", "output_option",
           "credentials_option", "protect_password_option", "language_option", "speaking", "pinned_language", "tournament_language",
           "EXIT_USER_ERROR", "EXIT_INTERNAL_ERROR", "EXIT_WORKBOOK_LOCKED", "EXIT_ERRORS_LEFT"]

EXIT_ERRORS_LEFT = 1  # sync --strict: done, but errors remain on the Problems tab (for scripts)
EXIT_USER_ERROR = 2
EXIT_WORKBOOK_LOCKED = 75  # EX_TEMPFAIL: sync wrote the files, the workbook's tabs wait until it is closed
EXIT_INTERNAL_ERROR = 70  # EX_SOFTWARE: an internal error

if TYPE_CHECKING:
    from rich.console import Console


class _Console:
    """A rich Console made on its first use: importing rich is a quarter of a ``sync`` that finds
    nothing changed, which prints one plain line."""

    def __init__(self, **options: Any):
        self._options = options
        self._console: Console | None = None

    def _real(self) -> Console:
        if self._console is None:
            from rich.console import Console

            self._console = Console(**self._options)
        return self._console

    def __getattr__(self, name: str) -> Any:  # only what the instance itself does not have
        return getattr(self._real(), name)

    def __enter__(self) -> Console:  # `with console:` (dunders are looked up on the type)
        return self._real().__enter__()

    def __exit__(self, *exc: object) -> None:
        self._real().__exit__(*exc)


# soft wrap: a long line (a command to copy, a path) is never broken by inserted newlines; no emoji
# codes: a nickname «:fire:» is printed as typed (and rich's 4,000 emoji names are never loaded)
CONSOLE_OPTIONS: dict[str, Any] = {"highlight": False, "soft_wrap": True, "emoji": False}
console: Console = _Console(**CONSOLE_OPTIONS)  # type: ignore[assignment]
err_console: Console = _Console(stderr=True, **CONSOLE_OPTIONS)  # type: ignore[assignment]


def open_backend(workbook: str, **options: Any):
    """:func:`sheets_sync.backends.open_backend`, imported when a command opens a workbook (a sync
    that finds nothing changed never does)."""
    from sheets_sync.backends import open_backend as open_workbook

    return open_workbook(workbook, **options)


def escape(markup: str) -> str:
    """:func:`rich.markup.escape`, imported when a message needs it."""
    from rich.markup import escape as rich_escape

    return rich_escape(markup)


@dataclass
class CliState:
    """Filled in while a command runs, read by the root group when something escapes it."""

    workbook: str | None = None
    command: str = ""
    language: str | None = None  # --language, when given


def _state() -> CliState | None:
    ctx = click.get_current_context(silent=True)
    return ctx.find_object(CliState) if ctx is not None else None


def pinned_language() -> str | None:
    """The --language given to this command, if any."""
    state = _state()
    return state.language if state is not None else None


def speaking(tournament: str | None = None) -> str:
    """The language of the command's lines: --language, else ``tournament``, else the system's."""
    state = _state()
    if state is not None and state.language:
        return state.language
    return tournament if tournament in LANGUAGES else system_language()


def tournament_language(workbook: str | None) -> str | None:
    """The language on the Tournament tab of a local workbook, read on its own (for a message
    about a failure that came before or without the tournament); None when it cannot be read."""
    from sheets_sync.refs import is_google_ref

    if not workbook or is_google_ref(workbook):
        return None
    try:
        from pathlib import Path

        from scoring.parse import find_tab, read_settings
        from sheets_sync.backends.excel_read import read_values

        data = Path(workbook).read_bytes()
        titles, _ = read_values(data, only=set())  # the tabs' titles alone
        title = find_tab(dict.fromkeys(titles), "tournament")
        if title is not None:
            return read_settings(read_values(data, only={title})[1]).language
    except Exception:  # noqa: BLE001 - only a hint for the language of a message
        return None
    return None


def _remember_workbook(ctx: click.Context, _param: click.Parameter, value: str) -> str:
    state = ctx.find_object(CliState)
    if state is not None:
        state.workbook = value
        state.command = ctx.command_path
    return value


def _remember_language(ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    state = ctx.find_object(CliState)
    if state is not None and value:
        state.language = value
    return value


workbook_argument = click.argument("workbook", callback=_remember_workbook)


def language_option(*, default: str | None = None, help: str | None = None, expose_value: bool = False):
    """--language ru|en: the language of the command's messages (default: the tournament's)."""
    return click.option("--language", type=click.Choice(list(LANGUAGES)), default=default,
                        show_default=default is not None, is_eager=True, callback=_remember_language,
                        expose_value=expose_value,
                        help=help or "Language of the messages (default: the tournament's, else the system's).")


backups_option = click.option("--backups", type=click.IntRange(min=0), default=None,
                              help="Keep this many previous versions of an .xlsx in sheets-sync-backups/ beside it "
                                   "(default 5; 0: none).")
output_option = click.option("--output", type=click.Path(dir_okay=False), default=None,
                             help="Write the results tabs to this separate .xlsx instead of into the workbook "
                                  "(to leave the judges' workbook untouched, or while it is open in Excel).")
credentials_option = click.option("--credentials", type=click.Path(dir_okay=False), default=None,
                                  help="Google service-account JSON (default: $GOOGLE_APPLICATION_CREDENTIALS).")
protect_password_option = click.option(
    "--protect-password", "protect_password", envvar="SHEETS_SYNC_PROTECT_PASSWORD", default=None, metavar="PASSWORD",
    help="An .xlsx: the password of the sheet protection of the tabs the sync writes (default: none; a judge is "
         "stopped either way). Stored as Excel's hash, never in clear; tabs protected before keep theirs "
         "(default: $SHEETS_SYNC_PROTECT_PASSWORD).")
