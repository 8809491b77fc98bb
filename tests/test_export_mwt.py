"""`export mwt` and the JSON Schemas of the outputs, through the CLI on both backends.

The example workbook gets the rows an organizer adds for the world tour: «ID турнира MWT»
on the Tournament tab, an «ID MWT» column on the Players tab (one player left without) and
the judges listed with the status «судья».  Every exported file is validated against
``schemas/mwt-game.schema.json`` and checked against the protocol it came from;
standings.json against ``schemas/standings.schema.json``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from scoring.model import Player, Removal, Role, Team, Tournament
from sheets_sync.presets import load_preset
from scoring.simulate import simulate_game
from scoring.standings import compute
from sheets_sync.backends.google import ENDPOINT_ENV
from sheets_sync.cli import main
from sheets_sync.example import JUDGES
from sheets_sync.actions.export import read_outcome
from sheets_sync.render.mwt import DAY, NIGHT, REMOVED, TEAM_DEFEAT, mwt_games
from sheets_sync.resources import shipped
from tests.google_support import upload_xlsx
from tests.helpers import examples

TOURNAMENT_ID = 4242
WITHOUT_ID = "Вольт"  # the one player the organizer has no id for
LEAVE_TYPES = {DAY, NIGHT, REMOVED, TEAM_DEFEAT}
ROLE_CODES = {Role.CIVILIAN: "red", Role.SHERIFF: "sheriff", Role.MAFIA: "black", Role.DON: "don"}


def validator(name: str) -> Draft202012Validator:
    schema = json.loads((shipped("schemas") / name).read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


MWT = validator("mwt-game.schema.json")
STANDINGS = validator("standings.schema.json")


def assert_valid(v: Draft202012Validator, document: dict, where: str) -> None:
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in v.iter_errors(document)]
    assert not errors, f"{where}: {errors[:5]}"


def with_mwt_ids(src: Path, dst: Path) -> dict[str, int]:
    """A copy of ``src`` with MWT ids typed the way an organizer would; the ids it gave."""
    wb = openpyxl.load_workbook(src)
    tournament = wb["Турнир"]
    tournament.append(("ID турнира MWT", TOURNAMENT_ID))
    players = wb["Игроки"]
    column = players.max_column + 1
    players.cell(row=1, column=column, value="ID MWT")
    ids: dict[str, int] = {}
    last = 1
    for r in range(2, players.max_row + 1):
        name = players.cell(row=r, column=1).value
        if not name:
            continue
        last = r
        if name != WITHOUT_ID:
            ids[name] = 1000 + r
            players.cell(row=r, column=column, value=ids[name] if r % 2 else str(ids[name]))  # numbers or text
    for n, judge in enumerate(JUDGES, start=1):
        players.cell(row=last + n, column=1, value=judge)
        players.cell(row=last + n, column=4, value="судья")
        players.cell(row=last + n, column=column, value=500 + n)
        ids[judge] = 500 + n
    wb.save(dst)
    return ids


@pytest.fixture
def tour_book(tmp_path, example) -> tuple[Path, dict[str, int]]:
    path = tmp_path / "tour.xlsx"
    return path, with_mwt_ids(example, path)


def export(args: list[str]) -> str:
    r = CliRunner().invoke(main, ["export", "mwt", *args, "--language", "en"])
    assert r.exit_code == 0, r.output
    return r.output


def files_of(folder: Path) -> dict[str, dict]:
    return {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))}


def check_against_protocols(files: dict[str, dict], workbook: str, ids: dict[str, int], **kw) -> None:
    """Each file says what its protocol says, with the ids of the people in it."""
    outcome = read_outcome(workbook, **kw)
    results = outcome.results
    assert len(files) == len(results.counted) > 0
    parts = {key: n for n, key in enumerate(results.preset.stage_keys, start=1)}
    by_game = {(d["part_number"], d["session_number"], d["table_number"]): d for d in files.values()}
    for p in results.counted:
        d = by_game[(parts[p.stage], p.round, p.table)]
        assert_valid(MWT, d, p.sheet)
        r = d["result"]
        assert d["tournament_id"] == TOURNAMENT_ID and d["referee_user_id"] == ids[p.judge]
        assert r["players"] == [ids.get(s.player) for s in p.seats]
        assert r["player_roles"] == [ROLE_CODES[s.role] for s in p.seats]
        assert r["result"] == ("black" if p.winner is Team.BLACK else "red")
        assert r["player_fouls"] == [s.fouls for s in p.seats]
        assert sum(r["game_bonus"]) == pytest.approx(float(sum(s.extra_points for s in p.seats)))
        assert r["killed_first"] == (p.first_shot.seat if p.first_shot else None)
        left = sorted(leave["p_num"] for leave in r["leaves"])
        assert left == sorted(s.seat for s in p.seats if s.left_game)
        assert r["red_count"] + r["black_count"] + len(left) == 10
        removed = {s.seat: s.removal for s in p.seats if s.removal is not None}
        assert [x != 0 for x in r["penalty_disciplinary"]] == [s.seat in removed for s in p.seats]
        assert {leave["p_num"] for leave in r["leaves"] if leave["leave_type"] in (REMOVED, TEAM_DEFEAT)} == set(removed)


def test_export_mwt_on_excel_writes_every_counted_game_valid_and_warns_of_a_missing_id(tour_book, tmp_path):
    path, ids = tour_book
    out = tmp_path / "mwt"
    said = export([str(path), "--out", str(out)])
    files = files_of(out)
    check_against_protocols(files, str(path), ids)
    # the player without an id: null in exactly his seats, and one warning line naming him
    assert WITHOUT_ID in said and "tournament ID" not in said and "judge" not in said
    nulls = sum(r["result"]["players"].count(None) for r in files.values())
    played = sum(1 for p in read_outcome(str(path)).results.counted for s in p.seats if s.player == WITHOUT_ID)
    assert nulls == played > 0
    assert f"null in {played} games" in said
    # a reserve's seat is a replacement of the seated player
    assert sum(sum(d["result"]["is_replacement"]) for d in files.values()) >= 1


def test_judges_listed_as_players_are_read_and_never_ranked(tour_book, tmp_path):
    path, _ = tour_book
    r = CliRunner().invoke(main, ["sync", str(path)])
    assert r.exit_code == 0, r.output
    doc = json.loads((tmp_path / "tour.sheets-sync" / "standings.json").read_text(encoding="utf-8"))
    assert_valid(STANDINGS, doc, "standings.json")
    ranked = {s["player"] for s in doc["standings"]}
    assert ranked and not ranked & set(JUDGES)
    assert not [p for p in doc["problems"] if p["rule"] in ("read.status", "read.mwt_id", "read.unknown_setting")]
    assert doc["games_counted"] == 38


def test_export_mwt_on_google_equals_excel(tour_book, tmp_path, fake_server, sa_key, monkeypatch):
    monkeypatch.setenv(ENDPOINT_ENV, fake_server.url)
    path, ids = tour_book
    sid = upload_xlsx(fake_server, path)
    export([f"gsheet:{sid}", "--credentials", sa_key, "--out", str(tmp_path / "google")])
    export([str(path), "--out", str(tmp_path / "excel")])
    google = files_of(tmp_path / "google")
    check_against_protocols(google, f"gsheet:{sid}", ids, credentials=sa_key)
    assert google == files_of(tmp_path / "excel")


def test_without_ids_every_file_says_null_and_the_command_says_what_is_missing(example, tmp_path):
    said = export([str(example), "--out", str(tmp_path / "m")])
    files = files_of(tmp_path / "m")
    assert len(files) == 38
    for name, d in files.items():
        assert_valid(MWT, d, name)
        assert d["tournament_id"] is None and d["referee_user_id"] is None and d["result"]["players"] == [None] * 10
    assert "no 'MWT tournament ID'" in said and "judge '" in said and "player '" in said


def test_a_game_that_stops_counting_loses_its_file(tour_book, tmp_path):
    path, _ = tour_book
    out = tmp_path / "mwt"
    export([str(path), "--out", str(out)])
    (out / "notes.json").write_text("{}", encoding="utf-8")  # not ours: never removed
    before = set(files_of(out))
    wb = openpyxl.load_workbook(path)
    ws = wb["Тур 3 Стол 2"]
    winner = next(c for row in ws.iter_rows() for c in row if c.value in ("Победа", "Winner"))
    ws.cell(row=winner.row, column=winner.column + 1).value = None  # the game is not finished any more
    wb.save(path)
    said = export([str(path), "--out", str(out)])
    after = set(files_of(out))
    assert before - after == {"mwt-qualifying-r03-t02.json"} and "notes.json" in after, (said, sorted(before), sorted(after))
    assert "1 stale removed" in said


def test_a_bad_mwt_id_is_a_warning_at_its_cell(tour_book, tmp_path):
    path, _ = tour_book
    wb = openpyxl.load_workbook(path)
    ws = wb["Игроки"]
    ws.cell(row=2, column=ws.max_column, value="abc")
    wb["Турнир"].cell(row=wb["Турнир"].max_row, column=2, value="MWT-1")
    wb.save(path)
    outcome = read_outcome(str(path))
    bad = {(p.sheet, p.rule) for p in outcome.problems if p.rule == "read.mwt_id"}
    assert bad == {("Игроки", "read.mwt_id"), ("Турнир", "read.mwt_id")}
    games, general = mwt_games(outcome.results)
    assert [w.kind for w in general] == ["tournament_id"]


def test_the_example_standings_json_validates_against_its_schema_which_allows_new_fields(example):
    r = CliRunner().invoke(main, ["sync", str(example)])
    assert r.exit_code == 0, r.output
    doc = json.loads((example.parent / "cup.sheets-sync" / "standings.json").read_text(encoding="utf-8"))
    assert_valid(STANDINGS, doc, "standings.json")
    assert doc["schema_version"] == doc["schema"] == 1
    # later fields must not break readers of version 1; another version must
    doc["progress"] = {"counted": 38}  # what issues 14 and 17 add must not break readers of version 1
    doc["standings"][0]["history"] = []
    assert_valid(STANDINGS, doc, "with new fields")
    doc["schema_version"] = 2
    assert list(STANDINGS.iter_errors(doc))


@pytest.fixture(scope="module")
def gmo():
    return load_preset("gmo-2016")[0]


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 10**6), removal=st.sampled_from([None, Removal.REMOVED, Removal.TEAM_DEFEAT]))
def test_every_simulated_game_exports_valid_and_consistent(gmo, seed, removal):
    names = [f"P{i}" for i in range(10)]
    game = simulate_game(names, stage=gmo.stage_keys[0], round_no=1, table=1, sheet="T", preset=gmo,
                         rng=random.Random(seed), judge="J")
    if removal is not None:  # a removal on a seat still at the table at the end
        seats = list(game.seats)
        i = next((i for i, s in enumerate(seats) if not s.left_game), None)
        if i is not None:
            from dataclasses import replace
            seats[i] = replace(seats[i], removal=removal, removal_day=1 + seed % 3)
            game = replace(game, seats=tuple(seats))
    players = tuple(Player(nickname=n, mwt_id=10 + i) for i, n in enumerate(names))
    t = Tournament(name="x", preset_id=gmo.id, language="ru", players=players, protocols=(game,), mwt_id=7)
    results = compute(t, gmo, ())
    games, general = mwt_games(results)
    assert not general
    for g in games:
        assert_valid(MWT, g.document, str(seed))
        r = g.document["result"]
        leaves = r["leaves"]
        assert {leave["leave_type"] for leave in leaves} <= LEAVE_TYPES
        assert [leave["players_before_count"] for leave in leaves] == list(range(10, 10 - len(leaves), -1))
        assert [leave["game_ended"] for leave in leaves] == [0] * (len(leaves) - 1) + [1] * bool(leaves)
        assert r["red_count"] + r["black_count"] + len(leaves) == 10
        assert r["players"] == [10 + i for i in range(10)]
        assert [w.kind for w in g.warnings] == ["judge_id"]


def test_a_hidden_final_leaves_only_when_released(tour_book, tmp_path):
    path, _ = tour_book
    wb = openpyxl.load_workbook(path)
    wb["Турнир"].append(("скрытый.финал", "да"))
    wb.save(path)
    export([str(path), "--out", str(tmp_path / "hidden")])
    hidden = files_of(tmp_path / "hidden")
    assert hidden and not [n for n in hidden if n.startswith("mwt-final-")]
    wb = openpyxl.load_workbook(path)
    row = next(r for r in wb["Турнир"].iter_rows() if r[0].value == "Финал опубликован")
    row[1].value = "Финал"  # the chief judge releases the final
    wb.save(path)
    export([str(path), "--out", str(tmp_path / "released")])
    released = files_of(tmp_path / "released")
    finals = {n for n in released if n.startswith("mwt-final-")}
    assert finals and set(released) - finals == set(hidden)
