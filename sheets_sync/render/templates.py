"""HTML from Jinja2 templates (``templates/``), and the ASCII names of the generated files.

Shared by the site and the printable protocol blanks.  Everything a person typed reaches
the HTML through Jinja2's autoescaping only; file names never contain a raw nickname.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

from jinja2 import BytecodeCache, Environment, FileSystemBytecodeCache, FileSystemLoader, StrictUndefined

from sheets_sync.resources import shipped

__all__ = ["TEMPLATES", "environment", "slug"]

TEMPLATES = shipped("templates")  # templates/ in the checkout, inside the package when installed


class _Pages(Environment):
    """Jinja2's environment, with ``row.place`` on a dict found as the key first.

    Jinja2 looks for an attribute first and for the key only once that raised AttributeError; the
    pages' rows and cells are dicts, so each ``{{ r.total }}`` raised and caught an exception — a
    third of the time of rendering the site (0.69 s → 0.48 s for the 2,014 pages at 1000 players).
    No template calls a dict's own methods (``items``, ``get``…), which a key of that name would hide."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


@lru_cache(maxsize=1)
def environment() -> Environment:
    """The one Jinja2 environment: autoescaping, and an error for any undefined name.

    Compiled templates are kept in Jinja2's own bytecode cache (a private folder in the system's
    temporary directory, keyed by each template's source checksum, so an edited template is
    compiled again): compiling the site's templates is a tenth of a small tournament's sync."""
    env = _Pages(loader=FileSystemLoader(str(TEMPLATES)), autoescape=True, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                      bytecode_cache=_bytecode_cache())
    return env


def _bytecode_cache() -> BytecodeCache | None:
    try:
        return FileSystemBytecodeCache()
    except (OSError, RuntimeError):  # no private folder to be had: compile every time, as before
        return None


# -- names of generated files --------------------------------------------------------------------------------
_TRANSLIT = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh", "з": "z", "и": "i", "й": "i",
    "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t", "у": "u", "ф": "f",
    "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "yu", "я": "ya",
    "і": "i", "ї": "i", "є": "e", "ґ": "g", "ß": "ss",
}


@lru_cache(maxsize=8192)  # a site asks for the same few thousand names 26,000 times at 1000 players
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
