"""No client can stop the server (issue 42 §1): `server` and `app` run the Django app on the same
guarded waitress as `watch --serve` (tests/test_connections.py), tried here over real sockets on
``start_web`` in this process and on a real ``sheets-sync server --data DIR`` process.

A thousand connections held (half trickling a header byte every few seconds, half idle) from other
loopback addresses, and ordinary GETs from 127.0.0.1 are answered; a trickling request is closed
after its deadline (shortened for the tests: ``SHEETS_SYNC_REQUEST_SECONDS``); an upload over the
web app's limit is answered 413 before a byte of its body; a trusted proxy's address is not capped
as one client; the server raises its open-file limit to the hard limit.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sheets_sync.web.serving import start_web
from tests.crowd import REQUEST_START, Crowd, closed_by_server, connect_from, get, settle, trickle

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
PAGE = "/login/"  # a page of the app that every visitor may ask for


@pytest.fixture
def web():
    servers = []

    def start():
        server = start_web("127.0.0.1", 0)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.close()


def test_a_thousand_slow_and_idle_connections_do_not_stop_the_app(web, monkeypatch):
    monkeypatch.setenv("SHEETS_SYNC_REQUEST_SECONDS", "60")  # held throughout, however busy the machine
    server = web()
    with Crowd(server.port, size=1000, every=2.0) as crowd:
        held = crowd.open_count()
        statuses = [get(server.port, PAGE, timeout=15)[0] for _ in range(5)]
        assert held >= 900 and crowd.open_count() >= 900, (held, crowd.refused)
    assert statuses == [200] * 5


def test_a_trickling_request_to_the_app_is_closed_after_its_deadline(web, monkeypatch):
    monkeypatch.setenv("SHEETS_SYNC_REQUEST_SECONDS", "2")
    server = web()
    with connect_from("127.0.7.1", server.port) as conn:
        conn.sendall(REQUEST_START)
        end = time.monotonic() + 20
        while time.monotonic() < end and trickle(conn):
            time.sleep(0.5)
        assert closed_by_server(conn), "a header trickled for 20 s was never cut"


def test_a_trickling_upload_to_the_app_is_closed(web, monkeypatch):
    monkeypatch.setenv("SHEETS_SYNC_REQUEST_SECONDS", "2")
    server = web()
    with connect_from("127.0.7.2", server.port) as conn:
        conn.sendall(b"POST /new/ HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\n")
        end = time.monotonic() + 20
        while time.monotonic() < end and trickle(conn):
            time.sleep(0.5)
        assert closed_by_server(conn), "a body trickled for 20 s was never cut"


@pytest.mark.parametrize("length", [1_000_000_000, 50_000_000])
def test_an_upload_over_the_limit_is_answered_413_before_its_body(web, length):
    server = web()
    with connect_from("127.0.7.3", server.port) as conn:
        conn.sendall(f"POST {PAGE} HTTP/1.1\r\nHost: localhost\r\nAccept-Language: en\r\n"
                     f"Content-Length: {length}\r\n\r\n".encode())
        answer = b""
        while chunk := conn.recv(4096):  # not one byte of the body sent: the server did not wait for it
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 413"), answer[:300]
    assert b"The request is too large: over 4 MB" in answer  # in the reader's language, as every message


def test_the_players_csv_of_a_new_tournament_fits_the_limit(web):
    """The limit is what the new-tournament form needs: a league's players file gets through to
    Django (here a 403 without a CSRF token — answered, not refused at the door)."""
    server = web()
    players = "\n".join(f"Игрок номер {i},Клуб {i % 40},{1500 + i}" for i in range(20000)).encode()
    boundary = "----crowd"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"players_csv\"; filename=\"p.csv\"\r\n"
            f"Content-Type: text/csv\r\n\r\n").encode() + players + f"\r\n--{boundary}--\r\n".encode()
    assert len(body) > 500_000
    with connect_from("127.0.7.4", server.port) as conn:
        conn.sendall(f"POST /new/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                     f"Content-Type: multipart/form-data; boundary={boundary}\r\n"
                     f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        answer = conn.recv(4096)
    assert answer.split(b" ")[1] in (b"302", b"403"), answer[:300]


def test_a_trusted_proxy_is_not_capped_as_one_client(web, monkeypatch):
    monkeypatch.setenv("SHEETS_SYNC_TRUSTED_PROXY", "127.0.8.1")
    monkeypatch.setenv("SHEETS_SYNC_REQUEST_SECONDS", "60")  # the cap closes them, not the deadline
    server = web()
    proxy, client = [], []
    try:
        for source, group in (("127.0.8.1", proxy), ("127.0.8.2", client)):
            for _ in range(80):  # requests in progress: none is an idle keep-alive to give way
                conn = connect_from(source, server.port)
                conn.sendall(REQUEST_START)
                group.append(conn)
        assert settle(client, at_most=server.limits.per_address) == server.limits.per_address
        assert sum(not closed_by_server(c) for c in proxy) == 80  # many people's requests through one address
    finally:
        for conn in proxy + client:
            conn.close()


# -- the real process -----------------------------------------------------------------------------------------
def _lower_open_files() -> None:
    import resource

    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(1024, hard), hard))  # a usual desktop's soft limit


def _server(data: Path, deadline: str) -> tuple[subprocess.Popen, int]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "SHEETS_SYNC_DATA": "",
                   "SHEETS_SYNC_REQUEST_SECONDS": deadline}
    environment.pop("DJANGO_SETTINGS_MODULE", None)
    proc = subprocess.Popen([sys.executable, "-m", "sheets_sync", "server", "--data", str(data), "--port", "0",
                             "--no-worker", "--language", "en"], cwd=ROOT, env=environment, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, preexec_fn=_lower_open_files)
    seen = []
    for line in proc.stdout:
        seen.append(line)
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if match:
            return proc, int(match.group(1))
    proc.kill()
    raise AssertionError("".join(seen))


def _open_files(pid: int) -> tuple[str, str]:
    limits = Path(f"/proc/{pid}/limits").read_text()
    soft, hard = re.search(r"Max open files\s+(\S+)\s+(\S+)", limits).groups()
    return soft, hard


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="source addresses across 127.0.0.0/8: Linux")
def test_the_server_process_outlasts_a_thousand_held_connections(tmp_path):
    proc, port = _server(tmp_path / "data", deadline="8")
    try:
        with Crowd(port, size=1000, every=2.0, reconnect=True) as crowd:
            held = crowd.open_count()
            statuses = [get(port, PAGE, timeout=15)[0] for _ in range(5)]
            assert held >= 900, (held, crowd.refused)
            assert statuses == [200] * 5
            with connect_from("127.0.9.1", port) as slow:
                slow.sendall(REQUEST_START)
                end = time.monotonic() + 30
                while time.monotonic() < end and trickle(slow):
                    time.sleep(0.5)
                assert closed_by_server(slow), "a header trickled for 30 s was never cut"
            assert get(port, PAGE, timeout=15)[0] == 200
        soft, hard = _open_files(proc.pid)
        assert soft == hard  # raised from 1024 at start: room for the connections
    finally:
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0, out
    assert "Traceback" not in out, out[-3000:]
