"""Who can still qualify: hand-worked cuts, the per-game bounds from the item registry, and the
property that replaying the real remaining games never contradicts a *through* or an *out*."""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Mapping
from decimal import Decimal as D
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.liveness import State, current_liveness, decide, game_bounds, liveness
from scoring.model import Protocol
from scoring.preset import Preset
from scoring.problems import Severity
from scoring.rules import validate
from scoring.simulate import simulate_game
from scoring.standings import compute
from tests.helpers import (
    examples,
    preset,
    preset_dict,
    protocol,
    seating_of,
    tournament,
)

T1 = "a b1 b2 b3 b4 b5 b6 c1 c2 c3".split()  # table 1: a and the b's are red, the c's black
T2 = "d1 d2 d3 d4 d5 d6 d7 e1 e2 e3".split()  # table 2: the d's are red, the e's black
T3 = "f1 f2 f3 f4 f5 f6 f7 g1 g2 g3".split()  # table 3 (when played): the f's are red, the g's black
ROLES = "шкккккккдмм"[:7] + "дмм"
LEADER = {"a"}
WINNERS = set(T1[1:7]) | set(T2[7:]) | set(T3[:7])
LOSERS = set(T1[7:]) | set(T2[:7]) | set(T3[7:])


def _variant(games: int, cut: int, missed: str = "0") -> Preset:
    data = copy.deepcopy(preset_dict("gmo-2016"))
    data["stages"][0]["games"] = games
    data["stages"][1]["players"] = cut
    data["stages"][2]["players"] = 10
    data["penalties"]["missed_round"] = D(missed)
    return Preset.from_dict(data, source="test")


def _played(games: int, rounds: int, cut: int, tables: int = 2):
    """``rounds`` of ``games`` played the same way: table 1 won by the reds (a with 0.7 extra
    points each time), table 2 by the blacks, table 3 (with ``tables`` = 3) by the reds; every
    round seated."""
    p = _variant(games, cut)
    protos = []
    seating = []
    for r in range(1, games + 1):
        games_of_round = [protocol(T1, ROLES, "red", round_no=r, table=1, s1={"extra": "0.7"}),
                          protocol(T2, ROLES, "black", round_no=r, table=2),
                          protocol(T3, ROLES, "red", round_no=r, table=3)][:tables]
        seating += [seating_of(g) for g in games_of_round]
        if r <= rounds:
            protos += games_of_round
    t = tournament((T1 + T2 + T3)[:10 * tables], protos, seating)
    return compute(t, p, validate(t, p))


def _groups(lv) -> tuple[str, str, str]:
    def one(group):
        found = {lv.state(x).value for x in group if x in lv.chances}
        assert len(found) == 1, found
        return found.pop()
    return one(LEADER), one(WINNERS), one(LOSERS)


F = D  # bounds are exact: Fractions compare equal to Decimals of the same value


# (low, high) of each player's final total, the cut's size, and the states a person works out
@pytest.mark.parametrize("bounds, size, expected", [
    # nothing left to play: the totals decide
    ({"a": (3, 3), "b": (2, 2), "c": (1, 1)}, 1, "through out out"),
    ({"a": (3, 3), "b": (2, 2), "c": (1, 1)}, 2, "through through out"),
    # a tie across the line stays open: b and c may share the second place
    ({"a": (3, 3), "b": (2, 2), "c": (2, 2)}, 2, "through open open"),
    # … unless both have played everything and the tiebreaks put b above c
    ({"a": (3, 3), "b": (2, 2), "c": (2, 2), "places": {"a": 1, "b": 2, "c": 3}}, 2, "through through out"),
    # b can still pass a, nobody can reach c
    ({"a": (3, 5), "b": (1, 4), "c": (0, 0.5)}, 1, "open open out"),
    ({"a": (3, 5), "b": (1, 4), "c": (0, 0.5)}, 2, "through through out"),
    # c's best equals b's worst: a tie is reaching
    ({"a": (3, 5), "b": (1, 4), "c": (0, 1)}, 2, "through open open"),
    # a cut as large as the field takes everybody
    ({"a": (3, 5), "b": (1, 4), "c": (0, 1)}, 3, "through through through"),
])
def test_hand_worked_decisions(bounds, size, expected):
    from scoring.liveness import decide

    places = bounds.pop("places", None)
    exact = {p: (F(str(lo)), F(str(hi))) for p, (lo, hi) in bounds.items()}
    assert " ".join(s.value for s in decide(exact, size, places).values()) == expected


# leader a: 1.7 a game; 9 other winners: 1; 10 losers: 0.  One game left: [0, +2.2] a game (no
# penalty is bounded), so after two rounds a ∈ [3.4, 5.6], winners ∈ [2, 4.2], losers ∈ [0, 2.2].
@pytest.mark.parametrize("games, rounds, cut, tables, expected", [
    (2, 2, 10, 2, ("through", "through", "out")),  # complete: the ten winners go on
    (3, 2, 10, 2, ("through", "open", "open")),  # only the 9 winners reach a's 3.4; a loser may still pass a winner
    (3, 2, 20, 2, ("through", "through", "through")),  # the cut takes everybody
    (3, 0, 10, 2, ("open", "open", "open")),  # nothing played yet
    # 16 winners and a at 2 or more, 13 losers at 0: alone each loser reaches 2 (a win, 0.7 extra
    # points and a best move 0.5), but a game has one best move: three tables, three losers at
    # most, 17 + 3 = 20 reach a winner's 2, so the winners are through to a cut of 20
    (3, 2, 20, 3, ("through", "through", "open")),
    # a cut of 10: the 16 winners can all pass a's 3.4 (a win each: 21 winners in three games)
    (3, 2, 10, 3, ("open", "open", "open")),
])
def test_hand_worked_cuts(games, rounds, cut, tables, expected):
    lv = liveness(_played(games, rounds, cut, tables), "semifinal")
    assert lv is not None and lv.after == "qualifying" and lv.size == cut
    assert _groups(lv) == expected


def test_bounds_are_the_hand_worked_numbers():
    lv = liveness(_played(3, 2, 10), "semifinal")
    a, b1, c1 = lv.chances["a"], lv.chances["b1"], lv.chances["c1"]
    assert (a.now, a.low, a.high, a.remaining) == (D("3.4"), D("3.4"), D("5.6"), 1)
    assert (b1.low, b1.high) == (D("2"), D("4.2"))
    assert (c1.low, c1.high) == (D("0"), D("2.2"))


# the lines of the cut of 10 after two of three rounds, from the others' bounds: for a winner
# the 10th best low is a loser's 0 and the 10th best high a loser's 2.2 (a and 8 other winners
# above); for a loser the 10th best low is a winner's 2, the 10th best high a winner's 4.2
@pytest.mark.parametrize("player, state, to_get_in, to_be_sure", [
    ("a", "through", None, None),
    ("b1", "open", D("0"), D("0.2")),  # he may stay in as he is; above 2.2 he is sure
    ("c1", "open", D("2"), None),  # a loser needs 2 to draw level; no total he can reach makes him sure
])
def test_points_to_the_cut_line(player, state, to_get_in, to_be_sure):
    chance = liveness(_played(3, 2, 10), "semifinal").chances[player]
    assert (chance.state.value, chance.to_get_in, chance.to_be_sure) == (state, to_get_in, to_be_sure)


def test_a_missed_round_penalty_is_left_out():
    """Absences and penalties are the players' own doing: the bounds assume none are to come."""
    results = _played(3, 2, 10)
    p = _variant(3, 10, missed="-2")
    t = results.tournament
    lv = liveness(compute(t, p, validate(t, p)), "semifinal")
    assert lv.chances["a"].low == D("3.4")
    assert lv.state("a") is State.THROUGH


def test_a_round_without_seating_is_a_game_for_everybody():
    results = _played(3, 2, 10)
    t = results.tournament
    t = type(t)(**{**{f: getattr(t, f) for f in ("name", "preset_id", "language", "players", "protocols", "penalties")},
                   "seating": tuple(e for e in t.seating if e.round <= 2)})
    p = results.preset
    lv = liveness(compute(t, p, validate(t, p)), "semifinal")
    assert {c.remaining for c in lv.chances.values()} == {1}


# (low, high, win, loss, best move): a loss without extras / win 1 + extra 0.7 + best move 0.5
# (3 blacks); a win and a loss without a best move; what a best move adds.  No removal: penalties
# are left out
@pytest.mark.parametrize("preset_id, expected", [
    ("gmo-2016", ("0", "2.2", "1.7", "0.7", "0.5")),
    ("fiim-2019", ("0", "2.1", "1.7", "0.7", "0.4")),  # best move 0.4 in 2019
    ("fiim-2023", ("0.3", "2.5", "2.0", "1.0", "0.5")),  # + automatic 0.3 every game
])
def test_game_bounds_follow_the_preset(preset_id, expected):
    b = game_bounds(preset(preset_id))
    assert (b.low, b.high, b.win, b.loss, b.best_move) == tuple(D(x) for x in expected)


def test_game_bounds_move_with_a_preset_value():
    data = copy.deepcopy(preset_dict("gmo-2016"))
    data["points"]["extra_max"] = D("1.5")
    assert game_bounds(Preset.from_dict(data, source="t")).high == D("3.0")


def test_no_liveness_before_anything_is_seated_or_after_the_next_stage_started():
    p = preset()
    assert current_liveness(compute(tournament([]), p, [])) is None


# -- the property ------------------------------------------------------------------------------
def _without_penalties(game: Protocol) -> Protocol:
    """The simulated game with its removal (a 4th foul) turned into a day vote on the same day:
    the bounds leave penalties out, so the games replayed against them have none."""
    seats = tuple(dataclasses.replace(s, removal=None, removal_day=None, voted_day=s.removal_day, fouls=3)
                  if s.removal is not None else s for s in game.seats)
    return dataclasses.replace(game, seats=seats)


def _game(players, preset, rng, **where) -> Protocol:
    return _without_penalties(simulate_game(players, preset=preset, rng=rng, **where))


def _random_event(seed: int, preset_id: str, players: int, rounds: int, cut: int):
    """A qualifying of ``rounds`` and a semifinal of 2 (the qualifying's cut seated at random),
    every game simulated without penalties and every player at every game."""
    rng = random.Random(seed)
    data = copy.deepcopy(preset_dict(preset_id))
    data["stages"][0]["games"] = rounds
    data["stages"][1]["players"] = cut
    data["stages"][1]["games"] = 2
    data["stages"][2]["players"] = 10
    p = Preset.from_dict(data, source="test")
    names = [f"N{i:02d}" for i in range(players)]
    protos, seating = [], []
    for r in range(1, rounds + 1):
        order = names[:]
        rng.shuffle(order)
        for t in range(players // 10):
            g = _game(order[t * 10:(t + 1) * 10], p, rng, stage="qualifying", round_no=r, table=t + 1,
                      sheet=f"Q{r}.{t + 1}")
            protos.append(g)
            seating.append(seating_of(g))
    full = tournament(names, protos, seating)
    semi = list(compute(full, p, validate(full, p)).cuts["semifinal"].players)
    for r in range(1, 3):
        order = semi[:]
        rng.shuffle(order)
        for t in range(len(semi) // 10):
            g = _game(order[t * 10:(t + 1) * 10], p, rng, stage="semifinal", round_no=r, table=t + 1,
                      sheet=f"S{r}.{t + 1}")
            protos.append(g)
            seating.append(seating_of(g))
    every = tournament(names, protos, seating)
    assert not [x for x in validate(every, p) if x.severity is Severity.ERROR]  # every game counts
    return p, names, protos, seating


def _check(p, names, seating, before, after, stage):
    """Liveness with the games of ``before``, against the stage totals and the cut with the games
    of ``after``: every total within its bounds, every through in, every out out — whatever
    the tiebreaks say (a player sharing the line is neither)."""
    t0 = tournament(names, before, seating)
    lv = liveness(compute(t0, p, validate(t0, p)), stage)
    t1 = tournament(names, after, seating)
    then = compute(t1, p, validate(t1, p))
    cut = then.cuts[stage]
    final = {s.stats.player: s.stats.exact_total for s in then.stages[cut.after]}
    assert lv is not None
    for player, chance in lv.chances.items():
        assert chance.low <= final[player] <= chance.high, (player, chance, final[player])
        if chance.state is State.THROUGH:
            assert player in cut.players and player not in cut.tied, (player, chance)
        if chance.state is State.OUT:
            assert player not in cut.players and player not in cut.tied, (player, chance)
    return lv


@pytest.mark.slow
@settings(max_examples=examples(30), deadline=None)
@given(seed=st.integers(0, 10_000), preset_id=st.sampled_from(["gmo-2016", "fiim-2019", "fiim-2023"]),
       players=st.sampled_from([20, 30, 40]), rounds=st.integers(2, 7), cut=st.sampled_from([10, 20]),
       k=st.integers(0, 5))
def test_replaying_the_real_games_never_contradicts_through_or_out(seed, preset_id, players, rounds, cut, k):
    p, names, protos, seating = _random_event(seed, preset_id, players, rounds, cut)
    k = min(k, rounds)
    qualifying = [g for g in protos if g.stage == "qualifying"]
    _check(p, names, seating, [g for g in qualifying if g.round <= k], qualifying, "semifinal")
    # and in the semifinal, for the cut into the final
    played = [g for g in protos if g.stage == "qualifying" or g.round <= k % 3]
    _check(p, names, seating, played, protos, "final")


@settings(max_examples=examples(5), deadline=None)
@given(seed=st.integers(0, 10_000))
def test_a_complete_stage_decides_everybody_but_a_tie_at_the_line(seed):
    p, names, protos, seating = _random_event(seed, "gmo-2016", 20, 2, 10)
    qualifying = [g for g in protos if g.stage == "qualifying"]
    lv = _check(p, names, seating, qualifying, qualifying, "semifinal")
    t = tournament(names, qualifying, seating)
    cut = compute(t, p, validate(t, p)).cuts["semifinal"]
    opened = {x for x, c in lv.chances.items() if c.state is State.OPEN}
    assert opened == set(cut.tied)


def _decide_pairwise(bounds: Mapping[str, tuple[Fraction, Fraction]], size: int,
                     places: Mapping[str, int] | None = None) -> dict[str, State]:
    """:func:`scoring.liveness.decide` as its definition reads, every player against every other."""
    places = places or {}

    def settled(p: str, q: str) -> bool:  # both totals and tiebreaks final, and they split them
        return p in places and q in places and places[p] != places[q]

    states = {}
    for player, (low, high) in bounds.items():
        reach = above = 0
        for other, (q_low, q_high) in bounds.items():
            if other == player:
                continue
            if q_high > low or (q_high == low and not (settled(player, other) and places[other] > places[player])):
                reach += 1
            if q_low > high or (q_low == high and settled(player, other) and places[other] < places[player]):
                above += 1
        states[player] = State.THROUGH if reach < size else State.OUT if above >= size else State.OPEN
    return states


# small totals in quarters, so that equal highs and lows (the tie rules) are frequent
_TOTAL = st.integers(-8, 16).map(lambda n: Fraction(n, 4))
_BOUNDS = st.tuples(_TOTAL, st.integers(0, 8).map(lambda n: Fraction(n, 4))).map(lambda t: (t[0], t[0] + t[1]))


@settings(max_examples=examples(300), deadline=None)
@given(bounds=st.dictionaries(st.text("abcdefgh", min_size=1, max_size=2), _BOUNDS, min_size=1, max_size=14),
       size=st.integers(1, 10), data=st.data())
def test_decide_counts_like_its_definition(bounds, size, data):
    """The sorted counting of decide() gives every player the state the pairwise definition gives
    (with final places for some players, distinct or shared, as the tiebreaks leave them)."""
    finished = data.draw(st.lists(st.sampled_from(sorted(bounds)), unique=True))
    places = {p: data.draw(st.integers(1, len(bounds))) for p in finished}
    assert decide(bounds, size, places) == _decide_pairwise(bounds, size, places)
