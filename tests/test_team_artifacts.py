"""What the team cup looks like on paper and on a phone (issue 36 §4): Итоги with its team and
classification tables printed by LibreOffice, the site's team page in Chromium at 390 px and
printed to A4.  The pictures are kept in tests/artifacts/teams/ (committed: looked at by people)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.test_browser import CHROMIUM, _run
from tests.test_libreoffice import PDFTOPPM, SOFFICE, _pages, _print_tabs, _text, needs_poppler
from tests.test_team_cup import initialised_cup, play_cup

TEAM_ARTIFACTS = Path(__file__).parent / "artifacts" / "teams"

pytestmark = [pytest.mark.browser]


@pytest.fixture(scope="module")
def cup() -> tuple[Path, Path]:
    """The played team cup: (its workbook, its output folder)."""
    root = Path(tempfile.mkdtemp(prefix="team-cup-"))
    desk, _ = initialised_cup(root, CliRunner())
    play_cup(desk, CliRunner(), root / "out")
    yield Path(desk.ref), root / "out"
    shutil.rmtree(root, ignore_errors=True)


def _png(pdf: Path, name: str, page: int = 1) -> Path:
    TEAM_ARTIFACTS.mkdir(parents=True, exist_ok=True)
    target = TEAM_ARTIFACTS / name
    subprocess.run([PDFTOPPM, "-png", "-r", "80", "-f", str(page), "-l", str(page), "-singlefile", str(pdf),
                    str(target.with_suffix(""))], check=True, capture_output=True)
    assert target.stat().st_size > 5_000
    return target


@needs_poppler
@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice not installed")
def test_standings_print_with_the_team_and_classification_tables(cup, tmp_path):
    book, _ = cup
    pdfs = _print_tabs(book, ["Итоги", "Команды"], tmp_path / "pdf", tmp_path / "profile")
    pages = len(_pages(pdfs["Итоги"]))
    printed = "".join(_text(pdfs["Итоги"], page) for page in range(1, pages + 1))
    assert "Командный зачёт" in printed and "Зачёт: женский" in printed
    assert "Команды" in _text(pdfs["Команды"], 1)
    for page in range(1, pages + 1):
        _png(pdfs["Итоги"], f"standings-a4-p{page}.png", page=page)
    _png(pdfs["Команды"], "teams-tab-a4.png")


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="headless Chromium not installed")
def test_team_page_on_a_phone_and_on_a4(cup, tmp_path):
    _, out = cup
    page = (out / "site" / "teams.html").as_uri()
    TEAM_ARTIFACTS.mkdir(parents=True, exist_ok=True)
    phone = TEAM_ARTIFACTS / "teams-phone-390.png"
    phone.unlink(missing_ok=True)
    _run(["--screenshot=" + str(phone), "--window-size=390,1600", page])
    assert phone.exists() and phone.stat().st_size > 5_000
    pdf = tmp_path / "teams.pdf"
    _run(["--no-pdf-header-footer", "--print-to-pdf=" + str(pdf), page])
    assert pdf.exists()
    if PDFTOPPM:
        _png(pdf, "teams-a4.png")
