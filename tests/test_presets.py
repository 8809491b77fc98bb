"""The shipped presets, value by value; the points they give; switching preset on a real workbook;
the hidden final in the public outputs."""

from decimal import Decimal as D
from fractions import Fraction as F
from pathlib import Path

import pytest

from scoring.model import Removal
from scoring.points import score_protocol
from scoring.standings import compute, hidden_stages, published
from sheets_sync.backends.memory import MemoryBackend
from sheets_sync.presets import known_presets, load_preset
from sheets_sync.render.json_out import standings_document
from sheets_sync.loop.sync import sync_once
from tests.helpers import protocol, table, tournament

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "gmo-2016-example.xlsx"
PRESETS = ("gmo-2016", "fiim-2019", "fiim-2023")

# preset -> attribute path -> value
EXPECTED = {
    "gmo-2016": {"win": "1", "extra_max": "0.7", "extra_step": "0.05", "best_move.3": "0.5", "best_move.2": "0.25",
                 "best_move.1": "0", "removal": "-0.5", "team_defeat": "-0.5", "auto_extra": "0", "ci.enabled": False,
                 "ci.short_stages": ("final",), "hidden_final": False, "nominations": 0},
    "fiim-2019": {"win": "1", "extra_max": "0.7", "extra_step": "0.05", "best_move.3": "0.4", "best_move.2": "0.25",
                  "best_move.1": "0", "removal": "-0.5", "team_defeat": "-0.5", "auto_extra": "0", "ci.enabled": True,
                  "ci.coefficient": "0.4", "ci.cap": "0.4", "ci.min_stage_games": 4, "ci.apply_coefficient": True,
                  "ci.groups": (("qualifying", "semifinal"), ("final",)), "ci.short_stages": ("final",),
                  "ci.games_coefficient": "0.4", "ci.win_fraction": "0", "hidden_final": False, "nominations": 5},
    "fiim-2023": {"win": "1", "extra_max": "0.7", "extra_step": "0.05", "best_move.3": "0.5", "best_move.2": "0.3",
                  "best_move.1": "0", "removal": "-0.5", "team_defeat": "-0.7", "auto_extra": "0.3", "ci.enabled": True,
                  "ci.coefficient": "0.4", "ci.cap": "0.4", "ci.min_stage_games": 4, "ci.apply_coefficient": True,
                  "ci.groups": (("qualifying", "semifinal"), ("final",)), "ci.short_stages": ("final",),
                  "ci.games_coefficient": "0.4", "ci.win_fraction": "0", "hidden_final": False, "nominations": 5},
}


def _get(p, path):
    if path == "nominations":
        return len(p.nominations)
    head, _, rest = path.partition(".")
    if head == "best_move":
        return p.best_move_points(int(rest))
    value = getattr(p, head)
    return getattr(value, rest) if rest else value


@pytest.mark.parametrize("preset_id, path, expected",
                         [(pid, path, v) for pid, values in EXPECTED.items() for path, v in values.items()])
def test_preset_values(preset_id, path, expected):
    p, _ = load_preset(preset_id)
    got = _get(p, path)
    if isinstance(expected, str):
        assert isinstance(got, D) and got == D(expected)
    else:
        assert got == expected


@pytest.mark.parametrize("preset_id", PRESETS)
def test_presets_are_shipped_and_say_where_values_come_from(preset_id):
    assert preset_id in known_presets()
    p, _ = load_preset(preset_id)
    assert p.id == preset_id and p.source and p.stage_keys == ("qualifying", "semifinal", "final")
    if preset_id != "gmo-2016":
        assert any("ci" in u for u in p.uncertain)
        assert {n.key for n in p.nominations} == {"don", "sheriff", "mafia", "civilian", "mvp"}


# -- the points of one game under each preset -------------------------------------------------------
NAMES = list("ABCDEFGHIJ")


def _game(**seats):
    # A don, B C mafia, D sheriff, E–J civilians; black wins.
    return protocol(NAMES, "дммшкккккк", "black", **seats)


@pytest.mark.parametrize("preset_id, e_best3, e_best2, removed, team_defeat, auto", [
    ("gmo-2016", "0.5", "0.25", "-0.5", "-0.5", "0"),
    ("fiim-2019", "0.4", "0.25", "-0.5", "-0.5", "0"),
    ("fiim-2023", "0.5", "0.3", "-0.5", "-0.7", "0.3"),
])
def test_points_per_preset(preset_id, e_best3, e_best2, removed, team_defeat, auto):
    p, _ = load_preset(preset_id)
    g3 = _game(s5={"killed_night": 1, "best_move": (1, 2, 3)}, s6={"fouls": 4, "removed": True, "removal_day": 1},
               s7={"auto_extra_taken": True})
    lines = {ln.player: ln for ln in score_protocol(g3, p)}
    assert lines["E"].items["best_move"] == D(e_best3)
    assert lines["F"].items["removal"] == D(removed)
    # automatic extra points: everyone, unless the judge took them away (G), never "recognised best"
    assert lines["A"].items.get("auto_extra", D(0)) == D(auto)
    assert lines["F"].items.get("auto_extra", D(0)) == D(auto)
    assert "auto_extra" not in lines["G"].items
    assert not lines["A"].recognised_best
    g2 = _game(s5={"killed_night": 1, "best_move": (1, 2, 4)})
    assert {ln.player: ln for ln in score_protocol(g2, p)}["E"].items["best_move"] == D(e_best2)
    from dataclasses import replace

    seats = list(g2.seats)
    seats[5] = replace(seats[5], fouls=4, removal=Removal.TEAM_DEFEAT, removal_day=1)
    gd = replace(g2, seats=tuple(seats))
    assert {ln.player: ln for ln in score_protocol(gd, p)}["F"].items["removal"] == D(team_defeat)
    # Ci only where the preset has it: E was shot first as red and his team lost
    res = compute(tournament(NAMES, [g2]), p, [])
    e = next(s.stats for s in res.overall if s.stats.player == "E")
    assert e.ci_exact == (F(2, 5) if p.ci.enabled else 0)


# -- switching preset on the example workbook and re-syncing -------------------------------------
def _with(tabs, preset_id, extra_rows=()):
    grid = {k: [list(r) for r in v] for k, v in tabs.items()}
    tour = grid["Турнир"]
    for row in tour:
        if row and row[0] == "Регламент":
            row[1] = preset_id
    for label, value in extra_rows:
        for row in tour:
            if row and row[0] == label:
                row[1:] = [value]
                break
        else:
            tour.append([label, value])
    return MemoryBackend(grid)


@pytest.fixture(scope="module")
def synced(example_snapshot):
    out = {}
    for pid in PRESETS:
        backend = _with(example_snapshot.tabs, pid)
        report = sync_once(backend, out_dir=None)
        out[pid] = (report, backend)
    return out


def test_example_syncs_under_every_preset(synced):
    counted = {pid: len(r.outcome.results.counted) for pid, (r, _) in synced.items()}
    assert set(counted.values()) == {38}
    for pid, (report, backend) in synced.items():
        assert report.outcome.preset.id == pid
        assert report.errors == 0, [p.message("en") for p in report.outcome.problems if p.severity.value == "error"]
        assert "Итоги" in backend.tabs and "Статистика" in backend.tabs


def test_totals_differ_sensibly_between_presets(synced):
    totals = {pid: {s.stats.player: s.stats for s in r.outcome.results.overall} for pid, (r, _) in synced.items()}
    g, f19, f23 = totals["gmo-2016"], totals["fiim-2019"], totals["fiim-2023"]
    assert g.keys() == f19.keys() == f23.keys()
    coef = {"qualifying": D(1), "semifinal": D("1.5"), "final": D(2)}
    for name, s in g.items():
        # the same games: wins, extra points and tournament penalties do not depend on the preset
        assert s.wins == f19[name].wins == f23[name].wins
        assert s.extra_points == f19[name].extra_points == f23[name].extra_points
        # 2023 = 2019 + automatic extra points (0.3 × coefficient per game unless taken) + best move 0.5/0.3 − 0.4/0.25 + ППК
        auto = sum((D("0.3") * coef[ln.stage] for ln in f23[name].lines), D(0))
        assert f23[name].exact_total - f19[name].exact_total == F(
            auto + f23[name].best_move_points - f19[name].best_move_points
            + (f23[name].penalties - f19[name].penalties))
        # 2019 vs 2016: best move less (0.4 vs 0.5 for 3 blacks), plus Ci ≥ 0
        assert f19[name].exact_total - F(g[name].total) == F(f19[name].best_move_points - s.best_move_points) + f19[name].ci_exact
    assert any(s.ci_exact > 0 for s in f19.values())
    assert sum(s.total for s in f23.values()) > sum(s.total for s in f19.values())


def test_switching_back_recomputes_everything(example_tabs, synced):
    _, backend = synced["fiim-2023"]
    before = [list(r) for r in backend.tabs["Итоги"]]
    backend.set("Турнир", "B2", "gmo-2016")
    report = sync_once(backend, out_dir=None)
    assert report.outcome.preset.id == "gmo-2016"
    reference, _ = synced["gmo-2016"]
    assert [(s.stats.player, s.stats.total) for s in report.outcome.results.overall] == \
        [(s.stats.player, s.stats.total) for s in reference.outcome.results.overall]
    assert backend.tabs["Итоги"] != before and "Ci" not in table(backend.tabs["Итоги"])[0]


def test_ci_and_nominations_shown_on_the_organizers_tabs(synced):
    report, backend = synced["fiim-2019"]
    header = table(backend.tabs["Итоги"])[0]
    assert "Ci" in header and "Ci: как посчитано" in header
    stats_tab = [r[0] if r else None for r in backend.tabs["Статистика"]]
    assert "Номинация" in stats_tab and "Лучший дон" in stats_tab and "Компенсация Ci" in stats_tab
    doc = standings_document(report.outcome.results, report.outcome.problems, language="ru")
    assert [n["key"] for n in doc["nominations"]] == ["don", "sheriff", "mafia", "civilian", "mvp"]
    assert any(row["ci_detail"] for row in doc["standings"])


# -- the hidden final --------------------------------------------------------------------------------
def test_hidden_final_stays_out_of_public_outputs_until_released(example_tabs):
    backend = _with(example_tabs, "fiim-2023", [("скрытый.финал", "да")])
    report = sync_once(backend, out_dir=None)
    results = report.outcome.results
    assert report.errors == 0 and results.preset.hidden_final
    assert hidden_stages(results) == {"final"}
    # the organizers' own tabs show everything
    assert "Финал" in backend.tabs
    full = {s.stats.player: s.stats for s in results.overall}
    pub = published(results)
    assert published(pub) is pub
    assert pub.hidden == {"final"} and not any(p.stage == "final" for p in pub.counted)
    assert not any(p.stage == "final" for p in pub.tournament.protocols)
    assert len(pub.counted) == len(results.counted) - 4
    shown = {s.stats.player: s.stats for s in pub.overall}
    finalists = results.participants["final"]
    assert all(shown[n].stage_points["final"] == 0 for n in finalists)
    assert any(shown[n].total != full[n].total for n in finalists)
    assert pub.cuts["final"].players == results.cuts["final"].players  # the cut itself is public
    doc = standings_document(results, report.outcome.problems, language="ru")
    assert doc["hidden_stages"] == ["final"] and doc["games_counted"] == 34
    assert all(row["stages"]["final"] is None for row in doc["standings"])
    # the chief judge releases the final: "Финал опубликован = да"
    backend.set("Турнир", f"B{[r[0] if r else None for r in backend.tabs['Турнир']].index('Финал опубликован') + 1}", "да")
    released = sync_once(backend, out_dir=None).outcome.results
    assert hidden_stages(released) == frozenset() and published(released) is released
    assert released.tournament.released


# -- finding a preset: shipped ids, the Tournament tab's reference, a workbook that moved -------------------
CONFIG = Path(__file__).resolve().parent.parent / "config"
SHIPPED = sorted([*CONFIG.glob("*.toml"), *(CONFIG / "examples").glob("*.toml")])


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_scheme_is_reachable_by_id(path):
    """config/*.toml and config/examples/*.toml alike: ``--preset club-season`` as ``--preset fiim-2023``."""
    assert path.stem in known_presets()
    preset, _ = load_preset(path.stem.upper())  # the Tournament tab is read case-insensitively
    assert preset.id == path.stem


def _players_csv(path: Path) -> Path:
    path.write_text("Игрок;Клуб\n" + "".join(f"{n};\n" for n in ("Анна", "Борис", "Вера")), encoding="utf-8-sig")
    return path


def _cli(*args: str) -> str:
    from click.testing import CliRunner

    from sheets_sync.cli import main

    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def _preset_cell(book: Path, value: str | None = None) -> str:
    """The Tournament tab's «Регламент» as stored (and, with ``value``, typed over as an older init wrote it)."""
    import openpyxl

    wb = openpyxl.load_workbook(book)
    (row,) = [r for r in wb["Турнир"].iter_rows() if str(r[0].value or "").strip() == "Регламент"]
    stored = row[1].value
    if value is not None:
        row[1].value = value
        wb.save(book)
    return stored


@pytest.mark.parametrize("typed", ["club-season", "Club-Season", str(CONFIG / "examples" / "club-season.toml"),
                                   "config/examples/club-season.toml"])
def test_a_shipped_scheme_is_stored_by_its_id(typed, tmp_path, monkeypatch):
    """Whichever way the README's scheme is named — its id, or its file in a clone (from the
    clone's folder) — the workbook keeps its id: nothing that breaks when the workbook moves."""
    monkeypatch.chdir(CONFIG.parent)
    book = tmp_path / "club.xlsx"
    out = _cli("init", str(book), "--season", "--players", str(_players_csv(tmp_path / "p.csv")), "--preset", typed)
    assert _preset_cell(book) == "club-season" and "путь от папки таблицы" not in out


def test_a_workbook_and_its_own_preset_move_together(tmp_path, monkeypatch):
    """init from one folder with one's own preset file, the two moved together elsewhere, a sync
    from a third folder: the Tournament tab names the file from the workbook's folder, not the cwd."""
    start, moved, third = tmp_path / "start", tmp_path / "elsewhere" / "club", tmp_path / "third"
    (start / "cup" / "presets").mkdir(parents=True)
    third.mkdir()
    own = (CONFIG / "examples" / "club-season.toml").read_text(encoding="utf-8").replace(
        'id = "club-season"', 'id = "our-club"')
    (start / "cup" / "presets" / "our-club.toml").write_text(own, encoding="utf-8")
    monkeypatch.chdir(start)
    _cli("init", "cup/club.xlsx", "--season", "--players", str(_players_csv(start / "p.csv")),
         "--preset", "cup/presets/our-club.toml")
    assert _preset_cell(start / "cup" / "club.xlsx") == "presets/our-club.toml"
    moved.parent.mkdir()
    (start / "cup").rename(moved)
    monkeypatch.chdir(third)
    _cli("sync", "../elsewhere/club/club.xlsx", "--out", "out")
    import json

    assert json.loads((third / "out" / "standings.json").read_text(encoding="utf-8"))["preset"]["id"] == "our-club"


@pytest.mark.parametrize("stored, run_from, expected", [
    # an older init wrote the path from the folder it ran in: still found from there
    ("cup/presets/our-club.toml", "start", "our-club"),
    # an absolute path
    ("{start}/cup/presets/our-club.toml", "elsewhere", "our-club"),
    # the README's scheme stored as a path into a clone the workbook has moved away from: the shipped scheme
    ("../../repo/config/examples/club-season.toml", "elsewhere", "club-season"),
    ("../repo/config/fiim-2023.toml", "elsewhere", "fiim-2023"),
])
def test_old_workbooks_still_find_their_preset(stored, run_from, expected, tmp_path, monkeypatch):
    start = tmp_path / "start"
    (start / "cup" / "presets").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    own = (CONFIG / "examples" / "club-season.toml").read_text(encoding="utf-8").replace(
        'id = "club-season"', 'id = "our-club"')
    (start / "cup" / "presets" / "our-club.toml").write_text(own, encoding="utf-8")
    monkeypatch.chdir(start)
    _cli("init", "cup/club.xlsx", "--season", "--players", str(_players_csv(start / "p.csv")), "--preset", "club-season")
    _preset_cell(start / "cup" / "club.xlsx", stored.format(start=start))
    monkeypatch.chdir(tmp_path / run_from)
    _cli("sync", str(start / "cup" / "club.xlsx"), "--out", "out")
    import json

    doc = json.loads((tmp_path / run_from / "out" / "standings.json").read_text(encoding="utf-8"))
    assert doc["preset"]["id"] == expected
