"""The hall (issue 14 §5): `watch --serve` serves the site read-only; screen.html and screen-2.html.

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
from pathlib import Path
from urllib.error import HTTPError
from urllib.request import Request, urlopen

import pytest
from click.testing import CliRunner

from sheets_sync.cli import main
from sheets_sync.render.screen import SCREEN_ROWS, next_round, screen_files
from sheets_sync.render.site import site_files
from sheets_sync.serve import serve_site
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


def test_server_binds_the_address_given(tmp_path):
    server = serve_site(tmp_path / "site", port=0, bind="127.0.0.1")
    try:
        assert server.httpd.server_address[0] == "127.0.0.1"
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
