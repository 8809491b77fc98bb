"""LibreOffice as a real second client: it opens what we write, and we read what it saves."""

import json
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest

from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.sync import sync_once

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
pytestmark = [pytest.mark.libreoffice,
              pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed (make test installs libreoffice-calc-nogui)")]


def _resave(path: Path, out: Path, profile: Path) -> Path:
    """Open `path` in headless LibreOffice and save it again as .xlsx into `out`."""
    out.mkdir(exist_ok=True)
    subprocess.run([SOFFICE, f"-env:UserInstallation=file://{profile}", "--headless", "--norestore",
                    "--convert-to", "xlsx:Calc MS Excel 2007 XML", "--outdir", str(out), str(path)],
                   check=True, capture_output=True, timeout=180)
    return out / path.name


def test_libreoffice_round_trip_keeps_results_and_marks(example, tmp_path):
    book = example
    # one broken cell so that there is a mark to carry through LibreOffice
    wb = openpyxl.load_workbook(book)
    wb["Тур 2 Стол 3"]["D14"] = 7  # 7 fouls
    wb.save(book)
    first = sync_once(ExcelBackend(book), out_dir=tmp_path / "a")
    saved = _resave(book, tmp_path / "lo", tmp_path / "profile")

    # LibreOffice could open our file: every protocol value and the owned tabs are there
    ours, theirs = openpyxl.load_workbook(book), openpyxl.load_workbook(saved)
    assert ours.sheetnames == theirs.sheetnames
    for title in ("Игроки", "Рассадка", "Тур 2 Стол 3", "Финал 4", "Итоги"):
        mine = [[c.value for c in row] for row in ours[title].iter_rows()]
        lo = [[c.value for c in row] for row in theirs[title].iter_rows()]
        assert _norm(lo) == _norm(mine), title
    mark = theirs["Тур 2 Стол 3"]["D14"]
    assert mark.comment is not None and "7" in mark.comment.text
    assert mark.fill.fgColor.rgb.endswith("F4B6B6")

    # and we read what LibreOffice saved: the same standings, no new problems
    second = sync_once(ExcelBackend(saved), out_dir=tmp_path / "b")
    a = json.loads((tmp_path / "a" / "standings.json").read_text(encoding="utf-8"))
    b = json.loads((tmp_path / "b" / "standings.json").read_text(encoding="utf-8"))
    assert a["standings"] == b["standings"]
    assert [(p["sheet"], p["cell"], p["rule"]) for p in a["problems"]] == [(p["sheet"], p["cell"], p["rule"]) for p in b["problems"]]
    assert first.errors == second.errors == 1


def _norm(grid):
    """LibreOffice writes whole numbers as floats and trims trailing empty cells/rows."""
    out = []
    for row in grid:
        row = [int(v) if isinstance(v, float) and v.is_integer() else v for v in row]
        while row and row[-1] in (None, ""):
            row.pop()
        out.append(row)
    while out and not out[-1]:
        out.pop()
    return out
