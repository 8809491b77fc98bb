"""What the CLI commands do, kept apart from argument parsing so tests can call them."""

from __future__ import annotations

import os
from pathlib import Path

from rich.console import Console
from rich.table import Table

from scoring.problems import Severity
from sheets_sync.backends.base import Backend, BackendError
from sheets_sync.presets import load_preset
from sheets_sync.render.json_out import points
from sheets_sync.sync import SyncReport, sync_once
from sheets_sync.tournament_setup import read_players_csv, simple_seating, workbook_patch

__all__ = ["init_workbook", "run_sync", "print_report"]


def init_workbook(ref: str, *, players_csv: Path, preset_ref: str, name: str | None, language: str, date: str = "",
                  seed: int = 1, force: bool = False, credentials: str | None = None, console: Console | None = None) -> Backend:
    from sheets_sync.cli import is_google_ref, open_backend

    preset, _ = load_preset(preset_ref)
    players = read_players_csv(players_csv)
    playing = [p.nickname for p in players if p.ranked]
    first = preset.stages[0]
    seating = _first_seating(playing, first.key, first.games, seed)
    if not is_google_ref(ref):
        path = Path(ref)
        if path.exists() and not force:
            raise BackendError(f"{path} already exists (use --force to replace it)")
        if path.exists():
            path.unlink()
    backend = open_backend(ref, credentials=credentials)
    patch = workbook_patch(name=name or (Path(ref).stem if not is_google_ref(ref) else "Tournament"), preset=preset,
                           language=language, players=players, seating=seating, date=date)
    backend.apply(patch, base=None)
    report = sync_once(backend, out_dir=None)
    if console is not None:
        console.print(f"created {backend.source}: {len(players)} players, {len(seating)} protocol tabs "
                      f"({first.games} rounds); preset {preset.id}")
        print_report(report, console)
    return backend


def _first_seating(players, stage: str, rounds: int, seed: int):
    try:
        from scoring.draw import draw_qualifying
    except ImportError:  # the balanced draw is optional at this point
        return simple_seating(players, stage, rounds)
    from scoring.model import SeatingEntry

    draw = draw_qualifying(players, rounds=rounds, seed=seed)
    return [SeatingEntry(stage=stage, round=r + 1, table=t + 1, players=tuple(seats))
            for r, tables in enumerate(draw.rounds) for t, seats in enumerate(tables)]


def run_sync(ref: str, *, out_dir: Path, dry_run: bool = False, credentials: str | None = None,
             console: Console | None = None) -> int:
    from sheets_sync.cli import open_backend

    backend = open_backend(ref, credentials=credentials)
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
    for f in report.files:
        console.print(f"wrote {os.path.relpath(f)}")
