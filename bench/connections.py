"""`make bench` (issue 42 §1): ordinary GETs while 1,000 slow or idle connections are held, and with
none; the server's memory with them held.

Both servers run as people start them, each in a process of its own (so the RSS is the server's):
``sheets-sync server --no-worker`` (the Django app; GET ``/login/``) and ``sheets-sync watch
--serve`` on the example workbook (the hall's site; GET ``/index.html``), both with the usual
desktop soft limit of 1,024 open files (the server raises it).  The crowd (tests/crowd.py) holds
1,000 connections from 40 loopback addresses other than 127.0.0.1 — trickling a header byte every
2 s, or idle, or half and half; the GETs come from 127.0.0.1, one every 50 ms.  The servers' deadline
is lengthened to 60 s (``SHEETS_SYNC_REQUEST_SECONDS``) so the thousand stay held through every
GET — the worst case, the deadline not helping (with the 10 s default a crowd opened at once is
closed at once and has to open again: tests/test_connections.py tries that); the crowd opens again
any connection closed, and counts those open each second.

    python -m bench.connections            # 200 GETs a case
    python -m bench.connections --quick    # 40 GETs a case
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.run import ROOT, cpu_model, write_marked_section
from sheets_sync.example import EXAMPLE_PATH
from sheets_sync.loop.guard import raise_open_files
from tests.crowd import Crowd, get

BEGIN, END = "<!-- connections-bench:begin -->", "<!-- connections-bench:end -->"
CASES = [("none held", 0, 0.0), ("1,000 idle", 1000, 0.0), ("1,000 trickling", 1000, 1.0),
         ("1,000: half trickling, half idle", 1000, 0.5),
         ("5,000 idle (the loop's turn grows with them)", 5000, 0.0)]


def _lower_open_files() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(1024, hard), hard))


def _start(args: list[str], folder: Path) -> tuple[subprocess.Popen, int]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SHEETS_SYNC_DATA": "", "SHEETS_SYNC_REQUEST_SECONDS": "60"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    proc = subprocess.Popen([sys.executable, "-m", "sheets_sync", *args, "--language", "en"], cwd=folder, env=env,
                            text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, preexec_fn=_lower_open_files)
    for line in proc.stdout:
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if match:
            return proc, int(match.group(1))
    raise RuntimeError(f"{args[0]} did not start")


def _rss_mb(pid: int) -> tuple[float, float]:
    status = Path(f"/proc/{pid}/status").read_text()
    rss, peak = (int(re.search(rf"{key}:\s+(\d+) kB", status).group(1)) / 1024 for key in ("VmRSS", "VmHWM"))
    return rss, peak


def _gets(port: int, path: str, n: int) -> tuple[list[float], int]:
    times, failed = [], 0
    for _ in range(n):
        started = time.perf_counter()
        try:
            status, _ = get(port, path, timeout=30)
            if status != 200:
                failed += 1
        except OSError:
            failed += 1
        times.append((time.perf_counter() - started) * 1000)
        time.sleep(0.05)
    return times, failed


def _case(port: int, path: str, pid: int, size: int, slow: float, n: int) -> dict:
    if size == 0:
        times, failed = _gets(port, path, n)
        return {"times": times, "failed": failed, "held": "0", "rss": _rss_mb(pid)}
    # the crowd in a process of its own: its thread walking a thousand sockets is not the GETs' wait
    crowd = subprocess.Popen([sys.executable, "-m", "bench.connections", "--crowd", str(port), str(size), str(slow)],
                             cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert crowd.stdout.readline().startswith("held")
    times, failed = _gets(port, path, n)
    rss = _rss_mb(pid)
    held, _ = crowd.communicate("", timeout=60)
    mean, fewest = held.split()
    return {"times": times, "failed": failed, "held": f"{mean} (≥ {fewest})", "rss": rss}


def _hold(port: int, size: int, slow: float) -> None:
    """``--crowd PORT SIZE SLOW``: hold the crowd until standard input closes, counting the
    connections open each second (the server closes them at its deadline; the crowd opens them
    again): say the mean and the fewest."""
    raise_open_files()
    with Crowd(port, size=size, per_address=25, every=2.0, slow=slow, reconnect=True, first_subnet=10) as crowd:
        counts = [crowd.open_count()]
        print("held", counts[0], flush=True)
        done = threading.Event()
        threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
        while not done.wait(1.0):
            counts.append(crowd.open_count())
        print(f"{statistics.mean(counts):.0f} {min(counts)}", flush=True)


def _row(server: str, case: str, result: dict) -> str:
    times = sorted(result["times"])
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    rss, peak = result["rss"]
    return (f"| {server} | {case} | {result['held']} | {len(times)} | {result['failed']} | "
            f"{statistics.median(times):.1f} | {p95:.1f} | {times[-1]:.1f} | {rss:.0f} (peak {peak:.0f}) |")


def _first_answer(port: int, path: str) -> None:
    """Wait for the page (the watch writes the site after its first sync); the first request's
    imports and templates are not the crowd's."""
    end = time.monotonic() + 120
    while get(port, path)[0] != 200:
        if time.monotonic() > end:
            raise RuntimeError(f"{path} never answered 200")
        time.sleep(0.5)


def _server_rows(name: str, args: list[str], path: str, folder: Path, n: int) -> list[str]:
    proc, port = _start(args, folder)
    try:
        _first_answer(port, path)
        rows = []
        for case, size, slow in CASES:
            rows.append(_row(name, case, _case(port, path, proc.pid, size, slow, n)))
            print(rows[-1], flush=True)
        return rows
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--crowd", nargs=3, metavar=("PORT", "SIZE", "SLOW"), help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.crowd:
        _hold(int(options.crowd[0]), int(options.crowd[1]), float(options.crowd[2]))
        return
    n = 40 if options.quick else 200
    raise_open_files()  # the crowd's thousand sockets are this process's
    folder = Path(tempfile.mkdtemp(prefix="bench-connections-"))
    try:
        shutil.copyfile(EXAMPLE_PATH, folder / "cup.xlsx")
        rows = _server_rows("`server` (Django, `/login/`)", ["server", "--data", str(folder / "data"), "--port", "0",
                                                             "--no-worker"], "/login/", folder, n)
        rows += _server_rows("`watch --serve` (site, `/index.html`)", ["watch", "cup.xlsx", "--serve", "0", "--out",
                                                                      str(folder / "out")], "/index.html", folder, n)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())  # the machine is shared: how busy it was
    section = "\n".join([
        BEGIN, "## Held connections: slow and idle clients (bench/connections.py, issue 42 §1)", "",
        f"{stamp} · {cpu_model()} · {os.cpu_count()} cores, shared (load average at the end {load}) · Python {sys.version.split()[0]} · each server a "
        "process of its own started with a soft limit of 1,024 open files and the deadline lengthened to 60 s (the crowd held throughout) · the crowd from 40 loopback addresses "
        "(25 each), a trickler sending a header byte every 2 s, every connection the server closes opened again · "
        "ordinary GETs from 127.0.0.1, one every 50 ms", "",
        "| server | connections held | open during the GETs: mean (fewest) | GETs | failed | median ms | p95 ms | max ms | server RSS MB |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|", *rows, "",
        "Before (main, same machine, tests/test_connections.py and tests/web/test_connections.py): with 1,000 held, "
        "no GET answered within 15 s on either server.", END])
    write_marked_section(BEGIN, END, section)


if __name__ == "__main__":
    main()
