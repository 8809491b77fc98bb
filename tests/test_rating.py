"""The player rating (issue 36): the mafiaratings.com formula since 2025, a club's stepped MMR as
a scheme file, and MWT series points.

Worked games by hand (high-precision decimal arithmetic written out in the docstrings), tables of
rules, Hypothesis properties of the replay, the scheme files' checks, and a golden history of a
seeded season that pins the floating point bit for bit.
"""

from __future__ import annotations

import copy
import math
import os
import random
import tomllib
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rating import (BLACK, RED, EventResult, RatedGame, RatingInputError, RatingScheme, RatingSchemeError,
                            Seat, SeriesEvent, SeriesScheme, StartRating, replay, series_points, series_standings)
from sheets_sync.league.ratings import RATINGS_DIR, known_schemes, load_rating_scheme, load_series_scheme, read_scheme_dict
from tests.helpers import examples

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
MR = load_rating_scheme("mafiaratings-2025")
MMR = load_rating_scheme("andrsj-mmr")
MWT = load_series_scheme("mwt-series")


def game(id_, reds, blacks, winner, *, kind="club", order=0, event=""):
    seats = tuple(Seat(p, RED) for p in reds) + tuple(Seat(p, BLACK) for p in blacks)
    return RatedGame(id_, order, kind, seats, winner, event=event)


REDS = [f"R{i}" for i in range(1, 8)]
BLACKS = ["B1", "B2", "B3"]


# -- the shipped scheme is the issue's formula ---------------------------------------------------
def test_the_mafiaratings_scheme_holds_the_issue_numbers():
    assert MR.kind == "elo-sides" and (MR.base, MR.scale) == (10.0, 400.0)
    assert {k: (v.win, v.loss) for k, v in MR.k.items()} == {"club": (4, 3), "tournament": (16, 12), "elite": (64, 48)}
    assert (MR.full_field, MR.small_field_factor) == (10, 0.5)
    assert (MR.start_overall, MR.start_red, MR.start_black, MR.offset) == (0, 0, 0, 1000)
    assert MR.min_games == 1
    assert set(known_schemes()) >= {"mafiaratings-2025", "andrsj-mmr", "mwt-series"}


# -- a worked game ---------------------------------------------------------------------------------
def test_a_tournament_game_worked_by_hand_to_12_digits():
    """Red side ratings typed in as shown 1010 … 1070 (internal 10 … 70), black 1100, 1110, 1120.

    mean red = 280 / 7 = 40;  mean black = 330 / 3 = 110;  (110 − 40) / 400 = 0.175
    10^0.175 = e^(0.175 · ln 10) = e^(0.175 · 2.302585092994045684) = e^0.402952391273957995
             = 1.496235656094433412
    p_red = 1 / (1 + 1.496235656094433412) = 0.400603203290743185;  1 − p_red = 0.599396796709256815
    a red win in a tournament (K_win 16, K_loss 12):
      each red   + 16 · 0.599396796709256815 = +9.590348747348109043
      each black − 12 · 0.599396796709256815 = −7.192761560511081782
    sum of the ten changes = 7 · 9.590348747348109043 − 3 · 7.192761560511081782 = 45.554156549903517953
    """
    start = {f"R{i}": StartRating(red=1000 + 10 * i) for i in range(1, 8)}
    start |= {b: StartRating(black=1100 + 10 * i) for i, b in enumerate(BLACKS)}
    ratings = replay([game(1, REDS, BLACKS, RED, kind="tournament")], MR, start)
    (change,) = ratings.history
    assert abs(change.p_red - 0.400603203290743185) < 1e-12
    assert abs(change.red - 9.590348747348109043) < 1e-12
    assert abs(change.black - -7.192761560511081782) < 1e-12
    assert abs(sum(change.changes) - 45.554156549903517953) < 1e-12
    assert (change.k_win, change.k_loss) == (16, 12)
    r1, b1 = ratings.players["R1"], ratings.players["B1"]
    assert r1.red == 10 + change.red and r1.black == 0 and r1.overall == change.red  # the side played moves
    assert b1.black == 100 + change.black and b1.red == 0 and b1.overall == change.black
    assert MR.shown(r1.red) == Decimal(1020) and MR.shown(b1.black) == Decimal(1093)  # 1019.59…, 1092.81…
    assert MR.shown_change(change.red) == Decimal("9.59")
    assert (r1.games, r1.red_games, r1.black_games, r1.wins, b1.wins) == (1, 1, 0, 1, 0)


# -- the rules, table-driven: equal ratings give p_red = 1/2 exactly -----------------------------
@pytest.mark.parametrize(("kind", "players", "winner", "to_red", "to_black"), [
    ("club", 10, RED, 2.0, -1.5),  # K 4 / 3: 4·½, −3·½
    ("club", 10, BLACK, -1.5, 2.0),
    ("tournament", 10, RED, 8.0, -6.0),  # K 16 / 12
    ("tournament", 10, BLACK, -6.0, 8.0),
    ("elite", 10, RED, 32.0, -24.0),  # K 64 / 48
    ("elite", 10, BLACK, -24.0, 32.0),
    ("club", 9, RED, 1.0, -0.75),  # fewer than ten players: K halved, 2 / 1.5
    ("tournament", 9, BLACK, -3.0, 4.0),  # 8 / 6
    ("elite", 8, RED, 16.0, -12.0),  # 32 / 24
])
def test_changes_by_game_kind_field_and_winner(kind, players, winner, to_red, to_black):
    reds = REDS[:players - 3]
    ratings = replay([game(7, reds, BLACKS, winner, kind=kind)], MR)
    (change,) = ratings.history
    assert change.p_red == 0.5
    assert (change.red, change.black) == (to_red, to_black)
    assert all(ratings.players[p].overall == to_red for p in reds)
    assert all(ratings.players[p].black == to_black for p in BLACKS)


def test_a_black_win_against_stronger_reds_gains_more_than_half_k():
    """Reds' red side 1100 each, blacks' black side 1000: (0 − 100) / 400 = −0.25;
    10^−0.25 = e^(−0.25 · ln 10) = 0.562341325190349080; p_red = 1 / 1.562341325190349080
    = 0.640064999802885081; a black club win: each black + 4 · 0.640064999802885081 =
    +2.560259999211540323, each red − 3 · 0.640064999802885081 = −1.920194999408655242."""
    start = {p: StartRating(red=1100) for p in REDS}
    (change,) = replay([game(1, REDS, BLACKS, BLACK)], MR, start).history
    assert abs(change.p_red - 0.640064999802885081) < 1e-12
    assert abs(change.black - 2.560259999211540323) < 1e-12
    assert abs(change.red - -1.920194999408655242) < 1e-12


def test_the_means_add_in_the_order_of_the_seats():
    """Float addition is not associative: these seven red ratings summed from R1 to R7 and from
    R7 to R1 give means one bit apart, and p_red follows.  The replay adds in seat order, as the
    reference adds in the order of its rows (docs/decisions.md)."""
    typed = [1296.272, 1192.014, 1103.797, 1022.522, 1180.568, 1231.601, 1215.704]
    start = {p: StartRating(red=v) for p, v in zip(REDS, typed)}
    forward = replay([game(1, REDS, BLACKS, RED)], MR, start).history[0]
    backward = replay([game(1, REDS[::-1], BLACKS, RED)], MR, start).history[0]
    for change, order in ((forward, REDS), (backward, REDS[::-1])):
        total = 0.0
        for p in order:
            total += MR.internal(typed[REDS.index(p)])
        assert change.p_red == 1.0 / (1.0 + 10.0 ** ((0.0 - total / 7) / 400.0))
    assert forward.p_red != backward.p_red and abs(forward.p_red - backward.p_red) < 1e-15


def test_no_floor_a_rating_goes_below_zero_internally_and_below_1000_shown():
    ratings = replay([game(i, REDS, BLACKS, RED, order=i) for i in range(1, 4)], MR)
    assert ratings.players["B1"].overall < 0 and MR.shown(ratings.players["B1"].overall) < 1000


# -- the played order ------------------------------------------------------------------------------
def test_games_are_rated_by_end_time_then_id_whatever_the_input_order():
    """Game 5 ended first; games 2 and 3 ended at the same time, so 2 is rated before 3.  A chain
    (each game's p depends on the one before) makes the order visible."""
    a = game(3, REDS, BLACKS, BLACK, order=20)
    b = game(2, REDS, BLACKS, RED, order=20)
    c = game(5, REDS, BLACKS, RED, order=10)
    ratings = replay([a, b, c], MR)
    assert [g.game.id for g in ratings.history] == [5, 2, 3]
    assert replay([c, a, b], MR) == replay([b, c, a], MR) == ratings


# -- Hypothesis -------------------------------------------------------------------------------------
POOL = [f"P{i:02d}" for i in range(14)]


@st.composite
def rated_games(draw, max_games=12):
    count = draw(st.integers(1, max_games))
    games = []
    for i in range(count):
        size = draw(st.integers(6, 10))
        seated = draw(st.permutations(POOL))[:size]
        blacks = draw(st.integers(1, 3))
        games.append(RatedGame(draw(st.integers(0, 10 ** 6)) * 100 + i, draw(st.integers(0, 5)),
                               draw(st.sampled_from(["club", "tournament", "elite"])),
                               tuple(Seat(p, BLACK if j < blacks else RED) for j, p in enumerate(seated)),
                               draw(st.sampled_from([RED, BLACK]))))
    return games


starts = st.dictionaries(st.sampled_from(POOL), st.builds(
    StartRating, st.none() | st.integers(800, 1300), st.none() | st.integers(800, 1300),
    st.none() | st.integers(800, 1300)), max_size=6)


@settings(max_examples=examples(60), deadline=None)
@given(rated_games(), starts)
def test_the_sum_of_a_games_changes_is_the_formulas(games, start):
    """Red win: n_red·K_win·(1 − p) − n_black·K_loss·(1 − p); black win: n_black·K_win·p − n_red·K_loss·p
    (with ten players: 7·K_win·(1 − p) − 3·K_loss·(1 − p))."""
    for change in replay(games, MR, start).history:
        g, p = change.game, change.p_red
        k = MR.k_for(g.kind, len(g.seats))
        nr, nb = len(g.reds), len(g.blacks)
        expected = (nr * k.win * (1 - p) - nb * k.loss * (1 - p) if g.winner == RED
                    else nb * k.win * p - nr * k.loss * p)
        assert math.isclose(math.fsum(change.changes), expected, rel_tol=1e-12, abs_tol=1e-12)
        assert (change.k_win, change.k_loss) == (k.win, k.loss)


@pytest.mark.parametrize("scheme", [MR, MMR], ids=["mafiaratings", "stepped"])
@settings(max_examples=examples(40), deadline=None)
@given(games=rated_games(), start=starts, rnd=st.randoms(use_true_random=False))
def test_the_input_order_never_matters(scheme, games, start, rnd):
    shuffled = list(games)
    rnd.shuffle(shuffled)
    assert replay(shuffled, scheme, start) == replay(games, scheme, start)


@pytest.mark.parametrize("scheme", [MR, MMR], ids=["mafiaratings", "stepped"])
@settings(max_examples=examples(40), deadline=None)
@given(games=rated_games(), start=starts)
def test_a_rating_is_its_start_plus_its_changes_in_the_played_order(scheme, games, start):
    ratings = replay(games, scheme, start)
    for player, rating in ratings.players.items():
        typed = start.get(player, StartRating())
        overall = scheme.internal(typed.overall) if typed.overall is not None else scheme.start_overall
        red = scheme.internal(typed.red) if typed.red is not None else scheme.start_red
        black = scheme.internal(typed.black) if typed.black is not None else scheme.start_black
        for change, amount in ratings.changes_of(player):
            overall += amount  # one float addition after another, as the reference stores them
            if player in change.game.reds:
                red += amount
            else:
                black += amount
        assert (rating.overall, rating.red, rating.black) == (overall, red, black)
        assert rating.games == len(ratings.changes_of(player)) == rating.red_games + rating.black_games


def _as_the_reference_queries_it(games, scheme):
    """The reference's own bookkeeping, written plainly: a row per player and game with his
    rating and side rating before it and what it earned; before a game, a player's side rating
    is ``side rating before + earned`` of his last earlier game on that side, and his rating
    that of his last earlier game (of any side); 0 before the first."""
    rows = []  # (game position, player, side, rating_before, role_rating_before, earned)
    for position, g in enumerate(sorted(games, key=lambda g: (g.order, g.id))):
        def last(player, side=None):
            mine = [r for r in rows if r[1] == player and (side is None or r[2] == side)]
            return mine[-1][4 if side else 3] + mine[-1][5] if mine else 0.0
        before = {s.player: (last(s.player), last(s.player, s.side)) for s in g.seats}
        civ = [before[p][1] for p in g.reds]
        maf = [before[p][1] for p in g.blacks]
        civ_sum, maf_sum = 0.0, 0.0
        for v in civ:
            civ_sum += v
        for v in maf:
            maf_sum += v
        civ_odds = 1.0 / (1.0 + pow(10.0, (maf_sum / len(maf) - civ_sum / len(civ)) / 400))
        k = scheme.k_for(g.kind, len(g.seats))
        for s in g.seats:
            won = s.side == g.winner
            if s.side == RED:
                earned = k.win * (1 - civ_odds) if won else - k.loss * civ_odds
            else:
                earned = k.win * civ_odds if won else k.loss * (civ_odds - 1)
            rows.append((position, s.player, s.side, *before[s.player], earned))
    return rows


@settings(max_examples=examples(60), deadline=None)
@given(rated_games())
def test_replay_equals_the_references_bookkeeping_bit_for_bit(games):
    ratings = replay(games, MR)
    rows = _as_the_reference_queries_it(games, MR)
    for player, rating in ratings.players.items():
        mine = [r for r in rows if r[1] == player]
        last_on = {side: [r for r in mine if r[2] == side] for side in (RED, BLACK)}
        assert rating.overall == mine[-1][3] + mine[-1][5]
        for side, value in ((RED, rating.red), (BLACK, rating.black)):
            assert value == (last_on[side][-1][4] + last_on[side][-1][5] if last_on[side] else 0.0)
    assert [c for g in ratings.history for c in g.changes] == [r[5] for r in rows]


# -- what is shown -----------------------------------------------------------------------------------
def test_listing_last_game_and_event_changes():
    evening1 = [game(1, REDS, BLACKS, RED, order=1, event="ev1"), game(2, REDS, BLACKS, BLACK, order=2, event="ev1")]
    evening2 = [game(3, REDS[1:] + ["X"], BLACKS, RED, order=3, event="ev2")]
    scheme = RatingScheme.from_dict(read_scheme_dict("mafiaratings-2025")[0] | {"listing": {"min_games": 2}})
    ratings = replay(evening1 + evening2, scheme)
    r2 = [c for _, c in ratings.changes_of("R2")]
    assert ratings.last_change("R2") == r2[-1] and ratings.last_change("nobody") is None
    assert ratings.event_change("R2", "ev1") == r2[0] + r2[1] and ratings.event_change("R1", "ev2") == 0
    assert ratings.event_changes("ev2") == {p: ratings.history[2].change(p) for p in REDS[1:] + ["X"] + BLACKS}
    assert ratings.last_changes() == {p: ratings.last_change(p) for p in ratings.players}
    listed = ratings.listed()
    assert "X" not in {p.entry.player for p in listed}
    assert [(p.player, need) for p, need in ratings.unlisted()] == [("X", 1)]
    # R2…R7 played the same three games: they share places 1–6; R1 (two games) comes after them
    assert [p.places for p in listed[:6]] == ["1–6"] * 6 and [p.entry.player for p in listed[:6]] == REDS[1:]
    assert listed[6].entry.player == "R1" and listed[6].place == 7


@pytest.mark.parametrize(("rating", "shown"), [(23.5, "1024"), (23.49, "1023"), (-0.5, "1000"), (-1.5, "999"), (-1.51, "998")])
def test_a_rating_is_rounded_for_display_only(rating, shown):
    assert MR.shown(rating) == Decimal(shown)  # half up: offset + rating, as the reference adds it


# -- mistakes in the games -----------------------------------------------------------------------------
@pytest.mark.parametrize(("make", "message"), [
    (lambda: game(1, REDS[:6] + ["B1"], BLACKS, RED), "B1 seated more than once"),
    (lambda: game(1, REDS, [], RED), "needs both a red and a black team"),
    (lambda: game(1, REDS, BLACKS, "mafia"), "the winner must be red or black"),
    (lambda: RatedGame(1, 0, "club", (Seat("A", "sheriff"), Seat("B", BLACK)), RED), "A plays 'sheriff'"),
])
def test_a_game_that_cannot_be_rated_is_named(make, message):
    with pytest.raises(RatingInputError, match=message):
        make()


def test_an_unknown_kind_and_a_duplicate_id_are_named():
    with pytest.raises(RatingInputError, match="game 4: the scheme mafiaratings-2025 has no game kind 'cup'"):
        replay([game(4, REDS, BLACKS, RED, kind="cup")], MR)
    with pytest.raises(RatingInputError, match="game 1 is listed twice"):
        replay([game(1, REDS, BLACKS, RED), game(1, REDS, BLACKS, BLACK, order=5)], MR)


# -- scheme files: strict, every problem at once, with its place ------------------------------------------
def _mr() -> dict:
    return copy.deepcopy(read_scheme_dict("mafiaratings-2025")[0])


@pytest.mark.parametrize(("edit", "problems"), [
    (lambda d: d["elo"].update(scael=400), ["elo.scael: unknown key"]),
    (lambda d: d.update(colour="red"), ["colour: unknown key"]),
    (lambda d: d["elo"]["k"]["club"].pop("loss"), ["elo.k.club.loss: missing"]),
    (lambda d: d["elo"]["k"]["elite"].update(win=-1), ["elo.k.elite.win: -1 is below the minimum 0"]),
    (lambda d: d["elo"].update(scale=0), ["elo.scale: 0 must be more than 0"]),
    (lambda d: d["listing"].update(min_games=1.5), ["listing.min_games: must be a whole number, not 1.5"]),
    (lambda d: d.update(kind="glicko"), ["kind: 'glicko' is not a kind of rating scheme (one of: elo-sides, stepped)"]),
    (lambda d: (d["start"].update(red=True), d["display"].update(offest=1)),
     ["display.offest: unknown key", "start.red: must be a number, not True"]),
    (lambda d: d.update(bands=[{"win": 1, "loss": -1}]), ["bands: belongs to a stepped scheme, not to an elo-sides one"]),
])
def test_a_scheme_file_error_names_its_key(edit, problems):
    data = _mr()
    edit(data)
    with pytest.raises(RatingSchemeError) as raised:
        RatingScheme.from_dict(data, source="club.toml")
    assert list(raised.value.errors) == problems
    assert str(raised.value).startswith(f"club.toml: {problems[0]}")


def test_stepped_bands_are_checked():
    data = copy.deepcopy(read_scheme_dict("andrsj-mmr")[0])
    data["bands"][0]["from"] = 0
    data["bands"][2]["from"] = 1600  # below the band before it (1650)
    data["bands"][3]["loss"] = 2
    with pytest.raises(RatingSchemeError) as raised:
        RatingScheme.from_dict(data, source="mmr.toml")
    assert list(raised.value.errors) == [
        "bands[0].from: the first band covers every rating below the second: leave `from` out",
        "bands[2].from: 1600 must be above the previous band's 1650",
        "bands[3].loss: 2 is above the maximum 0"]


def test_every_shipped_scheme_loads_and_is_shipped_in_the_wheel():
    for ref in known_schemes():
        data, _ = read_scheme_dict(ref)
        (SeriesScheme if "points" in data else RatingScheme).from_dict(data, source=ref)
    with open(ROOT / "pyproject.toml", "rb") as fh:
        tool = tomllib.load(fh)["tool"]["setuptools"]
    assert "sheets_sync.config.ratings" in tool["packages"]
    assert tool["package-data"]["sheets_sync.config.ratings"] == ["*.toml"]
    assert RATINGS_DIR == ROOT / "config" / "ratings"


# -- a club's own formula is a scheme file: andrsj's stepped MMR ---------------------------------------------
@pytest.mark.parametrize(("before", "won", "change"), [
    (1000, True, 9), (1000, False, -6), (1600, True, 9), (1649, True, 9), (1650, True, 8), (1699, False, -6),
    (1700, False, -7), (1799, True, 6), (1800, False, -8), (1999, True, 2), (2000, True, 1), (2450, False, -14),
    (2500, False, -15), (3100, True, 1), (3100, False, -15),
])
def test_the_stepped_mmr_scheme_file(before, won, change):
    """+9 / −6 up to 1600; a win one less per 50 over 1600 (at least 1), a loss one more per 100
    over 1600 (at most 15) — the band of the MMR before the game."""
    start = {"A": StartRating(overall=before)}
    a_side = RED if won else BLACK
    reds, blacks = (["A"] + REDS[:6], BLACKS) if a_side == RED else (REDS, ["A"] + BLACKS[:2])
    ratings = replay([game(1, reds, blacks, RED)], MMR, start)
    assert ratings.history[0].change("A") == change
    a = ratings.players["A"]
    assert a.overall == before + change
    assert (a.red if a_side == RED else a.black) == 1000 + change  # side ratings move from the scheme's start


def test_a_stepped_season_steps_down_as_the_mmr_climbs():
    """From 1640: win +9 → 1649, win +9 → 1658, win +8 → 1666, loss −6 → 1660; 15 games to be listed."""
    results = [RED, RED, RED, BLACK]
    games = [game(i, ["A"] + REDS[:6], BLACKS, w, order=i) for i, w in enumerate(results)]
    ratings = replay(games, MMR, {"A": StartRating(overall=1640)})
    assert [c for _, c in ratings.changes_of("A")] == [9, 9, 8, -6]
    assert ratings.players["A"].overall == 1660 and MMR.shown(1660.0) == Decimal(1660)
    assert ratings.listed() == [] and ratings.unlisted()[0][1] == 11


# -- series: the MWT table ---------------------------------------------------------------------------------------
def test_the_mwt_row_for_three_stars_and_ten_players():
    assert [series_points(p, 3, 10, MWT.table) for p in range(1, 11)] == [27, 23, 20, 16, 14, 12, 10, 8, 5, 3]


@pytest.mark.parametrize(("place", "stars", "field", "points"), [
    (11, 3, 10, 3),  # past the row's end: its last value, the number of stars
    (40, 1, 10, 1),
    (1, 3, 9, 27),  # a field under 10 reads the 10-player row
    (1, 3, 19, 27),  # 19 // 10 − 1 = 0
    (1, 3, 20, 29),
    (1, 3, 155, 50),  # past the last row (150 players): the last row
    (1, 1, 155, 30),  # 1★ rows stop at 100 players
    (1, 9, 10, 36),  # more stars than the table: its top row (6★)
    (12, 4, 20, 4),
])
def test_mwt_points_are_clamped_at_every_index(place, stars, field, points):
    assert series_points(place, stars, field, MWT.table) == points


def test_every_mwt_row_ends_with_its_number_of_stars_and_never_rises():
    for stars, by_field in enumerate(MWT.table.rows, start=1):
        for row in by_field:
            assert row[-1] == stars and list(row) == sorted(row, reverse=True)
    assert MWT.best_n == 10 and MWT.tiebreaks == ("fewer_events", "win_rate")


def test_a_missing_row_of_the_table_is_rejected():
    data = copy.deepcopy(read_scheme_dict("mwt-series")[0])
    del data["points"]["stars"][3]  # 4★
    data["points"]["stars"][0]["rows"][2] = []
    with pytest.raises(RatingSchemeError) as raised:
        SeriesScheme.from_dict(data, source="mwt.toml")
    assert list(raised.value.errors) == [
        "points.stars[0].rows[2]: (30 players) must be a list of numbers, best place first",
        "points.stars: no row for 4★: the table must cover every number of stars from 1 to 6"]


def test_series_standings_best_events_and_ties():
    """Four 3★ tournaments of 10 players, the best 2 count.  A: 1st, 2nd, 10th → 27 + 23 = 50 (3
    dropped); B: 1st, 2nd → 50 from two events, ahead of A (fewer events); C: 3rd twice → 20 + 20
    = 40; D: 4th and 2nd → 16 + 23 = 39; E and F: 1st once each (27), one event each and the same
    win rate (6 of 10) → they share 5–6."""
    def ev(i, *results):
        return SeriesEvent(f"t{i}", 3, 10, tuple(EventResult(p, place, 10, wins) for p, place, wins in results))
    events = [ev(1, ("A", 1, 6), ("C", 3, 5), ("D", 4, 5)), ev(2, ("A", 2, 5), ("B", 1, 7), ("C", 3, 5)),
              ev(3, ("A", 10, 1), ("B", 2, 6), ("D", 2, 5), ("E", 1, 6)), ev(4, ("F", 1, 6))]
    placed = series_standings(events, 2, MWT.tiebreaks, MWT.table)
    table = [(p.places, p.entry.player, p.entry.points) for p in placed]
    assert table == [("1", "B", 50), ("2", "A", 50), ("3", "C", 40), ("4", "D", 39), ("5–6", "E", 27), ("5–6", "F", 27)]
    a = next(p.entry for p in placed if p.entry.player == "A")
    assert a.counted == (("t1", 27), ("t2", 23)) and a.dropped == (("t3", 3),) and (a.games, a.wins) == (30, 12)


def test_series_win_rate_breaks_a_tie_of_points_and_events():
    events = [SeriesEvent("t1", 2, 10, (EventResult("Б", 1, 10, 7), EventResult("А", 2, 10, 4))),
              SeriesEvent("t2", 2, 10, (EventResult("А", 1, 10, 8), EventResult("Б", 2, 10, 6)))]
    placed = series_standings(events, 10, ["fewer_events", "win_rate"], MWT.table)
    assert [(p.entry.player, p.entry.points, p.place) for p in placed] == [("Б", 36, 1), ("А", 36, 2)]  # 13/20 > 12/20
    assert [p.place for p in series_standings(events, 10, [], MWT.table)] == [1, 1]


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"missing golden file {path}: run with UPDATE_GOLDEN=1 and review the diff"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from its golden file (UPDATE_GOLDEN=1 if intended)"


# -- golden: a seeded season, bit for bit ---------------------------------------------------------------------------
def test_a_seeded_season_replays_to_its_golden_history():
    """200 games of 14 players; every change written with all 17 digits of the float, so a change
    of the arithmetic (a compensated sum, another rounding) shows here."""
    rng = random.Random(2025)
    pool = [f"Игрок {i:02d}" for i in range(14)]
    games = []
    for i in range(200):
        seated = rng.sample(pool, 9 if i % 7 == 6 else 10)
        kind = rng.choice(["club", "tournament", "elite"])
        games.append(game(i, seated[3:], seated[:3], rng.choice([RED, BLACK]), kind=kind, order=i // 3))
    ratings = replay(games, MR)
    lines = [f"{c.game.id} {c.game.kind} {c.game.winner} p_red={c.p_red!r} red={c.red!r} black={c.black!r}"
             for c in ratings.history]
    lines += [f"{p.places} {p.entry.player} {MR.shown(p.entry.overall)} overall={p.entry.overall!r} "
              f"red={p.entry.red!r} black={p.entry.black!r} games={p.entry.games}" for p in ratings.listed()]
    check_golden("rating/mafiaratings-season.txt", "\n".join(lines) + "\n")
