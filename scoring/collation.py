"""Russian alphabetical order of names: the key every list sorted by name uses.

Code-point order puts «Ёжик» before «Барон» (Ё is U+0401, before А), «ЛИС» before «Лёва» and
«тихоня» after every capitalised name.  People expect the order of a Russian dictionary, which
is what ICU's collation for ``ru`` gives (CLDR root with Cyrillic moved before the other
scripts), level by level:

1. primary — the letters themselves, case and accents ignored: Е and Ё are one letter, «лис»
   and «ЛИС» the same word, Й a letter of its own after И; spaces first, then punctuation
   (in ICU's order: ``_ - , ; : ! ? . ' " ( ) …``), then digits (one by one: «Иван 10» before
   «Иван 2»), then Cyrillic, then Latin, then other scripts;
2. secondary — accents: «Елка» before «Ёлка» (a word without the diaeresis first);
3. tertiary — case: lower case before upper case («лис» before «Лис»);
4. the text itself, so that two different names never compare equal (the order is total and
   does not depend on the order of the input).

:func:`name_key` builds that key in pure Python; ``tests/test_collation.py`` checks it against
ICU itself (PyICU, ``icu.Collator.createInstance(icu.Locale("ru_RU"))``) on names of Russian
and ASCII Latin letters in either case, ё, spaces, punctuation and digits.  Outside that —
accented Latin letters, letters that fold to two (ß), other scripts, symbols that are not
punctuation, invisible characters — the key is a close approximation (such characters are
ordered by code point within their group), not ICU's exact order.  Pure.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

__all__ = ["name_key"]

_LETTERS_OF_THEIR_OWN = frozenset("йЙ")
# spaces and ASCII punctuation as ICU's root collation orders them (its variable characters;
# "ru" keeps them before digits and letters): taken from PyICU's sort of these characters
_PUNCTUATION = " _-–—,;:!?.…'\"«»()[]{}@*/\\&#%`^+<=>|~$№"
_RANK = {char: i for i, char in enumerate(_PUNCTUATION)}
_SYMBOL, _DIGIT, _CYRILLIC, _LATIN, _OTHER = range(5)  # "ru" reorders Cyrillic before Latin


def _primary(base: str) -> tuple[int, int | str]:
    """The group of a character (folded, accents removed) and its place within the group."""
    if base.isdigit():
        return _DIGIT, base
    if not base.isalpha():
        return _SYMBOL, _RANK.get(base, len(_RANK) + ord(base[:1] or " "))
    name = unicodedata.name(base[:1], "")
    if name.startswith("CYRILLIC"):
        return _CYRILLIC, base
    if name.startswith("LATIN"):
        return _LATIN, base
    return _OTHER, base


@lru_cache(maxsize=65536)
def name_key(name: str) -> tuple:
    """The sort key of ``name`` in Russian alphabetical order (see the module's levels)."""
    primary, secondary, tertiary = [], [], []
    for char in name:
        # й is a letter of its own (not и with a breve), as in ICU; ё is е with a diaeresis
        decomposed = char if char in _LETTERS_OF_THEIR_OWN else unicodedata.normalize("NFD", char)
        base = decomposed[0]
        marks = decomposed[1:]
        folded = base.casefold() or base
        primary.append(_primary(folded))
        secondary.append(marks)
        tertiary.append(0 if base == folded else 1)
    return tuple(primary), tuple(secondary), tuple(tertiary), name
