"""Pages that read well on paper, on a phone and on a desktop (issue 14 §6), measured in Chromium.

The tournament is the example with long nicknames («Цезарь Великолепный», «Константинопольский» …)
in every tab.  Every page is loaded in an iframe of a harness page at 390 px (phone), 1440 px
(desktop) and the A4 printable width with the print rules applied on screen (733 px, see
tests/test_browser.py); one inline script, in the harness only, measures with Range client rects:

* no word split: every word (of a nickname, a header, the «why above the next» text) lies on one
  line — a Range over the word has all its boxes on one line — and no text is wider than its cell;
* phone: the place, the name and the total of the first row are inside the table's visible box and
  the screen (secondary columns scroll under them or are collapsed); the page never scrolls sideways;
* desktop: no table needs to scroll: no column is cut off; the same for the hall's screen
  (screen.html, and before round 7 with its seating), which must also fit 1920×1080 and
  1280×720 without scrolling down.

The real print goes through ``--print-to-pdf``: the long standings take more than one A4 page, every
page repeats the table's header, and each nickname's words come out whole in the PDF's text.
Pictures: tests/artifacts/layout-*.png (390 px, 1440 px) and layout-a4-*.png (PDF pages via pdftoppm).
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path

import pytest

from sheets_sync.render.screen import screen_files
from sheets_sync.render.site import game_file, player_file, stage_file, write_site
from sheets_sync.loop.sync import compute
from tests.test_browser import A4_CONTENT_PX, ARTIFACTS, CHROMIUM, _run, measured
from tests.test_site import _snapshot

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="headless Chromium not installed: apt-get install -y chromium"),
    pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils not installed"),
]

LONG = {"Цезарь": "Цезарь Великолепный", "Пума": "Константинопольский", "Рубин": "Превосходительство",
        "Эхо": "Достопримечательность", "Жасмин": "Жасмин-Лилия Северная"}
WIDTHS = {"phone": 390, "desktop": 1440, "print": A4_CONTENT_PX}


@lru_cache(maxsize=1)
def long_outcome():
    snap = _snapshot()
    tabs = {title: tuple(tuple(LONG.get(v, v) if isinstance(v, str) else v for v in row) for row in grid)
            for title, grid in snap.tabs.items()}
    return compute(dataclasses.replace(snap, tabs=tabs))


MEASURE = """<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
%s
<pre id="measure"></pre>
<script>
function words(d, cell, bad) {
  var walk = d.createTreeWalker(cell, NodeFilter.SHOW_TEXT), node;
  while ((node = walk.nextNode())) {
    var re = /[^\\s\\-\\u2010\\u2013\\u2014,.;:()]+/g, m;  // a line may break at a hyphen or a dash, not inside a word
    while ((m = re.exec(node.data))) {
      var r = d.createRange(); r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
      var lines = {};
      Array.prototype.forEach.call(r.getClientRects(), function (q) { if (q.width > 0) lines[Math.round(q.top)] = 1; });
      if (Object.keys(lines).length > 1) bad.push(m[0]);
    }
  }
}
function inside(el, box, width) {
  if (!el) return true;
  var r = el.getBoundingClientRect();
  return r.width > 0 && r.left >= box.left - 1 && r.right <= box.left + box.width + 1 && r.right <= width + 1;
}
window.addEventListener("load", function () {
  var out = Array.prototype.map.call(document.querySelectorAll("iframe"), function (f) {
    var d = f.contentDocument, w = f.contentWindow, split = [];
    var spill = [];
    d.querySelectorAll("th, td, .screen-table .name, .summary dd").forEach(function (c) {
      words(d, c, split);
      if (c.offsetWidth && c.scrollWidth > c.clientWidth + 1) spill.push(c.textContent.trim().slice(0, 40));
    });
    var tables = Array.prototype.map.call(d.querySelectorAll("table"), function (t) {
      var box = t.parentElement, br = box.getBoundingClientRect();
      var visible = {left: br.left + box.clientLeft, width: box.clientWidth};
      var row = t.tBodies.length ? t.tBodies[0].rows[0] : null, key = {};
      if (row) {
        var place = /standings|stage/.test(t.className) ? row.cells[0] : null;
        key = {place: inside(place, visible, w.innerWidth), name: inside(row.querySelector(".name"), visible, w.innerWidth),
               total: inside(row.querySelector(".key"), visible, w.innerWidth)};
      }
      return {cls: t.className, scroll: t.scrollWidth, box: box.clientWidth, key: key};
    });
    var page = {left: 0, width: w.innerWidth};
    var heads = [d.querySelector("h1")].concat(Array.prototype.slice.call(d.querySelectorAll(".summary dd"), 0, 2));
    return {page: f.dataset.page, mode: f.dataset.mode, inner: w.innerWidth, scroll: d.documentElement.scrollWidth,
            innerHeight: w.innerHeight, scrollHeight: d.documentElement.scrollHeight,
            split: split, spill: spill, tables: tables, heads: heads.map(function (e) { return inside(e, page, w.innerWidth); })};
  });
  document.getElementById("measure").textContent = JSON.stringify(out);
});
</script></body></html>"""


@pytest.fixture(scope="module")
def site() -> Path:
    root = Path(tempfile.mkdtemp(prefix="site-layout-"))
    o = long_outcome()
    write_site(o.results, o.problems, root, language=o.language)
    css = (root / "style.css").read_text(encoding="utf-8")
    css = re.sub(r"@media \(max-width: 700px\)", "@media not all", css).replace("@media print", "@media all")
    (root / "style-print.css").write_text(css, encoding="utf-8")
    # the hall's screen before round 7 (a seating to show), beside the finished tournament's
    before = dataclasses.replace(o.results, counted=tuple(p for p in o.results.counted
                                                          if p.stage == "qualifying" and p.round < 7))
    for name, text in screen_files(before, language=o.language).items():
        (root / name.replace("screen", "screen-mid")).write_text(text, encoding="utf-8")
    ARTIFACTS.mkdir(exist_ok=True)
    yield root
    shutil.rmtree(root, ignore_errors=True)


def _game_with_long_names() -> str:
    o = long_outcome()
    p = next(p for p in o.results.counted if {"Константинопольский", "Цезарь Великолепный"} & {s.player for s in p.seats})
    return game_file(*p.key)


SCREENS = {"tv": (1920, 1080), "projector": (1280, 720)}  # the hall's screen is for big displays only
SCREEN_PAGES = ["screen.html", "screen-mid.html", "screen-mid-2.html"]


def pages() -> list[str]:
    return ["index.html", stage_file("qualifying"), stage_file("semifinal"), stage_file("final"), "statistics.html",
            "players.html", "games.html", player_file("Цезарь Великолепный"), player_file("Константинопольский"),
            _game_with_long_names()]


def _copy(site: Path, rel: str, mode: str) -> str:
    page = site / rel
    text = page.read_text(encoding="utf-8")
    if mode == "print":
        text = text.replace("style.css", "style-print.css")
    out = page.with_name(page.stem + f".__{mode}.html")
    out.write_text(text, encoding="utf-8")
    return out.relative_to(site).as_posix()


def test_no_word_split_key_columns_in_sight_no_column_cut_off(site):
    frames = [f'<iframe src="{_copy(site, rel, mode)}" data-page="{rel}" data-mode="{mode}" '
              f'style="width:{width}px;height:800px;border:0;display:block"></iframe>'
              for rel in pages() for mode, width in WIDTHS.items()]
    frames += [f'<iframe src="{rel}" data-page="{rel}" data-mode="{mode}" '
               f'style="width:{width}px;height:{height}px;border:0;display:block"></iframe>'
               for rel in SCREEN_PAGES for mode, (width, height) in SCREENS.items()]
    harness = site / "__layout.html"
    harness.write_text(MEASURE % "\n".join(frames), encoding="utf-8")
    results = measured(harness, window="1500,900", timeout=120)
    assert len(results) == len(pages()) * len(WIDTHS) + len(SCREEN_PAGES) * len(SCREENS)
    failures = []
    for r in results:
        where = f"{r['page']} ({r['mode']} {r['inner']} px)"
        if r["split"]:
            failures.append(f"{where}: words broken across lines: {sorted(set(r['split']))}")
        if r["spill"]:
            failures.append(f"{where}: text wider than its cell: {sorted(set(r['spill']))}")
        if r["scroll"] > r["inner"]:
            failures.append(f"{where}: the page scrolls sideways ({r['scroll']} > {r['inner']})")
        if r["mode"] in SCREENS and r["scrollHeight"] > r["innerHeight"]:
            failures.append(f"{where}: the hall's screen scrolls down ({r['scrollHeight']} > {r['innerHeight']})")
        if r["mode"] == "phone":
            if not all(r["heads"]):
                failures.append(f"{where}: the title or the place/total of the summary is off-screen")
            for t in r["tables"]:
                if t["key"] and not all(t["key"].values()):
                    failures.append(f"{where}: table {t['cls']}: out of sight {t['key']}")
        else:  # desktop, A4 and the hall's screen: nothing to scroll, every column whole
            for t in r["tables"]:
                if t["scroll"] > t["box"] + 1:
                    failures.append(f"{where}: table {t['cls']} cut off ({t['scroll']} > {t['box']})")
    assert not failures, "\n".join(failures)
    # the long nicknames were on the pages measured (the test measured what it claims to)
    assert any("Константинопольский" in (site / p).read_text(encoding="utf-8") for p in pages())
    assert "Константинопольский" in (site / "screen-mid-2.html").read_text(encoding="utf-8")


def _pdf_pages_text(pdf: Path) -> list[str]:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    count = int(re.search(r"Pages:\s+(\d+)", info).group(1))
    return [subprocess.run(["pdftotext", "-f", str(i), "-l", str(i), "-layout", str(pdf), "-"],
                           capture_output=True, text=True, check=True).stdout for i in range(1, count + 1)]


def test_a4_print_repeats_headers_and_keeps_nicknames_whole(site):
    jobs = {}
    for rel, name in (("index.html", "standings"), (stage_file("qualifying"), "qualifying")):
        pdf = ARTIFACTS / f"layout-a4-{name}.pdf"
        pdf.unlink(missing_ok=True)
        jobs[name] = pdf
        jobs[name + ":args"] = ["--no-pdf-header-footer", "--print-to-pdf=" + str(pdf), (site / rel).as_uri()]
    shots = [("layout-phone-stage.png", 390, 844, stage_file("qualifying")),
             ("layout-phone-game.png", 390, 844, _game_with_long_names()),
             ("layout-phone-player.png", 390, 844, player_file("Цезарь Великолепный")),
             ("layout-desktop-index.png", 1440, 900, "index.html"),
             ("layout-desktop-stage.png", 1440, 900, stage_file("qualifying"))]
    commands = [jobs[k] for k in jobs if k.endswith(":args")]
    for out, w, h, rel in shots:
        (ARTIFACTS / out).unlink(missing_ok=True)
        commands.append(["--screenshot=" + str(ARTIFACTS / out), f"--window-size={w},{h}", (site / rel).as_uri()])
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(lambda args: _run(args, timeout=120), commands))
    for out, *_ in shots:
        assert (ARTIFACTS / out).stat().st_size > 1000, out
    header = "Игрок"
    for name in ("standings", "qualifying"):
        texts = _pdf_pages_text(jobs[name])
        if name == "standings":  # 40 rows and every column: the header must repeat on the next page
            assert len(texts) >= 2, "the standings of 40 players should need more than one A4 page"
        for i, text in enumerate(texts, 1):
            assert header in text, f"{name}: page {i} of the PDF has no table header"
        whole = "\n".join(texts)
        for nick in LONG.values():
            for word in re.findall(r"[^\s\-]+", nick):
                assert word in whole, f"{name}: «{word}» of «{nick}» is broken in the printed PDF"
        for page in range(1, min(len(texts), 2) + 1):
            target = ARTIFACTS / f"layout-a4-{name}-p{page}"
            subprocess.run(["pdftoppm", "-f", str(page), "-l", str(page), "-r", "70", "-png", "-singlefile",
                            str(jobs[name]), str(target)], check=True, capture_output=True)
            assert target.with_suffix(".png").stat().st_size > 1000


# -- issue 34 §11: on a laptop the standings are part of the page (one scrollbar), on a phone as before -----
SCROLLERS = """<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
%s
<pre id="measure"></pre>
<script>
window.addEventListener("load", function () {
  var out = Array.prototype.map.call(document.querySelectorAll("iframe"), function (f) {
    var d = f.contentDocument, w = f.contentWindow;
    var boxes = Array.prototype.map.call(d.querySelectorAll(".table-box"), function (b) {
      var s = w.getComputedStyle(b), head = b.querySelector("thead th"), name = b.querySelector("tbody .name");
      var before = b.scrollTop;
      b.scrollTop = 50;  // a box that scrolls down by itself: a second scrollbar beside the page's
      var down = b.scrollTop > before;
      b.scrollTop = before;
      return {down: down, sideways: s.overflowX !== "visible" && b.scrollWidth > b.clientWidth + 1,
              wider: b.firstElementChild.scrollWidth > w.innerWidth, overflow: s.overflowX + " " + s.overflowY,
              tall: b.scrollHeight > w.innerHeight, name: name ? w.getComputedStyle(name).position : ""};
    });
    return {page: f.dataset.page, width: +f.dataset.width, inner: w.innerWidth, scroll: d.documentElement.scrollWidth,
            boxes: boxes};
  });
  document.getElementById("measure").textContent = JSON.stringify(out);
});
</script></body></html>"""


def test_a_laptop_has_one_scrollbar_and_a_phone_keeps_its_sticky_columns(site):
    widths = {"laptop": (1280, 800), "phone": (390, 844)}
    frames = [f'<iframe src="{rel}" data-page="{rel}" data-width="{w}" style="width:{w}px;height:{h}px;border:0;display:block">'
              f'</iframe>' for rel in pages() for w, h in widths.values()]
    harness = site / "__scrollers.html"
    harness.write_text(SCROLLERS % "\n".join(frames), encoding="utf-8")
    results = measured(harness, window="1400,900", timeout=120)
    assert len(results) == len(pages()) * len(widths)
    failures = []
    for r in results:
        where = f"{r['page']} ({r['inner']} px)"
        if r["scroll"] > r["inner"]:
            failures.append(f"{where}: the page scrolls sideways")
        if r["width"] == 1280:  # no box scrolls down inside the page; sideways only a table wider than the screen
            failures += [f"{where}: a table scrolls down in a box of its own ({b['overflow']})" for b in r["boxes"] if b["down"]]
            failures += [f"{where}: a table that fits scrolls sideways" for b in r["boxes"] if b["sideways"] and not b["wider"]]
        else:  # the phone: the box scrolls sideways under the sticky place and name, never down inside
            # the page (issue 43 §8: rows 21–40 were reachable only inside an 80vh box)
            failures += [f"{where}: {b['overflow']}, name {b['name']}" for b in r["boxes"]
                         if b["overflow"] != "auto hidden" or b["name"] not in ("sticky", "") or b["down"]]
    assert not failures, "\n".join(failures)
    index = next(r for r in results if r["page"] == "index.html" and r["width"] == 1280)
    assert index["boxes"] and index["boxes"][0]["tall"], "the standings are taller than a laptop's screen"
    shot = ARTIFACTS / "laptop-1280-index.png"
    shot.unlink(missing_ok=True)
    _run(["--screenshot=" + str(shot), "--window-size=1280,800", (site / "index.html").as_uri()])
    assert shot.exists()


CARDS = """<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
<iframe src="seating.html" style="width:390px;height:844px;border:0;display:block"></iframe>
<pre id="measure"></pre>
<script>
window.addEventListener("load", function () {
  var f = document.querySelector("iframe"), d = f.contentDocument, w = f.contentWindow;
  var names = Array.prototype.map.call(d.querySelectorAll(".seating-card .seat-who"), function (el) {
    // a Range per word: its rects are the lines it lies on (a name may wrap between its words, not inside one)
    var broken = [], walk = d.createTreeWalker(el, NodeFilter.SHOW_TEXT), node;
    while ((node = walk.nextNode())) {
      var re = /\\S+/g, m;
      while ((m = re.exec(node.data))) {
        var r = d.createRange(), tops = {};
        r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
        Array.prototype.forEach.call(r.getClientRects(), function (q) { if (q.width > 0) tops[Math.round(q.top)] = 1; });
        if (Object.keys(tops).length > 1) broken.push(m[0]);
      }
    }
    return {text: el.textContent.trim(), broken: broken, right: el.getBoundingClientRect().right};
  });
  document.getElementById("measure").textContent = JSON.stringify({inner: w.innerWidth,
    scroll: d.documentElement.scrollWidth, names: names});
});
</script></body></html>"""


def test_seating_cards_keep_long_nicknames_whole_on_a_phone(site):
    """«Константинопольский», «Достопримечательность»: a card grows to the longest name (then takes the
    row to itself); no name is broken, none runs off the 390 px screen."""
    harness = site / "__cards.html"
    harness.write_text(CARDS, encoding="utf-8")
    r = measured(harness, window="600,900")
    assert r["scroll"] <= r["inner"] == 390
    assert "Достопримечательность" in {n["text"] for n in r["names"]}
    assert [n["text"] for n in r["names"] if n["broken"] or n["right"] > r["inner"] + 1] == []
