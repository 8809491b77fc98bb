"""`draw`, `advance` and `replace`: seating the qualifying rounds and the later stages."""

from __future__ import annotations

import click

from scoring.collation import name_key
from sheets_sync.cli.common import (
    console,
    credentials_option,
    err_console,
    escape,
    language_option,
    open_backend,
    speaking,
    workbook_argument,
)
from sheets_sync.cli.localized import Command
from sheets_sync.messages import text

__all__ = ["draw", "advance", "replace"]


@click.command(cls=Command)
@workbook_argument
@click.option("--seed", type=int, default=1, show_default=True, help="Same seed, same draw.")
@click.option("--time-limit", type=float, default=None, help="Stop optimising after this many seconds.")
@click.option("--force", is_flag=True, help="Draw again even though protocols were already typed.")
@language_option(help="Language of the report and messages (default: the tournament's).")
@credentials_option
def draw(workbook: str, seed: int, time_limit: float | None, force: bool, credentials: str | None) -> None:
    """Draw the qualifying seating: balanced opponents, seats, clubs apart; fill Seating and the protocol tabs.

    The format is the preset's as the Tournament tab overrides it (отбор.игр / отбор.туров = rounds,
    отбор.столов = tables); protocol tabs the new seating no longer has are removed when blank, kept otherwise."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from sheets_sync.actions.draw import check_in_lines, draw_workbook

    with Progress(TextColumn("draw"), BarColumn(), TextColumn("Σc² {task.fields[ssq]} (bound {task.fields[bound]})"),
                  TimeElapsedColumn(), console=err_console, transient=True) as bar:
        task = bar.add_task("draw", total=1.0, ssq="…", bound="…")

        def progress(done: float, ssq: int, bound: int) -> None:
            bar.update(task, completed=done, ssq=ssq, bound=bound)

        result = draw_workbook(open_backend(workbook, credentials=credentials), seed=seed, time_limit=time_limit,
                               force=force, progress=progress)
    language = speaking(result.language)
    if result.format is not None:
        console.print(result.format.describe(language))
    for line in result.draw.report.text_lines(language):
        console.print(line, soft_wrap=True)
    console.print(text("draw.written", language, games=len(result.entries)))
    for line in check_in_lines(result.registration, language):
        console.print(escape(line), soft_wrap=True)
    if result.removed:
        console.print(escape(text("draw.removed", language, tabs=", ".join(result.removed))), soft_wrap=True)
    if result.kept:
        console.print(f"[yellow]{escape(text('draw.kept', language, tabs=', '.join(result.kept)))}[/yellow]",
                      soft_wrap=True)


@click.command(cls=Command)
@workbook_argument
@click.option("--stage", default=None, help="Stage key to seat (default: the next one not seated yet).")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--force", is_flag=True, help="Seat even though the previous stage has missing or broken games.")
@credentials_option
@language_option()
def advance(workbook: str, stage: str | None, seed: int, force: bool, credentials: str | None) -> None:
    """Seat the next stage (semifinal, final) from the standings and add its protocol tabs."""
    from sheets_sync.actions.draw import advance_workbook

    result = advance_workbook(open_backend(workbook, credentials=credentials), seed=seed, force=force, stage=stage)
    players = sorted({n for e in result.entries for n in e.players if n}, key=name_key)
    console.print(escape(text("advance.seated", speaking(result.language), stage=result.stage, players=len(players),
                              games=len(result.entries), names=", ".join(players))), soft_wrap=True)
    if result.notice is not None:  # a team rule the field broke: said, never silently
        console.print(escape(result.notice.said(speaking(result.language))), soft_wrap=True)


@click.command("replace", cls=Command)
@workbook_argument
@click.argument("player")
@click.option("--stage", default=None, help="Stage key (default: the latest stage the player is seated in).")
@credentials_option
@language_option()
def replace(workbook: str, player: str, stage: str | None, credentials: str | None) -> None:
    """Replace PLAYER (e.g. late for the semifinal) by the next one in the ranking."""
    from sheets_sync.actions.draw import replace_player

    newcomer, result = replace_player(open_backend(workbook, credentials=credentials), player=player, stage=stage)
    console.print(escape(text("replace.done", speaking(result.language), stage=result.stage, old=player, new=newcomer,
                              games=len(result.entries))), soft_wrap=True)
    if result.notice is not None:  # the swap seats two of one team at a game: said, never silently
        console.print(escape(result.notice.said(speaking(result.language))), soft_wrap=True)
