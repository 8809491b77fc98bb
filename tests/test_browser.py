"""The site in a real headless Chromium: a phone (390 px) and A4 print.

A harness copy of each page gets one inline script (only here, never in the site) that
writes layout measurements into the DOM; ``--dump-dom`` brings them back.  A4 print is
measured by a copy of the stylesheet whose print rules apply on screen, at the width of
the A4 printable area (210 mm − 2 × 8 mm margins = 733 px at 96 dpi); the real print is also
made with ``--print-to-pdf``.  Screenshots and the PDF are kept in tests/artifacts/.
Needs Debian's ``chromium`` (apt-get install -y chromium fonts-dejavu-core).
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from sheets_sync.render.protocols import CHROMIUM_FLAGS
from sheets_sync.render.site import game_file, player_file, write_site
from tests.test_site import XSS, hostile_outcome

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).parent / "artifacts"
A4_CONTENT_PX = 733

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="headless Chromium not installed: apt-get install -y chromium"),
]

GUARD = "<script>window.alert = function () { window.__alerted = true; };</script>"
HARNESS = """<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
%s
<pre id="measure"></pre>
<script>
window.addEventListener("load", function () {
  var out = Array.prototype.map.call(document.querySelectorAll("iframe"), function (f) {
    var d = f.contentDocument, w = f.contentWindow;
    var tables = Array.prototype.map.call(d.querySelectorAll("table"), function (t) {
      var box = t.parentElement, r = t.getBoundingClientRect();
      return {cls: t.className, scroll: t.scrollWidth, right: Math.ceil(r.right), box: box.clientWidth,
              boxScroll: box.scrollWidth};
    });
    return {page: f.dataset.page, mode: f.dataset.mode, inner: w.innerWidth, scroll: d.documentElement.scrollWidth,
            scripts: d.querySelectorAll("script").length, alerted: !!w.__alerted, tables: tables};
  });
  document.getElementById("measure").textContent = JSON.stringify(out);
});
</script></body></html>"""


def _run(args: list[str], timeout: float = 60) -> str:
    with tempfile.TemporaryDirectory(prefix="chromium-test-") as profile:
        cmd = [CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--hide-scrollbars", *args]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    return done.stdout


def measured(harness: Path, *, window: str = "1200,900", timeout: float = 60):
    """Open ``harness`` (a page whose script writes JSON into ``<pre id="measure">``) in Chromium
    and return what it wrote."""
    dom = _run(["--allow-file-access-from-files", "--dump-dom", f"--window-size={window}", harness.as_uri()],
               timeout=timeout)
    found = re.search(r'<pre id="measure">(.*?)</pre>', dom, re.S)
    assert found and found.group(1), f"the harness measured nothing: {dom[:300]}"
    return json.loads(html.unescape(found.group(1)))


def assert_pages_fit_a_phone(site: Path, pages: list[str]) -> None:
    """Each of ``pages`` (relative to ``site``) at 390 px: the page never scrolls sideways and a
    wide table scrolls inside its own box."""
    frames = [f'<iframe src="{_harness(site, rel, "phone").relative_to(site).as_posix()}" data-page="{rel}" '
              f'data-mode="phone" style="width:390px;height:700px;border:0;display:block"></iframe>' for rel in pages]
    harness = site / "__harness.html"
    harness.write_text(HARNESS % "\n".join(frames), encoding="utf-8")
    results = measured(harness)
    assert [r["page"] for r in results] == pages
    for r in results:
        assert r["scroll"] <= r["inner"], f"{r['page']}: page overflows the phone ({r['scroll']} > {r['inner']})"
        assert all(t["box"] <= r["inner"] for t in r["tables"]), r


@pytest.fixture(scope="module")
def site() -> Path:
    root = Path(tempfile.mkdtemp(prefix="site-browser-"))
    o = hostile_outcome()
    write_site(o.results, o.problems, root, language=o.language)
    css = (root / "style.css").read_text(encoding="utf-8")
    # print rules on screen (and the phone rules off) to measure the A4 layout
    css = re.sub(r"@media \(max-width: 700px\)", "@media not all", css).replace("@media print", "@media all")
    (root / "style-print.css").write_text(css, encoding="utf-8")
    ARTIFACTS.mkdir(exist_ok=True)
    yield root
    shutil.rmtree(root, ignore_errors=True)


PAGES = ["index.html", "stage-qualifying.html", "stage-semifinal.html", "stage-final.html", "statistics.html",
         "players.html", "games.html", "__player__", "__player_one_stage__", "__game__"]
ONE_STAGE_PLAYER = "Нептун"  # played the qualifying only


def _page(name: str) -> str:
    if name == "__player__":
        return player_file(XSS)
    if name == "__player_one_stage__":
        return player_file(ONE_STAGE_PLAYER)
    if name == "__game__":
        return game_file("qualifying", 1, 1)
    return name


def _harness(site: Path, rel: str, mode: str) -> Path:
    """A copy of the page beside it (same relative links) with the alert guard; print mode uses the print CSS."""
    page = site / rel
    html = page.read_text(encoding="utf-8").replace("<head>", "<head>" + GUARD, 1)
    if mode == "print":
        html = html.replace("style.css", "style-print.css")
    out = page.with_name(page.stem + f".__{mode}.html")
    out.write_text(html, encoding="utf-8")
    return out


def test_phone_and_a4_layout(site):
    frames = []
    for name in PAGES:
        rel = _page(name)
        for mode, width in (("phone", 390), ("print", A4_CONTENT_PX)):
            copy = _harness(site, rel, mode).relative_to(site).as_posix()
            frames.append(f'<iframe src="{copy}" data-page="{rel}" data-mode="{mode}" '
                          f'style="width:{width}px;height:700px;border:0;display:block"></iframe>')
    harness = site / "__harness.html"
    harness.write_text(HARNESS % "\n".join(frames), encoding="utf-8")
    results = measured(harness)
    assert len(results) == 2 * len(PAGES)
    for r in results:
        where = f"{r['page']} ({r['mode']})"
        assert r["scripts"] == 1, f"{where}: a script element came from the data"
        assert not r["alerted"], where
        assert r["scroll"] <= r["inner"], f"{where}: page overflows horizontally ({r['scroll']} > {r['inner']})"
        assert r["tables"], where
        for t in r["tables"]:
            if r["mode"] == "print":
                # on paper nothing can scroll: every table fits the A4 width
                assert t["scroll"] <= A4_CONTENT_PX and t["right"] <= r["inner"], f"{where}: table {t} wider than A4"
                assert t["boxScroll"] <= t["box"] + 1, f"{where}: table {t} overflows its page"
            else:
                # on a phone a wide table scrolls inside its own box, never the page
                assert t["box"] <= r["inner"], f"{where}: table box {t} wider than the phone"
                if r["page"] in (player_file(ONE_STAGE_PLAYER), player_file(XSS)) and t["cls"] == "player-games":
                    # the stage's name stands above its games, not in a column: the games of one stage
                    # or of three fit, and no result slides under the sticky points
                    assert t["boxScroll"] <= t["box"] + 1, f"{where}: a player's games need a scroll {t}"


def test_screenshots_and_pdf(site):
    shots = [
        ("index.html", "phone-index.png", 390, 844, "phone"),
        (player_file(XSS), "phone-player-xss.png", 390, 844, "phone"),
        ("index.html", "a4-index.png", 794, 1123, "print"),
    ]
    jobs = []
    for rel, out, w, h, mode in shots:
        page = site / rel if mode == "phone" else _harness(site, rel, "print")
        target = ARTIFACTS / out
        target.unlink(missing_ok=True)
        jobs.append((target, ["--screenshot=" + str(target), f"--window-size={w},{h}", page.as_uri()]))
    pdf = ARTIFACTS / "site-index.pdf"
    pdf.unlink(missing_ok=True)
    jobs.append((pdf, ["--no-pdf-header-footer", "--print-to-pdf=" + str(pdf), (site / "index.html").as_uri()]))
    with ThreadPoolExecutor(max_workers=3) as pool:
        list(pool.map(lambda j: _run(j[1]), jobs))
    for target, _ in jobs:
        assert target.exists() and target.stat().st_size > 1000, target
    data = pdf.read_bytes()
    pages = len(re.findall(rb"/Type\s*/Page[^s]", data))
    assert 1 <= pages <= 6, f"standings of 40 players print on a few A4 pages, got {pages}"
    assert re.search(rb"/MediaBox ?\[0 0 59[45]\.?\d* 84[12]", data), "A4 paper"
