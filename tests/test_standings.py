"""Standings: a small tournament worked out by hand, tournament penalties, and properties."""

import random
from dataclasses import replace
from decimal import Decimal as D

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.model import (
    PenaltyEntry,
    PenaltyReason,
    Player,
    PlayerStatus,
    SeatingEntry,
)
from scoring.rules import validate
from scoring.standings import compute, rank
from sheets_sync.loop.outcome import compute as outcome_of
from tests.helpers import examples, preset, protocol, seating_of, tournament

P = preset()
NAMES = list("ABCDEFGHIJ")


def two_games():
    # Game 1 — round 1: A don, B C mafia, D sheriff, E–J civilians; red wins.
    #   E shot night 1 names 1 2 3 = A B C: 3 blacks → +0.5.  Extra: D 0.5, F 0.25.
    g1 = protocol(NAMES, "дммшкккккк", "red", round_no=1,
                  s2={"voted_day": 1}, s3={"voted_day": 2}, s1={"voted_day": 3},
                  s5={"killed_night": 1, "best_move": (1, 2, 3)}, s7={"killed_night": 2},
                  s4={"extra": "0.5"}, s6={"extra": "0.25"})
    # Game 2 — round 2: E don, F G mafia, H sheriff, A B C D I J civilians; black wins.
    #   A shot night 1 names 5 6 8 = E F H: 2 blacks → +0.25.  D removed (4 fouls) −0.5.
    #   Extra: E 0.7, G 0.35.
    g2 = protocol(NAMES, "ккккдммшкк", "black", round_no=2,
                  s1={"killed_night": 1, "best_move": (5, 6, 8)}, s4={"fouls": 4, "removed": True, "removal_day": 1},
                  s2={"killed_night": 2}, s3={"voted_day": 2},
                  s5={"extra": "0.7"}, s7={"extra": "0.35"})
    return g1, g2


def small_preset():
    data = preset_dict_two_rounds()
    from scoring.preset import Preset

    return Preset.from_dict(data, source="test")


def preset_dict_two_rounds():
    from tests.helpers import preset_dict

    data = preset_dict()
    data["stages"] = [data["stages"][0] | {"games": 2}]
    data["penalties"]["late_stages"] = []
    return data


def test_small_tournament_by_hand():
    """Totals (game 1 + game 2, coefficient 1):
    A 0 + 0.25 (best move, 2 blacks)        = 0.25
    B 0 + 0                                 = 0
    C 0 + 0                                 = 0
    D 1 + 0.5 (win, extra) + 0 − 0.5 (removal) = 1.0
    E 1 + 0.5 (win, best move) + 1 + 0.7    = 3.2
    F 1 + 0.25 + 1                          = 2.25
    G 1 + 1 + 0.35                          = 2.35
    H 1 + 0                                 = 1
    I 1 + 0, and late 35 min: −0.5          = 0.5
    J 1 + 0                                 = 1
    D, H, J all have 1.0: D was recognised best once (extra > 0), H and J never → D 4th.
    H and J: 1 win each, no wins as don/sheriff/mafia, never shot first → shared 5–6.
    B and C: everything equal → shared 9–10.
    """
    p = small_preset()
    g1, g2 = two_games()
    late = PenaltyEntry(player="I", stage="qualifying", round=2, reason=PenaltyReason.LATE, minutes_late=35)
    t = tournament(NAMES, protocols=[g1, g2], seating=[seating_of(g1), seating_of(g2)], penalties=[late])
    problems = validate(t, p)
    assert [x for x in problems if x.severity.value == "error"] == []
    results = compute(t, p, problems)
    table = [(s.places, s.stats.player, s.stats.total) for s in results.overall]
    assert table == [
        ("1", "E", D("3.2")),
        ("2", "G", D("2.35")),
        ("3", "F", D("2.25")),
        ("4", "D", D("1.0")),
        ("5–6", "H", D("1")),
        ("5–6", "J", D("1")),
        ("7", "I", D("0.5")),
        ("8", "A", D("0.25")),
        ("9–10", "B", D("0")),
        ("9–10", "C", D("0")),
    ]
    by = {s.stats.player: s for s in results.overall}
    assert by["D"].tiebreak == "recognised_best"  # why D is above H
    assert by["H"].tiebreak == "shared"
    assert by["J"].tiebreak is None  # next (I) has a different total
    assert by["E"].stats.best_move_points == D("0.5") and by["A"].stats.best_move_points == D("0.25")
    assert by["D"].stats.penalties == D("-0.5") and by["I"].stats.penalties == D("-0.5")
    assert by["E"].stats.wins_as == {"civilian": 1, "sheriff": 0, "mafia": 0, "don": 1}


def test_missed_round_penalty_and_excused_skip():
    # K is seated in round 1 but a reserve (R) played his seat: K gets −2.
    # L announced a skip of round 1 (excused): no points, no penalty, but it counts as missed.
    g1, _ = two_games()
    seated = ["K", "L", *NAMES[2:]]
    players = [Player(nickname=n) for n in NAMES[2:]] + [
        Player(nickname="K"), Player(nickname="L", excused_rounds=frozenset({1})),
        Player(nickname="A", status=PlayerStatus.RESERVE), Player(nickname="B", status=PlayerStatus.RESERVE)]
    t = tournament(players, protocols=[g1],
                   seating=[SeatingEntry(stage="qualifying", round=1, table=1, players=tuple(seated))])
    p = small_preset()
    results = compute(t, p, validate(t, p))
    by = {s.stats.player: s.stats for s in results.overall}
    assert by["K"].total == D("-2") and by["K"].missed_rounds == 1
    assert by["L"].total == D("0") and by["L"].missed_rounds == 1
    assert "A" not in by and "B" not in by  # reserves are never ranked
    assert by["K"].eligible and by["L"].eligible  # one missed round is allowed


def test_two_missed_rounds_not_eligible_and_disqualified():
    g1, g2 = two_games()
    players = [Player(nickname=n) for n in NAMES[1:]] + [Player(nickname="Z"), Player(nickname="A", status=PlayerStatus.RESERVE)]
    players[0] = Player(nickname="B", status=PlayerStatus.DISQUALIFIED)
    seat = ("Z", *NAMES[1:])
    t = tournament(players, protocols=[g1, g2],
                   seating=[SeatingEntry(stage="qualifying", round=r, table=1, players=seat) for r in (1, 2)])
    results = compute(t, small_preset(), [])
    by = {s.stats.player: s.stats for s in results.overall}
    assert by["Z"].missed_rounds == 2 and not by["Z"].eligible and by["Z"].total == D(-4)
    assert not by["B"].eligible  # disqualified: listed, not eligible for awards


def test_lateness_tiers():
    p = preset()
    assert [p.lateness_points(m) for m in (10, 15, 30, 31, 45, 46)] == [None, D("-0.25"), D("-0.25"), D("-0.5"), D("-0.5"), D("-1")]


def test_finalists_ranked_first_then_semifinalists():
    rng = random.Random(5)
    from scoring.simulate import simulate_game

    p = preset()
    names = [f"P{i:02d}" for i in range(30)]
    protos = []
    seating = []
    for r in range(1, 8):
        order = names[:]
        rng.shuffle(order)
        for t in range(3):
            seated = order[t * 10:(t + 1) * 10]
            g = simulate_game(seated, stage="qualifying", round_no=r, table=t + 1, sheet=f"Q{r}.{t}", preset=p, rng=rng)
            protos.append(g)
            seating.append(seating_of(g))
    t0 = tournament(names, protos, seating)
    res = compute(t0, p, validate(t0, p))
    semi = list(res.cuts["semifinal"].players)
    assert len(semi) == 20
    for r in range(1, 4):
        for t in range(2):
            g = simulate_game(semi[t * 10:(t + 1) * 10], stage="semifinal", round_no=r, table=t + 1, sheet=f"S{r}.{t}", preset=p, rng=rng)
            protos.append(g)
            seating.append(seating_of(g))
    t1 = tournament(names, protos, seating)
    res = compute(t1, p, validate(t1, p))
    final = list(res.cuts["final"].players)
    for r in range(1, 5):
        g = simulate_game(final, stage="final", round_no=r, table=1, sheet=f"F{r}", preset=p, rng=rng)
        protos.append(g)
        seating.append(seating_of(g))
    t2 = tournament(names, protos, seating)
    res = compute(t2, p, validate(t2, p))
    groups = [s.group for s in res.overall]
    assert groups == ["final"] * 10 + ["semifinal"] * 10 + ["qualifying"] * 10
    assert {s.stats.player for s in res.overall[:10]} == set(final)
    # a semifinalist with more points than a finalist is still ranked below him
    assert [s.place for s in res.overall] == sorted(s.place for s in res.overall)


# -- properties ---------------------------------------------------------------------------------------
def _random_tournament(seed: int, n_rounds: int = 3):
    rng = random.Random(seed)
    from scoring.simulate import simulate_game

    p = small_preset_rounds(n_rounds)
    names = [f"N{i}" for i in range(20)]
    protos, seating = [], []
    for r in range(1, n_rounds + 1):
        order = names[:]
        rng.shuffle(order)
        for t in range(2):
            g = simulate_game(order[t * 10:(t + 1) * 10], stage="qualifying", round_no=r, table=t + 1,
                              sheet=f"Тур {r} Стол {t + 1}", preset=p, rng=rng)
            protos.append(g)
            seating.append(seating_of(g))
    return p, names, protos, seating


def small_preset_rounds(n):
    from scoring.preset import Preset
    from tests.helpers import preset_dict

    data = preset_dict()
    data["stages"] = [data["stages"][0] | {"games": n}]
    data["penalties"]["late_stages"] = []
    return Preset.from_dict(data, source="test")


@settings(max_examples=examples(25), deadline=None)
@given(seed=st.integers(0, 10_000), shuffle_seed=st.integers(0, 10_000))
def test_shuffling_protocols_or_players_never_changes_standings(seed, shuffle_seed):
    p, names, protos, seating = _random_tournament(seed)
    base = compute(tournament(names, protos, seating), p, [])
    rng = random.Random(shuffle_seed)
    names2, protos2, seating2 = names[:], protos[:], seating[:]
    rng.shuffle(names2)
    rng.shuffle(protos2)
    rng.shuffle(seating2)
    other = compute(tournament(names2, protos2, seating2), p, [])

    def view(res):
        return [(s.places, s.stats.player, s.stats.total, s.tiebreak) for s in res.overall]

    assert view(base) == view(other)


@settings(max_examples=examples(25), deadline=None)
@given(seed=st.integers(0, 10_000))
def test_shared_place_exactly_when_keys_equal(seed):
    p, names, protos, seating = _random_tournament(seed, n_rounds=2)
    res = compute(tournament(names, protos, seating), p, [])
    from scoring.metrics import METRICS

    metrics = [METRICS[k] for k in p.tiebreaks if not METRICS[k].final_only]

    def key(s):
        return (s.stats.total, *(m.value(s.stats) for m in metrics))

    rows = res.overall
    for a, b in zip(rows, rows[1:]):
        assert (a.places == b.places) == (key(a) == key(b))
        assert key(a) >= key(b)


def test_rank_without_random_tiebreak_is_by_name():
    from scoring.stats import PlayerStats

    stats = [PlayerStats(player=n, total=D(1), wins_as={"don": 0, "sheriff": 0, "mafia": 0, "civilian": 0}) for n in "CBA"]
    out = rank(stats, ["wins"])
    assert [s.stats.player for s in out] == ["A", "B", "C"]
    assert {s.places for s in out} == {"1–3"}


# -- stages rank in order (issue 25 §4) --------------------------------------------------------------
def _example_until(example_snapshot, *, missing: int, confirmed: frozenset[str] = frozenset()):
    """The example with its semifinal and final seated but not played, and the last ``missing``
    qualifying games not played either."""
    full = outcome_of(example_snapshot).results
    qualifying = sorted((p for p in full.tournament.protocols if p.stage == "qualifying"), key=lambda p: p.key)
    kept = qualifying[: len(qualifying) - missing]
    t = replace(full.tournament, protocols=tuple(kept), confirmed_stages=confirmed)
    return compute(t, full.preset, full.input_problems)


def test_a_seated_semifinal_does_not_rank_its_players_first_while_the_qualifying_is_played(example_snapshot):
    results = _example_until(example_snapshot, missing=1)
    totals = [st.stats.exact_total for st in results.overall if st.stats.games]
    assert totals == sorted(totals, reverse=True)  # one table, by the totals
    assert {st.group for st in results.overall} == {"qualifying"}


@pytest.mark.parametrize("missing, confirmed", [(0, frozenset()), (1, frozenset({"qualifying"}))])
def test_the_semifinal_ranks_first_once_the_qualifying_is_complete_or_confirmed(example_snapshot, missing, confirmed):
    results = _example_until(example_snapshot, missing=missing, confirmed=confirmed)
    semifinalists = results.participants["semifinal"]
    assert [st.group for st in results.overall[: len(semifinalists)]] == ["semifinal"] * len(semifinalists)
    assert {st.stats.player for st in results.overall[: len(semifinalists)]} == semifinalists


# -- players tied on everything: listed in Russian alphabetical order, in every output ---------------------
RUSSIAN_ORDER = ["Барон", "Ёжик", "Лёва", "ЛИС", "тихоня"]  # code point order: Ёжик Барон ЛИС Лёва тихоня


def test_tied_players_are_listed_in_russian_order_everywhere(tmp_path):
    """Five civilians of one red win, equal on points and every tiebreak, typed in code point
    order: the console report, the Standings tab, the site's standings and players list, the
    VK text and standings.json list them in Russian alphabetical order (Е and Ё one letter,
    case ignored)."""
    import json

    import openpyxl
    from click.testing import CliRunner

    from sheets_sync.cli import main
    from tests.judge import table_tournament, write_xlsx
    from tests.rulebook import NAMES as RULEBOOK

    seats = {5: "Ёжик", 7: "Барон", 9: "ЛИС", 10: "Лёва", 3: "тихоня"}  # the untouched civilians (and seat 3)
    names = [seats.get(s, f"{n} 1") for s, n in enumerate(RULEBOOK, start=1)]
    tabs = table_tournament(1, game={"E10": 1, "H10": "2 6 8", "F11": 2, "E13": 2, "F15": 3, "F17": 4})
    rename = dict(zip((f"{n} 1" for n in RULEBOOK), names))
    tabs = {t: [[rename.get(v, v) if isinstance(v, str) else v for v in row] for row in rows] for t, rows in tabs.items()}
    book = write_xlsx(tmp_path / "cup.xlsx", tabs)
    result = CliRunner().invoke(main, ["sync", str(book), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output

    def in_order(seen: list[str]) -> list[str]:
        return [n for n in seen if n in RUSSIAN_ORDER]

    doc = json.loads((tmp_path / "out" / "standings.json").read_text(encoding="utf-8"))
    tied = [s for s in doc["standings"] if s["player"] in RUSSIAN_ORDER]
    assert len({s["places"] for s in tied}) == 1, tied  # really tied: one shared place
    assert [s["player"] for s in tied] == RUSSIAN_ORDER
    console = [line for line in result.output.splitlines() if any(n in line for n in RUSSIAN_ORDER)]
    assert in_order([n for line in console for n in RUSSIAN_ORDER if n in line.split()]) == RUSSIAN_ORDER
    wb = openpyxl.load_workbook(book)
    assert in_order([c.value for row in wb["Итоги"].iter_rows() for c in row]) == RUSSIAN_ORDER
    site = tmp_path / "out" / "site"
    for page in ("index.html", "players.html"):
        html = (site / page).read_text(encoding="utf-8")
        assert sorted(RUSSIAN_ORDER, key=html.index) == RUSSIAN_ORDER, page
    vk = (tmp_path / "out" / "vk-post.txt").read_text(encoding="utf-8")
    assert sorted(RUSSIAN_ORDER, key=vk.index) == RUSSIAN_ORDER
