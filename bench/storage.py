"""`make bench` (the server's storage, issue 42 §6, §7): what the site's switch costs, and how the
server answers while another process holds its SQLite database.

Plain script, not a test: it measures and writes its own dated section of docs/benchmarks.md
(between the ``storage-bench`` markers).

* the switch (:func:`sheets_sync.web.site_versions.switch_site`): a version of hard links of the
  example's synced site (93 files), and of a site of 2,000 files, each switched 20 times;
* a busy database: a real ``sheets-sync server --no-worker`` and a second process holding
  ``BEGIN IMMEDIATE`` on its database; 10 button presses at once (more than waitress' 8 threads),
  a public page and a page read with ``?lang=en`` meanwhile — how long each took, what it answered.

    python -m bench.storage
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.run import ROOT, cpu_model, write_marked_section

BEGIN, END = "<!-- storage-bench:begin -->", "<!-- storage-bench:end -->"
EMAIL, PASSWORD = "anna@example.org", "a long password 1"


def _example_out(folder: Path) -> Path:
    from sheets_sync.backends.excel import ExcelBackend
    from sheets_sync.example import EXAMPLE_PATH
    from sheets_sync.loop.sync import sync_once

    folder.mkdir(parents=True)
    workbook = folder / "example.xlsx"
    shutil.copy(EXAMPLE_PATH, workbook)
    sync_once(ExcelBackend(workbook), out_dir=folder / "out")
    return folder / "out"


def _switch_times(out: Path, rounds: int = 20) -> list[float]:
    from sheets_sync.web.site_versions import switch_site

    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        switch_site(out)
        times.append(time.perf_counter() - start)
    return times


def measure_switch(folder: Path) -> dict[str, tuple[int, list[float]]]:
    example = _example_out(folder / "example")
    big = folder / "big" / "site"
    for i in range(2000):
        page = big / f"players/p{i:04d}.html" if i else big / "index.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(f"<p>{i}</p>" * 200)
    files = lambda out: sum(1 for p in (out / "site").rglob("*") if p.is_file())  # noqa: E731
    return {"the example (40 players)": (files(example), _switch_times(example)),
            "2,000 pages": (files(big.parent), _switch_times(big.parent))}


def make_data(data: Path) -> None:
    """(child process) the server's data: anna, and the example as her synced tournament ``gmo``."""
    os.environ["SHEETS_SYNC_DATA"] = str(data)
    os.environ["DJANGO_SETTINGS_MODULE"] = "sheets_sync.web.settings"
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from sheets_sync.example import EXAMPLE_PATH
    from sheets_sync.web.jobs import SYNC, run_job
    from sheets_sync.web.models import Job, Membership, Tournament

    call_command("migrate", interactive=False, verbosity=0)
    user = get_user_model().objects.create_user(EMAIL, EMAIL, PASSWORD)
    shutil.copy(EXAMPLE_PATH, data / "cup.xlsx")
    t = Tournament.objects.create(slug="gmo", source=Tournament.EXCEL, path=str(data / "cup.xlsx"))
    Membership.objects.create(user=user, tournament=t, role=Membership.OWNER)
    run_job(Job.objects.create(tournament=t, action=SYNC).pk)


def _server(data: Path) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    proc = subprocess.Popen([sys.executable, "-m", "sheets_sync", "server", "--data", str(data), "--port", "0",
                             "--no-worker", "--language", "en"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    for line in proc.stdout:
        found = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
        if found:
            threading.Thread(target=proc.stdout.read, daemon=True).start()  # keep its pipe drained
            return proc, found.group(1)
    raise RuntimeError("the server did not start")


def _token(text: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', text).group(1)


def measure_busy(folder: Path, presses: int = 10, hold: float = 30.0) -> dict[str, list[tuple[float, int]]]:
    import requests

    data = folder / "data"
    data.mkdir()
    subprocess.run([sys.executable, "-m", "bench.storage", "--make-data", str(data)], cwd=ROOT, check=True)
    proc, url = _server(data)
    try:
        session = requests.Session()
        session.headers["Accept-Language"] = "ru"
        token = _token(session.get(url + "login/").text)
        session.post(url + "login/", {"username": EMAIL, "password": PASSWORD, "csrfmiddlewaretoken": token},
                     headers={"Referer": url + "login/"})
        token = _token(session.get(url + "o/gmo/").text)
        code = (f"import sqlite3, time; c = sqlite3.connect({str(data / 'server.sqlite3')!r}, isolation_level=None); "
                "c.execute('BEGIN IMMEDIATE'); c.execute('CREATE TABLE IF NOT EXISTS held (x)'); "
                f"print('held', flush=True); time.sleep({hold}); c.execute('ROLLBACK')")
        holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
        holder.stdout.readline()
        results: dict[str, list[tuple[float, int]]] = {"button press (10 at once)": [], "public page": [],
                                                       "organizer's page, ?lang=en": []}

        def timed(name: str, call) -> None:
            start = time.perf_counter()
            status = call().status_code
            results[name].append((time.perf_counter() - start, status))

        press = lambda: session.post(url + "o/gmo/do/vk/", {"csrfmiddlewaretoken": token},  # noqa: E731
                                     headers={"Referer": url + "o/gmo/"}, allow_redirects=False, timeout=120)
        threads = [threading.Thread(target=timed, args=("button press (10 at once)", press)) for _ in range(presses)]
        for thread in threads:
            thread.start()
        time.sleep(0.2)  # the presses are in first, as in the finding
        timed("public page", lambda: requests.get(url + "t/gmo/", timeout=120))
        timed("organizer's page, ?lang=en", lambda: session.get(url + "o/gmo/?lang=en", timeout=120))
        for thread in threads:
            thread.join()
        holder.kill()
        return results
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def _section(switch: dict, busy: dict) -> str:
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    rows = [f"| {name} | {files} | {statistics.median(t) * 1000:.1f} | {max(t) * 1000:.1f} |"
            for name, (files, t) in switch.items()]
    busy_rows = [f"| {name} | {statistics.median(t for t, _ in v):.2f} | {max(t for t, _ in v):.2f} | "
                 f"{', '.join(sorted({str(s) for _, s in v}))} |" for name, v in busy.items()]
    return "\n".join([
        BEGIN, "## The server's storage (bench/storage.py, issue 42 §6, §7)", "",
        f"{stamp} · {cpu_model()} (2 cores, shared) · Python {sys.version.split()[0]} · SQLite in WAL.", "",
        "The public site's switch after a sync — a version of hard links, one rename of the pointer "
        "(20 switches each):", "",
        "| site | files | median ms | max ms |", "|---|---:|---:|---:|", *rows, "",
        "A real `sheets-sync server --no-worker` while a second process holds `BEGIN IMMEDIATE` on its database:",
        "", "| request | median s | max s | answered |", "|---|---:|---:|---|", *busy_rows, "",
        "Before (main, the same probe by hand, 2026-12-05): each press 20.0–20.7 s and 500 (the press lost), "
        "the public page 19.1 s (waiting for one of waitress' 8 threads, all held by presses), the organizer's "
        "page with ?lang=en 10 s (a session write).", "", END])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true", help="print the section, leave docs/benchmarks.md")
    parser.add_argument("--make-data", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.make_data:
        make_data(args.make_data)
        return
    folder = Path(tempfile.mkdtemp(prefix="storage-bench-"))
    try:
        switch = measure_switch(folder)
        busy = measure_busy(folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    section = _section(switch, busy)
    print(section)
    if not args.no_write:
        write_marked_section(BEGIN, END, section)


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
