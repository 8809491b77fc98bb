"""Teams and side classifications (issue 36 §4): the Players tab's «Команда» and «Зачёт», the
preset's [teams], team standings and classification tables from the main standings."""

from __future__ import annotations

import copy
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.model import Player, PlayerStatus
from scoring.parse.players import _parse_players
from scoring.preset import Preset, PresetError, TeamRule
from scoring.standings import Standing, compute
from scoring.stats import PlayerStats
from scoring.teams import classification_tables, shown_points, sides, team_standings
from tests.helpers import examples, preset_dict, protocol, tournament


# -- the Players tab ------------------------------------------------------------------------------
def _players(rows, header=("Игрок", "Клуб", "Статус", "Команда", "Зачёт")):
    problems = []
    players, judges, _applications = _parse_players({"Игроки": [list(header), *map(list, rows)]}, problems)
    return players, judges, [(p.rule, p.severity.value, p.location.cell if p.location else None) for p in problems]


def test_team_and_classifications_read_by_header_in_either_language():
    players, _, problems = _players([["Аня", "Клуб", "", "Динамо", "женский, юниоры"],
                                     ["Боря", "", "", "Спартак", ""]],
                                    header=("Player", "Club", "Status", "Team", "Classification"))
    assert problems == []
    assert [(p.team, p.classifications) for p in players] == [("Динамо", ("женский", "юниоры")), ("Спартак", ())]
    assert players[0].team_location.cell == "D2"


@pytest.mark.parametrize("typed, expected", [
    ("женский", ("женский",)), ("женский,юниоры", ("женский", "юниоры")), (" женский ;  юниоры ", ("женский", "юниоры")),
    ("женский, , юниоры,", ("женский", "юниоры")), ("Женский, женский", ("Женский",)), ("", ()),
    ("новички  года", ("новички года",)),
])
def test_classification_cell_spellings(typed, expected):
    players, _, problems = _players([["Аня", "", "", "", typed]])
    assert problems == [] and players[0].classifications == expected


def test_one_spelling_per_team_and_classification_the_first_typed():
    players, _, problems = _players([["Аня", "", "", "Динамо", "Женский"], ["Боря", "", "", "динамо ", "женский"],
                                     ["Вера", "", "", "Д инамо", ""]])
    assert [p.team for p in players] == ["Динамо", "Динамо", "Д инамо"]
    assert [p.classifications for p in players] == [("Женский",), ("Женский",), ()]
    assert problems == [("read.similar_teams", "warning", "D3")]


def test_a_judge_with_a_team_is_warned_and_listed_as_judge():
    players, judges, problems = _players([["Аня", "", "судья", "Динамо", ""]])
    assert players == () and [j.nickname for j in judges] == ["Аня"]
    assert problems == [("read.team_of_judge", "warning", "D2")]


def test_without_the_columns_nothing_changes():
    players, _, problems = _players([["Аня", "Клуб", ""]], header=("Игрок", "Клуб", "Статус"))
    assert problems == [] and players[0].team == "" and players[0].classifications == ()
    assert players[0] == Player(nickname="Аня", club="Клуб", location=players[0].location)


# -- the preset's [teams] -------------------------------------------------------------------------
def _preset(**teams) -> Preset:
    data = copy.deepcopy(preset_dict("gmo-2016"))
    data["teams"] = teams
    return Preset.from_dict(data, source="t.toml")


@pytest.mark.parametrize("teams, error", [
    ({"count": "median"}, "teams.count"),
    ({"count": "best"}, "teams.best: count = \"best\" needs best"),
    ({"best": 3}, "only read with count = \"best\""),
    ({"tiebreaks": ["wins", "wins"]}, "'wins' is listed twice"),
    ({"tiebreaks": ["ci"]}, "unknown team tiebreak 'ci'"),
    ({"tie_breaks": []}, "teams.tie_breaks: unknown key"),
    ({"one_per_game": "maybe"}, "teams.one_per_game"),
])
def test_teams_section_rejects_what_it_cannot_mean(teams, error):
    with pytest.raises(PresetError) as e:
        _preset(**teams)
    assert error in str(e.value)


def test_teams_section_defaults():
    assert preset_dict("gmo-2016").get("teams") is None
    assert _preset().teams == TeamRule(count="sum", best=0, tiebreaks=("best_member", "wins"), apart=True,
                                       one_per_game=False)


# -- team standings (table-driven, from hand-made main standings) ---------------------------------
def _standing(name: str, place: int, total: str, *, games: int = 3, wins: int = 0, places: str | None = None) -> Standing:
    stats = PlayerStats(player=name, total=Decimal(total), games=games, wins=wins)
    return Standing(place=place, places=places or str(place), stats=stats)


OVERALL = (_standing("А1", 1, "9.5", wins=3), _standing("Б1", 2, "8", wins=2), _standing("А2", 3, "6.25"),
           _standing("Б2", 4, "6", wins=1), _standing("В1", 5, "5.5"), _standing("Б3", 6, "4", wins=1),
           _standing("А3", 7, "1"), _standing("Г1", 8, "0", games=0))
TEAMS = {"А1": "Альфа", "А2": "Альфа", "А3": "Альфа", "Б1": "Бета", "Б2": "Бета", "Б3": "Бета", "В1": "Вега",
         "Г1": "Гамма"}
PLAYERS = tuple(Player(nickname=n, team=t) for n, t in TEAMS.items())


@pytest.mark.parametrize("rule, expected", [
    # Альфа 9.5+6.25+1 = 16.75, Бета 8+6+4 = 18, Вега 5.5, Гамма has not played: last
    (TeamRule(), [("Бета", "1", "18"), ("Альфа", "2", "16.75"), ("Вега", "3", "5.5"), ("Гамма", "4", "0")]),
    # best two: Альфа 15.75, Бета 14
    (TeamRule(count="best", best=2), [("Альфа", "1", "15.75"), ("Бета", "2", "14"), ("Вега", "3", "5.5"),
                                      ("Гамма", "4", "0")]),
    # average over members who played: Альфа 16.75/3 = 5.58(3) → 5.58, Бета 6, Вега 5.5
    (TeamRule(count="average"), [("Бета", "1", "6.00"), ("Альфа", "2", "5.58"), ("Вега", "3", "5.50"),
                                 ("Гамма", "4", "0.00")]),
    # best one: Альфа 9.5, Бета 8
    (TeamRule(count="best", best=1), [("Альфа", "1", "9.5"), ("Бета", "2", "8"), ("Вега", "3", "5.5"),
                                      ("Гамма", "4", "0")]),
])
def test_team_points_by_count(rule, expected):
    table = team_standings(OVERALL, PLAYERS, rule)
    assert [(t.team, t.places, str(t.points)) for t in table] == expected


def test_best_k_marks_the_counted_members_and_keeps_every_member_listed():
    table = team_standings(OVERALL, PLAYERS, TeamRule(count="best", best=2))
    alfa = table[0]
    assert [(m.player, m.places, m.counted) for m in alfa.members] == [("А1", "1", True), ("А2", "3", True),
                                                                       ("А3", "7", False)]
    assert alfa.counted == 2 and alfa.exact == Fraction("15.75")


@pytest.mark.parametrize("chain, expected_order, why", [
    # equal points (10 each): Икс's best member has 6 (Игрек's 5), Игрек's members won more
    (("best_member", "wins"), ["Икс", "Игрек"], "best_member"),
    (("wins", "best_member"), ["Игрек", "Икс"], "wins"),
    (("best_place",), ["Икс", "Игрек"], "best_place"),
    ((), ["Игрек", "Икс"], "shared"),  # no tiebreak: one shared place, listed by name
])
def test_equal_team_points_broken_by_the_presets_chain(chain, expected_order, why):
    overall = (_standing("x1", 1, "6"), _standing("y1", 2, "5", wins=2), _standing("y2", 2, "5", wins=1, places="2–3"),
               _standing("x2", 4, "4"))
    players = tuple(Player(nickname=n, team={"x": "Икс", "y": "Игрек"}[n[0]]) for n in ("x1", "x2", "y1", "y2"))
    table = team_standings(overall, players, TeamRule(tiebreaks=chain))
    assert [t.team for t in table] == expected_order and table[0].tiebreak == why
    assert [t.places for t in table] == (["1–2", "1–2"] if why == "shared" else ["1", "2"])


def test_shown_average_rounds_half_up_to_the_hundredth_and_ranks_exactly():
    assert shown_points(Fraction(1, 8), "average", Decimal(0)) == Decimal("0.13")
    assert shown_points(Fraction(-1, 8), "average", Decimal(0)) == Decimal("-0.13")
    assert shown_points(Fraction(2, 3), "sum", Decimal("0.67")) == Decimal("0.67")


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(-20, 60)), min_size=1, max_size=24),
       st.sampled_from([TeamRule(), TeamRule(count="average"), TeamRule(count="best", best=2)]))
def test_team_table_properties(rows, rule):
    """Every member of every team is listed once; teams are ordered by exact points (played first);
    the shown sum is the counted members' shown points; the order never depends on the input order."""
    overall = tuple(_standing(f"p{i}", i + 1, str(Decimal(pts) / 4)) for i, (_, pts) in enumerate(rows))
    players = tuple(Player(nickname=f"p{i}", team=f"T{team}") for i, (team, _) in enumerate(rows))
    table = team_standings(overall, players, rule)
    assert sorted(m.player for t in table for m in t.members) == sorted(p.nickname for p in players)
    assert [t.exact for t in table] == sorted((t.exact for t in table), reverse=True)
    for t in table:
        if rule.count != "average":
            assert t.points == sum((m.points for m in t.members if m.counted), Decimal(0))
    assert team_standings(overall, tuple(reversed(players)), rule) == table


# -- classifications --------------------------------------------------------------------------------
def test_classification_places_counted_among_its_players_shared_where_main_places_are():
    overall = (_standing("a", 1, "9"), _standing("b", 2, "8", places="2–3"), _standing("c", 2, "8", places="2–3"),
               _standing("d", 4, "7"), _standing("e", 5, "1"))
    players = (Player(nickname="a"), Player(nickname="b", classifications=("женский",)),
               Player(nickname="c", classifications=("юниоры", "женский")), Player(nickname="d", classifications=("юниоры",)),
               Player(nickname="e", classifications=("женский",)))
    tables = classification_tables(overall, players)
    assert [c.name for c in tables] == ["женский", "юниоры"]
    assert [(e.standing.stats.player, e.places, e.standing.places) for e in tables[0].entries] == [
        ("b", "1–2", "2–3"), ("c", "1–2", "2–3"), ("e", "3", "5")]
    assert [(e.standing.stats.player, e.places) for e in tables[1].entries] == [("c", "1"), ("d", "2")]


# -- through compute: reserves are nobody's members, a tournament without teams has none ------------
def test_sides_of_computed_results():
    names = [f"p{i}" for i in range(10)]
    players = [Player(nickname=n, team="Чёт" if i % 2 == 0 else "Нечет", classifications=("юниоры",) if i < 3 else ())
               for i, n in enumerate(names)]
    players.append(Player(nickname="R", team="Чёт", status=PlayerStatus.RESERVE))
    game = protocol(names, "дммшкккккк", "red")
    results = compute(tournament(players, [game]), _preset(count="sum"), [])
    found = sides(results)
    by_player = {st.stats.player: st.stats.total for st in results.overall}
    assert {t.team: t.points for t in found.teams} == {
        "Чёт": sum(by_player[n] for n in names[0::2]), "Нечет": sum(by_player[n] for n in names[1::2])}
    assert all(m.player != "R" for t in found.teams for m in t.members)
    assert [e.standing.stats.player for e in found.classifications[0].entries] == sorted(
        names[:3], key=lambda n: [st.stats.player for st in results.overall].index(n))
    plain = compute(tournament(names, [game]), _preset(), [])
    assert sides(plain).teams == () and sides(plain).classifications == ()


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.tuples(st.integers(-4, 12), st.sets(st.sampled_from(["ж", "ю", "н"]), max_size=3)),
                min_size=1, max_size=20))
def test_classification_properties(rows):
    """Each classification lists exactly its players, in the main standings' order; its places start at
    1, never go down, and two of its players share a place exactly when they share the main one."""
    ranked = sorted(enumerate(rows), key=lambda r: -r[1][0])
    overall, place_of = [], {}
    for i, (_, (pts, _)) in enumerate(ranked):
        place_of.setdefault(pts, i + 1)
    for idx, (pts, _) in ranked:
        first = place_of[pts]
        last = first + sum(1 for _, (p, _) in ranked if p == pts) - 1
        overall.append(_standing(f"p{idx}", first, str(pts), places=f"{first}–{last}" if last > first else str(first)))
    players = tuple(Player(nickname=f"p{i}", classifications=tuple(sorted(c))) for i, (_, c) in enumerate(rows))
    for table in classification_tables(tuple(overall), players):
        members = [st.stats.player for st in overall
                   if table.name in players[int(st.stats.player[1:])].classifications]
        assert [e.standing.stats.player for e in table.entries] == members
        assert table.entries[0].place == 1
        assert [e.place for e in table.entries] == sorted(e.place for e in table.entries)
        for a, b in zip(table.entries, table.entries[1:]):
            assert (a.place == b.place) == (a.standing.place == b.standing.place)


@pytest.mark.parametrize("typed, path, value", [
    ("команды.зачёт", "teams.count", "average"), ("командный зачет", "teams.count", "average"),
    ("команды.лучших", "teams.best", "3"), ("команды.разводить", "teams.apart", "нет"),
])
def test_tournament_tab_names_the_team_settings_in_russian(typed, path, value):
    from scoring.preset import OVERRIDE_ALIASES, normalise_override_key

    assert OVERRIDE_ALIASES.get(normalise_override_key(typed), normalise_override_key(typed)) == path
