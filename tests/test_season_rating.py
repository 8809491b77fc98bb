"""A player rating inside one workbook (issue 36 §1, last sentence): a club season ranked by the
mafiaratings rating (config/examples/club-season-rating.toml), a tournament's rating before and
after, the preset's [rating] checks, starting ratings typed on the Players tab.

The worked season is tests/test_season.py's (three evenings, five games), rated with the
formula of issue 36 §1 (club game, ten players: K_win 4, K_loss 3; every rating starts at 0,
shown as 1000).  Worked by hand, game by game (means of the side ratings; p_red = 1 / (1 +
10^((mean black − mean red) / 400))):

    05.12 game 1, red wins:   means 0 / 0, p_red = 0.5; each red +4·0.5 = +2, each black −3·0.5 = −1.5
    05.12 game 2, black wins: reds Борис Глеб (0) and Егор Жанна Зоя Иван Кира (+2): mean red 10/7;
                              blacks Анна (0) Вера (−1.5) Дина (0): mean black −0.5;
                              p_red = 1/(1 + 10^((−0.5 − 10/7)/400)) = 0.502775408883;
                              each black +4·p_red = +2.011101635534, each red −3·p_red = −1.508326226650
    12.12 game 1, red wins:   p_red = 0.502420599286; red +4·(1 − p) = +1.990317602854, black −1.492738202141
    12.12 game 2, black wins: p_red = 0.503902236133; black +2.015608944532, red −1.511706708399
    19.12 game 1, red wins:   p_red = 0.500563797862; red +1.997744808553, black −1.498308606415

Each player's rating is the sum of his changes (the table in test_the_worked_season_to_12_digits,
worked at 40 digits in decimal and compared to 12).  Егор, Жанна, Зоя and Иван played the same
sides in the same games: their ratings are equal exactly, so they share places 3–6; Дина's
1002.99 and Егор's 1002.97 both show as 1003 and are not a tie (equal means exactly equal).
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
import tomllib
from decimal import Decimal as D
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from scoring.model import Player
from scoring.preset import Preset, PresetError
from scoring.rating.club import starts_on_players_tab, workbook_rating
from scoring.season import season
from scoring.standings import compute
from sheets_sync.presets import load_preset, read_preset_dict, with_rating_scheme
from sheets_sync.render.json_out import dumps, standings_document
from sheets_sync.render.screen import screen_files
from sheets_sync.render.season_tabs import season_standings_tab
from sheets_sync.render.season_site import evening_file
from sheets_sync.render.site import player_file, site_files
from sheets_sync.render.tabs import standings_tab
from sheets_sync.render.vk_season import season_post_text
from tests.helpers import ROOT, protocol, table, tournament
from tests.test_season import CLUB, GAMES
from tests.test_site import check_golden

RATED, _ = load_preset("club-season-rating")
PLAIN, _ = load_preset("club-season")


def _results(games=GAMES, preset=RATED, starts=()):
    t = dataclasses.replace(tournament([Player(nickname=n) for n in CLUB], games), season=True, name="Клуб «Ночь»",
                            rating_starts=tuple(starts))
    return compute(t, preset, [])


def _close(actual: float, expected: str) -> bool:
    """Equal to 12 significant digits (the expectation worked at 40 in decimal)."""
    return abs(D(repr(actual)) - D(expected)) <= D("1e-12") * max(D(1), abs(D(expected)))


# -- the formula, game by game and player by player -------------------------------------------------------------
GAME_BY_GAME = [  # (p_red, each red's change, each black's change), in the played order
    ("0.5", "2", "-1.5"),
    ("0.5027754088834407831254285536", "-1.508326226650322349376285661", "2.011101635533763132501714214"),
    ("0.5024205992864663468139705882", "1.990317602854134612744117647", "-1.492738202140600959558088236"),
    ("0.5039022361331128377309591173", "-1.511706708399338513192877352", "2.015608944532451350923836469"),
    ("0.5005637978616613182765731401", "1.997744808553354726893707440", "-1.498308606415016045170280580"),
]


def test_each_game_of_the_season_worked_by_hand():
    history = workbook_rating(_results()).ratings.history
    assert [(g.game.event, g.game.winner) for g in history] == [
        ("2026-12-05", "red"), ("2026-12-05", "black"), ("2026-12-12", "red"), ("2026-12-12", "black"),
        ("2026-12-19", "red")]
    for change, (p_red, to_red, to_black) in zip(history, GAME_BY_GAME, strict=True):
        assert (change.k_win, change.k_loss) == (4.0, 3.0)  # a club game at a full table
        assert _close(change.p_red, p_red) and _close(change.red, to_red) and _close(change.black, to_black)


@pytest.mark.parametrize("player, overall, red, black, games", [
    ("Анна", "8.017028182920349096169668331", "3.990317602854134612744117647", "4.026710580066214483425550684", 4),
    ("Дина", "2.991403923573543186882673930", "2.478610894454796099551240295", "0.5127930291187470873314336347", 5),
    ("Егор", "2.968029476357828477068662074", "2.968029476357828477068662074", "0", 5),
    ("Кира", "2.489418581903032377517421779", "2.489418581903032377517421779", "0", 3),
    ("Лев", "0.4786108944547960995512402955", "0.4786108944547960995512402955", "0", 2),
    ("Вера", "-0.4643362284894025213028181316", "0", "-0.4643362284894025213028181316", 5),
    ("Борис", "-0.4877106757051172311168299875", "0.4894185819030323775174217788", "-0.9771292576081496086342517663", 5),
    ("Глеб", "-7.511079743605277867297531828", "-3.020032935049660862569163013", "-4.491046808555617004728368815", 5),
])
def test_the_worked_season_to_12_digits(player, overall, red, black, games):
    line = workbook_rating(_results()).lines[player]
    assert _close(line.overall, overall) and _close(line.red, red) and _close(line.black, black)
    assert line.games == games and line.before == 0.0
    assert _close(line.change, overall)  # from 0: the change over the season is the rating


@pytest.mark.parametrize("player, last_evening", [
    ("Дина", "-1.498308606415016045170280580"),  # black in the last game, which the reds won
    ("Егор", "1.997744808553354726893707440"),  # red in it
    ("Анна", None), ("Лев", None),  # not at the last evening
])
def test_the_change_on_the_last_evening(player, last_evening):
    line = workbook_rating(_results()).lines[player]
    assert (line.last_evening is None) if last_evening is None else _close(line.last_evening, last_evening)


# -- ranking by rating --------------------------------------------------------------------------------------------
def test_ranked_by_rating_equal_ratings_share_a_place():
    s = season(_results())
    assert s.ranking == "rating" and s.min_games == 2
    assert [(e.player, e.standing.places) for e in s.standings] == [
        ("Анна", "1"), ("Дина", "2"), ("Егор", "3–6"), ("Жанна", "3–6"), ("Зоя", "3–6"), ("Иван", "3–6"),
        ("Кира", "7"), ("Лев", "8"), ("Вера", "9"), ("Борис", "10"), ("Глеб", "11")]
    assert s.standings[2].standing.tiebreak == "shared"
    assert s.standings[1].standing.tiebreak is None  # Дина above Егор by rating, though both show 1003
    assert [s.rating.shown(p) for p in ("Дина", "Егор")] == [D(1003), D(1003)]


def test_below_the_minimum_placed_provisionally_by_rating():
    """From five games: Анна (4), Кира (3) and Лев (2) are placed after the ranked, by their rating."""
    s = season(_results(preset=dataclasses.replace(RATED, season=dataclasses.replace(RATED.season, min_games=5))))
    assert [e.player for e in s.standings] == ["Дина", "Егор", "Жанна", "Зоя", "Иван", "Вера", "Борис", "Глеб"]
    assert [(e.player, e.standing.places, e.games_needed) for e in s.below_minimum] == [
        ("Анна", "9", 1), ("Кира", "10", 2), ("Лев", "11", 3)]


def test_the_race_ranks_by_the_ratings_after_each_evening():
    """After 05.12: Анна and Дина +2 −1.508… +2.011… = 2.502775… each (shared 1–2); Вера −1.5 + 2.011… third."""
    s = season(_results())
    first = s.race[0]
    assert first.shown["Анна"] == first.shown["Дина"] == "1–2" and first.shown["Вера"] == "3"
    assert s.race[-1].places == {e.player: e.standing.place for e in s.table}


def test_a_scheme_minimum_above_the_seasons_counts():
    scheme = dataclasses.replace(RATED.rating.resolved, min_games=4)
    preset = dataclasses.replace(RATED, rating=dataclasses.replace(RATED.rating, resolved=scheme))
    s = season(_results(preset=preset))
    assert s.min_games == 4
    assert [e.player for e in s.below_minimum] == ["Кира", "Лев"]
    assert not s.rating.listed("Кира") and s.rating.listed("Анна")


# -- starting ratings typed on the Players tab ------------------------------------------------------------------
def test_typed_starts_count():
    """Анна typed 1100 overall and 1050 red: her start is 100 and her red side 50, so game 1's
    mean red is 50/7 and p_red = 1/(1 + 10^((0 − 50/7)/400)) — the formula, computed here."""
    results = _results(starts=[("Анна", D(1100), D(1050), None)])
    rating = workbook_rating(results)
    anna = rating.lines["Анна"]
    assert anna.before == 100.0
    p_red = 1.0 / (1.0 + 10.0 ** ((0.0 - 50.0 / 7) / 400.0))
    first = rating.ratings.history[0]
    assert first.p_red == p_red and first.red == 4 * (1 - p_red)
    assert anna.overall == 100.0 + sum(c for _, c in rating.ratings.changes_of("Анна"))
    assert first.game.seats[0].player == "Анна"  # the sheriff of game 1
    assert season(results).standings[0].player == "Анна"
    assert standings_document(results, [], language="ru")["rating"]["players"][0]["before"] == "1100"


def test_starts_read_from_the_players_tab_and_a_bad_cell_named():
    tabs = {"Игроки": [["Игрок", "Клуб", "Рейтинг", "Рейтинг красных", "Рейтинг чёрных"],
                       ["Анна", "", 1100, "1050,5", None],
                       ["Борис", "", "много", None, None],
                       ["Гость", "", 1200, None, None],
                       ["Вера", "", None, None, None]]}
    starts, problems = starts_on_players_tab(tabs, {"Анна": "Анна", "Борис": "Борис", "Вера": "Вера"})
    assert starts == (("Анна", D(1100), D("1050.5"), None),)
    assert [(p.rule, p.location.sheet, p.location.cell) for p in problems] == [("read.number", "Игроки", "C3")]


# -- order never matters ----------------------------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(st.randoms(use_true_random=False))
def test_shuffling_the_protocols_never_changes_the_table(rnd: random.Random):
    games = list(GAMES)
    rnd.shuffle(games)
    s, expected = season(_results(tuple(games))), season(_results())
    assert [(e.player, e.standing.places) for e in s.table] == [(e.player, e.standing.places) for e in expected.table]
    assert s.rating.lines == expected.rating.lines
    assert s.race == expected.race


# -- the preset's [rating] ----------------------------------------------------------------------------------------
def _preset_text(tmp_path: Path, edit) -> Path:
    text = (ROOT / "config" / "examples" / "club-season-rating.toml").read_text(encoding="utf-8")
    path = tmp_path / "club.toml"
    path.write_text(edit(text), encoding="utf-8")
    return path


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace('scheme = "mafiaratings-2025"', 'scheme = "mafiaratingz"'), "rating.scheme: 'mafiaratingz'"),
    (lambda t: t.replace('kind = "club"', 'kind = "friendly"'), "rating.kind: 'friendly' is not a game kind"),
    (lambda t: t.replace('kind = "club"', 'kind = "club"\nspeed = 2'), "rating.speed: unknown"),
    (lambda t: t[:t.index("[rating]")] + t[t.index("[points]"):], "season.ranking"),
])
def test_a_bad_rating_setting_is_named(tmp_path, edit, message):
    with pytest.raises(PresetError) as caught:
        load_preset(str(_preset_text(tmp_path, edit)))
    assert message in str(caught.value) and "club.toml" in str(caught.value)


def test_a_scheme_file_beside_the_preset(tmp_path):
    (tmp_path / "mmr.toml").write_text((ROOT / "config" / "ratings" / "andrsj-mmr.toml").read_text(encoding="utf-8"),
                                       encoding="utf-8")
    preset, _ = load_preset(str(_preset_text(tmp_path, lambda t: t.replace('"mafiaratings-2025"', '"mmr.toml"'))))
    assert preset.rating.resolved.id == "andrsj-mmr"
    line = workbook_rating(_results(preset=preset)).lines["Анна"]  # stepped: 1000, +9 a win, −6 a loss
    assert line.overall == 1000 + 9 * 4 and line.games == 4


def test_without_rating_nothing_changes():
    results = _results(preset=PLAIN)
    assert workbook_rating(results) is None and season(results).rating is None
    assert "rating" not in standings_document(results, [], language="ru")
    assert not any("Рейтинг" in str(c) for c in table(season_standings_tab(results, "ru").rows)[0])


# -- every output shows it ------------------------------------------------------------------------------------------
def _schema() -> Draft202012Validator:
    return Draft202012Validator(json.loads((ROOT / "schemas" / "standings.schema.json").read_text(encoding="utf-8")))


def test_golden_rated_season_outputs():
    results = _results()
    rows = season_standings_tab(results, "ru").rows
    check_golden("season-rating/standings-tab.txt", "\n".join("\t".join("" if v is None else str(v) for v in row)
                                                              for row in rows) + "\n")
    files = site_files(results, language="ru")
    check_golden("season-rating/index.html", files["index.html"])
    document = json.loads(json.dumps(standings_document(results, [], language="ru")))
    _schema().validate(document)
    check_golden("season-rating/standings.json", dumps(document))
    check_golden("season-rating/vk-season.ru.txt", season_post_text(results, language="ru"))


def test_the_tab_site_screen_and_post_show_the_rating():
    results = _results()
    header, first = table(season_standings_tab(results, "ru").rows)[:2]
    assert header[:8] == ("Место", "Игрок", "Рейтинг", "±", "± рейтинга", "Рейтинг красных", "Рейтинг чёрных",
                          "Игр в рейтинге")
    assert first[:8] == ("1", "Анна", D(1008), "=", None, D(1004), D(1004), 4)
    screen = screen_files(results, language="ru")["screen-2.html"]
    assert ">Рейтинг<" in screen and ">1008<" in screen
    assert "1008 — Анна" in season_post_text(results, language="ru").replace("\u2007", " ")
    files = site_files(results, language="ru")
    assert "Порядок по рейтингу игрока" in files["index.html"] and "-1.50" in files["index.html"]
    evening = files[evening_file("2026-12-19")]  # the reds won: Егор +2.00, Дина (black) −1.50
    assert re.search(r"Егор</a></th>.*?<td class=\"num\">\+2\.00</td>", evening, re.S)
    assert re.search(r"Дина</a></th>.*?<td class=\"num\">-1\.50</td>", evening, re.S)
    anna = files[player_file("Анна")]  # after 05.12: 2 + 2.011… ; after 12.12: + 1.990… + 2.015… = 8.017… (1008)
    assert "<dt>Рейтинг</dt><dd>1008</dd>" in anna and "<dt>± рейтинга за последний вечер</dt><dd>—</dd>" in anna
    assert re.search(r"Рейтинг после каждого вечера.*?<td class=\"num\">1004</td><td class=\"num\">1008</td>"
                     r"<td class=\"num\">1008</td>", anna, re.S)


# -- a tournament: before and after ---------------------------------------------------------------------------------
def _tournament_preset() -> Preset:
    data, name = read_preset_dict("gmo-2016")
    data = {**data, "rating": {"scheme": "mafiaratings-2025", "kind": "tournament"}}
    return with_rating_scheme(Preset.from_dict(data, source=name), name, ROOT / "config")


def test_a_tournament_shows_each_players_rating_before_and_after():
    """One tournament game (K 16 / 12), the reds win at even ratings: each red +8, each black −6;
    Анна typed 1100 before it."""
    players = "Анна Борис Вера Глеб Дина Егор Жанна Зоя Иван Кира"
    games = [protocol(players, "шдммкккккк", "red")]
    t = tournament(players.split(), games, rating_starts=(("Анна", D(1100), None, None),))
    results = compute(t, _tournament_preset(), [])
    rows = table(standings_tab(results, "ru").rows)
    header = rows[0]
    at = header.index("Рейтинг до")
    assert header[at:at + 3] == ("Рейтинг до", "Рейтинг после", "± рейтинга")
    by_name = {r[1]: r[at:at + 3] for r in rows[1:11]}
    assert by_name["Анна"] == (D(1100), D(1108), D("8.00")) and by_name["Борис"] == (D(1000), D(994), D("-6.00"))
    page = site_files(results, language="ru")[player_file("Анна")]
    assert "Рейтинг до турнира</dt><dd>1100" in page and "Изменение рейтинга</dt><dd>+8.00" in page
    document = json.loads(json.dumps(standings_document(results, [], language="ru")))
    _schema().validate(document)
    anna = next(p for p in document["rating"]["players"] if p["player"] == "Анна")
    assert (anna["before"], anna["rating"], anna["change"]) == ("1100", "1108", "8.00")
    assert document["rating"]["kind"] == "tournament"


def test_the_example_preset_is_a_valid_toml_with_its_rating():
    data = tomllib.loads((ROOT / "config" / "examples" / "club-season-rating.toml").read_text(encoding="utf-8"))
    assert data["rating"] == {"scheme": "mafiaratings-2025", "kind": "club"} and data["season"]["ranking"] == "rating"


# -- through the command line: ratings typed on the Players tab of a real workbook ---------------------------------
def test_a_rated_season_through_the_cli(tmp_path):
    """``init --season`` with the rating preset, «Рейтинг» and «Рейтинг чёрных» typed on the Players
    tab (Анна 1100 / 1010; Борис «много», an error at its cell), three evenings, a sync: the
    ratings of standings.json are those the model computes from the same games and starts."""
    from tests.judge import ExcelDesk
    from tests.test_season_cli import EVENINGS, PLAYERS, _cli, _csv, _evening, _sync

    preset = tmp_path / "club-season-rating.toml"
    preset.write_text((ROOT / "config" / "examples" / "club-season-rating.toml").read_text(encoding="utf-8"),
                      encoding="utf-8")
    book = tmp_path / "club.xlsx"
    _cli("init", str(book), "--season", "--players", str(_csv(tmp_path / "p.csv", PLAYERS)), "--preset", str(preset))
    desk = ExcelDesk(book)
    desk.type({("Игроки", "F1"): "Рейтинг", ("Игроки", "G1"): "Рейтинг чёрных", ("Игроки", "F2"): "1100",
               ("Игроки", "G2"): "1010", ("Игроки", "F3"): "много", ("Игроки", "A12"): "Лев"})
    for day, games in EVENINGS:
        _evening(desk, day, games)
    doc = _sync(desk, tmp_path / "out")
    errors = [(p["sheet"], p["cell"], p["rule"]) for p in doc["problems"] if p["severity"] == "error"]
    assert errors == [("Игроки", "F3", "read.number")]
    games = tuple(g for _, day_games in EVENINGS for g in day_games)
    expected = workbook_rating(_results(games, starts=[("Анна", D(1100), None, D(1010))]))
    got = {p["player"]: p for p in doc["rating"]["players"]}
    assert got["Анна"]["before"] == "1100" and got["Борис"]["before"] == "1000"
    for name, line in expected.lines.items():
        assert got[name]["exact"] == {"before": line.before, "rating": line.overall, "red": line.red,
                                      "black": line.black}, name
    assert doc["season"]["ranking"] == "rating" and doc["season"]["standings"][0]["player"] == "Анна"
    header = table(desk.grid("Итоги"))[0]
    assert tuple(header[:3]) == ("Место", "Игрок", "Рейтинг") and "Рейтинг чёрных" in header


@settings(max_examples=25, deadline=None)
@given(st.dictionaries(st.sampled_from(CLUB), st.integers(700, 1400), max_size=5), st.randoms(use_true_random=False))
def test_a_rating_is_its_typed_start_plus_its_changes(typed, rnd: random.Random):
    """Whatever is typed on the Players tab and in whatever order the protocols lie: each player's
    rating is his start plus his changes in the played order, and the table after the last
    evening is the table now."""
    games = list(GAMES)
    rnd.shuffle(games)
    results = _results(tuple(games), starts=[(name, D(value), None, None) for name, value in typed.items()])
    rating = workbook_rating(results)
    for name, line in rating.lines.items():
        assert line.before == (typed[name] - 1000.0 if name in typed else 0.0)
        total = line.before
        for _, change in rating.ratings.changes_of(name):
            total += change
        assert line.overall == total
    assert dict(rating.after(rating.last_evening)) == {n: ln.overall for n, ln in rating.lines.items() if ln.games}
    s = season(results)
    assert s.race[-1].places == {e.player: e.standing.place for e in s.table if e.stats.games}


def test_a_scheme_named_on_the_tournament_tab_beside_the_workbook(tmp_path):
    """A shipped preset, the scheme overridden on the Tournament tab by a file beside the workbook."""
    (tmp_path / "mmr.toml").write_text((ROOT / "config" / "ratings" / "andrsj-mmr.toml").read_text(encoding="utf-8"),
                                       encoding="utf-8")
    preset, rejected = load_preset("club-season-rating", [("рейтинг.схема", "mmr.toml")], base_dir=tmp_path)
    assert not rejected and preset.rating.resolved.id == "andrsj-mmr"
    with pytest.raises(PresetError, match="rating.scheme: 'nowhere.toml'"):
        load_preset("club-season-rating", [("рейтинг.схема", "nowhere.toml")], base_dir=tmp_path)
