"""`make bench` (registration, issue 45): 200 applications in a minute through the public form into
one Google sheet on the fake Sheets server — through the server's real view, the registration
writer job and the account's budget — and the same 200 at once into an .xlsx (the app).

Plain script, not a test: it measures in real time and writes its own dated section of
docs/benchmarks.md (between the ``registration-bench`` markers). One worker thread takes the queued
jobs as a server's worker does (bench.judge's), so applications arriving while a writer or a sync
runs are coalesced into the next writer job exactly as on a server.

    python -m bench.registration [--count 200] [--seconds 60] [--no-write]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import tempfile
import time
from datetime import date
from pathlib import Path

from bench.judge import Worker, _django, _synced, _until, _workbook

BEGIN, END = "<!-- registration-bench:begin -->", "<!-- registration-bench:end -->"


def _worker() -> Worker:
    from sheets_sync.web.registration import writer

    worker = Worker()
    writer.run_job_task = lambda job_id: None  # queued: the worker thread takes it
    return worker


def _open(tournament, path: Path, places: int) -> None:
    import openpyxl

    from sheets_sync.web.models import Tournament

    wb = openpyxl.load_workbook(path)
    ws = wb["Турнир"]
    ws.cell(row=ws.max_row + 1, column=1, value="Мест")
    ws.cell(row=ws.max_row, column=2, value=places)
    wb.save(path)
    Tournament.objects.filter(pk=tournament.pk).update(registration_open=True)


def _send(tournament, count: int, seconds: float) -> dict:
    """``count`` applications spread over ``seconds``, each from its own address, as the form sends them."""
    from django.test import Client

    client, times, accepted = Client(), [], 0
    began = time.perf_counter()
    for i in range(count):
        due = began + i * seconds / count
        time.sleep(max(0.0, due - time.perf_counter()))
        sent = time.perf_counter()
        answer = client.post(f"/apply/{tournament.slug}/", {
            "nickname": f"Участник {i:03d}", "not_me": f"Участник {i:03d}", "club": f"Клуб {i % 7}", "city": "Берлин",
            "telegram": f"@player_{i:03d}", "email": f"p{i}@example.org"}, REMOTE_ADDR=f"10.{i // 250}.{i % 250}.1")
        times.append(time.perf_counter() - sent)
        accepted += answer.status_code == 302
    return {"accepted": accepted, "answer_p50_ms": round(statistics.median(times) * 1000, 1),
            "answer_max_ms": round(max(times) * 1000, 1), "sent_s": round(time.perf_counter() - began, 1),
            "last_sent": time.perf_counter()}


def _landed(tournament, sent: dict) -> float:
    """Seconds from the last application sent until every one is written into the sheet."""
    from sheets_sync.web.models import Application

    _until(lambda: not Application.objects.filter(tournament=tournament, written_at__isnull=True).exists(), 180)
    return round(time.perf_counter() - sent["last_sent"], 2)


def _last_job() -> int:
    from sheets_sync.web.models import Job

    return Job.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def _jobs(tournament, after: int) -> dict:
    """The jobs that ran to their end since the applications began (a writer put back to gather more
    is one job, not a run each look)."""
    from sheets_sync.web.models import Job

    done = Job.objects.filter(tournament=tournament, status=Job.DONE, pk__gt=after)
    return {a: done.filter(action=a).count() for a in ("registration-write", "sync")}


def _google(fake, folder: Path, worker: Worker, count: int, seconds: float) -> dict:
    from sheets_sync.web.models import ServiceAccount, Tournament
    from tests.google_support import upload_xlsx, write_key_file

    email = "registration@club.iam.gserviceaccount.com"
    account = ServiceAccount.objects.create(email=email, key_file=write_key_file(folder / "key.json", fake.token_uri, email))
    path = _workbook(folder, 20, "google")
    t = Tournament.objects.create(slug="g", spreadsheet_id="", account=account)
    _open(t, path, count + 20)
    sid = upload_xlsx(fake, path)
    fake.share(sid, email)
    Tournament.objects.filter(pk=t.pk).update(spreadsheet_id=sid)
    t = _synced(Tournament.objects.get(pk=t.pk), worker)
    fake.reset_counts()
    worker.idle()
    after = _last_job()  # the first sync's jobs are not counted: the applications' only
    sent = _send(t, count, seconds)
    landed = _landed(t, sent)
    worker.idle()
    rows = fake.values(sid, "Игроки")
    in_sheet = sum(1 for r in rows if r and str(r[0]).startswith("Участник "))
    contacts = sum(1 for r in rows for v in r if "@player_" in str(v) or "@example.org" in str(v))
    return {**{k: v for k, v in sent.items() if k != "last_sent"}, "landed_s": landed, "in_sheet": in_sheet,
            "contacts_in_sheet": contacts, "jobs": _jobs(t, after), "reads": fake.quota.busiest_minute("read"),
            "writes": fake.quota.busiest_minute("write"), "refused": sum(fake.quota.refused.values())}


def _app(folder: Path, worker: Worker, count: int) -> dict:
    import openpyxl

    from sheets_sync.web.models import Tournament

    path = _workbook(folder, 20, "app")
    t = Tournament.objects.create(slug="x", source=Tournament.EXCEL, path=str(path))
    _open(t, path, count + 20)
    t = _synced(t, worker)
    worker.idle()
    after = _last_job()
    sent = _send(t, count, 0.0)  # all at once
    landed = _landed(t, sent)
    worker.idle()
    names = [r[0].value for r in openpyxl.load_workbook(path)["Игроки"].iter_rows()]
    return {**{k: v for k, v in sent.items() if k != "last_sent"}, "landed_s": landed,
            "in_sheet": sum(1 for n in names if str(n).startswith("Участник ")), "jobs": _jobs(t, after)}


def measure(count: int, seconds: float) -> dict:
    import logging

    from tests.fake_sheets import FakeSheetsServer

    logging.getLogger("sheets_sync.backends.google").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory(prefix="bench-registration-") as tmp, FakeSheetsServer() as fake:
        folder = Path(tmp)
        _django(folder / "data")
        from django.conf import settings

        from sheets_sync.web.models import Job

        settings.GOOGLE_ENDPOINT = fake.url
        worker = _worker()
        try:
            google = _google(fake, folder, worker, count, seconds)
            app = _app(folder, worker, count)
            failed = Job.objects.filter(status=Job.FAILED).count()
        finally:
            worker.close()
    return {"count": count, "seconds": seconds, "google": google, "app": app, "failed": failed}


def section(r: dict) -> str:
    from bench.run import cpu_model

    g, a = r["google"], r["app"]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return "\n".join([
        BEGIN,
        "## Registration: 200 applications in a minute (bench/registration.py, issue 45)",
        "",
        f"Measured {date.today().isoformat()} on {cpu_model()}, {os.cpu_count()} cores shared with other work, "
        f"Python {platform.python_version()}; load average {load} at the end. {r['count']} applications sent "
        f"through the public form (Django's test client, each from its own address) over {r['seconds']:.0f} s "
        f"into one Google sheet on the fake Sheets server (20 players typed, one service account), then "
        f"{r['count']} at once into an .xlsx (the app); one worker thread taking the jobs (the registration "
        f"writer and the sync) as they are queued.",
        "",
        "| figure | Google | app (.xlsx) | target |",
        "|---|---|---|---|",
        f"| applications accepted | {g['accepted']} | {a['accepted']} | {r['count']} |",
        f"| the form's answer, median / max (ms) | {g['answer_p50_ms']} / {g['answer_max_ms']} | "
        f"{a['answer_p50_ms']} / {a['answer_max_ms']} | |",
        f"| rows in the Players tab | {g['in_sheet']} | {a['in_sheet']} | {r['count']} |",
        f"| the last one sent → every one in the sheet (s) | {g['landed_s']} | {a['landed_s']} | |",
        f"| jobs run: writer / sync | {g['jobs']['registration-write']} / {g['jobs']['sync']} | "
        f"{a['jobs']['registration-write']} / {a['jobs']['sync']} | |",
        f"| Sheets writes / reads, the account's busiest minute | {g['writes']} / {g['reads']} | | ≤ 60 |",
        f"| 429 answers (quota) | {g['refused']} | | 0 |",
        f"| contacts in the sheet | {g['contacts_in_sheet']} | | 0 |",
        f"| jobs failed | {r['failed']} | | 0 |",
        "",
        "Applications arriving while a writer or a sync runs wait for one writer job, which takes them all:",
        "one read and one write of the sheet a job, however many came meanwhile. On Google a burst is also",
        "gathered: while applications keep coming the writer waits for a 2 s pause (10 s at most) and writes",
        "them together; a lone one after a quiet while is written at once. On Google the writer queues the",
        "sync; in the app the sync runs in the writer's job.",
        END,
    ])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    result = measure(args.count, args.seconds)
    print(json.dumps(result, ensure_ascii=False, indent=1))
    if not args.no_write:
        from bench.run import write_marked_section

        write_marked_section(BEGIN, END, section(result))


if __name__ == "__main__":
    main()
