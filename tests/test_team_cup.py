"""The team-cup example preset (config/examples/team-cup.toml) through the real CLI: teams and
classifications typed on the Players tab (from the CSV ``init`` reads), the one-member-per-team
draw, and every output — standings.json checked exactly against totals worked out by hand, the
Итоги tab, the «Команды» and «Зачёты» tabs, the site's team and classification pages, the VK post."""

from __future__ import annotations

import json
import shutil
from decimal import Decimal as D
from pathlib import Path

import pytest
from click.testing import CliRunner

from scoring.draw.formats import Teams
from scoring.preset import TeamRule
from sheets_sync.actions.draw import draw_teams
from sheets_sync.cli import main

from tests.helpers import table as owned_table
from tests.test_export_mwt import STANDINGS, assert_valid
from tests.judge import ExcelDesk
from tests.test_scheme_examples import EXAMPLES, Game, cli, play, type_seating

TEAMS = ["А", "Б", "В", "Г", "Д", "Е", "Ж", "З", "И", "К"]
PLAYERS = [f"{t}{m}" for t in TEAMS for m in (1, 2, 3)]
CLASSES = {"А3": "юниоры", "Б2": "женский", "Г2": "Женский, юниоры", "И1": "женский"}


def member(team: str, m: int) -> str:
    return f"{team}{m}"


# round 1: table t seats member t of every team; round 2: member t of А…Д, member t+1 (3 → 1) of Е…К
SEATING = {(1, t): [member(team, t) for team in TEAMS] for t in (1, 2, 3)} | {
    (2, t): [member(team, t) for team in TEAMS[:5]] + [member(team, t % 3 + 1) for team in TEAMS[5:]] for t in (1, 2, 3)}
GAMES = {
    (1, 1): Game("red", {"А1": "д", "Б1": "м", "В1": "м", "Г1": "ш"}, extra={"Г1": "0.5"}),
    (1, 2): Game("black", {"Г2": "д", "Д2": "м", "Е2": "м", "А2": "ш"}, extra={"Г2": "0.5"}),
    (1, 3): Game("red", {"Ж3": "д", "З3": "м", "И3": "м", "А3": "ш"}, extra={"А3": "1"}),
    (2, 1): Game("black", {"А1": "д", "Е2": "м", "Ж2": "м", "Б1": "ш"}),
    (2, 2): Game("red", {"К3": "д", "И3": "м", "В2": "м", "А2": "ш"}, extra={"Б2": "0.5"}),
    (2, 3): Game("red", {"Е1": "д", "Ж1": "м", "З1": "м", "А3": "ш"}),
}


def players_csv(path: Path) -> Path:
    rows = "".join(f"{p};;;;;{p[0]};{CLASSES.get(p, '')}\n" for p in PLAYERS)
    path.write_text("Игрок;Клуб;Город;Статус;Пропуск;Команда;Зачёт\n" + rows, encoding="utf-8-sig")
    return path


def initialised_cup(tmp_path: Path, runner: CliRunner) -> tuple[ExcelDesk, str]:
    """``init`` of the cup with the example preset beside the workbook; the desk and what init printed."""
    shutil.copyfile(EXAMPLES / "team-cup.toml", tmp_path / "team-cup.toml")
    book = tmp_path / "cup.xlsx"
    output = cli(runner, "init", str(book), "--players", str(players_csv(tmp_path / "players.csv")),
                 "--preset", str(tmp_path / "team-cup.toml"), "--name", "Кубок")
    return ExcelDesk(book), output


def play_cup(desk: ExcelDesk, runner: CliRunner, out: Path) -> str:
    """The organizer's own seating (still one per team), the six games typed, one sync into ``out``."""
    type_seating(desk, "Отбор", SEATING)
    for (round_no, t), game in GAMES.items():
        play(desk, f"Тур {round_no} Стол {t}", game, SEATING[(round_no, t)])
    return cli(runner, "sync", desk.ref, "--out", str(out))


def test_team_cup(tmp_path):
    """team-cup: win 1, loss 0, extra points 0…1 by 0.5; ten teams of three (А1 А2 А3 … К3), two
    rounds at three tables, one member of each team at every table; a team scores its best two.

    Round 1: T1 red wins (blacks А1 Б1 В1; extra Г1 0.5); T2 black wins (blacks Г2 Д2 Е2; extra Г2
    0.5); T3 red wins (blacks Ж3 З3 И3; extra А3 1).  Round 2: T1 (А1 Б1 В1 Г1 Д1 Е2 Ж2 З2 И2 К2)
    black wins (blacks А1 Е2 Ж2); T2 (А2 Б2 В2 Г2 Д2 Е3 Ж3 З3 И3 К3) red wins (blacks К3 И3 В2;
    extra Б2 0.5); T3 (А3 Б3 В3 Г3 Д3 Е1 Ж1 З1 И1 К1) red wins (blacks Е1 Ж1 З1).

        А1 0+1 = 1      А2 0+1 = 1      А3 (1+1)+1 = 3   → best two 3 + 1     = 4
        Б1 0+0 = 0      Б2 0+1.5 = 1.5  Б3 1+1 = 2       → 2 + 1.5            = 3.5
        В1 0+0 = 0      В2 0+0 = 0      В3 1+1 = 2       → 2 + 0              = 2
        Г1 1.5+0 = 1.5  Г2 1.5+1 = 2.5  Г3 1+1 = 2       → 2.5 + 2            = 4.5
        Д1 1+0 = 1      Д2 1+1 = 2      Д3 1+1 = 2       → 2 + 2              = 4
        Е1 1+0 = 1      Е2 1+1 = 2      Е3 1+1 = 2       → 2 + 2              = 4
        Ж1 1+0 = 1      Ж2 0+1 = 1      Ж3 0+1 = 1       → 1 + 1              = 2
        З1 1+0 = 1      З2 0+0 = 0      З3 0+1 = 1       → 1 + 1              = 2
        И1 1+1 = 2      И2 0+0 = 0      И3 0+0 = 0       → 2 + 0              = 2
        К1 1+1 = 2      К2 0+0 = 0      К3 1+0 = 1       → 2 + 1              = 3

    Teams: Г 4.5; А, Д, Е 4 — А's best member has 3 (Д's and Е's 2), Д and Е also equal on their
    counted members' wins (2 + 2 each): 3–4; Б 3.5; К 3; В, Ж, З, И 2 — В's and И's best member
    has 2 (Ж's and З's 1), then wins equal (В3 2 + В1 0, И1 2 + И2 0; Ж1 1 + Ж2 1, З1 1 + З3 1):
    7–8 and 9–10.
    Players (tiebreak wins: everyone with equal points has equal wins): А3 3; Г2 2.5; nine with 2
    share 3–11; Б2 and Г1 1.5 share 12–13; ten with 1 share 14–23; seven with 0 share 24–30.
    «женский» (Б2, Г2 typed «Женский, юниоры», И1): Г2 1 (overall 2), И1 2 (3–11), Б2 3 (12–13);
    «юниоры»: А3 1 (1), Г2 2 (2) — spelled as first typed in the Players tab, «юниоры» and «женский»."""
    runner = CliRunner()
    desk, output = initialised_cup(tmp_path, runner)
    players_tab = desk.grid("Игроки")
    assert players_tab[0][5:7] == ["Команда", "Зачёт"] and players_tab[1][:1] + players_tab[1][5:6] == ["А1", "А"]
    # init drew the qualifying itself: one member of each team at every table
    drawn = [row for row in desk.grid("Рассадка")[1:] if row and row[0] == "Отбор"]
    assert len(drawn) == 6 and all(len({p[0] for p in row[3:13]}) == 10 for row in drawn), output
    drawn_again = cli(runner, "draw", desk.ref, "--seed", "3")  # the draw command keeps the rule too
    assert "Встреч игроков одной команды: 0 (минимально возможно 0)" in drawn_again
    report = {row[0]: row[1] for row in desk.grid("Жеребьёвка") if row and row[0]}
    assert report["Встреч игроков одной команды"] == 0

    out = tmp_path / "out"
    sync_output = play_cup(desk, runner, out)
    doc = json.loads((out / "standings.json").read_text(encoding="utf-8"))
    assert not [p for p in doc["problems"] if p["severity"] == "error"], doc["problems"]
    assert doc["games_counted"] == 6
    assert_valid(STANDINGS, doc, "team-cup standings.json")  # teams and classifications as the schema says

    totals = {s["player"]: (D(s["total"]), s["places"]) for s in doc["standings"]}
    assert totals["А3"] == (D(3), "1") and totals["Г2"] == (D("2.5"), "2")
    assert {p for p, (t, places) in totals.items() if places == "3–11"} == {"Б3", "В3", "Г3", "Д2", "Д3", "Е2", "Е3", "И1", "К1"}
    assert {p for p, (t, places) in totals.items() if places == "12–13"} == {"Б2", "Г1"}
    assert {p for p, (t, places) in totals.items() if places == "24–30"} == {"Б1", "В1", "В2", "З2", "И2", "И3", "К2"}
    assert {s["player"]: s["team"] for s in doc["standings"]}["Ж2"] == "Ж"

    teams = doc["teams"]
    assert (teams["count"], teams["best"]) == ("best", 2)
    assert [(t["places"], t["team"], D(t["points"]), t["tiebreak"]) for t in teams["standings"]] == [
        ("1", "Г", D("4.5"), None), ("2", "А", D(4), "best_member"), ("3–4", "Д", D(4), "shared"),
        ("3–4", "Е", D(4), None), ("5", "Б", D("3.5"), None), ("6", "К", D(3), None),
        ("7–8", "В", D(2), "shared"), ("7–8", "И", D(2), "best_member"), ("9–10", "Ж", D(2), "shared"),
        ("9–10", "З", D(2), None)]
    alfa = teams["standings"][1]
    assert [(m["player"], D(m["points"]), m["counted"]) for m in alfa["members"]] == [
        ("А3", D(3), True), ("А1", D(1), True), ("А2", D(1), False)]

    classes = {c["name"]: [(e["player"], e["places"], e["main_places"]) for e in c["standings"]]
               for c in doc["classifications"]}
    assert classes == {"юниоры": [("А3", "1", "1"), ("Г2", "2", "2")],
                       "женский": [("Г2", "1", "2"), ("И1", "2", "3–11"), ("Б2", "3", "12–13")]}

    _check_workbook(desk)
    _check_site_and_post(out)
    assert "Командный зачёт" in sync_output and "4.50" in sync_output  # the CLI prints the team standings too


def _check_workbook(desk: ExcelDesk) -> None:
    standings = [[c for c in row] for row in desk.grid("Итоги")]
    flat = [row[:4] for row in standings]
    title = next(i for i, row in enumerate(standings) if row and str(row[0]).startswith("Командный зачёт"))
    assert "сумма 2 лучших результатов игроков" in standings[title][0]
    assert flat[title + 2][:2] == ["1", "Г"] and D(str(flat[title + 2][3])) == D("4.5")
    assert any(row and row[0] == "Зачёт: женский" for row in standings)
    team_tab = owned_table(desk.grid("Команды"))
    assert team_tab[0][:3] == ["Место", "Команда", "Очки"] and team_tab[1][:2] == ["1", "Г"]
    assert [row[3] for row in team_tab[2:5]] == ["Г2", "Г3", "Г1"] and [row[7] for row in team_tab[2:5]] == ["да", "да", "нет"]
    classes = owned_table(desk.grid("Зачёты"))
    assert classes[1][0] == "юниоры" and classes[2][:3] == ["1", "А3", "1"]


def _check_site_and_post(out: Path) -> None:
    site = out / "site"
    page = (site / "teams.html").read_text(encoding="utf-8")
    assert "Г2" in page and "не в зачёте команды" in page and "сумма 2 лучших результатов игроков" in page
    (women,) = [p for p in site.glob("classification-*.html") if "<caption>Зачёт: женский" in p.read_text(encoding="utf-8")]
    assert women.read_text(encoding="utf-8").count('<th scope="row" class="name">') == 3  # Г2, И1, Б2
    assert 'href="teams.html"' in (site / "index.html").read_text(encoding="utf-8")
    from sheets_sync.render.site import player_file
    assert 'Команда: <a href="../teams.html">Г</a>' in (site / player_file("Г2")).read_text(encoding="utf-8")
    post = (out / "vk-post.txt").read_text(encoding="utf-8")
    assert "Командный зачёт:\n1. Г — 4.50\n2. А — 4.00\n3–4. Д — 4.00\n3–4. Е — 4.00" in post
    assert "Зачёт «женский»:\n1. Г2 — 2.50\n2. И1 — 2.00\n3. Б2 — 1.50" in post


def _rows_text(rows) -> str:
    """A tab's rows as the golden keeps them: one line a row, cells between « | »."""
    return "\n".join(" | ".join("" if v is None else str(v) for v in row).rstrip(" |") for row in rows) + "\n"


def test_team_cup_goldens(tmp_path):
    """The team cup's new pages and tabs as golden files (tests/golden/teams/; regenerate on purpose
    with UPDATE_GOLDEN=1): the team page, a classification page, the «Команды» and «Зачёты» tabs,
    Итоги's team and classification rows, the VK post."""
    from sheets_sync.backends.excel import ExcelBackend
    from sheets_sync.render.site import classification_file, site_files
    from sheets_sync.render.tabs import owned_tabs
    from sheets_sync.render.vk import post_text
    from sheets_sync.loop.sync import compute
    from tests.test_site import check_golden

    runner = CliRunner()
    desk, _ = initialised_cup(tmp_path, runner)
    play_cup(desk, runner, tmp_path / "out")
    o = compute(ExcelBackend(Path(desk.ref)).read(), base_dir=tmp_path)
    files = site_files(o.results, o.problems, language="ru")
    check_golden("teams/teams.html", files["teams.html"])
    check_golden("teams/classification-women.html", files[classification_file("женский")])
    tabs = {t.title: t for t in owned_tabs(o.results, o.problems, "ru", links=False)}
    check_golden("teams/teams-tab.txt", _rows_text(tabs["Команды"].rows))
    check_golden("teams/classifications-tab.txt", _rows_text(tabs["Зачёты"].rows))
    standings = tabs["Итоги"].rows
    first = next(i for i, row in enumerate(standings) if row and str(row[0]).startswith("Командный зачёт"))
    check_golden("teams/standings-side-rows.txt", _rows_text(standings[first:]))
    check_golden("teams/vk-post.ru.txt", post_text(o.results, language="ru"))
    check_golden("teams/vk-post.en.txt", post_text(o.results, language="en"))


def test_init_refuses_a_team_bigger_than_the_tables(tmp_path):
    """One member of each team per game cannot hold when a team has more players than a round has
    tables: ``init`` says so in the organizer's language, names the team, and writes no workbook."""
    shutil.copyfile(EXAMPLES / "team-cup.toml", tmp_path / "team-cup.toml")
    names = [f"{t}{m}" for t in TEAMS[:9] for m in (1, 2, 3)] + ["К1", "К2", "Ж4"]  # Ж has four, at three tables
    csv = tmp_path / "players.csv"
    csv.write_text("Игрок;Команда\n" + "".join(f"{n};{n[0]}\n" for n in names), encoding="utf-8-sig")
    result = CliRunner().invoke(main, ["init", str(tmp_path / "cup.xlsx"), "--players", str(csv),
                                       "--preset", str(tmp_path / "team-cup.toml"), "--language", "ru"])
    assert result.exit_code != 0
    assert "По одному игроку команды за столом" in result.output and "Ж (4)" in result.output, result.output
    assert not (tmp_path / "cup.xlsx").exists()


@pytest.mark.parametrize("rule, expected", [
    (TeamRule(), Teams(of={"a": "X"}, one_per_game=False)),
    (TeamRule(one_per_game=True), Teams(of={"a": "X"}, one_per_game=True)),
    (TeamRule(apart=False), None),
    (TeamRule(apart=False, one_per_game=True), Teams(of={"a": "X"}, one_per_game=True)),
])
def test_what_the_draw_does_with_teams(rule, expected):
    assert draw_teams(rule, {"a": "X"}) == expected
    assert draw_teams(rule, {}) is None  # nobody has a team: the draw as it always was
