"""What a rendered file depends on, as one hash: so that a sync after one edit renders only the
pages whose inputs changed.

A page of the site is a template and the values it is given (its *context*).  Their hash, salted
with the version of everything that turns them into text (the templates, this package's
rendering modules, Jinja2), is the page's key; the sync remembers each file's key beside its
content hash (:mod:`sheets_sync.loop.sync_memory`), and a page whose key is the one of the file on
disk is not rendered again (:func:`sheets_sync.files.reuse_output`).

The hash must see everything the template can see, so it is strict about what it accepts:
text, numbers, dates, enums, lists, dicts, frozen dataclasses (every field) and
:class:`Words` (the ``ui`` helper of the templates).  Anything else — an object whose repr
might hide a field, a function that closes over state — makes the page *unkeyable*: it is
rendered every time, as before (slower, never wrong).  The spelling that is hashed is a pickle
(its C encoder walks the 2,000 contexts of a 1000-player site in 0.06 s, where a walk in Python
took 0.5 s), with every object that is not a plain container, text or number spelled or refused
by :class:`_Spelling`.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import io
import pickle
from collections.abc import Callable, Mapping
from datetime import date, datetime, time
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

__all__ = ["Words", "page_key", "salt"]


@dataclasses.dataclass(frozen=True, slots=True)
class Words:
    """``ui('key')`` in a template: the interface word ``key`` in ``language`` (a value the page key
    can see, where a lambda closing over the site could not be)."""

    language: str
    lookup: Callable[[str, str], str]

    def __call__(self, key: str) -> str:
        return self.lookup(key, self.language)


class _Unkeyable(Exception):
    pass


@functools.cache
def salt() -> str:
    """The version of the path from values to text: templates, rendering modules, Jinja2."""
    import jinja2

    from sheets_sync import __version__
    from sheets_sync.resources import shipped

    h = hashlib.sha256(f"{__version__}\x00{jinja2.__version__}\x00".encode())
    for folder, pattern in ((shipped("templates"), "**/*"), (Path(__file__).parent, "*.py")):
        for path in sorted(p for p in folder.glob(pattern) if p.is_file() and p.suffix != ".pyc"):
            h.update(path.relative_to(folder).as_posix().encode() + b"\x00" + path.read_bytes() + b"\x00")
    return h.hexdigest()


def page_key(template: str, context: Mapping[str, object]) -> str | None:
    """The key of the page ``template`` renders from ``context``; None when the context holds
    something the key cannot see completely (the page is then always rendered)."""
    h = hashlib.sha256(salt().encode() + b"\x00" + template.encode() + b"\x00")
    try:
        h.update(_spelling(context))
    except (_Unkeyable, pickle.PicklingError, RecursionError, ValueError):
        return None
    return h.hexdigest()[:32]


def _spelling(value: object) -> bytes:
    """A canonical, type-tagged spelling of ``value``: pickle's C encoder walks the dicts, lists,
    tuples, text and numbers (the bulk of a context) at C speed; every other object comes to
    :meth:`_Spelling.reducer_override`, which spells what it accepts and refuses the rest."""
    out = io.BytesIO()
    pickler = _Spelling(out, protocol=5)
    pickler.fast = True  # no memo: the same value spells the same whether or not it is shared
    pickler.dump(value)
    return out.getvalue()


def _spelled(*parts: object) -> None:
    """The marker of a value :class:`_Spelling` spelled itself (never called: a key is not unpickled)."""


class _Spelling(pickle.Pickler):
    """Plain containers, text, numbers, ``None`` and booleans are pickle's own (a dict in its
    order, a list apart from a tuple, ``True`` apart from ``1``).  The rest, as a template can
    see it: a Decimal, a Fraction or a str subclass (Markup) by type and text, a date by its ISO
    form, an enum member by name, :class:`Words` by language and lookup, a frozen dataclass by
    every field.  Anything else — an object whose repr might hide a field, a class, a function
    that closes over state — raises :class:`_Unkeyable`.  A set is pickle's own too, in the order
    of this process's hashes: a page showing a set of text may be rendered again by the next
    process (slower, never wrong); the site's contexts hold none."""

    def reducer_override(self, obj: object):
        kind = type(obj)
        if obj is _spelled:
            return NotImplemented  # the marker itself: pickled by name
        if kind in (Decimal, Fraction) or isinstance(obj, str):
            return _spelled, (kind.__name__, str(obj))
        if isinstance(obj, enum.Enum):
            return _spelled, ("enum", kind.__module__, kind.__qualname__, obj.name)
        if kind in (datetime, date, time):
            return _spelled, (kind.__name__, obj.isoformat())
        if kind is Words:
            return _spelled, ("words", obj.language, obj.lookup.__module__, obj.lookup.__qualname__)
        if dataclasses.is_dataclass(obj) and not isinstance(obj, type) and kind.__dataclass_params__.frozen:
            return _spelled, (f"dc:{kind.__module__}.{kind.__qualname__}",
                              *(getattr(obj, f.name) for f in dataclasses.fields(obj)))
        raise _Unkeyable(kind.__qualname__)
