"""`make bench`: timings of the sync, HTTP requests per Google cycle, peak memory.

Plain script, not a test: it measures and writes docs/benchmarks.md (date, machine).
Each measurement runs in a fresh subprocess so peak RSS belongs to that case alone.

    python -m bench.run            # everything
    python -m bench.run --quick    # skip 500 players
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


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


# -- one case, run in a child process -------------------------------------------------------
def _case_excel(kind: str, players: int, rounds: int, workdir: Path) -> dict:
    import resource
    import shutil
    import tracemalloc

    t_import = time.perf_counter()
    from sheets_sync.backends.excel import ExcelBackend
    from sheets_sync.sync import sync_once
    import_s = time.perf_counter() - t_import
    book = workdir / f"{kind}.xlsx"
    if kind == "example":
        from sheets_sync.example import EXAMPLE_PATH

        shutil.copyfile(EXAMPLE_PATH, book)
    else:
        from bench.generate import generate_workbook

        generate_workbook(book, players=players, rounds=rounds)
    # 1. the timed cycle: a full first sync (every owned tab written), nothing else running
    timed = workdir / f"{kind}-timed.xlsx"
    shutil.copyfile(book, timed)
    t = time.perf_counter()
    report = sync_once(ExcelBackend(timed, backups=0), out_dir=workdir / f"{kind}-out")
    total = time.perf_counter() - t
    # 2. the same cycle under tracemalloc, only for the Python heap peak (tracemalloc slows it 2-3×)
    traced = workdir / f"{kind}-traced.xlsx"
    shutil.copyfile(book, traced)
    tracemalloc.start()
    sync_once(ExcelBackend(traced, backups=0), out_dir=workdir / f"{kind}-out-traced")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    # 3. a judge saved one protocol (extra points of seat 1 of the first game): everything is
    #    read and computed again, only what changed is written
    import openpyxl

    wb = openpyxl.load_workbook(timed)
    first_game = next(title for title in wb.sheetnames if title.startswith(("Тур 1 ", "Round 1 ")))
    wb[first_game]["I10"] = 0.1 if wb[first_game]["I10"].value != 0.1 else 0.2
    wb.save(timed)
    t = time.perf_counter()
    report_again = sync_once(ExcelBackend(timed, backups=0), out_dir=workdir / f"{kind}-out")
    again = time.perf_counter() - t
    # 4. nothing changed: read and compute, nothing written
    t = time.perf_counter()
    idle = sync_once(ExcelBackend(timed, backups=0), out_dir=workdir / f"{kind}-out")
    idle_s = time.perf_counter() - t
    return {
        "case": kind, "players": players, "games": len(report.outcome.results.counted),
        "tabs": len(report.snapshot.order), "bytes": book.stat().st_size,
        "import_s": import_s, "first_sync_s": total, "timings": report.timings,
        "second_sync_s": again, "second_timings": report_again.timings, "idle_sync_s": idle_s,
        "idle_timings": idle.timings, "tracemalloc_peak_mb": peak / 2**20,
        "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def _case_google(workdir: Path) -> dict:
    import resource

    from sheets_sync.backends.google import GoogleBackend
    from sheets_sync.example import EXAMPLE_PATH
    from sheets_sync.backends.excel import ExcelBackend
    from sheets_sync.sync import sync_once
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


def _child(args: list[str]) -> None:
    kind = args[0]
    with tempfile.TemporaryDirectory() as tmp:
        if kind == "google":
            result = _case_google(Path(tmp))
        else:
            players, rounds = int(args[1]), int(args[2])
            result = _case_excel(kind, players, rounds, Path(tmp))
    print("RESULT " + json.dumps(result))


def run_case(*args: str, profile: Path | None = None) -> dict:
    cmd = [sys.executable, "-m", "bench.run", "--child", *args]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise RuntimeError(f"bench case {args} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}")


# -- report ----------------------------------------------------------------------------------------
def fmt_ms(s: float) -> str:
    return f"{s * 1000:.0f} ms" if s < 10 else f"{s:.1f} s"


def markdown(results: list[dict], google: dict | None, draw: str | None) -> str:
    lines = [
        "# Benchmarks",
        "",
        f"Measured {time.strftime('%Y-%m-%d %H:%M')} on `{platform.node()}`: {os.cpu_count()} CPUs (nproc "
        f"{len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()}), {cpu_model()}, "
        f"Python {platform.python_version()}, {platform.system()} {platform.release()}; load average at the end "
        f"{os.getloadavg()[0]:.1f} (figures are only comparable on an otherwise idle machine).",
        "Regenerate with `make bench` (`python -m bench.run`); not part of `make test`. Each case runs in a fresh",
        "process; `sync` is `sync_once` on an .xlsx (read, compute = parse+validate+score+rank+render the patch,",
        "write = apply to the workbook, files = standings.json + site + VK post). Generated tournaments: every",
        "qualifying game played by the seeded simulator, rotating seating (`bench/generate.py`).",
        "",
        "## Excel sync",
        "",
        "First sync: every owned tab written (read / compute / write / files split out). After one edit: a judge",
        "saved one protocol cell, the whole cycle runs again and writes what changed. Unchanged: nothing to write.",
        "Timings run without tracemalloc; its heap peak comes from a separate identical run.",
        "",
        "| case | players | games | tabs | file | first sync | read | compute | write | files | after one edit | unchanged | peak (tracemalloc) | max RSS |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        t = r["timings"]
        lines.append(
            f"| {r['case']} | {r['players']} | {r['games']} | {r['tabs']} | {r['bytes'] / 1024:.0f} KB | "
            f"{fmt_ms(r['first_sync_s'])} | {fmt_ms(t['read'])} | {fmt_ms(t['compute'])} | {fmt_ms(t['write'])} | "
            f"{fmt_ms(t['files'])} | {fmt_ms(r['second_sync_s'])} | {fmt_ms(r['idle_sync_s'])} | "
            f"{r['tracemalloc_peak_mb']:.0f} MB | {r['maxrss_mb']:.0f} MB |")
    lines += ["", "Python start-up and imports, measured in the same processes: "
              + ", ".join(f"{r['case']} {fmt_ms(r['import_s'])}" for r in results) + "."]
    lines += ["", "Targets (measured, not asserted): example end to end < 1 s; 500 players / 500 games < 10 s end",
              "to end on Excel and < 2 s of compute; memory < 300 MB."]
    verdict = []
    for r in results:
        if r["case"] == "example":
            verdict.append(f"- example sync {fmt_ms(r['first_sync_s'])}: {'met' if r['first_sync_s'] < 1 else 'MISSED'}")
        if r["players"] == 500:
            verdict.append(f"- 500 players end to end {fmt_ms(r['first_sync_s'])}: "
                           f"{'met' if r['first_sync_s'] < 10 else 'MISSED'}; compute {fmt_ms(r['timings']['compute'])}: "
                           f"{'met' if r['timings']['compute'] < 2 else 'MISSED'}")
        verdict.append(f"- {r['case']} memory: max RSS {r['maxrss_mb']:.0f} MB: {'met' if r['maxrss_mb'] < 300 else 'MISSED'}")
    lines += [""] + verdict
    if google:
        lines += ["", "## Google Sheets cycle (fake server on 127.0.0.1, example workbook)", "",
                  "| cycle | HTTP requests | seconds | written |", "|---|---:|---:|---|"]
        for label, c in google["cycles"].items():
            lines.append(f"| {label} | {c['requests']} | {c['seconds']:.2f} | {c['written']} |")
    if draw:
        lines += ["", "## Draw (bench.draw_bench)", "", "```", draw.strip(), "```"]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="skip the 500-player tournament")
    parser.add_argument("--no-write", action="store_true", help="print, do not rewrite docs/benchmarks.md")
    args = parser.parse_args()
    if args.child:
        _child(args.child)
        return
    cases = [("example", 40, 7), ("generated-100", 100, 10), ("generated-200", 200, 10)]
    if not args.quick:
        cases.append(("generated-500", 500, 10))
    results = []
    for kind, players, rounds in cases:
        print(f"{kind}…", flush=True)
        r = run_case(kind, str(players), str(rounds))
        print(f"  first sync {fmt_ms(r['first_sync_s'])} {r['timings']}; max RSS {r['maxrss_mb']:.0f} MB", flush=True)
        results.append(r)
    print("google…", flush=True)
    google = run_case("google")
    print("  " + json.dumps({k: v["requests"] for k, v in google["cycles"].items()}, ensure_ascii=False))
    draw = None
    if importlib.util.find_spec("bench.draw_bench") is not None:
        print("bench.draw_bench…", flush=True)
        proc = subprocess.run([sys.executable, "-m", "bench.draw_bench"], cwd=ROOT, capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
        draw = proc.stdout[-6000:] + (f"\n(exit {proc.returncode}: {proc.stderr[-1000:]})" if proc.returncode else "")
        print(draw)
    text = markdown(results, google, draw)
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
