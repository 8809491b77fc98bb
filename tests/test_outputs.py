"""Issue 34 §3, §7, §11: where a workbook's outputs go, and how a failure to write them leaves
the program — through the real command line, on real .xlsx files.

* two workbooks in one folder (a cup and a club season) each have their own output folder;
  the layout before that (everything beside the workbook) is moved once, with one line;
* a read-only output folder and a disk that fills while the site is written are messages
  saying what to fix, exit 2 — not «Это ошибка sheets-sync» and a crash log;
* a password-protected .xlsx says so; temporary files a killed sync left in the site are
  removed by the next sync (ours only);
* the Журнал's time is the local time the pages say; ``sync --strict`` exits 1 while errors remain.
"""

from __future__ import annotations

import errno
import io
import json
import os
import shutil
import time
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from sheets_sync.cli import main
from sheets_sync.cli.common import EXIT_ERRORS_LEFT, EXIT_USER_ERROR
from sheets_sync.crashlog import LOG_NAME
from sheets_sync.example import EXAMPLE_PATH
from tests.helpers import ROOT, table

CLUB_PRESET = ROOT / "config" / "examples" / "club-season.toml"


def run(*args: object, code: int = 0) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result.output


def outputs(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder``: path → bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def standings(folder: Path) -> dict:
    return json.loads((folder / "standings.json").read_text(encoding="utf-8"))


@pytest.fixture
def two_workbooks(tmp_path) -> tuple[Path, Path]:
    """A «Мафия» folder with a cup (the finished example) and a club season beside it."""
    cup = tmp_path / "cup.xlsx"
    shutil.copyfile(EXAMPLE_PATH, cup)
    players = tmp_path / "players.csv"
    players.write_text("Игрок;Клуб\n" + "".join(f"{n};\n" for n in "Анна Борис Вера Глеб Дина Егор Жанна Зоя Иван "
                                                  "Кира".split()), encoding="utf-8-sig")
    shutil.copyfile(CLUB_PRESET, tmp_path / CLUB_PRESET.name)
    club = tmp_path / "club.xlsx"
    run("init", club, "--season", "--players", players, "--preset", tmp_path / CLUB_PRESET.name, "--name",
        "Клубный сезон")
    return cup, club


@pytest.mark.slow  # two CLI syncs writing the example's whole site, then two more
def test_two_workbooks_in_one_folder_keep_their_own_outputs(two_workbooks):
    cup, club = two_workbooks
    folder = cup.parent
    run("sync", cup)
    run("sync", club)
    cup_out, club_out = folder / "cup.sheets-sync", folder / "club.sheets-sync"
    assert standings(cup_out)["tournament"]["name"] != standings(club_out)["tournament"]["name"]
    assert standings(cup_out)["games_counted"] == 38 and standings(club_out)["games_counted"] == 0
    assert "Клубный сезон" in (club_out / "site" / "index.html").read_text(encoding="utf-8")
    assert "Клубный сезон" not in (cup_out / "site" / "index.html").read_text(encoding="utf-8")
    for out in (cup_out, club_out):
        assert (out / "vk-post.txt").is_file() and (out / ".sheets-sync" / "last-sync.json").is_file()
    # nothing of either lands beside the workbooks, where the other one's would be
    assert not {"site", "standings.json", "vk-post.txt", "vk-post.png", "log.jsonl", ".sheets-sync"} & {
        p.name for p in folder.iterdir()}
    cup_files = outputs(cup_out)
    # a judge's edit in the cup: its own log.jsonl; the season's sync after it changes nothing of the cup's
    book = openpyxl.load_workbook(cup)
    book["Тур 2 Стол 3"]["I12"].value = "0,5"
    book.save(cup)
    run("sync", cup)
    run("sync", club)
    log = [json.loads(line) for line in (cup_out / "log.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(x["tab"], x["cell"], x["new"]) for x in log] == [("Тур 2 Стол 3", "I12", "0,5")]
    assert not (club_out / "log.jsonl").exists()
    assert standings(club_out)["tournament"]["name"] == "Клубный сезон"
    assert outputs(cup_out).keys() >= cup_files.keys() - {".sheets-sync/last-sync.json"}
    assert standings(cup_out)["games_counted"] == 38


@pytest.mark.slow
def test_the_old_layout_of_one_workbook_is_moved_once_and_another_workbook_leaves_it_alone(two_workbooks):
    cup, club = two_workbooks
    folder = cup.parent
    run("sync", cup, "--out", folder)  # what every sync did before: everything beside the workbook
    before = outputs(folder / "site")
    assert (folder / ".sheets-sync" / "last-sync.json").is_file()
    said = run("sync", club)  # the record there is the cup's: the season moves nothing of it
    assert "перенесены" not in said and (folder / "standings.json").is_file()
    assert standings(folder / "club.sheets-sync")["tournament"]["name"] == "Клубный сезон"
    said = run("sync", cup, "--language", "en")
    assert said.count("moved to") == 1 and "cup.sheets-sync" in said
    moved = folder / "cup.sheets-sync"
    assert outputs(moved / "site") == before and standings(moved)["games_counted"] == 38
    assert not {"site", "standings.json", "vk-post.txt", ".sheets-sync"} & {p.name for p in folder.iterdir()}
    assert "moved to" not in run("sync", cup, "--language", "en")  # once


def _no_crash(folder: Path, output: str) -> None:
    assert "Это ошибка sheets-sync" not in output and "внутренняя ошибка" not in output
    assert "bug in sheets-sync" not in output and not (folder / LOG_NAME).exists()


@pytest.mark.parametrize("code, words", [
    (errno.EACCES, ("нельзя писать", "разрешите запись", "--out")),
    (errno.EROFS, ("нельзя писать", "разрешите запись", "--out")),
    (errno.ENOSPC, ("закончилось место", "Освободите место")),
])
def test_an_output_folder_that_cannot_be_written_is_a_message_and_exit_2(example, monkeypatch, code, words):
    """Root writes into a read-only folder and no disk fills on cue: the OS's own error is raised
    where it would be — creating the site's files (a read-only folder: the first; a full disk: the
    41st, halfway through the site)."""
    import tempfile

    real, made = tempfile.mkstemp, []

    def mkstemp(*args, dir=None, **kw):
        if dir is not None and "site" in Path(dir).parts:
            made.append(dir)
            if code != errno.ENOSPC or len(made) > 40:
                raise OSError(code, os.strerror(code))
        return real(*args, dir=dir, **kw)

    monkeypatch.setattr("sheets_sync.files.tempfile.mkstemp", mkstemp)
    said = run("sync", example, code=EXIT_USER_ERROR)
    assert all(w in said for w in words), said
    _no_crash(example.parent, said)
    site = example.parent / "cup.sheets-sync" / "site"
    assert not [p for p in site.rglob(".*") if p.is_file()]  # no temporary file left behind


def test_a_disk_that_fills_while_a_page_is_written_leaves_no_half_file(example, monkeypatch):
    """ENOSPC from the write itself (the file created, its bytes not): exit 2, the temp removed."""
    real = os.fdopen
    pages = []

    class Full(io.RawIOBase):
        def __init__(self, fh):
            self.fh = fh

        def write(self, data):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def __exit__(self, *exc):
            self.fh.close()

    def fdopen(fd, *args, **kw):
        fh = real(fd, *args, **kw)
        name = os.readlink(f"/proc/self/fd/{fd}") if os.path.exists(f"/proc/self/fd/{fd}") else ""
        if "/site/" in name:
            pages.append(name)
            if len(pages) > 10:
                return Full(fh)
        return fh

    monkeypatch.setattr("sheets_sync.files.os.fdopen", fdopen)
    said = run("sync", example, "--language", "en", code=EXIT_USER_ERROR)
    assert "the disk is full" in said and "Free some space" in said, said
    _no_crash(example.parent, said)
    assert not [p for p in (example.parent / "cup.sheets-sync").rglob(".*") if p.is_file()
                and p.parent.name != ".sheets-sync"]


def test_a_workbook_folder_that_cannot_be_written_is_a_message_and_exit_2(example, monkeypatch):
    """The workbook's own save in a read-only folder (its temporary file beside it refused)."""
    import tempfile

    real = tempfile.mkstemp

    def mkstemp(*args, dir=None, **kw):
        if dir is not None and Path(dir) == example.parent:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
        return real(*args, dir=dir, **kw)

    monkeypatch.setattr("sheets_sync.backends.excel.tempfile.mkstemp", mkstemp)
    before = example.read_bytes()
    book = openpyxl.load_workbook(example)
    book["Тур 2 Стол 3"]["I12"].value = "0,5"  # something to write
    book.save(example)
    before = example.read_bytes()
    said = run("sync", example, code=EXIT_USER_ERROR)
    assert "нельзя писать" in said and "--output" in said, said
    _no_crash(example.parent, said)
    assert example.read_bytes() == before


def test_a_password_protected_workbook_says_so(tmp_path):
    import msoffcrypto
    from msoffcrypto.format.ooxml import OOXMLFile

    plain = io.BytesIO(EXAMPLE_PATH.read_bytes())
    locked = tmp_path / "cup.xlsx"
    with open(locked, "wb") as fh:
        OOXMLFile(plain).encrypt("секрет", fh)
    assert msoffcrypto.OfficeFile(open(locked, "rb")).is_encrypted()
    for command in (["sync"], ["draw"], ["export", "site"]):
        said = run(*command, locked, "--language", "ru", code=EXIT_USER_ERROR)
        assert "защищён паролем" in said and "Cannot detect" not in said, said
        _no_crash(tmp_path, said)
    said = run("sync", locked, "--language", "en", code=EXIT_USER_ERROR)
    assert "protected with a password" in said


def test_a_sync_removes_the_temporary_files_a_killed_sync_left_in_the_site_and_only_those(example):
    run("sync", example)
    site = example.parent / "cup.sheets-sync" / "site"
    dead = 2 ** 22 + 17  # no such process (pid_max is at most 2**22)
    left = [site / f".statistics.html.{dead}.k2j4m9zq.sheets-sync-part",  # ours, its process gone
            site / "players" / f".index.html.{dead}.ab_cd123.sheets-sync-part",
            site / ".statistics.html.x7f3k2qa"]  # ours, from before the mark: beside its page, old
    for path in left:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("half a page")
    old = time.time() - 3600
    os.utime(site / ".statistics.html.x7f3k2qa", (old, old))
    alive = site / f".index.html.{os.getppid()}.qwerty12.sheets-sync-part"  # a sync still writing
    theirs = [site / ".htaccess", site / "notes.txt.k2j4m9zq", site / ".my.notes.abcdefgh"]  # a person's
    for path in [alive, *theirs]:
        path.write_text("keep")
        os.utime(path, (old, old))
    run("sync", example)  # nothing changed in the workbook: the cleaning must not wait for a change
    assert not any(p.exists() for p in left)
    assert alive.exists() and all(p.exists() for p in theirs)


@pytest.fixture
def moscow(monkeypatch):
    """The computer's clock in Moscow (UTC+3), whatever zone the tests run in."""
    monkeypatch.setenv("TZ", "Europe/Moscow")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_the_log_time_is_the_local_time_the_pages_say(example, monkeypatch, moscow):
    monkeypatch.setenv("SHEETS_SYNC_NOW", "2026-12-01T14:05")
    out = example.parent / "out"
    run("sync", example, "--out", out)
    book = openpyxl.load_workbook(example)
    book["Тур 2 Стол 3"]["I12"].value = "0,5"
    book.save(example)
    run("sync", example, "--out", out)
    rows = table([tuple(c.value for c in row) for row in openpyxl.load_workbook(example)["Журнал"].iter_rows()])
    assert rows[1][:3] == ("2026-12-01 14:05:00 UTC+3", "Тур 2 Стол 3", "I12")
    assert "Обновлено: 01.12.2026 14:05" in (out / "vk-post.txt").read_text(encoding="utf-8")  # what the outputs say
    line = json.loads((out / "log.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert line["time"] == "2026-12-01 14:05:00 UTC+3"


def test_sync_strict_exits_1_while_errors_remain(example):
    out = example.parent / "out"
    assert run("sync", example, "--out", out, "--strict") is not None  # the example has no errors: 0
    book = openpyxl.load_workbook(example)
    book["Тур 2 Стол 3"]["D12"].value = "7"  # seven fouls: an error
    book.save(example)
    said = run("sync", example, "--out", out, "--strict", "--language", "en", code=EXIT_ERRORS_LEFT)
    assert "errors left" in said
    run("sync", example, "--out", out)  # without --strict: 0, as scripts and watch had it
    run("sync", example, "--out", out, "--strict", code=EXIT_ERRORS_LEFT)  # unchanged: the last counts


@pytest.mark.slow  # `make demo`: two syncs of the example and the seating exports
def test_make_demo_prints_the_paths_where_its_files_are(tmp_path, monkeypatch, capsys):
    from sheets_sync import demo

    monkeypatch.setattr("sys.argv", ["demo", "--out", str(tmp_path / "demo")])
    demo.main()
    printed = [word for line in capsys.readouterr().out.splitlines() for word in line.split()
               if word.startswith(str(tmp_path))]
    assert len(printed) >= 12 and all(Path(p).exists() for p in printed), printed
    assert str(tmp_path / "demo" / "gmo-2016-example.sheets-sync" / "site" / "index.html") in printed


def test_watch_serves_the_site_of_its_own_workbook(two_workbooks, monkeypatch):
    """`watch --serve` without --out serves the workbook's own site, not a folder another shares."""
    from sheets_sync.loop import serve

    cup, _club = two_workbooks
    served = []
    real = serve.serve_site

    def serve_site(folder, **kw):
        served.append(folder)
        return real(folder, **kw)

    monkeypatch.setattr(serve, "serve_site", serve_site)
    run("watch", cup, "--serve", "0", "--cycles", "1", "--interval", "0")
    assert served == [cup.parent / "cup.sheets-sync" / "site"]
    assert (served[0] / "screen.html").is_file()


def test_a_google_spreadsheets_old_outputs_move_to_its_own_folder_and_only_its_own(tmp_path, monkeypatch):
    """The old layout of a Google spreadsheet: ``sheets-sync-output/`` in the current folder,
    shared by every spreadsheet synced from there; the record says whose it is."""
    from sheets_sync.loop.sync_memory import move_old_outputs

    ours, theirs = "1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "9ZyXwVuTsRqPoNmLkJiHgFeDcBa9876543210"
    monkeypatch.chdir(tmp_path)
    old = tmp_path / "sheets-sync-output"
    (old / ".sheets-sync").mkdir(parents=True)
    (old / "site").mkdir()
    (old / "standings.json").write_text("{}")
    (old / "site" / "index.html").write_text("<p>")
    (old / "notes.txt").write_text("mine")  # a person's: not in the record, stays
    record = {"format": 1, "key": {"source": f"https://docs.google.com/spreadsheets/d/{ours}/edit"},
              "outputs": {"standings.json": ["x", 2], "site/index.html": ["y", 3]}, "summary": {}}
    (old / ".sheets-sync" / "last-sync.json").write_text(json.dumps(record))
    assert move_old_outputs(f"gsheet:{theirs}") is None and (old / "standings.json").exists()
    moved = move_old_outputs(f"https://docs.google.com/spreadsheets/d/{ours}/edit#gid=0")
    new = tmp_path / f"{ours}.sheets-sync"
    assert moved is not None and moved.folder == new and moved.files == 2
    assert outputs(new) == {".sheets-sync/last-sync.json": json.dumps(record).encode(), "site/index.html": b"<p>",
                            "standings.json": b"{}"}
    assert outputs(old) == {"notes.txt": b"mine"}
    assert move_old_outputs(f"gsheet:{ours}") is None  # once


@pytest.mark.libreoffice
@pytest.mark.slow
def test_the_log_after_init_and_draw_prints_on_one_page_with_the_judges_edit_only(tmp_path, monkeypatch, moscow):
    """Issue 34 §4 as the printer shows it: the Журнал of init, draw, sync and one judge's edit,
    printed by LibreOffice — one page (it was 16), one row; tests/artifacts/print-log-after-draw.png."""
    from tests import test_libreoffice as lo

    if lo.SOFFICE is None or None in (lo.PDFINFO, lo.PDFTOPPM, lo.PDFTOTEXT):
        pytest.skip("LibreOffice and poppler-utils are needed to print")
    csv_path = tmp_path / "players.csv"
    csv_path.write_text("Игрок\n" + "\n".join(f"Игрок {i:02d}" for i in range(1, 41)) + "\n", encoding="utf-8")
    book = tmp_path / "cup.xlsx"
    run("init", book, "--players", csv_path, "--name", "Кубок")
    run("draw", book, "--seed", "7")
    run("sync", book)
    wb = openpyxl.load_workbook(book)
    wb["Тур 1 Стол 1"]["D10"].value = "1"
    wb.save(book)
    monkeypatch.setenv("SHEETS_SYNC_NOW", "2026-12-01T14:05")  # the same picture every time
    run("sync", book)
    pdf = lo._print_tabs(book, ["Журнал"], tmp_path / "pdf", tmp_path / "profile")["Журнал"]
    assert len(lo._pages(pdf)) == 1
    printed = lo._text(pdf, 1)
    assert "Тур 1 Стол 1" in printed and "D10" in printed and "Рассадка" not in printed
    assert "2026-12-01 14:05:00 UTC+3" in printed
    lo._png(pdf, "print-log-after-draw.png")
