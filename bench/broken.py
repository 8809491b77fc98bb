"""`make bench` (issue 42 §5): a sync of a workbook with thousands of garbage rows typed into a tab.

Plain script, not a test: it measures and writes its own dated section of docs/benchmarks.md
(between the ``broken-bench`` markers).  The bundled example (40 players, 38 games) is synced once,
then 5,000 or 50,000 rows of random letters (12 cells each) are typed below a tab's own rows, and
one sync is measured, in a fresh process for each case:

* Google: the example on the fake server (a process of its own), the sync alone in another: the
  bytes of every ``batchUpdate`` it sends (Google refuses a request over 10 MB), the marks it sets,
  the rows of its Problems tab, its wall time and peak RSS;
* Excel: the same as an .xlsx (the garbage saved by another process), the sync alone in its
  process: wall time and peak RSS, the file's size.

    python -m bench.broken            # Seating and a protocol tab at 5,000 and 50,000 rows, Players at 5,000
    python -m bench.broken --quick    # 5,000 rows only
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.run import ROOT, _ENV, cpu_model, write_marked_section

BEGIN, END = "<!-- broken-bench:begin -->", "<!-- broken-bench:end -->"
# (tab, rows): the seating and a protocol tab take garbage as unreadable rows; the Players tab takes
# each garbage row as a player (a name is any text), so 50,000 there is a 50,000-player tournament
CASES = (("Рассадка", 5_000), ("Рассадка", 50_000), ("Тур 1 Стол 1", 5_000), ("Тур 1 Стол 1", 50_000),
         ("Игроки", 5_000))


def garbage(n: int, seed: int = 1) -> list[list[str]]:
    rng = random.Random(seed)
    letters = string.ascii_letters
    return [["".join(rng.choice(letters) for _ in range(8)) for _ in range(12)] for _ in range(n)]


def _rss_mb() -> float:
    """This process's resident memory now (Linux), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _peak_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _counts(report) -> dict:
    problems = report.outcome.problems if report.outcome is not None else ()
    return {"marks": len(report.patch.set_marks), "problems": len(problems)}


# -- the cases, each in a process of its own -----------------------------------------------------
def serve_google(tab: str, rows: int, folder: Path) -> None:
    """The fake server in a process of its own, holding the example synced once (by a client in this
    process, into ``folder/out``) with the garbage typed; says READY, serves until a line on stdin,
    then says what the other process's sync wrote."""
    from sheets_sync.example import EXAMPLE_PATH
    from sheets_sync.loop.sync import sync_once
    from tests.fake_sheets import FakeSheetsServer
    from tests.google_support import google_backend, upload_xlsx, write_key_file

    with FakeSheetsServer() as server:
        server.quota.enabled = False
        key = write_key_file(folder / "sa.json", server.token_uri)
        sid = upload_xlsx(server, EXAMPLE_PATH)
        sync_once(google_backend(server, key, sid), out_dir=folder / "out")
        typed = len(server.values(sid, tab))
        server.set_values(sid, tab, garbage(rows), start=f"A{typed + 2}", raw=True)
        server.reset_counts()
        print(f"READY {server.url} {sid} {key}", flush=True)
        sys.stdin.readline()
        writes = [r["bytes"] for r in server.request_log if r["path"].endswith(":batchUpdate")]
        notes = sum(1 for t in server.tabs(sid) for c in server.cells(sid, t).values() if c.note)
        listed = len(server.values(sid, "Проверка")) - 3 if "Проверка" in server.tabs(sid) else 0
        print("RESULT " + json.dumps({"writes": len(writes), "write_mb": sum(writes) / 1e6,
                                      "largest_mb": max(writes, default=0) / 1e6, "notes": notes,
                                      "problems_rows": listed}), flush=True)


def case_google(url: str, sid: str, key: str, folder: Path) -> dict:
    """One sync of the sheet ``sid`` of the fake server at ``url``: this process holds only the sync."""
    from google.oauth2 import service_account

    from sheets_sync.backends.google import SCOPES, GoogleBackend, authorized_http_client
    from sheets_sync.loop.sync import sync_once

    credentials = service_account.Credentials.from_service_account_file(key, scopes=list(SCOPES))
    backend = GoogleBackend(f"gsheet:{sid}", http_client=authorized_http_client(credentials, endpoint=url))
    started = time.perf_counter()
    failed, counted = "", {}
    try:
        counted = _counts(sync_once(backend, out_dir=folder / "out"))
    except Exception as exc:  # noqa: BLE001 - the code before issue 42 §5: a refused write is a figure too
        failed = str(exc)[:120]
    return {**counted, "seconds": time.perf_counter() - started, "peak_mb": _peak_mb(), "failed": failed}


def _google(tab: str, rows: int, env: dict | None) -> dict:
    """The Google case: the server's process, the sync's process, what the server saw."""
    with tempfile.TemporaryDirectory() as tmp:
        code = Path((env or _ENV)["PYTHONPATH"].split(os.pathsep)[0])
        server = subprocess.Popen([sys.executable, "-m", "bench.broken", "--child", "serve", tab, str(rows), tmp],
                                  cwd=code, env=env or _ENV, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            ready = server.stdout.readline().split()
            if not ready or ready[0] != "READY":
                raise RuntimeError(f"the fake server did not start: {ready}")
            sync = _run("google", *ready[1:], tmp, env=env)
            server.stdin.write("done\n")
            server.stdin.flush()
            seen = next(json.loads(line[7:]) for line in server.stdout if line.startswith("RESULT "))
        finally:
            server.kill()
            server.wait()
    return {**sync, **seen}


def prepare_excel(tab: str, rows: int, book: Path) -> None:
    """The example synced once as an .xlsx, then the garbage typed and saved (this process is not measured)."""
    import openpyxl

    from sheets_sync.backends.excel import ExcelBackend
    from sheets_sync.example import EXAMPLE_PATH
    from sheets_sync.loop.sync import sync_once

    shutil.copyfile(EXAMPLE_PATH, book)
    sync_once(ExcelBackend(book, backups=0), out_dir=book.parent / "out")
    wb = openpyxl.load_workbook(book)
    ws = wb[tab]
    ws.append([])
    for row in garbage(rows):
        ws.append(row)
    wb.save(book)


def case_excel(book: Path) -> dict:
    from sheets_sync.backends.excel import ExcelBackend
    from sheets_sync.loop.sync import sync_once

    started = time.perf_counter()
    report = sync_once(ExcelBackend(book, backups=0), out_dir=book.parent / "out")
    seconds = time.perf_counter() - started
    return {**_counts(report), "seconds": seconds, "peak_mb": _peak_mb(), "file_mb": book.stat().st_size / 1e6}


def _child(args: list[str]) -> None:
    kind = args[0]
    if kind == "serve":
        serve_google(args[1], int(args[2]), Path(args[3]))
        return
    if kind == "google":
        result = case_google(args[1], args[2], args[3], Path(args[4]))
    elif kind == "prepare":
        prepare_excel(args[1], int(args[2]), Path(args[3]))
        result = {}
    else:
        result = case_excel(Path(args[1]))
    print("RESULT " + json.dumps(result))


def _run(*args: str, env: dict | None = None) -> dict:
    # ``-m`` puts the working folder first on the path: the code measured is the one run from
    code = Path((env or _ENV)["PYTHONPATH"].split(os.pathsep)[0])
    proc = subprocess.run([sys.executable, "-m", "bench.broken", "--child", *args], cwd=code, capture_output=True,
                          text=True, env=env or _ENV)
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise RuntimeError(f"bench case {args} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}")


def measure(cases, env: dict | None = None) -> list[dict]:
    results = []
    for tab, rows in cases:
        google = _google(tab, rows, env)
        with tempfile.TemporaryDirectory() as tmp:
            book = Path(tmp) / "cup.xlsx"
            _run("prepare", tab, str(rows), str(book), env=env)
            excel = _run("excel", str(book), env=env)
        results.append({"tab": tab, "rows": rows, "google": google, "excel": excel})
        print(f"{tab} {rows}: {json.dumps(results[-1], ensure_ascii=False)}", flush=True)
    return results


def markdown(results: list[dict], seconds: float) -> str:
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    lines = [BEGIN, "## Garbage rows typed into a tab (bench/broken.py, issue 42 §5)", "",
             f"Measured {time.strftime('%Y-%m-%d %H:%M')} on {cpu_model()}, {os.cpu_count()} cores shared with other "
             f"work, Python {sys.version.split()[0]}; load average {load} at the end; {seconds:.0f} s in all. The example "
             "(38 games) synced once, then N rows of random letters (12 cells each) typed below the tab's own rows; "
             "one sync measured, each case in fresh processes.", "",
             "| tab | rows | Google: batchUpdates, MB in all, largest MB | marks set | problems / Problems tab rows | "
             "Google: sync s, peak RSS MB | Excel: sync s, peak RSS MB |",
             "|---|---:|---|---:|---|---|---|"]
    for r in results:
        g, e = r["google"], r["excel"]
        writes = f"{g['writes']}, {g['write_mb']:.1f}, {g['largest_mb']:.1f}" + (" (refused)" if g.get("failed") else "")
        lines.append(f"| {r['tab']} | {r['rows']:,} | {writes} | {g.get('marks', '—')} | "
                     f"{g.get('problems', '—')} / {g['problems_rows']} | {g['seconds']:.1f} s, {g['peak_mb']:.0f} | "
                     f"{e['seconds']:.1f} s, {e['peak_mb']:.0f} |")
    lines += ["", "Google refuses a request over 10 MB; the sync keeps each under 4 MB (planner.MAX_REQUEST_BYTES). "
              "Garbage in the Players tab is players (a name is any text): the standings, the site's pages and "
              "Итоги grow with them, which no cap may cut, so 50,000 rows there is a 50,000-player tournament and "
              "is not a case of this bench.", END]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--child", nargs=argparse.REMAINDER)
    parser.add_argument("--quick", action="store_true", help="5,000 rows only")
    parser.add_argument("--code", help="measure the code of this folder (a checkout before the change); "
                                       "print the figures, write nothing")
    args = parser.parse_args()
    if args.child:
        _child(args.child)
        return
    cases = [c for c in CASES if not args.quick or c[1] <= 5_000]
    started = time.perf_counter()
    if args.code:
        env = {**_ENV, "PYTHONPATH": f"{Path(args.code).resolve()}{os.pathsep}{ROOT}"}
        measure(cases, env)
        return
    results = measure(cases)
    write_marked_section(BEGIN, END, markdown(results, time.perf_counter() - started))


if __name__ == "__main__":
    main()
