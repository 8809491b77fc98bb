"""Issue 43 §3: a phone opens the server the README way — ``server --host 0.0.0.0``, then the phone at
``http://<the computer's address>:<port>`` — through real processes: the machine's own addresses are
answered by default when it listens on them, start-up prints the address a phone opens (not 0.0.0.0)
with a QR code, an explicit ``SHEETS_SYNC_ALLOWED_HOSTS`` still wins, and a host that is not allowed
gets the site's own error page in the reader's language, never Django's bare «Bad Request (400)»."""

from __future__ import annotations

import http.client
import ipaddress
import re
import time

import pytest

from sheets_sync.web import addresses
from tests.web.process_support import _start, environment, running


def _lan_address() -> str | None:
    for address in addresses.machine_addresses():
        ip = ipaddress.ip_address(address)
        if ip.version == 4 and not ip.is_loopback and not ip.is_link_local:
            return address
    return None


LAN = _lan_address()
needs_lan = pytest.mark.skipif(LAN is None, reason="this machine has no non-loopback IPv4 address")


def _server(tmp_path, host: str, **env: str):
    log = tmp_path / "server.log"
    log.write_text("", encoding="utf-8")
    return _start(["server", "--data", str(tmp_path / "data"), "--host", host, "--port", "0", "--workers", "1"],
                  environment(tmp_path / "data", **env), log, r"http://127\.0\.0\.1:(\d+)/")


def _said_until(log, last: str) -> str:
    """The command's output once ``last`` is in it (it prints line by line after it is ready)."""
    deadline = time.monotonic() + 30
    said = log.read_text(encoding="utf-8")
    while last not in said and time.monotonic() < deadline:
        time.sleep(0.05)
        said = log.read_text(encoding="utf-8")
    return said


def _get(connect_to: str, port: int, host_header: str, path: str = "/login/",
         language: str = "ru") -> tuple[int, str]:
    """A GET sent to ``connect_to`` carrying ``Host: host_header`` (what a browser sends for the address typed)."""
    conn = http.client.HTTPConnection(connect_to, port, timeout=30)
    try:
        conn.request("GET", path, headers={"Host": f"{host_header}:{port}", "Accept-Language": language})
        response = conn.getresponse()
        return response.status, response.read().decode()
    finally:
        conn.close()


@needs_lan
def test_listening_on_every_network_the_phone_opens_the_lan_address_and_a_stranger_host_reads_russian(tmp_path):
    server = _server(tmp_path, "0.0.0.0")
    with running(server):
        port = int(server.url)
        said = _said_until(server.log, "▀")  # the QR code's last line, printed just after the address
        assert f"http://{LAN}:{port}/" in said  # the address to open on the phone, not 0.0.0.0
        assert "0.0.0.0" not in said
        assert "▄" in said and "█" in said  # its QR code, drawn in the terminal
        status, page = _get(LAN, port, LAN)  # the phone: connects to the LAN address, Host is that address
        assert status == 200 and 'name="password"' in page
        status, page = _get(LAN, port, "localhost")
        assert status == 200
        status, page = _get(LAN, port, "evil.example")  # DNS rebinding: a name that is not this computer's
        assert status == 400
        assert "Bad Request" not in page and "Сервер не отвечает на этот адрес" in page
        assert 'id="error-page" data-status="400"' in page
        status, page = _get(LAN, port, "evil.example", language="en")
        assert status == 400 and "The server does not answer this address" in page


@needs_lan
def test_an_explicit_allowed_hosts_setting_still_wins(tmp_path):
    server = _server(tmp_path, "0.0.0.0", SHEETS_SYNC_ALLOWED_HOSTS="tournament.example.org")
    with running(server):
        port = int(server.url)
        assert _get(LAN, port, "tournament.example.org")[0] == 200
        status, page = _get(LAN, port, LAN)
        assert status == 400 and "Сервер не отвечает на этот адрес" in page


def test_on_this_computer_only_nothing_else_is_answered_nor_announced(tmp_path):
    server = _server(tmp_path, "127.0.0.1")
    with running(server):
        port = int(server.url)
        assert _get("127.0.0.1", port, "127.0.0.1")[0] == 200
        status, page = _get("127.0.0.1", port, LAN or "192.0.2.2")
        assert status == 400 and "Сервер не отвечает на этот адрес" in page
    said = server.log.read_text(encoding="utf-8")  # all it said, up to «stopped»
    assert "the server stopped" in said
    assert not re.search(r"Wi-Fi|▄", said)  # no phone address to print: nobody else can connect


@pytest.mark.django_db
def test_the_organizers_list_shows_the_phone_address_and_its_qr_only_when_on_the_network(client, monkeypatch):
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.create_user("org@example.org", "org@example.org", "x"))
    monkeypatch.setenv(addresses.LISTEN_ENV, "127.0.0.1")
    assert 'id="phone-address"' not in client.get("/", SERVER_PORT="8000").content.decode()
    monkeypatch.setenv(addresses.LISTEN_ENV, "10.9.8.7")
    page = client.get("/", SERVER_PORT="8000").content.decode()
    assert 'id="phone-address"' in page and "http://10.9.8.7:8000/" in page and "<svg" in page
    assert "С телефона в той же сети" in page


def test_hosts_allowed_by_where_the_server_listens():
    assert addresses.allowed_hosts("127.0.0.1") == list(addresses.LOCAL_HOSTS)
    assert addresses.allowed_hosts("::1") == list(addresses.LOCAL_HOSTS)
    everywhere = addresses.allowed_hosts("0.0.0.0")
    assert set(addresses.LOCAL_HOSTS) <= set(everywhere)
    for address in addresses.machine_addresses():
        assert (f"[{address}]" if ":" in address else address) in everywhere
    assert "10.9.8.7" in addresses.allowed_hosts("10.9.8.7")  # a specific address listened on
    assert addresses.phone_url(8000, "127.0.0.1") is None
    assert addresses.phone_url(8000, "10.9.8.7") == "http://10.9.8.7:8000/"
    assert addresses.this_computer_url("0.0.0.0", 8000) == "http://127.0.0.1:8000/"
    assert addresses.this_computer_url("::", 8000) == "http://[::1]:8000/"


@pytest.mark.django_db
def test_the_judges_links_take_the_one_phone_address_of_addresses(rf, monkeypatch, settings):
    """One place finds the address a phone opens (issue 44: the judge's twin module is gone): in app
    mode listening on the network a judge's link carries it, never 127.0.0.1; on this computer only,
    or on the server, the address the page was opened at."""
    import importlib.util

    assert importlib.util.find_spec("sheets_sync.web.judge.lan") is None
    request = rf.get("/o/cup/", SERVER_NAME="127.0.0.1", SERVER_PORT="8123")
    settings.MODE = "app"
    settings.ALLOWED_HOSTS = ["127.0.0.1", "judges.example.org"]
    monkeypatch.setenv(addresses.LISTEN_ENV, "10.9.8.7")
    assert addresses.phone_base(request) == "http://10.9.8.7:8123"
    monkeypatch.setenv(addresses.LISTEN_ENV, "127.0.0.1")
    assert addresses.phone_base(request) == "http://127.0.0.1:8123"
    settings.MODE = "server"
    monkeypatch.setenv(addresses.LISTEN_ENV, "10.9.8.7")
    assert addresses.phone_base(rf.get("/", SERVER_NAME="judges.example.org", SERVER_PORT="443", secure=True)) \
        == "https://judges.example.org"
