"""Team tables in a club season (issue 36 §4): a season whose Players tab has «Команда» (and
«Зачёт») shows the team standings — and the classifications — in its own outputs, the season
tabs, the season site and standings.json, made from the season's table (its ranking key, the
provisional players after the ranked), not the tournament-style overall standings.

The worked season of tests/test_season.py (club-season preset: ranked by the total from 4 games;
teams: the default ``[teams]``, the sum of every member's points, ties by the best member, then
wins) with three teams and one classification:

    Север: Анна 5 (1), Дина 4.25 (2), Кира 2 (10, provisional: 3 games)    = 11.25  → 1
    Юг:    Егор 3 (3–6), Вера 2.75 (7), Лев 2 (11, provisional: 2 games)    =  7.75  → 2
    Запад: Борис 2.25 (8), Глеб -0.5 (9), Ян 0 (no game this season)        =  1.75  → 3

The tournament-style overall standings would put Кира (2) 9th and Глеб (-0.5) 11th; the season's
table places Глеб 9th (ranked) and Кира 10th (provisional) — the team table shows the season's.
«женский»: Анна (1), Вера (7), Кира (10) → 1, 2, 3.
"""

from __future__ import annotations

import dataclasses
import json
import re
from decimal import Decimal as D

import pytest
from jsonschema import Draft202012Validator

from scoring.model import Player
from scoring.season import season
from scoring.standings import compute
from scoring.teams import sides
from sheets_sync.render.json_out import standings_document
from sheets_sync.render.season_tabs import owned_season_tabs
from sheets_sync.render.site import classification_file, site_files
from tests.helpers import ROOT, tournament
from sheets_sync.presets import load_preset
from tests.test_season import AVERAGE, CLUB, GAMES, PRESET

RATED, _ = load_preset("club-season-rating")  # ranked by the player rating (issue 36 §1)

TEAM = {"Анна": "Север", "Дина": "Север", "Кира": "Север", "Егор": "Юг", "Вера": "Юг", "Лев": "Юг",
        "Борис": "Запад", "Глеб": "Запад", "Ян": "Запад"}
WOMEN = ("Анна", "Вера", "Кира")


def _results(preset=PRESET):
    players = [Player(nickname=n, team=TEAM.get(n), classifications=("женский",) if n in WOMEN else ())
               for n in [*CLUB, "Ян"]]
    t = dataclasses.replace(tournament(players, GAMES), season=True, name="Клуб «Ночь»")
    return compute(t, preset, [])


def test_the_worked_season_teams():
    teams = sides(_results()).teams
    assert [(t.places, t.team, t.points) for t in teams] == [("1", "Север", D("11.25")), ("2", "Юг", D("7.75")),
                                                             ("3", "Запад", D("1.75"))]
    members = {m.player: (m.places, m.points, m.games) for t in teams for m in t.members}
    assert members == {"Анна": ("1", D(5), 4), "Дина": ("2", D("4.25"), 5), "Кира": ("10", D(2), 3),
                       "Егор": ("3–6", D(3), 5), "Вера": ("7", D("2.75"), 5), "Лев": ("11", D(2), 2),
                       "Борис": ("8", D("2.25"), 5), "Глеб": ("9", D("-0.5"), 5), "Ян": ("", D(0), 0)}
    # members in the season table's order, the player without a game last
    assert [m.player for m in teams[2].members] == ["Борис", "Глеб", "Ян"]


@pytest.mark.parametrize("preset", [PRESET, AVERAGE, RATED], ids=["total", "average", "rating"])
def test_members_and_classifications_are_placed_as_the_season_table_places_them(preset):
    """Whatever the season's ranking (the total, the average from 3 games, the rating), every team member
    and every classification entry carries his place in the season's table, and a classification
    lists its players in that table's order."""
    results = _results(preset)
    table = {e.player: e.standing.places for e in season(results).table if e.stats.games}
    found = sides(results)
    assert {m.player: m.places for t in found.teams for m in t.members if m.games} == \
        {p: table[p] for p in TEAM if p in table}
    (women,) = found.classifications
    order = [e.player for e in season(results).table if e.player in WOMEN]
    assert [e.standing.stats.player for e in women.entries] == order
    assert [e.places for e in women.entries] == ["1", "2", "3"]
    assert [e.standing.places for e in women.entries] == [table[p] for p in order]


def test_a_season_without_teams_has_none():
    t = dataclasses.replace(tournament([Player(nickname=n) for n in CLUB], GAMES), season=True)
    found = sides(compute(t, PRESET, []))
    assert found.teams == () and found.classifications == ()
    assert [w.title for w in owned_season_tabs(compute(t, PRESET, []), [], "ru", links=False)] == \
        ["Итоги", "Вечера", "Статистика", "Проверка"]


# -- the season's outputs --------------------------------------------------------------------------
def test_the_season_tabs_have_the_team_and_classification_tabs():
    tabs = {w.title: w for w in owned_season_tabs(_results(), [], "ru", links=False)}
    assert list(tabs) == ["Итоги", "Вечера", "Команды", "Зачёты", "Статистика", "Проверка"]
    rows = tabs["Команды"].rows
    teams = [r for r in rows if r and r[0] in ("1", "2", "3")]
    assert [(r[1], r[2]) for r in teams] == [("Север", D("11.25")), ("Юг", D("7.75")), ("Запад", D("1.75"))]
    kira = next(r for r in rows if len(r) > 3 and r[3] == "Кира")
    assert (kira[4], kira[5], kira[6]) == ("10", D(2), 3)
    english = {w.title for w in owned_season_tabs(_results(), [], "en", links=False)}
    assert {"Teams", "Classifications"} <= english


@pytest.fixture(scope="module")
def files():
    return site_files(_results(), language="ru")


def test_the_season_site_has_the_team_page_in_the_seasons_frame(files):
    page = files["teams.html"]
    menu = re.findall(r'<li><a href="([^"]*)"', page[page.index("<nav"):page.index("</nav>")])
    assert menu == ["index.html", "evenings.html", "race.html", "players.html", "statistics.html", "teams.html",
                    classification_file("женский")]
    assert "Рейтинг сезона: вечеров 3, игр 5" in page  # the season's headline, not a tournament's
    for team in ("Север", "Юг", "Запад"):
        assert team in page
    assert page.index("Север") < page.index("Юг") < page.index("Запад")
    index = files["index.html"]
    assert 'href="teams.html"' in index  # every season page links to it
    women = files[classification_file("женский")]
    assert women.index("Анна") < women.index("Вера") < women.index("Кира")


def test_standings_json_of_a_season_has_its_teams():
    schema = json.loads((ROOT / "schemas" / "standings.schema.json").read_text(encoding="utf-8"))
    doc = json.loads(json.dumps(standings_document(_results(), [], language="ru")))
    Draft202012Validator(schema).validate(doc)
    teams = doc["teams"]["standings"]
    assert [(t["places"], t["team"], t["points"]) for t in teams] == [("1", "Север", "11.25"), ("2", "Юг", "7.75"),
                                                                      ("3", "Запад", "1.75")]
    kira = next(m for t in teams for m in t["members"] if m["player"] == "Кира")
    assert (kira["places"], kira["games"]) == ("10", 3)
    assert doc["classifications"][0]["name"] == "женский"
    assert doc["season"]["standings"][0]["player"] == "Анна"


def test_a_season_ranked_by_rating_has_its_teams_and_ratings_in_one_valid_document():
    """Teams and the rating together (two parts of issue 36 that meet in a season's outputs):
    the document stays valid, the members carry the rating-ranked table's places, and the
    ranking is the rating's."""
    results = _results(RATED)
    schema = json.loads((ROOT / "schemas" / "standings.schema.json").read_text(encoding="utf-8"))
    doc = json.loads(json.dumps(standings_document(results, [], language="ru")))
    Draft202012Validator(schema).validate(doc)
    assert doc["rating"] and doc["teams"]["standings"]
    table = {e.player: e.standing.places for e in season(results).table if e.stats.games}
    assert {m["player"]: m["places"] for t in doc["teams"]["standings"] for m in t["members"] if m["games"]} == \
        {p: table[p] for p in TEAM if p in table}
    assert "Команды" in {w.title for w in owned_season_tabs(results, [], "ru", links=False)}


# -- through the command line ------------------------------------------------------------------------
def test_a_season_with_teams_through_the_cli(tmp_path):
    """``init --season`` from a players file with «Команда», the three evenings of
    tests/test_season_cli.py typed as a judge types them, one sync: the workbook gets «Команды»,
    the site its team page, standings.json its teams.  (Анна sits in Мира's seat on the last
    evening there: Анна 6, so Север 6 + 4.25 + 2 = 12.25; Юг 3 + 2.75 + 2 (Лев, the guest, on the
    Players tab from the start here) = 7.75; Запад 2.25 − 0.5 = 1.75.)"""
    import shutil

    from tests.judge import ExcelDesk
    from tests.test_season_cli import EVENINGS, PLAYERS
    from tests.test_season_cli import PRESET as PRESET_FILE
    from tests.test_season_cli import _cli, _evening, _sync

    team = {"Анна": "Север", "Дина": "Север", "Кира": "Север", "Егор": "Юг", "Вера": "Юг", "Лев": "Юг",
            "Борис": "Запад", "Глеб": "Запад"}
    csv = tmp_path / "players.csv"
    csv.write_text("Игрок;Команда\n" + "".join(f"{n};{team.get(n, '')}\n" for n in [*PLAYERS, "Лев"]), encoding="utf-8-sig")
    shutil.copyfile(PRESET_FILE, tmp_path / PRESET_FILE.name)
    book = tmp_path / "club.xlsx"
    _cli("init", str(book), "--season", "--players", str(csv), "--preset", str(tmp_path / PRESET_FILE.name),
         "--name", "Клуб «Ночь»")
    desk = ExcelDesk(book)
    for day, games in EVENINGS:
        _evening(desk, day, games)
    doc = _sync(desk, tmp_path / "out")
    assert not [p for p in doc["problems"] if p["severity"] == "error"], doc["problems"]
    assert [(t["places"], t["team"], t["points"]) for t in doc["teams"]["standings"]] == [
        ("1", "Север", "12.25"), ("2", "Юг", "7.75"), ("3", "Запад", "1.75")]
    assert "Команды" in desk.tabs()
    rows = desk.grid("Команды")
    assert [r[1] for r in rows if r and r[0] in ("1", "2", "3")] == ["Север", "Юг", "Запад"]
    assert "Север" in (tmp_path / "out" / "site" / "teams.html").read_text(encoding="utf-8")


def test_the_season_post_has_the_team_table():
    from sheets_sync.render.vk_season import season_post_text

    post = season_post_text(_results(), language="ru")
    assert "Командный зачёт:\n1. Север — 11.25\n2. Юг — 7.75\n3. Запад — 1.75" in post
    assert "Зачёт «женский»:\n1. Анна — 5.00" in post
    without = dataclasses.replace(tournament([Player(nickname=n) for n in CLUB], GAMES), season=True)
    assert "Командный зачёт" not in season_post_text(compute(without, PRESET, []), language="ru")


def test_the_season_standings_tab_has_the_team_table_under_the_players():
    """As under a tournament's Итоги: the team table (place, team, points in the main number's
    column, the members beside it) and each classification's, under the season's players."""
    from sheets_sync.render.season_tabs import season_standings_tab

    rows = season_standings_tab(_results(), "ru").rows
    first = next(i for i, r in enumerate(rows) if r and str(r[0]).startswith("Командный зачёт"))
    assert rows[first][0] == "Командный зачёт (сумма очков игроков)"
    assert rows[first + 1][:4] == ("Место", "Команда", "Очки", "Игроки")
    assert [r[:3] for r in rows[first + 2:first + 5]] == [("1", "Север", D("11.25")), ("2", "Юг", D("7.75")),
                                                          ("3", "Запад", D("1.75"))]
    assert rows[first + 2][3] == "Анна, Дина, Кира"
    assert any(r and r[0] == "Зачёт: женский" for r in rows[first:])
    plain = dataclasses.replace(tournament([Player(nickname=n) for n in CLUB], GAMES), season=True)
    assert not any(r and str(r[0]).startswith("Командный") for r in season_standings_tab(compute(plain, PRESET, []), "ru").rows)
