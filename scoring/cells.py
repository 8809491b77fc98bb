"""A1 cell references: the way every problem names the cell a judge must look at."""

from __future__ import annotations

from functools import lru_cache

__all__ = ["column_letter", "a1", "parse_a1"]


@lru_cache(maxsize=1024)  # every cell of every protocol is named at each sync: a few dozen columns
def column_letter(index: int) -> str:
    """0-based column index -> letters (0 -> A, 25 -> Z, 26 -> AA)."""
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def a1(row: int, col: int) -> str:
    """0-based (row, col) -> A1 reference."""
    return f"{column_letter(col)}{row + 1}"


def parse_a1(ref: str) -> tuple[int, int]:
    """A1 reference -> 0-based (row, col)."""
    ref = ref.replace("$", "").strip().upper()
    i = 0
    col = 0
    while i < len(ref) and "A" <= ref[i] <= "Z":
        col = col * 26 + (ord(ref[i]) - 64)
        i += 1
    if i == 0 or i == len(ref) or not ref[i:].isdigit():
        raise ValueError(f"not an A1 cell reference: {ref!r}")
    return int(ref[i:]) - 1, col - 1
