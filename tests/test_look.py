"""How the tabs look: a TabWrite's styles, row heights and print settings on both backends,
the protocol tab laid out like the FIIM paper protocol, and the printed blank showing the
same fields.  (How they print is measured with LibreOffice in tests/test_libreoffice.py.)"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from decimal import Decimal
from html import unescape
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner
from openpyxl.styles import PatternFill

from scoring import labels as L
from scoring.cells import parse_a1
from sheets_sync.backends.base import SHADE_COLOUR, Mark, PageSetup, Patch, Style, TabWrite
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.backends.google import ENDPOINT_ENV
from sheets_sync.backends.google.metadata import SpreadsheetMetadata, TabProperties
from sheets_sync.backends.google.planner import plan_batch_update
from sheets_sync.cli import main
from sheets_sync.workbook.layout import PROTOCOL_HEADER_KEYS, PROTOCOL_TABLE_ROW, protocol_legend, protocol_tab
from sheets_sync.presets import load_preset
from sheets_sync.render.protocols import blanks_html
from sheets_sync.render.tabs import HEADER_ROW, POINTS_FORMAT, TOP_ROWS, number_styles, standings_tab
from sheets_sync.loop.sync import compute, sync_once
from tests.google_support import google_backend

GMO, _ = load_preset("gmo-2016")
NAMES = [f"Игрок {i:02d}" for i in range(1, 41)]
PROTOCOL = "Тур 1 Стол 1"


def _protocol(preset=GMO, language="ru") -> TabWrite:
    return protocol_tab(title=PROTOCOL, stage_name="Отбор", round_no=1, table=1, players=NAMES[:10],
                        language=language, preset=preset)


def _cells(ref: str) -> set[str]:
    """Every A1 cell of a range."""
    first, _, last = ref.partition(":")
    (r0, c0), (r1, c1) = parse_a1(first), parse_a1(last or first)
    return {f"{openpyxl.utils.get_column_letter(c + 1)}{r + 1}" for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)}


def _styled(write: TabWrite, **want) -> set[str]:
    """The cells of ``write`` whose styles set every attribute in ``want``."""
    out: set[str] = set()
    for s in write.styles:
        if all(getattr(s, k) == v for k, v in want.items()):
            out |= _cells(s.cells)
    return out


# -- both backends translate a TabWrite's look ------------------------------------------------------
LOOK = TabWrite(title="Вид", rows=(("Заголовок", "x"), ("a", "8 9 10")), owned=False, column_widths=(10, 20),
                row_heights=(30.0, None, 20.0),
                styles=(Style(cells="A1:B1", frame=True, shade=True, bold=True, size=12, align="center", middle=True,
                              wrap=True),
                        Style(cells="B2:B3", text=True, muted=True, align="left")),
                page=PageSetup(landscape=True, fit_height=True, repeat_rows=1, area="A1:B3"))


def test_excel_writes_styles_heights_and_print_settings(tmp_path):
    path = tmp_path / "look.xlsx"
    ExcelBackend(path).apply(Patch(writes=(LOOK,)), base=None)
    ws = openpyxl.load_workbook(path)["Вид"]
    a1 = ws["A1"]
    assert {a1.border.left.style, a1.border.right.style, a1.border.top.style, a1.border.bottom.style} == {"thin"}
    assert a1.fill.fill_type == "solid" and a1.fill.fgColor.rgb.endswith(SHADE_COLOUR)
    assert a1.font.b and a1.font.sz == 12 and a1.font.name == "Calibri"  # a bold font keeps its typeface
    assert (a1.alignment.horizontal, a1.alignment.vertical, a1.alignment.wrap_text) == ("center", "center", True)
    assert ws["B2"].number_format == ws["B3"].number_format == "@" and ws["B2"].value == "8 9 10"
    assert ws["B2"].font.color.rgb.endswith("595959") and ws["B2"].alignment.horizontal == "left"
    assert ws["A2"].number_format == "General" and ws["A2"].border.left.style is None
    assert ws.row_dimensions[1].height == 30 and ws.row_dimensions[3].height == 20
    setup = ws.page_setup
    assert (setup.orientation, int(setup.paperSize), int(setup.fitToWidth), int(setup.fitToHeight)) == ("landscape", 9, 1, 1)
    assert ws.sheet_properties.pageSetUpPr.fitToPage
    assert ws.print_title_rows == "$1:$1" and ws.print_area == "'Вид'!$A$1:$B$3"


@pytest.mark.parametrize(("rows", "cols", "titled_rows", "titled_cols"), [
    (1, 0, "$1:$1", None), (0, 1, None, "$A:$A"), (1, 2, "$1:$1", "$A:$B")])
def test_repeated_columns_print_beside_each_page_across(tmp_path, rows, cols, titled_rows, titled_cols):
    """A table wider than the page (the draw report at 8 pt): its first columns, the names, print
    again at the left of each page across, with the repeated rows kept — and written again the same."""
    path = tmp_path / "look.xlsx"
    tab = replace(LOOK, page=PageSetup(landscape=True, repeat_rows=rows, repeat_cols=cols))
    for _ in range(2):  # the second write replaces the first's print titles
        ExcelBackend(path, backups=0).apply(Patch(writes=(tab,)), base=None)
        ws = openpyxl.load_workbook(path)["Вид"]
        assert (ws.print_title_rows, ws.print_title_cols) == (titled_rows, titled_cols)


def test_planner_writes_styles_and_heights_in_the_one_batch_update():
    body, _ = plan_batch_update(Patch(writes=(LOOK,)), SpreadsheetMetadata(title="T", locale="ru_RU"))
    kinds = [next(iter(r)) for r in body["requests"]]
    assert kinds[0] == "addSheet" and "updateBorders" in kinds
    cells = [r["repeatCell"] for r in body["requests"] if "repeatCell" in r]
    header = next(c for c in cells if c["range"]["endRowIndex"] == 1 and "backgroundColor" in c["cell"]["userEnteredFormat"])
    fmt = header["cell"]["userEnteredFormat"]
    assert fmt["horizontalAlignment"] == "CENTER" and fmt["verticalAlignment"] == "MIDDLE"
    assert fmt["wrapStrategy"] == "WRAP" and fmt["textFormat"] == {"bold": True, "fontSize": 12}
    text = next(c for c in cells if "numberFormat" in c["cell"]["userEnteredFormat"])
    assert text["cell"]["userEnteredFormat"]["numberFormat"] == {"type": "TEXT"}
    assert (text["range"]["startRowIndex"], text["range"]["endRowIndex"], text["range"]["startColumnIndex"]) == (1, 3, 1)
    # a field mask names exactly what a style sets: nothing else of the cells is touched
    assert set(text["fields"].split(",")) == {"userEnteredFormat.numberFormat", "userEnteredFormat.textFormat.foregroundColor",
                                             "userEnteredFormat.horizontalAlignment"}
    borders = next(r["updateBorders"] for r in body["requests"] if "updateBorders" in r)
    assert {k for k in borders if k != "range"} == {"top", "bottom", "left", "right", "innerHorizontal", "innerVertical"}
    rows = [r["updateDimensionProperties"] for r in body["requests"]
            if r.get("updateDimensionProperties", {}).get("range", {}).get("dimension") == "ROWS"]
    assert [(d["range"]["startIndex"], d["properties"]["pixelSize"]) for d in rows] == [(0, 40), (2, 27)]


# -- points shown with the site's decimals: a number format, the exact numbers kept ----------------------
POINTS = TabWrite(title="Очки", rows=(("Итого", "Игр"), (Decimal("6.7"), 14), (Decimal("14.825"), 14), (15, 7), (0, 7)),
                  styles=number_styles([0], 1, 4))


def test_number_styles_cover_runs_of_adjacent_columns():
    assert [s.cells for s in number_styles([3, 4, 5, 9, 10, 12], 3, 42)] == ["D4:F43", "J4:K43", "M4:M43"]
    assert {s.number_format for s in number_styles([1], 0, 0)} == {POINTS_FORMAT}
    assert number_styles([1], 3, 2) == () and number_styles([], 0, 9) == ()  # no rows, no columns: no style


def test_excel_shows_points_with_the_sites_decimals_and_keeps_the_numbers(tmp_path):
    path = tmp_path / "points.xlsx"
    ExcelBackend(path).apply(Patch(writes=(POINTS,)), base=None)
    ws = openpyxl.load_workbook(path)["Очки"]
    assert [ws[f"A{r}"].number_format for r in range(2, 6)] == [POINTS_FORMAT] * 4
    assert ws["B2"].number_format == "General" and ws["A1"].number_format == "General"  # counts and text stay as they are
    assert ExcelBackend(path).read().tabs["Очки"] == (("Итого", "Игр"), (6.7, 14), (14.825, 14), (15, 7), (0, 7))


def test_google_shows_points_with_the_sites_decimals_in_the_same_batch_update(fake_server, sa_key):
    body, _ = plan_batch_update(Patch(writes=(POINTS,)), SpreadsheetMetadata(title="T", locale="ru_RU"))
    (points,) = [r["repeatCell"] for r in body["requests"]
                 if "numberFormat" in r.get("repeatCell", {}).get("cell", {}).get("userEnteredFormat", {})]
    assert points["cell"]["userEnteredFormat"] == {"numberFormat": {"type": "NUMBER", "pattern": POINTS_FORMAT}}
    assert points["fields"] == "userEnteredFormat.numberFormat"
    assert (points["range"]["startRowIndex"], points["range"]["endRowIndex"], points["range"]["endColumnIndex"]) == (1, 5, 1)
    sid = fake_server.create_spreadsheet("T", tabs={"A": []})
    google_backend(fake_server, sa_key, sid).apply(Patch(writes=(POINTS,)), base=None)
    cells = fake_server.cells(sid, "Очки")
    assert cells["A3"].raw["userEnteredFormat"]["numberFormat"] == {"type": "NUMBER", "pattern": POINTS_FORMAT}
    assert fake_server.values(sid, "Очки") == [["Итого", "Игр"], [6.7, 14], [14.825, 14], [15, 7], [0, 7]]


def test_standings_open_with_title_and_status_and_format_only_points(example_snapshot):
    tab = standings_tab(compute(example_snapshot).results, "ru")
    header = tab.rows[HEADER_ROW]
    assert tab.rows[0] == ("German Mafia Open 2016 (пример) — Итоговая таблица",)
    assert tab.rows[1] == ("засчитано игр: 38 из 38",) and header[:4] == ("Место", "Игрок", "Клуб", "Итого")
    assert tab.frozen_rows == tab.page.repeat_rows == TOP_ROWS
    # each column of points one number of decimals, enough for gmo-2016's finest step there (issue 43 §8):
    # 0.25 × 1.5 in the semifinal, so the total too; the qualifying (×1) and the final (×2) two
    places = {"Итого": "0.000", "Отбор": "0.00", "Полуфинал": "0.000", "Финал": "0.00", "Доп. баллы": "0.000",
              "Лучший ход": "0.000", "Штрафы": "0.000"}
    formatted = {fmt: _styled(tab, number_format=fmt) for fmt in ("0.00", "0.000", POINTS_FORMAT)}
    for c, name in enumerate(header):
        column = {f"{openpyxl.utils.get_column_letter(c + 1)}{r + 1}" for r in range(TOP_ROWS, TOP_ROWS + 40)}
        shown = [fmt for fmt, cells in formatted.items() if column & cells]
        assert shown == ([places[name]] if name in places else []), name
        assert name not in places or column <= formatted[places[name]], name


def test_planner_leaves_the_look_of_an_existing_input_tab_alone():
    """An input tab that exists gets only its given values: never a width, style or dropdown again."""
    meta = SpreadsheetMetadata(title="T", locale="ru_RU", tabs=[TabProperties(7, PROTOCOL)])
    body, _ = plan_batch_update(Patch(writes=(_protocol(),)), meta)
    kinds = {next(iter(r)) for r in body["requests"]}
    assert kinds <= {"updateCells", "setDataValidation"}, kinds  # (the dropdowns are set again, as before)
    assert all(r["updateCells"]["fields"] == "userEnteredValue" for r in body["requests"] if "updateCells" in r)


def test_planner_restyles_an_owned_tab_after_clearing_it():
    owned = replace(LOOK, owned=True)
    meta = SpreadsheetMetadata(title="T", locale="ru_RU", tabs=[TabProperties(7, "Вид")])
    body, _ = plan_batch_update(Patch(writes=(owned,)), meta)
    kinds = [next(iter(r)) for r in body["requests"]]
    assert kinds.index("updateCells") < kinds.index("repeatCell") and "updateBorders" in kinds


def test_fake_server_stores_borders_and_refuses_bad_formats(fake_server, sa_key):
    sid = fake_server.create_spreadsheet("T", tabs={"A": []})
    backend = google_backend(fake_server, sa_key, sid)
    backend.apply(Patch(writes=(replace(LOOK, title="Вид"),)), base=None)
    cells = fake_server.cells(sid, "Вид")
    borders = cells["A1"].raw["userEnteredFormat"]["borders"]
    assert set(borders) == {"top", "bottom", "left", "right"} and borders["top"]["style"] == "SOLID"
    assert cells["A1"].background == SHADE_COLOUR and cells["B2"].number_format == "TEXT"
    assert fake_server.spreadsheets[sid].sheet_by_title("Вид").row_heights == {0: 40, 2: 27}
    from tests.fake_sheets import ApiError

    book = fake_server.spreadsheets[sid]
    sheet_id = book.sheet_by_title("Вид").id
    for bad in ({"repeatCell": {"range": {"sheetId": sheet_id}, "cell": {"userEnteredFormat": {"numberFormat": {"type": "PLAIN"}}},
                                "fields": "userEnteredFormat.numberFormat"}},
                {"repeatCell": {"range": {"sheetId": sheet_id}, "cell": {"userEnteredFormat": {"horizontalAlignment": "CENTRE"}},
                                "fields": "userEnteredFormat.horizontalAlignment"}},
                {"updateBorders": {"range": {"sheetId": sheet_id}, "top": {"style": "THIN"}}}):
        with pytest.raises(ApiError):
            fake_server._batch_update(book, {"requests": [bad]})


# -- init and draw write the look on both backends ---------------------------------------------------
def _excel_look(path: Path) -> dict[str, dict[str, set[str]]]:
    out = {}
    for ws in openpyxl.load_workbook(path).worksheets:
        look: dict[str, set[str]] = {"text": set(), "shade": set(), "frame": set(), "center": set()}
        for row in ws.iter_rows():
            for c in row:
                if c.number_format == "@":
                    look["text"].add(c.coordinate)
                if c.fill.fill_type == "solid" and c.fill.fgColor.rgb.endswith(SHADE_COLOUR):
                    look["shade"].add(c.coordinate)
                if all(getattr(c.border, side).style == "thin" for side in ("left", "right", "top", "bottom")):
                    look["frame"].add(c.coordinate)
                if c.alignment.horizontal == "center":
                    look["center"].add(c.coordinate)
        out[ws.title] = look
    return out


def _google_look(server, sid: str) -> dict[str, dict[str, set[str]]]:
    out = {}
    for tab in server.tabs(sid):
        look: dict[str, set[str]] = {"text": set(), "shade": set(), "frame": set(), "center": set()}
        for a1, cell in server.cells(sid, tab).items():
            fmt = cell.raw.get("userEnteredFormat", {})
            if cell.number_format == "TEXT":
                look["text"].add(a1)
            if cell.background == SHADE_COLOUR:
                look["shade"].add(a1)
            if all(fmt.get("borders", {}).get(side, {}).get("style") == "SOLID" for side in ("left", "right", "top", "bottom")):
                look["frame"].add(a1)
            if fmt.get("horizontalAlignment") == "CENTER":
                look["center"].add(a1)
        out[tab] = look
    return out


@pytest.fixture
def players_csv(tmp_path) -> Path:
    path = tmp_path / "players.csv"
    path.write_text("Игрок;Клуб\n" + "\n".join(f"{n};К{i % 4}" for i, n in enumerate(NAMES)), encoding="utf-8-sig")
    return path


def _check_init_look(look: dict[str, dict[str, set[str]]]) -> None:
    p = look[PROTOCOL]
    # what people type as text: nicknames, Удалён, ЛХ, comments, nominations; the judge's names
    for col in "BGHJK":
        assert _cells(f"{col}10:{col}19") <= p["text"], col
    assert {"B5", "B7"} <= p["text"] and not _cells("C10:F19") & p["text"]  # roles and numbers stay numbers
    assert p["shade"] == _cells("A2:A7") | _cells("A9:M9")  # labels and column headers, nothing a mark can land on
    assert _cells("A2:B7") | _cells("A9:M19") <= p["frame"] and "A1" not in p["frame"]
    assert _cells("A10:A19") <= p["center"] and not _cells("B10:B19") & p["center"]
    assert _cells("A2:E100") <= look["Игроки"]["text"]
    assert _cells("D2:M80") <= look["Рассадка"]["text"] and _cells("A2:A80") <= look["Рассадка"]["text"]
    assert not _cells("B2:C80") & look["Рассадка"]["text"]
    assert {"A2", "B2", "D2"} <= look["Штрафы"]["text"]


def test_init_writes_the_look_on_both_backends(fake_server, sa_key, players_csv, tmp_path, monkeypatch):
    monkeypatch.setenv(ENDPOINT_ENV, fake_server.url)
    runner = CliRunner()
    xlsx = tmp_path / "cup.xlsx"
    assert runner.invoke(main, ["init", str(xlsx), "--players", str(players_csv)]).exit_code == 0
    before = set(fake_server.spreadsheets)
    result = runner.invoke(main, ["init", "gsheet:new", "--players", str(players_csv), "--credentials", sa_key])
    assert result.exit_code == 0, result.output
    (sid,) = set(fake_server.spreadsheets) - before
    excel, google = _excel_look(xlsx), _google_look(fake_server, sid)
    _check_init_look(excel)
    assert google == excel  # the same look, cell for cell, owned tabs included


def test_draw_writes_the_look_and_keeps_what_a_person_changed(players_csv, tmp_path):
    xlsx = tmp_path / "cup.xlsx"
    assert CliRunner().invoke(main, ["init", str(xlsx), "--players", str(players_csv)]).exit_code == 0
    wb = openpyxl.load_workbook(xlsx)
    ws = wb[PROTOCOL]
    ws["A2"].fill = PatternFill(fill_type="solid", start_color="00B0F0", end_color="00B0F0")  # a judge's colour
    ws["H10"].number_format = "General"
    ws.column_dimensions["J"].width = 50
    del wb["Тур 7 Стол 4"]  # a protocol tab the draw will create again
    wb.save(xlsx)
    result = CliRunner().invoke(main, ["draw", str(xlsx), "--seed", "3"])
    assert result.exit_code == 0, result.output
    look = _excel_look(xlsx)
    wb = openpyxl.load_workbook(xlsx)
    ws = wb[PROTOCOL]
    assert ws["A2"].fill.fgColor.rgb == "0000B0F0" and ws["H10"].number_format == "General"
    assert ws.column_dimensions["J"].width == 50
    assert "A2" not in look[PROTOCOL]["shade"] and "H10" not in look[PROTOCOL]["text"]
    _check_init_look({**look, PROTOCOL: look["Тур 7 Стол 4"]})  # the recreated tab has the whole look
    assert wb["Тур 7 Стол 4"].print_area == "'Тур 7 Стол 4'!$A$1:$M$19"


# -- marks show and clear over the shading ---------------------------------------------------------
def test_shading_never_covers_a_cell_a_mark_can_land_on():
    """Marks land on A1 (a missing label or table), on header values (column B) and on seat cells;
    clearing one removes its fill, so none of them may be shaded."""
    for preset_id in ("gmo-2016", "fiim-2023"):
        preset, _ = load_preset(preset_id)
        tab = _protocol(preset)
        shaded = _styled(tab, shade=True)
        assert shaded and "A1" not in shaded
        assert all(parse_a1(a1)[1] == 0 or parse_a1(a1)[0] == PROTOCOL_TABLE_ROW for a1 in shaded), shaded
        assert not {a1 for a1 in shaded if parse_a1(a1)[0] > PROTOCOL_TABLE_ROW}


def test_marks_set_and_clear_over_the_framed_table(players_csv, tmp_path):
    xlsx = tmp_path / "cup.xlsx"
    assert CliRunner().invoke(main, ["init", str(xlsx), "--players", str(players_csv)]).exit_code == 0
    wb = openpyxl.load_workbook(xlsx)
    wb[PROTOCOL]["B6"] = "ничья"  # not a winner
    wb[PROTOCOL]["D12"] = 7  # seven fouls
    wb.save(xlsx)
    sync_once(ExcelBackend(xlsx), out_dir=None)
    ws = openpyxl.load_workbook(xlsx)[PROTOCOL]
    for a1 in ("B6", "D12"):
        assert ws[a1].comment is not None and ws[a1].fill.fgColor.rgb.endswith("F4B6B6"), a1
        assert ws[a1].border.left.style == "thin"  # the frame stays under the mark
    wb = openpyxl.load_workbook(xlsx)
    wb[PROTOCOL]["B6"] = None
    wb[PROTOCOL]["D12"] = 1
    wb.save(xlsx)
    sync_once(ExcelBackend(xlsx), out_dir=None)
    look = _excel_look(xlsx)[PROTOCOL]
    ws = openpyxl.load_workbook(xlsx)[PROTOCOL]
    assert ws["B6"].comment is None and ws["D12"].comment is None
    assert ws["B6"].fill.fill_type is None and ws["D12"].fill.fill_type is None
    assert look["shade"] == _cells("A2:A7") | _cells("A9:M9") and _cells("A2:B7") <= look["frame"]


def test_google_marks_leave_the_frame_and_shading(fake_server, sa_key):
    sid = fake_server.create_spreadsheet("T", tabs={"A": []})
    backend = google_backend(fake_server, sa_key, sid)
    backend.apply(Patch(writes=(_protocol(),)), base=None)
    mark = Mark(sheet=PROTOCOL, cell="B6", severity="error", note="?")
    backend.apply(Patch(set_marks=(mark,)), base=None)
    backend.apply(Patch(clear_marks=((PROTOCOL, "B6"),)), base=None)
    look = _google_look(fake_server, sid)[PROTOCOL]
    assert "B6" in look["frame"] and look["shade"] == _cells("A2:A7") | _cells("A9:M9")
    assert fake_server.cells(sid, PROTOCOL)["B6"].background is None


# -- the paper and the tab show the same fields ------------------------------------------------------
def _blank_fields(html: str) -> tuple[list[str], list[str]]:
    section = html.split('<section class="sheet">')[1]
    head = re.findall(r'<td class="label shade">([^<]*)</td>', section)
    columns = re.findall(r'<th class="shade">([^<]*)</th>', section)
    return [unescape(h) for h in head], [unescape(c) for c in columns]


@pytest.mark.parametrize("preset_id,language", [("gmo-2016", "ru"), ("fiim-2023", "ru"), ("gmo-2016", "en")])
def test_blank_and_tab_show_the_same_fields(preset_id, language):
    from tests.test_site import example_outcome

    preset, _ = load_preset(preset_id)
    tournament = example_outcome().results.tournament
    html = blanks_html(tournament, preset, round_no=1, stage="qualifying", language=language)
    head, columns = _blank_fields(html)
    tab = _protocol(preset, language)
    assert head == [tab.rows[1 + i][0] for i in range(len(PROTOCOL_HEADER_KEYS))]
    assert columns == list(tab.rows[PROTOCOL_TABLE_ROW])
    assert (L.label(L.PROTOCOL_COLUMNS["auto_extra_taken"], language) in columns) == bool(preset.auto_extra)
    for line in protocol_legend(language):
        assert line in unescape(html)
        assert line in {v for row in tab.rows for v in row if isinstance(v, str)}
    assert "@page { size: A4 landscape" in html and tab.page.landscape and tab.page.fit_height


def test_the_reader_accepts_the_optional_columns():
    """Выставлен, Проверка шерифа, Проверка дона: filled in or not, the game reads the same."""
    from scoring.parse import parse_tournament, read_settings
    from tests.rulebook import TAB, workbook

    def parse(backend):
        snapshot = backend.read()
        parsed = parse_tournament(snapshot.tabs, snapshot.order, GMO, read_settings(snapshot.tabs))
        protocol = next(p for p in parsed.tournament.protocols if p.sheet == TAB)
        return protocol, [p for p in parsed.problems if p.sheet == TAB]

    plain, problems = parse(workbook())
    assert problems == []
    backend = workbook()
    grid = backend.tabs[TAB]
    grid[PROTOCOL_TABLE_ROW] += ["Выставлен", "Проверка шерифа", "Проверка дона"]
    for s, extra in enumerate([("1 3", None, None), ("2", 1, None), ("", None, 2), ("1", None, 1)]):
        row = grid[PROTOCOL_TABLE_ROW + 1 + s]
        grid[PROTOCOL_TABLE_ROW + 1 + s] = row + [None] * (10 - len(row)) + list(extra)
    filled, problems = parse(backend)
    assert problems == []
    assert filled.seats[0].cells["nominated"].cell == "K10" and filled.seats[1].cells["don_check"].cell == "M11"
    assert [replace(s, cells={}) for s in filled.seats] == [replace(s, cells={}) for s in plain.seats]
    assert replace(filled, seats=(), cells={}) == replace(plain, seats=(), cells={})


# -- an owned tab whose look did not change keeps it (the state tab remembers its look key) --------
def _looks(path: Path, titles) -> dict[str, dict[str, tuple]]:
    """Every cell's look as openpyxl reads it, by tab."""
    wb = openpyxl.load_workbook(path)
    out = {}
    for title in titles:
        ws = wb[title]
        out[title] = {c.coordinate: (c.number_format, c.font.b, c.font.sz, c.font.u, c.font.color.rgb if c.font.color else None,
                                     c.fill.fgColor.rgb, c.border.left.style, c.border.bottom.style,
                                     c.alignment.horizontal, c.alignment.wrap_text)
                      for row in ws.iter_rows() for c in row}
        out[title]["widths"] = tuple(sorted((k, d.width) for k, d in ws.column_dimensions.items()))
        out[title]["print"] = (ws.print_title_rows, ws.page_setup.orientation, ws.freeze_panes)
    return out


def test_an_owned_tab_whose_look_is_unchanged_keeps_it_and_reads_as_if_drawn_anew(tmp_path):
    """After an edit the sync writes Итоги's values only (its look key is the one remembered): the
    tab then looks cell for cell as it does in a workbook synced once from the same input, whose
    look was drawn in full; the state tab, shown by hand, is hidden again (its look is drawn every time)."""
    import shutil

    from sheets_sync.backends.base import STATE_TAB
    from sheets_sync.example import EXAMPLE_PATH
    from tests.judge import ExcelDesk
    from tests.test_incremental import edit_cell, protocol_tabs

    step, scratch = tmp_path / "step" / "cup.xlsx", tmp_path / "scratch" / "cup.xlsx"
    for path in (step, scratch):
        path.parent.mkdir()
        shutil.copyfile(EXAMPLE_PATH, path)
    sync_once(ExcelBackend(step, backups=0), out_dir=None)
    wb = openpyxl.load_workbook(step)
    wb[STATE_TAB].sheet_state = "visible"  # an organizer looked inside
    wb.save(step)
    tab = protocol_tabs(step)[0]
    for path in (step, scratch):
        desk = ExcelDesk(path)
        desk.type({(tab, edit_cell(desk, tab, 0, "extra")): "0,4"})
    again = sync_once(ExcelBackend(step, backups=0), out_dir=None)
    kept = {w.title for w in again.patch.writes if w.look_kept}
    # the Log tab too: it grew by the line of the edit, and its look does not depend on its length
    assert {"Итоги", "Отбор", "Статистика", "Журнал"} <= kept and STATE_TAB not in kept
    sync_once(ExcelBackend(scratch, backups=0), out_dir=None)
    owned = sorted(kept - {STATE_TAB, "Журнал"})
    assert _looks(step, owned) == _looks(scratch, owned)
    # the Log as it is now, line of the edit included, drawn in full into a new workbook: the same look
    log = next(w for w in again.patch.writes if w.title == "Журнал")
    drawn = tmp_path / "drawn.xlsx"
    ExcelBackend(drawn, backups=0).apply(Patch(writes=(replace(log, look_kept=False),)), base=None)
    assert len(log.rows) > 3 and _looks(step, ["Журнал"]) == _looks(drawn, ["Журнал"])
    assert openpyxl.load_workbook(step)[STATE_TAB].sheet_state == "hidden"


def test_an_owned_tab_whose_look_changed_is_drawn_again(tmp_path):
    """One more player in Итоги is one more row of frame and shading: the look key differs, the
    look is drawn again (and remembered)."""
    from sheets_sync.loop.sync import look_key

    path = tmp_path / "look.xlsx"
    rows = (("Итого",), (Decimal("6.70"),))
    first = TabWrite(title="Очки", rows=rows, styles=(Style(cells="A1:A2", frame=True),))
    longer = replace(first, rows=(*rows, (Decimal("1.25"),)), styles=(Style(cells="A1:A3", frame=True),))
    assert look_key(first) != look_key(longer) and look_key(first) == look_key(replace(first, rows=(("Итого",), (7,))))
    ExcelBackend(path).apply(Patch(writes=(first,)), base=None)
    ExcelBackend(path).apply(Patch(writes=(longer,)), base=None)
    assert openpyxl.load_workbook(path)["Очки"]["A3"].border.left.style == "thin"


def test_a_google_owned_tab_whose_look_is_unchanged_gets_its_values_only(fake_server, sa_key, monkeypatch):
    """Google: after an edit the one batchUpdate writes the kept tabs' values only — no formats,
    borders, widths or heights for them — and every owned tab then looks cell for cell as in a
    spreadsheet synced once from the same input."""
    from sheets_sync.backends.base import STATE_TAB
    from sheets_sync.backends.excel_read import read_values
    from sheets_sync.backends.google import backend as google_backend_module
    from sheets_sync.example import EXAMPLE_PATH
    from tests.google_support import GoogleBook, upload_xlsx
    from tests.test_corpus import extra_points_cell

    order, tabs = read_values(EXAMPLE_PATH.read_bytes())
    protocol = next(t for t in order if t.startswith("Тур 1"))
    edit = {(protocol, extra_points_cell(tabs[protocol])): "0,4"}
    step, scratch = (GoogleBook(fake_server, sa_key, upload_xlsx(fake_server, EXAMPLE_PATH)) for _ in range(2))
    sync_once(step.backend(), out_dir=None)
    step.edit(edit)
    scratch.edit(edit)
    planned = []
    plan = google_backend_module.plan_batch_update
    monkeypatch.setattr(google_backend_module, "plan_batch_update",
                        lambda patch, meta: planned.append((patch, meta)) or plan(patch, meta))
    again = sync_once(step.backend(), out_dir=None)
    monkeypatch.undo()
    kept = {w.title for w in again.patch.writes if w.look_kept}
    assert {"Итоги", "Отбор", "Статистика", "Журнал"} <= kept and STATE_TAB not in kept
    patch, meta = planned[-1]
    body, _ = plan(patch, meta)
    ids = {t.sheet_id: t.title for t in meta.tabs}
    styled = {ids[r[kind]["range"]["sheetId"]] for r in body["requests"]
              for kind in ("repeatCell", "updateBorders", "updateDimensionProperties") if kind in r}
    assert not styled & kept
    drawn, _ = plan(replace(patch, writes=tuple(replace(w, look_kept=False) for w in patch.writes)), meta)
    # the values are most of the request; the formats not sent again are about one request in three
    assert len(body["requests"]) < 0.8 * len(drawn["requests"]) and len(json.dumps(body)) < len(json.dumps(drawn))
    sync_once(scratch.backend(), out_dir=None)

    def looks(book, tab):
        cells = {a1: c.raw.get("userEnteredFormat") for a1, c in fake_server.cells(book.sid, tab).items()}
        return cells, fake_server.column_widths(book.sid, tab), fake_server.sheet_properties(book.sid, tab).get("gridProperties")

    for tab in sorted(kept - {"Журнал"}):
        assert looks(step, tab) == looks(scratch, tab), tab
    # the Log grew by the edit's line: its other cells look as freshly drawn, the line has no format of its own
    (log, widths, grid), (fresh, fresh_widths, fresh_grid) = looks(step, "Журнал"), looks(scratch, "Журнал")
    assert {k: v for k, v in log.items() if k in fresh} == fresh and (widths, grid) == (fresh_widths, fresh_grid)
    assert set(log) > set(fresh) and not any(log[k] for k in set(log) - set(fresh))
