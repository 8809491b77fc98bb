"""Text measured before it is laid out: the width a nickname needs on a page, and text fitted to a
picture's column without cutting it (issue 43 §8: «Гроссмейст/ер», «Полуфи…», «Чеширский К…»).

Widths come from the font the pictures are drawn with (DejaVu Sans, :func:`render.vk.find_font`);
on a page it is an upper bound — the phone's own sans-serif is narrower — so a column sized by it
always holds the word. Without any font the width is estimated from the number of letters.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

__all__ = ["word_em", "name_width_class", "Fitted", "fit_text", "wrap_words"]

# the season table's name column: at least this wide (em), at most the widest class of style.css
NAME_EM_MIN, NAME_EM_MAX = 7, 16
# the cell's padding on both sides, in the cell's em (style.css: .3rem–.35rem a side)
CELL_PADDING_EM = 0.8
# a letter's width in em where no font can be opened (DejaVu Sans' Cyrillic capitals are ~0.75)
FALLBACK_LETTER_EM = 0.75


@lru_cache(maxsize=8)
def _font(size: int, bold: bool = False) -> Any:
    from PIL import ImageFont

    from sheets_sync.render.vk import find_font

    return ImageFont.truetype(str(find_font(bold)), size)


@lru_cache(maxsize=4096)
def word_em(word: str, bold: bool = False) -> float:
    """The width of ``word`` in em of the site's text."""
    try:
        return _font(100, bold).getlength(word) / 100
    except Exception:  # noqa: BLE001 - no font to measure with (FontNotFound, no Pillow): an estimate
        return len(word) * FALLBACK_LETTER_EM


def name_width_class(names: Iterable[str]) -> str:
    """The class of a table whose name column must hold the longest word of ``names`` on one line
    (style.css: ``name-w8`` … ``name-w16``; "" for the default 7 em; ``name-long`` past the widest, where
    a word longer than a phone's width may break after all)."""
    widest = max((word_em(w) for n in names for w in n.split()), default=0.0)
    em = math.ceil(widest + CELL_PADDING_EM)
    if em <= NAME_EM_MIN:
        return ""
    return f"name-w{em}" if em <= NAME_EM_MAX else f"name-w{NAME_EM_MAX} name-long"


@dataclass(frozen=True, slots=True)
class Fitted:
    """Text fitted to a width: its lines (never cut short) and the type size they are drawn in."""

    lines: tuple[str, ...]
    size: int
    font: Any


def wrap_words(text: str, fits) -> list[str]:
    """``text`` in lines between its words, each as long as ``fits(line)`` allows; a word that does not
    fit alone is broken where it must (the one case a word is split: nothing is ever left out)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if fits(candidate):
            current = candidate
            continue
        if current:
            lines.append(current)
        current = word
        while not fits(current) and len(current) > 1:
            cut = max(k for k in range(1, len(current)) if fits(current[:k]) or k == 1)
            lines.append(current[:cut])
            current = current[cut:]
    if current:
        lines.append(current)
    return lines or [""]


def fit_text(text: str, width: int, *, size: int, floor: int, bold: bool = False) -> Fitted:
    """``text`` in one line at the largest type from ``size`` down to ``floor`` that fits ``width``;
    else in as many lines at ``floor`` as it needs (a picture grows, it never cuts)."""
    for s in range(size, floor - 1, -1):
        font = _font(s, bold)
        if font.getlength(text) <= width:
            return Fitted((text,), s, font)
    font = _font(floor, bold)
    return Fitted(tuple(wrap_words(text, lambda line: font.getlength(line) <= width)), floor, font)
