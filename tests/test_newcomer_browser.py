"""The site as a new organizer meets it on a 390 px phone and at 1280 px (issue 43 §7, §8), in the
system's Chromium driven by Playwright: the outputs of a real sync of his own workbook.
Screenshots go to tests/artifacts/newcomer/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.render.site import game_file
from tests.newcomer_support import fresh_artifacts, newcomer_cup, newcomer_season, synced
from tests.web.browser import chromium  # noqa: F401 - a fixture
from tests.judge import ExcelDesk

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def cup(tmp_path_factory) -> Path:
    """The finished cup's site."""
    return synced(newcomer_cup(tmp_path_factory.mktemp("cup") / "cup.xlsx")) / "site"


@pytest.fixture(scope="module")
def season_site(tmp_path_factory) -> Path:
    return synced(newcomer_season(tmp_path_factory.mktemp("season"))) / "site"


def _page(chromium, width: int, url: str):  # noqa: F811 - the fixture
    context = chromium.new_context(viewport={"width": width, "height": 844}, device_scale_factor=1, locale="ru-RU")
    page = context.new_page()
    page.goto(url)
    return context, page


# the boxes that scroll inside the page: their own height shorter than their content's
INNER_SCROLLERS = """() => Array.from(document.querySelectorAll('*')).filter(e => {
  const s = getComputedStyle(e);
  return /(auto|scroll)/.test(s.overflowY) && e.scrollHeight > e.clientHeight + 1;
}).map(e => e.className + ' ' + e.scrollHeight + '>' + e.clientHeight)"""


@pytest.mark.parametrize("width", [390, 1280])
def test_the_page_scrolls_not_a_box(chromium, cup, width):  # noqa: F811
    """All 40 rows are reached by scrolling the page: no box scrolls up and down inside it."""
    context, page = _page(chromium, width, (cup / "index.html").as_uri())
    try:
        assert page.evaluate(INNER_SCROLLERS) == []
        last = page.locator("table.standings tbody tr").last
        last.scroll_into_view_if_needed()
        assert page.evaluate("() => window.scrollY") > 0  # the page itself scrolled to row 40
        assert last.is_visible()
        page.screenshot(path=str(fresh_artifacts() / f"cup-index-{width}.png"), full_page=True)
    finally:
        context.close()


# every word of every row's name column, as laid out: the line boxes of its text
WORD_LINES = """() => Array.from(document.querySelectorAll('table.season tbody .name')).map(cell => {
  const range = document.createRange(); const text = cell.textContent.trim(); const node = cell.querySelector('a') || cell;
  const t = node.firstChild; range.selectNodeContents(t);
  return {name: text, lines: new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top))).size,
          words: text.split(/\\s+/).length};
})"""


@pytest.mark.parametrize("width", [390, 1280])
def test_a_long_nickname_never_breaks_inside_a_word_in_the_season_table(chromium, season_site, width):  # noqa: F811
    context, page = _page(chromium, width, (season_site / "index.html").as_uri())
    try:
        rows = page.evaluate(WORD_LINES)
        assert any(r["name"] == "Гроссмейстер" for r in rows)
        broken = [r for r in rows if r["lines"] > r["words"]]
        assert broken == [], broken
        assert page.evaluate(INNER_SCROLLERS) == []
        page.screenshot(path=str(fresh_artifacts() / f"season-index-{width}.png"), full_page=True)
    finally:
        context.close()


def test_a_game_page_says_one_true_thing(chromium, tmp_path):  # noqa: F811
    """A game with an error (a Latin «k» for a role) and a best move that is not scored: the page says
    the game is not counted, and nothing on it says it is."""
    book = newcomer_cup(tmp_path / "cup.xlsx", rounds_played=3)
    ExcelDesk(book).type({("Тур 1 Стол 1", "C16"): "k", ("Тур 1 Стол 1", "H10"): "1 2 3"})
    site = synced(book) / "site"
    context, page = _page(chromium, 390, (site / game_file("qualifying", 1, 1)).as_uri())
    try:
        said = page.inner_text("main")
        assert "Игра не засчитана" in said
        assert not re.search(r"игра засчитана", said), said
        assert "латинская буква «k»" in said
        page.screenshot(path=str(fresh_artifacts() / "game-not-counted-390.png"), full_page=True)
    finally:
        context.close()


def test_the_finished_tournaments_index_names_its_winners(chromium, cup):  # noqa: F811
    context, page = _page(chromium, 390, (cup / "index.html").as_uri())
    try:
        winners = page.locator("section.winners")
        said = winners.inner_text()
        assert "Победители" in said
        podium = [re.sub(r"\s+", " ", li).strip() for li in winners.locator("li").all_inner_texts()]
        assert [p.split(" — ")[0] for p in podium] == ["1 Чеширский Кот", "2 Цезарь", "3 Гроссмейстер"], podium
        assert re.search(r"Победитель финала: \S", said), said
        winners.screenshot(path=str(fresh_artifacts() / "cup-winners-390.png"))
    finally:
        context.close()


def test_a_player_without_a_place_is_not_said_to_share_one(chromium, tmp_path):  # noqa: F811
    """After the first game of round 1 thirty players have no game: their row says so, and says no
    «полное равенство: место делится» of a place they do not have."""
    site = synced(newcomer_cup(tmp_path / "cup.xlsx", rounds_played=0)) / "site"
    context, page = _page(chromium, 1280, (site / "index.html").as_uri())
    try:
        rows = page.locator("table.standings tbody tr")
        unplaced = [r for r in rows.all() if not r.locator("td").first.inner_text().strip()]
        assert len(unplaced) == 30
        for row in unplaced:
            why = row.locator("td.why").inner_text()
            assert "равенство" not in why and "игр пока нет" in why, why
    finally:
        context.close()


def test_awards_said_once_and_marked_only_where_they_are_not(chromium, tmp_path):  # noqa: F811
    book = newcomer_cup(tmp_path / "cup.xlsx")
    desk = ExcelDesk(book)
    players = desk.grid("Игроки")
    status = [_c for _c, v in enumerate(players[0]) if v == "Статус"][0]
    row = next(r for r, line in enumerate(players) if line[0] == "Цезарь")
    desk.type({("Игроки", f"{'ABCDEFGH'[status]}{row + 1}"): "дисквалифицирован"})
    site = synced(book) / "site"
    context, page = _page(chromium, 1280, (site / "index.html").as_uri())
    try:
        text = page.inner_text("main")
        assert text.count("без приза") == 2  # Цезарь's mark and the legend under the table
        assert "«без приза» — по регламенту не участвует в награждении" in text
        cells = page.locator("table.standings tbody td.warn").all_inner_texts()
        assert [c.strip() for c in cells if c.strip()] == ["без приза"]
        assert "да" not in [c.strip() for c in cells]
    finally:
        context.close()


@pytest.mark.parametrize("hosted", [False, True])
def test_the_hall_screen_prints_the_sites_address_and_its_qr_code(chromium, tmp_path, hosted):  # noqa: F811
    """«Вся таблица — на сайте турнира» said where: the Tournament tab's «Ссылка», or the hosted site's
    address when the server publishes (publish_files' link), and a QR code of it big enough to scan
    from the hall — an inline SVG, no script."""
    from sheets_sync.loop.outcome import compute
    from sheets_sync.loop.publish import publish_files

    book = newcomer_cup(tmp_path / "cup.xlsx")
    ExcelDesk(book).type({("Турнир", "B" + str(_settings_row(book, "Ссылка") + 1)): "https://vk.cc/cup2026"})
    if hosted:
        out = tmp_path / "hosted"
        publish_files(compute(ExcelBackend(book).read()), out, link="https://mafia.example.org/t/kubok-reina/")
        site, address = out / "site", "https://mafia.example.org/t/kubok-reina/"
    else:
        site, address = synced(book) / "site", "https://vk.cc/cup2026"
    context, page = _page(chromium, 1280, (site / "screen.html").as_uri())
    try:
        assert page.locator("script").count() == 0
        said = page.inner_text("body")
        assert "Вся таблица — на сайте турнира" in said and address in said, said
        qr = page.locator(".screen-link svg")
        box = qr.bounding_box()
        assert box and box["width"] >= 120 and abs(box["width"] - box["height"]) < 2, box
        page.screenshot(path=str(fresh_artifacts() / f"screen-link{'-hosted' if hosted else ''}-1280.png"))
    finally:
        context.close()


def _settings_row(book: Path, label: str) -> int:
    grid = ExcelDesk(book).grid("Турнир")
    return next(r for r, row in enumerate(grid) if row and row[0] == label)


def _decimals(texts: list[str]) -> set[int]:
    return {len(t.strip().partition(".")[2]) for t in texts if t.strip()}


def test_each_column_of_points_has_one_number_of_decimals(chromium, cup):  # noqa: F811
    """gmo-2016: a semifinal game adds 0.25 × 1.5 = 0.375, so the semifinal and the total show three
    decimals on every row (13.475 stood beside 3.38); the qualifying (×1) and the final (×2) two."""
    context, page = _page(chromium, 1280, (cup / "index.html").as_uri())
    try:
        heads = [h.strip() for h in page.locator("table.standings thead th").all_inner_texts()]
        cells = page.locator("table.standings tbody tr").evaluate_all(
            "rows => rows.map(r => Array.from(r.children).map(c => c.innerText))")
        column = {name: [row[i] for row in cells] for i, name in enumerate(heads)}
        assert _decimals(column["Итого"]) == {3}, column["Итого"][:5]
        assert _decimals(column["Полуфинал"]) == {3}
        assert _decimals(column["Отбор"]) == {2} and _decimals(column["Финал"]) == {2}
        for name in ("Доп. баллы", "Лучший ход", "Штрафы"):
            assert len(_decimals(column[name])) == 1, (name, column[name])
    finally:
        context.close()
