"""Real server and worker processes for the job lifecycle's tests: ``sheets-sync server`` and
``sheets-sync worker`` started as people start them (``python -m sheets_sync``), killed with
SIGKILL where a crash is the point, and the state they leave read straight from the database.

* :func:`django_script` runs Python in a process of its own with the server's settings on a
  data folder (what a second machine or a shell would do): register tournaments, enqueue jobs —
  the queue is the data folder's SQLite file (or Redis), so a server started later runs them;
* :func:`start_server` / :func:`start_worker`: the commands on that data folder, their output in
  a log file (a pipe nobody reads would block them);
* :class:`JobsTable` reads ``web_job`` from the SQLite file (or PostgreSQL) without Django, so a
  look costs milliseconds and misses no state.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORKER_TIMEOUT = "6"  # seconds without a heartbeat before a worker counts as dead (the server's default: 30)

PREPARE = """
import sys
from pathlib import Path
from sheets_sync.web import serving
serving.prepare(Path(sys.argv[1]))
from django.contrib.auth import get_user_model
from sheets_sync.web import jobs, tasks
from sheets_sync.web.models import Job, Membership, Tournament
def owned_by(email, **fields):
    user = get_user_model().objects.get_or_create(username=email, defaults={"email": email})[0]
    tournament = Tournament.objects.create(**fields)
    Membership.objects.create(user=user, tournament=tournament, role=Membership.OWNER)
    return tournament
"""


def environment(data: Path, **extra: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SHEETS_SYNC_DATA": str(data),
           "SHEETS_SYNC_WORKER_TIMEOUT": WORKER_TIMEOUT, **extra}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return env


def django_script(env: dict[str, str], code: str, *args: str) -> str:
    """``code`` after the server's own set-up (settings, migrations) in a process of its own; its output."""
    done = subprocess.run([sys.executable, "-c", PREPARE + code, env["SHEETS_SYNC_DATA"], *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip()


@dataclass
class Running:
    proc: subprocess.Popen
    log: Path
    url: str = ""

    def kill(self) -> None:
        """SIGKILL to the whole process group: nothing gets to clean up."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.kill()


def _start(args: list[str], env: dict[str, str], log: Path, ready: str) -> Running:
    out = log.open("a")
    proc = subprocess.Popen([sys.executable, "-m", "sheets_sync", *args, "--language", "en"], cwd=ROOT, env=env,
                            stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    running = Running(proc, log)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        text = log.read_text(encoding="utf-8", errors="replace")
        match = re.search(ready, text)
        if match:
            running.url = match.group(1) if match.groups() else ""
            return running
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    running.kill()
    raise AssertionError(log.read_text(encoding="utf-8", errors="replace")[-3000:])


def start_server(env: dict[str, str], log: Path, workers: int = 3) -> Running:
    log.write_text("", encoding="utf-8")
    return _start(["server", "--data", env["SHEETS_SYNC_DATA"], "--port", "0", "--workers", str(workers)], env, log,
                  r"(http://127\.0\.0\.1:\d+/)")


def start_worker(env: dict[str, str], log: Path, workers: int = 3) -> Running:
    log.write_text("", encoding="utf-8")
    return _start(["worker", "--data", env["SHEETS_SYNC_DATA"], "--workers", str(workers)], env, log,
                  r"the worker is running")


@contextlib.contextmanager
def running(*processes: Running) -> Iterator[None]:
    try:
        yield
    finally:
        for process in processes:
            process.stop()


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


@dataclass(frozen=True)
class JobRow:
    id: int
    tournament_id: int | None
    action: str
    status: str
    started_at: datetime | None
    finished_at: datetime | None
    message: str


def _moment(value) -> datetime | None:
    if value is None or isinstance(value, datetime):
        return value
    return datetime.fromisoformat(str(value))


class JobsTable:
    """``web_job`` as the processes left it, read without Django: SQLite (the data folder's file) or PostgreSQL."""

    COLUMNS = "id, tournament_id, action, status, started_at, finished_at, message"

    def __init__(self, env: dict[str, str]) -> None:
        self.url = env.get("DATABASE_URL")
        self.path = Path(env["SHEETS_SYNC_DATA"]) / "server.sqlite3"

    def rows(self, where: str = "1=1") -> list[JobRow]:
        query = f"SELECT {self.COLUMNS} FROM web_job WHERE {where} ORDER BY id"
        if self.url:
            import psycopg

            with psycopg.connect(self.url.replace("postgres://", "postgresql://"), autocommit=True) as db:
                found = db.execute(query).fetchall()
        else:
            with contextlib.closing(sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=20)) as db:
                found = db.execute(query).fetchall()
        return [JobRow(r[0], r[1], r[2], r[3], _moment(r[4]), _moment(r[5]), r[6] or "") for r in found]

    def wait(self, done: Callable[[list[JobRow]], bool], timeout: float = 150, where: str = "1=1") -> list[JobRow]:
        """The rows once ``done(rows)``; a failure naming them after ``timeout`` seconds."""
        end = time.monotonic() + timeout
        rows: list[JobRow] = []
        while time.monotonic() < end:
            with contextlib.suppress(sqlite3.OperationalError):  # the file not made yet, or busy a moment
                rows = self.rows(where)
                if done(rows):
                    return rows
            time.sleep(0.02)
        raise AssertionError(f"not in {timeout} s: {rows}")


def overlapping(rows: list[JobRow]) -> list[tuple[int, int]]:
    """Pairs of jobs whose runs overlapped (each one's start before the other's end)."""
    pairs = []
    for i, a in enumerate(rows):
        for b in rows[i + 1:]:
            if a.started_at < b.finished_at and b.started_at < a.finished_at:
                pairs.append((a.id, b.id))
    return pairs
