"""The hall's screen in a real Chromium while `watch --serve` runs (issue 14 §5).

The real CLI runs ``watch WB --serve 0`` in a subprocess on a copy of the example stopped before
qualifying round 7 (the judges have not typed its winners, nor the later stages').  One headless
Chromium, driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``: no
websocket library needed), opens ``/screen.html`` and is left alone: its own meta refreshes
take it to the seating of round 7 and back.  A judge then types the winner of round 7, table 1;
the same browser tab, still never told to reload, shows the new standings and game count.
The expected standings are computed from the workbook as saved, not written down here.
Pictures: tests/artifacts/screen-standings.png, screen-seating.png, screen-after-edit.png.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.error import URLError
from urllib.request import urlopen

import pytest

from scoring.cells import a1
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.render.protocols import CHROMIUM_FLAGS
from sheets_sync.render.screen import SCREEN_ROWS, SCREEN_SECONDS
from sheets_sync.loop.sync import compute
from tests.judge import ExcelDesk, _table
from tests.test_browser import ARTIFACTS, CHROMIUM

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="headless Chromium not installed: apt-get install -y chromium"),
]

WAIT = 4 * SCREEN_SECONDS + 60  # two alternations and a slow sync on a busy machine


class DevTools:
    """The DevTools protocol over Chromium's pipe: JSON messages separated by NUL bytes."""

    def __init__(self, profile: str, width: int = 1920, height: int = 1080):
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()

        def wire() -> None:  # in the child: fd 3 is what it reads, fd 4 what it writes
            high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (to_chrome_r, from_chrome_w)]  # never clobbered
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)

        self.proc = subprocess.Popen(
            [CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--remote-debugging-pipe", "--hide-scrollbars",
             f"--window-size={width},{height}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=wire, close_fds=False)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buffer = b""
        self._id = 0
        self.session: str | None = None

    def _message(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._from_chrome], [], [], max(0.0, left))
            if not ready:
                raise TimeoutError("Chromium did not answer")
            chunk = os.read(self._from_chrome, 1 << 16)
            if not chunk:
                raise EOFError("Chromium closed its pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method: str, params: dict | None = None, *, session: bool = True) -> dict:
        self._id += 1
        msg: dict = {"id": self._id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self._to_chrome, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + 60
        while True:
            reply = self._message(deadline)
            if reply.get("id") == self._id:
                assert "error" not in reply, reply
                return reply.get("result", {})

    def open(self, url: str) -> None:
        target = self.call("Target.createTarget", {"url": url}, session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]

    def evaluate(self, expression: str):
        return self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})["result"].get("value")

    def screenshot(self, path: Path) -> None:
        data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        path.write_bytes(base64.b64decode(data))

    def close(self) -> None:
        try:
            self.call("Browser.close", session=False)
        except (OSError, EOFError, TimeoutError):
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        os.close(self._to_chrome)
        os.close(self._from_chrome)


SHOWN = """JSON.stringify({
  page: location.pathname.split("/").pop(), ready: document.readyState,
  counted: ([...document.querySelectorAll(".screen-meta")].map(e => e.textContent).find(t => /засчитано|counted/.test(t)) || ""),
  names: Array.prototype.map.call(document.querySelectorAll(".screen-standings tbody .name"), function (e) { return e.textContent; }),
  totals: Array.prototype.map.call(document.querySelectorAll(".screen-standings tbody .key"), function (e) { return e.textContent; }),
  tables: Array.prototype.map.call(document.querySelectorAll(".screen-table"), function (t) {
    return Array.prototype.map.call(t.querySelectorAll(".name"), function (e) { return e.textContent; }); })
})"""


def _shown(browser: DevTools) -> dict:
    try:
        value = browser.evaluate(SHOWN)
    except AssertionError:  # the page was navigating away: ask again
        return {}
    return json.loads(value) if value else {}


def _until(browser: DevTools, want, what: str) -> dict:
    deadline = time.monotonic() + WAIT
    seen: dict = {}
    while time.monotonic() < deadline:
        seen = _shown(browser)
        if seen.get("ready") == "complete" and want(seen):
            return seen
        time.sleep(0.5)
    raise AssertionError(f"the screen never showed {what}; last seen: {seen}")


def _expected(book: Path) -> tuple[list[str], list[str], int]:
    results = compute(ExcelBackend(book).read()).results
    top = results.overall[:SCREEN_ROWS]
    from sheets_sync.render.json_out import points

    places = results.preset.points_places()  # the screen shows the preset's one number of decimals
    return [st.stats.player for st in top], [points(st.stats.total, places) for st in top], len(results.counted)


@pytest.fixture
def mid_tournament(example) -> tuple[Path, ExcelDesk, dict[str, str]]:
    """The example before round 7: the winners of round 7 and of every later game not typed yet."""
    desk = ExcelDesk(example)
    later = [t for t in desk.tabs() if re.match(r"^(Тур 7 |ПФ |Финал )", t)]
    winners = {}
    for tab in later:
        _, _, header = _table(desk.grid(tab))
        cell = a1(*header["winner"])
        winners[tab] = (cell, desk.grid(tab)[header["winner"][0]][header["winner"][1]])
    desk.type({(tab, cell): None for tab, (cell, _) in winners.items()})
    return example, desk, winners


def test_the_screen_follows_a_judges_edit(mid_tournament, tmp_path):
    book, desk, winners = mid_tournament
    ARTIFACTS.mkdir(exist_ok=True)
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    watch = subprocess.Popen([sys.executable, "-m", "sheets_sync.cli", "watch", str(book), "--serve", "0",
                              "--interval", "1", "--out", str(tmp_path / "out"), "--language", "ru"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    profile = tempfile.mkdtemp(prefix="chromium-screen-")
    browser = None
    try:
        line = watch.stdout.readline()
        m = re.search(r"(http://127\.0\.0\.1:\d+/)screen\.html", line)
        assert m, line
        url = m.group(1) + "screen.html"
        deadline = time.monotonic() + WAIT
        while True:  # the first sync writes the site
            try:
                with urlopen(url, timeout=5) as resp:
                    if resp.status == 200:
                        break
            except URLError:
                pass
            assert time.monotonic() < deadline and watch.poll() is None, "the watch never served screen.html"
            time.sleep(0.5)

        names, totals, counted = _expected(book)
        browser = DevTools(profile)
        browser.open(url)
        before = _until(browser, lambda s: s["page"] == "screen.html" and s["names"], "the standings")
        assert (before["names"], before["totals"]) == (names, totals)
        assert re.search(rf": {counted} из \d+$", before["counted"]), before["counted"]
        browser.screenshot(ARTIFACTS / "screen-standings.png")

        # left alone, the page turns to the next round's seating: round 7, as the seating tab has it
        round7 = ExcelBackend(book).read()
        seating = compute(round7).results.tournament.seating
        want_tables = [[p or "—" for p in e.players]
                       for e in sorted((e for e in seating if (e.stage, e.round) == ("qualifying", 7)), key=lambda e: e.table)]
        shown = _until(browser, lambda s: s["page"] == "screen-2.html" and s["tables"], "the seating")
        assert shown["tables"] == want_tables
        browser.screenshot(ARTIFACTS / "screen-seating.png")

        # a judge types the winner of round 7, table 1
        cell, winner = winners["Тур 7 Стол 1"]
        desk.type({("Тур 7 Стол 1", cell): str(winner)})
        names2, totals2, counted2 = _expected(book)
        assert counted2 == counted + 1
        after = _until(browser, lambda s: s["page"] == "screen.html" and bool(re.search(rf": {counted2} из \d+$", s["counted"])),
                       "the standings after the edit")
        assert (after["names"], after["totals"]) == (names2, totals2)
        assert (after["names"], after["totals"]) != (before["names"], before["totals"]) or counted2 != counted
        browser.screenshot(ARTIFACTS / "screen-after-edit.png")
    finally:
        if browser is not None:
            browser.close()
        watch.terminate()
        try:
            watch.wait(timeout=20)
        except subprocess.TimeoutExpired:
            watch.kill()
        shutil.rmtree(profile, ignore_errors=True)
