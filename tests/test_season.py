"""A club season's ratings (scoring.season), worked out by hand on model objects.

The season below is played under config/examples/club-season.toml (win: red 1, black 1.25;
loss 0; best move 0.25 / 0.5 / 1 for one / two / three blacks; extra points -0.5 … 1; removal
-0.5; ranked by the total from 4 games) and, for the average ranking, the same games with the
ranking switched to the average from 3 games.  Three evenings, five games:

    2026-12-05 game 1, red wins: sheriff Анна (extra 0.5), don Борис, mafia Вера Глеб; Дина, shot
               first, names the three blacks (best move 1)
    2026-12-05 game 2, black wins: don Анна, mafia Вера (extra 0.25) and Дина, sheriff Борис;
               Глеб removed (4 fouls, -0.5)
    2026-12-12 game 1, red wins: sheriff Лев (a guest added to Players after the first evening,
               extra 1), don Борис, mafia Вера Глеб
    2026-12-12 game 2, black wins: don Вера, mafia Анна Борис, sheriff Лев
    2026-12-19 game 1, red wins: sheriff Борис, don Вера, mafia Глеб Дина; Мира plays but is not
               on the Players tab (the rules make that an error at her cell; the season never
               counts her as a player)

        Анна   1.5  + 1.25 + 1    + 1.25              = 5     4 games
        Дина   2    + 1.25 + 1    + 0     + 0         = 4.25  5 games
        Егор   1    + 0    + 1    + 0     + 1         = 3     5 games (Жанна, Зоя, Иван the same)
        Вера   0    + 1.5  + 0    + 1.25  + 0         = 2.75
        Борис  0    + 0    + 0    + 1.25  + 1         = 2.25
        Глеб   0    - 0.5  + 0    + 0     + 0         = -0.5
        Кира   1    + 0                   + 1         = 2     3 games: one more to be ranked
        Лев                  2    + 0                 = 2     2 games: two more
"""

from __future__ import annotations

import dataclasses
import datetime
from decimal import Decimal as D
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.model import Player, Role
from scoring.preset import SeasonRule
from scoring.season import season
from scoring.standings import compute
from sheets_sync.presets import load_preset
from tests.helpers import ROOT, examples, protocol, tournament

PRESET, _ = load_preset(str(ROOT / "config" / "examples" / "club-season.toml"))
AVERAGE = dataclasses.replace(PRESET, season=SeasonRule(ranking="average", min_games=3))
FIRST = "Анна Борис Вера Глеб Дина Егор Жанна Зоя Иван Кира"
SECOND = "Анна Борис Вера Глеб Дина Егор Жанна Зоя Иван Лев"
THIRD = "Борис Вера Глеб Дина Егор Жанна Зоя Иван Кира Мира"
CLUB = FIRST.split() + ["Лев"]  # Мира has no Players row


def _game(date: str, number: int, players: str, roles: str, winner: str, **seats):
    p = protocol(players, roles, winner, stage="season", round_no=number, sheet=f"Вечер {date}", **seats)
    return dataclasses.replace(p, date=datetime.date.fromisoformat(date))


GAMES = (
    _game("2026-12-05", 1, FIRST, "шдммкккккк", "red", s1={"extra": "0.5"},
          s5={"killed_night": 1, "best_move": (2, 3, 4)}),
    _game("2026-12-05", 2, FIRST, "дшмкмккккк", "black", s3={"extra": "0.25"},
          s4={"fouls": 4, "removed": True, "removal_day": 1}),
    _game("2026-12-12", 1, SECOND, "кдммкккккш", "red", s10={"extra": "1"}),
    _game("2026-12-12", 2, SECOND, "ммдккккккш", "black"),
    _game("2026-12-19", 1, THIRD, "шдммкккккк", "red"),
)


def _season(games=GAMES, preset=PRESET):
    return season(compute(tournament([Player(nickname=n) for n in CLUB], games), preset, []))


def _table(entries):
    return [(e.player, e.standing.places, e.stats.total, e.stats.games, e.games_needed) for e in entries]


def test_worked_club_season():
    s = _season()
    assert _table(s.standings) == [
        ("Анна", "1", D(5), 4, 0), ("Дина", "2", D("4.25"), 5, 0),
        ("Егор", "3–6", D(3), 5, 0), ("Жанна", "3–6", D(3), 5, 0), ("Зоя", "3–6", D(3), 5, 0),
        ("Иван", "3–6", D(3), 5, 0),
        ("Вера", "7", D("2.75"), 5, 0), ("Борис", "8", D("2.25"), 5, 0), ("Глеб", "9", D("-0.5"), 5, 0)]
    # below the minimum: placed provisionally after the ranked, by the same key and chain (Кира's 2 wins
    # to Лев's 1)
    assert _table(s.below_minimum) == [("Кира", "10", D(2), 3, 1), ("Лев", "11", D(2), 2, 2)]
    assert [e.provisional for e in s.table] == [False] * 9 + [True, True]
    assert "Мира" not in s.players and all(e.stats.player != "Мира" for ev in s.evenings for e in ev.standings)
    assert [e.date for e in s.evenings] == ["2026-12-05", "2026-12-12", "2026-12-19"] and s.games == 5


def test_average_ranking_with_ties():
    """By the average from 3 games: Анна 5/4 = 1.25, Дина 4.25/5 = 0.85, Кира 2/3 = 0.67, Егор
    Жанна Зоя Иван 3/5 = 0.6 (wins equal: shared 4–7), Вера 0.55, Борис 0.45, Глеб -0.1; Лев (2
    games) needs one more."""
    s = _season(preset=AVERAGE)
    assert [(e.player, e.standing.places, e.average) for e in s.standings] == [
        ("Анна", "1", D("1.25")), ("Дина", "2", D("0.85")), ("Кира", "3", D("0.67")),
        ("Егор", "4–7", D("0.6")), ("Жанна", "4–7", D("0.6")), ("Зоя", "4–7", D("0.6")), ("Иван", "4–7", D("0.6")),
        ("Вера", "8", D("0.55")), ("Борис", "9", D("0.45")), ("Глеб", "10", D("-0.1"))]
    assert s.standings[2].exact_average == Fraction(2, 3)
    assert _table(s.below_minimum) == [("Лев", "11", D(2), 2, 1)]


def test_average_tie_broken_by_the_chain():
    """The first evening alone, averages from 2 games, Борис (the sheriff of the lost game 2) given 1
    extra point: Дина 3.25/2 = 1.625 → 1.63, Анна 1.38, Вера 0.75; Егор Жанна Зоя Иван Кира 1/2 with
    one win each share 4–8; Борис 1/2 with no win is below them by the chain's first metric (wins)."""
    second = dataclasses.replace(GAMES[1], seats=tuple(
        dataclasses.replace(r, extra_points=D(1)) if r.player == "Борис" else r for r in GAMES[1].seats))
    s = _season((GAMES[0], second), dataclasses.replace(AVERAGE, season=SeasonRule(ranking="average", min_games=2)))
    rows = [(e.player, e.standing.places, e.average, e.standing.tiebreak) for e in s.standings]
    assert rows == [("Дина", "1", D("1.63"), None), ("Анна", "2", D("1.38"), None), ("Вера", "3", D("0.75"), None),
                    *((name, "4–8", D("0.5"), "shared") for name in ("Егор", "Жанна", "Зоя", "Иван")),
                    ("Кира", "4–8", D("0.5"), "wins"), ("Борис", "9", D("0.5"), None), ("Глеб", "10", D("-0.25"), None)]


def test_evening_standings():
    first = _season().evening("2026-12-05")
    assert [(st.stats.player, st.places, st.stats.total) for st in first.standings] == [
        ("Дина", "1", D("3.25")), ("Анна", "2", D("2.75")), ("Вера", "3", D("1.5")),
        ("Егор", "4–8", D(1)), ("Жанна", "4–8", D(1)), ("Зоя", "4–8", D(1)), ("Иван", "4–8", D(1)),
        ("Кира", "4–8", D(1)), ("Борис", "9", D(0)), ("Глеб", "10", D("-0.5"))]
    assert [g.round for g in first.games] == [1, 2]


def test_player_history_roles_and_best_moves():
    s = _season()
    anna, dina, lev = s.players["Анна"], s.players["Дина"], s.players["Лев"]
    assert [(h.date, h.game, h.seat, h.role, h.won, h.points) for h in anna.history] == [
        ("2026-12-05", 1, 1, Role.SHERIFF, True, D("1.5")), ("2026-12-05", 2, 1, Role.DON, True, D("1.25")),
        ("2026-12-12", 1, 1, Role.CIVILIAN, True, D(1)), ("2026-12-12", 2, 1, Role.MAFIA, True, D("1.25"))]
    assert anna.after_evening == (("2026-12-05", D("2.75")), ("2026-12-12", D(5)))
    assert {r.role: (r.games, r.wins) for r in s.players["Вера"].roles} == {
        Role.SHERIFF: (0, 0), Role.CIVILIAN: (0, 0), Role.DON: (2, 1), Role.MAFIA: (3, 1)}
    assert [r.win_rate for r in s.players["Вера"].roles] == [None, None, Fraction(1, 2), Fraction(1, 3)]
    assert (dina.best_moves, dina.blacks_named, dina.best_move_accuracy) == (1, 3, 1)
    assert (anna.best_moves, anna.best_move_accuracy) == (0, None)
    assert [h.date for h in lev.history] == ["2026-12-12", "2026-12-12"]


def _view(s):
    return (_table(s.standings), _table(s.below_minimum),
            [(e.date, [(st.stats.player, st.places, st.stats.total) for st in e.standings]) for e in s.evenings],
            {name: (p.history, p.after_evening, p.roles) for name, p in s.players.items()},
            [(e.player, e.standing.places, e.movement, e.new, e.evenings, e.last_evening) for e in s.table],
            [(p.date, dict(p.shown), p.provisional) for p in s.race])


@settings(max_examples=examples(30), deadline=None)
@given(st.permutations(GAMES), st.sampled_from([PRESET, AVERAGE]))
def test_reordering_evenings_and_games_never_changes_the_season(order, preset):
    assert _view(_season(tuple(order), preset)) == _view(_season(GAMES, preset))


def test_a_penalty_as_typed_counts_and_the_chain_breaks_the_tie():
    """The judge types a penalty of -0.75 in Анна's row of the first game (the block's «Штраф»):
    5 - 0.75 = 4.25, level with Дина; Анна has 4 wins to Дина's 3, so she stays first by «wins»."""
    first = dataclasses.replace(GAMES[0], seats=tuple(
        dataclasses.replace(r, penalty=D("-0.75"), penalty_reason="телефон") if r.player == "Анна" else r
        for r in GAMES[0].seats))
    s = _season((first, *GAMES[1:]))
    assert [(e.player, e.standing.places, e.stats.total, e.standing.tiebreak) for e in s.standings[:2]] == [
        ("Анна", "1", D("4.25"), "wins"), ("Дина", "2", D("4.25"), None)]
    assert s.players["Анна"].history[0].points == D("0.75")


# -- the order from the first evening: provisional places, the same key and chain -----------------------
def _places(entries):
    return [(e.player, e.standing.places, e.provisional) for e in entries]


FIRST_EVENING_BY_TOTAL = [  # nobody has 4 games: everyone who played is provisional, in the order of the total
    ("Дина", "1", True), ("Анна", "2", True), ("Вера", "3", True),
    *((name, "4–8", True) for name in ("Егор", "Жанна", "Зоя", "Иван", "Кира")),
    ("Борис", "9", True), ("Глеб", "10", True), ("Лев", "", False)]  # Лев has not played: last, no place
# by the average from 3 games: Дина 3.25/2, Анна 2.75/2, Вера 1.5/2, the five of 1/2, Борис 0, Глеб -0.25
FIRST_EVENING_BY_AVERAGE = FIRST_EVENING_BY_TOTAL


@pytest.mark.parametrize(("games", "preset", "expected"), [
    (GAMES[:2], PRESET, FIRST_EVENING_BY_TOTAL),
    (GAMES[:2], AVERAGE, FIRST_EVENING_BY_AVERAGE),
    ((), PRESET, [(name, "", False) for name in sorted(CLUB)]),  # before the first evening: by name, no place
    # after two evenings by the total from 4 games: the seven with four games ranked, Лев and Кира provisional
    (GAMES[:4], PRESET, [("Анна", "1", False), ("Дина", "2", False), ("Вера", "3", False),
                         *((n, "4–7", False) for n in ("Егор", "Жанна", "Зоя", "Иван")),
                         ("Борис", "8", False), ("Глеб", "9", False), ("Лев", "10", True), ("Кира", "11", True)]),
], ids=["first-evening-total", "first-evening-average", "no-evening", "two-evenings"])
def test_one_order_from_the_first_evening(games, preset, expected):
    assert _places(_season(games, preset).table) == expected


def test_movement_attendance_and_the_last_evening():
    """Against the table after the second evening (see the cases above): Егор 4–7 → 3–6 (↑1), Вера 3 → 7
    (↓4), Лев 10 → 11, Кира 11 → 10; Анна did not come to the third evening (2 evenings, the last 12.12)."""
    s = _season()
    rows = {e.player: (e.movement, e.new, e.evenings, e.last_evening) for e in s.table}
    assert rows == {
        "Анна": (0, False, 2, "2026-12-12"), "Дина": (0, False, 3, "2026-12-19"),
        **{n: (1, False, 3, "2026-12-19") for n in ("Егор", "Жанна", "Зоя", "Иван")},
        "Вера": (-4, False, 3, "2026-12-19"), "Борис": (0, False, 3, "2026-12-19"), "Глеб": (0, False, 3, "2026-12-19"),
        "Кира": (1, False, 2, "2026-12-19"), "Лев": (-1, False, 1, "2026-12-12")}
    after_two = {e.player: (e.movement, e.new) for e in _season(GAMES[:4]).table}
    assert after_two["Лев"] == (None, True) and after_two["Анна"] == (1, False)  # Лев's first evening; Анна 2 → 1
    assert all(e.movement is None and not e.new for e in _season(GAMES[:2]).table)  # nothing to move from yet


def test_the_race_places_after_each_evening():
    s = _season()
    assert [p.date for p in s.race] == ["2026-12-05", "2026-12-12", "2026-12-19"]
    assert [p.shown.get("Анна") for p in s.race] == ["2", "1", "1"]
    assert [p.places.get("Лев") for p in s.race] == [None, 10, 11]
    assert [p.shown.get("Вера") for p in s.race] == ["3", "3", "7"]
    assert [sorted(p.provisional) for p in s.race][1] == ["Кира", "Лев"]
    assert s.race[-1].places == {e.player: e.standing.place for e in s.table if e.standing.place}


def _block(p, date: str, sheet: str, top: int, **changes):
    """``p`` as the block at row ``top`` (0-based) of an evening tab of ``date``."""
    return dataclasses.replace(p, date=datetime.date.fromisoformat(date), sheet=sheet, anchor=f"A{top + 1}",
                               rows=(top, top + 12), **changes)


NIGHT = "26.12.2026"
EVENING_OF_THREE = (  # one game counted, one with an error in its block, one without a winner yet
    _block(GAMES[4], "2026-12-26", NIGHT, 6, round=1),
    _block(GAMES[3], "2026-12-26", NIGHT, 19, round=2),
    _block(GAMES[2], "2026-12-26", NIGHT, 32, round=3, winner=None),
)
EMPTY_BLOCK = _block(GAMES[2], "2026-12-26", NIGHT, 45, round=4, winner=None,
                     seats=tuple(dataclasses.replace(r, player=None, role=None) for r in GAMES[2].seats))


@pytest.mark.parametrize(("errors", "expected"), [
    ((), (3, 2, 0, 1)),  # (typed, counted, with errors, unfinished)
    (("C22",), (3, 1, 1, 1)),
    (("C22", "C9"), (3, 0, 2, 1)),
    (("Z99",), (3, 2, 0, 1)),  # an error below every block points into no game
], ids=["one-unfinished", "one-error", "all-waiting", "error-elsewhere"])
def test_an_evening_says_where_it_stands(errors, expected):
    from scoring.model import Location
    from scoring.problems import Severity, problem

    found = [problem("protocol.not_finished", Severity.ERROR, Location(NIGHT, cell)) for cell in errors]
    t = tournament([Player(nickname=n) for n in CLUB], (*EVENING_OF_THREE, EMPTY_BLOCK))
    (evening,) = season(compute(t, PRESET, found)).evenings  # an evening without a counted game is still there
    assert (evening.typed, len(evening.games), evening.with_errors, evening.unfinished) == expected
    assert evening.waiting == expected[0] - expected[1]


@pytest.mark.parametrize("preset", [PRESET, AVERAGE], ids=["total", "average"])
def test_the_race_is_the_table_each_evening_would_have_made(preset):
    """Each point of the race is the season table of the games up to that evening, worked out alone."""
    s = _season(GAMES, preset)
    for point, upto in zip(s.race, (2, 4, 5)):
        alone = _season(GAMES[:upto], preset)
        assert dict(point.shown) == {e.player: e.standing.places for e in alone.table if e.standing.place}
        assert point.provisional == frozenset(e.player for e in alone.table if e.provisional)


def test_tied_and_not_yet_ranked_players_are_listed_in_russian_order():
    """The issue's names, typed in code point order, as five civilians of one red win: tied on the
    evening, and all still short of the games to be ranked (listed by the games still needed, then
    by name): Russian alphabetical order in both (scoring.collation.name_key)."""
    russian = ["Барон", "Ёжик", "Лёва", "ЛИС", "тихоня"]
    seated = "Шериф Дон Мафия1 Мафия2 Ёжик Барон ЛИС Лёва тихоня Мирный"
    game = _game("2026-12-05", 1, seated, "шдммкккккк", "red")
    s = season(compute(tournament([Player(nickname=n) for n in seated.split()], (game,)), PRESET, []))
    (evening,) = s.evenings
    tied = [st for st in evening.standings if st.stats.player in russian]
    assert len({st.places for st in tied}) == 1 and [st.stats.player for st in tied] == russian
    assert not s.standings
    assert [e.player for e in s.below_minimum if e.player in russian] == russian
