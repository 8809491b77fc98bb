"""`make bench` (club seasons): a real season's size and a stress season, synced as an .xlsx.

Plain script, not a test: it measures and writes its own dated section of docs/benchmarks.md
(between the ``season-bench`` markers; bench/run.py writes the rest of the file).  A season is
generated the way a club keeps it: ``init --season`` tabs, one evening tab a week with its
games' protocol blocks filled in by the seeded simulator (whoever comes plays: a few regulars
play most evenings, several players come once), then in a fresh process each: the first sync,
a sync after one judge's edit (one extra point in the last evening, saved by another process as
Excel would) in the same process, keeping of the first sync what a ``watch`` keeps (its tabs) —
what a ``watch`` cycle does — and a whole ``sheets-sync sync`` process after an edit; peak
memory of each process; the requests of a Google cycle of the same season on the fake server.
Each step's time is also given in the process's CPU seconds, which other work on a shared
machine inflates far less than the wall clock.

    python -m bench.season            # 60 players, 40 evenings, 250 games; 400 players, 2,000 games
    python -m bench.season --quick    # the real season only
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from bench.generate import player_names
from bench.run import BARE, ROOT, _ENV, cpu_model, fmt_ms, run_in_child, timed_process, write_marked_section

__all__ = ["season_patch", "season_workbook", "SIZES"]

PRESET = ROOT / "config" / "examples" / "club-season.toml"
# (label, players, evenings, games, tables): issue 23's public club data (a season ~60 players,
# ~200–250 games over three months of weekly evenings), and ten times it in games
SIZES = (("real season", 60, 40, 250, 1), ("stress season", 400, 100, 2000, 4))
BEGIN, END = "<!-- season-bench:begin -->", "<!-- season-bench:end -->"


def _attendance(players: int) -> list[float]:
    """How often each player comes: regulars first (one plays most evenings), then a long tail."""
    return [1.0 / (1 + i) ** 0.9 for i in range(players)]


def season_patch(*, players: int, evenings: int, games: int, tables: int, seed: int = 1):
    """The tabs of a season: init's Tournament, Players, Penalties and ``evenings`` evening tabs
    holding ``games`` simulated games in all."""
    from scoring.simulate import simulate_game
    from scoring.model import Player
    from sheets_sync.backends.base import Patch
    from sheets_sync.workbook.layout import evening_tab
    from sheets_sync.presets import load_preset
    from sheets_sync.workbook.tournament_setup import workbook_patch

    preset, _ = load_preset(str(PRESET))
    rng = random.Random(seed)
    names = player_names(players, seed)
    weights = _attendance(players)
    base = workbook_patch(name=f"Клуб: {players} игроков, {games} игр", preset=preset, language="ru",
                          players=[Player(nickname=n) for n in names], seating=(), preset_ref=PRESET.name, season=True)
    per_evening = [games // evenings + (1 if i < games % evenings else 0) for i in range(evenings)]
    writes = list(base.writes)
    day = dt.date(2026, 9, 5)
    for count in per_evening:
        tab = evening_tab(day=day, games=count, tables=tables if tables > 1 else None, language="ru", preset=preset)
        played, taken = [], set()
        for i in range(count):
            if i % max(tables, 1) == 0:  # a new time slot: block i is game i // tables + 1
                taken = set()
            seated: list[str] = []
            while len(seated) < 10:
                name = rng.choices(names, weights)[0]
                if name not in seated and name not in taken:  # nobody plays two tables at once
                    seated.append(name)
            taken.update(seated)
            played.append(simulate_game(seated, stage=preset.stage_keys[0], round_no=i + 1, table=1, sheet=tab.title,
                                        preset=preset, rng=rng, judge=f"Судья {i % 3 + 1}"))
        writes.append(replace(tab, rows=_filled(tab.rows, played)))
        day += dt.timedelta(days=7)
    return Patch(writes=tuple(writes))


_TYPED_ROLE = {"civilian": "мирный", "sheriff": "шериф", "mafia": "мафия", "don": "дон"}


def _filled(rows: tuple, games: list) -> tuple:
    """The evening tab's rows with each block typed in as a judge would (by the block's labels)."""
    grid = [list(r) for r in rows]
    tops = [r for r, row in enumerate(grid) if row and str(row[0] or "").strip().lower() == "игра"]
    for top, game in zip(tops, games):
        head = {str(v).strip().lower(): c for c, v in enumerate(grid[top]) if v}
        cols = {str(v).strip().lower(): c for c, v in enumerate(grid[top + 1]) if v}
        _put(grid, top, head["судья"] + 1, game.judge)
        _put(grid, top, head["победа"] + 1, "Мирные" if game.winner.value == "red" else "Мафия")
        for i, rec in enumerate(game.seats):
            row = top + 2 + i
            for label, value in (("игрок", rec.player), ("роль", _TYPED_ROLE[rec.role.value]),
                                 ("фолы", rec.fouls or None), ("убит ночью", rec.killed_night),
                                 ("заголосован днём", rec.voted_day), ("удалён", "да" if rec.removal else None),
                                 ("лх", " ".join(map(str, rec.best_move)) or None),
                                 ("доп. баллы", float(rec.extra_points) if rec.extra_points else None)):
                if value is not None and label in cols:
                    _put(grid, row, cols[label], value)
    return tuple(tuple(r) for r in grid)


def _put(grid: list[list], r: int, c: int, value: object) -> None:
    while len(grid[r]) <= c:
        grid[r].append(None)
    grid[r][c] = value


def season_workbook(path: Path, **size) -> Path:
    from sheets_sync.backends.excel import ExcelBackend

    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    (path.parent / PRESET.name).write_bytes(PRESET.read_bytes())  # the Tournament tab names it beside the book
    ExcelBackend(path, backups=0).apply(season_patch(**size), base=None)
    return path


def _extra_cell(grid) -> tuple[int, int]:
    """(row, column), 0-based, of the extra points of seat 1 in an evening tab's first block."""
    top = next(r for r, row in enumerate(grid) if row and str(row[0] or "").strip().lower() == "игра")
    col = next(c for c, v in enumerate(grid[top + 1]) if str(v or "").strip().lower() == "доп. баллы")
    return top + 2, col


def _last_evening(titles) -> str:
    return [t for t in titles if re.fullmatch(r"\d\d\.\d\d\.\d{4}", t)][-1]


def _edit_last_evening(book: Path) -> None:
    """A judge's save: one extra point of the first seat of the last evening's first game."""
    import openpyxl

    wb = openpyxl.load_workbook(book)
    ws = wb[_last_evening(wb.sheetnames)]
    r, c = _extra_cell([[cell.value for cell in row] for row in ws.iter_rows()])
    cell = ws.cell(r + 1, c + 1)
    cell.value = 0.5 if cell.value != 0.5 else 1
    wb.save(book)


def _case(book: Path) -> dict:
    """In one fresh process: the first sync, then a sync after one edit (a watch cycle's work)."""
    import resource

    from sheets_sync.backends.excel import ExcelBackend
    from sheets_sync.loop.sync import sync_once

    out = book.parent / "out"
    t = time.perf_counter()
    first = sync_once(ExcelBackend(book, backups=0), out_dir=out)
    first_s = time.perf_counter() - t
    rss_first = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    results = first.outcome.results
    figures = {"games": len(results.counted), "tabs": len(first.snapshot.order),
               "players": len(results.tournament.players),
               "evenings": len({p.date for p in results.counted}), "errors": sum(
                   1 for p in first.outcome.problems if p.severity.value == "error"),
               "first_timings": first.timings, "first_cpu": first.cpu_timings}
    # what a watch keeps of its last cycle (its tabs, for the change report), not the whole report
    kept_tabs = dict(first.snapshot.tabs)
    del first, results
    # the judge saves in another program: an openpyxl edit in this process left ~840,000 objects in
    # reference cycles (its workbook) for the next sync's collections to find — 1–2 s of the
    # "after one edit" compute this bench once reported (docs/benchmarks.md), none of it the sync's
    run_in_child("-c", "import sys; from bench.season import _edit_last_evening; _edit_last_evening(sys.argv[1])",
                 str(book))
    t = time.perf_counter()
    again = sync_once(ExcelBackend(book, backups=0), out_dir=out)
    again_s = time.perf_counter() - t
    del kept_tabs
    return {**figures, "bytes": book.stat().st_size, "first_s": first_s, "rss_first_mb": rss_first,
            "edit_s": again_s, "edit_timings": again.timings, "edit_cpu": again.cpu_timings,
            "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def _google(book: Path) -> dict:
    """Requests of a Google cycle of the same season on the fake server: first, idle, after an edit."""
    from scoring.cells import a1
    from sheets_sync.backends.excel import ExcelBackend
    from sheets_sync.backends.google import GoogleBackend
    from sheets_sync.loop.sync import sync_once
    from tests.fake_sheets import FakeSheetsServer
    from tests.google_support import write_key_file

    snap = ExcelBackend(book).read()
    with FakeSheetsServer() as server:
        key = write_key_file(book.parent / "sa.json", server.token_uri, email="bench@p.iam.gserviceaccount.com")
        sid = server.create_spreadsheet("Season", tabs={t: [] for t in snap.order})
        for t, rows in snap.tabs.items():
            # a Google spreadsheet has no folder: its Tournament tab names the preset file by its full path
            rows = [[str(PRESET) if v == PRESET.name else float(v) if hasattr(v, "as_tuple") else v for v in r]
                    for r in rows]
            if rows:
                server.set_values(sid, t, rows, raw=True)
        backend = GoogleBackend(sid, credentials=key, endpoint=server.url, backoff_base=0.001)
        counts = {}
        for label in ("first", "idle", "edit"):
            if label == "edit":  # the judge's edit of _edit_last_evening, typed into the spreadsheet
                last = _last_evening(snap.order)
                server.set_values(sid, last, [[0.75]], start=a1(*_extra_cell(snap.tabs[last])), raw=True)
            server.reset_counts()
            t = time.perf_counter()
            sync_once(backend, out_dir=None)
            counts[label] = {"requests": server.request_count, "seconds": time.perf_counter() - t}
    return counts


def _child(args: list[str]) -> None:
    kind, book = args[0], Path(args[1])
    print("RESULT " + json.dumps(_case(book) if kind == "excel" else _google(book)))


def _run_child(kind: str, book: Path) -> dict:
    proc = subprocess.run([sys.executable, "-m", "bench.season", "--child", kind, str(book)], cwd=ROOT,
                          capture_output=True, text=True, env=_ENV)
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise RuntimeError(f"season bench {kind} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}")


def measure(label: str, players: int, evenings: int, games: int, tables: int, workdir: Path) -> dict:
    folder = workdir / label.replace(" ", "-")
    t = time.perf_counter()
    book = folder / "club.xlsx"
    run_in_child("-c", "import sys; from pathlib import Path; from bench.season import season_workbook; "
                 "season_workbook(Path(sys.argv[1]), players=int(sys.argv[2]), evenings=int(sys.argv[3]), "
                 "games=int(sys.argv[4]), tables=int(sys.argv[5]))", str(book), str(players), str(evenings), str(games),
                 str(tables))
    generated = time.perf_counter() - t
    fresh = folder / "fresh"
    fresh.mkdir()
    (fresh / PRESET.name).write_bytes(PRESET.read_bytes())
    result = {"label": label, "generate_s": generated, **_run_child("excel", _copy(book, fresh / "club.xlsx"))}
    cli_dir = folder / "cli"
    cli_dir.mkdir()
    (cli_dir / PRESET.name).write_bytes(PRESET.read_bytes())
    copy = _copy(book, cli_dir / "club.xlsx")
    cmd = [sys.executable, "-m", "sheets_sync.cli", "sync", str(copy), "--backups", "0"]
    result["cli_first_s"], result["cli_first_mb"] = timed_process(cmd, cli_dir)
    run_in_child("-c", "import sys; from bench.season import _edit_last_evening; _edit_last_evening(sys.argv[1])",
                 str(copy))
    result["cli_edit_s"], result["cli_edit_mb"] = timed_process(cmd, cli_dir)
    result["cli_idle_s"], _ = timed_process(cmd, cli_dir)
    # what the machine gives at this moment: openpyxl's own load and save of the same (synced) workbook
    result["bare_s"], _ = timed_process([sys.executable, "-c", BARE, str(copy), str(cli_dir / "bare.xlsx")], cli_dir)
    try:
        result["google"] = _run_child("google", book)
    except RuntimeError as exc:  # the fake server timed out on a loaded machine: the other figures still stand
        print(exc, file=sys.stderr)
        result["google"] = None
    return result


def _copy(source: Path, target: Path) -> Path:
    target.write_bytes(source.read_bytes())
    return target


def markdown(results: list[dict]) -> str:
    now = dt.datetime.now().strftime("%Y-%m-%d %H:%M")
    lines = [BEGIN, "## Club seasons (bench/season.py)", "",
             f"Measured {now} on {cpu_model()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.0f} while "
             "it ran (other work shared the machine: compare a figure with the bare openpyxl load + save of the same "
             "workbook measured beside it, not with another day's), Python " + sys.version.split()[0] + ". `python -m bench.season`; a season generated as a "
             "club keeps it (an evening tab a week, its games' blocks typed in; a few regulars play most games).", "",
             "| season | players | evenings | games | tabs | .xlsx | first sync | after one edit (same process: a watch "
             "cycle) | whole `sync` process: first / after an edit / nothing changed | bare openpyxl load + save | "
             "peak memory (first sync) | Google requests: first / idle / edit |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        g = r["google"] or {k: {"requests": "–"} for k in ("first", "idle", "edit")}
        lines.append(
            f"| {r['label']} | {r['players']} | {r['evenings']} | {r['games']} | {r['tabs']} | "
            f"{r['bytes'] / 1e6:.1f} MB | {fmt_ms(r['first_s'])} | {fmt_ms(r['edit_s'])} | "
            f"{fmt_ms(r['cli_first_s'])} / {fmt_ms(r['cli_edit_s'])} / {fmt_ms(r['cli_idle_s'])} | "
            f"{fmt_ms(r['bare_s'])} | {r['rss_first_mb']:.0f} MB | {g['first']['requests']} / {g['idle']['requests']} / {g['edit']['requests']} |")
    lines += ["", "Where a first sync's time goes (s): " + "; ".join(
        f"{r['label']}: " + ", ".join(f"{k} {v:.2f}" for k, v in r["first_timings"].items()) for r in results),
        "", "After one edit (s): " + "; ".join(
        f"{r['label']}: " + ", ".join(f"{k} {v:.2f}" for k, v in r["edit_timings"].items()) for r in results),
        "", "The same in CPU seconds of the sync's process (what other work on the machine does not inflate), "
        "first sync → after one edit: " + "; ".join(
            f"{r['label']}: " + ", ".join(f"{k} {r['first_cpu'][k]:.2f} → {r['edit_cpu'].get(k, 0):.2f}"
                                          for k in r["first_cpu"]) for r in results),
        END]
    return "\n".join(lines)


def write_section(section: str) -> None:
    write_marked_section(BEGIN, END, section)


def main() -> None:  # pragma: no cover
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--child", nargs=2)
    args = parser.parse_args()
    if args.child:
        _child(args.child)
        return
    results: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="season-bench-") as tmp:
        for size in SIZES[:1] if args.quick else SIZES:
            results.append(measure(*size, Path(tmp)))
            print(json.dumps({k: v for k, v in results[-1].items() if "timings" not in k}, ensure_ascii=False))
            write_section(markdown(results))  # each size as soon as it is measured: a long run keeps what it has
    print(markdown(results))


if __name__ == "__main__":  # pragma: no cover
    main()
