"""What the CLI commands do, kept apart from argument parsing so tests can call them."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from rich.console import Console
from rich.table import Table

from scoring.draw import draw_qualifying
from scoring.model import SeatingEntry
from scoring.problems import Severity
from sheets_sync.backends import open_backend
from sheets_sync.backends.base import Backend, BackendError, Patch
from sheets_sync.draw_commands import seating_from_draw
from sheets_sync.presets import load_preset
from sheets_sync.refs import is_google_ref
from sheets_sync.render.json_out import points
from sheets_sync.sync import SyncReport, sync_once
from sheets_sync.tournament_setup import read_players_csv, workbook_patch

__all__ = ["init_workbook", "run_sync", "print_report"]


def init_workbook(ref: str, *, players_csv: Path, preset_ref: str, name: str | None, language: str, date: str = "",
                  seed: int = 1, force: bool = False, credentials: str | None = None,
                  share_with: Sequence[str] = (), console: Console | None = None) -> Backend:
    """Create the tournament in a new .xlsx, a new Google spreadsheet (``gsheet:new``, shared
    with ``share_with`` as editors) or an empty existing one (``gsheet:ID`` / URL)."""
    google = is_google_ref(ref)
    if share_with and not google:
        raise BackendError("--share-with is for Google spreadsheets: use gsheet:new (or gsheet:ID) as the workbook")
    if not google:
        path = Path(ref)
        if path.exists() and not force:  # before anything else: never a half-done init
            raise BackendError(f"{path} already exists (use --force to replace it)")
    preset, _ = load_preset(preset_ref)
    players = read_players_csv(players_csv)
    playing = [p.nickname for p in players if p.ranked]
    first = preset.stages[0]
    clubs = {p.nickname: p.club for p in players if p.ranked and p.club}
    seating = _first_seating(playing, first.key, first.games, seed, clubs)
    title = name or (Path(ref).stem if not google else ("Турнир" if language == "ru" else "Tournament"))
    patch = workbook_patch(name=title, preset=preset, language=language, players=players, seating=seating, date=date)
    if google:
        backend, patch = _google_target(ref, title=title, language=language, credentials=credentials,
                                        share_with=share_with, force=force, patch=patch, console=console)
    else:
        if path.exists():
            path.unlink()
        backend = open_backend(ref, credentials=credentials)
    backend.apply(patch, base=None)
    report = sync_once(backend, out_dir=None)
    if console is not None:
        console.print(f"created {backend.source}: {len(players)} players, {len(seating)} protocol tabs "
                      f"({first.games} rounds); preset {preset.id}")
        print_report(report, console)
    return backend


def is_new_spreadsheet_ref(ref: str) -> bool:
    return ref.strip().lower() in ("gsheet:new", "gsheet:")


def _google_target(ref: str, *, title: str, language: str, credentials: str | None, share_with: Sequence[str],
                   force: bool, patch: Patch, console: Console | None) -> tuple[Backend, Patch]:
    """The Google spreadsheet ``init`` fills, with the patch to write into it.

    ``gsheet:new``: create one, share it with ``share_with`` as editors, and drop its
    default empty tab.  An existing spreadsheet must be empty (every tab blank; its blank
    tabs are replaced) unless ``force``: then tabs named like the tournament's are
    replaced and the others kept.
    """
    from sheets_sync.backends.google import GoogleBackend

    locale = "ru_RU" if language == "ru" else "en_GB"
    written = {w.title for w in patch.writes}
    if is_new_spreadsheet_ref(ref):
        backend = GoogleBackend.create_spreadsheet(title, credentials=credentials, locale=locale,
                                                   share_with=tuple(share_with))
        blank = backend.read().order  # the new spreadsheet's default tab ("Sheet1", "Лист1")
        if console is not None:
            who = ", ".join(share_with)
            console.print(f"new spreadsheet {backend.source}" + (f", shared with {who} (editor)" if who else ""))
            if not share_with and backend.account_email:
                console.print(f"[yellow]note:[/yellow] it belongs to the service account {backend.account_email}; "
                              "pass --share-with YOUR_EMAIL to open it in your browser")
        return backend, replace(patch, delete_tabs=tuple(t for t in blank if t not in written))
    backend = GoogleBackend(ref, credentials=credentials)
    snapshot = backend.read()
    filled = [t for t in snapshot.order if any(any(v not in (None, "") for v in row) for row in snapshot.tabs[t])]
    if filled and not force:
        raise BackendError(
            f"{backend.source} is not empty (tabs with data: {', '.join(filled[:5])}{' …' if len(filled) > 5 else ''}); "
            "init fills a new or empty spreadsheet — use gsheet:new, or --force to replace the tournament's tabs")
    if share_with:
        backend.share(tuple(share_with))
    blank = [t for t in snapshot.order if t not in filled]
    # blank tabs go (a fresh spreadsheet's "Лист1"); with --force, same-named tabs are recreated
    replaced = [t for t in filled if t in written]
    return backend, replace(patch, delete_tabs=tuple(blank) + tuple(replaced))


def _first_seating(players: Sequence[str], stage: str, rounds: int, seed: int,
                   clubs: Mapping[str, str] | None = None) -> list[SeatingEntry]:
    """The qualifying seating ``init`` pre-fills: the balanced draw of ``players``, club mates
    apart (``draw`` can redo it with another seed or a time limit)."""
    return seating_from_draw(draw_qualifying(players, rounds=rounds, seed=seed, clubs=clubs), stage)


def run_sync(ref: str, *, out_dir: Path, dry_run: bool = False, credentials: str | None = None,
             backups: int | None = None, output: str | None = None, console: Console | None = None) -> int:
    backend = open_backend(ref, credentials=credentials, backups=backups, output=output)
    report = sync_once(backend, out_dir=out_dir, dry_run=dry_run)
    if console is not None:
        print_report(report, console)
    return 0


def print_report(report: SyncReport, console: Console, *, top: int = 10) -> None:
    o = report.outcome
    results = o.results
    en = o.language == "en"
    table = Table(title=("Standings" if en else "Итоги") + f" — {results.tournament.name}", show_lines=False)
    for col in (("Place", "Место"), ("Player", "Игрок"), ("Total", "Итого"), ("Games", "Игр")):
        table.add_column(col[0] if en else col[1], justify="right" if col[0] != "Player" else "left")
    for st in results.overall[:top]:
        table.add_row(st.places, st.stats.player, points(st.stats.total), str(st.stats.games))
    console.print(table)
    errors = [p for p in o.problems if p.severity is Severity.ERROR]
    warnings = [p for p in o.problems if p.severity is Severity.WARNING]
    console.print(f"{len(results.counted)} games counted; {len(errors)} errors, {len(warnings)} warnings")
    for p in errors[:10]:
        console.print(f"  [red]✗[/red] {p.sheet}!{p.cell}: {p.message(o.language)}", soft_wrap=True)
    if len(errors) > 10:
        console.print(f"  … and {len(errors) - 10} more on the {'Problems' if en else 'Проверка'} tab")
    state = "written" if report.written else "unchanged"
    timing = ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in report.timings.items())
    console.print(f"workbook {state}: {report.patch and len(report.patch.writes)} tabs, "
                  f"{len(report.patch.set_marks)} marks set, {len(report.patch.clear_marks)} cleared ({timing})")
    if report.advanced:
        console.print(report.advanced)
    if report.files:
        pages = [f for f in report.files if f.suffix == ".html" or f.suffix == ".css"]
        others = [os.path.relpath(f) for f in report.files if f not in pages]
        if pages:
            others.append(f"{len(pages)} site files")
        console.print("wrote " + ", ".join(others))
