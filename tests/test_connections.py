"""No client can stop the site server of `watch --serve` (issue 42 §1), over real sockets.

A thousand connections held from other loopback addresses — half trickling a header byte every few
seconds, half saying nothing — and ordinary GETs from 127.0.0.1 are still answered; a request that
trickles its headers or its body is closed after its deadline; one address holds at most a few
dozen connections at once (its idle keep-alive ones give way to its new ones); an over-limit
Content-Length is answered 413 before a byte of the body is sent.

The deadline is shortened for the tests that wait for it (``SHEETS_SYNC_REQUEST_SECONDS``); the
times given to ``wait_closed`` and the GETs' timeouts are bounds a broken server never meets, not
timings (those are in bench/connections.py).  The same guard serves the web app:
tests/web/test_connections.py.
"""

from __future__ import annotations

import http.client
import socket
import time

import pytest

from sheets_sync.loop.serve import serve_site
from tests.crowd import REQUEST_START, Crowd, closed_by_server, connect_from, get, settle, trickle, wait_closed

pytestmark = pytest.mark.slow


@pytest.fixture
def site(tmp_path):
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "index.html").write_text("<p>Итоги</p>", encoding="utf-8")
    servers = []

    def start():
        server = serve_site(folder, port=0, say=lambda line: None)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.close()


def test_a_thousand_slow_and_idle_connections_do_not_stop_ordinary_gets(site, monkeypatch):
    monkeypatch.setenv("SHEETS_SYNC_REQUEST_SECONDS", "60")  # held throughout, however busy the machine
    server = site()
    with Crowd(server.port, size=1000, every=2.0) as crowd:
        held = crowd.open_count()
        answers = [get(server.port, "/index.html", timeout=15) for _ in range(5)]
        assert held >= 900 and crowd.open_count() >= 900, (held, crowd.refused)  # they were held meanwhile
    assert [status for status, _ in answers] == [200] * 5
    assert all("Итоги" in body.decode() for _, body in answers)


def test_a_trickling_request_is_closed_after_its_deadline(site, monkeypatch):
    monkeypatch.setenv("SHEETS_SYNC_REQUEST_SECONDS", "2")
    server = site()
    conn = connect_from("127.0.5.1", server.port)
    try:
        conn.sendall(REQUEST_START)
        end = time.monotonic() + 20
        while time.monotonic() < end and trickle(conn):  # a byte every half second: never inactive
            time.sleep(0.5)
        assert closed_by_server(conn), "a header trickled for 20 s was never cut"
    finally:
        conn.close()
    assert get(server.port, "/index.html", timeout=15)[0] == 200


def test_a_connection_that_never_speaks_is_closed_after_the_deadline(site, monkeypatch):
    monkeypatch.setenv("SHEETS_SYNC_REQUEST_SECONDS", "2")
    server = site()
    with connect_from("127.0.5.2", server.port) as conn:
        assert wait_closed(conn, within=20)


def test_a_trickling_body_is_closed(site, monkeypatch):
    monkeypatch.setenv("SHEETS_SYNC_REQUEST_SECONDS", "2")
    server = site()
    with connect_from("127.0.5.3", server.port) as conn:
        conn.sendall(b"POST /index.html HTTP/1.1\r\nHost: hall\r\nContent-Length: 60000\r\n\r\n")
        end = time.monotonic() + 20
        sent = 0
        while time.monotonic() < end and trickle(conn):
            sent += 1
            time.sleep(0.5)
        assert closed_by_server(conn), f"a body trickled for 20 s ({sent} bytes) was never cut"


def test_one_address_holds_a_few_dozen_connections_the_rest_closed_at_once(site, monkeypatch):
    monkeypatch.setenv("SHEETS_SYNC_REQUEST_SECONDS", "60")  # the cap closes them, not the deadline
    server = site()
    held = []
    try:
        for _ in range(100):  # one client's slowloris: every connection mid-request
            conn = connect_from("127.0.6.1", server.port)
            conn.sendall(REQUEST_START)
            held.append(conn)
        still_open = settle(held, at_most=server.limits.per_address)
        assert 6 <= still_open < 100  # a browser's six fit; the client as a whole is capped
        assert still_open == server.limits.per_address
        with pytest.raises((ConnectionError, OSError)):  # a new one from that address: closed at once
            get(server.port, "/index.html", source="127.0.6.1", timeout=10)
        assert get(server.port, "/index.html", source="127.0.6.2", timeout=10)[0] == 200  # its neighbours are not
        assert get(server.port, "/index.html", timeout=10)[0] == 200
    finally:
        for conn in held:
            conn.close()


def test_an_address_at_its_cap_gives_up_idle_keepalives_for_new_requests(site, monkeypatch):
    """A hall's NAT is one address: its phones' idle keep-alive connections make room for new
    ones, so the cap limits requests in progress, not phones."""
    monkeypatch.setenv("SHEETS_SYNC_REQUEST_SECONDS", "60")
    server = site()
    idle = []
    try:
        for _ in range(60):  # each asked for a page and keeps the connection for the next
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=("127.0.6.3", 0))
            conn.request("GET", "/index.html")
            response = conn.getresponse()
            assert (response.status, response.read().decode()) == (200, "<p>Итоги</p>")
            idle.append(conn)
        still_open = settle([c.sock for c in idle], at_most=server.limits.per_address)
        assert still_open == server.limits.per_address  # the oldest idle ones were closed for the newer
        assert get(server.port, "/index.html", source="127.0.6.3", timeout=10)[0] == 200
        assert not closed_by_server(idle[-1].sock)  # the newest kept
    finally:
        for conn in idle:
            conn.close()


def test_an_over_limit_upload_is_answered_413_before_its_body(site):
    server = site()
    with connect_from("127.0.5.4", server.port) as conn:
        conn.sendall(b"POST /index.html HTTP/1.1\r\nHost: hall\r\nContent-Length: 1000000000\r\n\r\n")
        answer = conn.recv(4096)  # not one byte of the body sent
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert wait_closed(conn, within=10)
        sent = 0
        with pytest.raises(OSError):  # the body the server never asked for finds the door shut
            for _ in range(1 << 14):
                conn.sendall(b"x" * 65536)
                sent += 65536
        assert sent < 64 << 20  # at most the sockets' buffers, never the gigabyte


def test_the_open_file_limit_is_raised_to_its_hard_limit(site):
    resource = pytest.importorskip("resource")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    lowered = min(1024, hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (lowered, hard))
    try:
        server = site()
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == hard
        assert server.limits.total > 1000 + 256  # room for a thousand held and the rest of the process
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    with socket.socket() as probe:  # the process still works
        probe.bind(("127.0.0.1", 0))


def test_a_client_is_its_address_or_its_ipv6_slash_64():
    """An IPv6 subscriber holds a whole /64 and may pick any address in it: the cap counts the /64
    (loopback has one IPv6 address, so this is the one part tried without sockets)."""
    from sheets_sync.loop.guard import client_of

    assert client_of("2001:db8:1:2::1") == client_of("2001:db8:1:2:ffff:ffff:ffff:ffff") == "2001:db8:1:2::/64"
    assert client_of("2001:db8:1:3::1") != client_of("2001:db8:1:2::1")
    assert client_of("::ffff:192.0.2.7") == "192.0.2.7"  # an IPv4 client on a dual-stack socket
    assert client_of("192.0.2.7") != client_of("192.0.2.8")
    assert client_of("fe80::1%eth0") == "fe80::/64"
