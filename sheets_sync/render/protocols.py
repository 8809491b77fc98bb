"""Printable protocol blanks: one A4 page per table of a round, laid out like the FIIM paper protocol.

Tournament, stage, round, table and the seated players (from the Seating tab) are filled
in; everything the judge writes during the game is left blank.  HTML with print CSS; a PDF
is made with headless Chromium when one is installed (``--print-to-pdf``).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from scoring.errors import SheetsSyncError
from scoring import labels as L
from scoring.model import SeatingEntry, Tournament
from scoring.preset import Preset
from sheets_sync.render.templates import environment, slug
from sheets_sync.render.words import ru_en, ui

__all__ = ["stage_for", "blanks_html", "blanks_filename", "find_chromium", "html_to_pdf", "CHROMIUM_FLAGS", "BlankError"]

CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync")


class BlankError(SheetsSyncError, ValueError):
    pass


def stage_for(t: Tournament, preset: Preset, round_no: int, stage: str | None) -> str:
    """The stage key: given by key or name (either language); by default the latest stage seated for the round."""
    if stage:
        wanted = L.norm(stage)
        for s in preset.stages:
            if wanted in (L.norm(s.key), L.norm(s.name_ru), L.norm(s.name_en)):
                return s.key
        raise BlankError(f"unknown stage {stage!r}; known: {', '.join(preset.stage_keys)}")
    seated = [k for k in preset.stage_keys if any(e.stage == k and e.round == round_no for e in t.seating)]
    if not seated:
        raise BlankError(f"no seating for round {round_no} on the Seating tab")
    return seated[-1]


def _entries(t: Tournament, stage: str, round_no: int) -> list[SeatingEntry]:
    return sorted((e for e in t.seating if e.stage == stage and e.round == round_no), key=lambda e: e.table)


def blanks_html(t: Tournament, preset: Preset, *, round_no: int, stage: str, language: str) -> str:
    entries = _entries(t, stage, round_no)
    if not entries:
        raise BlankError(f"no seating for stage {stage}, round {round_no}")
    games = []
    for e in entries:
        seats = [{"seat": i + 1, "player": (e.players[i] if i < len(e.players) and e.players[i] else "")} for i in range(10)]
        games.append({"table": e.table, "seats": seats})
    words = {k: ui(k, language) for k in ("protocol", "stage", "table", "judge", "checked_by", "player", "role", "fouls",
                                          "killed_night", "voted_day", "removal", "extra", "comment", "best_move",
                                          "winner", "red", "black")}
    words.update({
        "nominated": ru_en("Выставлены (день)", "Nominated (day)", language),
        "voted_out": ru_en("Заголосован (день)", "Voted out (day)", language),
        "shot": ru_en("Отстрел (ночь)", "Shot (night)", language),
        "don_check": ru_en("Проверка дона", "Don's check", language),
        "sheriff_check": ru_en("Проверка шерифа", "Sheriff's check", language),
        "team_defeat": ru_en("ППК", "Team defeat", language),
        "legend": ru_en("Роль: пусто — мирный, ш — шериф, м — мафия, д — дон. Фолы: отметьте клетку за каждый; 4-й — удаление. "
                        "Убит ночью / заголосован днём: номер ночи / дня. ЛХ: три номера мест, пишет убитый в первую ночь.",
                        "Role: empty civilian, s sheriff, m mafia, d don. Fouls: tick a box for each; the 4th removes the player. "
                        "Shot / voted out: the number of the night / day. Best move: three seats, named by the player shot first.",
                        language),
    })
    first = stage == preset.stage_keys[0]
    round_word = ui("round", language) if first else ui("game", language)
    return environment().get_template("protocols/blanks.html").render(
        lang=language, t=words, tournament=t.name, date=t.date, stage=preset.stage(stage).name(language),
        round_word=round_word, round=round_no, games=games)


def blanks_filename(stage: str, round_no: int) -> str:
    return f"protocols-{slug(stage, limit=24)}-{round_no}.html"


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


def html_to_pdf(html_path: Path, pdf_path: Path, *, chromium: str | None = None, timeout: float = 60,
                extra_flags: Sequence[str] = ()) -> bool:
    """Print ``html_path`` to ``pdf_path`` with headless Chromium; False if none is installed or it failed."""
    exe = chromium or find_chromium()
    if exe is None:
        return False
    with tempfile.TemporaryDirectory(prefix="sheets-sync-chromium-") as profile:
        cmd = [exe, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--no-pdf-header-footer",
               f"--print-to-pdf={pdf_path}", *extra_flags, html_path.resolve().as_uri()]
        try:
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return False
    return pdf_path.exists() and pdf_path.stat().st_size > 0
