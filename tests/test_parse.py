"""Reading robustness: whatever a judge or a spreadsheet puts in a cell gives a value or a clear problem."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from decimal import Decimal

import openpyxl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.model import Removal, Role, Team
from scoring.parse import read_settings
from scoring.values import read_decimal, read_int
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.backends.memory import MemoryBackend
from tests.rulebook import NAMES, TAB, parse, workbook


@pytest.mark.parametrize("raw, expected", [
    ("0,5", Decimal("0.5")), ("0.5", Decimal("0.5")), (" 0.5 ", Decimal("0.5")), ("½", Decimal("0.5")),
    (0.5, Decimal("0.5")), ("0,50", Decimal("0.5")), ("\u00a00,35", Decimal("0.35")), (0.35, Decimal("0.35")),
    ("", Decimal(0)), (None, Decimal(0)), ("  ", Decimal(0)),
])
def test_extra_points_spellings(raw, expected):
    protocol, problems = parse(workbook({"I16": raw}))
    assert problems == [] and protocol.seats[6].extra_points == expected


@pytest.mark.parametrize("raw, rule", [
    ("пол балла", "read.number"), ("0.5.1", "read.number"), ("=B1*2", "read.formula"), ("⅓", "read.number"),
    (datetime(2016, 5, 1), "read.date_guessed"), (time(12, 30), "read.number"), (timedelta(hours=3), "read.number"),
    (True, "read.number"), (float("nan"), "read.number"), (float("inf"), "read.number"), ("1e5", "read.number"),
])
def test_unreadable_extra_points_are_errors_not_zero(raw, rule):
    protocol, problems = parse(workbook({"I16": raw}))
    assert problems == [(rule, "error", "I16")]


@pytest.mark.parametrize("raw, expected", [(2, 2), ("2", 2), (" 2 ", 2), (2.0, 2), ("2,0", 2), (None, 0)])
def test_fouls_spellings(raw, expected):
    protocol, problems = parse(workbook({"D16": raw}))
    assert problems == [] and protocol.seats[6].fouls == expected


@pytest.mark.parametrize("raw, rule", [("1,5", "read.integer"), ("два", "read.number"), (1.5, "read.integer"),
                                       (datetime(2016, 2, 1), "read.date_guessed"), (10**12, "read.integer")])
def test_bad_fouls(raw, rule):
    assert parse(workbook({"D16": raw}))[1] == [(rule, "error", "D16")]


@pytest.mark.parametrize("raw", ["2 6 8", "2,6,8", "2;6;8", "268", 268, "2 - 6 - 8", " 2  6 8 ", "2/6/8", 268.0])
def test_best_move_spellings(raw):
    protocol, problems = parse(workbook({"H10": raw}))
    assert problems == [] and protocol.seats[0].best_move == (2, 6, 8)


@pytest.mark.parametrize("raw, removal, day", [
    ("да", Removal.REMOVED, None), ("Да 3", Removal.REMOVED, 3), ("да, день 3", Removal.REMOVED, 3),
    ("ППК", Removal.TEAM_DEFEAT, None), ("ппк 2", Removal.TEAM_DEFEAT, 2), ("team defeat", Removal.TEAM_DEFEAT, None),
    (3, Removal.REMOVED, 3), ("нет", None, None), ("yes", Removal.REMOVED, None),
])
def test_removal_spellings(raw, removal, day):
    backend = workbook({"G16": raw, "D16": 4 if removal else None})
    protocol, problems = parse(backend)
    rec = protocol.seats[6]
    assert (rec.removal, rec.removal_day) == (removal, day)
    assert all(rule != "read.removal" for rule, _, _ in problems)


@pytest.mark.parametrize("raw, role", [("м", Role.MAFIA), ("Мафия", Role.MAFIA), (" ДОН ", Role.DON), ("ш.", Role.SHERIFF),
                                       ("civilian", Role.CIVILIAN)])
def test_role_spellings(raw, role):
    protocol, problems = parse(workbook({"C12": raw, "C13": "мирный"} if role is not Role.CIVILIAN else {"C12": raw}))
    assert protocol.seats[2].role is role


def test_winner_spellings():
    for raw, team in [("Мирные", Team.RED), ("красные", Team.RED), ("  МАФИЯ ", Team.BLACK), ("чёрные", Team.BLACK),
                      ("red", Team.RED)]:
        protocol, problems = parse(workbook({"B6": raw}))
        assert protocol.winner is team


def _grid(backend: MemoryBackend):
    return backend.tabs[TAB]


def test_rows_inserted_above_and_between_and_empty_rows():
    backend = workbook()
    grid = _grid(backend)
    grid.insert(0, ["Кубок города, вечер пятницы"])
    grid.insert(12, [])  # an empty row inside the seat table
    grid.insert(9, [None, None])  # and one between the header and seat 1
    protocol, problems = parse(backend)
    assert problems == []
    assert [r.player for r in protocol.seats] == NAMES
    assert protocol.seats[0].best_move == (2, 6, 8) and protocol.winner is Team.RED
    assert protocol.seats[0].cells["best_move"].cell == "H12"  # problems still point at the right cell


def test_moved_and_extra_columns():
    backend = workbook()
    grid = _grid(backend)
    for row in grid[8:]:
        row.extend([None] * (12 - len(row)))
        row.insert(1, "x")  # an extra column the reader does not know
        row[4], row[5] = row[5], row[4]  # Фолы and Убит ночью swapped
    grid[8][1] = "Очки рейтинга"
    protocol, problems = parse(backend)
    assert problems == []
    assert protocol.seats[0].killed_night == 1 and protocol.seats[6].extra_points == Decimal("0.3")
    assert protocol.seats[0].cells["killed_night"].cell == "E10"


def test_english_labels():
    backend = workbook()
    grid = _grid(backend)
    for r, label in enumerate(["Stage", "Round", "Table", "Judge", "Winner"], start=1):
        grid[r][0] = label
    grid[8][:10] = ["Seat", "Player", "Role", "Fouls", "Killed night", "Voted day", "Removed", "Best move", "Extra points", "Comment"]
    protocol, problems = parse(backend)
    assert problems == [] and protocol.winner is Team.RED and protocol.seats[0].killed_night == 1


def test_blank_round_or_unknown_stage_makes_the_tab_unreadable_but_reported():
    backend = workbook({"B3": None, "B2": "Чемпионат"})
    protocol, problems = parse(backend)
    assert protocol is None
    assert ("read.stage", "error", "B2") in problems and ("read.integer", "error", "B3") in problems


def test_out_of_range_table_is_an_error_and_does_not_collide_with_table_1():
    protocol, problems = parse(workbook({"B4": -2}))
    assert protocol is None and problems == [("read.integer", "error", "B4")]


def test_merged_cells_and_formulas_from_excel(tmp_path):
    backend = workbook({"D16": "=1+1"})
    path = tmp_path / "t.xlsx"
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for title, rows in backend.tabs.items():
        ws = wb.create_sheet(title)
        for row in rows:
            ws.append(list(row))
    ws = wb[TAB]
    ws.merge_cells("B5:D5")  # the judge's name spans three cells
    ws["J10"] = "длинный комментарий"
    ws.merge_cells("J10:L11")
    ws.merge_cells("A1:J1")
    wb.save(path)
    protocol, problems = parse(ExcelBackend(path))
    assert problems == [("read.formula", "error", "D16")]
    assert protocol.judge == "Судья Анна" and protocol.seats[0].comment == "длинный комментарий"


@pytest.mark.parametrize("raw", ["1 000", "+1", "−1", "1½", "-½", " 7 ", "0,0", "1.", ".5"])
def test_value_readers_never_raise(raw):
    number, rule = read_decimal(raw)
    assert (number is None) != (rule is None)
    read_int(raw)


@pytest.mark.parametrize("typed", ["Presets/Cup.toml", "/home/Org/Documents/Кубок/cup.toml", "GMO-2016"])
def test_the_preset_typed_keeps_its_case(typed, tmp_path):
    """A preset file's path is read as typed (folders with capitals exist); a shipped id still
    loads whatever its case."""
    from sheets_sync.workbook.layout import tournament_tab
    from sheets_sync.presets import CONFIG_DIR, preset_path

    tab = tournament_tab(name="Кубок", preset_id=typed, language="ru")
    settings = read_settings({tab.title: [list(row) for row in tab.rows]})
    assert settings.preset_id == typed
    if typed == "Presets/Cup.toml":
        (tmp_path / "Presets").mkdir()
        (tmp_path / "Presets" / "Cup.toml").write_bytes((CONFIG_DIR / "gmo-2016.toml").read_bytes())
        assert preset_path(settings.preset_id, base_dir=tmp_path) == tmp_path / "Presets" / "Cup.toml"
    elif typed == "GMO-2016":
        assert preset_path(settings.preset_id) == CONFIG_DIR / "gmo-2016.toml"


@given(st.text(alphabet=st.sampled_from(" a\tб\n\u00a0\u2003\u3000\x00\x1f\x7f\x85.,"), max_size=12) | st.text(max_size=12))
def test_cell_text_of_any_string_is_trimmed_collapsed_and_without_control_characters(raw):
    """The shortcut for text that needs no cleaning (printable, no leading, trailing or double
    space) gives exactly what the full cleaning gives."""
    import re

    from scoring.values import text

    full = re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", "\ufffd", " ".join(raw.replace("\u00a0", " ").split()))
    assert text(raw) == full
