"""sheets-sync end to end against the fake Google server: request budget per cycle, `init`
through the CLI, and watch under injected 429/500 faults."""

from __future__ import annotations

import json
import random
import shutil
from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from scoring.model import Player
from scoring.simulate import simulate_game
from sheets_sync.backends.base import STATE_TAB, BackendError
from sheets_sync.backends.google import ENDPOINT_ENV
from sheets_sync.backends.memory import MemoryBackend
from sheets_sync.cli import main
from sheets_sync.example import EXAMPLE_PATH
from sheets_sync.workbook.layout import protocol_title
from sheets_sync.presets import load_preset
from sheets_sync.loop.sync import sync_once
from sheets_sync.workbook.tournament_setup import simple_seating, workbook_patch
from sheets_sync.loop.watch import Watcher
from tests.google_support import OWNED, GoogleBook, google_backend, norm_rows, upload_tabs, upload_xlsx


@pytest.fixture
def example_sid(fake_server, tmp_path) -> str:
    path = tmp_path / "t.xlsx"
    shutil.copyfile(EXAMPLE_PATH, path)
    return upload_xlsx(fake_server, path)


def _kinds(server) -> list[str]:
    return [f"{r['method']} {r['path'].rsplit('/', 1)[-1].split(':')[-1]}" for r in server.request_log if r["path"] != "/token"]


def _cycle_costs(server, backend, edit) -> list[int]:
    """Requests of: first cycle, an idle cycle, a cycle after a judge's edit, an idle cycle."""
    costs = []
    for step in ("first", "idle", "edit", "idle"):
        if step == "edit":
            edit()
        server.reset_counts()
        report = sync_once(backend, out_dir=None)
        costs.append(server.request_count)
        assert report.written == (step in ("first", "edit")), (step, _kinds(server))
    return costs


def test_request_budget_40_players(fake_server, sa_key, example_sid):
    backend = google_backend(fake_server, sa_key, example_sid)
    costs = _cycle_costs(fake_server, backend,
                         lambda: fake_server.set_values(example_sid, "Тур 1 Стол 1", [["0,4"]], start="I10"))
    print("40 players, 38 games: requests per cycle (first, idle, edit, idle) =", costs)
    assert costs[0] <= 3 and costs[1] == 1 and costs[2] <= 3 and costs[3] == 1


def tournament_200(rounds: int = 10, tables: int = 20) -> dict[str, list[list]]:
    """200 players, 20 tables, 10 rounds of simulated games (rotating seating), as grids."""
    preset, _ = load_preset("gmo-2016", [("отбор.игр", rounds)])
    rng = random.Random(200)
    names = [f"Игрок {i:03d}" for i in range(1, tables * 10 + 1)]
    players = [Player(nickname=n, club=f"Клуб {i % 17}", city="Город") for i, n in enumerate(names)]
    seating = simple_seating(names, "qualifying", rounds)
    protocols = [simulate_game(list(e.players), stage="qualifying", round_no=e.round, table=e.table,
                               sheet=protocol_title(preset, "qualifying", e.round, e.table, "ru"), preset=preset, rng=rng)
                 for e in seating]
    patch = workbook_patch(name="Большой турнир", preset=preset, language="ru", players=players, seating=seating,
                           protocols=protocols)
    writes = tuple(replace(w, rows=w.rows + (("отбор.игр", rounds),)) if w.title == "Турнир" else w
                   for w in patch.writes)
    memory = MemoryBackend()
    memory.apply(replace(patch, writes=writes), base=None)
    snap = memory.read()
    return {t: [list(r) for r in snap.tabs[t]] for t in snap.order}


@pytest.mark.slow
def test_request_budget_200_players_10_rounds(fake_server, sa_key):
    tabs = tournament_200()
    assert sum(t.startswith("Тур ") for t in tabs) == 200
    sid = upload_tabs(fake_server, tabs)
    backend = google_backend(fake_server, sa_key, sid)
    costs = _cycle_costs(fake_server, backend,
                         lambda: fake_server.set_values(sid, "Тур 7 Стол 13", [["0,5"]], start="I12"))
    print("200 players, 200 games: requests per cycle (first, idle, edit, idle) =", costs)
    assert costs[0] <= 3 and costs[1] == 1 and costs[2] <= 3 and costs[3] == 1
    report = sync_once(backend, out_dir=None)
    assert len(report.outcome.results.counted) == 200
    # the whole read is one POST: 200 Cyrillic tab names do not fit in one GET URL
    fake_server.reset_counts()
    backend.read()
    assert _kinds(fake_server) == ["POST batchGetByDataFilter"]


# -- init --------------------------------------------------------------------------------------------
NAMES = [f"Игрок {i:02d}" for i in range(1, 41)]


@pytest.fixture
def players_csv(tmp_path) -> Path:
    path = tmp_path / "players.csv"
    path.write_text("Игрок;Клуб\n" + "\n".join(f"{n};К{i % 4}" for i, n in enumerate(NAMES)), encoding="utf-8-sig")
    return path


def _excel_layout(path: Path) -> dict:
    wb = openpyxl.load_workbook(path)
    out = {}
    for ws in wb.worksheets:
        dv = {}
        for v in ws.data_validations.dataValidation:
            values = tuple(v.formula1.strip('"').split(","))
            for rng in str(v.sqref).split():
                for row in ws[rng] if ":" in rng else ((ws[rng],),):
                    for c in row:
                        dv[c.coordinate] = values
        frozen = ws.freeze_panes
        out[ws.title] = {"frozen": frozen, "validations": dv, "hidden": ws.sheet_state == "hidden"}
    return out


def _google_layout(server, sid: str) -> dict:
    out = {}
    for tab in server.tabs(sid):
        props = server.sheet_properties(sid, tab)
        grid = props.get("gridProperties", {})
        r, c = grid.get("frozenRowCount", 0), grid.get("frozenColumnCount", 0)
        frozen = f"{'ABCDEFGHIJ'[c]}{r + 1}" if r or c else None
        dv = {a1: cell.validation for a1, cell in server.cells(sid, tab).items() if cell.validation}
        out[tab] = {"frozen": frozen, "validations": dv, "hidden": bool(props.get("hidden"))}
    return out


def test_init_new_spreadsheet_matches_excel(fake_server, sa_key, players_csv, tmp_path, monkeypatch):
    monkeypatch.setenv(ENDPOINT_ENV, fake_server.url)
    runner = CliRunner()
    xlsx = tmp_path / "cup.xlsx"
    result = runner.invoke(main, ["init", str(xlsx), "--players", str(players_csv), "--name", "Кубок"])
    assert result.exit_code == 0, result.output
    before = set(fake_server.spreadsheets)
    fake_server.reset_counts()
    result = runner.invoke(main, ["init", "gsheet:new", "--players", str(players_csv), "--name", "Кубок",
                                  "--share-with", "org@example.com", "--credentials", sa_key])
    assert result.exit_code == 0, result.output
    (sid,) = set(fake_server.spreadsheets) - before
    print("init gsheet:new requests:", _kinds(fake_server))
    # create, share, read (default tab), one batchUpdate with the whole tournament, then a sync: read + write
    assert fake_server.request_count <= 6
    book = fake_server.spreadsheets[sid]
    assert book.permissions == [{"type": "user", "role": "writer", "emailAddress": "org@example.com"}]
    assert book.props["locale"] == "ru_RU" and book.props["title"] == "Кубок"
    assert "org@example.com" in result.output
    # the same tabs, in the same order, with the same values, dropdowns and frozen panes as the .xlsx
    wb = openpyxl.load_workbook(xlsx)
    assert fake_server.tabs(sid) == wb.sheetnames
    g = GoogleBook(fake_server, sa_key, sid)
    for ws in wb.worksheets:
        if ws.title in OWNED and ws.title != STATE_TAB:
            continue
        google = g.values(ws.title)
        if ws.title == STATE_TAB:  # only a Google Sheet's state remembers its protected ranges (sheets_sync.workbook.protection)
            google = [row for row in google if row[:1] != ("§protected",)]
        assert google == norm_rows([c.value for c in row] for row in ws.iter_rows()), ws.title
    assert _google_layout(fake_server, sid) == _excel_layout(xlsx)
    assert _excel_layout(xlsx)["Тур 1 Стол 1"]["validations"]["C10"] == ("мирный", "шериф", "мафия", "дон")


def test_init_fills_an_empty_spreadsheet_and_refuses_a_full_one(fake_server, sa_key, players_csv, monkeypatch):
    monkeypatch.setenv(ENDPOINT_ENV, fake_server.url)
    monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", sa_key)
    sid = fake_server.create_spreadsheet("Пустая", tabs={"Лист1": []})
    runner = CliRunner()
    result = runner.invoke(main, ["init", f"https://docs.google.com/spreadsheets/d/{sid}/edit#gid=0",
                                  "--players", str(players_csv)])
    assert result.exit_code == 0, result.output
    tabs = fake_server.tabs(sid)
    assert "Лист1" not in tabs and tabs[:4] == ["Турнир", "Игроки", "Рассадка", "Штрафы"]
    assert len([t for t in tabs if t.startswith("Тур ")]) == 28 and "Итоги" in tabs
    # a second init into the now full spreadsheet is refused and changes nothing
    before = {t: fake_server.values(sid, t) for t in tabs}
    result = runner.invoke(main, ["init", f"gsheet:{sid}", "--players", str(players_csv)])
    assert result.exit_code == 2 and "не пуста" in result.output  # the tournament's language (ru)
    assert {t: fake_server.values(sid, t) for t in fake_server.tabs(sid)} == before
    # --share-with an .xlsx makes no sense
    result = runner.invoke(main, ["init", "x.xlsx", "--players", str(players_csv), "--share-with", "a@b.c"])
    assert result.exit_code == 2 and "gsheet:new" in result.output


# -- watch under faults ------------------------------------------------------------------------------
EDITS = [
    ("Тур 1 Стол 1", "I10", "0,4"),  # extra points typed the Russian way
    ("Тур 2 Стол 1", "B11", "Никто"),  # unknown player: error mark
    ("Тур 4 Стол 2", "I13", "0,25"),
    ("Тур 2 Стол 1", "B11", None),  # restore (filled in below)
]


def _run_watch(server, key, sid, out: Path, *, faults: float) -> dict:
    original = GoogleBook(server, key, sid).cell_values([("Тур 2 Стол 1", "B11")])[("Тур 2 Стол 1", "B11")]
    backend = google_backend(server, key, sid, max_retries=5)
    lines: list[str] = []
    watcher = Watcher(backend, out_dir=None, say=lines.append)  # standings.json once at the end (site rendering is slow)
    seen = []  # the standings tab after every poll
    server.fault_rates.update({429: faults / 2, 500: faults / 2})
    try:
        for step in [None, *EDITS]:
            if step is not None:
                tab, cell, value = step
                server.set_values(sid, tab, [[original if value is None else value]], start=cell)
            for _ in range(3):
                try:
                    watcher.poll()
                except BackendError as exc:  # what run_watch does with a non-transient error
                    lines.append(f"error: {exc}")
                if "Итоги" in server.tabs(sid):
                    seen.append(tuple(map(tuple, server.values(sid, "Итоги"))))
        retries = backend.http.retries
    finally:
        server.fault_rates.clear()
    watcher.poll()  # a last fault-free look: must find nothing left to do
    final = sync_once(google_backend(server, key, sid), out_dir=out)
    assert not final.written
    book = GoogleBook(server, key, sid)
    return {
        "tabs": server.tabs(sid),
        # the Log tab's first column is the time of the sync that saw a change: the two runs differ
        # in when, not in what
        "owned": {t: [row[1:] for row in server.values(sid, t)] if t == "Журнал" else server.values(sid, t)
                  for t in OWNED if t in server.tabs(sid)},
        "marks": book.marks(),
        "json": (out / "standings.json").read_text(encoding="utf-8"),
        "seen": seen,
        "retries": retries,
        "lines": lines,
        "failures": watcher.failures,
    }


@pytest.mark.slow
def test_watch_converges_under_faults(fake_server, sa_key, tmp_path, monkeypatch):
    monkeypatch.setenv("SHEETS_SYNC_NOW", "2026-12-01T14:05")  # «Обновлено» in standings.json: one minute for both runs
    clean_sid = upload_xlsx(fake_server, EXAMPLE_PATH)
    faulty_sid = upload_xlsx(fake_server, EXAMPLE_PATH)
    clean = _run_watch(fake_server, sa_key, clean_sid, tmp_path / "clean", faults=0.0)
    faulty = _run_watch(fake_server, sa_key, faulty_sid, tmp_path / "faulty", faults=0.2)
    print(f"faulty run: {faulty['retries']} retried requests, {faulty['failures']} failed polls")
    assert clean["retries"] == 0 and faulty["retries"] > 0
    for key in ("tabs", "owned", "marks", "json"):
        assert faulty[key] == clean[key], key
    assert len(faulty["tabs"]) == len(set(faulty["tabs"]))  # no duplicated tabs
    # never a half-written standings tab: every state seen is one the fault-free run went through
    assert set(faulty["seen"]) <= set(clean["seen"])
    doc = json.loads(faulty["json"])
    assert doc["games_counted"] == 38 and not [p for p in doc["problems"] if p["severity"] == "error"]
    assert any("Никто" in str(v) for v in clean["seen"]) is False  # the unknown player never reached the standings
