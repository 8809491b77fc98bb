"""Seating later stages from the standings: advance, ties at the cut line, replacing a late player."""

import random

import pytest

from scoring.model import Player, PlayerStatus
from scoring.simulate import simulate_game
from sheets_sync.backends.memory import MemoryBackend
from sheets_sync.actions.draw import CommandRefused, advance_workbook, replace_player
from sheets_sync.workbook.layout import protocol_tab, protocol_title
from sheets_sync.presets import load_preset
from sheets_sync.loop.sync import compute, sync_once
from sheets_sync.workbook.tournament_setup import simple_seating, workbook_patch

PRESET, _ = load_preset("gmo-2016")
NAMES = [f"Игрок {i:02d}" for i in range(40)]


def _play(backend: MemoryBackend, stage: str, seed: int, *, skip=()) -> None:
    """Simulate every seated game of ``stage`` and type it into its protocol tab."""
    rng = random.Random(seed)
    outcome = compute(backend.read())
    for e in outcome.results.tournament.seating:
        if e.stage != stage:
            continue
        title = protocol_title(PRESET, e.stage, e.round, e.table, "ru")
        if title in skip:
            continue
        game = simulate_game(list(e.players), stage=stage, round_no=e.round, table=e.table, sheet=title, preset=PRESET, rng=rng)
        tab = protocol_tab(title=title, stage_name=PRESET.stage(stage).name("ru"), round_no=e.round, table=e.table,
                           players=e.players, language="ru", preset=PRESET, protocol=game)
        backend.tabs[title] = [list(r) for r in tab.rows]
        backend.version += 1


@pytest.fixture
def qualified() -> MemoryBackend:
    players = [Player(nickname=n) for n in NAMES]
    seating = simple_seating(NAMES, "qualifying", 7)
    backend = MemoryBackend()
    backend.apply(workbook_patch(name="T", preset=PRESET, language="ru", players=players, seating=seating), base=None)
    _play(backend, "qualifying", 1)
    return backend


def test_advance_seats_top_20_then_top_10(qualified):
    before = compute(qualified.read())
    top20 = [s.stats.player for s in before.results.stages["qualifying"][:20]]
    result = advance_workbook(qualified, seed=2)
    assert result.stage == "semifinal"
    assert sorted({n for e in result.entries for n in e.players}) == sorted(top20)
    assert len(result.entries) == 6  # 2 tables × 3 games
    assert {"ПФ 1 Стол 1", "ПФ 3 Стол 2"} <= set(qualified.tabs)
    for r in (1, 2, 3):  # everyone plays every semifinal game exactly once
        seated = [n for e in result.entries if e.round == r for n in e.players]
        assert sorted(seated) == sorted(top20)

    _play(qualified, "semifinal", 3)
    final = advance_workbook(qualified)
    assert final.stage == "final" and len(final.entries) == 4
    seats = {n: [e.players.index(n) + 1 for e in final.entries] for n in final.entries[0].players}
    assert all(len(set(s)) == 4 for s in seats.values())  # a different seat every game
    assert len({sum(s) for s in seats.values()}) == 1  # equal seat sums
    with pytest.raises(CommandRefused, match="already seated"):
        advance_workbook(qualified)


def test_advance_refuses_an_incomplete_stage(qualified):
    for cell in [(5, 1)]:
        qualified.tabs["Тур 7 Стол 4"][cell[0]][cell[1]] = None  # winner erased: game not finished
    with pytest.raises(CommandRefused, match="not complete"):
        advance_workbook(qualified)


def test_advance_stops_at_a_tie_on_the_cut_line():
    # 20 players who all score exactly the same: everyone ties at the cut line of a 10-player final
    names = NAMES[:20]
    data = load_preset("gmo-2016")[0]
    players = [Player(nickname=n) for n in names]
    seating = simple_seating(names, "qualifying", 7)
    backend = MemoryBackend()
    backend.apply(workbook_patch(name="T", preset=data, language="ru", players=players, seating=seating), base=None)
    # no game typed, semifinal of 20 is the whole field: force past the incomplete qualifying
    result = advance_workbook(backend, force=True)
    assert result.stage == "semifinal"
    with pytest.raises(CommandRefused, match="tie at the cut line"):
        advance_workbook(backend, force=True)


def test_replace_a_late_semifinalist_by_the_next_in_the_ranking(qualified):
    advance_workbook(qualified, seed=2)
    outcome = compute(qualified.read())
    ranking = [s.stats.player for s in outcome.results.stages["qualifying"]]
    late = ranking[5]
    newcomer, result = replace_player(qualified, player=late)
    assert newcomer == ranking[20]
    seated = {n for e in result.entries for n in e.players}
    assert late not in seated and newcomer in seated
    # the pre-filled protocol tabs follow the seating
    report = sync_once(qualified, out_dir=None)
    semi = [p for p in report.outcome.results.tournament.protocols if p.stage == "semifinal"]
    assert all(late not in [s.player for s in p.seats] for p in semi)
    assert any(newcomer in [s.player for s in p.seats] for p in semi)


def test_hand_edited_seating_is_validated_and_used(qualified):
    tab = qualified.tabs["Рассадка"]
    # swap two players of round 1 by hand (tables 1 and 2, seat 1)
    a, b = tab[1][3], tab[2][3]
    tab[1][3], tab[2][3] = b, a
    qualified.version += 1
    outcome = compute(qualified.read())
    rules = {p.rule for p in outcome.problems}
    assert "player.not_seated_here" in rules  # protocols still show the old seats
    # a player twice in one round is an error of the seating
    tab[1][4] = tab[1][3]
    qualified.version += 1
    outcome = compute(qualified.read())
    assert any(p.rule == "seating.twice_in_round" for p in outcome.problems)


def test_sync_seats_the_next_stage_once_the_chief_judge_confirms(qualified):
    report = sync_once(qualified, out_dir=None)
    assert report.advanced is None and not any(e.stage == "semifinal" for e in report.outcome.results.tournament.seating)
    tab = qualified.tabs["Турнир"]
    row = next(r for r in tab if r and r[0] == "Этап подтверждён")
    row[1:] = ["Отбор"]
    qualified.version += 1
    report = sync_once(qualified, out_dir=None)
    assert report.advanced and "20" in report.advanced
    assert "ПФ 1 Стол 1" in qualified.tabs
    again = sync_once(qualified, out_dir=None)
    assert again.advanced is None  # seated once; hand edits of the semifinal seating are never redrawn
    semi = {n for e in again.outcome.results.tournament.seating if e.stage == "semifinal" for n in e.players}
    assert semi == set(report.outcome.results.cuts["semifinal"].players)


# -- clubs: every real tournament has them ------------------------------------------------------------
@pytest.fixture
def qualified_with_clubs() -> MemoryBackend:
    """40 players in eight clubs of five, plus a reserve of one of those clubs, qualifying played."""
    players = [Player(nickname=n, club=f"Клуб {i % 8}") for i, n in enumerate(NAMES)]
    players.append(Player(nickname="Запасной", club="Клуб 0", status=PlayerStatus.RESERVE))
    backend = MemoryBackend()
    backend.apply(workbook_patch(name="T", preset=PRESET, language="ru", players=players,
                                 seating=simple_seating(NAMES, "qualifying", 7)), base=None)
    _play(backend, "qualifying", 1)
    return backend


def _same_club_meetings(entries, club) -> int:
    return sum(club[a] == club[b] for e in entries for i, a in enumerate(e.players) for b in e.players[i + 1:])


def test_advance_with_clubs_seats_the_cut_and_keeps_club_mates_apart(qualified_with_clubs):
    club = {n: f"Клуб {i % 8}" for i, n in enumerate(NAMES)}
    top20 = compute(qualified_with_clubs.read()).results.cuts["semifinal"].players
    result = advance_workbook(qualified_with_clubs, seed=2)
    assert {n for e in result.entries for n in e.players} == set(top20)
    report = result.draw.report
    assert report.same_club_meetings == report.same_club_minimum == _same_club_meetings(result.entries, club)
    # the club report of the semifinal counts only semifinalists' clubs
    assert {p.name for p in report.players} == set(top20)


def test_sync_seats_the_semifinal_with_clubs_when_confirmed(qualified_with_clubs):
    tab = qualified_with_clubs.tabs["Турнир"]
    next(r for r in tab if r and r[0] == "Этап подтверждён")[1:] = ["Отбор"]
    qualified_with_clubs.version += 1
    report = sync_once(qualified_with_clubs, out_dir=None)
    assert report.advanced == "Полуфинал: рассажено игроков: 20"  # in the tournament's language
    assert "ПФ 3 Стол 2" in qualified_with_clubs.tabs


def test_replace_with_clubs_reports_the_new_seating_with_their_clubs(qualified_with_clubs):
    advance_workbook(qualified_with_clubs, seed=2)
    ranking = [s.stats.player for s in compute(qualified_with_clubs.read()).results.stages["qualifying"]]
    newcomer, result = replace_player(qualified_with_clubs, player=ranking[3])
    assert newcomer == ranking[20]
    club = {n: f"Клуб {i % 8}" for i, n in enumerate(NAMES)}
    assert result.draw.report.same_club_meetings == _same_club_meetings(result.entries, club)
    assert {p.name for p in result.draw.report.players} == set(ranking[:20]) - {ranking[3]} | {newcomer}


@pytest.mark.parametrize("case, reason", [
    ("all seated", "all_seated"),
    ("unknown stage", "unknown_stage"),
    ("incomplete", "incomplete"),
])
def test_plan_stage_refuses_with_a_reason(qualified, case, reason):
    from scoring.advance import Refusal, plan_stage

    if case == "all seated":
        advance_workbook(qualified, seed=2)
        _play(qualified, "semifinal", 3)
        advance_workbook(qualified)
    if case == "incomplete":
        qualified.tabs["Тур 7 Стол 4"][5][1] = None
        qualified.version += 1
    plan = plan_stage(compute(qualified.read()).results, stage="quarterfinal" if case == "unknown stage" else None)
    assert isinstance(plan, Refusal) and plan.reason == reason
    assert plan.message("ru") and plan.message("en") and plan.message("ru") != plan.message("en")
