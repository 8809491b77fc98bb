"""Role nominations: formula, minimum games, eligibility, shared nominations (never random)."""

from decimal import Decimal as D
from fractions import Fraction as F

from scoring.model import PenaltyEntry, PenaltyReason, Player, PlayerStatus
from scoring.nominations import nominate, nominations, score_line
from scoring.preset import NominationRule
from scoring.standings import compute
from tests.helpers import preset, protocol, tournament

NAMES = list("ABCDEFGHIJ")
P = preset("fiim-2019")


def rule(key, role, min_games=1, formula=("extra", "best_move", "penalties")):
    return NominationRule(key=key, role=role, min_games=min_games, formula=formula)


def games():
    # round 1: A don, B C mafia, D sheriff; black wins.  A extra 0.5, D extra 0.3, E shot first names 1 2 3 (+0.4).
    g1 = protocol(NAMES, "дммшкккккк", "black", round_no=1, sheet="g1",
                  s1={"extra": "0.5"}, s4={"extra": "0.3"}, s5={"killed_night": 1, "best_move": (1, 2, 3)})
    # round 2: B don, A C mafia, E sheriff; red wins.  B extra 0.5 (ties A as don), E extra 0.3, F removed (−0.5).
    g2 = protocol(NAMES, "мдмкшккккк", "red", round_no=2, sheet="g2",
                  s2={"extra": "0.5"}, s5={"extra": "0.3"}, s6={"fouls": 4, "removed": True, "removal_day": 1})
    return [g1, g2]


def test_ranking_ties_are_shared_and_listed_by_name():
    res = compute(tournament(NAMES, games()), P, [])
    (don,) = nominate([rule("don", "don")], [s.stats for s in res.overall])
    assert don.winners == ("A", "B") and don.shared
    assert [(e.player, e.places, e.score) for e in don.ranking] == [("A", "1–2", F(1, 2)), ("B", "1–2", F(1, 2))]
    (sheriff,) = nominate([rule("sheriff", "sheriff")], [s.stats for s in res.overall])
    assert sheriff.winners == ("D", "E") and {e.places for e in sheriff.ranking} == {"1–2"}


def test_formula_components_and_min_games():
    res = compute(tournament(NAMES, games()), P, [])
    stats = [s.stats for s in res.overall]
    (civ,) = nominate([rule("civilian", "civilian")], stats)
    # E: best move 0.4 as civilian; F: removed −0.5 as civilian; nobody else scored as civilian
    assert civ.winners == ("E",) and civ.ranking[0].score == F(2, 5)
    assert civ.ranking[-1].player == "F" and civ.ranking[-1].score == F(-1, 2)
    (strict,) = nominate([rule("civilian", "civilian", min_games=2)], stats)
    assert "E" not in [e.player for e in strict.ranking]  # E played civilian once
    (mvp,) = nominate([rule("mvp", None, min_games=2, formula=("extra", "best_move"))], stats)
    assert mvp.winners == ("E",) and mvp.ranking[0].score == F(7, 10)  # 0.4 + 0.3
    (wins,) = nominate([rule("mafia", "mafia", formula=("win",))], stats)
    assert {e.player for e in wins.ranking if e.place == 1} == {"B", "C"}  # won as mafia in round 1


def test_nobody_wins_with_zero_and_ineligible_players_are_left_out():
    players = [Player(nickname=n, status=PlayerStatus.DISQUALIFIED if n == "A" else PlayerStatus.PLAYING) for n in NAMES]
    res = compute(tournament(players, games()), P, [])
    (don,) = nominate([rule("don", "don")], [s.stats for s in res.overall])
    assert don.winners == ("B",)  # A is not eligible for awards
    (mafia,) = nominate([rule("mafia", "mafia", formula=("extra",))], [s.stats for s in res.overall])
    assert mafia.winners == () and mafia.ranking  # ranked, but nobody scored above 0


def test_scores_are_before_stage_coefficients_and_mvp_takes_tournament_penalties():
    final = protocol(NAMES, "дммшкккккк", "black", stage="final", round_no=1, sheet="f1", s1={"extra": "0.5"})
    pen = PenaltyEntry(player="A", stage="qualifying", round=None, reason=PenaltyReason.OTHER, points=D("-1"))
    res = compute(tournament(NAMES, [final], penalties=[pen]), P, [])
    a = next(s.stats for s in res.overall if s.stats.player == "A")
    assert a.extra_points == D("1.0")  # × 2 in the standings
    assert score_line(a.lines[0], ("extra",)) == F(1, 2)  # not in the nomination
    (mvp,) = nominate([rule("mvp", None, formula=("extra", "penalties"))], [s.stats for s in res.overall])
    assert next(e.score for e in mvp.ranking if e.player == "A") == F(-1, 2)


def test_results_carry_the_preset_nominations():
    res = compute(tournament(NAMES, games()), P, [])
    assert [n.key for n in nominations(res)] == ["don", "sheriff", "mafia", "civilian", "mvp"]
    assert nominations(res)[0].name("ru") == "Лучший дон" and nominations(res)[0].name("en") == "Best don"
    assert compute(tournament(NAMES, games()), preset("gmo-2016"), []).nominations == ()
