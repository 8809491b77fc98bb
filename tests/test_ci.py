"""Ci, the compensation for red players shot on the first night: worked figures, rounding,
exactness, retroactivity, stage groups, short stages, the stage coefficient."""

from dataclasses import replace
from decimal import Decimal as D
from fractions import Fraction as F

import pytest

from scoring.ci import ci_value
from scoring.numbers import quantize, round_half_up
from scoring.standings import compute, rank
from scoring.stats import PlayerStats
from tests.helpers import preset, protocol, tournament

NAMES = list("ABCDEFGHIJ")
ROLES = "дммшкккккк"  # A don, B C mafia, D sheriff, E..J civilians
P19 = preset("fiim-2019")


# -- the formula ------------------------------------------------------------------------------
@pytest.mark.parametrize("n, b, expected, shown", [
    (10, 1, F(1, 10), "0.1"),     # round(4) = 4: 0.4·1/4
    (10, 2, F(1, 5), "0.2"),
    (10, 3, F(3, 10), "0.3"),
    (10, 4, F(2, 5), "0.4"),
    (10, 5, F(2, 5), "0.4"),      # 0.5 → capped at 0.4
    (10, 9, F(2, 5), "0.4"),
    (7, 1, F(2, 15), "0.133"),    # round(2.8) = 3: 0.4/3 = 0.1333… (exact 2/15)
    (7, 2, F(4, 15), "0.267"),    # 0.2666… rounded half up for display
    (7, 3, F(2, 5), "0.4"),
    (4, 1, F(1, 5), "0.2"),       # round(1.6) = 2
    (3, 1, F(2, 5), "0.4"),       # round(1.2) = 1
    (2, 1, F(2, 5), "0.4"),       # round(0.8) = 1
    (1, 1, F(2, 5), "0.4"),       # round(0.4) = 0: read as 1 (guard), then capped
    (10, 0, F(0), "0"),
    (0, 0, F(0), "0"),
    (14, 1, F(1, 15), "0.067"),   # 0.4·14 = 5.6 → 6: 0.4/6
])
def test_worked_figures(n, b, expected, shown):
    value = ci_value(b, n)
    assert value == expected
    assert isinstance(value, F)
    assert str(quantize(value)) == shown


def test_round_is_half_up_not_bankers():
    assert round_half_up(F(5, 2)) == 3 and round(2.5) == 2  # Python's round would give 2
    assert round_half_up(F(7, 2)) == 4
    assert round_half_up(D("2.4")) == 2 and round_half_up(D("2.6")) == 3
    assert round_half_up(F(-5, 2)) == -3
    # with the coefficient 0.4 no half ever occurs: 0.4·N = k + ½ has no whole N
    assert all(F(2, 5) * n - int(F(2, 5) * n) != F(1, 2) for n in range(200))


def test_a_later_edition_with_coefficient_half():
    # 0.5·5 = 2.5 → 3 (banker's rounding would give 2 and Ci 0.25)
    assert ci_value(1, 5, coefficient=D("0.5"), cap=D("0.5")) == F(1, 6)
    assert ci_value(1, 10, coefficient=D("0.5"), cap=D("0.5")) == F(1, 10)
    assert ci_value(3, 5, coefficient=D("0.5"), cap=D("0.5")) == F(1, 2)


def test_display_rounding_is_half_up_and_exact_sums_stay_exact():
    assert quantize(F(1, 2000)) == D("0.001")  # 0.0005 → 0.001
    assert quantize(F(-1, 2000)) == D("-0.001")
    assert quantize(F(2, 15)) == D("0.133")
    # three games of 2/15 are exactly 0.4; a Decimal quotient would leave 28-digit noise
    assert 3 * ci_value(1, 7) == F(2, 5)
    naive = (D("0.4") * 1 / 3) * 3
    assert naive != D("0.4")
    assert quantize(3 * ci_value(1, 7)) == D("0.4")


def test_equal_exact_totals_share_a_place():
    wins = {"don": 0, "sheriff": 0, "mafia": 0, "civilian": 0}
    with_ci = PlayerStats(player="X", total=D("1") + quantize(F(2, 5)), exact=1 + 3 * F(2, 15), wins_as=wins)
    plain = PlayerStats(player="Y", total=D("1.4"), wins_as=wins)
    out = rank([with_ci, plain], ["wins"])
    assert {s.places for s in out} == {"1–2"}
    # equal only after rounding for display: ranked apart, and the reason is named
    near = PlayerStats(player="Z", total=D("1.133"), exact=1 + F(2, 15), wins_as=wins)
    flat = PlayerStats(player="W", total=D("1.133"), wins_as=wins)
    out = rank([flat, near], ["wins"])
    assert [s.stats.player for s in out] == ["Z", "W"]
    assert out[0].tiebreak == "exact_total" and out[0].places == "1"


# -- through the standings --------------------------------------------------------------------
def game(round_no, *, shot=None, winner="black", stage="qualifying", table=1):
    extra = {f"s{shot}": {"killed_night": 1}} if shot else {}
    sheet = f"{stage} {round_no}"
    return protocol(NAMES, ROLES, winner, stage=stage, round_no=round_no, table=table, sheet=sheet, **extra)


def e_stats(res, table=None):
    rows = res.overall if table is None else res.stages[table]
    return next(s.stats for s in rows if s.stats.player == "E")


def test_shot_first_red_and_lost_gets_ci_in_that_game_only():
    games = [game(1, shot=5)] + [game(r) for r in range(2, 8)]  # N = 7, B = 1
    res = compute(tournament(NAMES, games), P19, [])
    s = e_stats(res)
    assert s.ci_exact == F(2, 15) and s.ci == D("0.133")
    first = next(ln for ln in s.lines if ln.round == 1)
    assert first.ci == F(2, 15) and first.item("ci") == D("0.133")
    assert first.breakdown()["ci"] == D("0.133") and "ci" not in first.items  # items stay exact decimals
    assert first.total == first.raw + D("0.133") and first.exact_total == F(first.raw) + F(2, 15)
    assert all(ln.ci == 0 for ln in s.lines if ln.round != 1)
    assert s.exact_total == F(s.total - D("0.133")) + F(2, 15)
    acc = {a.group: a for a in s.ci_accounts}[("qualifying", "semifinal")]
    assert (acc.shot_first_red, acc.games, acc.denominator, acc.compensated) == (1, 7, 3, 1)


def test_no_ci_when_his_team_won_or_he_is_black_or_ci_is_off():
    # red wins: shot first but no compensation (B still counts)
    res = compute(tournament(NAMES, [game(1, shot=5, winner="red")] + [game(r) for r in range(2, 8)]), P19, [])
    assert e_stats(res).ci_exact == 0
    # a black player "shot" first (not a legal game, but the scoring must not pay Ci)
    res = compute(tournament(NAMES, [game(1, shot=2)]), P19, [])
    assert all(s.stats.ci_exact == 0 for s in res.overall)
    res = compute(tournament(NAMES, [game(1, shot=5)]), preset("gmo-2016"), [])
    assert all(ln.ci == 0 for ln in res.lines)


def test_ci_is_retroactive_as_b_and_n_grow():
    one = compute(tournament(NAMES, [game(1, shot=5)]), P19, [])
    assert e_stats(one).ci_exact == F(2, 5)  # N = 1: round(0.4) = 0 → read as 1, capped at 0.4
    seven = compute(tournament(NAMES, [game(1, shot=5)] + [game(r) for r in range(2, 8)]), P19, [])
    assert e_stats(seven).ci_exact == F(2, 15)  # the same game now carries 0.133
    eight = compute(tournament(NAMES, [game(1, shot=5)] + [game(r) for r in range(2, 8)] + [game(8, shot=5)]), P19, [])
    s = e_stats(eight)  # B = 2, N = 8: 0.4·2/round(3.2) = 0.8/3 in each of the two games
    assert [ln.ci for ln in sorted(s.lines, key=lambda ln: ln.round) if ln.ci] == [F(4, 15), F(4, 15)]
    assert s.ci_exact == F(8, 15) and s.ci == D("0.533")


def test_groups_short_stages_and_the_coefficient():
    qual = [game(r) for r in range(1, 8)]
    # a 3-game semifinal keeps Ci: the short-stage exception is the final's only (issue 15 §1; it used to
    # take Ci away from every stage shorter than ci.min_stage_games, the semifinal included)
    semi = [game(r, stage="semifinal", shot=5) for r in range(1, 4)]
    final = [game(1, stage="final", shot=5)] + [game(r, stage="final") for r in range(2, 5)]
    res = compute(tournament(NAMES, qual + semi + final), P19, [])
    s = e_stats(res)
    by_group = {a.group: a for a in s.ci_accounts}
    q = by_group[("qualifying", "semifinal")]
    # qualifying+semifinal: B = 3, N = 10 → 0.4·3/round(4) = 0.3 in each of the 3 semifinal games
    assert (q.shot_first_red, q.games, q.value, q.compensated) == (3, 10, F(3, 10), 3)
    f = by_group[("final",)]
    assert (f.shot_first_red, f.games, f.denominator, f.value, f.compensated) == (1, 4, 2, F(1, 5), 1)
    final_line = next(ln for ln in s.lines if ln.stage == "final" and ln.ci)
    assert final_line.ci_points == F(2, 5)  # × the final's coefficient 2
    assert s.ci_exact == 3 * F(3, 10) * F(3, 2) + F(2, 5)  # 1.35 + 0.4
    # the preset can leave the coefficient off Ci, and let short stages earn Ci
    p = preset("fiim-2019", ci__apply_coefficient=False, ci__min_stage_games=0)
    s = e_stats(compute(tournament(NAMES, qual + semi + final), p, []))
    # qualifying+semifinal B=3, N=10: 0.3 in each of the 3 semifinal games (no ×1.5); final 0.2 (no ×2)
    assert s.ci_exact == 3 * F(3, 10) + F(1, 5)


def test_a_final_of_fewer_than_four_games_carries_no_ci():
    """mafiaratings' FIIM formats switch Ci off in a final of fewer than four games only
    (SCORING_OPTION_NO_NIGHT_KILLS on the final round); its games still count in B and N."""
    qual = [game(r) for r in range(1, 8)]
    final = [game(1, stage="final", shot=5)] + [game(r, stage="final") for r in range(2, 4)]
    short_final = preset("fiim-2019")
    data_final = replace(short_final.stage("final"), games=3)
    short_final = replace(short_final, stages=(*short_final.stages[:2], data_final))
    s = e_stats(compute(tournament(NAMES, qual + final), short_final, []))
    f = {a.group: a for a in s.ci_accounts}[("final",)]
    assert (f.shot_first_red, f.games, f.compensated) == (1, 3, 0) and s.ci_exact == 0
    # ci.short_stages names where the exception applies: none, and the 3-game final compensates
    s = e_stats(compute(tournament(NAMES, qual + final), replace(short_final, ci=replace(short_final.ci, short_stages=())), []))
    assert s.ci_exact == F(2, 5) * 2  # B = 1, N = 3: 0.4·1/round(1.2) = 0.4, × 2


def test_stage_table_counts_ci_up_to_its_stage():
    qual = [game(1, shot=5)] + [game(r) for r in range(2, 8)]
    semi = [game(r, stage="semifinal", shot=5) for r in range(1, 4)]
    before = compute(tournament(NAMES, qual), P19, [])
    after = compute(tournament(NAMES, qual + semi), P19, [])
    # the qualifying table (and the cut under it) does not move when the semifinal is played
    assert e_stats(before, "qualifying").exact_total == e_stats(after, "qualifying").exact_total
    assert e_stats(after, "qualifying").ci_exact == F(2, 15)
    # the overall table carries the current Ci: B = 4, N = 10 → 0.4 in the qualifying game, and in each
    # semifinal game × 1.5 (the semifinal keeps Ci since issue 15 §1; it was 0.4 in all before)
    assert e_stats(after).ci_exact == F(2, 5) + 3 * F(2, 5) * F(3, 2)


def test_issue_15_semifinal_keeps_ci_worked_example():
    """Issue 15 §1, B = 3 and N = 10 (qualifying + semifinal, one Ci group), fiim-2019.

    E (civilian) is shot first three times: qualifying round 2 (red wins: no Ci), qualifying
    round 6 and semifinal round 3 (black wins both).  Ci per compensated game = 0.4·3/round(0.4·10)
    = 1.2/4 = 0.3; the semifinal's coefficient 1.5 makes it 0.45 there: 0.3 + 0.45 = 0.75.
    Taking Ci away from the 3-game semifinal (the old reading of ci.min_stage_games) left 0.30.

    Every red player won qualifying rounds 1–5 and 7 (6 × 1) and semifinal rounds 1–2 (2 × 1.5):
    9.  The judge gave F 0.4 and G 0.5 in round 1.  Totals: E 9 + 0.75 = 9.75, G 9.5, F 9.4 →
    E 1st; with the semifinal's Ci taken away E has 9.3, behind G and F: 3rd, two places lower."""
    def g(round_no, *, stage="qualifying", shot=None, winner="red", extra=None):
        facts = {f"s{seat}": {"extra": value} for seat, value in (extra or {}).items()}
        if shot:
            facts[f"s{shot}"] = {"killed_night": 1}
        return protocol(NAMES, ROLES, winner, stage=stage, round_no=round_no, sheet=f"{stage} {round_no}", **facts)

    games = [g(1, extra={6: "0.4", 7: "0.5"}), g(2, shot=5), g(3), g(4), g(5), g(6, shot=5, winner="black"), g(7),
             g(1, stage="semifinal"), g(2, stage="semifinal"), g(3, stage="semifinal", shot=5, winner="black")]

    def standings(p):
        return {s.stats.player: (s.stats.exact_total, s.places) for s in compute(tournament(NAMES, games), p, []).overall}

    now = standings(P19)
    assert e_stats(compute(tournament(NAMES, games), P19, [])).ci_exact == F(3, 10) + F(3, 10) * F(3, 2) == F(3, 4)
    assert [now[n] for n in "EGF"] == [(F("9.75"), "1"), (F("9.5"), "2"), (F("9.4"), "3")]
    every_stage = replace(P19, ci=replace(P19.ci, short_stages=P19.stage_keys))  # the exception everywhere, as before
    before = standings(every_stage)
    assert [before[n] for n in "GFE"] == [(F("9.5"), "1"), (F("9.4"), "2"), (F("9.3"), "3")]
