"""Printable protocol blanks: one A4 page per table of a round, laid out like the FIIM paper protocol.

The blank is the protocol tab on paper: the same header block, the same legend and the same
seat table (columns, words and proportions come from :mod:`sheets_sync.workbook.layout`), so what a
judge writes on paper goes into the tab field by field.  Tournament, stage, round, table and
the seated players (from the Seating tab) are filled in; everything the judge writes during
the game is left blank.  HTML with print CSS (landscape A4, like the tab's print settings); a
PDF is made with headless Chromium when one is installed (``--print-to-pdf``).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from scoring.errors import SheetsSyncError
from scoring import labels as L
from scoring.model import SeatingEntry, Tournament
from scoring.preset import Preset
from sheets_sync.workbook.layout import PROTOCOL_HEADER_KEYS, PROTOCOL_WIDTHS, protocol_columns, protocol_legend
from sheets_sync.render.templates import environment, slug
from sheets_sync.render.words import ui

__all__ = ["stage_for", "blanks_html", "blanks_filename", "find_chromium", "html_to_pdf", "judge_qr", "CHROMIUM_FLAGS", "BlankError"]

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
        raise BlankError(f"unknown stage {stage!r}; known: {', '.join(preset.stage_keys)}",
                         ru=f"неизвестный этап «{stage}»; есть: {', '.join(s.name('ru') for s in preset.stages)}")
    seated = [k for k in preset.stage_keys if any(e.stage == k and e.round == round_no for e in t.seating)]
    if not seated:
        raise BlankError(f"no seating for round {round_no} on the Seating tab",
                         ru=f"в туре {round_no} никто не рассажен (вкладка «Рассадка»)")
    return seated[-1]


def _entries(t: Tournament, stage: str, round_no: int) -> list[SeatingEntry]:
    return sorted((e for e in t.seating if e.stage == stage and e.round == round_no), key=lambda e: e.table)


def blanks_html(t: Tournament, preset: Preset, *, round_no: int, stage: str, language: str,
                links: Mapping[int, str] | None = None) -> str:
    """The round's blanks; ``links``: table → the address of its judge's link, printed as a QR code
    on that table's blank (the judge scans it instead of typing 43 characters)."""
    entries = _entries(t, stage, round_no)
    if not entries:
        rule = preset.stage(stage)
        raise BlankError(f"no seating for {rule.name('en') or rule.key}, round {round_no} (the Seating tab)",
                         ru=f"{rule.name('ru') or rule.key}, тур {round_no}: никто не рассажен (вкладка «Рассадка»)")
    columns = protocol_columns(preset)
    total = sum(PROTOCOL_WIDTHS[c] for c in columns)
    table = [{"key": c, "label": L.label(L.PROTOCOL_COLUMNS[c], language),
              "width": round(100 * PROTOCOL_WIDTHS[c] / total, 2)} for c in columns]
    stage_name = preset.stage(stage).name(language)
    games = []
    for e in entries:
        seats = [{"seat": i + 1, "player": (e.players[i] if i < len(e.players) and e.players[i] else "")} for i in range(10)]
        values = {"stage": stage_name, "round": round_no, "table": e.table}
        head = [{"key": k, "label": L.label(L.PROTOCOL_HEADER[k], language), "value": values.get(k, "")}
                for k in PROTOCOL_HEADER_KEYS]
        address = (links or {}).get(e.table)
        games.append({"table": e.table, "head": head, "seats": seats, "qr": judge_qr(address) if address else ""})
    first = stage == preset.stage_keys[0]
    return environment().get_template("protocols/blanks.html").render(
        lang=language, title=L.label(L.PROTOCOL_TITLE, language), tournament=t.name, date=t.date, stage=stage_name,
        round_word=ui("round", language) if first else ui("game", language), round=round_no, games=games,
        columns=table, legend=protocol_legend(language), winners=(L.word("red", language), L.word("black", language)))


def judge_qr(address: str) -> str:
    """The judge's link as a QR code (inline SVG), as the blank and the seating poster print it."""
    from sheets_sync.render.screen import qr_svg

    return qr_svg(address)


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
