"""Where do I sit (issue 14 §2), through the real CLI on the example in the middle of qualifying.

The site's seating page (the current round first) and each player's upcoming games are checked
against the Seating tab as the organizer sees it; `print-seating` writes one A4 page with every
table and a poster per table (PDF pages counted with pdfinfo, first pages kept as PNGs in
tests/artifacts/); `export vk --seating N` writes the round as text (golden) and a picture.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from html import unescape
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from scoring.collation import name_key
from sheets_sync.cli import main
from sheets_sync.clock import ENV
from sheets_sync.render.protocols import find_chromium
from sheets_sync.render.site import player_file
from tests.test_progress import NOW, workbook_in
from tests.test_site import check_golden

pytestmark = pytest.mark.slow  # syncs the example through the CLI several times (about 20 s)

ARTIFACTS = Path(__file__).parent / "artifacts"


def seating_tab(wb: Path) -> dict[tuple[str, int, int], list[str]]:
    """(stage name, round, table) -> the ten nicknames, read from the Seating tab."""
    ws = openpyxl.load_workbook(wb)["Рассадка"]
    out = {}
    for row in ws.iter_rows(min_row=2, values_only=True):
        if row[0]:
            out[(row[0], int(row[1]), int(row[2]))] = [str(v or "") for v in row[3:13]]
    return out


@pytest.fixture(scope="module")
def mid(tmp_path_factory) -> Path:
    """The example after round 3 (and one game of round 4) of 7: a workbook and its site."""
    folder = tmp_path_factory.mktemp("mid")
    wb = workbook_in("mid-qualifying", folder)
    result = CliRunner().invoke(main, ["export", "site", str(wb), "--out", str(folder / "site")], env={ENV: NOW})
    assert result.exit_code == 0, result.output
    return wb


def _text(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", " ", html))


def test_seating_page_shows_the_current_round_first(mid):
    html = (mid.parent / "site" / "seating.html").read_text(encoding="utf-8")
    sections = re.findall(r'<section class="block seating-round" id="([^"]+)">\s*<h2>(.*?)</h2>', html)
    assert [h for _, h in sections][0].startswith("Отбор, тур 4") and "текущий" in sections[0][1]
    # the rounds still to play in order, then the played ones, latest first
    assert [a for a, _ in sections] == [f"qualifying-{r}" for r in (4, 5, 6, 7, 3, 2, 1)]
    seating = seating_tab(mid)
    for anchor, _ in sections:
        rnd = int(anchor.rsplit("-", 1)[1])
        part = html.split(f'id="{anchor}"')[1].split("</section>")[0]
        rows = re.findall(r"<tr><th scope=\"row\" class=\"num\">(\d+)</th>(.*?)</tr>", part)
        assert len(rows) == 4
        for table, cells in rows:
            assert _text(cells).split() == seating[("Отбор", rnd, int(table))]


def test_player_page_lists_the_upcoming_games(mid):
    seating = seating_tab(mid)
    for nickname in ("Вольт", "Йети", "Лиса"):
        html = (mid.parent / "site" / player_file(nickname)).read_text(encoding="utf-8")
        upcoming = html.split("Предстоящие игры")[1].split("</section>")[0]
        rows = [_text(r).split() for r in re.findall(r"<tr><td>(.*?)</tr>", upcoming)]
        expected = [["Отбор,", "тур", str(rnd), str(table), str(seats.index(nickname) + 1), "ещё", "не", "сыграна"]
                    for (stage, rnd, table), seats in sorted(seating.items())
                    if nickname in seats and (rnd, table) not in {(r, t) for r in (1, 2, 3) for t in (1, 2, 3, 4)} | {(4, 1)}]
        assert rows == expected, nickname
        played = html.split('class="player-games"')[1].split("</table>")[0]
        assert played.count("<tr>") - 1 == sum(1 for (s, r, t), seats in seating.items()
                                               if nickname in seats and (r <= 3 or (r, t) == (4, 1)))


def test_print_seating_html(mid, tmp_path):
    result = CliRunner().invoke(main, ["print-seating", str(mid), "--round", "5", "--out", str(tmp_path), "--no-pdf"])
    assert result.exit_code == 0, result.output
    html = (tmp_path / "seating-qualifying-5.html").read_text(encoding="utf-8")
    seating = seating_tab(mid)
    assert html.count('<section class="sheet') == 1 + 4  # the overview and a poster per table
    posters = html.split('<section class="sheet poster">')[1:]
    for table, poster in enumerate(posters, start=1):
        names = re.findall(r'<td class="name"[^>]*>(.*?)</td>', poster)
        assert [unescape(n) for n in names] == seating[("Отбор", 5, table)]


def test_print_seating_without_seating_is_a_plain_error(mid, tmp_path):
    result = CliRunner().invoke(main, ["print-seating", str(mid), "--round", "9", "--out", str(tmp_path), "--no-pdf"])
    assert result.exit_code == 2
    assert "9" in result.output and "Traceback" not in result.output


@pytest.mark.browser
@pytest.mark.skipif(find_chromium() is None or shutil.which("pdfinfo") is None, reason="needs Chromium and pdfinfo")
def test_print_seating_pdf_pages(mid, tmp_path):
    result = CliRunner().invoke(main, ["print-seating", str(mid), "--round", "4", "--stage", "Отбор", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "seating-qualifying-4.pdf"
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert re.search(r"^Pages:\s+5$", info, re.M), info  # one page with all four tables, four posters
    assert "(A4)" in info
    ARTIFACTS.mkdir(exist_ok=True)
    for page, name in ((1, "print-seating-round"), (2, "print-seating-poster")):
        subprocess.run(["pdftoppm", "-r", "60", "-png", "-singlefile", "-f", str(page), "-l", str(page), str(pdf),
                        str(ARTIFACTS / name)], check=True)
        assert (ARTIFACTS / f"{name}.png").stat().st_size > 1000


def test_vk_seating_post(mid, tmp_path):
    result = CliRunner().invoke(main, ["export", "vk", str(mid), "--seating", "4", "--stage", "Отбор", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "vk-seating-qualifying-4.txt").read_text(encoding="utf-8")
    check_golden("vk-seating.ru.txt", text)
    seating = seating_tab(mid)
    for table in range(1, 5):
        block = text.split(f"Стол {table}:\n")[1].split("\n\n")[0].splitlines()
        assert [line.split(". ", 1)[1] for line in block] == seating[("Отбор", 4, table)]
    png = (tmp_path / "vk-seating-qualifying-4.png").read_bytes()
    assert png.startswith(b"\x89PNG")
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "vk-seating.png").write_bytes(png)
    again = tmp_path / "again"
    CliRunner().invoke(main, ["export", "vk", str(mid), "--seating", "4", "--stage", "Отбор", "--out", str(again)])
    assert (again / "vk-seating-qualifying-4.png").read_bytes() == png  # deterministic


# -- issue 34 §10: «where do I sit» on a phone (390 px), in Chromium ---------------------------------------
ON_SCREEN = """<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">
<iframe src="%s" style="width:390px;height:844px;border:0;display:block"></iframe>
<pre id="measure"></pre>
<script>
window.addEventListener("load", function () {
  var f = document.querySelector("iframe"), d = f.contentDocument, w = f.contentWindow;
  // a box is seen when it is laid out and lies inside the screen's width and every box that clips it
  function seen(el) {
    var r = el.getBoundingClientRect();
    if (!el.getClientRects().length || r.width === 0 || r.left < -0.5 || r.right > w.innerWidth + 0.5) return false;
    for (var a = el.parentElement; a && a !== d.body; a = a.parentElement) {
      var s = w.getComputedStyle(a), b = a.getBoundingClientRect();
      if (s.display === "none" || s.visibility === "hidden") return false;
      if (s.overflowX !== "visible" && (r.left < b.left - 0.5 || r.right > b.right + 0.5)) return false;
    }
    return true;
  }
  var section = d.querySelector("section.seating-round");
  var shown = {};
  Array.prototype.forEach.call(section.querySelectorAll("a, td, li span"), function (el) {
    var name = el.textContent.trim();
    if (name && seen(el)) shown[name] = true;
  });
  var lookup = Array.prototype.filter.call(section.querySelectorAll(".seat-list li"), seen).map(function (li) {
    return li.textContent.replace(/\\s+/g, " ").trim();
  });
  document.getElementById("measure").textContent = JSON.stringify({
    inner: w.innerWidth, scroll: d.documentElement.scrollWidth, shown: Object.keys(shown), lookup: lookup});
});
</script></body></html>"""


@pytest.mark.browser
@pytest.mark.skipif(find_chromium() is None, reason="needs Chromium")
def test_where_do_i_sit_on_a_phone(mid, tmp_path):
    """At 390 px every player of the current round sees his name on the screen without scrolling
    sideways (the tables as cards, seat under seat), and the list by name says his table and seat."""
    from tests.test_browser import _run, measured

    page = mid.parent / "site" / "seating.html"
    harness = tmp_path / "harness.html"
    harness.write_text(ON_SCREEN % page.as_uri(), encoding="utf-8")
    m = measured(harness, window="600,900")
    assert m["scroll"] <= m["inner"] == 390, "the seating page scrolls sideways on a phone"
    seating = {k: v for k, v in seating_tab(mid).items() if k[:2] == ("Отбор", 4)}  # the current round
    players = {name for seats in seating.values() for name in seats if name}
    assert len(players) == 40
    assert sorted(players - set(m["shown"])) == [], "players of the current round not on the screen"
    expected = sorted(((name, t, seats.index(name) + 1) for (_, _, t), seats in seating.items() for name in seats if name),
                      key=lambda x: name_key(x[0]))
    assert m["lookup"] == [f"{name} — стол {t}, место {s}" for name, t, s in expected]
    shot = ARTIFACTS / "phone-390-seating.png"
    shot.unlink(missing_ok=True)
    _run(["--screenshot=" + str(shot), "--window-size=390,844", page.as_uri()])
    assert shot.exists() and shot.stat().st_size > 1000
    # and further down: the current round's tables as cards
    long_shot = ARTIFACTS / "phone-390-seating-cards.png"
    long_shot.unlink(missing_ok=True)
    _run(["--screenshot=" + str(long_shot), "--window-size=390,2400", page.as_uri()])
    assert long_shot.exists()
