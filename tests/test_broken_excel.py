"""A broken workbook through the command line and a real .xlsx (issue 42 §5): the same as on the
memory backend and through the server — the sync stops with the reason, writes only the Problems
tab, publishes nothing; garbage rows get a bounded number of notes; nothing a person typed changes.
LibreOffice prints the Problems tab saying it (tests/artifacts/broken/)."""

from __future__ import annotations

import random
import shutil
import string
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from sheets_sync.backends.base import MARK_COLOURS, STATE_TAB
from sheets_sync.cli import EXIT_USER_ERROR, main
from sheets_sync.files import output_folder
from sheets_sync.loop.sync import MARKS_PER_TAB

OWNED = {"Итоги", "Отбор", "Полуфинал", "Финал", "Статистика", "Проверка", "Журнал", STATE_TAB}
SAID = ("Нет вкладки «Турнир». Похоже, это вкладка «Турнир (копия)» — верните ей имя «Турнир». Пока её нет, "
        "синхронизация не пересчитывает итоги и ничего не публикует: итоги, сайт и пост остаются прежними")


def values(book: Path, skip: set[str] = frozenset()) -> dict[str, list[tuple]]:
    wb = openpyxl.load_workbook(book)
    return {ws.title: [tuple(c.value for c in row) for row in ws.iter_rows()] for ws in wb.worksheets
            if ws.title not in skip}


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def sync(book: Path, *options: str):
    return CliRunner().invoke(main, ["sync", str(book), *options])


@pytest.fixture
def synced_book(example) -> Path:
    result = sync(example)
    assert result.exit_code == 0, result.output
    return example


def renamed(book: Path, old: str, new: str) -> None:
    wb = openpyxl.load_workbook(book)
    wb[old].title = new
    wb.save(book)


def test_the_command_line_stops_on_a_renamed_tab_and_writes_only_the_problems_tab(synced_book):
    renamed(synced_book, "Турнир", "Турнир (копия)")
    before, published = values(synced_book, {"Проверка"}), files(output_folder(str(synced_book)))

    result = sync(synced_book)

    assert result.exit_code == EXIT_USER_ERROR
    assert SAID in " ".join(result.output.split())  # the terminal wraps long lines
    assert values(synced_book, {"Проверка"}) == before  # Итоги, Отбор… and every typed value untouched
    assert files(output_folder(str(synced_book))) == published
    rows = values(synced_book)["Проверка"]
    assert ("Турнир (копия)", "A1", "ошибка", SAID, "Вкладка переименована") in rows


def test_the_english_command_line_says_it_in_english(synced_book):
    renamed(synced_book, "Игроки", "Игроки (копия)")
    result = sync(synced_book, "--language", "en")
    assert result.exit_code == EXIT_USER_ERROR
    assert "There is no tab 'Players'. Tab 'Игроки (копия)' looks like it" in " ".join(result.output.split())


def test_garbage_rows_in_an_xlsx_get_a_bounded_number_of_notes(synced_book):
    rng = random.Random(3)
    wb = openpyxl.load_workbook(synced_book)
    ws = wb["Рассадка"]
    for _ in range(1500):
        ws.append(["".join(rng.choice(string.ascii_letters) for _ in range(8)) for _ in range(12)])
    wb.save(synced_book)
    typed = values(synced_book, OWNED)

    assert sync(synced_book).exit_code == 0

    ws = openpyxl.load_workbook(synced_book)["Рассадка"]
    noted = [c for row in ws.iter_rows() for c in row if c.comment is not None]
    assert 0 < len(noted) <= MARKS_PER_TAB
    assert all(c.fill.fgColor.rgb[-6:] == MARK_COLOURS["error"] for c in noted)
    assert noted[-1].comment.text.split("\n")[-1].startswith("и ещё 1\u00a0400 ошибок в этом листе")
    assert values(synced_book, OWNED) == typed


SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")


@pytest.mark.libreoffice
@pytest.mark.skipif(SOFFICE is None or shutil.which("pdftoppm") is None, reason="LibreOffice and poppler are needed")
def test_the_problems_tab_of_a_stopped_sync_prints_what_is_missing(synced_book, tmp_path):
    from tests.test_libreoffice import ARTIFACTS, _png, _print_tabs, _text

    renamed(synced_book, "Турнир", "Турнир (копия)")
    renamed(synced_book, "Игроки", "Лист7")
    assert sync(synced_book).exit_code == EXIT_USER_ERROR
    pdf = _print_tabs(synced_book, ["Проверка"], tmp_path / "print", tmp_path / "profile")["Проверка"]
    printed = " ".join(_text(pdf, 1).split())
    assert "Похоже, это вкладка «Турнир (копия)»" in printed and "Похоже, это вкладка «Лист7»" in printed
    (ARTIFACTS / "broken").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(pdf, ARTIFACTS / "broken" / "problems-tab-renamed.pdf")
    _png(pdf, "broken/problems-tab-renamed.png")
