"""The server's scale-out mode on real parts: PostgreSQL for the database, Redis for the queue, and
worker processes of their own — one of them killed in the middle of a sync.

Every registered sheet must end synced: the killed worker's heartbeat stops, a living worker
takes its running sync back once the heartbeat is older than the timeout
(:mod:`sheets_sync.web.recovery`) and runs it again, and the values people typed are untouched.
Two workers on one queue also keep the jobs' rules between them: one tournament's draws and
syncs never run at once, and one organizer's draws leave room for another organizer's sync.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sheets_sync.example import EXAMPLE_PATH
from tests.services import postgres_server, redis_server
from tests.web.process_support import WORKER_TIMEOUT, JobsTable, overlapping, running, start_worker

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SHEETS = 4

# run inside the server's settings (DATABASE_URL, SHEETS_SYNC_REDIS_URL from the environment)
DJANGO = "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'sheets_sync.web.settings'); django.setup()\n"
REGISTER = DJANGO + """
import sys
from sheets_sync.web import jobs
from sheets_sync.web.models import Tournament
for i, path in enumerate(sys.argv[1:]):
    t = Tournament.objects.create(slug=f"cup-{i}", source=Tournament.EXCEL, path=path)
    jobs.request_sync(t, "registered")
"""
STATE = DJANGO + """
from sheets_sync.web.models import Job, Tournament
running = Job.objects.filter(status=Job.RUNNING).count()
synced = Tournament.objects.filter(needs_sync=False, last_sync_at__isnull=False).count()
print(running, synced, Tournament.objects.count())
"""
def _python(env: dict, code: str, *args: str) -> str:
    done = subprocess.run([sys.executable, "-c", code, *args], env=env, cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip()


def _worker(env: dict, log: Path, threads: int = 3) -> subprocess.Popen:
    """``sheets-sync worker`` as a machine of its own runs it (its threads also run the minute's
    keeping loop, which holds one of them)."""
    return subprocess.Popen([sys.executable, "-m", "sheets_sync", "worker", "--data", env["SHEETS_SYNC_DATA"],
                             "--workers", str(threads)],
                            env=env, cwd=ROOT, stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True)


def _state(env: dict) -> tuple[int, int, int]:
    running, synced, total = map(int, _python(env, STATE).split())
    return running, synced, total


def _wait(env: dict, done, timeout: float = 120) -> tuple[int, int, int]:
    """Poll the database (straight through psycopg: a Django process per look would miss a sync)."""
    import psycopg

    end = time.monotonic() + timeout
    with psycopg.connect(env["DATABASE_URL"].replace("postgres://", "postgresql://"), autocommit=True) as db:
        while time.monotonic() < end:
            state = db.execute(
                "SELECT (SELECT count(*) FROM web_job WHERE status = 'running'),"
                " (SELECT count(*) FROM web_tournament WHERE NOT needs_sync AND last_sync_at IS NOT NULL),"
                " (SELECT count(*) FROM web_tournament)").fetchone()
            if done(*state):
                return state
            time.sleep(0.02)
    raise AssertionError(f"still {state} after {timeout} s")


def _typed(path: Path) -> dict[str, list]:
    """The tabs people type into (those of the workbook before any sync) and their values."""
    from sheets_sync.backends.excel import ExcelBackend

    people = ExcelBackend(EXAMPLE_PATH).read().tabs.keys()
    tabs = ExcelBackend(path).read().tabs
    return {t: [list(r) for r in rows] for t, rows in tabs.items() if t in people}


def test_workers_on_postgresql_and_redis_sync_every_sheet_though_one_is_killed_mid_sync(tmp_path):
    books = []
    for i in range(SHEETS):
        books.append(tmp_path / f"cup-{i}.xlsx")
        shutil.copyfile(EXAMPLE_PATH, books[-1])
    typed_before = _typed(books[0])  # every copy is the same workbook
    with postgres_server() as database, redis_server() as queue:
        env = {**os.environ, "DATABASE_URL": database, "SHEETS_SYNC_REDIS_URL": queue,
               "SHEETS_SYNC_DATA": str(tmp_path / "data"), "DJANGO_SETTINGS_MODULE": "sheets_sync.web.settings",
               "PYTHONPATH": str(ROOT), "SHEETS_SYNC_WORKER_TIMEOUT": WORKER_TIMEOUT}
        subprocess.run([sys.executable, "-m", "django", "migrate", "-v", "0"], env=env, cwd=ROOT, check=True, timeout=120)
        _python(env, REGISTER, *map(str, books))  # four syncs waiting in Redis, nobody consuming yet
        first = _worker(env, tmp_path / "worker-1.log", threads=1)
        try:
            _wait(env, lambda running, synced, total: running == 1)
        finally:
            os.killpg(first.pid, signal.SIGKILL)  # in the middle of a sync
            first.wait()
        running, synced, total = _state(env)
        assert running == 1 and synced < total  # the killed sync stays marked, under its lease
        killed = JobsTable(env).rows("status = 'running'")
        workers = [_worker(env, tmp_path / f"worker-{n}.log") for n in (2, 3)]
        try:
            # every sheet synced, the killed one's too: its sync taken back from the dead worker and run again
            _wait(env, lambda running, synced, total: synced == total and running == 0)
            # under load the keeper may sync the killed one's sheet by a job of its own while the killed
            # job waits out its look-again delay: it must still run to its end, not stay queued
            end = time.monotonic() + 60
            while (again := JobsTable(env).rows(f"id = {killed[0].id}"))[0].status in ("queued", "running") \
                    and time.monotonic() < end:
                time.sleep(0.5)
        finally:
            for w in workers:
                os.killpg(w.pid, signal.SIGTERM)
                w.wait(timeout=30)
    assert again[0].status == "done", again
    assert all(_typed(book) == typed_before for book in books)


DRAWS = DJANGO + """
import json, sys
from django.contrib.auth import get_user_model
from sheets_sync.web import jobs, tasks
from sheets_sync.web.models import Membership, Tournament
for slug, owner, path in json.loads(sys.argv[1]):
    user = get_user_model().objects.get_or_create(username=owner, defaults={"email": owner})[0]
    t = Tournament.objects.create(slug=slug, source=Tournament.EXCEL, path=path)
    Membership.objects.create(user=user, tournament=t, role=Membership.OWNER)
for slug, seed in json.loads(sys.argv[2]):
    jobs.enqueue(Tournament.objects.get(slug=slug), "draw", params={"seed": seed, "time_limit": 4})
for slug in json.loads(sys.argv[3]):
    jobs.request_sync(Tournament.objects.get(slug=slug), "button")
print(json.dumps(dict(Tournament.objects.values_list("slug", "pk"))))
"""


def test_two_workers_keep_one_writer_per_workbook_and_one_long_job_per_organizer(tmp_path):
    import json

    from tests.web.test_job_lifecycle import fresh_workbook

    books = [("cup", "anna@club.ru", fresh_workbook(tmp_path / "cup", "cup")),
             ("anna-2", "anna@club.ru", fresh_workbook(tmp_path / "anna-2", "anna-2")),
             ("boris", "boris@club.ru", tmp_path / "boris.xlsx")]
    shutil.copyfile(EXAMPLE_PATH, books[-1][2])
    with postgres_server() as database, redis_server() as queue:
        env = {**os.environ, "DATABASE_URL": database, "SHEETS_SYNC_REDIS_URL": queue,
               "SHEETS_SYNC_DATA": str(tmp_path / "data"), "DJANGO_SETTINGS_MODULE": "sheets_sync.web.settings",
               "PYTHONPATH": str(ROOT), "SHEETS_SYNC_WORKER_TIMEOUT": WORKER_TIMEOUT}
        subprocess.run([sys.executable, "-m", "django", "migrate", "-v", "0"], env=env, cwd=ROOT, check=True, timeout=120)
        # Anna: three draws of «cup» and one of «anna-2», a sync of «cup»; then Boris's sync
        ids = json.loads(_python(env, DRAWS, json.dumps([(s, o, str(p)) for s, o, p in books]),
                                 json.dumps([("cup", 1), ("cup", 2), ("cup", 3), ("anna-2", 1)]),
                                 json.dumps(["cup", "boris"])))
        table = JobsTable(env)
        with running(*(start_worker(env, tmp_path / f"worker-{n}.log", workers=3) for n in (1, 2))):
            rows = table.wait(lambda rows: len(rows) >= 6 and all(r.status in ("done", "failed") for r in rows))
    assert all(r.status == "done" for r in rows), rows
    cup = [r for r in rows if r.tournament_id == ids["cup"]]
    assert overlapping(cup) == []  # one workbook: its draws and syncs one after another, across both workers
    annas = [r for r in rows if r.action == "draw"]
    assert overlapping(annas) == []  # one long job of Anna's at a time, across both workers
    boris = next(r for r in rows if r.tournament_id == ids["boris"])
    assert boris.started_at < min(r.finished_at for r in annas)  # it did not wait behind her draws
