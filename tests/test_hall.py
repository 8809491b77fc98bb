"""The hall (issue 14 §5): `watch --serve` serves the site read-only; screen.html and screen-2.html.
On a hall's network (issue 34 §8) idle connections are timed out and capped, and clients that go away
early or send a malformed address cost one line at most, never a traceback.

The server is exercised over real sockets (urllib, raw requests for what urllib will not send);
the screen pages are rendered from the example tournament with the counted games cut back to
a point in the tournament, so the next round's seating is the one the seating tab schedules.
The browser half (the page in Chromium updating after a judge's edit) is tests/test_screen_browser.py.
"""

from __future__ import annotations

import dataclasses
import http.client
import os
import re
import socket
import struct
import time
from pathlib import Path
from urllib.error import HTTPError
from urllib.request import Request, urlopen

import pytest
from click.testing import CliRunner

from sheets_sync.cli import main
from sheets_sync.render.screen import SCREEN_ROWS, next_round, screen_files
from sheets_sync.render.site import site_files
from sheets_sync.loop.guard import Limits
from sheets_sync.loop.serve import MAX_BODY, serve_site
from tests.test_site import check_golden, example_outcome


# -- the server ---------------------------------------------------------------------------------------
@pytest.fixture
def served(tmp_path):
    site = tmp_path / "out" / "site"
    site.mkdir(parents=True)
    (site / "index.html").write_text("<p>Итоги</p>", encoding="utf-8")
    (site / "players").mkdir()
    (site / "players" / "a.html").write_text("<p>a</p>", encoding="utf-8")
    (tmp_path / "out" / "secret.txt").write_text("not for the hall", encoding="utf-8")
    (site / "link.txt").symlink_to(tmp_path / "out" / "secret.txt")
    server = serve_site(site, port=0)
    yield server
    server.close()


def _raw(server, method: str, path: str) -> tuple[int, bytes]:
    """A request sent as typed (no client-side normalisation of ``..``)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.putrequest(method, path, skip_accept_encoding=True)
        conn.endheaders()
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


@pytest.mark.parametrize("method, path, status, body", [
    ("GET", "/index.html", 200, "Итоги"),
    ("GET", "/", 200, "Итоги"),  # the folder's index.html
    ("GET", "/players/a.html", 200, "<p>a</p>"),
    ("HEAD", "/index.html", 200, None),
    ("GET", "/players/", 404, None),  # no listing of a folder
    ("GET", "/../secret.txt", 404, None),
    ("GET", "/players/../../secret.txt", 404, None),
    ("GET", "/%2e%2e/secret.txt", 404, None),
    ("GET", "/link.txt", 404, None),  # a symbolic link out of the folder
    ("GET", "/nothing.html", 404, None),
    ("POST", "/index.html", 405, None),
    ("PUT", "/index.html", 405, None),
    ("DELETE", "/index.html", 405, None),
])
def test_server_is_read_only_and_stays_in_its_folder(served, method, path, status, body):
    got, data = _raw(served, method, path)
    assert got == status, (method, path, data[:200])
    if method == "HEAD":
        assert data == b""
    elif body is not None:
        assert body in data.decode("utf-8")
    assert b"not for the hall" not in data


def test_server_tells_browsers_to_revalidate(served):
    with urlopen(served.url + "index.html", timeout=10) as resp:
        assert resp.headers["Cache-Control"] == "no-cache"
    with pytest.raises(HTTPError) as err:
        urlopen(Request(served.url + "index.html", data=b"x", method="POST"), timeout=10)
    assert err.value.code == 405 and err.value.headers["Allow"] == "GET, HEAD"
    assert os.path.exists(served.folder / "index.html")  # nothing a request does touches the files


def test_server_answers_an_unchanged_page_with_304_and_names_in_utf8(served):
    (served.folder / "players" / "Пума.html").write_text("<p>Пума</p>", encoding="utf-8")
    (served.folder / "stage").mkdir()
    (served.folder / "stage" / "index.html").write_text("<p>этап</p>", encoding="utf-8")
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    try:
        conn.request("GET", "/players/%D0%9F%D1%83%D0%BC%D0%B0.html")
        resp = conn.getresponse()
        assert (resp.status, resp.read().decode("utf-8")) == (200, "<p>Пума</p>")
        assert resp.headers["Content-Type"] == "text/html; charset=utf-8"
        etag = resp.headers["ETag"]
        conn.request("GET", "/players/%D0%9F%D1%83%D0%BC%D0%B0.html", headers={"If-None-Match": etag})
        resp = conn.getresponse()
        assert (resp.status, resp.read()) == (304, b"")  # the screen's reload of a page that did not change
        conn.request("GET", "/stage")
        resp = conn.getresponse()
        resp.read()
        assert resp.status == 301 and resp.headers["Location"] == "/stage/"  # so the index's relative links work
    finally:
        conn.close()

def test_server_binds_the_address_given(tmp_path):
    server = serve_site(tmp_path / "site", port=0, bind="127.0.0.1")
    try:
        assert server.host == "127.0.0.1"
        assert server.url == f"http://127.0.0.1:{server.port}/"
        assert (tmp_path / "site").is_dir()  # made before the first sync writes into it
    finally:
        server.close()


def test_a_taken_port_is_a_message_not_a_traceback(example, tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["watch", str(example), "--serve", str(port), "--cycles", "1",
                                           "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert f"127.0.0.1:{port}" in result.output and "--serve" in result.output
    assert "Traceback" not in result.output


@pytest.mark.slow
def test_watch_serves_the_site_it_writes(example, tmp_path):
    runner = CliRunner()
    result = runner.invoke(main, ["watch", str(example), "--serve", "0", "--cycles", "1", "--out", str(tmp_path / "out"),
                                  "--language", "en"])
    assert result.exit_code == 0, result.output
    m = re.search(r"http://127\.0\.0\.1:(\d+)/screen\.html", result.output)
    assert m, result.output
    assert (tmp_path / "out" / "site" / "screen.html").exists()
    # the watch ended: so did its server (the port is free again)
    with socket.socket() as s:
        s.bind(("127.0.0.1", int(m.group(1))))


# -- a hall's network (issue 34 §8): idle, early-closing and malformed clients ------------------------------
def _connect(server, n: int) -> list[socket.socket]:
    conns = []
    for _ in range(n):
        conn = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        conns.append(conn)
    return conns


def _closed_by_server(conn: socket.socket, deadline: float) -> bool:
    """True when the server closed ``conn`` (an empty read or a reset) before ``deadline``."""
    conn.settimeout(max(0.01, deadline - time.monotonic()))
    try:
        return conn.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def _get(server, path: str = "/index.html", timeout: float = 5) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        resp.read()
        return resp.status
    finally:
        conn.close()


def _limits(seconds: float, **more) -> Limits:
    """The guard's limits with every deadline shortened to ``seconds`` (tests/test_connections.py
    tries the guard itself)."""
    return Limits(max_body=MAX_BODY, header_seconds=seconds, body_grace=seconds, idle_seconds=seconds, **more)


@pytest.fixture
def hall(tmp_path):
    """A served site with a short idle timeout; what the server says is collected."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<p>Итоги</p>", encoding="utf-8")
    (site / "big.png").write_bytes(os.urandom(2 << 20))  # larger than the sockets' buffers
    said: list[str] = []
    servers = []

    def start(**options):
        server = serve_site(site, port=0, say=said.append, **options)
        servers.append(server)
        return server

    yield start, said
    for server in servers:
        server.close()


def test_idle_connections_are_closed_after_the_timeout_and_do_not_block_a_get(hall, capfd):
    start, said = hall
    server = start(limits=_limits(4.0))
    idle = _connect(server, 200)  # phones that connected and said nothing
    try:
        started = time.monotonic()
        assert _get(server) == 200
        assert time.monotonic() - started < 3  # answered beside them, not after their timeout
        deadline = time.monotonic() + 15
        still_open = [c for c in idle if not _closed_by_server(c, deadline)]
        assert still_open == [], f"{len(still_open)} of 200 idle connections still open after 15 s"
    finally:
        for conn in idle:
            conn.close()
    assert "Traceback" not in capfd.readouterr().err


def test_connections_are_capped_and_a_waiting_one_is_answered_when_they_close(hall):
    start, said = hall
    server = start(limits=_limits(3.0, total=20))
    idle = _connect(server, 20)  # the limit filled (the server's own sockets count too)
    try:
        time.sleep(0.3)  # the server accepts what it may
        waiting = socket.create_connection(("127.0.0.1", server.port), timeout=0.5)
        waiting.sendall(b"GET /index.html HTTP/1.1\r\nHost: hall\r\nConnection: close\r\n\r\n")
        with pytest.raises(TimeoutError):
            waiting.recv(100)  # not accepted while the limit is full
        waiting.settimeout(15)  # the idle ones time out: then it is accepted and answered
        assert waiting.recv(100).startswith(b"HTTP/1.1 200")
        waiting.close()
    finally:
        for conn in idle:
            conn.close()
    assert any("соединений" in line or "connections" in line for line in said), said


def test_clients_that_close_early_are_no_traceback(hall, capfd):
    start, said = hall
    server = start(limits=_limits(5.0))
    for _ in range(200):  # a phone asks for a picture and is gone (a reset, not a polite close)
        conn = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        conn.sendall(b"GET /big.png HTTP/1.1\r\nHost: hall\r\n\r\n")
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        conn.close()
    assert _get(server) == 200  # still serving
    time.sleep(0.5)  # the server's threads finish writing to the sockets that went away
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Error" not in err, err[:2000]
    assert len(err.splitlines()) + len(said) <= 200


def test_a_large_upload_is_refused_unread(hall, tmp_path):
    start, _said = hall
    server = start()
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as conn:
        conn.sendall(b"POST /index.html HTTP/1.1\r\nHost: hall\r\nContent-Length: 50000000\r\n\r\n")
        assert conn.recv(100).startswith(b"HTTP/1.1 413")  # not 50 MB read into a temporary file first
    assert _get(server) == 200

@pytest.mark.parametrize("request_line, statuses", [
    (b"GET /%00 HTTP/1.1", {400}),
    (b"GET /index.html%00.txt HTTP/1.1", {400}),
    (b"GET /%ff%fe HTTP/1.1", {400}),  # not UTF-8
    (b"GET /a%0d%0ab HTTP/1.1", {400}),  # a line break inside the path
    (b"GET /%2e%2e/%2e%2e/etc/passwd HTTP/1.1", {404}),
    (b"GET /" + b"a" * 5000 + b" HTTP/1.1", {404}),  # a name too long for the file system
    (b"GET nothing-like-a-path HTTP/1.1", {400, 404}),
    (b"\x00\x01\x02 garbage", {400}),
])
def test_a_malformed_request_is_answered_with_one_line_and_no_traceback(hall, capfd, request_line, statuses):
    start, said = hall
    server = start()
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as conn:
        conn.sendall(request_line + b"\r\nHost: hall\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else None
    assert status in statuses, answer[:300]
    assert _get(server) == 200  # the server goes on
    err = capfd.readouterr().err
    assert "Traceback" not in err, err
    assert len(said) <= 1 and len(err.splitlines()) <= 1, (said, err)
    if status == 400 and b"%" in request_line:
        assert len(said) == 1 and "400" in said[0], said


# -- the screen pages ---------------------------------------------------------------------------------------
def _at(results, counted_keys):
    """The results as they would be with only these games counted (the seating stays scheduled)."""
    return dataclasses.replace(results, counted=tuple(p for p in results.counted if p.key in counted_keys))


def _keys(results, stages=None, upto=None):
    return {p.key for p in results.counted
            if (stages is None or p.stage in stages) and (upto is None or (p.stage, p.round) < upto)}


CASES = [
    # (what has been counted, the next round the screen shows)
    ("nothing yet", lambda r: set(), ("qualifying", 1)),
    ("after round 3", lambda r: _keys(r, {"qualifying"}, ("qualifying", 4)), ("qualifying", 4)),
    ("round 4 under way", lambda r: _keys(r, {"qualifying"}, ("qualifying", 4)) | {("qualifying", 4, 1)},
     ("qualifying", 4)),
    ("qualifying done", lambda r: _keys(r, {"qualifying"}), ("semifinal", 1)),
    ("final game 2 missing", lambda r: _keys(r) - {("final", 2, 1)}, ("final", 2)),
    ("all played", lambda r: _keys(r), None),
]


@pytest.mark.parametrize("name, counted, expected", CASES, ids=[c[0] for c in CASES])
def test_next_round_is_the_first_scheduled_round_not_counted(name, counted, expected):
    full = example_outcome().results
    results = _at(full, counted(full))
    nxt = next_round(results)
    assert (None if nxt is None else (nxt.stage, nxt.round)) == expected
    if nxt is not None:
        scheduled = sorted(e.table for e in full.tournament.seating if (e.stage, e.round) == expected)
        assert [e.table for e in nxt.tables] == scheduled


def test_a_hidden_stage_is_not_on_the_screen():
    full = example_outcome().results
    results = dataclasses.replace(_at(full, _keys(full) - {("final", 2, 1)}), hidden=frozenset({"final"}))
    assert next_round(results) is None


def test_screen_pages_alternate_and_show_the_seating():
    o = example_outcome()
    full = o.results
    results = _at(full, _keys(full, {"qualifying"}, ("qualifying", 4)))
    pages = screen_files(results, language="ru")
    standings, seating = pages["screen.html"], pages["screen-2.html"]
    assert re.search(r'<meta http-equiv="refresh" content="\d+; url=screen-2\.html">', standings)
    assert re.search(r'<meta http-equiv="refresh" content="\d+; url=screen\.html">', seating)
    assert "<script" not in standings + seating
    shown = re.findall(r'<th scope="row" class="name">(.*?)</th>', standings)
    assert shown == [st.stats.player for st in results.overall[:SCREEN_ROWS]]
    assert "Отбор, тур 4" in seating
    for entry in (e for e in full.tournament.seating if (e.stage, e.round) == ("qualifying", 4)):
        assert f"Стол {entry.table}</h2>" in seating
        for player in entry.players:
            assert f'<span class="name">{player}</span>' in seating


def test_screen_without_a_next_round_stays_on_the_standings():
    o = example_outcome()
    pages = screen_files(o.results, language="en")
    assert 'url=screen.html">' in pages["screen.html"]
    assert "No seating for the next round yet" in pages["screen-2.html"]
    nothing = screen_files(_at(o.results, set()), language="en")
    assert "No games yet" in nothing["screen.html"] and "<tbody>" not in nothing["screen.html"]


def test_the_site_carries_the_screen():
    o = example_outcome()
    files = site_files(o.results, o.problems, language=o.language)
    assert {"screen.html", "screen-2.html"} <= set(files)
    assert all(Path(name).suffix == ".html" for name in ("screen.html", "screen-2.html"))


@pytest.mark.parametrize("page", ["screen.html", "screen-2.html"])
def test_golden_screen_before_round_4(page):
    full = example_outcome().results
    pages = screen_files(_at(full, _keys(full, {"qualifying"}, ("qualifying", 4))), language="ru")
    check_golden(f"site/screen-before-round-4-{page}", pages[page])
