"""Every point rule of the gmo-2016 preset, table-driven: one game, one player, exact Decimal."""

from decimal import Decimal as D

import pytest

from scoring.model import Removal, Team
from scoring.points import score_protocol
from tests.helpers import preset, protocol

P = preset()
NAMES = "A B C D E F G H I J"
ROLES = "дммшкккккк"  # seats 1–3 black (don, mafia, mafia), 4 sheriff, 5–10 civilians


def line(proto, seat, p=P, reserves=frozenset()):
    return next(ln for ln in score_protocol(proto, p, reserves=reserves) if ln.seat == seat)


CASES = [
    # (id, winner, seat, per-seat facts, expected total, expected items)
    ("red win, civilian", "red", 5, {}, "1", {"win": "1"}),
    ("red win, sheriff", "red", 4, {}, "1", {"win": "1"}),
    ("red win, don loses", "red", 1, {}, "0", {"win": "0"}),
    ("black win, mafia", "black", 2, {}, "1", {"win": "1"}),
    ("black win, civilian loses", "black", 7, {}, "0", {"win": "0"}),
    ("extra points 0.35", "red", 6, {"s6": {"extra": "0.35"}}, "1.35", {"extra": "0.35"}),
    ("extra points on a loser", "red", 2, {"s2": {"extra": "0.7"}}, "0.7", {"extra": "0.7"}),
    ("best move 3 blacks", "red", 5, {"s5": {"killed_night": 1, "best_move": (1, 2, 3)}}, "1.5", {"best_move": "0.5"}),
    ("best move 2 blacks", "black", 5, {"s5": {"killed_night": 1, "best_move": (1, 2, 4)}}, "0.25", {"best_move": "0.25"}),
    ("best move 1 black", "black", 5, {"s5": {"killed_night": 1, "best_move": (1, 6, 4)}}, "0", {"best_move": "0"}),
    ("best move 0 blacks", "black", 5, {"s5": {"killed_night": 1, "best_move": (7, 6, 4)}}, "0", {"best_move": "0"}),
    ("best move by sheriff shot first", "red", 4, {"s4": {"killed_night": 1, "best_move": (1, 2, 3)}}, "1.5", {"best_move": "0.5"}),
    ("best move not first night", "red", 5, {"s5": {"killed_night": 2, "best_move": (1, 2, 3)}}, "1", {"best_move": "0"}),
    ("best move by black shot first", "black", 2, {"s2": {"killed_night": 1, "best_move": (1, 3, 4)}}, "1", {"best_move": "0"}),
    # the clubs' practice (issue 25 §6): scored by the blacks among the other seats named
    ("best move naming own seat", "red", 5, {"s5": {"killed_night": 1, "best_move": (5, 2, 3)}}, "1.25", {"best_move": "0.25"}),
    ("removal", "black", 6, {"s6": {"fouls": 4, "removed": True}}, "-0.5", {"removal": "-0.5"}),
    ("removal of a winner", "red", 6, {"s6": {"fouls": 4, "removed": True}}, "0.5", {"removal": "-0.5"}),
    ("team defeat", "black", 6, {"s6": {"removal": Removal.TEAM_DEFEAT}}, "-0.5", {"removal": "-0.5"}),
]


@pytest.mark.parametrize("case_id,winner,seat_no,facts,total,items", CASES, ids=[c[0] for c in CASES])
def test_one_game_points(case_id, winner, seat_no, facts, total, items):
    ln = line(protocol(NAMES, ROLES, winner, **facts), seat_no)
    assert ln.total == D(total)
    for key, value in items.items():
        assert ln.items.get(key, D(0)) == D(value), key


@pytest.mark.parametrize("stage,coefficient", [("qualifying", "1"), ("semifinal", "1.5"), ("final", "2")])
def test_stage_coefficient_multiplies_every_item(stage, coefficient):
    proto = protocol(NAMES, ROLES, "red", stage=stage, s5={"killed_night": 1, "best_move": (1, 2, 4), "extra": "0.35"})
    ln = line(proto, 5)
    # win 1 + extra 0.35 + best move 0.25 = 1.6, times the stage coefficient
    assert ln.raw == D("1.6")
    assert ln.total == D("1.6") * D(coefficient)
    assert ln.item("best_move") == D("0.25") * D(coefficient)


def test_semifinal_best_move_is_exact():
    # 0.25 × 1.5 = 0.375 — exact, not 0.38 and not a float
    ln = line(protocol(NAMES, ROLES, "black", stage="semifinal", s5={"killed_night": 1, "best_move": (1, 2, 4)}), 5)
    assert ln.total == D("0.375")
    assert isinstance(ln.total, D)


def test_substitute_seat_earns_nobody_points():
    proto = protocol(NAMES, ROLES, "red", s5={"extra": "0.5"})
    ln = line(proto, 5, reserves=frozenset({"E"}))
    assert ln.substitute and ln.total == 0
    assert line(proto, 6, reserves=frozenset({"E"})).total == 1  # the other nine count as usual


def test_preset_values_change_points():
    # win worth 2 and removal −1 through the preset, not constants in code
    p = preset(points__win=D(2), points__removal=D(-1))
    ln = line(protocol(NAMES, ROLES, "red", s6={"fouls": 4, "removed": True}), 6, p=p)
    assert ln.total == D(1)


def test_winner_team_from_roles():
    proto = protocol(NAMES, ROLES, "black")
    won = {ln.player for ln in score_protocol(proto, P) if ln.won}
    assert won == {"A", "B", "C"}
    assert proto.winner is Team.BLACK
