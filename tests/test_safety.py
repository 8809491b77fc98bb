"""Nothing lost: atomic Excel writes checked by reading them back, lock files, backups, parts openpyxl
cannot keep, secrets."""

from __future__ import annotations

import io
import json
import logging
import os
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner
from rich.console import Console

from sheets_sync.backends.base import BackendError, Patch, TabWrite, WorkbookChanged, WorkbookLocked
from sheets_sync.backends.excel import (
    BACKUP_FOLDER,
    ExcelBackend,
    lock_files,
    workbook_lock,
)
from sheets_sync.cli import main
from sheets_sync.loop.sync import sync_once
from sheets_sync.loop.watch import run_watch

OWNED = ("Итоги", "Отбор", "Полуфинал", "Финал", "Статистика", "Проверка", "_sheets_sync", "Жеребьёвка", "Журнал")


def edit(path: Path, tab: str, cell: str, value) -> None:
    """A judge's save, atomic like Excel's (temp file + rename)."""
    wb = openpyxl.load_workbook(path)
    wb[tab][cell] = value
    tmp = path.with_name(path.name + ".judge")
    wb.save(tmp)
    os.replace(tmp, path)


def input_values(path: Path) -> dict:
    wb = openpyxl.load_workbook(path)
    return {ws.title: [[c.value for c in row] for row in ws.iter_rows()] for ws in wb.worksheets if ws.title not in OWNED}


# -- atomic write and the fingerprint re-check -------------------------------------------------
def test_save_between_read_and_write_is_never_overwritten(example):
    backend = ExcelBackend(example)
    snap = backend.read()
    edit(example, "Тур 1 Стол 1", "J10", "judge's comment")
    before = example.read_bytes()
    with pytest.raises(WorkbookChanged):
        backend.apply(Patch(writes=(TabWrite(title="Итоги", rows=(("x",),)),)), base=snap)
    assert example.read_bytes() == before
    report = sync_once(backend, out_dir=None)  # starts over from the new content
    assert report.written
    assert openpyxl.load_workbook(example)["Тур 1 Стол 1"]["J10"].value == "judge's comment"


def test_save_during_our_save_is_detected(example, monkeypatch):
    """A save that lands while we serialise (the slow part) is caught by the final check."""
    backend = ExcelBackend(example)
    snap = backend.read()
    real = ExcelBackend._backup

    def backup_then_judge_saves(self, data, mode):
        real(self, data, mode)
        edit(example, "Тур 2 Стол 1", "J11", "saved meanwhile")

    monkeypatch.setattr(ExcelBackend, "_backup", backup_then_judge_saves)
    with pytest.raises(WorkbookChanged):
        backend.apply(Patch(writes=(TabWrite(title="Итоги", rows=(("x",),)),)), base=snap)
    assert openpyxl.load_workbook(example)["Тур 2 Стол 1"]["J11"].value == "saved meanwhile"
    assert not [p for p in example.parent.iterdir() if ".sheets-sync-tmp" in p.name]


def test_cooperative_lock_holds_off_our_replace(example):
    backend = ExcelBackend(example, lock_timeout=0.2)
    snap = backend.read()
    before = example.read_bytes()
    with workbook_lock(example):
        with pytest.raises(WorkbookLocked, match="locked"):
            backend.apply(Patch(writes=(TabWrite(title="Итоги", rows=(("x",),)),)), base=snap)
    assert example.read_bytes() == before
    backend.apply(Patch(writes=(TabWrite(title="Новый", rows=(("x",),)),)), base=backend.read())
    assert "Новый" in openpyxl.load_workbook(example).sheetnames


def test_permissions_kept_and_stale_temps_removed(example):
    os.chmod(example, 0o640)
    dead = example.parent / f".{example.name}.999999999.abc.sheets-sync-tmp"
    dead.write_bytes(b"half a workbook")
    live = example.parent / f".{example.name}.{os.getpid()}.abc.sheets-sync-tmp"
    live.write_bytes(b"a save in progress")
    backend = ExcelBackend(example)
    backend.apply(Patch(writes=(TabWrite(title="Новый", rows=(("x",),)),)), base=backend.read())
    assert example.stat().st_mode & 0o777 == 0o640
    assert not dead.exists() and live.exists()
    (backup,) = backend.backups_list()
    assert backup.stat().st_mode & 0o777 == 0o640  # a backup is as private as the workbook


# -- lock files ----------------------------------------------------------------------------------
@pytest.mark.parametrize("lock", ["~$cup.xlsx", ".~lock.cup.xlsx#", "~$p.xlsx"])
def test_refuses_while_excel_or_libreoffice_holds_the_file(example, lock):
    (example.parent / lock).write_text("owner")
    assert lock_files(example)
    before = example.read_bytes()
    backend = ExcelBackend(example)
    with pytest.raises(WorkbookLocked, match="open in Excel or LibreOffice"):
        backend.apply(Patch(writes=(TabWrite(title="Итоги", rows=(("x",),)),)), base=backend.read())
    assert example.read_bytes() == before


def test_watch_says_locked_once_and_retries(example):
    lock = example.parent / "~$cup.xlsx"
    lock.write_text("owner")
    buf = io.StringIO()
    polls = []

    def sleep(_):
        polls.append(1)
        if len(polls) == 3:
            lock.unlink()  # Excel closed

    edit(example, "Тур 1 Стол 1", "I10", 0.3)  # something to write
    watcher = run_watch(ExcelBackend(example), out_dir=None, interval=0, cycles=5,
                        console=Console(file=buf, width=200), sleep=sleep)
    text = buf.getvalue()  # the example tournament is Russian: so are the watch's lines
    assert text.count("открыта в Excel или LibreOffice") == 1, text
    assert "снова всё в порядке" in text and "записано" in text
    assert watcher.failures == 3 and watcher.writes == 1


# -- backups -------------------------------------------------------------------------------------
def test_keeps_the_last_n_versions(example):
    backend = ExcelBackend(example, backups=3)
    versions = []
    for i in range(5):
        versions.append(example.read_bytes())
        snap = backend.read()
        backend.apply(Patch(writes=(TabWrite(title="Итоги", rows=((f"v{i}",),)),)), base=snap)
    kept = backend.backups_list()
    assert len(kept) == 3
    assert [p.read_bytes() for p in kept] == versions[-3:]  # newest last, byte for byte
    for p in kept:
        openpyxl.load_workbook(p)  # each one opens
    assert kept[0].parent == example.parent / BACKUP_FOLDER


def test_no_backups_when_zero(example):
    backend = ExcelBackend(example, backups=0)
    backend.apply(Patch(writes=(TabWrite(title="Итоги", rows=(("x",),)),)), base=backend.read())
    assert not (example.parent / BACKUP_FOLDER).exists()


def test_cli_backups_and_output_options(example, tmp_path):
    runner = CliRunner()
    result = runner.invoke(main, ["sync", str(example), "--backups", "1", "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    assert len(list((example.parent / BACKUP_FOLDER).iterdir())) == 1
    # a second run with a change keeps one, the newest
    edit(example, "Тур 1 Стол 1", "I10", 0.4)
    result = runner.invoke(main, ["sync", str(example), "--backups", "1", "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    assert len(list((example.parent / BACKUP_FOLDER).iterdir())) == 1
    out = tmp_path / "results.xlsx"
    result = runner.invoke(main, ["sync", str(example), "--output", str(out), "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    assert "Итоги" in openpyxl.load_workbook(out).sheetnames


# -- parts openpyxl cannot round-trip ------------------------------------------------------------
SHAPE_DRAWING = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">'
    '<xdr:twoCellAnchor><xdr:from><xdr:col>3</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>1</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from>'
    '<xdr:to><xdr:col>6</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>5</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to>'
    '<xdr:sp macro="" textlink=""><xdr:nvSpPr><xdr:cNvPr id="2" name="TextBox 1"/><xdr:cNvSpPr txBox="1"/></xdr:nvSpPr>'
    '<xdr:spPr><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></xdr:spPr>'
    '<xdr:txBody><a:bodyPr/><a:p><a:r><a:t>Организатор: не трогать!</a:t></a:r></a:p></xdr:txBody></xdr:sp>'
    '<xdr:clientData/></xdr:twoCellAnchor></xdr:wsDr>'
)
X14_EXT = (
    '<extLst><ext uri="{CCE6A557-97BC-4B89-ADB6-D9C93CAAB3DF}" '
    'xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">'
    '<x14:dataValidations count="1" xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">'
    '<x14:dataValidation type="list" allowBlank="1"><x14:formula1><xm:f>\'Игроки\'!$A$2:$A$60</xm:f></x14:formula1>'
    '<xm:sqref>B2</xm:sqref></x14:dataValidation></x14:dataValidations></ext></extLst>'
)


SHEET1 = "xl/worksheets/sheet1.xml"  # the Tournament tab in every workbook we build


def add_parts(src: Path, dst: Path, *, shape: bool, x14: bool) -> None:
    """Rewrite the zip: a text box on sheet 1 and/or an x14 data validation on sheet 2."""
    with zipfile.ZipFile(src) as zin:
        items = {n: zin.read(n) for n in zin.namelist()}
    if shape:
        sheet = items[SHEET1].decode()
        assert "<drawing" not in sheet
        sheet = sheet.replace("</worksheet>", '<drawing xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/'
                                              'relationships" r:id="rIdShape1"/></worksheet>')
        items[SHEET1] = sheet.encode()
        rels_name = "xl/worksheets/_rels/sheet1.xml.rels"
        rel = ('<Relationship Id="rIdShape1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
               'drawing" Target="../drawings/drawing9.xml"/>')
        if rels_name in items:
            items[rels_name] = items[rels_name].replace(b"</Relationships>", rel.encode() + b"</Relationships>")
        else:
            items[rels_name] = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns='
                                '"http://schemas.openxmlformats.org/package/2006/relationships">' + rel
                                + "</Relationships>").encode()
        items["xl/drawings/drawing9.xml"] = SHAPE_DRAWING.encode()
        items["[Content_Types].xml"] = items["[Content_Types].xml"].replace(
            b"</Types>", b'<Override PartName="/xl/drawings/drawing9.xml" '
                         b'ContentType="application/vnd.openxmlformats-officedocument.drawing+xml"/></Types>')
    if x14:
        name = "xl/worksheets/sheet2.xml"
        items[name] = items[name].replace(b"</worksheet>", X14_EXT.encode() + b"</worksheet>")
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for n, data in items.items():
            zout.writestr(n, data)


@pytest.mark.parametrize("shape,x14", [(True, False), (False, True), (True, True)])
def test_parts_openpyxl_drops_are_kept(example, tmp_path, shape, x14):
    """A text box and an Excel 2010+ dropdown list (which an openpyxl save loses) survive a sync
    byte for byte; tests/test_corpus.py does the same for every other kind of part."""
    book = tmp_path / "decorated.xlsx"
    add_parts(example, book, shape=shape, x14=x14)
    # the premise: a plain openpyxl load + save really loses them
    buf = io.BytesIO()
    with pytest.warns(UserWarning) if x14 else _nothing():
        openpyxl.load_workbook(book).save(buf)
    with zipfile.ZipFile(buf) as zf:
        everything = b"".join(zf.read(n) for n in zf.namelist())
    assert b"TextBox 1" not in everything and b"x14:dataValidation" not in everything
    with zipfile.ZipFile(book) as zf:
        before = {n: zf.read(n) for n in zf.namelist()}
    assert sync_once(ExcelBackend(book), out_dir=None).written
    with zipfile.ZipFile(book) as zf:
        after = {n: zf.read(n) for n in zf.namelist()}
    if shape:
        assert after["xl/drawings/drawing9.xml"] == before["xl/drawings/drawing9.xml"]
        assert b"rIdShape1" in after[SHEET1]
    if x14:
        assert b"x14:dataValidation" in after["xl/worksheets/sheet2.xml"]


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_a_written_workbook_that_reads_back_wrong_replaces_nothing(example, monkeypatch):
    """Part 4 of issue 24: a writer bug (here: a value changed behind the patch's back) is caught
    by the read-back before the rename, and the workbook stays as it was."""
    from sheets_sync.backends import excel_write

    real = excel_write.write_patch

    def buggy(data, patch, tabs, target, **kw):
        bad = Patch(writes=(*patch.writes, TabWrite(title="Турнир", rows=((None, "garbled"),), owned=False)))
        real(data, bad, tabs, target, **kw)

    backend = ExcelBackend(example)
    snap = backend.read()
    before = example.read_bytes()
    monkeypatch.setattr(excel_write, "write_patch", buggy)
    with pytest.raises(BackendError) as info:
        backend.apply(Patch(writes=(TabWrite(title="Итоги", rows=(("x",),)),)), base=snap)
    assert "Турнир" in str(info.value) and "nothing written" in str(info.value)
    assert example.read_bytes() == before
    assert not [p for p in example.parent.iterdir() if ".sheets-sync-tmp" in p.name]



def test_a_workbook_part_that_excel_could_not_open_replaces_nothing(example, monkeypatch):
    """The values read back right, but the workbook part says a tab's state twice (what hiding a
    tab that openpyxl saved with ``state="visible"`` once wrote): Excel and LibreOffice refuse such
    a part, so the read-back parses it and the workbook stays as it was."""
    import re

    from sheets_sync.backends import excel_write

    monkeypatch.setattr(excel_write, "_hide", lambda sheet: re.sub(rb"^(<(?:\w+:)?sheet\b)", rb'\1 state="hidden"',
                                                                    sheet.group(0).replace(b"<sheet ", b'<sheet state="visible" ', 1)))
    backend = ExcelBackend(example)
    snap = backend.read()
    before = example.read_bytes()
    with pytest.raises(BackendError) as info:
        backend.apply(Patch(writes=(TabWrite(title="_hidden_tab", rows=(("x",),), hidden=True),)), base=snap)
    assert "cannot be read back" in str(info.value) and "nothing written" in str(info.value)
    assert example.read_bytes() == before


def test_a_workbook_without_a_styles_part_is_refused_in_words_not_by_a_crash(example, tmp_path):
    """A package with no xl/styles.xml (valid, but never what Excel or LibreOffice write: some
    generators do) made excelize abort the whole process at its first style — watch would die.
    The sync refuses it naming the part and the fix, leaves the file as it was, and the process
    goes on (the same workbook with its styles part syncs right after)."""
    source = tmp_path / "source.xlsx"
    source.write_bytes(example.read_bytes())
    bare = tmp_path / "bare.xlsx"
    with zipfile.ZipFile(source) as z, zipfile.ZipFile(bare, "w", zipfile.ZIP_DEFLATED) as out:
        for info in z.infolist():
            if info.filename == "xl/styles.xml":
                continue
            data = z.read(info)
            if info.filename == "xl/_rels/workbook.xml.rels":
                data = re.sub(rb'<Relationship [^>]*relationships/styles"[^>]*/>', b"", data)
            if info.filename == "[Content_Types].xml":
                data = re.sub(rb'<Override PartName="/xl/styles.xml"[^>]*/>', b"", data)
            out.writestr(info, data)
    before = bare.read_bytes()
    with pytest.raises(BackendError) as info:
        sync_once(ExcelBackend(bare, backups=0), out_dir=None)
    assert "xl/styles.xml" in str(info.value) and "nothing written" in str(info.value)
    assert "LibreOffice" in info.value.message("ru")
    assert bare.read_bytes() == before and not [p for p in tmp_path.iterdir() if ".sheets-sync-tmp" in p.name]
    assert sync_once(ExcelBackend(source, backups=0), out_dir=None).written  # and the process is still here


# -- secrets -------------------------------------------------------------------------------------
def test_world_readable_key_warns_and_private_key_does_not(fake_server, sa_key, caplog):
    from sheets_sync.backends.google import GoogleBackend

    sid = fake_server.create_spreadsheet("T", tabs={"A": [["x"]]})
    caplog.set_level(logging.WARNING)
    os.chmod(sa_key, 0o600)
    quiet = GoogleBackend(sid, credentials=sa_key, endpoint=fake_server.url, backoff_base=0.001)
    quiet.read()
    assert not any("readable" in w for w in quiet.warnings) and "readable by every user" not in caplog.text
    os.chmod(sa_key, 0o644)
    loud = GoogleBackend(sid, credentials=sa_key, endpoint=fake_server.url, backoff_base=0.001)
    loud.read()
    assert any("readable by every user" in w and "chmod 600" in w for w in loud.warnings)
    assert "readable by every user" in caplog.text


def test_credentials_never_reach_output_workbook_or_logs(fake_server, sa_key, private_key_pem, tmp_path,
                                                          monkeypatch, caplog):
    from bench.generate import generate_patch
    from sheets_sync.backends.google import ENDPOINT_ENV

    from tests.test_injection import google_tabs

    os.chmod(sa_key, 0o644)  # the warning path too: it names the file, never its content
    sid = fake_server.create_spreadsheet("Кубок", tabs=google_tabs(generate_patch(players=20, rounds=2)))
    monkeypatch.setenv(ENDPOINT_ENV, fake_server.url)
    caplog.set_level(logging.DEBUG)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["sync", f"gsheet:{sid}", "--credentials", sa_key, "--out", str(out)])
    assert result.exit_code == 0, result.output
    key = json.loads(Path(sa_key).read_text())
    secrets = [line for line in private_key_pem.splitlines() if "PRIVATE KEY" not in line][:3]
    secrets += [key["private_key_id"], "ya29."]
    everything = [result.output, caplog.text]
    for tab in fake_server.tabs(sid):
        everything += [json.dumps(c.raw, ensure_ascii=False) for c in fake_server.cells(sid, tab).values()]
    everything += [p.read_text(errors="replace") for p in out.rglob("*") if p.is_file() and p.suffix != ".png"]
    blob = "\n".join(everything)
    assert "Итоги" in fake_server.tabs(sid)  # the sync did write
    for s in secrets:
        assert s not in blob
    assert sa_key not in "".join(
        json.dumps(c.raw, ensure_ascii=False) for t in fake_server.tabs(sid) for c in fake_server.cells(sid, t).values())

