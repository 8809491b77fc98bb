"""A worked tournament under each example preset of config/examples/, through the real CLI.

The organizer keeps the preset file beside the workbook (docs/presets.md, "Writing your own
preset"): ``init --preset <file>``, then the file's name in the Tournament tab's row
«Регламент» (``init`` writes the preset's id there, and an id names a file in ``config/``).
The judges type every game into the protocol tabs as text (tests/judge.py); games are given
by player, so the seat numbers of a best move follow whatever seating the program drew.
Every total is worked out by hand in the docstrings and compared exactly with standings.json.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass, field
from decimal import Decimal as D
from pathlib import Path

import pytest
from click.testing import CliRunner

from scoring.cells import a1
from scoring.model import Protocol, Removal, SeatRecord, Team
from sheets_sync.cli import main
from sheets_sync.presets import load_preset
from tests.helpers import ROLE, ROOT, table as owned_table
from tests.judge import ExcelDesk, seated_players, typed_protocol

EXAMPLES = ROOT / "config" / "examples"


@dataclass
class Game:
    """One game told by player: roles of the blacks and the sheriff (everyone else is a
    civilian), who left when, best moves by the players they name, extra points."""

    winner: str  # "red" or "black"
    roles: dict[str, str]  # player -> "д", "м", "ш"
    voted: dict[str, int] = field(default_factory=dict)  # player -> day
    shot: dict[str, int] = field(default_factory=dict)  # player -> night
    removed: dict[str, int] = field(default_factory=dict)  # player -> day (4 fouls)
    best_move: dict[str, tuple[str, str, str]] = field(default_factory=dict)  # author -> three players named
    extra: dict[str, str] = field(default_factory=dict)

    def protocol(self, seats: list[str]) -> Protocol:
        seat_of = {p: i + 1 for i, p in enumerate(seats)}
        records = tuple(SeatRecord(
            seat=i + 1, player=p, role=ROLE[self.roles.get(p, "к")], voted_day=self.voted.get(p),
            killed_night=self.shot.get(p), fouls=4 if p in self.removed else 0,
            removal=Removal.REMOVED if p in self.removed else None, removal_day=self.removed.get(p),
            best_move=tuple(seat_of[n] for n in self.best_move.get(p, ())), extra_points=D(self.extra.get(p, "0")))
            for i, p in enumerate(seats))
        return Protocol(sheet="", stage="", round=0, table=0, winner=Team(self.winner), seats=records)


def cli(runner: CliRunner, *args: str) -> str:
    result = runner.invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def players_csv(path: Path, names: list[str]) -> Path:
    path.write_text("Игрок;Клуб;Город;Статус;Пропуск\n" + "".join(f"{n};;;;\n" for n in names), encoding="utf-8-sig")
    return path


def tournament_with(tmp: Path, preset_file: str, names: list[str], runner: CliRunner) -> ExcelDesk:
    """``init`` with the example preset kept beside the workbook: the Tournament tab names the file."""
    shutil.copyfile(EXAMPLES / preset_file, tmp / preset_file)
    book = tmp / "cup.xlsx"
    cli(runner, "init", str(book), "--players", str(players_csv(tmp / "players.csv", names)),
        "--preset", str(tmp / preset_file), "--name", "Пример")
    desk = ExcelDesk(book)
    assert [cells[1] for cells in desk.grid("Турнир") if cells and cells[0] == "Регламент"] == [preset_file]
    return desk


def play(desk: ExcelDesk, tab: str, game: Game, seats: list[str] | None = None) -> None:
    """The judge types ``game`` into ``tab``, the players in ``seats`` (default: as pre-filled)."""
    grid = desk.grid(tab)
    seats = seats or seated_players(grid)
    desk.type({(tab, cell): text for cell, text in typed_protocol(grid, game.protocol(seats), judge="Судья").items()})


def synced(desk: ExcelDesk, runner: CliRunner, out: Path) -> tuple[dict, str]:
    output = cli(runner, "sync", desk.ref, "--out", str(out))
    doc = json.loads((out / "standings.json").read_text(encoding="utf-8"))
    assert not [p for p in doc["problems"] if p["severity"] == "error"], doc["problems"]
    return doc, output


def rows(doc: dict) -> list[tuple[str, D, str]]:
    return [(s["player"], D(s["total"]), s["places"]) for s in doc["standings"]]


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.toml")), ids=lambda p: p.stem)
def test_example_presets_load_and_say_where_values_come_from(path):
    preset, _ = load_preset(str(path))
    assert preset.id == path.stem and preset.source and preset.uncertain
    assert {p.stem for p in EXAMPLES.glob("*.toml")} == {"club-evening", "club-season", "club-season-average",
                                                          "club-season-rating", "team-asymmetric", "team-cup"}


# -- club-evening -------------------------------------------------------------------------------------------
EVENING = ["Аист", "Бобр", "Волк", "Гусь", "Дятел", "Ёрш", "Жук", "Заяц", "Ибис", "Кит"]
EVENING_GAMES = [
    Game("red", {"Аист": "д", "Бобр": "м", "Волк": "м", "Гусь": "ш"},
         voted={"Дятел": 1, "Аист": 2, "Бобр": 3, "Волк": 4}, shot={"Ёрш": 1, "Жук": 2, "Заяц": 3},
         best_move={"Дятел": ("Аист", "Бобр", "Кит"), "Ёрш": ("Аист", "Волк", "Бобр")},
         extra={"Гусь": "1.5", "Ибис": "0.5"}),
    Game("black", {"Гусь": "д", "Дятел": "м", "Ёрш": "м", "Жук": "ш"},
         voted={"Заяц": 1, "Ибис": 2}, shot={"Жук": 1, "Кит": 2},
         best_move={"Заяц": ("Гусь", "Дятел", "Аист")}, extra={"Гусь": "1", "Волк": "1.5"}),
    Game("red", {"Кит": "д", "Волк": "м", "Заяц": "м", "Аист": "ш"},
         voted={"Заяц": 1, "Волк": 2, "Кит": 3}, shot={"Бобр": 1, "Ибис": 2},
         best_move={"Бобр": ("Кит", "Гусь", "Дятел")}, extra={"Аист": "0.5", "Дятел": "1"}),
]


def test_club_evening(tmp_path):
    """club-evening: win 1, loss 0.25 (both teams), best move 0.1 / 0.3 / 0.6 for one / two /
    three blacks named by the player shot first or voted out on day 1, extra points up to 1.5
    in steps of 0.5; ten players, three games at one table.

    Game 1, red wins (don Аист, mafia Бобр Волк, sheriff Гусь): Дятел, voted out on day 1, names
    Аист Бобр Кит (2 blacks: 0.3); Ёрш, shot on night 1, names Аист Волк Бобр (3: 0.6); extra
    points Гусь 1.5, Ибис 0.5.  Game 2, black wins (don Гусь, mafia Дятел Ёрш, sheriff Жук):
    Заяц, voted out on day 1, names Гусь Дятел Аист (2: 0.3); Жук, shot first, names none;
    extra Гусь 1, Волк 1.5.  Game 3, red wins (don Кит, mafia Волк Заяц, sheriff Аист): Бобр,
    shot first, names Кит Гусь Дятел (1: 0.1); extra Аист 0.5, Дятел 1.

        Гусь   (1 + 1.5)       + (1 + 1)         + 1           = 5.5
        Дятел  (1 + 0.3)       + 1               + (1 + 1)     = 4.3
        Ёрш    (1 + 0.6)       + 1               + 1           = 3.6
        Ибис   (1 + 0.5)       + 0.25            + 1           = 2.75
        Жук    1               + 0.25            + 1           = 2.25   2 wins
        Волк   0.25            + (0.25 + 1.5)    + 0.25        = 2.25   0 wins: below Жук ("wins")
        Аист   0.25            + 0.25            + (1 + 0.5)   = 2
        Заяц   1               + (0.25 + 0.3)    + 0.25        = 1.8
        Бобр   0.25            + 0.25            + (1 + 0.1)   = 1.6
        Кит    1               + 0.25            + 0.25        = 1.5
    Player of the evening (extra + best move, 3 games): Гусь, 1.5 + 1 = 2.5."""
    runner = CliRunner()
    desk = tournament_with(tmp_path, "club-evening.toml", EVENING, runner)
    tabs = sorted((t for t in desk.tabs() if re.fullmatch(r"Тур \d+ Стол 1", t)), key=lambda t: int(t.split()[1]))
    assert len(tabs) == 3
    for tab, game in zip(tabs, EVENING_GAMES):
        play(desk, tab, game)
    doc, output = synced(desk, runner, tmp_path / "out")
    assert doc["games_counted"] == 3 and doc["preset"]["id"] == "club-evening"
    assert rows(doc) == [
        ("Гусь", D("5.5"), "1"), ("Дятел", D("4.3"), "2"), ("Ёрш", D("3.6"), "3"), ("Ибис", D("2.75"), "4"),
        ("Жук", D("2.25"), "5"), ("Волк", D("2.25"), "6"), ("Аист", D(2), "7"), ("Заяц", D("1.8"), "8"),
        ("Бобр", D("1.6"), "9"), ("Кит", D("1.5"), "10")]
    by = {s["player"]: s for s in doc["standings"]}
    assert by["Жук"]["tiebreak"] == "wins" and (by["Жук"]["wins"], by["Волк"]["wins"]) == (2, 0)
    assert [(p, D(by[p]["best_move_points"])) for p in ("Дятел", "Ёрш", "Заяц", "Бобр")] == [
        ("Дятел", D("0.3")), ("Ёрш", D("0.6")), ("Заяц", D("0.3")), ("Бобр", D("0.1"))]
    (mvp,) = doc["nominations"]
    assert (mvp["winners"], mvp["name"]) == (["Гусь"], "Лучший игрок вечера")
    assert "Гусь" in output and "5.50" in output  # the CLI prints the standings
    header = owned_table(desk.grid("Итоги"))[0]
    assert "За поражения" in header and "За роль" not in header and "Ci" not in header


# -- team-asymmetric -----------------------------------------------------------------------------------------
LEAGUE = ["Арбуз", "Банан", "Вишня", "Груша", "Дыня", "Ежевика", "Жимолость", "Земляника", "Инжир", "Киви",
          "Лимон", "Манго", "Нектарин", "Облепиха", "Персик", "Рябина", "Слива", "Тыква", "Фейхоа", "Хурма"]
# the organizer's own qualifying seating, typed into the Seating tab: (round, table) -> seats 1–10
LEAGUE_SEATING = {
    (1, 1): LEAGUE[0:10],
    (1, 2): LEAGUE[10:20],
    (2, 1): LEAGUE[0:5] + LEAGUE[10:15],
    (2, 2): LEAGUE[5:10] + LEAGUE[15:20],
}
LEAGUE_QUALIFYING = {
    (1, 1): Game("red", {"Арбуз": "д", "Банан": "м", "Вишня": "м", "Груша": "ш"},
                 voted={"Банан": 1, "Вишня": 2, "Арбуз": 3}, shot={"Дыня": 1, "Ежевика": 2},
                 best_move={"Дыня": ("Арбуз", "Банан", "Вишня")}, extra={"Груша": "1", "Киви": "0.5"}),
    (1, 2): Game("black", {"Лимон": "д", "Манго": "м", "Нектарин": "м", "Облепиха": "ш"},
                 voted={"Персик": 1, "Рябина": 2}, shot={"Облепиха": 1}, removed={"Хурма": 2},
                 best_move={"Облепиха": ("Лимон", "Манго", "Рябина")}, extra={"Лимон": "0.75", "Манго": "0.25"}),
    (2, 1): Game("black", {"Груша": "д", "Дыня": "м", "Персик": "м", "Лимон": "ш"},
                 voted={"Арбуз": 1, "Вишня": 2}, shot={"Банан": 1, "Манго": 2}, extra={"Груша": "0.5"}),
    (2, 2): Game("red", {"Тыква": "д", "Фейхоа": "м", "Ежевика": "м", "Киви": "ш"},
                 voted={"Фейхоа": 1, "Ежевика": 2, "Тыква": 3}, shot={"Жимолость": 1, "Земляника": 2},
                 best_move={"Жимолость": ("Тыква", "Ежевика", "Слива")}, extra={"Киви": "1", "Хурма": "0.25"}),
}
LEAGUE_FINAL = [
    Game("red", {"Киви": "д", "Лимон": "м", "Манго": "м", "Дыня": "ш"},
         voted={"Манго": 1, "Лимон": 2, "Киви": 3}, shot={"Груша": 1, "Персик": 2},
         best_move={"Груша": ("Киви", "Лимон", "Инжир")}, extra={"Дыня": "0.75"}),
    Game("black", {"Жимолость": "д", "Земляника": "м", "Нектарин": "м", "Инжир": "ш"},
         voted={"Персик": 1, "Груша": 2}, shot={"Инжир": 1, "Дыня": 2}, extra={"Жимолость": "1"}),
]


def type_seating(desk: ExcelDesk, stage_name: str, seating: dict[tuple[int, int], list[str]]) -> None:
    edits = {}
    for r, cells in enumerate(desk.grid("Рассадка")):
        if cells and cells[0] == stage_name and (int(cells[1]), int(cells[2])) in seating:
            edits.update({("Рассадка", a1(r, 3 + i)): p for i, p in enumerate(seating[(int(cells[1]), int(cells[2]))])})
    assert len(edits) == 10 * len(seating)
    desk.type(edits)


def test_team_asymmetric_league(tmp_path):
    """team-asymmetric: a win is 3 for red, 4 for black; the don and the sheriff +0.5 for a
    win, −0.5 for a loss; best move 1 / 0.5 for three / two blacks; removal −1; extra points
    0…1 in steps of 0.25; Ci = min(0.4, 0.4·B / round(0.4·N)), half of it where the team won,
    none in the 2-game final (a final of fewer than four games).  Twenty players, two
    qualifying rounds at two tables (the organizer's own seating), a final of ten (×1.5).

    Qualifying (N = 2 for everyone, round(0.8) = 1, so one first-night shot as red is B = 1:
    Ci = 0.4; half of it, 0.2, in a won game):
      R1 T1, red wins (don Арбуз, mafia Банан Вишня, sheriff Груша): Дыня shot first names the
        three blacks (1) and his team won (Ci 0.2); extra Груша 1, Киви 0.5.
        Груша 3 + 0.5 + 1 = 4.5; Дыня 3 + 1 + 0.2 = 4.2; Киви 3.5; Ежевика, Жимолость,
        Земляника, Инжир 3; Арбуз −0.5; Банан, Вишня 0.
      R1 T2, black wins (don Лимон, mafia Манго Нектарин, sheriff Облепиха): Облепиха shot first
        names Лимон Манго Рябина (2: 0.5), lost (Ci 0.4); Хурма removed (4 fouls) on day 2;
        extra Лимон 0.75, Манго 0.25.
        Лимон 4 + 0.5 + 0.75 = 5.25; Манго 4.25; Нектарин 4; Облепиха −0.5 + 0.5 + 0.4 = 0.4;
        Хурма −1; Персик, Рябина, Слива, Тыква, Фейхоа 0.
      R2 T1, black wins (don Груша, mafia Дыня Персик, sheriff Лимон): Банан shot first, no best
        move, lost (Ci 0.4); extra Груша 0.5.
        Груша 4 + 0.5 + 0.5 = 5; Дыня, Персик 4; Лимон −0.5; Банан 0.4; Арбуз, Вишня, Манго,
        Нектарин, Облепиха 0.
      R2 T2, red wins (don Тыква, mafia Фейхоа Ежевика, sheriff Киви): Жимолость shot first names
        Тыква Ежевика Слива (2: 0.5), won (Ci 0.2); extra Киви 1, Хурма 0.25.
        Киви 3 + 0.5 + 1 = 4.5; Жимолость 3 + 0.5 + 0.2 = 3.7; Хурма 3.25; Земляника, Инжир,
        Рябина, Слива 3; Тыква −0.5; Фейхоа, Ежевика 0.
    After qualifying: Груша 9.5, Дыня 8.2, Киви 8, Жимолость 6.7, Земляника 6, Инжир 6, Лимон
    4.75, Манго 4.25, Нектарин 4, Персик 4 | Ежевика 3 … : the top ten go to the final.

    Final (×1.5; Ci none: 2 games < 4, though the games count in the final's B and N):
      F1, red wins (don Киви, mafia Лимон Манго, sheriff Дыня): Груша shot first names Киви Лимон
        Инжир (2: 0.5); extra Дыня 0.75.  Дыня (3 + 0.5 + 0.75) × 1.5 = 6.375; Груша
        (3 + 0.5) × 1.5 = 5.25; Жимолость, Земляника, Инжир, Нектарин, Персик 4.5; Киви −0.75.
      F2, black wins (don Жимолость, mafia Земляника Нектарин, sheriff Инжир): extra Жимолость 1.
        Жимолость (4 + 0.5 + 1) × 1.5 = 8.25; Земляника, Нектарин 6; Инжир −0.75.

        Жимолость  6.7  + 4.5   + 8.25  = 19.45      Инжир   6    + 4.5 − 0.75 = 9.75
        Земляника  6    + 4.5   + 6     = 16.5       Персик  4    + 4.5 + 0    = 8.5
        Груша      9.5  + 5.25  + 0     = 14.75      Киви    8    − 0.75 + 0   = 7.25
        Дыня       8.2  + 6.375 + 0     = 14.575     Лимон   4.75                = 4.75
        Нектарин   4    + 4.5   + 6     = 14.5       Манго   4.25                = 4.25
    then the others by their qualifying points: Ежевика, Рябина, Слива 3 (one win each, nothing
    else apart: 11–13), Хурма 2.25, Банан and Облепиха 0.4 (15–16), Вишня and Фейхоа 0
    (17–18), Арбуз and Тыква −0.5 (19–20).
    Best don (win + role + extra, before the coefficient): Жимолость 4 + 0.5 + 1 = 5.5 (Лимон
    5.25, Груша 5); best sheriff (also + best move): Груша and Киви share 3 + 0.5 + 1 = 4.5."""
    runner = CliRunner()
    desk = tournament_with(tmp_path, "team-asymmetric.toml", LEAGUE, runner)
    type_seating(desk, "Отбор", LEAGUE_SEATING)
    for (round_no, table), game in LEAGUE_QUALIFYING.items():
        play(desk, f"Тур {round_no} Стол {table}", game, LEAGUE_SEATING[(round_no, table)])
    doc, _ = synced(desk, runner, tmp_path / "out")
    assert doc["games_counted"] == 4
    ci = {s["player"]: D(s["ci"]) for s in doc["standings"] if D(s["ci"])}
    assert ci == {"Дыня": D("0.2"), "Облепиха": D("0.4"), "Банан": D("0.4"), "Жимолость": D("0.2")}

    output = cli(runner, "advance", desk.ref, "--seed", "1", "--language", "en")
    finalists = {"Груша", "Дыня", "Киви", "Жимолость", "Земляника", "Инжир", "Лимон", "Манго", "Нектарин", "Персик"}
    assert output.startswith("final: 10 players") and set(re.findall(r"\w+", output.split(":", 2)[2])) == finalists
    for round_no, game in enumerate(LEAGUE_FINAL, start=1):
        play(desk, f"Финал {round_no}", game)
    doc, output = synced(desk, runner, tmp_path / "out")
    assert doc["games_counted"] == 6
    assert rows(doc) == [
        ("Жимолость", D("19.45"), "1"), ("Земляника", D("16.5"), "2"), ("Груша", D("14.75"), "3"),
        ("Дыня", D("14.575"), "4"), ("Нектарин", D("14.5"), "5"), ("Инжир", D("9.75"), "6"),
        ("Персик", D("8.5"), "7"), ("Киви", D("7.25"), "8"), ("Лимон", D("4.75"), "9"), ("Манго", D("4.25"), "10"),
        ("Ежевика", D(3), "11–13"), ("Рябина", D(3), "11–13"), ("Слива", D(3), "11–13"), ("Хурма", D("2.25"), "14"),
        ("Банан", D("0.4"), "15–16"), ("Облепиха", D("0.4"), "15–16"), ("Вишня", D(0), "17–18"),
        ("Фейхоа", D(0), "17–18"), ("Арбуз", D("-0.5"), "19–20"), ("Тыква", D("-0.5"), "19–20")]
    by = {s["player"]: s for s in doc["standings"]}
    # wins stay counts whatever a win is worth: Жимолость won R1, R2, F1 and F2 (as don), Груша R1 (as
    # sheriff), R2 (as don) and F1
    assert [(by[p]["wins"], by[p]["wins_as"]["don"], by[p]["wins_as"]["sheriff"]) for p in ("Жимолость", "Груша")] == [
        (4, 1, 0), (3, 1, 1)]
    assert by["Груша"]["ci"] == "0.00" and by["Инжир"]["ci"] == "0.00"  # shot first in the final: no Ci there
    don, sheriff = doc["nominations"]
    assert (don["winners"], [(e["player"], D(e["score"])) for e in don["ranking"][:3]]) == (
        ["Жимолость"], [("Жимолость", D("5.5")), ("Лимон", D("5.25")), ("Груша", D(5))])
    assert (sheriff["winners"], sheriff["shared"], D(sheriff["ranking"][0]["score"])) == (["Груша", "Киви"], True, D("4.5"))
    assert "19.45" in output and "14.575" in output  # the CLI prints the standings
    header = owned_table(desk.grid("Итоги"))[0]
    assert "За роль" in header and "Ci" in header and "За поражения" not in header
    page = next((tmp_path / "out" / "site" / "games").glob("qualifying-r1-t1-*.html")).read_text(encoding="utf-8")
    assert ">За роль</th>" in page and ">Поражение</th>" not in page  # the game's points, item by item
