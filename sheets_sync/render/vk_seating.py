"""The VK post of a round's seating: plain text ready to paste and a picture, table by table.

Same rules as the standings post (:mod:`sheets_sync.render.vk`): VK's markup inside a
nickname is defused, seat numbers are aligned with figure spaces, the picture is drawn with
Pillow and a Cyrillic font, and the same seating gives the same bytes.
"""

from __future__ import annotations

from pathlib import Path

from sheets_sync.files import write_bytes_atomic, write_text_atomic
from sheets_sync.render.seating import Round
from sheets_sync.render.templates import slug
from sheets_sync.render.measure import fit_text, font
from sheets_sync.render.vk import (FIGURE_SPACE, _hashtags, block_height, header_layout, picture_header, png_bytes,
                                   text_block, vk_safe)
from sheets_sync.render.words import plain_text, ru_en, ui

__all__ = ["seating_text", "seating_image", "write_seating_post", "seating_post_names"]


def seating_text(rnd: Round, *, tournament: str, language: str) -> str:
    """«🪑 Рассадка: Отбор, тур 4», then every table with its ten seats."""
    lines = [f"🏆 {vk_safe(tournament)}", f"🪑 {ui('seating', language)}: {vk_safe(rnd.title)}", ""]
    for t in rnd.tables:
        lines.append(f"{ui('table', language)} {t.table}:")
        for i, name in enumerate(t.seats, start=1):
            lines.append(f"{FIGURE_SPACE if i < 10 else ''}{i}. {vk_safe(name) if name else '—'}")
        lines.append("")
    lines.append(ru_en("Удачной игры!", "Have a good game!", language))
    lines.append("")
    lines.append(_hashtags(tournament, language))
    return "\n".join(lines) + "\n"


def seating_image(rnd: Round, *, tournament: str, language: str, width: int = 1080) -> bytes:
    """A PNG: the tournament and the round on top, then a block per table (two columns of
    blocks when there are several tables), each with its ten seats; a long name takes smaller
    type down to a floor, then a second line (every seat's line as tall as the tallest needs)."""
    from PIL import Image, ImageDraw

    pad = 48
    cols = 1 if len(rnd.tables) == 1 else 2
    gap = 32
    block_w = (width - 2 * pad - gap * (cols - 1)) // cols
    f_table = font(34, True)
    f_seat = font(28 if cols == 2 else 36, True)
    size = 28 if cols == 2 else 36
    names = [[fit_text(plain_text(name) or "—", block_w - 100, size=size, floor=20) for name in t.seats]
             for t in rnd.tables]
    line_h = max([46 if cols == 2 else 58, *(block_height(n) + 6 for table in names for n in table)])
    block_h = 64 + 10 * line_h + 24
    header = header_layout(plain_text(tournament), f"{ui('seating', language)}: {plain_text(rnd.title)}", width=width,
                           pad=pad, title_size=44)
    rows = (len(rnd.tables) + cols - 1) // cols
    height = header.height + 24 + rows * (block_h + gap) + pad
    img = Image.new("RGB", (width, height), "#ffffff")
    d = ImageDraw.Draw(img)
    picture_header(d, header, width=width, pad=pad)
    for n, t in enumerate(rnd.tables):
        x = pad + (n % cols) * (block_w + gap)
        top = header.height + 24 + (n // cols) * (block_h + gap)
        d.rectangle((x, top, x + block_w, top + block_h), outline="#b9c1cb", width=2)
        d.rectangle((x, top, x + block_w, top + 56), fill="#eef1f5")
        d.text((x + 20, top + 28), f"{ui('table', language)} {t.table}", font=f_table, fill="#1b1f24", anchor="lm")
        for i, name in enumerate(names[n]):
            y = top + 64 + i * line_h
            if i % 2:
                d.rectangle((x + 2, y, x + block_w - 2, y + line_h), fill="#f6f7f9")
            d.text((x + 60, y + line_h // 2), str(i + 1), font=f_seat, fill="#8a1c1c", anchor="rm")
            text_block(d, name, x + 80, y + (line_h - block_height(name)) // 2, "#1b1f24")
    return png_bytes(img)


def seating_post_names(rnd: Round) -> tuple[str, str]:
    base = f"vk-seating-{slug(rnd.stage, limit=24)}-{rnd.round}"
    return base + ".txt", base + ".png"


def write_seating_post(rnd: Round, folder: Path, *, tournament: str, language: str) -> list[Path]:
    """``vk-seating-<stage>-<round>.txt`` and ``.png`` in ``folder``; the files written."""
    text_name, png_name = seating_post_names(rnd)
    out = []
    if write_text_atomic(folder / text_name, seating_text(rnd, tournament=tournament, language=language)):
        out.append(folder / text_name)
    if write_bytes_atomic(folder / png_name, seating_image(rnd, tournament=tournament, language=language)):
        out.append(folder / png_name)
    return out
