"""Text measured before it is laid out: the width a nickname needs on a page, and text fitted to a
picture's column without cutting it (issue 43 §8: «Гроссмейст/ер», «Полуфи…», «Чеширский К…»).

Widths come from the font the pictures are drawn with (DejaVu Sans, :func:`find_font`: this module
finds it for every picture);
on a page it is an upper bound — the phone's own sans-serif is narrower — so a column sized by it
always holds the word. Without any font the width is estimated from the number of letters.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from scoring.errors import SheetsSyncError

__all__ = ["FontNotFound", "find_font", "font", "word_em", "name_width_class", "Fitted", "fit_text", "wrap_words"]

# the season table's name column: at least this wide (em), at most the widest class of style.css
NAME_EM_MIN, NAME_EM_MAX = 7, 16
# the cell's padding on both sides, in the cell's em (style.css: .3rem–.35rem a side)
CELL_PADDING_EM = 0.8
# a letter's width in em where no font can be opened (DejaVu Sans' Cyrillic capitals are ~0.75)
FALLBACK_LETTER_EM = 0.75


class FontNotFound(SheetsSyncError, RuntimeError):
    pass


_FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "/usr/share/fonts/truetype", "/Library/Fonts",
              "C:/Windows/Fonts")
_CANDIDATES = {
    False: ("DejaVuSans.ttf", "NotoSans-Regular.ttf", "LiberationSans-Regular.ttf", "Arial.ttf", "arial.ttf"),
    True: ("DejaVuSans-Bold.ttf", "NotoSans-Bold.ttf", "LiberationSans-Bold.ttf", "Arial Bold.ttf", "arialbd.ttf"),
}


@lru_cache(maxsize=4)
def find_font(bold: bool = False) -> Path:
    """A TTF with Cyrillic glyphs among installed fonts (DejaVu Sans first)."""
    dirs = [Path(d) for d in _FONT_DIRS]
    try:  # matplotlib ships DejaVu Sans
        import matplotlib  # type: ignore[import-not-found]

        dirs.append(Path(matplotlib.__file__).parent / "mpl-data" / "fonts" / "ttf")
    except Exception:  # noqa: BLE001 - optional
        pass
    for name in _CANDIDATES[bold]:
        for d in dirs:
            direct = d / "truetype" / "dejavu" / name
            if direct.is_file():
                return direct
            if (d / name).is_file():
                return d / name
    for name in _CANDIDATES[bold]:
        for d in dirs:
            if d.is_dir():
                found = sorted(d.rglob(name))
                if found:
                    return found[0]
    if bold:
        return find_font(False)
    raise FontNotFound("no Cyrillic TTF font found: install DejaVu Sans (Debian: apt-get install fonts-dejavu-core)")


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> Any:
    """The pictures' font (:func:`find_font`) at ``size`` px."""
    from PIL import ImageFont

    return ImageFont.truetype(str(find_font(bold)), size)


@lru_cache(maxsize=4096)
def word_em(word: str, bold: bool = False) -> float:
    """The width of ``word`` in em of the site's text."""
    try:
        return font(100, bold).getlength(word) / 100
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
            cut = 1  # as many letters as fit, one at least
            while cut + 1 < len(current) and fits(current[:cut + 1]):
                cut += 1
            lines.append(current[:cut])
            current = current[cut:]
    if current:
        lines.append(current)
    return lines or [""]


def fit_text(text: str, width: int, *, size: int, floor: int, bold: bool = False) -> Fitted:
    """``text`` in one line at the largest type from ``size`` down to ``floor`` that fits ``width``;
    else in as many lines at ``floor`` as it needs (a picture grows, it never cuts)."""
    for s in range(size, floor - 1, -1):
        face = font(s, bold)
        if face.getlength(text) <= width:
            return Fitted((text,), s, face)
    face = font(floor, bold)
    return Fitted(tuple(wrap_words(text, lambda line: face.getlength(line) <= width)), floor, face)
