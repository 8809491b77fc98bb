"""Nothing the organizer added is lost (issue 24, part 3).

Each workbook of tests/corpus/ holds parts openpyxl drops or mangles (see tests/corpus/README.md).
The tournament's tabs are added to it the way ``init`` adds them, it is synced, a judge types an
unreadable value into a protocol (saved with excelize, as a spreadsheet program saves: the whole
file replaced at once — openpyxl cannot be the judge, it would drop the very parts under test),
and it is synced again.  Then:

* every member of the package the organizer made is byte-identical to the corpus file, except
  the package's shared bookkeeping (``MAY_CHANGE`` says why each may);
* between the judge's save and the second sync, nothing changed but the owned tabs, the marked
  protocol tab and that bookkeeping;
* openpyxl reads the owned tabs' values the reader reads, and sees our mark; LibreOffice reads the
  same values and converts the workbook to PDF without complaint.

``SHEETS_SYNC_MORE_CORPUS=<folder>`` adds the .xlsx/.xlsm files of a folder (e.g. Excel-made test
files of public repositories, which are not committed here) to the same test.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import excelize
import openpyxl
import pytest

from bench.generate import generate_patch
from scoring import labels as L
from sheets_sync.backends.base import MARK_COLOURS, NOTE_AUTHOR
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.backends.excel_read import read_values, worksheet_parts
from sheets_sync.loop.outcome import owned_tab_titles
from sheets_sync.loop.sync import sync_once

CORPUS = Path(__file__).resolve().parent / "corpus"
_MORE = os.environ.get("SHEETS_SYNC_MORE_CORPUS")
FILES = sorted([*CORPUS.glob("*.xlsx"), *CORPUS.glob("*.xlsm"),
                *([p for p in Path(_MORE).iterdir() if p.suffix in (".xlsx", ".xlsm")] if _MORE else [])])

# what a sync may rewrite outside the tabs it owns and marks, and why
MAY_CHANGE = {
    "[Content_Types].xml": "lists the parts of the new tabs and notes",
    "_rels/.rels": "excelize writes the package's relationships again (same targets)",
    "xl/_rels/workbook.xml.rels": "relationships of the new tabs and of the shared strings",
    "xl/workbook.xml": "the new tabs, their print titles and areas (defined names)",
    "xl/styles.xml": "the styles of the owned tabs and of the marks",
    "xl/sharedStrings.xml": "the text of the owned tabs",
    "xl/theme/theme1.xml": "excelize writes the theme again (same theme)",
    "docProps/app.xml": "lists the tabs' titles",
    "xl/calcChain.xml": "Excel's order of recalculation, dropped by excelize when cells change (Excel rebuilds it)",
}


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


def sheet_parts(path: Path, titles) -> set[str]:
    """The zip members of the tabs ``titles``: the worksheet, its relationships and the notes it links."""
    with zipfile.ZipFile(path) as z:
        parts = worksheet_parts(z)
        out = set()
        for title in titles:
            part = parts.get(title)
            if part is None:
                continue
            rels = f"{os.path.dirname(part)}/_rels/{os.path.basename(part)}.rels"
            out |= {part, rels}
            if rels in z.namelist():
                for target in re.findall(rb'Target="([^"]+)"', z.read(rels)):
                    t = target.decode()
                    out.add(t.lstrip("/") if t.startswith("/") else os.path.normpath(os.path.join("xl/worksheets", t)))
    return out


def judge_types(path: Path, tab: str, cell: str, text: str) -> None:
    """A judge's save with excelize: the whole file written anew and moved over the workbook."""
    book = excelize.open_file(str(path))
    try:
        book.set_cell_str(tab, cell, text)
        tmp = path.with_name("judge-" + path.name)
        book.save_as(str(tmp))
    finally:
        book.close()
    os.replace(tmp, path)


def extra_points_cell(grid) -> str:
    from scoring.cells import a1

    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            if isinstance(value, str) and value.strip().lower() == "доп. баллы":
                return a1(r + 1, c)
    raise AssertionError("no extra points column")


@pytest.fixture(params=FILES, ids=lambda p: p.name)
def synced(request, tmp_path):
    """(corpus file's members, the workbook after init/sync/edit/sync, its members before the second
    sync, the protocol tab marked, its cell, the corpus file)."""
    path = tmp_path / ("cup" + request.param.suffix)
    shutil.copyfile(request.param, path)
    original = members(path)
    ExcelBackend(path, backups=0).apply(generate_patch(players=10, rounds=1), base=None)
    assert sync_once(ExcelBackend(path, backups=0), out_dir=None).written
    order, tabs = read_values(path.read_bytes())
    protocol = next(t for t in order if t.startswith("Тур 1"))
    cell = extra_points_cell(tabs[protocol])
    judge_types(path, protocol, cell, "много")
    edited = members(path)
    report = sync_once(ExcelBackend(path, backups=0), out_dir=None)
    assert report.written and report.errors >= 1
    return original, path, edited, protocol, cell, request.param


def test_the_organizers_parts_are_byte_identical(synced):
    original, path, _, _, _, _ = synced
    after = members(path)
    lost = sorted(set(original) - set(after) - set(MAY_CHANGE))
    assert not lost
    changed = sorted(n for n in original if n in after and n not in MAY_CHANGE and after[n] != original[n])
    assert not changed


def test_a_sync_after_an_edit_touches_only_owned_and_marked_tabs(synced):
    _, path, edited, protocol, _, _ = synced
    after = members(path)
    snapshot = ExcelBackend(path).read()
    owned = {t for t in snapshot.order if L.norm(t) in owned_tab_titles(snapshot)}
    allowed = sheet_parts(path, owned | {protocol}) | set(MAY_CHANGE)
    changed = sorted(n for n in set(edited) | set(after) if edited.get(n) != after.get(n) and n not in allowed)
    assert not changed


def test_openpyxl_reads_the_values_and_the_mark(synced):
    _, path, _, protocol, cell, source = synced
    try:
        openpyxl.load_workbook(source)
    except Exception as exc:  # noqa: BLE001 - openpyxl's own limits (an Excel-made pivot cache)
        pytest.skip(f"openpyxl cannot read the corpus file itself: {exc!r}")
    order, tabs = read_values(path.read_bytes())
    wb = openpyxl.load_workbook(path)
    standings = L.tab("standings", "ru")
    rows = [[c.value for c in row] for row in wb[standings].iter_rows()]
    from sheets_sync.backends.excel_read import trimmed

    assert trimmed(rows) == tabs[standings] and len(tabs[standings]) > 10
    marked = wb[protocol][cell]
    assert marked.value == "много" and marked.fill.fgColor.rgb[-6:] == MARK_COLOURS["error"]
    assert marked.comment is not None and marked.comment.author == NOTE_AUTHOR


@pytest.mark.libreoffice
def test_libreoffice_reads_the_values_and_prints_the_workbook(synced, tmp_path):
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice is not installed")
    _, path, _, _, _, _ = synced
    out = tmp_path / "lo"
    for target in ("pdf", "xlsx:Calc MS Excel 2007 XML"):
        done = subprocess.run(["soffice", f"-env:UserInstallation=file://{tmp_path}/profile", "--headless",
                               "--convert-to", target, "--outdir", str(out), str(path)],
                              capture_output=True, text=True, timeout=240)
        assert done.returncode == 0 and "Error" not in done.stderr, done.stderr
    assert (out / (path.stem + ".pdf")).stat().st_size > 1000
    _, ours = read_values(path.read_bytes())
    _, theirs = read_values((out / (path.stem + ".xlsx")).read_bytes())
    standings = L.tab("standings", "ru")
    assert theirs[standings] == ours[standings]
