"""Russian alphabetical order of names: the key every list sorted by name uses.

Code-point order puts «Ёжик» before «Барон» (Ё is U+0401, before А), «ЛИС» before «Лёва» and
«тихоня» after every capitalised name.  People expect the order of a Russian dictionary, which
is what ICU's collation for ``ru`` (CLDR root, no Russian tailoring) gives, level by level:

1. primary — the letters themselves, case and accents ignored: Е and Ё are one letter, «лис»
   and «ЛИС» the same word; spaces and punctuation before digits, digits before Latin letters,
   Latin before Cyrillic, other scripts after;
2. secondary — accents: «Елка» before «Ёлка» (а word without the diaeresis first);
3. tertiary — case: lower case before upper case («лис» before «Лис»);
4. the text itself, so that two different names never compare equal (the order is total and
   does not depend on the order of the input).

:func:`name_key` builds that key in pure Python; ``tests/test_collation.py`` checks it against
ICU itself where PyICU is installed.  Pure.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

__all__ = ["name_key"]

_LETTERS_OF_THEIR_OWN = frozenset("йЙ")
_SYMBOL, _DIGIT, _LATIN, _CYRILLIC, _OTHER = range(5)


def _script(base: str) -> int:
    if base.isdigit():
        return _DIGIT
    if not base.isalpha():
        return _SYMBOL
    name = unicodedata.name(base, "")
    if name.startswith("LATIN"):
        return _LATIN
    if name.startswith("CYRILLIC"):
        return _CYRILLIC
    return _OTHER


@lru_cache(maxsize=65536)
def name_key(name: str) -> tuple:
    """The sort key of ``name`` in Russian alphabetical order (see the module's levels)."""
    primary, secondary, tertiary = [], [], []
    for char in name:
        # й is a letter of its own (not и with a breve), as in ICU; ё is е with a diaeresis
        decomposed = char if char in _LETTERS_OF_THEIR_OWN else unicodedata.normalize("NFD", char)
        base = decomposed[0]
        marks = decomposed[1:]
        folded = base.casefold()
        primary.append((_script(folded[:1] or base), folded))
        secondary.append(marks)
        tertiary.append(0 if base == folded else 1)
    return tuple(primary), tuple(secondary), tuple(tertiary), name
