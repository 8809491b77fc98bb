"""Scoring schemes beyond FIIM's (issue 15 §3): every preset key they added, table-driven.

Each key is checked where it acts: the points of one game (one player, exact Decimal), Ci
(exact Fraction), the best-move rule, the strict loader, the Tournament-tab spellings; and
their defaults reproduce what the shipped presets scored before the keys existed.  The
whole-tournament checks are in tests/test_scheme_examples.py.
"""

from __future__ import annotations

import copy
from decimal import Decimal as D
from fractions import Fraction as F

import pytest

from scoring.items import ITEM_VALUES, ITEMS, NOMINATION_COMPONENTS
from scoring.nominations import nominate
from scoring.points import score_protocol
from scoring.preset import NominationRule, Preset, PresetError, apply_overrides, normalise_override_key
from scoring.preset_settings import OVERRIDE_ALIASES, OVERRIDE_PATHS, Kind, SameAs, setting
from scoring.rules import validate
from scoring.standings import compute
from tests.helpers import preset, preset_dict, protocol, tournament

NAMES = list("ABCDEFGHIJ")
ROLES = "дммшкккккк"  # A don, B C mafia, D sheriff, E–J civilians
BOTH = ["shot_first", "voted_first_day"]


def scheme(base: str = "gmo-2016", **points) -> Preset:
    """``base`` with ``points.<key>`` values changed (numbers given as text are read exactly)."""
    return preset(base, **{f"points__{k}": (D(v) if isinstance(v, str) else v) for k, v in points.items()})


def line(proto, seat, p):
    return next(ln for ln in score_protocol(proto, p) if ln.seat == seat)


ABSENT = None  # the item does not occur in that game

# (id, points keys changed, winner, seat, the seat's facts, expected items before the coefficient)
POINTS = [
    # points.win_red / points.win_black: the win item reads the winning team's value
    ("win_red: a red winner", {"win_red": "3"}, "red", 5, {}, {"win": "3"}),
    ("win_red: the sheriff wins with his team", {"win_red": "3"}, "red", 4, {}, {"win": "3"}),
    ("win_red: a black winner keeps points.win", {"win_red": "3"}, "black", 2, {}, {"win": "1"}),
    ("win_black: a mafia winner", {"win_black": "4"}, "black", 2, {}, {"win": "4"}),
    ("win_black: the don wins with his team", {"win_black": "4"}, "black", 1, {}, {"win": "4"}),
    ("win_black: a red winner keeps points.win", {"win_black": "4"}, "red", 5, {}, {"win": "1"}),
    ("win_black: a loser gets 0", {"win_black": "4"}, "red", 1, {}, {"win": "0", "loss": ABSENT}),
    # points.loss_red / points.loss_black: a loss item where the preset scores one
    ("loss_red: a red loser", {"loss_red": "0.25"}, "black", 5, {}, {"win": "0", "loss": "0.25"}),
    ("loss_red: a black loser has none", {"loss_red": "0.25"}, "red", 2, {}, {"loss": ABSENT}),
    ("loss_red: a red winner has none", {"loss_red": "0.25"}, "red", 5, {}, {"win": "1", "loss": ABSENT}),
    ("loss_black: a black loser", {"loss_black": "-0.5"}, "red", 3, {}, {"loss": "-0.5"}),
    ("loss_black: a red loser has none", {"loss_black": "-0.5"}, "black", 5, {}, {"loss": ABSENT}),
    # points.role_win_<role> / points.role_loss_<role>: a role item for that role and result only
    ("role_win_don", {"role_win_don": "0.5"}, "black", 1, {}, {"win": "1", "role": "0.5"}),
    ("role_win_don: the don lost", {"role_win_don": "0.5"}, "red", 1, {}, {"role": ABSENT}),
    ("role_win_don: a mafia won", {"role_win_don": "0.5"}, "black", 2, {}, {"role": ABSENT}),
    ("role_win_sheriff", {"role_win_sheriff": "0.5"}, "red", 4, {}, {"role": "0.5"}),
    ("role_win_mafia", {"role_win_mafia": "0.25"}, "black", 3, {}, {"role": "0.25"}),
    ("role_win_civilian", {"role_win_civilian": "-0.1"}, "red", 7, {}, {"role": "-0.1"}),
    ("role_loss_don", {"role_loss_don": "-0.5"}, "red", 1, {}, {"role": "-0.5"}),
    ("role_loss_don: the don won", {"role_loss_don": "-0.5"}, "black", 1, {}, {"role": ABSENT}),
    ("role_loss_sheriff", {"role_loss_sheriff": "-0.5"}, "black", 4, {}, {"role": "-0.5"}),
    ("role_loss_mafia", {"role_loss_mafia": "0.1"}, "red", 2, {}, {"role": "0.1"}),
    ("role_loss_civilian", {"role_loss_civilian": "0.2"}, "black", 9, {}, {"role": "0.2"}),
    # points.best_move_1/2/3: by the number of blacks named
    ("best_move_1", {"best_move_1": "0.1"}, "black", 5, {"killed_night": 1, "best_move": (1, 6, 4)}, {"best_move": "0.1"}),
    ("best_move_2", {"best_move_2": "0.3"}, "black", 5, {"killed_night": 1, "best_move": (1, 2, 4)}, {"best_move": "0.3"}),
    ("best_move_3", {"best_move_3": "0.6"}, "black", 5, {"killed_night": 1, "best_move": (1, 2, 3)}, {"best_move": "0.6"}),
    ("best_move_1 default 0", {}, "black", 5, {"killed_night": 1, "best_move": (1, 6, 4)}, {"best_move": "0"}),
    # points.best_move_by: who may leave one
    ("best_move_by default: shot first", {}, "black", 5, {"killed_night": 1, "best_move": (1, 2, 3)}, {"best_move": "0.5"}),
    ("best_move_by default: voted out on day 1 earns nothing", {}, "black", 5, {"voted_day": 1, "best_move": (1, 2, 3)},
     {"best_move": "0"}),
    ("best_move_by both: voted out on day 1", {"best_move_by": BOTH}, "black", 5,
     {"voted_day": 1, "best_move": (1, 2, 3)}, {"best_move": "0.5"}),
    ("best_move_by both: shot first still", {"best_move_by": BOTH}, "black", 6,
     {"killed_night": 1, "best_move": (1, 2, 7)}, {"best_move": "0.25"}),
    ("best_move_by both: voted out on day 2 earns nothing", {"best_move_by": BOTH}, "black", 5,
     {"voted_day": 2, "best_move": (1, 2, 3)}, {"best_move": "0"}),
    ("best_move_by both: a black voted out earns nothing", {"best_move_by": BOTH}, "red", 2,
     {"voted_day": 1, "best_move": (1, 3, 4)}, {"best_move": "0"}),
    ("best_move_by voted only: shot first earns nothing", {"best_move_by": ["voted_first_day"]}, "black", 5,
     {"killed_night": 1, "best_move": (1, 2, 3)}, {"best_move": "0"}),
    # points.extra_min / extra_max / extra_step: a wider range is scored as typed
    ("extra points above 0.7", {"extra_max": "1.5", "extra_step": "0.5"}, "red", 6, {"extra": "1.5"}, {"extra": "1.5"}),
]


@pytest.mark.parametrize("case_id,changes,winner,seat_no,facts,expected", POINTS, ids=[c[0] for c in POINTS])
def test_points_of_each_key(case_id, changes, winner, seat_no, facts, expected):
    ln = line(protocol(NAMES, ROLES, winner, **{f"s{seat_no}": facts}), seat_no, scheme(**changes))
    for key, value in expected.items():
        if value is ABSENT:
            assert key not in ln.items, key
        else:
            assert ln.items[key] == D(value) and isinstance(ln.items[key], D), key
    assert ln.total == sum(ln.items.values(), D(0))


def test_every_item_is_scaled_by_the_stage_coefficient():
    p = scheme(win_black="4", role_win_don="0.5", loss_red="0.25", role_loss_sheriff="-0.5")
    proto = protocol(NAMES, ROLES, "black", stage="semifinal")
    don, sheriff = line(proto, 1, p), line(proto, 4, p)
    assert (don.item("win"), don.item("role"), don.total) == (D("6.0"), D("0.75"), D("6.75"))
    assert (sheriff.item("loss"), sheriff.item("role"), sheriff.total) == (D("0.375"), D("-0.75"), D("-0.375"))


def test_the_new_items_have_their_own_columns_only_where_a_preset_scores_them():
    columns = {i.key for i in ITEMS if i.column is not None and i.scored_by(preset())}
    assert columns == set()  # gmo-2016: no loss, no role, no auto extra, no Ci
    columns = {i.key for i in ITEMS if i.column is not None and i.scored_by(scheme(loss_black="0.1", role_win_don="0.5"))}
    assert columns == {"loss", "role"}
    assert {"loss", "role"} <= NOMINATION_COMPONENTS


def test_the_registry_is_the_one_place_of_a_kind_of_point():
    """An item's values become preset settings, its word a nomination component, its column a
    Standings column: nothing else names the kinds of point."""
    assert [v.key for v in ITEM_VALUES] == ["win_red", "win_black", "loss_red", "loss_black"] + [
        f"role_{r}_{role}" for r in ("win", "loss") for role in ("don", "sheriff", "mafia", "civilian")]
    for v in ITEM_VALUES:
        s = setting(f"points.{v.key}")
        assert (s.kind, s.doc, s.low, s.high) == (Kind.DECIMAL, v.doc, v.low, v.high)
        assert s.default == (SameAs(f"points.{v.default}") if isinstance(v.default, str) else v.default)
        assert s.path in OVERRIDE_PATHS and all(OVERRIDE_ALIASES[a] == s.path for a in v.aliases)
    assert set(preset().point_values) == {v.key for v in ITEM_VALUES}
    assert NOMINATION_COMPONENTS == {i.nomination for i in ITEMS if i.nomination} | {"total"}


# -- the best-move rule follows points.best_move_by ----------------------------------------------------
def best_move_problems(p, **facts):
    proto = protocol(NAMES, ROLES, "black", **facts)
    return [(x.rule, x.severity.value, x.message("en")) for x in validate(tournament(NAMES, [proto]), p)
            if x.rule.startswith("best_move")]


@pytest.mark.parametrize("authors,facts,expected", [
    (None, {"s5": {"killed_night": 1, "best_move": (1, 2, 3)}}, []),
    (None, {"s5": {"voted_day": 1, "best_move": (1, 2, 3)}},
     [("best_move.not_first_shot", "warning", "Seat 5: only the player shot on the first night may name a best move: "
       "not scored (this does not keep the game from counting)")]),
    (BOTH, {"s5": {"voted_day": 1, "best_move": (1, 2, 3)}}, []),
    (BOTH, {"s5": {"killed_night": 1, "best_move": (1, 2, 3)}}, []),
    (BOTH, {"s5": {"voted_day": 2, "best_move": (1, 2, 3)}},
     [("best_move.not_author", "warning", "Seat 5: under this regulation a best move is named only by the player shot "
       "on the first night or a player voted out on the first day: not scored (this does not keep the game from counting)")]),
    (BOTH, {"s5": {"voted_day": 1, "best_move": (1, 2, 5)}},
     [("best_move.partial", "warning", "Seat 5: a best move is three other seats, the protocol has '1 2 5'; scored by "
       "the blacks among seats 1 2")]),
    (BOTH, {"s2": {"voted_day": 1, "best_move": (1, 3, 4)}},
     [("best_move.black", "warning", "Seat 2: the best move was named by a black player and earns nothing")]),
    (["voted_first_day"], {"s5": {"killed_night": 1, "best_move": (1, 2, 3)}},
     [("best_move.not_author", "warning",
       "Seat 5: under this regulation a best move is named only by a player voted out on the first day: not scored "
       "(this does not keep the game from counting)")]),
])
def test_best_move_rule_follows_the_preset(authors, facts, expected):
    p = preset() if authors is None else scheme(best_move_by=authors)
    assert best_move_problems(p, **facts) == expected


def test_extra_points_range_and_step_of_the_preset():
    p = scheme(extra_max="1.5", extra_step="0.5")

    def extra_problems(value):
        proto = protocol(NAMES, ROLES, "red", s6={"extra": value})
        return [x.rule for x in validate(tournament(NAMES, [proto]), p) if x.rule.startswith("extra")]

    assert extra_problems("1.5") == [] and extra_problems("1") == [] and extra_problems("0.5") == []
    assert extra_problems("1.25") == ["extra.step"]
    assert extra_problems("2") == ["extra.range"]


# -- Ci keys ---------------------------------------------------------------------------------------------
def ci_of_e(p, games):
    res = compute(tournament(NAMES, games), p, [])
    return next(s.stats for s in res.overall if s.stats.player == "E")


@pytest.mark.parametrize("fraction", ["0", "0.5", "1"])
def test_ci_win_fraction(fraction):
    # E shot first twice in 7 games, once in a red win and once in a black win: B = 2, N = 7,
    # 0.4·2/round(2.8) = 0.8/3 = 4/15 in the lost game; the won game carries the fraction of it
    p = preset("fiim-2019", ci__win_fraction=D(fraction))
    games = [protocol(NAMES, ROLES, "red", round_no=1, s5={"killed_night": 1}),
             protocol(NAMES, ROLES, "black", round_no=2, s5={"killed_night": 1})]
    games += [protocol(NAMES, ROLES, "red", round_no=r) for r in range(3, 8)]
    s = ci_of_e(p, games)
    by_round = {ln.round: ln.ci for ln in s.lines}
    assert by_round[2] == F(4, 15)
    assert by_round[1] == F(fraction) * F(4, 15)
    assert s.ci_exact == F(4, 15) * (1 + F(fraction))
    assert s.ci_accounts[0].compensated == (2 if fraction != "0" else 1)


@pytest.mark.parametrize("short_stages,final_ci", [
    (None, F(0)),  # the default: the last stage, the final
    (["final"], F(0)),
    ([], F(2, 5) * 2),  # the exception nowhere: 0.4·1/round(0.8) = 0.4, × the final's 2
    (["qualifying", "semifinal"], F(2, 5) * 2),
])
def test_ci_short_stages(short_stages, final_ci):
    data = preset_dict("fiim-2019")
    del data["ci"]["short_stages"]
    if short_stages is not None:
        data["ci"]["short_stages"] = short_stages
    data["stages"][2]["games"] = 2  # a 2-game final, shorter than ci.min_stage_games
    p = Preset.from_dict(data, source="fiim-2019.toml")
    final = [protocol(NAMES, ROLES, "black", stage="final", round_no=1, sheet="f1", s5={"killed_night": 1}),
             protocol(NAMES, ROLES, "red", stage="final", round_no=2, sheet="f2")]
    assert ci_of_e(p, final).ci_exact == final_ci


def test_ci_short_stages_default_is_none_with_a_single_stage():
    data = preset_dict("fiim-2019")
    del data["ci"]["short_stages"]
    data["ci"]["groups"] = []
    data["stages"] = data["stages"][:1]
    data["stages"][0]["games"] = 3
    data["penalties"]["late_stages"] = []
    p = Preset.from_dict(data, source="x.toml")
    assert p.ci.short_stages == ()
    s = ci_of_e(p, [protocol(NAMES, ROLES, "black", round_no=r, s5={"killed_night": 1} if r == 1 else {})
                    for r in (1, 2, 3)])
    assert s.ci_exact == F(2, 5)  # B = 1, N = 3: 0.4/round(1.2) = 0.4: a 3-game club evening keeps Ci


@pytest.mark.parametrize("k,k_games,cap,n,b,expected", [
    ("0.4", None, "0.4", 10, 1, F(1, 10)),  # k′ = k
    ("0.5", "0.4", "0.5", 10, 1, F(1, 8)),  # the latest FIIM scheme: 0.5·1/round(4)
    ("0.5", "0.4", "0.5", 7, 1, F(1, 6)),  # 0.5/round(2.8) = 0.5/3
    ("0.5", None, "0.5", 7, 1, F(1, 8)),  # k′ = k = 0.5: round(3.5) = 4 (half up)
])
def test_ci_games_coefficient(k, k_games, cap, n, b, expected):
    changes = {"ci__coefficient": D(k), "ci__cap": D(cap)}
    if k_games is not None:
        changes["ci__games_coefficient"] = D(k_games)
    data = preset_dict("fiim-2019")
    del data["ci"]["games_coefficient"]
    for dotted, value in changes.items():
        data["ci"][dotted.split("__")[1]] = value
    p = Preset.from_dict(data, source="fiim-2019.toml")
    games = [protocol(NAMES, ROLES, "black", round_no=r, s5={"killed_night": 1} if r <= b else {}) for r in range(1, n + 1)]
    assert ci_of_e(p, games).ci_accounts[0].value == expected


# -- the strict loader ----------------------------------------------------------------------------------
@pytest.mark.parametrize("section,key,value,message", [
    ("points", "win_red", D(-1), "points.win_red: -1 is below the minimum 0"),
    ("points", "win_black", D(11), "points.win_black: 11 is above the maximum 10"),
    ("points", "loss_red", "lots", "points.loss_red: must be a number, not 'lots'"),
    ("points", "loss_black", D(-11), "points.loss_black: -11 is below the minimum -10"),
    ("points", "role_win_don", True, "points.role_win_don: must be a number, not True"),
    ("points", "role_loss_sheriff", D(12), "points.role_loss_sheriff: 12 is above the maximum 10"),
    ("points", "role_winner_don", D(1), "points.role_winner_don: unknown key"),
    ("points", "best_move_1", D(-1), "points.best_move_1: -1 is below the minimum 0"),
    ("points", "best_move_by", ["nobody"], "points.best_move_by: unknown best move author 'nobody' (known: shot_first, "
                                           "voted_first_day)"),
    ("points", "best_move_by", [], "points.best_move_by: must name at least one"),
    ("points", "best_move_by", "shot_first", None),  # a cell's text "a, b" is a list too
    ("ci", "short_stages", ["playoff"], "ci.short_stages: unknown stage 'playoff'"),
    ("ci", "short_stages", "final", None),
    ("ci", "win_fraction", D("1.5"), "ci.win_fraction: 1.5 is above the maximum 1"),
    ("ci", "win_fraction", D("-0.1"), "ci.win_fraction: -0.1 is below the minimum 0"),
    ("ci", "games_coefficient", D(0), "ci.games_coefficient: 0 is below the minimum 0.01"),
])
def test_loader_checks_each_key(section, key, value, message):
    data = copy.deepcopy(preset_dict("fiim-2019"))
    data[section][key] = value
    if message is None:
        Preset.from_dict(data, source="fiim-2019.toml")
        return
    with pytest.raises(PresetError) as info:
        Preset.from_dict(data, source="fiim-2019.toml")
    assert any(line.startswith(f"fiim-2019.toml: {message}") for line in str(info.value).splitlines()), str(info.value)


@pytest.mark.parametrize("preset_id", ["gmo-2016", "fiim-2019", "fiim-2023"])
def test_defaults_reproduce_the_shipped_presets(preset_id):
    """Every new key written out with its default gives the same preset as leaving it out."""
    data = preset_dict(preset_id)
    bare = copy.deepcopy(data)
    bare["ci"] = {k: v for k, v in bare["ci"].items() if k not in ("short_stages", "win_fraction", "games_coefficient")}
    explicit = copy.deepcopy(bare)
    win = data["points"]["win"]
    explicit["points"] |= {"win_red": win, "win_black": win, "loss_red": D(0), "loss_black": D(0),
                           "best_move_by": ["shot_first"], "best_move_1": D(0)}
    explicit["points"] |= {f"role_{r}_{role}": D(0) for r in ("win", "loss") for role in ("don", "sheriff", "mafia", "civilian")}
    explicit["ci"] |= {"short_stages": ["final"], "win_fraction": D(0)}
    if "coefficient" in explicit["ci"]:
        explicit["ci"]["games_coefficient"] = explicit["ci"]["coefficient"]
    shipped, without, written = (Preset.from_dict(d, source="x.toml") for d in (data, bare, explicit))
    assert shipped == without == written


def test_defaults_score_the_example_workbook_as_before(example_snapshot):
    """gmo-2016's example tournament: the game lines hold exactly the items they held before
    (no loss or role item occurs), so the golden site pages and VK post stay the same."""
    from sheets_sync.loop.outcome import compute as outcome

    results = outcome(example_snapshot).results
    assert {k for ln in results.lines for k in ln.items} <= {"win", "extra", "best_move", "removal"}


# -- the Tournament tab ---------------------------------------------------------------------------------
@pytest.mark.parametrize("typed,value,path,attribute,expected", [
    ("победа.красные", "3", "points.win_red", lambda p: p.point("win_red"), D(3)),
    ("Победа.Чёрные", "4", "points.win_black", lambda p: p.point("win_black"), D(4)),
    ("поражение.красные", "0,25", "points.loss_red", lambda p: p.point("loss_red"), D("0.25")),
    ("поражение.черные", "0", "points.loss_black", lambda p: p.point("loss_black"), D(0)),
    ("роль.победа.дон", "0,5", "points.role_win_don", lambda p: p.point("role_win_don"), D("0.5")),
    ("роль.поражение.шериф", "-0,5", "points.role_loss_sheriff", lambda p: p.point("role_loss_sheriff"), D("-0.5")),
    ("лх.1", "0,1", "points.best_move_1", lambda p: p.best_move_points(1), D("0.1")),
    ("лх.кто", "shot_first, voted_first_day", "points.best_move_by", lambda p: p.best_move_by, tuple(BOTH)),
    ("ci.победа", "0,5", "ci.win_fraction", lambda p: p.ci.win_fraction, D("0.5")),
    ("ci.short_stages", "semifinal", "ci.short_stages", lambda p: p.ci.short_stages, ("semifinal",)),
    ("ci.games_coefficient", "0,4", "ci.games_coefficient", lambda p: p.ci.games_coefficient, D("0.4")),
])
def test_tournament_tab_sets_each_key(typed, value, path, attribute, expected):
    assert normalise_override_key(typed) == path
    data, rejected = apply_overrides(preset_dict("fiim-2019"), [(typed, value)])
    assert rejected == []
    assert attribute(Preset.from_dict(data, source="fiim-2019.toml")) == expected


# -- nominations and tiebreaks under any scheme ----------------------------------------------------------
def test_win_counts_stay_counts_and_nominations_take_the_new_components():
    p = scheme(win_red="3", win_black="4", role_win_don="0.5", role_loss_don="-0.5", loss_red="0.25")
    g1 = protocol(NAMES, ROLES, "black", round_no=1, sheet="g1")  # A don wins: 4 + 0.5
    g2 = protocol(NAMES, "мдмкшккккк", "red", round_no=2, sheet="g2")  # B don loses: −0.5; E sheriff wins: 3
    res = compute(tournament(NAMES, [g1, g2]), p, [])
    stats = {s.stats.player: s.stats for s in res.overall}
    a, b, e = stats["A"], stats["B"], stats["E"]
    assert (a.wins, a.wins_as["don"], a.wins_as["mafia"], a.total) == (1, 1, 0, D("4.5"))
    assert (b.wins, b.wins_as["mafia"], b.wins_as["don"], b.total) == (1, 1, 0, D("3.5"))
    assert (e.wins, e.wins_as["sheriff"], e.total) == (1, 1, D("3.25"))  # lost as a civilian 0.25, won as sheriff 3
    assert all(isinstance(s.wins, int) and all(isinstance(v, int) for v in s.wins_as.values()) for s in stats.values())
    rules = [NominationRule(key="don", role="don", min_games=1, formula=("win", "role")),
             NominationRule(key="red", role="civilian", min_games=1, formula=("win", "loss")),
             NominationRule(key="mvp", role=None, min_games=0, formula=("total",))]
    don, red, mvp = nominate(rules, stats.values())
    assert don.winners == ("A",) and [(x.player, x.score) for x in don.ranking] == [("A", F(9, 2)), ("B", F(-1, 2))]
    # civilians: E 0.25 (g1), F–J 0.25 + 3
    assert red.winners == ("F", "G", "H", "I", "J") and red.ranking[-1].player == "E"
    assert mvp.winners == ("A",) and mvp.ranking[0].score == F(9, 2)
    # the tiebreak chain reads counts: D, E, F–J have 3.25 and one win each; E's was as sheriff
    rows = {st.stats.player: st for st in res.overall}
    assert [st.stats.player for st in res.overall][:4] == ["A", "C", "B", "E"]
    assert (rows["E"].places, rows["E"].tiebreak) == ("4", "wins_sheriff")
    assert {rows[n].places for n in "DFGHIJ"} == {"5–10"}
