"""The race chart in headless Chromium: a screenshot for people, and one A4 page when printed."""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

import pytest

from sheets_sync.render.site import write_site
from tests.test_browser import ARTIFACTS, CHROMIUM, _harness, _run, measured
from tests.test_site import example_outcome

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="headless Chromium not installed: apt-get install -y chromium"),
]


@pytest.fixture(scope="module")
def site() -> Path:
    root = Path(tempfile.mkdtemp(prefix="race-browser-"))
    o = example_outcome()
    write_site(o.results, o.problems, root, language=o.language)
    css = (root / "style.css").read_text(encoding="utf-8")
    (root / "style-print.css").write_text(css.replace("@media print", "@media all"), encoding="utf-8")
    ARTIFACTS.mkdir(exist_ok=True)
    yield root
    shutil.rmtree(root, ignore_errors=True)


def test_race_chart_screenshot_and_one_a4_page(site):
    shot = ARTIFACTS / "race-chart.png"
    a4 = ARTIFACTS / "race-chart-a4.png"
    pdf = ARTIFACTS / "race-chart.pdf"
    for f in (shot, a4, pdf):
        f.unlink(missing_ok=True)
    _run(["--screenshot=" + str(shot), "--window-size=1000,1150", (site / "race.html").as_uri()])
    _run(["--screenshot=" + str(a4), "--window-size=794,1123", _harness(site, "race.html", "print").as_uri()])
    _run(["--no-pdf-header-footer", "--print-to-pdf=" + str(pdf), (site / "race.html").as_uri()])
    for f in (shot, a4, pdf):
        assert f.exists() and f.stat().st_size > 1000, f
    data = pdf.read_bytes()
    assert len(re.findall(rb"/Type\s*/Page[^s]", data)) == 1, "the chart prints on one page"
    assert re.search(rb"/MediaBox ?\[0 0 59[45]\.?\d* 84[12]", data), "A4 paper"


# -- issue 34 §10: the chart on a phone (390 px): type ≥ 11 px, tied names never on each other ------------
MEASURE = """<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">
%s
<pre id="measure"></pre>
<script>
window.addEventListener("load", function () {
  var out = Array.prototype.map.call(document.querySelectorAll("iframe"), function (f) {
    var d = f.contentDocument, w = f.contentWindow;
    var shown = Array.prototype.filter.call(d.querySelectorAll("svg.race-chart"), function (s) {
      return w.getComputedStyle(s).display !== "none";
    });
    var charts = shown.map(function (s) {
      var scale = s.getBoundingClientRect().width / s.viewBox.baseVal.width;
      var texts = Array.prototype.map.call(s.querySelectorAll("text"), function (t) {
        var r = t.getBoundingClientRect();
        return {name: t.classList.contains("race-name"), text: t.textContent, px: parseFloat(w.getComputedStyle(t).fontSize) * scale,
                left: r.left, right: r.right, top: r.top, bottom: r.bottom};
      });
      return {cls: s.getAttribute("class"), width: s.getBoundingClientRect().width, texts: texts};
    });
    return {page: f.dataset.page, width: f.dataset.width, inner: w.innerWidth, scroll: d.documentElement.scrollWidth,
            charts: charts};
  });
  document.getElementById("measure").textContent = JSON.stringify(out);
});
</script></body></html>"""


def _round_one_site(root: Path) -> Path:
    """Round 1 typed into a real .xlsx, two tables with the same game: every player tied with another."""
    from sheets_sync.backends.excel import ExcelBackend
    from sheets_sync.loop.outcome import compute, read_workbook
    from tests.judge import table_tournament, write_xlsx

    book = write_xlsx(root / "cup.xlsx", table_tournament(2))
    o = compute(read_workbook(ExcelBackend(book)), base_dir=root)
    write_site(o.results, o.problems, root / "site", language=o.language)
    return root / "site"


def _measure(pages: dict[str, Path], widths: tuple[int, ...]) -> list[dict]:

    frames = "".join(f'<iframe src="{page.as_uri()}" data-page="{key}" data-width="{w}" '
                     f'style="width:{w}px;height:900px;border:0;display:block"></iframe>'
                     for key, page in pages.items() for w in widths)
    with tempfile.TemporaryDirectory(prefix="race-measure-") as folder:
        harness = Path(folder) / "harness.html"
        harness.write_text(MEASURE % frames, encoding="utf-8")
        return measured(harness, window="1400,900")


def _overlaps(texts: list[dict]) -> list[tuple[str, str]]:
    names = [t for t in texts if t["name"]]
    return [(a["text"], b["text"]) for i, a in enumerate(names) for b in names[i + 1:]
            if a["left"] < b["right"] - .5 and b["left"] < a["right"] - .5 and a["top"] < b["bottom"] - .5
            and b["top"] < a["bottom"] - .5]


def test_race_chart_on_a_phone_has_readable_type_and_no_name_on_another(site, tmp_path):
    ties = _round_one_site(tmp_path)
    results = _measure({"example": site / "race.html", "ties": ties / "race.html"}, (390, 1000))
    assert len(results) == 4
    for r in results:
        assert r["scroll"] <= r["inner"], f"{r['page']} at {r['width']} px scrolls sideways"
        assert len(r["charts"]) == 1, f"one drawing of the chart is shown at {r['width']} px: {r['charts']}"
        chart = r["charts"][0]
        names = [t for t in chart["texts"] if t["name"] or " " in t["text"]]  # the names at the lines' ends
        assert len(names) == 20
        for t in names:
            t["name"] = True
        assert _overlaps(chart["texts"]) == [], f"{r['page']} at {r['width']} px"
        if r["width"] == "390":
            small = [(t["text"], round(t["px"], 1)) for t in chart["texts"] if t["px"] < 11]
            assert small == [], f"{r['page']}: type below 11 px on a phone"
            assert all(t["right"] <= r["inner"] for t in chart["texts"]), "a name runs off the screen"
        assert ("race-narrow" in chart["cls"]) == (r["width"] == "390")
    shot = ARTIFACTS / "phone-390-race.png"
    ties_shot = ARTIFACTS / "phone-390-race-ties.png"
    for f, page in ((shot, site / "race.html"), (ties_shot, ties / "race.html")):
        f.unlink(missing_ok=True)
        _run(["--screenshot=" + str(f), "--window-size=390,844", page.as_uri()])
        assert f.exists() and f.stat().st_size > 1000, f
