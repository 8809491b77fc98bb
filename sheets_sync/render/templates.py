"""HTML from Jinja2 templates (``templates/``), and the ASCII names of the generated files.

Shared by the site and the printable protocol blanks.  Everything a person typed reaches
the HTML through Jinja2's autoescaping only; file names never contain a raw nickname.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from sheets_sync.resources import shipped

__all__ = ["TEMPLATES", "environment", "slug"]

TEMPLATES = shipped("templates")  # templates/ in the checkout, inside the package when installed


@lru_cache(maxsize=1)
def environment() -> Environment:
    """The one Jinja2 environment: autoescaping, and an error for any undefined name."""
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=True, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    return env


# -- names of generated files --------------------------------------------------------------------------------
_TRANSLIT = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh", "з": "z", "и": "i", "й": "i",
    "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t", "у": "u", "ф": "f",
    "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "yu", "я": "ya",
    "і": "i", "ї": "i", "є": "e", "ґ": "g", "ß": "ss",
}


def slug(text: str, *, limit: int = 32) -> str:
    """ASCII letters, digits and single dashes only: `Алхимик` → `alkhimik`; never empty."""
    out = []
    for ch in str(text).lower():
        if ch in _TRANSLIT:
            out.append(_TRANSLIT[ch])
            continue
        decomposed = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode("ascii")
        out.append(decomposed if decomposed else "-")
    text = re.sub(r"[^a-z0-9]+", "-", "".join(out)).strip("-")
    return text[:limit].strip("-") or "x"
