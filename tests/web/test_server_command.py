"""`sheets-sync server`, `worker` and `app` as people start them: a subprocess (python -m
sheets_sync) on a free port, a page fetched, Ctrl+C (SIGINT) or SIGTERM, a clean stop."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import openpyxl
import pytest

from sheets_sync.example import EXAMPLE_PATH

ROOT = Path(__file__).resolve().parents[2]


def start(*args: str, env: dict | None = None) -> tuple[subprocess.Popen, str]:
    """The command running, and the address it printed."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "SHEETS_SYNC_DATA": "", **(env or {})}
    environment.pop("DJANGO_SETTINGS_MODULE", None)
    proc = subprocess.Popen([sys.executable, "-m", "sheets_sync", *args, "--language", "en"], cwd=ROOT,
                            env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 60
    seen = []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        seen.append(line)
        match = re.search(r"(http://127\.0\.0\.1:\d+/\S*)", line)
        if match:
            return proc, match.group(1)
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError("".join(seen))


def stop(proc: subprocess.Popen, sig=signal.SIGINT) -> str:
    proc.send_signal(sig)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0, out
    return out


def get(url: str, opener=None) -> tuple[int, str]:
    try:
        with (opener or urllib.request.build_opener()).open(url, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def wait_for(check, timeout: float = 90.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.5)
    raise AssertionError("not in time")


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_the_server_serves_and_stops(tmp_path, sig):
    proc, url = start("server", "--data", str(tmp_path / "data"), "--port", "0")
    try:
        status, body = get(url + "t/nothing-here/")
        assert status == 404
    finally:
        out = stop(proc, sig)
    assert "the server stopped" in out
    assert (tmp_path / "data" / "server.sqlite3").exists()  # migrated


def test_the_server_without_its_worker_and_a_worker_alone(tmp_path):
    data = tmp_path / "data"
    web, url = start("server", "--data", str(data), "--port", "0", "--no-worker")
    try:
        assert get(url + "t/x/")[0] == 404
    finally:
        assert "the server stopped" in stop(web)
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    environment.pop("DJANGO_SETTINGS_MODULE", None)
    worker = subprocess.Popen([sys.executable, "-m", "sheets_sync", "worker", "--data", str(data), "--language", "en"],
                              cwd=ROOT, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert "the worker is running" in worker.stdout.readline()
    assert "stopped" in stop(worker, signal.SIGTERM)


def _post_button(opener, page_url: str, action: str) -> None:
    status, html = get(page_url, opener)
    assert status == 200, html[:500]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    request = urllib.request.Request(page_url + f"do/{action}/", data=urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token}).encode(), headers={"Referer": page_url})
    with opener.open(request, timeout=30) as response:
        assert response.status == 200


def test_the_app_for_an_excel_folder_end_to_end(tmp_path):
    folder = tmp_path / "турниры"
    folder.mkdir()
    workbook = folder / "gmo.xlsx"
    shutil.copy(EXAMPLE_PATH, workbook)
    proc, url = start("app", str(folder), "--no-browser")
    try:
        assert url.endswith("/o/gmo/")  # one workbook: its page opens
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        base = url.split("/o/")[0]
        public = base + "/t/gmo/"
        wait_for(lambda: get(public)[0] == 200)  # synced at start, by the worker threads
        # signed in as the local organizer, no password; the title is the workbook's once its sync ended
        wait_for(lambda: "German Mafia Open 2016" in get(url, opener)[1])
        _post_button(opener, url, "sync")
        # a judge saves the workbook: the sync follows by itself
        standings = folder / ".sheets-sync" / "sites"
        before = json.loads(next(standings.rglob("standings.json")).read_text(encoding="utf-8"))["standings"][0]
        wb = openpyxl.load_workbook(workbook)
        wb["Турнир"]["B1"] = "Кубок после правки"
        wb.save(workbook)
        wait_for(lambda: "Кубок после правки" in get(public)[1])
        assert before
    finally:
        out = stop(proc)
    assert "the server stopped" in out
    assert (folder / ".sheets-sync" / "server.sqlite3").exists()
