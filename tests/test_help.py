"""One language (issue 34 §9): every command's ``--help`` in Russian on a Russian system (or with
``--language ru``), English otherwise; ``make demo`` ends in Russian.

The walk goes through the real click group, so a command or option added later without its
Russian text (sheets_sync/cli/localized.py) fails here by name.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from sheets_sync.cli import main
from sheets_sync.cli.localized import COMMANDS, russian_option_help
from tests.helpers import ROOT


def _commands(group: click.Group = main, path: tuple[str, ...] = ()):
    yield path, group
    for name, command in getattr(group, "commands", {}).items():
        if not command.hidden:
            yield from _commands(command, (*path, name))


ALL = [path for path, _ in _commands()]

# what may stay Latin in Russian help: names of programs and formats, files, options, placeholders
_ALLOWED = re.compile(
    r"--?[a-z][\w-]*(=\S+)?"  # options
    r"|`?sheets-sync(\s+[a-z-]+)?`?"  # the program and a command to type
    r"|\$[A-Z_]+"  # environment variables
    r"|[\w./<>-]*\.(xlsx|toml|json|txt|png|html|csv|md)\b"  # files
    r"|[\w-]+/"  # folders
    r"|gsheet:\S+|\[ru\|en\]|x>=\d+|\d+<=x<=\d+|screen\.html"
    r"|\b(Excel|LibreOffice|Google|Chromium|JSON|CSV|HTML|PDF|MWT|ВК|ID|A4|Ctrl-C|gmo-2016|fiim-2019|fiim-2023"
    r"|ru|en|N|K|H)\b")


def english_sentences(text: str) -> list[str]:
    """Runs of two or more Latin words, once names, files and options are taken out."""
    rest = _ALLOWED.sub(" ", text)
    return re.findall(r"[A-Za-z][A-Za-z']+(?:[\s,:;()-]+[A-Za-z][A-Za-z']+)+", rest)


def _help(args: list[str], lang: str) -> str:
    result = CliRunner().invoke(main, [*args, "--help"], env={"LANG": lang, "LC_ALL": None, "LANGUAGE": None},
                                terminal_width=100)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("path", ALL, ids=lambda p: " ".join(p) or "sheets-sync")
def test_help_is_russian_on_a_russian_system(path):
    shown = _help(list(path), "ru_RU.UTF-8")
    assert english_sentences(shown) == [], shown
    assert shown.startswith("Использование: sheets-sync"), shown
    assert "Параметры:" in shown and "Показать эту справку и выйти." in shown
    assert re.search("[а-яё]{4,}", shown.split("\n\n")[1]), shown  # the command's own description


@pytest.mark.parametrize("path", ALL, ids=lambda p: " ".join(p) or "sheets-sync")
def test_help_is_english_on_an_english_system(path):
    shown = _help(list(path), "C.UTF-8")
    assert shown.startswith("Usage: sheets-sync") and "Options:" in shown, shown
    assert "Использование" not in shown and "Параметры" not in shown


def test_every_command_and_option_has_its_russian_text():
    missing = []
    for path, command in _commands():
        key = " ".join(path)
        if key not in COMMANDS:
            missing.append(key or "sheets-sync")
        ctx = click.Context(command, info_name=key.split(" ")[-1] if key else "sheets-sync")
        for param in command.get_params(ctx):
            if isinstance(param, click.Option) and not param.hidden and russian_option_help(key, param, ctx) is None:
                missing.append(f"{key} {max(param.opts, key=len)}")
    assert missing == []


@pytest.mark.parametrize("args, russian", [
    (["sync", "--language", "ru", "--help"], True),  # typed before --help
    (["sync", "--help", "--language", "ru"], True),  # or after it
    (["watch", "--language=ru", "--help"], True),
    (["sync", "--language", "en", "--help"], False),
])
def test_language_typed_with_help_decides(args, russian):
    result = CliRunner().invoke(main, args, env={"LANG": "C.UTF-8" if russian else "ru_RU.UTF-8"})
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Использование:" if russian else "Usage:"), result.output
    if russian:
        assert english_sentences(result.output) == [], result.output


def test_the_group_lists_its_commands_in_russian():
    shown = _help([], "ru_RU.UTF-8")
    commands = shown.split("Команды:")[1]
    for name in main.commands:
        line = next(ln for ln in commands.splitlines() if ln.split()[:1] == [name])
        assert re.search("[А-Яа-яё]{3,}", line), line


def test_english_sentences_finds_english():
    """The detector itself: it catches a sentence and leaves names, files and options alone."""
    assert english_sentences("Show this message and exit.") == ["Show this message and exit"]
    assert english_sentences("Папка для vk-post.txt и standings.json, --out DIR, в Excel или LibreOffice") == []


@pytest.mark.slow
def test_make_demo_ends_in_russian(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}
    done = subprocess.run([sys.executable, "-m", "sheets_sync.demo", "--out", str(tmp_path / "demo")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = [ln for ln in done.stdout.splitlines() if ln.strip()]
    words = [ln for ln in lines if not ln.strip().startswith(str(tmp_path))]  # not the list of files
    assert words[-1].startswith("В середине турнира"), words[-1]
    assert any(ln.startswith("Итоги: ") for ln in words), words
    for line in words:
        assert english_sentences(line.replace("German Mafia Open", "")) == [], line


# -- click's own usage errors speak the same language (a missing WORKBOOK, an unknown option, a bad value) --
def _error(args: list[str], lang: str):
    result = CliRunner().invoke(main, args, env={"LANG": lang, "LC_ALL": None, "LANGUAGE": None}, terminal_width=100)
    assert result.exit_code == 2, result.output  # a usage error stays exit 2
    return result.output


@pytest.mark.parametrize("args, english, russian", [
    (["sync"], "Error: Missing argument 'WORKBOOK'.", "Ошибка: Не указан аргумент 'ТАБЛИЦА'."),
    (["sync", "a.xlsx", "b.xlsx"], "Got unexpected extra argument (b.xlsx)", "Лишний аргумент: b.xlsx"),
    (["sync", "a.xlsx", "--bogus"], "No such option '--bogus'", "Нет такого параметра '--bogus'"),
    (["--bogus"], "No such option '--bogus'", "Нет такого параметра '--bogus'"),
    (["bogus"], "No such command 'bogus'.", "Нет такой команды 'bogus'."),
    (["sync", "a.xlsx", "--backups", "-1"], "Invalid value for '--backups': -1 is not in the range x>=0.",
     "Неверное значение '--backups': -1 — вне диапазона x>=0."),
    (["draw", "a.xlsx", "--seed", "1.5"], "'1.5' is not a valid integer.", "'1.5' — не целое число."),
    (["watch", "a.xlsx", "--interval", "abc"], "'abc' is not a valid float.", "'abc' — не число."),
    (["sync", "a.xlsx", "--language", "de"], "'de' is not one of 'ru', 'en'.", "'de' — не одно из: 'ru', 'en'."),
    (["init", "a.xlsx", "--players", "absent.csv"], "File 'absent.csv' does not exist.",
     "Нет такого файла: 'absent.csv'."),
    (["export", "vk", "a.xlsx", "--seating"], "Option '--seating' requires an argument.",
     "Параметру '--seating' нужно значение."),
    (["evening", "a.xlsx", "--games", "2"], "Missing option '--date'.", "Не указан параметр '--date'."),
    # the evening's own check of --date, in both languages
    (["evening", "a.xlsx", "--date", "5.12", "--games", "2"],
     "Invalid value for '--date': '5.12' is not a date: write it as YYYY-MM-DD, e.g. 2026-12-05",
     "Неверное значение '--date': «5.12» — не дата: напишите ГГГГ-ММ-ДД, например 2026-12-05"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_click_usage_errors_speak_the_systems_language(args, english, russian, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # absent.csv is absent
    shown = _error(args, "ru_RU.UTF-8")
    assert russian in shown, shown
    assert "Error" not in shown and "Usage" not in shown and "Try " not in shown
    assert english_sentences(shown.replace("x>=0", "")) == [], shown
    if "Использование:" in shown:  # the usage line and the hint, in Russian too
        assert "[ПАРАМЕТРЫ]" in shown and "Справка: sheets-sync" in shown and "--help" in shown
    shown = _error(args, "C.UTF-8")
    assert english in shown and "Error: " in shown, shown
    assert not re.search("[А-Яа-яЁё]", shown), shown


@pytest.mark.parametrize("lang, typed, word", [("C.UTF-8", "ru", "Ошибка: Не указан аргумент 'ТАБЛИЦА'."),
                                                ("ru_RU.UTF-8", "en", "Error: Missing argument 'WORKBOOK'.")])
def test_language_typed_decides_the_language_of_a_usage_error(lang, typed, word):
    shown = _error(["sync", "--language", typed], lang)
    assert word in shown, shown
