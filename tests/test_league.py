"""`sheets-sync league`: a hand-computed three-game league through real .xlsx files, the cache
(only a changed workbook is read again; the result equals a full replay), the league file's
errors, the output tab, the schema, Hypothesis properties, and golden files.

Golden files live in tests/golden/league/; regenerate on purpose with
``UPDATE_GOLDEN=1 pytest tests/test_league.py`` and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from scoring.errors import SheetsSyncError
from scoring.rating import BLACK, RED, RatedGame, Seat, replay
from sheets_sync.actions.league import LeagueOutputRefused, run_league
from sheets_sync.backends.base import Patch, TabWrite
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.league.league_file import LeagueFileError, build_league, load_league, parse_league
from sheets_sync.league.ratings import load_rating_scheme
from sheets_sync.render.league_site import league_document, league_json, league_site_files
from sheets_sync.render.site import player_file
from tests.league_support import PLAYERS, game, type_starts, write_tournament

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).parent / "golden" / "league"

LEAGUE_TOML = """name = "Лига проверки"
language = "ru"
rating = "mafiaratings-2025"
series = "mwt-series"
output = "rating.xlsx"

[[event]]
workbook = "a.xlsx"
kind = "tournament"
stars = 2

[[event]]
workbook = "b.xlsx"
kind = "club"
stars = 1
name = "Клубный вечер"
"""

# A: two tournament games (blacks: players 7, 8, 9) — the reds win, then the blacks;
# B, a month later, a club game: players 0, 1, 2 black, the reds win.
A_GAMES = [game([7, 8, 9], "red"), game([7, 8, 9], "black")]
B_GAMES = [game([0, 1, 2], "red")]


def make_league(folder: Path, b_games=B_GAMES, a_date="01.02.2020") -> Path:
    write_tournament(folder / "a.xlsx", A_GAMES, name="Турнир A", date=a_date)
    write_tournament(folder / "b.xlsx", b_games, name="Турнир B", date="01.03.2020")
    (folder / "league.toml").write_text(LEAGUE_TOML, encoding="utf-8")
    return folder / "league.toml"


def hand_ratings() -> dict[str, float]:
    """The three games computed by hand from the issue's formula (internal units: shown − 1000)."""
    p1 = 0.5  # everyone at 0: 1 / (1 + 10^0)
    red_win_1, black_loss_1 = 16 * (1 - p1), -12 * (1 - p1)  # +8 / −6
    p2 = 1 / (1 + 10 ** ((black_loss_1 - red_win_1) / 400))  # blacks' mean black −6, reds' mean red +8
    red_2, black_2 = -12 * p2, 16 * p2
    red_mean_3 = (4 * (red_win_1 + red_2) + 3 * 0.0) / 7  # players 3–6 red so far; 7–9 never red
    p3 = 1 / (1 + 10 ** ((0.0 - red_mean_3) / 400))  # players 0–2 never black
    red_3, black_3 = 4 * (1 - p3), -3 * (1 - p3)
    ratings = {}
    for i, name in enumerate(PLAYERS):
        if i <= 2:
            ratings[name] = red_win_1 + red_2 + black_3
        elif i <= 6:
            ratings[name] = red_win_1 + red_2 + red_3
        else:
            ratings[name] = black_loss_1 + black_2 + red_3
    return ratings


@pytest.fixture(scope="module")
def league_dir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("league")
    make_league(folder)
    return folder


@pytest.fixture(scope="module")
def first_run(league_dir):
    return run_league(league_dir / "league.toml", out=league_dir / "out")


# -- the rating, by hand ----------------------------------------------------------------------------------
def test_three_games_computed_by_hand(first_run):
    league = first_run.league
    assert [g.game.id for g in league.ratings.history] == ["a.xlsx#Тур 1 Стол 1", "a.xlsx#Тур 2 Стол 1",
                                                          "b.xlsx#Тур 1 Стол 1"]
    assert [g.game.kind for g in league.ratings.history] == ["tournament", "tournament", "club"]
    for player, expected in hand_ratings().items():
        assert league.ratings.players[player].overall == pytest.approx(expected, rel=1e-12, abs=1e-12), player
    assert sorted(first_run.league.read_again) == ["a.xlsx", "b.xlsx"]


def test_json_and_tab_show_the_rounded_ratings(first_run, league_dir):
    document = json.loads((league_dir / "out" / "league.json").read_text(encoding="utf-8"))
    scheme = load_rating_scheme("mafiaratings-2025")
    shown = {row["player"]: row["rating"] for row in document["rating"]}
    assert shown == {p: float(scheme.shown(v)) for p, v in hand_ratings().items()}
    tab = ExcelBackend(league_dir / "rating.xlsx").read().tabs["Рейтинг"]
    assert {row[1]: row[2] for row in tab[2:]} == shown
    assert document["events"][1]["name"] == "Клубный вечер" and document["events"][0]["date"] == "2020-02-01"


def test_league_json_matches_its_schema(first_run, league_dir):
    schema = json.loads((ROOT / "schemas" / "league.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    errors = list(Draft202012Validator(schema).iter_errors(league_document(first_run.league)))
    assert errors == []


def test_series_points_by_place(first_run):
    # B: 1 star, 10 players; A: 2 stars, 10 players — each player's two events counted (best_n 0)
    series = {p.entry.player: p.entry for p in first_run.league.series}
    assert all(entry.events == 2 for entry in series.values())
    assert first_run.league.series[0].place == 1


# -- incremental --------------------------------------------------------------------------------------------
def test_only_a_changed_workbook_is_read_again(tmp_path):
    toml = make_league(tmp_path)
    assert sorted(run_league(toml, out=tmp_path / "out").league.read_again) == ["a.xlsx", "b.xlsx"]
    assert run_league(toml, out=tmp_path / "out").league.read_again == ()
    write_tournament(tmp_path / "b.xlsx", [game([0, 1, 2], "black")], name="Турнир B", date="01.03.2020")
    again = run_league(toml, out=tmp_path / "out").league
    assert again.read_again == ("b.xlsx",)
    fresh = build_league(load_league(toml), cache=None)
    assert again.ratings.players == fresh.ratings.players
    assert league_json(again) == league_json(fresh)


def test_a_game_that_moves_replays_from_there(tmp_path):
    """A date corrected weeks later puts A's games after B's: the cached run equals a full replay."""
    toml = make_league(tmp_path)
    before = run_league(toml, out=tmp_path / "out").league
    write_tournament(tmp_path / "a.xlsx", A_GAMES, name="Турнир A", date="05.04.2020")
    after = run_league(toml, out=tmp_path / "out").league
    assert after.read_again == ("a.xlsx",)
    assert [g.game.id for g in after.ratings.history][0] == "b.xlsx#Тур 1 Стол 1"
    assert after.ratings.players == build_league(load_league(toml), cache=None).ratings.players
    assert after.ratings.players != before.ratings.players


# -- starting ratings typed on the Players tab --------------------------------------------------------------
def test_starting_ratings_typed_on_the_players_tab(tmp_path):
    """Игрок 0 starts at 1100 (red 1050, black 1040) typed in A; B types 1500 for him again, which
    changes nothing: a start is typed once, the first event's counts."""
    toml = make_league(tmp_path)
    type_starts(tmp_path / "a.xlsx", {0: (1100, 1050, 1040)})
    type_starts(tmp_path / "b.xlsx", {0: (1500, None, None)})
    league = run_league(toml, out=tmp_path / "out").league
    scheme = league.scheme
    p1 = 1 / (1 + 10 ** ((0.0 - 50 / 7) / 400))  # game 1: the reds' mean red is 50 / 7, the blacks' 0
    g1 = 16 * (1 - p1)
    assert league.ratings.history[0].p_red == pytest.approx(p1, rel=1e-12)
    first = league.ratings.changes_of("Игрок 0")[0][1]
    assert first == pytest.approx(g1, rel=1e-12)
    total = 100.0 + sum(change for _, change in league.ratings.changes_of("Игрок 0"))
    assert league.ratings.players["Игрок 0"].overall == pytest.approx(total, rel=1e-12)
    curve = league_document(league)["players"]["Игрок 0"]["curve"]
    assert curve[-1]["rating"] == float(scheme.shown(league.ratings.players["Игрок 0"].overall))


def test_a_starting_rating_that_is_not_a_number_names_its_cell(tmp_path):
    toml = make_league(tmp_path)
    type_starts(tmp_path / "a.xlsx", {3: ("много", None, None)})
    with pytest.raises(SheetsSyncError, match=r"Игроки!F5: a starting rating must be a number"):
        run_league(toml, out=tmp_path / "out")


def test_one_player_across_workbooks_however_his_name_is_cased(tmp_path):
    """B spells nine players in capitals and one in lower case with a doubled space: the league
    compares names as a workbook does (case, ё/е, look-alikes, spaces), spelt as first played."""
    toml = make_league(tmp_path)
    write_tournament(tmp_path / "b.xlsx", B_GAMES, name="Турнир B", date="01.03.2020",
                     names=[n.upper() for n in PLAYERS[:9]] + ["игрок  9"])
    league = run_league(toml, out=tmp_path / "out").league
    assert sorted(league.ratings.players) == sorted(PLAYERS)
    for player, expected in hand_ratings().items():
        assert league.ratings.players[player].overall == pytest.approx(expected, rel=1e-12, abs=1e-12)


def test_a_workbook_that_cannot_be_read_names_its_event(tmp_path):
    toml = make_league(tmp_path)
    (tmp_path / "b.xlsx").unlink()
    with pytest.raises(LeagueFileError, match=r"league.toml: event\[2\]\.workbook \(b\.xlsx\)"):
        run_league(toml, out=tmp_path / "out")


# -- the league file --------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, expected", [
    ('[[event]]\nkind = "club"\n', "event[1].workbook: missing"),
    ('[[event]]\nworkbook = "a.xlsx"\nkind = "friendly"\n', "event[1].kind: 'friendly' is not one of"),
    ('[[event]]\nworkbook = "a.xlsx"\n[[event]]\nworkbook = "a.xlsx"\n', "event[2].workbook: a.xlsx is listed twice"),
    ('series = "mwt-series"\n[[event]]\nworkbook = "a.xlsx"\n', "event[1].stars: missing"),
    ('[[event]]\nworkbook = "a.xlsx"\nstars = 0\n', "event[1].stars: must be a whole number from 1"),
    ('best_n = -1\n[[event]]\nworkbook = "a.xlsx"\n', "best_n: must be a whole number"),
    ('language = "de"\n[[event]]\nworkbook = "a.xlsx"\n', "language: 'de' is not ru or en"),
    ('colour = "red"\n[[event]]\nworkbook = "a.xlsx"\n', "colour: unknown key"),
    ('[[event]]\nworkbook = "a.xlsx"\nwhen = 1\n', "event[1].when: unknown key"),
    ('name = "x"\n', "event: at least one [[event]]"),
])
def test_league_file_errors_name_the_key(tmp_path, text, expected):
    path = tmp_path / "league.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LeagueFileError) as error:
        load_league(path)
    assert any(e.startswith(expected) for e in error.value.errors), error.value.errors
    assert str(error.value).startswith("league.toml: ")


def test_a_tab_the_league_did_not_write_is_never_overwritten(tmp_path):
    toml = make_league(tmp_path)
    typed = TabWrite(title="Рейтинг", rows=(("typed by a person",),), owned=False)
    ExcelBackend(tmp_path / "rating.xlsx").apply(Patch(writes=(typed,)), base=None)
    with pytest.raises(LeagueOutputRefused, match="Рейтинг"):
        run_league(toml, out=tmp_path / "out")
    assert ExcelBackend(tmp_path / "rating.xlsx").read().tabs["Рейтинг"] == (("typed by a person",),)


def test_the_cli_prints_what_it_did(league_dir, first_run):
    from click.testing import CliRunner

    from sheets_sync.cli import main

    result = CliRunner().invoke(main, ["league", str(league_dir / "league.toml"), "--out", str(league_dir / "out")])
    assert result.exit_code == 0, result.output
    assert "прочитано заново: 0" in result.output and "Рейтинг, Серия" in result.output


# -- properties -------------------------------------------------------------------------------------------
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(order=st.permutations([0, 1]))
def test_reordering_events_changes_nothing(first_run, league_dir, order):
    events = [e for e in LEAGUE_TOML.split("[[event]]")[1:]]
    head = LEAGUE_TOML.split("[[event]]")[0]
    import tomllib

    reordered = tomllib.loads(head + "".join("[[event]]" + events[i] for i in order))
    file = parse_league(reordered, source="league.toml", base_dir=league_dir)
    assert league_json(build_league(file, cache=league_dir / "out" / ".league-cache")) == league_json(first_run.league)


_players = st.lists(st.sampled_from([f"p{i}" for i in range(14)]), min_size=10, max_size=10, unique=True)


@st.composite
def rated_games(draw):
    games = []
    for i in range(draw(st.integers(1, 25))):
        seats = draw(_players)
        blacks = set(draw(st.lists(st.integers(0, 9), min_size=3, max_size=3, unique=True)))
        games.append(RatedGame(id=i, order=draw(st.integers(0, 5)), kind=draw(st.sampled_from(["club", "tournament", "elite"])),
                               seats=tuple(Seat(p, BLACK if j in blacks else RED) for j, p in enumerate(seats)),
                               winner=draw(st.sampled_from([RED, BLACK]))))
    return games


@settings(max_examples=60, deadline=None)
@given(games=rated_games())
def test_a_rating_is_the_start_plus_the_sum_of_its_changes(games):
    scheme = load_rating_scheme("mafiaratings-2025")
    ratings = replay(games, scheme)
    for player, rating in ratings.players.items():
        total = scheme.start_overall
        for _, change in ratings.changes_of(player):
            total += change
        assert rating.overall == pytest.approx(total, abs=1e-9)


# -- golden files -----------------------------------------------------------------------------------------
def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}: run with UPDATE_GOLDEN=1 and review the diff"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs; if intended, regenerate with UPDATE_GOLDEN=1"


@pytest.mark.parametrize("page", ["index.html", "events.html", "series.html", player_file("Игрок 7")])
def test_golden_pages(first_run, page):
    check_golden(f"site/{page}", league_site_files(first_run.league)[page])


def test_golden_league_json(first_run):
    check_golden("league.json", league_json(first_run.league))


def test_every_page_written(first_run, league_dir):
    site = league_dir / "out" / "site"
    assert (site / "style.css").read_text(encoding="utf-8") == (ROOT / "templates" / "site" / "style.css").read_text(
        encoding="utf-8")
    for player in PLAYERS:
        assert player in (site / player_file(player)).read_text(encoding="utf-8")


def test_each_event_shows_the_rating_before_and_after(first_run):
    """Игрок 7 before A: 1000 (the start); after A: 1000 − 6 + 16·p2; B's before is A's after."""
    scheme = first_run.league.scheme
    events = league_document(first_run.league)["players"]["Игрок 7"]["events"]
    p2 = 1 / (1 + 10 ** ((-6 - 8) / 400))
    assert events[0]["rating_before"] == 1000
    assert events[0]["rating_after"] == float(scheme.shown(-6 + 16 * p2))
    assert events[1]["rating_before"] == events[0]["rating_after"]
    assert events[1]["rating_after"] == float(scheme.shown(hand_ratings()["Игрок 7"]))
