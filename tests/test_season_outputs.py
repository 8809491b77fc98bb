"""A club season's outputs from the worked season of tests/test_season.py: the owned tabs, the
site (golden pages), standings.json against its schema, the VK posts (golden text) and the hall's
screen."""

from __future__ import annotations

import dataclasses
import json
from decimal import Decimal as D

import pytest
from jsonschema import Draft202012Validator

from scoring.model import Player
from scoring.season import season
from scoring.standings import compute
from sheets_sync.render.json_out import standings_document
from sheets_sync.render.screen import screen_files
from sheets_sync.render.season_site import evening_file
from sheets_sync.render.season_tabs import evenings_tab, season_standings_tab
from sheets_sync.render.tabs import HEADING_ROWS
from sheets_sync.render.site import player_file, site_files
from sheets_sync.render.vk_season import evening_post_text, season_post_text
from tests.helpers import ROOT, table, tournament
from tests.test_season import AVERAGE, CLUB, GAMES, PRESET
from tests.test_site import check_golden


def _results(preset=PRESET):
    t = dataclasses.replace(tournament([Player(nickname=n) for n in CLUB], GAMES), season=True, name="Клуб «Ночь»")
    return compute(t, preset, [])


@pytest.fixture(scope="module")
def files():
    return site_files(_results(), language="ru")


@pytest.mark.parametrize("page", ["index.html", "evenings.html", evening_file("2026-12-05")])
def test_golden_season_pages(files, page):
    check_golden(f"season/{page}", files[page])


def test_golden_season_player_page(files):
    page = files[player_file("Анна")]
    check_golden("season/player-anna.html", page)
    assert '<svg class="sparkline"' in page and "2026" in page


def test_season_site_has_no_stage_or_unknown_player(files):
    assert not any(f.startswith("stage-") or f.startswith("game-") or f == "games.html" for f in files)
    assert player_file("Мира") not in files  # typed into a protocol, not on the Players tab


def test_season_tabs():
    results = _results()
    rows = table(season_standings_tab(results, "ru").rows)
    # place, name, the main number, then the scheme's columns: movement, total, average, games, evenings, …
    assert rows[0][:8] == ("Место", "Игрок", "Сумма", "±", "Среднее", "Игр", "Вечеров", "Побед")
    assert rows[1][:8] == ("1", "Анна", D(5), "=", D("1.25"), 4, 2, 4)
    below = [r for r in rows if r and r[-1] in ("ещё 1", "ещё 2")]
    assert [(r[1], r[-1]) for r in below] == [("Кира", "ещё 1"), ("Лев", "ещё 2")]
    evenings = evenings_tab(results, "ru").rows[HEADING_ROWS:]  # under the tab's title and status line
    assert evenings[0][0] == "Итоги вечера 19.12.2026" and evenings[1][0] == "Место"


def test_standings_json_season_matches_the_schema():
    schema = json.loads((ROOT / "schemas" / "standings.schema.json").read_text(encoding="utf-8"))
    doc = json.loads(json.dumps(standings_document(_results(AVERAGE), [], language="ru")))
    Draft202012Validator(schema).validate(doc)
    part = doc["season"]
    assert part["ranking"] == "average" and part["standings"][2]["player"] == "Кира"
    assert part["standings"][2]["average_exact"] == "2/3"
    assert part["players"]["Дина"]["best_move_accuracy"] == "1/1"
    assert [e["date"] for e in part["evenings"]] == ["2026-12-05", "2026-12-12", "2026-12-19"]
    tournament_doc = standings_document(compute(tournament(CLUB, GAMES[:1]), PRESET, []), [], language="ru")
    assert tournament_doc["season"] is None


def test_golden_vk_posts():
    results = _results()
    first = season(results).evenings[0]
    check_golden("season/vk-evening.ru.txt", evening_post_text(results, first, language="ru"))
    check_golden("season/vk-season.ru.txt", season_post_text(results, language="ru"))


def test_screen_shows_the_evening():
    pages = screen_files(_results(), language="ru")
    assert "Итоги вечера 19.12.2026" in pages["screen.html"]
    assert "Рейтинг сезона" in pages["screen-2.html"] and "Анна" in pages["screen-2.html"]


def test_evening_vk_picture(tmp_path):
    """The last evening's picture (and the season's), as the VK post carries them; a copy for people
    to look at: tests/artifacts/evening-vk.png."""
    from sheets_sync.render.vk_season import write_season_vk

    written = write_season_vk(_results(), tmp_path, language="ru")
    assert [p.name for p in written] == ["vk-post.png", "vk-post.txt", "vk-season.png", "vk-season.txt"]
    png = (tmp_path / "vk-post.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 1000
    (ROOT / "tests" / "artifacts" / "evening-vk.png").write_bytes(png)


@pytest.mark.parametrize(("ranking", "columns", "header", "anna"), [
    ("total", ("games", "civilian", "don"), ("Место", "Игрок", "Сумма", "Игр", "Мирный", "Дон"),
     ("1", "Анна", D(5), 4, "1 / 1", "1 / 1")),
    # the main number is never repeated among the columns: by the average, «total» is a column, «average» not
    ("average", ("total", "average", "evenings", "last_evening", "penalties"),
     ("Место", "Игрок", "Среднее", "Сумма", "Вечеров", "Последний вечер", "Штрафы"),
     ("1", "Анна", D("1.25"), D(5), 2, "12.12.2026", D(0))),
    ("total", (), ("Место", "Игрок", "Сумма"), ("1", "Анна", D(5))),
], ids=["three-columns", "by-average", "no-columns"])
def test_the_schemes_columns_on_the_tab_and_the_site(ranking, columns, header, anna):
    from scoring.preset import SeasonRule

    preset = dataclasses.replace(PRESET, season=SeasonRule(ranking=ranking, min_games=3 if ranking == "average" else 4,
                                                           columns=columns))
    results = _results(preset)
    rows = table(season_standings_tab(results, "ru").rows)
    assert rows[0] == header and rows[1] == anna
    page = site_files(results, language="ru")["index.html"]
    head = page[page.index("<thead>"):page.index("</thead>")]
    import re

    assert re.findall(r"<th scope=\"col\"[^>]*>([^<]*)</th>", head) == list(header)


def test_the_season_race_and_each_players_place_after_every_evening(files):
    """The race over the evenings (the tournament's chart, one point an evening, by date) and, on a
    player's page, his place after every evening: Анна (provisional 2nd after the first evening, when
    nobody had 4 games) 2 → 1 → 1; Лев, the guest, — → (10) → (11)."""
    import re

    race = files["race.html"]
    assert "<h1>Гонка по вечерам</h1>" in race and '<svg class="race-chart"' in race
    assert re.findall(r'text-anchor="middle" fill="#555">([^<]*)</text>', race) == ["05.12", "12.12", "19.12"]
    assert "Анна: 2, 1, 1" in race and "Лев: –, 10, 11" in race

    def places(page: str) -> list[str]:
        block = page[page.index('<table class="evening-places">'):]
        return re.findall(r'<td class="num">([^<]*)</td>', block[:block.index("</table>")])

    assert places(files[player_file("Анна")]) == ["(2)", "1", "1"]
    assert places(files[player_file("Лев")]) == ["—", "(10)", "(11)"]


def test_the_halls_screen_in_the_first_week():
    """After the first evening nobody has 4 games: the screen's season page lists the ten who played in the
    provisional order, not an empty table."""
    t = dataclasses.replace(tournament([Player(nickname=n) for n in CLUB], GAMES[:2]), season=True, name="Клуб")
    pages = screen_files(compute(t, PRESET, []), language="ru")
    assert "Итоги вечера 05.12.2026" in pages["screen.html"]
    second = pages["screen-2.html"]
    assert second.index("(1)") < second.index("Дина") < second.index("Анна") and "(10)" in second


def test_the_season_in_english():
    """The new words exist in English too: provisional places, the evenings covered, an evening's status."""
    results = _results()
    pages = site_files(results, language="en")
    assert "Covers the evenings 05.12.2026–19.12.2026 (3), 5 games" in pages["index.html"]
    assert "(places in parentheses): provisional, fewer than 4 games" in pages["index.html"]
    assert "Evening 05.12.2026: 2 games, 2 counted" in pages[evening_file("2026-12-05")]
    assert "<h1>Race over the evenings</h1>" in pages["race.html"]
    text = season_post_text(results, language="en")
    assert "(10)" in text and "Covers the evenings" in text
    rows = table(season_standings_tab(results, "en").rows)
    assert rows[0][:4] == ("Place", "Player", "Total", "±")


@pytest.mark.parametrize("page", ["statistics.html", "players.html"])
def test_the_seasons_own_frame_on_every_page(files, page):
    """The statistics and the players' list were the tournament's: its menu (Отбор, Игры, Гонка по турам)
    and its headline («Промежуточные итоги после 2 тура из 3»)."""
    import re

    text = files[page]
    menu = re.findall(r'<li><a href="([^"]*)"', text[text.index("<nav"):text.index("</nav>")])
    assert menu == ["index.html", "evenings.html", "race.html", "players.html", "statistics.html"]
    assert "тура" not in text and "Промежуточные итоги" not in text and "Рейтинг сезона: вечеров 3, игр 5" in text


SITE = "https://club.example.org/season"


@pytest.mark.parametrize(("tab_link", "given", "shown"), [
    ("", None, None),  # no link anywhere: no line, no «[вставьте ссылку]» to be published as it is
    (SITE, None, SITE),  # the Tournament tab's «Ссылка»
    (SITE, "https://vk.cc/x", "https://vk.cc/x"),  # `export vk --link` goes before the tab's
    ("", "https://vk.cc/x", "https://vk.cc/x"),
], ids=["none", "tab", "given-wins", "given"])
@pytest.mark.parametrize("language", ["ru", "en"])
def test_season_and_evening_posts_link_like_the_tournaments(tmp_path, tab_link, given, shown, language):
    from sheets_sync.render.vk_season import write_season_vk

    base = _results()
    results = dataclasses.replace(base, tournament=dataclasses.replace(base.tournament, link=tab_link))
    texts = [evening_post_text(results, season(results).evenings[-1], language=language, link=given),
             season_post_text(results, language=language, link=given)]
    write_season_vk(results, tmp_path, language=language, link=given, pictures=False)
    texts += [(tmp_path / n).read_text(encoding="utf-8") for n in ("vk-post.txt", "vk-season.txt")]
    for text in texts:
        assert "вставьте" not in text and "insert link" not in text
        links = [line for line in text.splitlines() if line.startswith("🔗")]
        assert links == ([] if shown is None else [links[0]]) and (shown is None or links[0].endswith(": " + shown))
        assert (SITE in text) == (shown == SITE)
