"""The «Лига» workbook as the league file (issue 36 §2): the same league as the TOML file from a
tab of an .xlsx or a Google sheet — the result equal to the TOML league's, errors naming the tab
and cell, `league --init` writing an empty tab that openpyxl and LibreOffice open, and the
rating tabs written into the league workbook itself."""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheets_sync.actions.league import load_any_league, run_league
from sheets_sync.backends.base import Patch
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.backends.google import ENDPOINT_ENV
from sheets_sync.cli import main
from sheets_sync.league.league_file import LeagueFileError, load_league
from sheets_sync.league.book import league_book_tab, league_from_grid
from sheets_sync.render.league_site import league_json
from tests.google_support import fake_server, google_backend, sa_key, upload_tabs, upload_xlsx  # noqa: F401 - fixtures
from tests.helpers import examples
from tests.test_league import make_league

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")

# the settings and events of tests/test_league.py's LEAGUE_TOML, as an organizer types them
SETTINGS = [("Лига", "Лига проверки"), ("Язык", "ru"), ("Рейтинг", "mafiaratings-2025"), ("Серия", "mwt-series"),
            ("Вывод", "rating.xlsx")]
HEADER = ("Турнир/сезон", "Вид", "Звёзд", "Название")
EVENTS = [("a.xlsx", "турнир", 2, None), ("b.xlsx", "клуб", 1, "Клубный вечер")]


def _grid(settings=SETTINGS, header=HEADER, events=EVENTS) -> list[tuple]:
    return [*settings, (), header, *events]


def _write_book(path: Path, grid) -> Path:
    from sheets_sync.backends.base import TabWrite

    ExcelBackend(path, backups=0).apply(Patch(writes=(TabWrite(title="Лига", rows=tuple(grid), owned=False),)),
                                        base=None)
    return path


def _read(grid, tab="Лига"):
    return league_from_grid(tuple(tuple(r) for r in grid), tab=tab, source="league.xlsx", base_dir=Path("/tmp"))


# -- one model, two readers ----------------------------------------------------------------------------
def test_the_workbook_reads_to_the_same_league_as_the_toml(tmp_path):
    toml = make_league(tmp_path)
    from_toml = load_league(toml)
    from_book = load_any_league(_write_book(tmp_path / "league.xlsx", _grid()))
    fields = ("name", "language", "rating", "events", "base_dir", "series", "best_n", "output")
    assert {f: getattr(from_book, f) for f in fields} == {f: getattr(from_toml, f) for f in fields}
    assert from_book.source == "league.xlsx" and from_book.place("event[2].stars") == "«Лига»!C9"


def test_the_workbook_league_rates_like_the_toml_league(tmp_path):
    """The whole run from the workbook: league.json equal to the TOML league's; with «Вывод» empty
    the «Рейтинг» and «Серия» tabs go into the league workbook itself, beside «Лига»."""
    toml = make_league(tmp_path)
    from_toml = run_league(toml, out=tmp_path / "out-toml")
    book = _write_book(tmp_path / "league.xlsx", _grid(settings=SETTINGS[:4]))
    from_book = run_league(book, out=tmp_path / "out-book")
    assert league_json(from_book.league) == league_json(from_toml.league)
    assert (tmp_path / "out-book" / "league.json").read_text(encoding="utf-8") == \
        (tmp_path / "out-toml" / "league.json").read_text(encoding="utf-8")
    assert from_book.output_tabs == ("Рейтинг", "Серия")
    tabs = ExcelBackend(book).read().tabs
    assert list(tabs) == ["Лига", "Рейтинг", "Серия"]
    assert tabs["Рейтинг"] == ExcelBackend(tmp_path / "rating.xlsx").read().tabs["Рейтинг"]
    assert tabs["Лига"][0] == SETTINGS[0]  # what the organizer typed is never changed
    again = run_league(book, out=tmp_path / "out-book")  # its own tabs are rewritten, nothing read again
    assert again.league.read_again == () and league_json(again.league) == league_json(from_book.league)


@pytest.mark.parametrize("grid, check", [
    # columns in any order, English kinds, blank rows between events
    (_grid(header=("Звёзд", "Турнир/сезон", "Вид"), events=[(2, "a.xlsx", "tournament"), (), (1, "b.xlsx", "club")]),
     lambda f: [(e.workbook, e.kind, e.stars) for e in f.events] == [("a.xlsx", "tournament", 2), ("b.xlsx", "club", 1)]),
    # the Russian words of the kinds, any case
    (_grid(settings=[], events=[("a.xlsx", "Элита", None, None), ("b.xlsx", "ТУРНИР", None, None)]),
     lambda f: [e.kind for e in f.events] == ["elite", "tournament"] and f.language == "ru"),
    # numbers as a spreadsheet keeps them (2.0) and as text ("2")
    (_grid(settings=[("Лучших турниров", 2.0)], events=[("a.xlsx", None, "3", None)]),
     lambda f: f.best_n == 2 and f.events[0].stars == 3 and f.events[0].kind == "tournament"),
    # a name typed as a number stays the name
    (_grid(settings=[("Лига", 2026)], events=[("a.xlsx", None, None, None)]), lambda f: f.name == "2026"),
    # a hint in column C and a notes column C of settings are not read
    (_grid(settings=[("Язык", "English", "ru или en")], events=[("a.xlsx",)]), lambda f: f.language == "en"),
])
def test_what_the_tab_may_look_like(grid, check):
    assert check(_read(grid))


def test_an_english_league_tab():
    grid = [("League", "Test league"), ("Rating", "andrsj-mmr"), ("Best events", 3), (),
            ("Workbook", "Kind", "Stars", "Name"), ("a.xlsx", "elite", 3, "Final")]
    file = _read(grid, tab="League")
    assert (file.name, file.language, file.rating, file.best_n) == ("Test league", "en", "andrsj-mmr", 3)
    assert file.events[0].name == "Final" and file.events[0].kind == "elite"


# -- errors name the tab and cell ----------------------------------------------------------------------
@pytest.mark.parametrize("grid, en, ru", [
    (_grid(events=[("a.xlsx", "дружеский", 2, None)]), "«Лига»!B8 (event[1].kind): 'дружеский' is not one of",
     "«Лига»!B8 (event[1].kind): «дружеский» — не один из видов: турнир, клуб, элита"),
    (_grid(events=[("a.xlsx", "турнир", 0, None)]), "«Лига»!C8 (event[1].stars): must be a whole number from 1",
     "«Лига»!C8 (event[1].stars): должно быть целым числом от 1"),
    (_grid(events=[("a.xlsx", "турнир", 2), (None, "клуб", 1)]),
     "«Лига»!A9 (event[2].workbook): missing", "«Лига»!A9 (event[2].workbook): не указан"),
    (_grid(events=[("a.xlsx", "турнир", 2), ("a.xlsx", "клуб", 1)]),
     "«Лига»!A9 (event[2].workbook): a.xlsx is listed twice", "«Лига»!A9 (event[2].workbook): a.xlsx указан дважды"),
    (_grid(events=[("a.xlsx", "турнир"), ("b.xlsx", "клуб", 1)]),
     "«Лига»!C8 (event[1].stars): missing (the series needs", "«Лига»!C8 (event[1].stars): не указано"),
    (_grid(settings=[*SETTINGS[:1], ("Язык", "de")]), "«Лига»!B2 (language): 'de' is not ru or en",
     "«Лига»!B2 (language): «de» — не ru и не en"),
    (_grid(settings=[("Лучших турниров", "два")]), "«Лига»!B1 (best_n): must be a whole number",
     "«Лига»!B1 (best_n): должно быть целым числом"),
    (_grid(settings=[("Цвет", "красный")]), "«Лига»!A1: unknown setting «Цвет»", "«Лига»!A1: неизвестная настройка «Цвет»"),
    (_grid(header=(*HEADER, "Город"), events=[("a.xlsx", "турнир", 2, None, "Бонн")]),
     "«Лига»!E7: unknown column «Город»", "«Лига»!E7: неизвестный столбец «Город»"),
    (_grid(header=("Турнир/сезон", "Вид", "Таблица")), "«Лига»!C7: «Таблица» is a second column",
     "«Лига»!C7: «Таблица» — второй столбец"),
    (_grid(events=[]), "«Лига»!A7: no events", "«Лига»!A7: нет турниров"),
    (SETTINGS, "«Лига»: no events", "«Лига»: нет турниров"),
])
def test_errors_name_the_tab_and_cell(grid, en, ru):
    with pytest.raises(LeagueFileError) as error:
        _read(grid)
    assert any(e.startswith(en) for e in error.value.errors), error.value.errors
    assert f"league.xlsx: {ru}" in error.value.message("ru"), error.value.message("ru")


def test_every_mistake_at_once():
    grid = _grid(settings=[("Цвет", "красный"), ("Язык", "de")], events=[("a.xlsx", "дружеский", 0, None)])
    with pytest.raises(LeagueFileError) as error:
        _read(grid)
    assert [e.split(": ")[0] for e in error.value.errors] == \
        ["«Лига»!A1", "«Лига»!B2 (language)", "«Лига»!B5 (event[1].kind)", "«Лига»!C5 (event[1].stars)"]


def test_a_workbook_that_cannot_be_read_names_its_cell(tmp_path):
    make_league(tmp_path)
    book = _write_book(tmp_path / "league.xlsx", _grid(events=[("a.xlsx", "турнир", 2), ("missing.xlsx", "клуб", 1)]))
    with pytest.raises(LeagueFileError, match=r"league.xlsx: «Лига»!A9 \(missing.xlsx\)"):
        run_league(book, out=tmp_path / "out")


def test_a_workbook_without_the_tab_says_how_to_make_one(tmp_path):
    from sheets_sync.backends.base import TabWrite

    path = tmp_path / "other.xlsx"
    ExcelBackend(path, backups=0).apply(Patch(writes=(TabWrite(title="Заметки", rows=(("x",),), owned=False),)), base=None)
    result = CliRunner().invoke(main, ["league", str(path), "--language", "ru"])
    assert result.exit_code != 0
    assert "нет вкладки «Лига»" in result.output and "--init" in result.output


# -- league --init -----------------------------------------------------------------------------------------
def test_init_writes_the_empty_tab_and_the_cli_names_the_next_step(tmp_path):
    path = tmp_path / "league.xlsx"
    runner = CliRunner()
    result = runner.invoke(main, ["league", "--init", str(path), "--language", "ru"])
    assert result.exit_code == 0, result.output
    assert f"создан {path}" in result.output
    rows = ExcelBackend(path).read().tabs["Лига"]
    assert [r[0] for r in rows[:6]] == ["Лига", "Язык", "Рейтинг", "Серия", "Лучших турниров", "Вывод"]
    assert rows[7] == HEADER
    assert league_book_tab("ru").rows[7] == HEADER and league_book_tab("en").rows[7] == ("Workbook", "Kind", "Stars", "Name")
    again = runner.invoke(main, ["league", "--init", str(path), "--language", "ru"])
    assert again.exit_code != 0 and "уже есть вкладка «Лига»" in again.output
    empty = runner.invoke(main, ["league", str(path), "--language", "ru"])  # no events yet: said at the header's cell
    assert empty.exit_code != 0 and "«Лига»!A8: нет турниров" in empty.output
    wb = openpyxl.load_workbook(path)  # what openpyxl reads: the tab, the header bold, frozen under it
    ws = wb["Лига"]
    assert ws["A8"].value == "Турнир/сезон" and ws["A8"].font.bold and ws.freeze_panes == "A9"


def test_init_of_a_toml_league(tmp_path):
    path = tmp_path / "league.toml"
    result = CliRunner().invoke(main, ["league", "--init", str(path), "--language", "en"])
    assert result.exit_code == 0, result.output
    assert 'rating = "mafiaratings-2025"' in path.read_text(encoding="utf-8")
    with pytest.raises(LeagueFileError, match="event: at least one"):  # the template is TOML the reader reads
        load_league(path)


@pytest.mark.libreoffice
@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed")
def test_libreoffice_opens_the_league_workbook(tmp_path):
    """The «Лига» workbook as the init and the example write it (widths, bold header, frozen rows),
    after a run (its own tab, «Рейтинг», «Серия»), opens in LibreOffice and prints."""
    make_league(tmp_path)
    book = tmp_path / "league.xlsx"
    tab = league_book_tab("ru", settings={"name": "Лига проверки", "series": "mwt-series"},
                          events=[("a.xlsx", "tournament", 2, ""), ("b.xlsx", "club", 1, "Клубный вечер")])
    ExcelBackend(book, backups=0).apply(Patch(writes=(tab,)), base=None)
    run = run_league(book, out=tmp_path / "out")
    assert run.output_tabs == ("Рейтинг", "Серия") and [e.kind for e in run.league.file.events] == ["tournament", "club"]
    profile = tmp_path / "lo-profile"
    subprocess.run([SOFFICE, f"-env:UserInstallation=file://{profile}", "--headless", "--norestore",
                    "--convert-to", "pdf", "--outdir", str(tmp_path / "pdf"), str(book)],
                   check=True, capture_output=True, timeout=300)
    pdf = tmp_path / "pdf" / "league.pdf"
    assert pdf.exists() and pdf.read_bytes().startswith(b"%PDF")
    pdftotext = shutil.which("pdftotext")
    if pdftotext:
        text = subprocess.run([pdftotext, str(pdf), "-"], capture_output=True, text=True, check=True).stdout
        assert "Лига проверки" in text and "Рейтинг лиги" in text and "Игрок 5" in text


# -- a Google league sheet ---------------------------------------------------------------------------------
def test_a_google_league_sheet(tmp_path, fake_server, sa_key, monkeypatch):
    """The «Лига» tab in a Google sheet listing a Google event and an absolute .xlsx path: the same
    rating as the TOML league, and the «Рейтинг» tab written into that Google sheet."""
    monkeypatch.setenv(ENDPOINT_ENV, fake_server.url)
    toml = make_league(tmp_path)
    b_sheet = upload_xlsx(fake_server, tmp_path / "b.xlsx")
    grid = _grid(settings=[("Лига", "Лига проверки"), ("Рейтинг", "mafiaratings-2025")],
                 events=[(str(tmp_path / "a.xlsx"), "турнир", 2, None),
                         (f"https://docs.google.com/spreadsheets/d/{b_sheet}/edit", "клуб", 1, "Клубный вечер")])
    league_sheet = upload_tabs(fake_server, {"Лига": [list(r) for r in grid]}, title="Лига")
    run = run_league(f"gsheet:{league_sheet}", out=tmp_path / "out", credentials=sa_key)
    from_toml = run_league(toml, out=tmp_path / "out-toml")
    assert {p: r.overall for p, r in run.league.ratings.players.items()} == \
        {p: r.overall for p, r in from_toml.league.ratings.players.items()}
    assert run.output_tabs == ("Рейтинг",)
    tabs = google_backend(fake_server, sa_key, league_sheet).read().tabs
    assert tabs["Рейтинг"][1][:3] == ("Место", "Игрок", "Рейтинг")
    assert len(tabs["Рейтинг"]) == 2 + len(run.league.ratings.players)
    assert tabs["Лига"][0] == ("Лига", "Лига проверки")


# -- a property ----------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def league_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("book")
    make_league(folder)
    return folder


@settings(max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.permutations(range(4)), st.permutations([0, 1]), st.integers(0, 2))
def test_the_tab_s_arrangement_changes_nothing(league_folder, columns, rows, blanks):
    """Columns in any order, events in any order, blank rows anywhere among them: the same league."""
    from sheets_sync.league.league_file import build_league

    header = [HEADER[c] for c in columns]
    events = [tuple(EVENTS[r][c] for c in columns) for r in rows]
    events[1:1] = [()] * blanks
    file = _read(_grid(header=header, events=events))
    file = dataclasses.replace(file, base_dir=league_folder)
    built = build_league(file, cache=league_folder / "out" / ".league-cache")
    toml = build_league(load_league(league_folder / "league.toml"), cache=league_folder / "out" / ".league-cache")
    assert league_json(built) == league_json(toml)


def test_init_adds_the_tab_to_a_google_sheet(fake_server, sa_key, monkeypatch):
    """`league --init gsheet:ID` adds the empty «Лига» tab beside what the sheet holds; a second time it refuses."""
    from sheets_sync.actions.league import init_league

    monkeypatch.setenv(ENDPOINT_ENV, fake_server.url)
    sid = upload_tabs(fake_server, {"Заметки": [["typed by a person"]]}, title="Лига клуба")
    init_league(f"gsheet:{sid}", language="ru", credentials=sa_key)
    tabs = google_backend(fake_server, sa_key, sid).read().tabs
    assert tabs["Заметки"] == (("typed by a person",),)
    assert tabs["Лига"][7] == HEADER
    with pytest.raises(LeagueFileError, match="already has the tab «Лига»"):
        init_league(f"gsheet:{sid}", language="ru", credentials=sa_key)
