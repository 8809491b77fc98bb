"""The race over the rounds and the ✓ / ✗ of the cut being played, through the real CLI on the
example workbook cut back to a point of its qualifying, and the race as a pure function."""

from __future__ import annotations

import copy
import json
import random
import re
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.liveness import current_liveness
from scoring.model import PenaltyEntry, PenaltyReason, Player, PlayerStatus
from scoring.preset import Preset
from scoring.race import RacePoint, race, rounds_played
from scoring.rules import validate
from scoring.standings import compute
from sheets_sync.cli import main
from sheets_sync.example import EXAMPLE_PATH
from sheets_sync.render.site import player_file
from scoring.simulate import simulate_game
from tests.helpers import examples, preset_dict, seating_of, table, tournament
from tests.test_liveness import _random_event


def _qualifying_up_to(tmp_path: Path, rounds: int) -> Path:
    """The example with the protocols of qualifying rounds 1…``rounds`` only (the seating stays)."""
    wb = openpyxl.load_workbook(EXAMPLE_PATH)
    for name in list(wb.sheetnames):
        if name.startswith(("ПФ", "Финал")) or (name.startswith("Тур ") and int(name.split()[1]) > rounds):
            del wb[name]
    path = tmp_path / "cup.xlsx"
    wb.save(path)
    return path


@pytest.fixture(scope="module")
def synced(tmp_path_factory):
    """rounds → (standings.json, site folder, VK post text, Standings tab rows) after a CLI sync."""
    out = {}
    for rounds in (6, 7):
        book = _qualifying_up_to(tmp_path_factory.mktemp(f"q{rounds}"), rounds)
        result = CliRunner().invoke(main, ["sync", str(book)])
        assert result.exit_code == 0, result.output
        folder = book.parent / "cup.sheets-sync"  # the workbook's own output folder
        tab = table([c.value for c in row] for row in openpyxl.load_workbook(book)["Итоги"].iter_rows())
        out[rounds] = (json.loads((folder / "standings.json").read_text(encoding="utf-8")), folder / "site",
                       (folder / "vk-post.txt").read_text(encoding="utf-8"), tab)
    return out


@pytest.mark.slow
def test_after_the_last_qualifying_round_the_cut_is_marked_everywhere(synced):
    doc, site, post, tab = synced[7]
    live = doc["liveness"]
    assert (live["stage"], live["after"], live["size"], live["complete"]) == ("semifinal", "qualifying", 20, True)
    states = {s["player"]: s["qualification"]["state"] for s in doc["standings"]}
    through = {p for p, s in states.items() if s == "through"}
    assert through == set(doc["cuts"]["semifinal"]["players"]) and not doc["cuts"]["semifinal"]["tied"]
    assert live["counts"] == {"through": 20, "out": 20, "open": 0}
    # the site: one mark beside every name of the standings
    index = (site / "index.html").read_text(encoding="utf-8")
    assert index.count('class="mark mark-through"') == 20 and index.count('class="mark mark-out"') == 20
    assert "✓ — проходит в полуфинал, ✗ — не проходит (в полуфинал проходят 20)" in index
    # the VK post: a mark at the end of each line of the table it shows
    lines = [ln for ln in post.splitlines() if re.match(r"^\s*\d+\. ", ln)]
    assert lines and all(ln.endswith("✓" if ln.split(" — ")[1].split(" (")[0] in through else "✗") for ln in lines)
    # the Standings tab: a column "Проход в полуфинал" with ✓ / ✗
    header = tab[0]
    col = header.index("Проход в полуфинал")
    marks = {row[1]: row[col] for row in tab[1:]}
    assert {p for p, m in marks.items() if m == "✓"} == through
    assert {p for p, m in marks.items() if m == "✗"} == set(states) - through


@pytest.mark.slow
def test_one_round_before_the_cut_every_bound_holds_the_total(synced):
    doc, site, post, tab = synced[6]
    assert doc["liveness"]["complete"] is False
    for s in doc["standings"]:
        q = s["qualification"]
        assert q["remaining_games"] == 1
        # the qualifying total (the overall one also counts a semifinal lateness typed ahead)
        assert float(q["low"]) <= float(s["stages"]["qualifying"]) <= float(q["high"])
    # penalties left out, a game's best (+2.2) and one best move a table: some are decided a round
    # early, and what is decided holds after the last round
    counts = doc["liveness"]["counts"]
    assert counts["through"] + counts["out"] > 0
    cut = set(synced[7][0]["cuts"]["semifinal"]["players"])
    for s in doc["standings"]:
        state = s["qualification"]["state"]
        assert state == "open" or (s["player"] in cut) == (state == "through")
        # an open player is told the points to the line; a decided one is not
        assert (s["qualification"]["to_get_in"] is None) == (state != "open")
    # the legend says what the marks assume (in the site and the post alike)
    assumption = "отметки считают, что штрафов и пропусков игр больше не будет"
    assert assumption in (site / "index.html").read_text(encoding="utf-8") and assumption in post
    bounds = tab[0].index("Итог этапа: от … до …")
    assert all(re.fullmatch(r"от -?[\d.]+ до -?[\d.]+", row[bounds]) for row in tab[1:1 + len(doc["standings"])])
    line = tab[0].index("До черты (без новых штрафов и пропусков)")
    assert all(row[line] is None or re.fullmatch(r"(до черты: ещё [\d.]+|может пройти и без новых очков)(, наверняка — больше [\d.]+)?"
                                                 r"|наверняка — больше [\d.]+",
                                                 row[line]) for row in tab[1:1 + len(doc["standings"])])


@pytest.mark.slow
def test_the_race_chart_and_the_history(synced):
    doc, site, post, tab = synced[7]
    history = doc["race"]
    assert [r["round"] for r in history["rounds"]] == list(range(1, 8))
    for s in doc["standings"]:  # the last point of the race is the standings now
        assert history["places"][s["player"]][-1] == s["place"]
        assert history["totals"][s["player"]][-1] == s["total"]
    page = (site / "race.html").read_text(encoding="utf-8")
    assert "<script" not in page
    svg = page[page.index("<svg"):page.index("</svg>")]
    top = sorted(doc["standings"], key=lambda s: (s["place"], s["player"]))[:20]
    assert svg.count('class="race-line"') == 20
    for s in top:  # every line is labelled with the place now and the name, linked to the player
        assert f'<a href="{player_file(s["player"])}"><text' in svg and f'{s["place"]}. {s["player"]}</text>' in svg
    player = (site / player_file(top[0]["player"])).read_text(encoding="utf-8")
    shown = ", ".join(str(p) for p in history["places"][top[0]["player"]])
    assert 'class="sparkline"' in player and f"Место по турам: {shown}" in player


def test_no_counted_game_no_race():
    p, names, protos, seating = _random_event(1, "gmo-2016", 20, 2, 10)
    t = tournament(names, [], seating)
    assert race(compute(t, p, validate(t, p))).points == ()


@pytest.mark.slow
@settings(max_examples=examples(10), deadline=None)
@given(seed=st.integers(0, 10_000), k=st.integers(1, 4))
def test_the_race_so_far_does_not_depend_on_later_games(seed, k):
    """Computed from the protocols alone: the race after round k is the start of the race later on,
    and its last point is the standings now."""
    p, names, protos, seating = _random_event(seed, "fiim-2019", 20, 4, 10)
    early = [g for g in protos if g.stage == "qualifying" and g.round <= k]
    # the seating of the semifinal is drawn after the qualifying: not there yet after round k
    t_early = tournament(names, early, [e for e in seating if e.stage == "qualifying"])
    t_full = tournament(names, protos, seating)
    full = compute(t_full, p, validate(t_full, p))
    r_early, r_full = race(compute(t_early, p, validate(t_early, p))), race(full)
    assert r_full.points[:k] == r_early.points
    assert [(pt.stage, pt.round) for pt in r_full.points] == [("qualifying", r) for r in range(1, 5)] + [
        ("semifinal", 1), ("semifinal", 2)]
    assert r_full.points[-1].places == {s.stats.player: s.place for s in full.overall}


@settings(max_examples=examples(10), deadline=None)
@given(seed=st.integers(0, 10_000), k=st.integers(1, 4))
def test_scoring_each_game_once_gives_the_same_standings(seed, k):
    """The race scores each game once for all its rounds (``scored``, issue 17): the standings it
    builds are those of a computation that scores every game again, round by round."""
    p, names, protos, seating = _random_event(seed, "gmo-2016", 20, 4, 10)
    memo: dict = {}
    for r in range(1, k + 1):
        t = tournament(names, [g for g in protos if g.stage == "qualifying" and g.round <= r],
                       [e for e in seating if e.stage == "qualifying"])
        problems = validate(t, p)
        assert compute(t, p, problems, scored=memo) == compute(t, p, problems)
    assert len(memo) == sum(1 for g in protos if g.stage == "qualifying" and g.round <= k)


@pytest.mark.parametrize("rounds, language, legend, title", [
    (2, "ru", "✓ — проходит в полуфинал при любых оставшихся играх, ✗ — уже не может пройти (в полуфинал проходят 10); "
     "отметки считают, что штрафов и пропусков игр больше не будет", "проходит в полуфинал"),
    (2, "en", "✓ through to the semifinal whatever the remaining games give, ✗ cannot reach it any more (10 go on); "
     "the marks assume no further penalties or absences", "through to the semifinal"),
    (3, "en", "✓ through to the semifinal, ✗ not through (10 go on)", "through to the semifinal"),
])
def test_the_marks_are_explained_in_the_tournament_language(rounds, language, legend, title):
    from sheets_sync.render import race as race_view
    from tests.test_liveness import _played

    live = current_liveness(_played(3, rounds, 10))
    stage = "Полуфинал" if language == "ru" else "Semifinal"
    assert race_view.legend(live, stage, language, live.chances) == legend
    assert race_view.mark(live, "a") == "✓" and race_view.mark_title(live, "a", stage, language) == title


# after two of three rounds, a cut of 10 (tests/test_liveness.py works the lines out)
@pytest.mark.parametrize("player, language, line", [
    ("b1", "ru", "может пройти и без новых очков, наверняка — больше 0.20"),
    ("b1", "en", "may go through without another point, for sure: more than 0.20"),
    ("c1", "ru", "до черты: ещё 2.00"),
    ("c1", "en", "to the cut line: 2.00 more"),
    ("a", "ru", ""),  # through: nothing to say
])
def test_the_points_to_the_cut_line_in_words(player, language, line):
    from sheets_sync.render import race as race_view
    from tests.test_liveness import _played

    assert race_view.cut_line(current_liveness(_played(3, 2, 10)), player, language) == line


# -- the race against its plain definition ------------------------------------------------------------
def _plain_race(results):
    """The race by its definition (the module docstring of scoring.race): after every played round,
    ``compute`` again on the games up to it (every earlier stage and rounds ≤ r of that stage), the
    seating of the stages reached so far and the penalties of those rounds; the last point is the
    standings now."""
    t = results.tournament
    order = {k: i for i, k in enumerate(results.preset.stage_keys)}

    def upto(stage, rnd, s, r):
        return s in order and (order[s] < order[stage] or (s == stage and (r is None or r <= rnd)))

    points = []
    rounds = rounds_played(results)
    for i, (stage, rnd) in enumerate(rounds):
        standings = results.overall
        if i < len(rounds) - 1:
            reached = {k for k in order if order[k] <= order[stage]}
            then = replace(t, protocols=tuple(p for p in t.protocols if upto(stage, rnd, p.stage, p.round)),
                           seating=tuple(e for e in t.seating if e.stage in reached),
                           penalties=tuple(e for e in t.penalties if upto(stage, rnd, e.stage, e.round)))
            standings = compute(then, results.preset, results.input_problems, hide=results.hidden).overall
        points.append(RacePoint(stage=stage, round=rnd, places={s.stats.player: s.place for s in standings},
                                shown={s.stats.player: s.places for s in standings},
                                totals={s.stats.player: s.stats.total for s in standings},
                                exact={s.stats.player: s.stats.exact_total for s in standings}))
    return tuple(points)


def _three_stages(rng, preset_id: str, rounds: int, stop: int):
    """A qualifying of ``rounds`` for 30 players (one reserve sits in for an absent player), a
    semifinal of 20 and a final of 10 with 2 games each, typed penalties here and there (some for
    a whole stage), a withdrawn player now and then; ``stop``: how many of its rounds are played
    (the seating of the next stage may be there already)."""
    data = copy.deepcopy(preset_dict(preset_id))
    data["stages"][0]["games"] = rounds
    data["stages"][1] |= {"players": 20, "games": 2}
    data["stages"][2] |= {"players": 10, "games": 2}
    p = Preset.from_dict(data, source="test")
    names = [f"N{i:02d}" for i in range(30)]
    status = {n: PlayerStatus.WITHDRAWN for n in names if rng.random() < 0.05}
    players = [Player(nickname=n, status=status.get(n, PlayerStatus.PLAYING)) for n in names]
    players.append(Player(nickname="R0", status=PlayerStatus.RESERVE))
    protos, seating, penalties = [], [], []
    played = 0
    for stage, count, tables in (("qualifying", rounds, 3), ("semifinal", 2, 2), ("final", 2, 1)):
        if stage != "qualifying":
            so_far = tournament(players, protos, seating, penalties)
            names = list(compute(so_far, p, validate(so_far, p)).cuts[stage].players)
            if len(names) < tables * 10:
                break
        for r in range(1, count + 1):
            order = names[:]
            rng.shuffle(order)
            for t in range(tables):
                at = order[t * 10:(t + 1) * 10]
                seating.append(seating_of(simulate_game(at, stage=stage, round_no=r, table=t + 1, sheet="x",
                                                        preset=p, rng=rng)))
                if played >= stop:
                    continue
                if stage == "qualifying" and rng.random() < 0.2:
                    at = ["R0" if i == 3 else n for i, n in enumerate(at)]  # the reserve sits in: a missed round
                protos.append(simulate_game(at, stage=stage, round_no=r, table=t + 1, sheet=f"{stage}{r}.{t + 1}",
                                            preset=p, rng=rng))
            played += 1
            for _ in range(rng.randint(0, 2)):
                penalties.append(PenaltyEntry(player=rng.choice(names), stage=stage, round=rng.choice([r, None]),
                                              reason=rng.choice(list(PenaltyReason)), minutes_late=rng.randint(0, 20),
                                              points=rng.choice([None, Decimal("-0.5"), Decimal("-1")])))
    return p, tournament(players, protos, seating, penalties)


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 10_000), preset_id=st.sampled_from(["gmo-2016", "fiim-2019"]), rounds=st.integers(1, 4),
       stop=st.integers(1, 8), hide=st.booleans())
def test_the_race_is_its_plain_definition(seed, preset_id, rounds, stop, hide):
    """Whatever the race does to be cheap, every point is what ``compute`` gives on the games up to
    that round: places, shared places, totals and exact totals, with or without a hidden final."""
    p, t = _three_stages(random.Random(seed), preset_id, rounds, stop)
    results = compute(t, p, validate(t, p), hide={"final"} if hide else ())
    assert race(results).points == _plain_race(results)


def test_the_last_answers_go_with_their_argument():
    """scoring.memo holds its arguments weakly: once a cycle's results are gone, so are the race
    and the other answers worked out from them (a long watch keeps no earlier tournament alive);
    an answer that is its argument itself keeps nothing alive either."""
    import gc
    import weakref
    from dataclasses import dataclass

    from scoring.memo import last_answer

    @dataclass(frozen=True, slots=True, weakref_slot=True)
    class Box:
        n: int

    calls = []

    @last_answer
    def doubled(box: Box) -> Box:
        calls.append(box.n)
        return Box(box.n * 2)

    a, b = Box(1), Box(2)
    first = doubled(a)
    assert doubled(b) == Box(4) and doubled(a) is first and calls == [1, 2]  # the last two are remembered
    answer = weakref.ref(first)
    del first, a
    gc.collect()
    assert answer() is None and doubled(b) == Box(4) and calls == [1, 2]
    same = last_answer(lambda box: box)
    c = Box(3)
    assert same(c) is c and same(c) is c
    gone = weakref.ref(c)
    del c
    gc.collect()
    assert gone() is None


# -- issue 34 §11: «может пройти и без новых очков» only where it tells something ------------------------
@pytest.mark.slow
@pytest.mark.parametrize("rounds", [1, 6])
def test_without_another_point_is_said_only_with_one_game_left(tmp_path, rounds):
    """Through the CLI on the example after round ``rounds`` of 7: the Standings tab's «До черты» and the
    site say it to an open player needing no points only when his stage has at most one game left for him
    (after round 1 it was said to everybody on 0 points: true, of no use)."""
    from sheets_sync.render.race import LATE_GAMES

    book = _qualifying_up_to(tmp_path, rounds)
    result = CliRunner().invoke(main, ["sync", str(book)])
    assert result.exit_code == 0, result.output
    outputs = tmp_path / "cup.sheets-sync"  # the workbook's own output folder
    doc = json.loads((outputs / "standings.json").read_text(encoding="utf-8"))
    tab = table([c.value for c in row] for row in openpyxl.load_workbook(book)["Итоги"].iter_rows())
    column = tab[0].index("До черты (без новых штрафов и пропусков)")
    said = {row[1] for row in tab[1:] if row[column] and "без новых очков" in row[column]}
    players = {row[1] for row in tab[1:]}
    free = {s["player"] for s in doc["standings"] if (s.get("qualification") or {}).get("to_get_in") == "0.00"
            and s["player"] in players}
    late = {s["player"] for s in doc["standings"] if s["player"] in free
            and s["qualification"]["remaining_games"] <= LATE_GAMES}
    assert free, "the example has players who need no more points for a chance"
    assert said == late
    assert (said == set()) == (rounds == 1)
    pages = {p: (outputs / "site" / player_file(p)).read_text(encoding="utf-8") for p in free}
    assert {p for p, page in pages.items() if "без новых очков" in page} == said  # the player's page says the same
