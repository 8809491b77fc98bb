"""Whatever goes wrong inside a command, a person never sees a traceback.

A bug (here forced by replacing a piece of the pipeline with one that raises) gives one line
that says what failed and what to do, exit code 70, and the traceback in
``sheets-sync-error.log`` beside the workbook.  A mistake a person can fix gives its message
and exit code 2, and no log.  ``watch`` survives a bug: it says it once, shows it on the
Problems tab, does not run the same failing input again, and recovers after the next edit.
"""

from __future__ import annotations


import openpyxl
import pytest
from click.testing import CliRunner

import sheets_sync.loop.outcome
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.cli import EXIT_INTERNAL_ERROR, EXIT_USER_ERROR, main
from sheets_sync.crashlog import LOG_NAME
from sheets_sync.loop.watch import Watcher
from tests.helpers import FIRST_ROW


class Boom(RuntimeError):
    pass


def _explode(*_args, **_kwargs):
    raise Boom("forced failure inside the pipeline")


@pytest.mark.parametrize("command, options, target", [
    ("sync", [], "sheets_sync.loop.outcome.compute_standings"),
    ("export site", [], "sheets_sync.loop.outcome.compute_standings"),
    ("advance", ["--stage", "semifinal"], "sheets_sync.actions.draw.draw_plan"),
    ("print-protocols", ["--round", "1", "--no-pdf"], "sheets_sync.actions.export.blanks_html"),
])
def test_an_internal_error_is_one_line_an_exit_code_and_a_log_file(example, monkeypatch, command, options, target):
    monkeypatch.setattr(target, _explode)
    result = CliRunner().invoke(main, [*command.split(), str(example), *options])
    assert result.exit_code == EXIT_INTERNAL_ERROR
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1, result.output
    line = lines[0]
    log = example.parent / LOG_NAME
    # the example tournament is Russian: so is the line (tests/test_cli_messages.py: --language en)
    assert "внутренняя ошибка" in line and "Boom: forced failure inside the pipeline" in line
    assert "Повторите команду" in line and str(log) in line
    assert "Traceback" not in result.output
    text = log.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in text and "Boom: forced failure inside the pipeline" in text
    assert f"command: sheets-sync {command}" in text
    assert f"workbook: {example}" in text


def test_a_mistake_a_person_can_fix_is_a_message_and_exit_2_without_a_log(tmp_path):
    result = CliRunner().invoke(main, ["sync", str(tmp_path / "missing.xlsx")])
    assert result.exit_code == EXIT_USER_ERROR
    assert "missing.xlsx" in result.output and "Traceback" not in result.output
    assert not (tmp_path / LOG_NAME).exists()


def _problems(path) -> list[str]:
    ws = openpyxl.load_workbook(path)["Проверка"]
    return [str(row[3].value) for row in ws.iter_rows(min_row=FIRST_ROW) if row[3].value]


def _type(path, tab: str, cell: str, value) -> None:
    wb = openpyxl.load_workbook(path)
    wb[tab][cell] = value
    wb.save(path)


def test_watch_survives_a_bug_says_it_once_and_recovers_after_an_edit(example, monkeypatch):
    real = sheets_sync.loop.outcome.compute_standings
    calls = []

    def failing(*_args, **_kw):
        calls.append(1)
        raise Boom("forced failure inside the pipeline")

    monkeypatch.setattr(sheets_sync.loop.outcome, "compute_standings", failing)
    said: list[str] = []
    watcher = Watcher(ExcelBackend(example), out_dir=None, say=said.append, workbook=str(example))
    for _ in range(3):
        assert watcher.poll() is None  # never raises
    assert len(calls) == 1, "the same failing input is not computed again and again"
    assert sum("внутренняя ошибка" in s for s in said) == 1  # the tournament's language
    problems = _problems(example)
    assert len(problems) == 1 and problems[0].startswith("Внутренняя ошибка sheets-sync: Boom")
    log = (example.parent / LOG_NAME).read_text(encoding="utf-8")
    assert log.count("Traceback (most recent call last)") == 1

    # the bug is fixed (here: the real pipeline is back) and a judge edits a protocol: all is well again
    monkeypatch.setattr(sheets_sync.loop.outcome, "compute_standings", real)
    _type(example, "Тур 1 Стол 1", "K10", "комментарий")
    report = watcher.poll()
    assert report is not None and report.written
    assert any("снова всё в порядке" in s for s in said)
    assert not any(p.startswith("Внутренняя ошибка") for p in _problems(example))


def test_watch_command_keeps_running_through_a_bug(example, monkeypatch):
    monkeypatch.setattr("sheets_sync.loop.outcome.compute_standings", _explode)
    result = CliRunner().invoke(main, ["watch", str(example), "--interval", "0", "--cycles", "3"])
    assert result.exit_code == 0, result.output
    assert result.output.count("внутренняя ошибка") == 1 and "Traceback" not in result.output
