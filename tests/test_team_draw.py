"""The draw's teams (issue 36 §4): teammates kept apart as club mates are, and the
team-championship format — every game seats at most one member of each team."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.draw import DrawFormatError, evaluate
from scoring.draw.draws import Teams, check_one_per_game, draw_qualifying
from tests.helpers import examples


def _teammates_together(draw, teams) -> int:
    return sum(1 for rnd in draw.rounds for table in rnd for i, a in enumerate(table) for b in table[i + 1:]
               if teams.get(a) and teams.get(a) == teams.get(b))


# fields the property draws from: (players, tables a round, rounds) with everybody playing equally
FIELDS = [(20, 2, 4), (30, 3, 3), (25, 2, 5), (40, 4, 3)]


@settings(max_examples=examples(12), deadline=None)
@given(st.sampled_from(FIELDS), st.integers(0, 10_000), st.data())
def test_one_per_game_never_seats_two_teammates(field, seed, data):
    n, tables, rounds = field
    names = [f"p{i}" for i in range(n)]
    # teams of 1..tables players, some players with no team
    sizes = data.draw(st.lists(st.integers(1, tables), min_size=1, max_size=n))
    teams, i = {}, 0
    for t, size in enumerate(sizes):
        for _ in range(size):
            if i < n:
                teams[names[i]] = f"T{t}"
                i += 1
    draw = draw_qualifying(names, rounds=rounds, tables=tables, seed=seed, teams=Teams(of=teams, one_per_game=True))
    assert _teammates_together(draw, teams) == 0
    assert draw.report.teams and draw.report.teammate_meetings == 0 == draw.report.teammate_minimum
    assert not draw.report.problems  # every player seated once a round, equal games


@settings(max_examples=examples(8), deadline=None)
@given(st.sampled_from(FIELDS), st.integers(0, 10_000), st.integers(2, 6))
def test_report_counts_teammate_meetings_of_any_seating(field, seed, team_size):
    """The fairness report's count is the pairs of teammates at one table, game by game — also for
    a draw that may not avoid them (teams bigger than the tables)."""
    n, tables, rounds = field
    names = [f"p{i}" for i in range(n)]
    teams = {p: f"T{i // team_size}" for i, p in enumerate(names)}
    draw = draw_qualifying(names, rounds=rounds, tables=tables, seed=seed, teams=Teams(of=teams))
    assert draw.report.teammate_meetings == _teammates_together(draw, teams)
    assert draw.report.teammate_meetings >= draw.report.teammate_minimum
    measured = evaluate(names, draw.rounds, teams=teams)
    assert measured.teammate_meetings == draw.report.teammate_meetings


def test_teammates_kept_apart_instead_of_club_mates():
    names = [f"p{i}" for i in range(20)]
    teams = {p: f"T{i % 5}" for i, p in enumerate(names)}  # five teams of four over two tables: 2+2 is the best
    draw = draw_qualifying(names, rounds=4, tables=2, seed=7, teams=Teams(of=teams))
    assert draw.report.teammate_meetings == draw.report.teammate_minimum == 5 * 2 * 4


def test_without_teams_the_report_has_no_team_line():
    names = [f"p{i}" for i in range(20)]
    draw = draw_qualifying(names, rounds=2, tables=2, seed=1)
    assert not draw.report.teams
    assert not any("команды" in line for line in draw.report.text_lines("ru"))
    assert not any(row and row[0] == "Teammate meetings" for row in draw.report.rows("en"))


def test_report_lines_name_teammate_meetings_in_both_languages():
    names = [f"p{i}" for i in range(20)]
    teams = {p: f"T{i % 10}" for i, p in enumerate(names)}
    draw = draw_qualifying(names, rounds=2, tables=2, seed=1, teams=Teams(of=teams, one_per_game=True))
    assert "Встреч игроков одной команды: 0 (минимально возможно 0)" in draw.report.text_lines("ru")
    assert ["Teammate meetings", 0] in draw.report.rows("en")


@pytest.mark.parametrize("sizes, tables, refused", [
    ({"А": 3, "Б": 2}, 3, ""), ({"А": 4, "Б": 2}, 3, "А (4)"), ({"А": 5, "Б": 4}, 3, "А (5), Б (4)"),
])
def test_one_per_game_refuses_a_team_bigger_than_the_tables(sizes, tables, refused):
    teams = {f"{t}{i}": t for t, m in sizes.items() for i in range(m)}
    if not refused:
        check_one_per_game(teams, list(teams), tables)
        return
    with pytest.raises(DrawFormatError) as e:
        check_one_per_game(teams, list(teams), tables)
    assert refused in str(e.value) and refused in e.value.message("ru") and "teams.one_per_game" in e.value.message("ru")
