"""Advance keeps the preset's team rules (issue 36 §4): a semifinal or final seated by `advance`
(or by the sync once the chief judge confirms) keeps teammates apart and seats one member of
each team per game exactly as the first draw does — and when the standings put more of one team
into a stage than it has tables, says so naming the team and its players, and seats them apart
as well as it can (never silently)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.advance import crowded_teams, teams_rule_for
from scoring.draw.draws import draw_final, draw_stage
from scoring.draw.formats import Teams
from scoring.model import Player
from scoring.preset import TeamRule
from scoring.problems import Text
from sheets_sync.actions.draw import advance_workbook, replace_player
from sheets_sync.backends.memory import MemoryBackend
from sheets_sync.workbook.layout import draw_report_tab
from sheets_sync.loop.sync import compute, sync_once
from sheets_sync.workbook.tournament_setup import simple_seating, workbook_patch
from tests.helpers import examples
from tests.test_advance import NAMES, PRESET, _play

SEMIFINAL = Text("Полуфинал", "Semifinal")


def _together(rounds, teams) -> int:
    """Pairs of teammates at one table, game by game."""
    return sum(1 for rnd in rounds for table in rnd for i, a in enumerate(table) for b in table[i + 1:]
               if teams.get(a) and teams.get(a) == teams.get(b))


# -- the rule for a stage, table-driven ------------------------------------------------------------
FIELD = [f"p{i:02d}" for i in range(20)]


@pytest.mark.parametrize("rule, team_of, tables, hard, crowded", [
    # nobody has a team: the draw as it always was
    (TeamRule(one_per_game=True), {}, 2, None, ()),
    # apart, no one per game: teammates kept apart as club mates are (soft), nothing to say
    (TeamRule(), {"p00": "A", "p01": "A", "p02": "A"}, 2, False, ()),
    # neither apart nor one per game: teams mean nothing to the draw
    (TeamRule(apart=False), {"p00": "A", "p01": "A"}, 2, None, ()),
    # one per game holds: two of a team at two tables
    (TeamRule(one_per_game=True), {"p00": "A", "p19": "A", "p05": "B"}, 2, True, ()),
    # one per game with apart off: still the hard rule (as the first draw does)
    (TeamRule(apart=False, one_per_game=True), {"p00": "A", "p19": "A"}, 2, True, ()),
    # three of A at two tables: cannot hold; A named with its players in ranking order
    (TeamRule(one_per_game=True), {"p07": "A", "p00": "A", "p03": "A", "p01": "B", "p02": "B"}, 2, False,
     (("A", ("p00", "p03", "p07")),)),
    # a final: one table, any two teammates break it; both teams named, by name
    (TeamRule(one_per_game=True), {"p00": "Б", "p01": "Б", "p02": "А", "p09": "А", "p05": "В"}, 1, False,
     (("А", ("p02", "p09")), ("Б", ("p00", "p01")))),
])
def test_the_team_rule_of_a_later_stage(rule, team_of, tables, hard, crowded):
    players = FIELD[:10 * tables]
    got = teams_rule_for(team_of, players, tables, rule, SEMIFINAL)
    if hard is None:
        assert got.teams is None and got.notice is None
        return
    assert got.teams == Teams(of={p: t for p, t in team_of.items() if p in players}, one_per_game=hard)
    assert got.crowded == crowded
    if not crowded:
        assert got.notice is None
        return
    for team, members in crowded:  # the notice names every crowded team and its players, in both languages
        assert team in got.notice.ru and team in got.notice.en
        assert all(m in got.notice.ru and m in got.notice.en for m in members)
    assert got.notice.ru.startswith("Полуфинал:") and got.notice.en.startswith("Semifinal:")
    assert f"столов в туре {tables}" in got.notice.ru


def test_players_outside_the_stage_do_not_crowd_it():
    """Only the stage's own players count: a team's other members (not qualified) change nothing."""
    teams = {"p00": "A", "p01": "A", "x1": "A", "x2": "A"}
    assert crowded_teams(teams, FIELD, 2) == ()
    assert teams_rule_for(teams, FIELD, 2, TeamRule(one_per_game=True), SEMIFINAL).teams.one_per_game


# -- the property: one per game whenever it can hold ----------------------------------------------
@settings(max_examples=examples(15), deadline=None)
@given(st.integers(1, 3), st.integers(0, 10_000), st.data())
def test_a_later_stage_never_seats_two_teammates_when_it_can_hold(tables, seed, data):
    """Any teams (of any size, some players with none): when every team has at most one player
    a table, the stage's draw never seats two at a game; otherwise the rule names exactly the
    teams that break it, and the draw still seats everybody once a game."""
    players = [f"p{i:02d}" for i in range(10 * tables)]
    team_of = {p: f"T{t}" for p in players if (t := data.draw(st.integers(-1, 12), label=p)) >= 0}
    games = 1 if tables == 1 else 2
    rule = teams_rule_for(team_of, players, tables, TeamRule(one_per_game=True), SEMIFINAL)
    if tables == 1:
        draw = draw_final(players, games=3, teams=rule.teams.of if rule.teams else None)
    else:
        draw = draw_stage(players, tables=tables, games=games, seed=seed, teams=rule.teams)
    sizes: dict[str, int] = {}
    for p, t in team_of.items():
        sizes[t] = sizes.get(t, 0) + 1
    feasible = all(m <= tables for m in sizes.values())
    assert (rule.notice is None) == feasible
    assert {t for t, _ in rule.crowded} == {t for t, m in sizes.items() if m > tables}
    if feasible:
        assert _together(draw.rounds, team_of) == 0
    assert all(sorted(p for table in rnd for p in table) == players for rnd in draw.rounds)
    if rule.teams is not None:
        assert draw.report.teammate_meetings == _together(draw.rounds, team_of)


# -- through advance and the sync --------------------------------------------------------------------
def _cut_order() -> tuple[str, ...]:
    """The semifinal's 20 in ranking order after the test_advance qualifying (teams change nothing of it)."""
    backend = _qualified({})
    return compute(backend.read()).results.cuts["semifinal"].players


def _qualified(team_of: dict[str, str], *, one_per_game: bool = True) -> MemoryBackend:
    players = [Player(nickname=n, team=team_of.get(n)) for n in NAMES]
    backend = MemoryBackend()
    rows = [("teams.one_per_game", "да" if one_per_game else "нет")]
    backend.apply(workbook_patch(name="T", preset=PRESET, language="ru", players=players,
                                 seating=simple_seating(NAMES, "qualifying", 7), settings=rows), base=None)
    _play(backend, "qualifying", 1)
    return backend


@pytest.fixture(scope="module")
def cut() -> tuple[str, ...]:
    return _cut_order()


def test_advance_seats_one_member_of_each_team_per_semifinal_game(cut):
    """Ten teams of two semifinalists (ranks 1+20, 2+19, …) plus their non-qualified members: at two
    tables the hard rule holds — no semifinal game seats two teammates, and nothing is said."""
    team_of = {p: f"Команда {min(i, 19 - i)}" for i, p in enumerate(cut)}
    team_of |= {p: f"Команда {i % 10}" for i, p in enumerate(n for n in NAMES if n not in cut)}
    backend = _qualified(team_of)
    result = advance_workbook(backend, seed=3)
    assert result.stage == "semifinal" and result.notice is None
    assert len({n for e in result.entries for n in e.players}) == 20
    assert _together([[e.players] for e in result.entries], team_of) == 0
    assert result.draw.report.teams and result.draw.report.teammate_meetings == 0


def test_advance_names_the_team_a_semifinal_cannot_split(cut):
    """Three of one team among the 20 at two tables: advance still seats the semifinal (the
    standings chose who plays), says which team and who, on the draw report tab too, and keeps
    the three as far apart as two tables allow (one pair a game, never all three)."""
    team_of = {cut[0]: "Север", cut[5]: "Север", cut[11]: "Север", cut[1]: "Юг", cut[2]: "Юг"}
    backend = _qualified(team_of)
    result = advance_workbook(backend, seed=3)
    assert result.notice is not None
    for name in ("Север", cut[0], cut[5], cut[11]):
        assert name in result.notice.ru
    assert "Юг" not in result.notice.ru  # two of Юг at two tables: the rule held for them
    games = [[e.players] for e in result.entries]
    assert _together(games, {p: t for p, t in team_of.items() if t == "Юг"}) == 0
    assert _together(games, team_of) == len(result.entries) // 2  # Север: exactly one pair a round, the least possible
    report = backend.tabs["Жеребьёвка"]
    assert report[2][0] == result.notice.ru


def test_advance_to_the_final_names_the_team_with_two_finalists(cut):
    """A final is one table: two finalists of one team cannot be split; advance seats the final and
    says so, naming the team (the same words in the sync's own advance)."""
    backend = _qualified({})
    advance_workbook(backend, seed=3)
    _play(backend, "semifinal", 2)
    finalists = compute(backend.read()).results.cuts["final"].players
    _type_teams(backend, {finalists[0]: "Восток", finalists[9]: "Восток"})
    result = advance_workbook(backend)
    assert result.stage == "final" and result.notice is not None
    assert "Восток" in result.notice.ru and finalists[0] in result.notice.ru and finalists[9] in result.notice.ru
    assert "Восток" in result.notice.en
    assert result.draw.report.teams and result.draw.report.teammate_meetings == len(result.entries)


def _type_teams(backend: MemoryBackend, team_of: dict[str, str]) -> None:
    """A «Команда» column typed onto the Players tab after the workbook was made."""
    players = backend.tabs["Игроки"]
    header = list(players[0])
    column = len(header)
    players[0] = [*header, "Команда"]
    for i, row in enumerate(players[1:], 1):
        players[i] = [*row, *([""] * (column - len(row))), team_of.get(row[0], "")]
    backend.version += 1


@pytest.mark.parametrize("one_per_game", [True, False])
def test_a_replacement_that_seats_two_of_a_team_together_is_said(one_per_game):
    """`replace` swaps one name and never reseats the stage: when the newcomer's teammate sits at one
    of his new games and the preset wants one per game, the outcome names the team, the players and
    the games (round and table); without the rule nothing is said."""
    backend = _qualified({}, one_per_game=one_per_game)
    advance_workbook(backend, seed=2)
    ranking = [s.stats.player for s in compute(backend.read()).results.stages["qualifying"]]
    late, newcomer = ranking[5], ranking[20]
    entry = next(e for e in compute(backend.read()).results.tournament.seating
                 if e.stage == "semifinal" and late in e.players)
    mate = next(p for p in entry.players if p != late)
    _type_teams(backend, {newcomer: "Восток", mate: "Восток"})
    replaced, result = replace_player(backend, player=late)
    assert replaced == newcomer
    if not one_per_game:
        assert result.notice is None
        return
    assert result.notice is not None
    for word in ("Восток", newcomer, mate, f"тур {entry.round}, стол {entry.table}"):
        assert word in result.notice.ru
    assert f"round {entry.round}, table {entry.table}" in result.notice.en
    assert result.draw.report.teams and result.draw.report.teammate_meetings >= 1


def test_the_sync_own_advance_says_it_too(cut):
    """The sync's advance (the chief judge confirmed the qualifying) seats the semifinal with the
    same rule and puts the notice into its line for the organizer."""
    team_of = {cut[0]: "Север", cut[5]: "Север", cut[11]: "Север"}
    backend = _qualified(team_of)
    tab = backend.tabs["Турнир"]
    next(r for r in tab if r and r[0] == "Этап подтверждён")[1:] = ["Отбор"]
    backend.version += 1
    report = sync_once(backend, out_dir=None)
    assert report.advanced and "Полуфинал: рассажено игроков: 20" in report.advanced
    assert "Север" in report.advanced and cut[11] in report.advanced


def test_the_draw_report_tab_carries_a_note_under_its_title():
    draw = draw_final(FIELD[:10], games=2)
    plain = draw_report_tab(draw.report, stage_name="Финал", language="ru")
    noted = draw_report_tab(draw.report, stage_name="Финал", language="ru", notes=("Финал: команда А — 2",))
    assert noted.rows[2] == ("Финал: команда А — 2",)
    assert noted.rows[:2] + noted.rows[3:] == plain.rows
    assert len(noted.row_heights) == len(noted.rows)
