"""The race chart in headless Chromium: a screenshot for people, and one A4 page when printed."""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

import pytest

from sheets_sync.render.site import write_site
from tests.test_browser import ARTIFACTS, CHROMIUM, _harness, _run
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
