"""`make bench` (the judges' phones, issue 44): ten tables saving their protocol every 5 s into one
Google sheet on the fake Sheets server, through the server's real views, writer job and account
budget; and a submitted game's way into the workbook and the standings, on Google and in the app
(an .xlsx).

Plain script, not a test: it measures in real time and writes its own dated section of
docs/benchmarks.md (between the ``judge-bench`` markers). One worker thread takes the queued jobs
as a server's worker does (the queue itself is replaced by that loop: a job stays queued until the
thread takes it, so saves arriving meanwhile are coalesced by the writer exactly as on a server).

    python -m bench.judge [--seconds 60] [--no-write]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import tempfile
import threading
import time
import uuid
from datetime import date
from pathlib import Path

BEGIN, END = "<!-- judge-bench:begin -->", "<!-- judge-bench:end -->"


def _django(data: Path) -> None:
    os.environ["SHEETS_SYNC_DATA"] = str(data)
    os.environ["DJANGO_SETTINGS_MODULE"] = "tests.web_settings"
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


class Worker:
    """One worker thread running the queued jobs in order (the stand-in for Huey's consumer)."""

    def __init__(self) -> None:
        from sheets_sync.web import jobs
        from sheets_sync.web.judge import writer

        self.stop, self.ran = threading.Event(), []
        jobs.run_job_task = writer.run_job_task = lambda job_id: None  # queued: the thread takes it
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def loop(self) -> None:
        from django.db import close_old_connections

        from sheets_sync.web import jobs
        from sheets_sync.web.models import Job

        while not self.stop.is_set():
            queued = list(Job.objects.filter(status=Job.QUEUED).order_by("pk").values_list("pk", "action"))
            for pk, action in queued:
                began = time.perf_counter()
                job = jobs.run_job(pk)
                self.ran.append((action, job.status if job else "", time.perf_counter() - began))
            close_old_connections()
            time.sleep(0.02)

    def idle(self, timeout: float = 120.0) -> None:
        from sheets_sync.web.models import Job

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not Job.objects.filter(status__in=(Job.QUEUED, Job.RUNNING)).exists():
                return
            time.sleep(0.05)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=30)


def _workbook(folder: Path, players: int, name: str) -> Path:
    from sheets_sync.actions.init import init_workbook
    from tests.web.organizer_support import players_csv

    path = folder / f"{name}.xlsx"
    init_workbook(str(path), players_csv=players_csv(folder, players), preset_ref="gmo-2016", name=name, language="ru")
    return path


def _synced(tournament, worker: Worker):
    from sheets_sync.web import jobs

    jobs.request_sync(tournament, "bench")
    worker.idle()
    tournament.refresh_from_db()
    return tournament


def _post(client, token: str, gid: str, cells: dict, base: dict, submit: bool = False):
    body = {"id": str(uuid.uuid4()), "cells": cells, "base": base, "submit": submit, "choose": {}}
    answer = client.post(f"/j/{token}/api/games/{gid}/form/", json.dumps(body), content_type="application/json")
    assert answer.status_code == 200, answer.content[:300]
    return answer.json()


def _whole(seats) -> dict:
    from tests.web.judge_support import whole_game

    return {**whole_game(seats, seed=7), ":judge": "Судья"}


def _until(check, timeout: float = 60.0) -> float:
    began = time.perf_counter()
    while time.perf_counter() - began < timeout:
        if check():
            return time.perf_counter() - began
        time.sleep(0.02)
    return float("nan")


def _submitted_game(tournament, token: str, gid: str) -> dict:
    """POST a whole submitted game; seconds until it is in the workbook and until the standings count it."""
    from django.test import Client

    from sheets_sync.web.models import JudgeSave, Tournament

    client = Client()
    game = client.get(f"/j/{token}/api/games/{gid}/").json()
    before = Tournament.objects.get(pk=tournament.pk).last_sync.get("games", 0)
    began = time.perf_counter()
    _post(client, token, gid, _whole(game["seats"]), game["cells"], submit=True)
    _until(lambda: not JudgeSave.objects.filter(tournament=tournament, gid=gid, written_at__isnull=True).exists())
    written = time.perf_counter() - began
    _until(lambda: Tournament.objects.get(pk=tournament.pk).last_sync.get("games", 0) > before)
    return {"written_s": round(written, 2), "counted_s": round(time.perf_counter() - began, 2)}


# what a phone fetches on its first visit to a table's link: the page, its files, the service worker
# and the files it keeps (sw.js's ASSETS), the manifest, the link's games and the open game
FIRST_VISIT = ("/assets/judge/judge.css", "/assets/judge/judge.js", "/assets/judge/form.js", "/assets/judge/outbox.js",
               "/assets/judge/vendor/htm-preact.js", "/assets/judge/vendor/idb-keyval.js", "/j/sw.js",
               "/j/manifest.webmanifest")


def _first_visit(token: str, gid: str) -> dict:
    """The bytes of a first visit's answers (bodies, no headers), as sent to a browser (gzip
    accepted) and uncompressed; the live mode's files apart (fetched only when it is opened)."""
    from django.test import Client

    client = Client()

    def size(path: str, **headers) -> int:
        answer = client.get(path, **headers)
        assert answer.status_code == 200, (path, answer.status_code)
        return len(b"".join(answer.streaming_content) if answer.streaming else answer.content)

    paths = (f"/j/{token}/", *FIRST_VISIT, f"/j/{token}/api/", f"/j/{token}/api/games/{gid}/")
    live = ("/assets/judge/game.js", "/assets/judge/live.js", "/assets/judge/live.css")
    return {"gzip": sum(size(p, HTTP_ACCEPT_ENCODING="gzip, deflate, br") for p in paths),
            "plain": sum(size(p) for p in paths),
            "live_gzip": sum(size(p, HTTP_ACCEPT_ENCODING="gzip") for p in live), "live_plain": sum(size(p) for p in live)}


def _ten_tables(fake, tournament, links: dict[int, str], seconds: float) -> dict:
    """Ten judges, each saving every 5 s (staggered), the worker taking the jobs as they come."""
    from django.test import Client

    from sheets_sync.web.models import JudgeSave

    client, round_no = Client(), 2
    seen: dict[int, dict] = {}
    for table, token in links.items():
        seen[table] = client.get(f"/j/{token}/api/games/qualifying-{round_no}-{table}/").json()["cells"]
    fake.reset_counts()
    began, saves, n = time.perf_counter(), 0, 0
    due = {table: began + (table - 1) * 0.5 for table in links}
    while time.perf_counter() - began < seconds:
        for table, token in links.items():
            if time.perf_counter() < due[table]:
                continue
            seat, value = 1 + n % 10, str(1 + (n // 10) % 3)
            key = f"{seat}:fouls"
            cells = {key: value, ":judge": f"Судья {table}"}
            base = {k: seen[table].get(k, "") for k in cells}
            answer = _post(client, token, f"qualifying-{round_no}-{table}", cells, base)
            seen[table] = {**seen[table], **cells, **answer["game"]["cells"]}
            saves, n, due[table] = saves + 1, n + 1, due[table] + 5.0
        time.sleep(0.01)
    lag = [(s.written_at - s.created_at).total_seconds() for s in JudgeSave.objects.filter(written_at__isnull=False)]
    return {"saves": saves, "reads": fake.quota.busiest_minute("read"), "writes": fake.quota.busiest_minute("write"),
            "refused": sum(fake.quota.refused.values()), "lag_p50": round(statistics.median(lag), 2) if lag else None,
            "lag_max": round(max(lag), 2) if lag else None}


def measure(seconds: float) -> dict:
    import logging

    from tests.fake_sheets import FakeSheetsServer

    logging.getLogger("sheets_sync.backends.google").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory(prefix="bench-judge-") as tmp, FakeSheetsServer() as fake:
        folder = Path(tmp)
        _django(folder / "data")
        from django.conf import settings

        from sheets_sync.web.judge.links import make_table_links
        from sheets_sync.web.models import Job, ServiceAccount, Tournament
        from tests.google_support import upload_xlsx, write_key_file

        settings.GOOGLE_ENDPOINT = fake.url
        worker = Worker()
        try:
            email = "judges@club.iam.gserviceaccount.com"
            account = ServiceAccount.objects.create(email=email, key_file=write_key_file(folder / "key.json",
                                                                                         fake.token_uri, email))
            sid = upload_xlsx(fake, _workbook(folder, 100, "google"))
            fake.share(sid, email)
            google = _synced(Tournament.objects.create(slug="g", spreadsheet_id=sid, account=account), worker)
            links = {l.table: l.token for l in make_table_links(google, "qualifying", list(range(1, 11)))}
            ten = _ten_tables(fake, google, links, seconds)
            worker.idle()
            jobs_run = {a: sum(1 for x in worker.ran if x[0] == a and x[1] == Job.DONE) for a in ("judge-write", "sync")}
            on_google = _submitted_game(google, links[1], "qualifying-1-1")
            # the same on an account whose minute nobody else used (its own sheet, 100 players, synced)
            quiet_email = "quiet@club.iam.gserviceaccount.com"
            quiet_account = ServiceAccount.objects.create(email=quiet_email, key_file=write_key_file(
                folder / "quiet.json", fake.token_uri, quiet_email))
            quiet_sid = upload_xlsx(fake, _workbook(folder, 100, "quiet"))
            fake.share(quiet_sid, quiet_email)
            quiet = _synced(Tournament.objects.create(slug="q", spreadsheet_id=quiet_sid, account=quiet_account), worker)
            worker.idle()
            time.sleep(60)  # its first sync's reads out of the minute the game is measured in
            quiet_link = make_table_links(quiet, "qualifying", [1])[0].token
            on_quiet = _submitted_game(quiet, quiet_link, "qualifying-1-1")
            excel = _synced(Tournament.objects.create(slug="x", source=Tournament.EXCEL,
                                                      path=str(_workbook(folder, 20, "app"))), worker)
            token = make_table_links(excel, "qualifying", [1, 2])[0].token
            in_app = _submitted_game(excel, token, "qualifying-1-1")
            visit = _first_visit(token, "qualifying-2-1")
            failed = Job.objects.filter(status=Job.FAILED).count()
        finally:
            worker.close()
    return {"seconds": seconds, **ten, "jobs": jobs_run, "google": on_google, "quiet": on_quiet, "app": in_app,
            "failed": failed, "visit": visit}


def section(r: dict) -> str:
    from bench.run import cpu_model

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return "\n".join([
        BEGIN,
        "## The judges' phones: ten tables saving, a submitted game (bench/judge.py, issue 44)",
        "",
        f"Measured {date.today().isoformat()} on {cpu_model()}, {os.cpu_count()} cores shared with other work, "
        f"Python {platform.python_version()}; load average {load} at the end. One Google sheet (100 players, ten "
        f"tables) on the fake Sheets server, one service account; ten judges each saving the form every 5 s for "
        f"{r['seconds']:.0f} s through the server's views (Django's test client), one worker thread taking the "
        f"jobs (the writer and the sync) as they are queued.",
        "",
        "| figure | measured | target |",
        "|---|---|---|",
        f"| saves sent | {r['saves']} | |",
        f"| jobs run to their end: writer / sync | {r['jobs']['judge-write']} / {r['jobs']['sync']} | |",
        f"| Sheets writes, the account's busiest minute | {r['writes']} | ≤ 60 |",
        f"| Sheets reads, the account's busiest minute | {r['reads']} | ≤ 60 |",
        f"| 429 answers (quota) | {r['refused']} | 0 |",
        f"| a save → written in the sheet, median / max (s) | {r['lag_p50']} / {r['lag_max']} | |",
        f"| a submitted game → in the sheet / counted in the standings and the site, Google (s) | "
        f"{r['google']['written_s']} / {r['google']['counted_s']} | ≤ 5 |",
        f"| the same on an account with its minute unused, Google (s) | "
        f"{r['quiet']['written_s']} / {r['quiet']['counted_s']} | ≤ 5 |",
        f"| a submitted game → in the .xlsx / counted in the standings and the site, app (s) | "
        f"{r['app']['written_s']} / {r['app']['counted_s']} | ≤ 2 |",
        f"| jobs failed | {r['failed']} | 0 |",
        f"| the judge's page, a first visit: transferred gzip-compressed / uncompressed (KB) | "
        f"{r['visit']['gzip'] / 1000:.1f} / {r['visit']['plain'] / 1000:.1f} | ≤ 100 |",
        f"| the live mode's files when first opened: gzip / uncompressed (KB) | "
        f"{r['visit']['live_gzip'] / 1000:.1f} / {r['visit']['live_plain'] / 1000:.1f} | |",
        "",
        "Saves arriving while a writer or a sync runs wait for one writer job, which takes them all: one read",
        "and one write of the sheet for every table that saved. On Google the writer queues the sync (it",
        "starts as soon as the writer lets the sheet go); in the app the sync runs in the writer's job.",
        "The first visit counts the answers' bodies (the page, its files, the service worker and the files it",
        "keeps, the manifest, the link's games, the open game) as Django sends them to a browser that accepts",
        "gzip; headers add some 5 KB (Chromium counted 51.0 KB on the wire in",
        "tests/web/test_judge_server_browser.py on 2026-12-06). The judge's files are compressed by the server",
        "itself (sheets_sync/web/judge/compress.py), so `sheets-sync app` on a venue's Wi-Fi gets them so too.",
        END,
    ])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    result = measure(args.seconds)
    print(json.dumps(result, ensure_ascii=False, indent=1))
    if not args.no_write:
        from bench.run import write_marked_section

        write_marked_section(BEGIN, END, section(result))


if __name__ == "__main__":
    main()
