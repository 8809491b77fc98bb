"""Sheet protection in an .xlsx (issue 25, part 2): the tabs the sync writes and its hidden
state tab are protected (no password unless ``--protect-password``), protocol tabs stay open,
and the sync itself still writes its tabs.  LibreOffice is the judge of it: it opens the
workbook, reports which tabs are protected, and refuses what a person types into them
(tests/lo_protection.py, through UNO); a picture of the message a typing judge meets is
tests/artifacts/excel-protected.png.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import time
import zipfile
from pathlib import Path

import openpyxl
import pytest

from sheets_sync.backends.base import STATE_TAB
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.example import EXAMPLE_PATH
from sheets_sync.loop.sync import sync_once

SYSTEM_PYTHON = "/usr/bin/python3"  # Debian's, with python3-uno
HARNESS = Path(__file__).with_name("lo_protection.py")
ARTIFACTS = Path(__file__).with_name("artifacts")
OWNED = ("Итоги", "Отбор", "Полуфинал", "Финал", "Статистика", "Проверка", "Журнал", "Жеребьёвка", STATE_TAB)
PROTOCOL = "Тур 1 Стол 1"


def _synced(tmp_path: Path, password: str | None = None) -> Path:
    path = tmp_path / "t.xlsx"
    shutil.copyfile(EXAMPLE_PATH, path)
    report = sync_once(ExcelBackend(path, protect_password=password), out_dir=None)
    assert report.written
    return path


def _protected(path: Path) -> dict[str, bool]:
    wb = openpyxl.load_workbook(path)
    return {ws.title: bool(ws.protection.sheet) for ws in wb.worksheets}


def test_owned_tabs_and_the_state_tab_are_protected_protocols_open(tmp_path):
    path = _synced(tmp_path)
    protected = _protected(path)
    assert all(protected[t] for t in OWNED if t in protected) and STATE_TAB in protected
    assert not [t for t, p in protected.items() if p and t not in OWNED]  # Турнир, Игроки, protocols: open


def test_the_sync_still_writes_its_protected_tabs(tmp_path):
    path = _synced(tmp_path)
    wb = openpyxl.load_workbook(path)
    wb[PROTOCOL]["I10"] = "0,4"  # a judge's extra point
    wb.save(path)
    backend = ExcelBackend(path)
    report = sync_once(backend, out_dir=None)
    assert report.written
    again = sync_once(backend, out_dir=None)
    assert not again.written  # nothing left to write, protection included
    assert all(_protected(path)[t] for t in ("Итоги", STATE_TAB))
    # the standings moved with the edit although the tab is protected
    assert report.patch.writes and any(w.title == "Итоги" for w in report.patch.writes)


def test_a_password_is_stored_hashed_never_in_clear(tmp_path):
    from click.testing import CliRunner

    from sheets_sync.cli import main

    players = tmp_path / "players.csv"
    players.write_text("Игрок;Клуб\n" + "\n".join(f"Игрок {i:02d};К{i % 4}" for i in range(1, 21)), encoding="utf-8")
    path = tmp_path / "cup.xlsx"
    result = CliRunner().invoke(main, ["init", str(path), "--players", str(players), "--protect-password", "Секрет-2016"])
    assert result.exit_code == 0, result.output
    assert "Секрет-2016" not in result.output
    assert _protected(path)["Итоги"] and _protected(path)[STATE_TAB] and not _protected(path)["Тур 1 Стол 1"]
    with zipfile.ZipFile(path) as z:
        parts = {n: z.read(n) for n in z.namelist() if n.startswith("xl/worksheets/")}
    assert not [n for n, b in parts.items() if "Секрет-2016".encode() in b]
    protections = [b for b in parts.values() if b"<sheetProtection" in b]
    assert protections and all(b'algorithmName="SHA-512"' in b and b"hashValue=" in b for b in protections)


# -- LibreOffice --------------------------------------------------------------------------------
def _has_uno() -> bool:
    return shutil.which("soffice") is not None and Path(SYSTEM_PYTHON).exists() and subprocess.run(
        [SYSTEM_PYTHON, "-c", "import uno"], capture_output=True).returncode == 0


HAS_UNO = _has_uno()


def _libreoffice(path: Path, password: str | None = None) -> dict:
    probes = {**{t: "B3" for t in OWNED}, PROTOCOL: "I10", "Турнир": "B1"}
    args = [SYSTEM_PYTHON, str(HARNESS), "check", str(path), json.dumps(probes)] + ([password] if password else [])
    done = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.libreoffice
@pytest.mark.skipif(not HAS_UNO, reason="LibreOffice with python3-uno is not installed")
@pytest.mark.parametrize("password", [None, "Секрет-2016"])
def test_libreoffice_keeps_a_typing_judge_out_of_the_protected_tabs(tmp_path, password):
    path = _synced(tmp_path, password)
    seen = _libreoffice(path, password)
    for title in OWNED:
        if title in seen:
            assert seen[title]["protected"] and not seen[title]["changed"], (title, seen[title])
            if password:
                assert seen[title]["wrong_password_refused"] and seen[title]["password_unprotects"], title
    assert not seen[PROTOCOL]["protected"] and seen[PROTOCOL]["changed"]
    assert not seen["Турнир"]["protected"]
    print("LibreOffice:", {t: v for t, v in seen.items() if t in OWNED or t == PROTOCOL})


def _xwd_to_png(raw: Path, png: Path) -> None:
    """An X window dump (24-bit TrueColor, 32 bits a pixel) as a PNG."""
    from PIL import Image

    data = raw.read_bytes()
    header = struct.unpack(">25I", data[:100])
    size, width, height, order, bpp, per_line, colours = (header[0], header[4], header[5], header[7], header[11],
                                                          header[12], header[19])
    assert bpp == 32, bpp
    start = size + colours * 12
    image = Image.frombuffer("RGBX", (width, height), data[start:start + per_line * height], "raw",
                             "BGRX" if order == 0 else "XRGB", per_line, 1)
    image.convert("RGB").save(png)


GUI_SOFFICE = os.environ.get("SHEETS_SYNC_SOFFICE")


@pytest.mark.libreoffice
@pytest.mark.skipif(not (GUI_SOFFICE and shutil.which("Xvfb") and shutil.which("xdotool") and shutil.which("xwd")
                         and HAS_UNO),
                    reason="needs a LibreOffice with a GUI ($SHEETS_SYNC_SOFFICE), Xvfb, xdotool and xwd")
def test_picture_of_the_refusal_a_judge_meets(tmp_path):
    path = _synced(tmp_path)
    display = ":%d" % (90 + os.getpid() % 50)
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "1100x700x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(2)
        raw = tmp_path / "screen.xwd"
        env = {**os.environ, "DISPLAY": display, "SAL_USE_VCLPLUGIN": "gen"}
        done = subprocess.run([SYSTEM_PYTHON, str(HARNESS), "show", str(path), "Итоги", str(raw)], env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        ARTIFACTS.mkdir(exist_ok=True)
        _xwd_to_png(raw, ARTIFACTS / "excel-protected.png")
    finally:
        xvfb.terminate()
        xvfb.wait()
