"""What a club sees of its season, as pictures in tests/artifacts/ (look at them): the VK pictures
of the season and of the evening after the first evening and after the fifth, the season site at
390 px and 1280 px in Chromium, and the Итоги tab as LibreOffice prints it.

The five evenings are the worked season of tests/test_season.py (three evenings) and two more
evenings replaying its second evening's games a fortnight later (26.12.2026 and 09.01.2027).
"""

from __future__ import annotations

import dataclasses
import datetime
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from scoring.model import Player
from scoring.season import season
from scoring.standings import compute
from sheets_sync.render.site import write_site
from sheets_sync.render.vk_season import season_post_text, write_season_vk
from tests.helpers import ROOT, tournament
from tests.test_season import CLUB, GAMES, PRESET

ARTIFACTS = ROOT / "tests" / "artifacts"
LATER = tuple(dataclasses.replace(g, date=datetime.date.fromisoformat(day), sheet=f"Вечер {day}")
              for day in ("2026-12-26", "2027-01-09") for g in GAMES[2:4])
FIVE = (*GAMES, *LATER)


def _results(games):
    t = dataclasses.replace(tournament([Player(nickname=n) for n in CLUB], games), season=True, name="Клуб «Ночь»")
    return compute(t, PRESET, [])


@pytest.mark.parametrize(("games", "evenings", "name"), [(GAMES[:2], 1, "after-1"), (FIVE, 5, "after-5")])
def test_vk_pictures_after_the_first_and_the_fifth_evening(tmp_path, games, evenings, name):
    results = _results(games)
    assert len(season(results).evenings) == evenings
    write_season_vk(results, tmp_path, language="ru")
    for source, target in (("vk-season.png", f"vk-season-{name}.png"), ("vk-post.png", f"vk-evening-{name}.png")):
        png = (tmp_path / source).read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000
        (ARTIFACTS / target).write_bytes(png)
    text = season_post_text(results, language="ru")
    if evenings == 1:  # nobody has 4 games: the ten are placed provisionally, the post is never empty
        assert text.count("(") >= 10 and "Пока вне рейтинга" not in text
    else:
        assert "Учтены вечера 05.12.2026–09.01.2027 (5), игр 9" in text


CHROMIUM = "/usr/bin/chromium"


@pytest.mark.browser
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="headless Chromium not installed")
@pytest.mark.parametrize(("width", "page", "name"), [(390, "index.html", "season-phone-390.png"),
                                                     (1280, "index.html", "season-desktop-1280.png"),
                                                     (1280, "race.html", "season-race-1280.png")])
def test_season_site_pictures(width, page, name):
    root = Path(tempfile.mkdtemp(prefix="season-pictures-"))
    try:
        write_site(_results(FIVE), [], root, language="ru")
        target = ARTIFACTS / name
        target.unlink(missing_ok=True)
        subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--screenshot={target}", f"--window-size={width},1000", (root / page).as_uri()],
                       check=True, capture_output=True, timeout=120)
        assert target.stat().st_size > 5000
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.libreoffice
@pytest.mark.parametrize("preset, picture", [("club-season", "season-itogi-print.png"),
                                             ("club-season-rating", "season-rating-itogi-print.png")])
def test_season_itogi_as_libreoffice_prints_it(tmp_path, preset, picture):
    """Итоги of a season as LibreOffice prints the tab as the sync wrote it: the title, the header, the
    provisional players — and no letter under 8 pt (the whole table fitted to one A4 width printed at
    5.5 pt: the scheme's columns after the first that fit go on the screen only, as a tournament's)."""
    from tests.test_libreoffice import PDFTOPPM, SMALLEST_PT, SOFFICE, _letters, _png, _print_as_written, _text
    from tests.test_season_cli import EVENINGS, PLAYERS, _cli, _csv, _evening, _sync
    from tests.judge import ExcelDesk

    if SOFFICE is None or PDFTOPPM is None:
        pytest.skip("LibreOffice or poppler not installed")
    book = tmp_path / "club.xlsx"
    _cli("init", str(book), "--season", "--players", str(_csv(tmp_path / "p.csv", PLAYERS)), "--preset", preset,
         "--name", "Клуб «Ночь»")
    desk = ExcelDesk(book)
    _evening(desk, *EVENINGS[0])
    desk.type({("Игроки", "A12"): "Лев"})  # the guest of the second evening
    for day, games in EVENINGS[1:]:
        _evening(desk, day, games)
    _sync(desk, tmp_path / "out")
    pdf = _print_as_written(book, ["Итоги"], tmp_path / "pdf", tmp_path / "profile")["Итоги"]
    lines = [line.strip() for line in _text(pdf, 1).splitlines() if line.strip()]
    assert lines[0].startswith("Клуб «Ночь» — Рейтинг сезона")
    assert any(line.startswith("Место") for line in lines[1:5])
    assert any("Кира" in line for line in lines)
    if preset == "club-season-rating":  # the last evening's change signed, two places, as on the site
        assert "+1.99" in _text(pdf, 1) and "-1.50" in _text(pdf, 1)
    smallest = min(size for page in _letters(pdf) for size, *_ in page["letters"])
    assert smallest >= SMALLEST_PT, f"Итоги prints at {smallest:.1f} pt"
    _png(pdf, picture, resolution=70)

STICKY_PROBE = """<script>
window.addEventListener("load", function () {
  var box = document.querySelector("table.season").parentElement;
  box.scrollLeft = box.scrollWidth;  // the scheme's other columns scrolled all the way
  var edge = box.getBoundingClientRect();
  var row = document.querySelector("table.season tbody tr");
  var seen = Array.prototype.map.call(row.querySelectorAll(".place, .name, .key, .col-last_evening"), function (c) {
    var r = c.getBoundingClientRect();
    return {cls: c.className, left: Math.floor(r.left - edge.left), right: Math.ceil(r.right - edge.left),
            text: c.textContent.trim()};
  });
  document.body.insertAdjacentHTML("beforeend", "<pre id=probe>" + JSON.stringify(
    {scrolled: box.scrollLeft, width: box.clientWidth, cells: seen}) + "</pre>");
});
</script>"""


@pytest.mark.browser
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="headless Chromium not installed")
def test_on_a_phone_the_place_name_and_main_number_stay_in_sight(tmp_path):
    """390 px: the table is wider than the phone; scrolled to its last column, the place, the name and
    the total are still at the left of the box, side by side, in that order."""
    import json
    import re

    from tests.test_browser import _run

    write_site(_results(FIVE), [], tmp_path, language="ru")
    page = tmp_path / "probe.html"
    page.write_text((tmp_path / "index.html").read_text(encoding="utf-8").replace("</body>", STICKY_PROBE + "</body>"),
                    encoding="utf-8")
    dom = _run(["--allow-file-access-from-files", "--dump-dom", "--window-size=390,900", page.as_uri()])
    found = json.loads(re.search(r"<pre id=\"probe\">(.*?)</pre>", dom, re.S).group(1).replace("&quot;", '"'))
    assert found["scrolled"] > 100, found  # there was something to scroll
    place, name, key, last = found["cells"]
    assert (place["text"], name["text"], key["text"]) == ("1", "Анна", "9.50")
    assert 0 <= place["left"] < name["left"] < key["left"] and key["right"] <= found["width"], found
    assert last["right"] <= found["width"] + 1 and last["left"] >= key["right"] - 1, found  # scrolled into view beside


def test_vk_picture_of_an_evening_that_waits(tmp_path):
    """An evening of three games, one counted, one with an error, one without a winner: the picture's
    title is not final and its subtitle says what waits (tests/artifacts/vk-evening-waiting.png)."""
    from scoring.model import Location
    from scoring.problems import Severity, problem
    from sheets_sync.render.vk_season import evening_post_text
    from tests.test_season import EVENING_OF_THREE, NIGHT

    t = dataclasses.replace(tournament([Player(nickname=n) for n in CLUB], EVENING_OF_THREE), season=True,
                            name="Клуб «Ночь»")
    results = compute(t, PRESET, [problem("protocol.not_finished", Severity.ERROR, Location(NIGHT, "C22"))])
    (evening,) = season(results).evenings
    text = evening_post_text(results, evening, language="ru")
    assert "Вечер 26.12.2026: промежуточные итоги (игр 3, засчитано 1, ждут исправления 1, не закончены 1):" in text
    write_season_vk(results, tmp_path, language="ru")
    (ARTIFACTS / "vk-evening-waiting.png").write_bytes((tmp_path / "vk-post.png").read_bytes())


def test_before_the_first_evening_the_picture_says_so(tmp_path):
    """No counted game yet: the season picture says so under its header (not a bare empty table)."""
    from PIL import Image

    write_season_vk(_results(()), tmp_path, language="ru")
    empty = Image.open(tmp_path / "vk-season.png").convert("L")
    band = empty.crop((140, 250, 700, 310))  # the first row of the table: the words are drawn there
    assert min(band.getdata()) < 128
    (ARTIFACTS / "vk-season-before-1.png").write_bytes((tmp_path / "vk-season.png").read_bytes())
