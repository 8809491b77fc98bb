"""Organizer mistakes are loud, and nothing wrong gets published (issue 13, §5) — through the real CLI.

Every case checks the exit code and the message (never a traceback), in English and in
Russian: the messages follow ``--language``, else the tournament's language, else the
system's (tests run with an English system, ``tests/conftest.py``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from sheets_sync.cli import EXIT_USER_ERROR, EXIT_WORKBOOK_LOCKED, main
from sheets_sync.crashlog import LOG_NAME
from sheets_sync.messages import system_language
from tests.helpers import FIRST_ROW

RU = {"LANG": "ru_RU.UTF-8"}


def run(*args: object, code: int = EXIT_USER_ERROR, env: dict[str, str] | None = None) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args], env=env)
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    return result.output


def players_csv(folder: Path, text: str = "", n: int = 30) -> Path:
    path = folder / "players.csv"
    path.write_text(text or "Игрок;Клуб\n" + "\n".join(f"Игрок {i:02d};Клуб {i % 3}" for i in range(n)) + "\n",
                    encoding="utf-8")
    return path


def set_preset(book: Path, value: str) -> None:
    wb = openpyxl.load_workbook(book)
    for row in wb["Турнир"].iter_rows():
        if row[0].value == "Регламент":
            row[1].value = value
    wb.save(book)


def problems(book: Path) -> list[str]:
    ws = openpyxl.load_workbook(book)["Проверка"]
    return [str(r[3]) for r in ws.iter_rows(min_row=FIRST_ROW, values_only=True) if r[3]]


# -- an unknown preset ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("typed", ["FIIM 2023", "fiim2023", "FIIM-2O23"])
def test_init_with_an_unknown_preset_says_did_you_mean_and_creates_nothing(tmp_path, typed):
    csv = players_csv(tmp_path)
    out = run("init", tmp_path / "cup.xlsx", "--players", csv, "--preset", typed, "--language", "en")
    assert f"unknown preset '{typed}' — did you mean fiim-2023?" in out
    # every shipped scheme, the example ones of config/examples/ too
    assert ("known: club-evening, club-season, club-season-average, club-season-rating, fiim-2019, fiim-2023, gmo-2016, "
            "team-asymmetric") in out
    out = run("init", tmp_path / "cup.xlsx", "--players", csv, "--preset", typed)  # init's language: ru
    assert f"неизвестный регламент «{typed}» — может быть, fiim-2023?" in out
    assert not (tmp_path / "cup.xlsx").exists()


def test_sync_with_an_unknown_preset_exits_nonzero_publishes_nothing_and_says_so_on_the_problems_tab(example):
    out_dir = example.parent / "out"
    run("sync", example, "--out", out_dir, code=0)
    published = {p: p.read_bytes() for p in out_dir.rglob("*") if p.is_file()}
    before = {t: [[c.value for c in r] for r in openpyxl.load_workbook(example)[t].iter_rows()]
              for t in ("Итоги", "Отбор", "Статистика")}
    set_preset(example, "FIIM 2023")
    shutil.rmtree(out_dir)
    out = run("sync", example, "--out", out_dir)
    assert "неизвестный регламент «FIIM 2023» — может быть, fiim-2023?" in out  # the tournament's language, the preset as typed
    assert "Итоги не пересчитаны и не опубликованы" in out
    assert not out_dir.exists()  # no standings.json, site or VK post computed with another preset
    wb = openpyxl.load_workbook(example)
    assert {t: [[c.value for c in r] for r in wb[t].iter_rows()] for t in before} == before  # nothing recomputed
    (shown,) = problems(example)
    assert "может быть, fiim-2023?" in shown
    assert "did you mean fiim-2023?" in run("sync", example, "--language", "en")
    # fixed: everything is published again
    set_preset(example, "fiim-2023")
    run("sync", example, "--out", out_dir, code=0)
    assert json.loads((out_dir / "standings.json").read_text(encoding="utf-8"))["preset"]["id"] == "fiim-2023"
    assert set(published) and not any("егламент" in p for p in problems(example))


def test_draw_advance_and_export_refuse_an_unknown_preset_too(example):
    set_preset(example, "gmo2016")
    for command in (["draw"], ["advance"], ["export", "site"], ["export", "vk"]):
        out = run(*command, example, "--language", "en")
        assert "did you mean gmo-2016?" in out
    outputs = example.parent / "cup.sheets-sync"
    assert not (outputs / "site").exists() and not (outputs / "vk-post.txt").exists()


def test_init_with_a_preset_file_writes_a_reference_the_sync_resolves_and_a_missing_file_is_a_clear_error(
        tmp_path, monkeypatch):
    folder = tmp_path / "cup"
    folder.mkdir()
    preset = (Path(__file__).resolve().parent.parent / "config" / "fiim-2023.toml").read_text(encoding="utf-8")
    (folder / "My-Cup.toml").write_text(preset.replace('id = "fiim-2023"', 'id = "my-cup"'), encoding="utf-8")
    monkeypatch.chdir(folder)
    out = run("init", "cup.xlsx", "--players", players_csv(folder), "--preset", "My-Cup.toml", code=0)
    assert "«My-Cup.toml»" in out
    rows = {r[0].value: r[1].value for r in openpyxl.load_workbook(folder / "cup.xlsx")["Турнир"].iter_rows()}
    assert rows["Регламент"] == "My-Cup.toml"
    # the next sync, from anywhere, finds the file beside the workbook
    monkeypatch.chdir(tmp_path)
    run("sync", folder / "cup.xlsx", code=0)
    doc = json.loads((folder / "cup.sheets-sync" / "standings.json").read_text(encoding="utf-8"))
    assert doc["preset"]["id"] == "my-cup"
    # the file goes missing: a clear error, nothing published
    (folder / "My-Cup.toml").unlink()
    (folder / "cup.sheets-sync" / "standings.json").unlink()
    out = run("sync", folder / "cup.xlsx")
    assert "файл регламента My-Cup.toml не найден рядом с таблицей" in out and str(folder) in out
    out = run("sync", folder / "cup.xlsx", "--language", "en")
    assert "preset file My-Cup.toml not found beside the workbook" in out and "gmo-2016" in out
    assert not (folder / "cup.sheets-sync" / "standings.json").exists()


def test_watch_says_an_unknown_preset_once_and_keeps_watching(example):
    set_preset(example, "FIIM 2023")
    out = run("watch", example, "--interval", "0", "--cycles", "3", code=0)
    assert out.count("может быть, fiim-2023?") == 1
    assert not (example.parent / "cup.sheets-sync" / "standings.json").exists()


# -- a workbook open in Excel or LibreOffice ------------------------------------------------------------------------
@pytest.mark.parametrize("lock", ["~$cup.xlsx", ".~lock.cup.xlsx#"])
def test_sync_of_a_workbook_open_in_excel_writes_the_files_and_says_when_the_tabs_come(example, lock):
    (example.parent / lock).write_text("owner")
    before = example.read_bytes()
    out = run("sync", example, code=EXIT_WORKBOOK_LOCKED)
    outputs = example.parent / "cup.sheets-sync"
    assert (outputs / "standings.json").is_file() and (outputs / "site" / "index.html").is_file()
    assert (outputs / "vk-post.txt").is_file() and (outputs / "vk-post.png").is_file()
    assert example.read_bytes() == before
    assert f"cup.xlsx открыта в Excel или LibreOffice ({lock})" in out
    suggestion = f"sheets-sync sync {example} --output {example.parent / 'cup-results.xlsx'}"
    assert "вкладки таблицы будут записаны, когда файл закроют" in out and suggestion in out
    out = run("sync", example, "--language", "en", code=EXIT_WORKBOOK_LOCKED)
    assert "the workbook's tabs will be written when the file is closed" in out and suggestion in out
    # the suggestion works: the results go to a separate workbook
    out = run("sync", example, "--output", example.parent / "cup-results.xlsx", code=0)
    assert "Итоги" in openpyxl.load_workbook(example.parent / "cup-results.xlsx").sheetnames
    # closed: the next sync writes the tabs
    (example.parent / lock).unlink()
    run("sync", example, code=0)
    assert example.read_bytes() != before


def test_watch_keeps_retrying_the_workbook_write_while_it_is_open(example, monkeypatch):
    lock = example.parent / "~$cup.xlsx"
    lock.write_text("owner")
    wb = openpyxl.load_workbook(example)
    wb["Тур 1 Стол 1"]["I10"] = 0.3
    wb.save(example)
    polls = []

    def sleep(_seconds):
        polls.append(1)
        if len(polls) == 3:
            lock.unlink()  # Excel closed

    monkeypatch.setattr("sheets_sync.loop.watch.time.sleep", sleep)
    out = run("watch", example, "--interval", "0", "--cycles", "5", code=0)
    assert out.count("открыта в Excel или LibreOffice") == 1  # said once, retried quietly
    assert (example.parent / "cup.sheets-sync" / "standings.json").is_file()  # the files did not wait for Excel
    assert "снова всё в порядке" in out and "записано" in out


# -- no traceback for any user mistake ----------------------------------------------------------------------------
@pytest.mark.parametrize("command", [["sync"], ["watch", "--cycles", "2", "--interval", "0"], ["draw"],
                                     ["export", "site"]])
def test_a_folder_instead_of_a_workbook(tmp_path, command):
    out = run(*command, tmp_path)
    assert f": {tmp_path} is a folder, not a workbook file: give an .xlsx file (e.g. {tmp_path / 'cup.xlsx'})" in out
    assert not (tmp_path / LOG_NAME).exists()
    assert "это папка, а не файл таблицы" in run(*command, tmp_path, env=RU)


def test_init_into_a_folder(tmp_path):
    csv = players_csv(tmp_path)
    (tmp_path / "cup.xlsx").mkdir()
    assert "это папка, а не файл таблицы" in run("init", tmp_path / "cup.xlsx", "--players", csv, "--force")
    assert "sheets-sync works with .xlsx files" in run("init", tmp_path / "cup.xls", "--players", csv, "--language", "en")


@pytest.mark.parametrize("ref", ["gsheet:", "gsheet:abc", "gsheet:new-ish", "https://docs.google.com/spreadsheets/foo",
                                 "docs.google.com/document/d/x"])
def test_a_malformed_google_reference(ref):
    out = run("sync", ref)
    assert f"'{ref}' is not a Google spreadsheet" in out and "https://docs.google.com/spreadsheets/d/ID/edit" in out
    assert "gsheet:ID" in out
    assert "не ссылка на Google-таблицу" in run("sync", ref, "--language", "ru")


def test_a_missing_workbook_for_watch_ends_it_with_a_message(tmp_path):
    out = run("watch", tmp_path / "cup.xlsx", "--interval", "0", "--cycles", "3")
    assert out.count("no such workbook") == 1 and "sheets-sync init" in out
    assert "watching" not in out  # it never started
    # a real process, no --cycles: it ends by itself
    done = subprocess.run([sys.executable, "-m", "sheets_sync.cli", "watch", str(tmp_path / "cup.xlsx")],
                          capture_output=True, text=True, timeout=60, env={**os.environ, "LANG": "ru_RU.UTF-8"})
    assert done.returncode == EXIT_USER_ERROR and "такой таблицы нет" in done.stderr
    assert "Traceback" not in done.stdout + done.stderr


def test_a_players_csv_without_the_nickname_column(tmp_path):
    csv = players_csv(tmp_path, "Name;Club\nA;B\n")
    out = run("init", tmp_path / "cup.xlsx", "--players", csv, "--language", "en")
    assert "players.csv: no 'Игрок' / 'Player' column in the first row (Name, Club)" in out
    assert "Player,Club,City,Status,Excused round" in out
    out = run("init", tmp_path / "cup.xlsx", "--players", csv)
    assert "в первой строке нет столбца «Игрок» / «Player» (есть: Name, Club)" in out


def test_a_players_csv_with_repeated_nicknames_lists_them_all(tmp_path):
    csv = players_csv(tmp_path, "Игрок;Клуб\nАлхимик;А\nБарон;Б\nАлхимик;В\nВедьма;\nБарон;\nАлхимик;\n")
    out = run("init", tmp_path / "cup.xlsx", "--players", csv, "--language", "en")
    assert "nicknames listed more than once" in out
    assert "'Алхимик' (lines 2, 4, 7), 'Барон' (lines 3, 6)" in out
    out = run("init", tmp_path / "cup.xlsx", "--players", csv)
    assert "«Алхимик» (строки 2, 4, 7), «Барон» (строки 3, 6)" in out
    assert not (tmp_path / "cup.xlsx").exists()


def test_the_installed_console_script_answers_a_mistake_with_a_message_and_exit_2(tmp_path):
    script = Path(sys.executable).with_name("sheets-sync")
    if not script.exists():
        pytest.skip("the console script is not installed beside this Python")
    done = subprocess.run([str(script), "sync", str(tmp_path)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "LANG": "C.UTF-8"})
    assert done.returncode == EXIT_USER_ERROR
    assert "is a folder, not a workbook file" in done.stderr and "Traceback" not in done.stdout + done.stderr


# -- which language -----------------------------------------------------------------------------------------------
def test_messages_follow_language_option_then_tournament_then_system(example, tmp_path):
    # the tournament's (Russian) language...
    assert "засчитано игр: 38" in run("sync", example, code=0)
    # ... unless --language says otherwise
    assert "38 games counted" in run("sync", example, "--language", "en", code=0)
    # before any workbook is read: the system's
    assert "no such workbook" in run("sync", tmp_path / "nope.xlsx")
    assert "такой таблицы нет" in run("sync", tmp_path / "nope.xlsx", env=RU)


def test_system_language_rule():
    assert system_language({"LANG": "ru_RU.UTF-8"}) == "ru"
    assert system_language({"LANGUAGE": "en_GB:ru", "LANG": "ru_RU.UTF-8"}) == "en"
    assert system_language({"LC_ALL": "ru_UA.UTF-8", "LANG": "C"}) == "ru"
    assert system_language({"LANG": "C.UTF-8"}) == "en"
    assert system_language({}) in ("ru", "en")
