"""`make bench`: timings of the sync, HTTP requests per Google cycle, peak memory.

Plain script, not a test: it measures and writes docs/benchmarks.md (date, machine).
Each measurement runs in a fresh subprocess so peak RSS belongs to that case alone.

    python -m bench.run            # everything (40, 200, 1000 players; Google; the draw)
    python -m bench.run --quick    # skip 1000 players and the draw
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"


def write_marked_section(begin: str, end: str, section: str) -> None:
    """``section`` (which starts with ``begin`` and ends with ``end``) into docs/benchmarks.md in place
    of the one between those markers, or at the end: each bench writes its own section."""
    doc = DOC.read_text(encoding="utf-8") if DOC.exists() else "# Benchmarks\n"
    if begin in doc and end in doc:
        head, _, rest = doc.partition(begin)
        _, _, tail = rest.partition(end)
        doc = head + section + tail
    else:
        doc = doc.rstrip("\n") + "\n\n" + section + "\n"
    DOC.write_text(doc, encoding="utf-8")


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


# -- one case, run in a child process -------------------------------------------------------
def _case_excel(kind: str, players: int, rounds: int, workdir: Path, book: Path) -> dict:
    """In one process: the first sync split into read / compute / write / files, one protocol
    edit, then a sync with nothing changed; max RSS of the process (the first sync's peak)."""
    import resource
    import shutil

    t_import = time.perf_counter()
    from sheets_sync.backends.excel import ExcelBackend
    from sheets_sync.loop.sync import sync_once
    import_s = time.perf_counter() - t_import
    timed = workdir / f"{kind}-timed.xlsx"
    shutil.copyfile(book, timed)
    out = workdir / f"{kind}-out"
    t = time.perf_counter()
    report = sync_once(ExcelBackend(timed, backups=0), out_dir=out)
    total = time.perf_counter() - t
    rss_first = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    _edit_in_child(timed)  # a judge saved one protocol
    t = time.perf_counter()
    report_again = sync_once(ExcelBackend(timed, backups=0), out_dir=out)
    again = time.perf_counter() - t
    # nothing changed since: the workbook's bytes, the preset and the templates are the same
    t = time.perf_counter()
    idle = sync_once(ExcelBackend(timed, backups=0), out_dir=out)
    idle_s = time.perf_counter() - t
    return {
        "case": kind, "players": players, "games": len(report.outcome.results.counted),
        "tabs": len(report.snapshot.order), "bytes": book.stat().st_size,
        "import_s": import_s, "first_sync_s": total, "timings": report.timings, "rss_first_mb": rss_first,
        "outputs_first": report.outputs,
        "second_sync_s": again, "second_timings": report_again.timings, "second_outputs": report_again.outputs,
        "second_tabs": len(report_again.patch.writes), "idle_sync_s": idle_s, "idle_skipped": idle.skipped,
        "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def _case_google(workdir: Path) -> dict:
    import resource

    from sheets_sync.backends.google import GoogleBackend
    from sheets_sync.example import EXAMPLE_PATH
    from sheets_sync.backends.excel import ExcelBackend
    from sheets_sync.loop.sync import sync_once
    from tests.fake_sheets import FakeSheetsServer
    from tests.google_support import write_key_file
    from tests.test_injection import google_tabs

    snap = ExcelBackend(EXAMPLE_PATH).read()
    tabs = {t: [[(float(v) if hasattr(v, "as_tuple") else v) for v in row] for row in g] for t, g in snap.tabs.items()}
    with FakeSheetsServer() as server:
        key_file = write_key_file(workdir / "sa.json", server.token_uri, email="bench@p.iam.gserviceaccount.com")
        sid = server.create_spreadsheet("Bench", tabs={t: [] for t in tabs})
        for t, rows in tabs.items():
            if rows:
                server.set_values(sid, t, rows, raw=True)
        backend = GoogleBackend(sid, credentials=key_file, endpoint=server.url, backoff_base=0.001)
        out = {}
        for label in ("first (writes every owned tab)", "second (nothing changed)", "after one edit"):
            if label == "after one edit":
                server.set_values(sid, "Тур 1 Стол 1", [["правка"]], start="J10", raw=True)
            server.reset_counts()
            t = time.perf_counter()
            report = sync_once(backend, out_dir=None)
            out[label] = {"requests": server.request_count, "seconds": time.perf_counter() - t,
                          "written": report.written, "timings": report.timings}
        del google_tabs
    return {"case": "google", "cycles": out, "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def _case_watch(workdir: Path, source: Path, saves: int = 7) -> dict:
    """``watch --interval 10`` on a copy of ``source`` while a judge saves it ``saves`` times:
    how long from each save (the rename of the new file, as Excel saves) to the start of the poll
    that computes it and to the end of that cycle (new tabs and files written), and how many
    cycles each save caused."""
    import resource
    import shutil
    import statistics
    import threading

    from rich.console import Console

    from sheets_sync.loop import watch
    from sheets_sync.backends.excel import ExcelBackend

    book = workdir / "watched.xlsx"
    shutil.copyfile(source, book)
    polls: list[tuple[float, float, bool]] = []  # (start, end, ran a cycle)
    original = watch.Watcher.poll

    def timed_poll(self):
        started = time.monotonic()
        report = original(self)
        polls.append((started, time.monotonic(), report is not None))
        return report

    watch.Watcher.poll = timed_poll
    console = Console(file=open(os.devnull, "w"))
    thread = threading.Thread(target=watch.run_watch, kwargs={"backend": ExcelBackend(book, backups=0),
                              "out_dir": workdir / "out", "interval": 10.0, "console": console}, daemon=True)
    thread.start()
    while not any(ran for _, _, ran in polls):
        time.sleep(0.05)
    reactions, cycles, per_save = [], [], []
    for i in range(saves):
        time.sleep(1.0)  # the hall between two saves
        tmp = workdir / "~save.tmp"
        _edit_in_child(book, round(0.1 * (i % 3 + 1), 1), tmp)  # saved beside it, renamed over it below
        n = len(polls)
        saved = time.monotonic()
        os.replace(tmp, book)
        deadline = saved + 300
        while time.monotonic() < deadline and not any(ran for _, _, ran in polls[n:]):
            time.sleep(0.01)
        time.sleep(1.0)  # let our own write's events arrive and be recognised
        after = polls[n:]
        ran = [(start, end) for start, end, did in after if did]
        if ran:
            reactions.append(ran[0][0] - saved)
            cycles.append(ran[0][1] - saved)
        per_save.append(len(ran))
    return {"case": "watch", "saves": saves, "reaction_median_s": statistics.median(reactions) if reactions else None,
            "reaction_max_s": max(reactions) if reactions else None, "cycles_per_save": per_save,
            "outputs_median_s": statistics.median(cycles) if cycles else None,
            "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def _child(args: list[str]) -> None:
    kind = args[0]
    with tempfile.TemporaryDirectory() as tmp:
        if kind == "watch":
            result = _case_watch(Path(tmp), Path(args[1]), int(args[2]))
        elif kind == "google":
            result = _case_google(Path(tmp))
        else:
            players, rounds = int(args[1]), int(args[2])
            result = _case_excel(kind, players, rounds, Path(tmp), Path(args[3]))
    print("RESULT " + json.dumps(result))


# Processes run as an installed sheets-sync runs: from compiled bytecode (pip compiles a wheel's
# modules when it installs them).  A machine with PYTHONDONTWRITEBYTECODE set (this one is)
# would otherwise compile every module of ours from source in every process, a third of a small
# sync; the bytecode goes to a cache folder of its own, never into the checkout.
_PYCACHE = Path(tempfile.gettempdir()) / "sheets-sync-bench-pycache"
_ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
        "PYTHONPATH": str(ROOT), "PYTHONPYCACHEPREFIX": str(_PYCACHE)}


def compile_bytecode() -> None:
    """Compile our packages (and the benchmark's) into the bytecode cache the timed processes use."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "scoring"), str(ROOT / "sheets_sync"),
                    str(ROOT / "bench")], env=_ENV, check=True, stdout=subprocess.DEVNULL)


def run_in_child(*argv: str) -> None:
    """``python *argv`` in a process of its own, for the untimed work around the timed processes
    (generating a workbook, a judge's save with openpyxl).  On Linux a process's max RSS starts
    from the peak of the process it was forked from (the kernel keeps it across fork and exec): a
    bench process that had generated the 1000-player workbook itself (about 400 MB) lent that peak
    to every sync it timed, and the sync's memory read 424 MB where it peaks at about 210 MB."""
    subprocess.run([sys.executable, *argv], cwd=ROOT, env=_ENV, check=True, stdout=subprocess.DEVNULL)


def bench_process_peak_mb() -> float:
    """This process's max RSS: the floor under every figure of the processes it starts."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_case(*args: str) -> dict:
    cmd = [sys.executable, "-m", "bench.run", "--child", *args]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=_ENV)
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise RuntimeError(f"bench case {args} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}")


def timed_process(cmd: list[str], cwd: Path) -> tuple[float, float]:
    """Wall seconds and max RSS (MB) of one whole process, start-up and imports included."""
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=_ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.returncode not in (0,):
        raise RuntimeError(f"{cmd} exited {proc.returncode}: {err[-2000:]}")
    return wall, usage.ru_maxrss / 1024


BARE = ("import sys, openpyxl; wb = openpyxl.load_workbook(sys.argv[1]); wb.save(sys.argv[2])")


# issue 24's targets: a whole-process sync after one edit, as a ratio to the bare round trip of the
# same workbook; and the first sync no slower than before the rewrite (docs/benchmarks.md of 2026-12-01)
EDIT_TARGET = {200: 0.8, 1000: 0.5}
FIRST_SYNC_BEFORE_REWRITE = {40: 1.50, 200: 1.22, 1000: 1.12}


def whole_processes(book: Path, workdir: Path, runs: int) -> dict:
    """Median wall time of whole processes: the bare openpyxl load + save of the workbook,
    a first ``sheets-sync sync`` of a fresh copy, and a ``sync`` right after it (nothing changed)."""
    import shutil
    import statistics

    bare, first, again, rss, edited, edited_bare = [], [], [], [], [], []
    # one untimed round first: the first processes of a case pay for cold file caches (the
    # interpreter, the packages, the workbook), which the next ones do not
    warm = workdir / "warm" / book.name
    warm.parent.mkdir()
    shutil.copyfile(book, warm)
    timed_process([sys.executable, "-c", BARE, str(book), str(workdir / "bare.xlsx")], workdir)
    timed_process([sys.executable, "-m", "sheets_sync.cli", "sync", str(warm), "--backups", "0"],
                  warm.parent)
    shutil.rmtree(warm.parent)
    for i in range(runs):
        bare.append(timed_process([sys.executable, "-c", BARE, str(book), str(workdir / "bare.xlsx")], workdir)[0])
        copy = workdir / f"run{i}" / book.name
        copy.parent.mkdir()
        shutil.copyfile(book, copy)
        cli = [sys.executable, "-m", "sheets_sync.cli", "sync", str(copy), "--backups", "0"]
        wall, peak = timed_process(cli, copy.parent)
        first.append(wall)
        rss.append(peak)
        again.append(timed_process(cli, copy.parent)[0])
        # a judge saves one protocol cell of the synced workbook (untimed): the sync of a tournament
        # day, next to the bare round trip of that same, synced workbook
        _edit_in_child(copy)
        edited_bare.append(timed_process([sys.executable, "-c", BARE, str(copy), str(workdir / "bare.xlsx")], workdir)[0])
        wall, peak = timed_process(cli, copy.parent)
        edited.append(wall)
        rss.append(peak)
    # the runs' folders go only now: deleting a site of 2,000 files (ext4 with online discard) slows
    # down whatever creates files next, which would have been the next run's first sync
    for i in range(runs):
        shutil.rmtree(workdir / f"run{i}")
    return {"runs": runs, "bare_s": statistics.median(bare), "first_s": statistics.median(first),
            "unchanged_s": statistics.median(again), "bare_all": bare, "first_all": first, "unchanged_all": again,
            "cli_maxrss_mb": max(rss), "edited_s": statistics.median(edited),
            "edited_bare_s": statistics.median(edited_bare), "edited_all": edited, "edited_bare_all": edited_bare}


def _edit_in_child(book: Path, *value_and_target: object) -> None:
    """:func:`_edit_one_cell` in a process of its own (:func:`run_in_child`)."""
    run_in_child("-c", "import sys; from bench.run import _edit_one_cell; _edit_one_cell(*sys.argv[1:])", str(book),
                 *map(str, value_and_target))


def _edit_one_cell(book: str | Path, value: str | None = None, target: str | Path | None = None) -> None:
    """As a judge saving in Excel: the extra points of seat 1 of the first game changed (to
    ``value``, else to 0.1 or 0.2, whichever it is not), saved as ``target`` (default: ``book``)."""
    import openpyxl

    wb = openpyxl.load_workbook(book)
    first_game = next(title for title in wb.sheetnames if title.startswith(("Тур 1 ", "Round 1 ")))
    cell = wb[first_game]["I10"]
    cell.value = float(value) if value is not None else 0.1 if cell.value != 0.1 else 0.2
    wb.save(target or book)


# -- report ----------------------------------------------------------------------------------------
def fmt_ms(s: float) -> str:
    return f"{s * 1000:.0f} ms" if s < 10 else f"{s:.1f} s"


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}×" if b else "–"


def markdown(results: list[dict], google: dict | None, draw: str | None, method: dict) -> str:
    loads = method["loads"]
    lines = [
        "# Benchmarks",
        "",
        f"Measured {time.strftime('%Y-%m-%d %H:%M')} on `{platform.node()}`: {os.cpu_count()} CPUs (nproc "
        f"{len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()}), {cpu_model()}, "
        f"Python {platform.python_version()}, {platform.system()} {platform.release()}.",
        "",
        "**Method.** `make bench` (`python -m bench.run`); not part of `make test`. Whole processes are timed "
        f"from the outside ({method['runs_text']}, the median shown, after one untimed round that warms the file "
        "caches): the bare openpyxl round trip (`python -c` that loads the workbook and saves it), a first "
        "`sheets-sync sync` of a fresh copy, and a second `sync` right after it with nothing changed — the three "
        "one after the other in every run, so that each ratio compares processes of the same minutes. The split of a first sync (read / compute / write / "
        "files), the sync after one protocol edit and the in-process no-change sync come from one more process "
        "per case (`sync_once`). Every process runs from compiled bytecode, as an installed wheel does "
        "(`compileall` into a cache folder of the bench's own, `PYTHONPYCACHEPREFIX`). Peak memory is the largest max RSS "
        "of every first and after-edit `sync` process (it forks nothing); the workbooks are generated in processes "
        "of their own, because on Linux a process's max RSS starts from the peak of the one that started it (this "
        f"bench process peaked at {method['bench_peak_mb']:.0f} MB). Generated tournaments: "
        "every qualifying game played by the seeded simulator, rotating seating (`bench/generate.py`).",
        "",
        "**Idle check.** 1-minute load average before each case: "
        + ", ".join(f"{c} {a:.1f}" for c, a in loads) + f"; at the end {method['load_end']:.1f} on "
        f"{os.cpu_count()} CPUs. " + ("The machine was shared with other jobs while this ran (load above the CPU "
        "count): seconds are inflated and noisy; the ratios, measured side by side in the same minutes, are what "
        "to compare." if max(a for _, a in loads + [("end", method["load_end"])]) > (os.cpu_count() or 1)
        else "Nothing else ran (the load is the bench's own: a sync uses both cores)."),
        "",
        "## Excel sync: whole processes",
        "",
        "| case | players | games | tabs | file | openpyxl load+save | first sync | ratio | "
        "no change | ratio to first (target ≤ 0.10×) | max RSS (target < 250 MB) | after one edit: bare | sync | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        w = r["whole"]
        lines.append(
            f"| {r['case']} | {r['players']} | {r['games']} | {r['tabs']} | {r['bytes'] / 1024:.0f} KB | "
            f"{fmt_ms(w['bare_s'])} | {fmt_ms(w['first_s'])} | {_ratio(w['first_s'], w['bare_s'])} | "
            f"{fmt_ms(w['unchanged_s'])} | {_ratio(w['unchanged_s'], w['first_s'])} | {w['cli_maxrss_mb']:.0f} MB | "
            f"{fmt_ms(w['edited_bare_s'])} | {fmt_ms(w['edited_s'])} | {_ratio(w['edited_s'], w['edited_bare_s'])} |")
    lines += [
        "",
        "A first sync adds the results tabs to a workbook that has none (the example's 42 tabs become 50): its "
        "save writes more than the bare round trip saves. *After one edit*: a judge saved one protocol cell of the "
        "synced workbook; the sync of it next to the bare openpyxl round trip of that same workbook — the sync "
        "of a tournament day (pages whose inputs did not change are not rendered again).",
    ]
    lines += [
        "",
        "## Excel sync: inside one process",
        "",
        "First sync split into its steps; after one edit: a judge saved one protocol cell (owned tabs and output "
        "files rewritten only where they differ); no change: `sync_once` on the unchanged file (its bytes hashed, "
        "nothing loaded).",
        "",
        "| case | first sync | read | compute | write | files | files written | after one edit | tabs written "
        "| files written / kept | no change | ratio to first | max RSS |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        t = r["timings"]
        o1, o2 = r.get("outputs_first") or {}, r.get("second_outputs") or {}
        lines.append(
            f"| {r['case']} | {fmt_ms(r['first_sync_s'])} | {fmt_ms(t['read'])} | {fmt_ms(t['compute'])} | "
            f"{fmt_ms(t['write'])} | {fmt_ms(t['files'])} | {o1.get('written', 0)} | {fmt_ms(r['second_sync_s'])} | "
            f"{r['second_tabs']} | {o2.get('written', 0)} / {o2.get('kept', 0)} | {fmt_ms(r['idle_sync_s'])}"
            f"{'' if r['idle_skipped'] else ' (not skipped)'} | {_ratio(r['idle_sync_s'], r['first_sync_s'])} | "
            f"{r['maxrss_mb']:.0f} MB |")
    lines += ["", "Whole-process seconds of every run (bare / first / no change / bare after the edit / sync after the "
        "edit): " + "; ".join(
        f"{r['case']} " + " / ".join(",".join(f"{x:.2f}" for x in r["whole"][k])
                                     for k in ("bare_all", "first_all", "unchanged_all", "edited_bare_all", "edited_all"))
        for r in results) + "."]
    lines += ["", "First sync ÷ bare round trip, run by run (the two processes of one run are seconds apart; on a "
              "shared machine these pairs are steadier than the seconds): " + "; ".join(
                  f"{r['case']} " + ", ".join(f"{f / b:.2f}×" for b, f in zip(r["whole"]["bare_all"], r["whole"]["first_all"]))
                  for r in results) + "."]
    lines += ["", "Imports of `sheets_sync.loop.sync` and the Excel backend, measured in the in-process case: "
              + ", ".join(f"{r['case']} {fmt_ms(r['import_s'])}" for r in results) + "."]
    verdict = []
    for r in results:
        w = r["whole"]
        first = w["first_s"] / w["bare_s"]
        edit = w["edited_s"] / w["edited_bare_s"]
        idle = w["unchanged_s"] / w["first_s"]
        was = FIRST_SYNC_BEFORE_REWRITE.get(r["players"])
        wanted = EDIT_TARGET.get(r["players"])
        verdict.append(
            f"- {r['case']}: after one edit {edit:.2f}× the openpyxl round trip"
            + (f" (target ≤ {wanted}×): {'met' if edit <= wanted else 'MISSED'}" if wanted else "")
            + f"; first sync {first:.2f}×" + (f" (before the rewrite {was}×): {'met' if first <= was else 'MISSED'}" if was else "")
            + f"; no change {idle:.2f}× the first sync (issue 17's ≤ 0.10×): {'met' if idle <= 0.1 else 'MISSED'}"
            + f"; memory {w['cli_maxrss_mb']:.0f} MB (largest of every first and after-edit sync): "
            + f"{'met' if w['cli_maxrss_mb'] < 250 else 'MISSED'}")
    lines += ["", "Targets (issue 24, measured, never asserted in tests):", ""] + verdict
    if google:
        lines += ["", "## Google Sheets cycle (fake server on 127.0.0.1, example workbook)", "",
                  "| cycle | HTTP requests | seconds | written |", "|---|---:|---:|---|"]
        for label, c in google["cycles"].items():
            lines.append(f"| {label} | {c['requests']} | {c['seconds']:.2f} | {c['written']} |")
    watched = [r for r in results if r.get("watch")]
    if watched:
        lines += ["", "## watch on an .xlsx (`--interval 10`)", "",
                  "A judge saves a protocol cell of the watched workbook, one save a second after the last cycle, "
                  "each an atomic rename as Excel saves. *Wakes*: from the rename to the start of the poll that "
                  "computes it (target ≤ 300 ms). *New outputs*: from the rename to the end of that cycle, tabs "
                  "and files written. *Cycles per save*: the wake-up by our own write is recognised and computes "
                  "nothing (target: one each).", "",
                  "| case | saves | wakes (median / max) | new outputs (median) | cycles per save | max RSS |",
                  "|---|---:|---:|---:|---|---:|"]
        for r in watched:
            w = r["watch"]
            lines.append(f"| {r['case']} | {w['saves']} | {fmt_ms(w['reaction_median_s'] or 0)} / "
                         f"{fmt_ms(w['reaction_max_s'] or 0)} | {fmt_ms(w['outputs_median_s'] or 0)} | "
                         f"{w['cycles_per_save']} | {w['maxrss_mb']:.0f} MB |")
    if draw:
        lines += ["", "## Draw (bench.draw_bench)", "", "```", draw.strip(), "```"]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="skip 1000 players and the draw")
    parser.add_argument("--runs", type=int, default=5, help="whole-process runs per measurement (median)")
    parser.add_argument("--large-runs", type=int, default=3, help="runs for 1000 players")
    parser.add_argument("--no-draw", action="store_true", help="skip bench.draw_bench")
    parser.add_argument("--no-write", action="store_true", help="print, do not rewrite docs/benchmarks.md")
    args = parser.parse_args()
    if args.child:
        _child(args.child)
        return
    compile_bytecode()
    cases = [("example", 40, 7), ("generated-200", 200, 10)]
    if not args.quick:
        cases.append(("generated-1000", 1000, 10))
    results = []
    loads: list[tuple[str, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for kind, players, rounds in cases:
            print(f"{kind}…", flush=True)
            loads.append((kind, os.getloadavg()[0]))
            book = Path(tmp) / f"{kind}.xlsx"
            if kind == "example":
                import shutil

                from sheets_sync.example import EXAMPLE_PATH

                shutil.copyfile(EXAMPLE_PATH, book)
            else:  # in a child: see run_in_child
                run_in_child("-m", "bench.generate", str(book), "--players", str(players), "--rounds", str(rounds))
            r = run_case(kind, str(players), str(rounds), str(book))
            work = Path(tmp) / f"{kind}-whole"
            work.mkdir()
            runs = args.large_runs if players >= 1000 and args.large_runs else args.runs
            r["whole"] = whole_processes(book, work, runs)
            w = r["whole"]
            print(f"  bare {fmt_ms(w['bare_s'])}, first sync {fmt_ms(w['first_s'])} ({_ratio(w['first_s'], w['bare_s'])}), "
                  f"no change {fmt_ms(w['unchanged_s'])}; in process {r['timings']}; max RSS {w['cli_maxrss_mb']:.0f} MB",
                  flush=True)
            # watch on the same workbook: from a judge's save to the new outputs
            r["watch"] = run_case("watch", str(book), str(3 if players >= 1000 else 5 if players >= 200 else 7))
            print("  watch " + json.dumps(r["watch"]), flush=True)
            results.append(r)
    print("google…", flush=True)
    google = run_case("google")
    print("  " + json.dumps({k: v["requests"] for k, v in google["cycles"].items()}, ensure_ascii=False))
    draw = None
    if not args.quick and not args.no_draw and importlib.util.find_spec("bench.draw_bench") is not None:
        print("bench.draw_bench…", flush=True)
        proc = subprocess.run([sys.executable, "-m", "bench.draw_bench"], cwd=ROOT, capture_output=True, text=True,
                              env=_ENV)
        draw = proc.stdout[-6000:] + (f"\n(exit {proc.returncode}: {proc.stderr[-1000:]})" if proc.returncode else "")
        print(draw)
    if draw is None and DOC.exists() and "## Draw (bench.draw_bench)" in DOC.read_text(encoding="utf-8"):
        # not run this time: keep the last figures of the draw, saying so
        old = DOC.read_text(encoding="utf-8").split("## Draw (bench.draw_bench)", 1)[1].split("\n## Notes", 1)[0]
        block = old.split("```")[1] if old.count("```") >= 2 else ""
        if block.strip():
            draw = ("(not run this time: --no-draw; the figures of the previous run)\n"
                    + block.strip().removeprefix("(not run this time: --no-draw; the figures of the previous run)\n"))
    runs_text = f"{args.runs} runs each" + (f", {args.large_runs} at 1000 players" if args.large_runs else "")
    method = {"runs_text": runs_text, "runs": args.runs, "loads": loads, "load_end": os.getloadavg()[0],
              "bench_peak_mb": bench_process_peak_mb()}
    text = markdown(results, google, draw, method)
    if args.no_write:
        print(text)
    else:
        DOC.parent.mkdir(exist_ok=True)
        # keep hand-written notes below the generated part
        notes = ""
        if DOC.exists() and "\n## Notes" in DOC.read_text(encoding="utf-8"):
            notes = DOC.read_text(encoding="utf-8").split("\n## Notes", 1)[1]
            notes = "\n## Notes" + notes
        DOC.write_text(text + notes, encoding="utf-8")
        print(f"wrote {DOC}")


if __name__ == "__main__":
    main()
