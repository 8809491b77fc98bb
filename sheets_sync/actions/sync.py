"""What ``sync`` does and says, kept apart from argument parsing so tests can call it: one sync
of a workbook, and its report on the console (``init`` is :mod:`sheets_sync.actions.init`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from scoring.problems import Severity
from sheets_sync.backends import open_backend
from sheets_sync.messages import shell_word, text
from sheets_sync.refs import is_google_ref
from sheets_sync.loop.sync import SyncReport, sync_once
from sheets_sync.loop.sync_memory import skipped_line

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["run_sync", "print_report", "locked_message"]


def run_sync(ref: str, *, out_dir: Path, dry_run: bool = False, credentials: str | None = None,
             backups: int | None = None, output: str | None = None, console: Console | None = None,
             language: str | None = None, protect_password: str | None = None) -> SyncReport:
    """One sync; with a console, its report (in ``language``, else the tournament's)."""
    backend = open_backend(ref, credentials=credentials, backups=backups, output=output,
                           protect_password=protect_password)
    report = sync_once(backend, out_dir=out_dir, dry_run=dry_run)
    if console is not None:
        print_report(report, console, language=language, ref=ref)
    return report


def locked_message(report: SyncReport, ref: str, language: str) -> str:
    """What to do about a workbook open in Excel: the files are written, the tabs wait."""
    lock = report.locked
    assert lock is not None
    path = Path(str(lock.path or ref))
    typed = Path(ref)  # the separate workbook beside the judges' one, spelled the way the organizer spelt it
    output = typed.with_name(f"{typed.stem}-results.xlsx") if not is_google_ref(ref) else Path("results.xlsx")
    return text("report.locked", language, name=path.name, lock=Path(str(lock.lock or "?")).name,
                ref=shell_word(ref), output=shell_word(output))


def _print_teams(results, console: Console, top: int, en: bool) -> None:
    """The team standings' first ``top`` under the players' (nothing without the Players tab's «Команда»)."""
    from scoring.teams import sides

    teams = sides(results).teams
    if not teams:
        return
    from rich.markup import escape
    from rich.table import Table

    from sheets_sync.render.json_out import points

    table = Table(title="Teams" if en else "Командный зачёт", show_lines=False)
    for col in (("Place", "Место"), ("Team", "Команда"), ("Points", "Очки")):
        table.add_column(col[0] if en else col[1], justify="left" if col[0] == "Team" else "right")
    for t in teams[:top]:
        table.add_row(t.places, escape(t.team), points(t.points, results.preset.points_places()))
    console.print(table)


def _print_not_started(results, title: str, lang: str, console: Console) -> None:
    """Before the first counted game: what the site says and who is on the list — not a table of
    shared places («1–40» for everyone after init, issue 43 §8) nor an empty box."""
    listed = sum(1 for p in results.tournament.players if p.ranked)
    if results.tournament.season:
        console.print(text("report.season_not_started", lang, title=title, players=listed))
        return
    from scoring.progress import progress
    from sheets_sync.render.progress_text import headline

    said = headline(progress(results), results.preset, lang)
    console.print(text("report.not_started", lang, title=title, headline=said, players=listed))


def _where(p) -> str:
    """«Тур 1 Стол 2!D10: » before a problem's message; nothing for one of the whole workbook."""
    from rich.markup import escape

    return f"{escape(p.sheet)}!{p.cell}: " if p.location is not None else ""


def print_report(report: SyncReport, console: Console, *, top: int = 10, language: str | None = None,
                 ref: str | None = None) -> None:
    if report.outcome is None:  # skipped: the workbook is as the last sync left it
        console.print(skipped_line(report.summary, language), markup=False)
        return
    # a table to draw: rich's and the results' modules (a sync that skipped prints one plain line)
    from rich.markup import escape
    from rich.table import Table

    from sheets_sync.render.json_out import points

    o = report.outcome
    results = o.results
    lang = language or o.language
    en = lang == "en"
    # names are as typed: «[/b]x» is a nickname, not rich markup
    table = Table(title=("Standings" if en else "Итоги") + f" — {escape(results.tournament.name)}", show_lines=False)
    places = results.preset.points_places()
    rows = [(st.places, st.stats.player, points(st.stats.total, places), str(st.stats.games))
            for st in results.overall[:top]]
    main = ("Total", "Итого")
    if results.tournament.season:  # a club season: its own order (provisional places in parentheses), its key
        from sheets_sync.render.season_text import season_console_rows  # loaded for a club season only

        main, rows = season_console_rows(results, top, lang)
    if not results.counted:
        _print_not_started(results, table.title, lang, console)
        rows = None
    for col in (("Place", "Место"), ("Player", "Игрок"), main, ("Games", "Игр")):
        table.add_column(col[0] if en else col[1], justify="right" if col[0] != "Player" else "left")
    for places, player, value, games in rows or ():
        table.add_row(places, escape(player), value, games)
    if rows is not None:
        console.print(table)
    _print_teams(results, console, top, en)
    errors = [p for p in o.problems if p.severity is Severity.ERROR]
    warnings = [p for p in o.problems if p.severity is Severity.WARNING]
    console.print(text("report.counted", lang, games=len(results.counted), errors=len(errors), warnings=len(warnings)))
    for p in errors[:10]:
        console.print(f"  [red]✗[/red] {_where(p)}{escape(p.message(lang))}", soft_wrap=True)
    if len(errors) > 10:
        console.print(text("report.more", lang, n=len(errors) - 10))
    for p in warnings:  # what the workbook lost since the last sync (a Seating tab) is said even as a warning
        if p.location is None:
            console.print(f"  [yellow]![/yellow] {escape(p.message(lang))}", soft_wrap=True)
    state = "report.written" if report.written else "report.not_written" if report.locked else "report.unchanged"
    timing = ", ".join(f"{text('timing.' + k, lang)} {v * 1000:.0f} {text('timing.ms', lang)}"
                       for k, v in report.timings.items())
    console.print(text("report.workbook", lang, state=text(state, lang), tabs=len(report.patch.writes),
                       set=len(report.patch.set_marks), cleared=len(report.patch.clear_marks), timing=timing))
    if report.advanced:
        console.print(report.advanced)
    if report.files:
        # one pass over the files (a site has thousands of pages: no list look-ups)
        pages = sum(1 for f in report.files if f.suffix in (".html", ".css"))
        others = [os.path.relpath(f) for f in report.files if f.suffix not in (".html", ".css")]
        if pages:
            others.append(text("report.site_files", lang, n=pages))
        console.print(text("report.wrote", lang, files=", ".join(others)))
    if report.locked is not None:
        console.print(f"[yellow]{escape(locked_message(report, ref or o.results.tournament.name, lang))}[/yellow]",
                      soft_wrap=True)
