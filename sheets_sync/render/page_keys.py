"""What a rendered file depends on, as one hash: so that a sync after one edit renders only the
pages whose inputs changed.

A page of the site is a template and the values it is given (its *context*).  Their hash, salted
with the version of everything that turns them into text (the templates, this package's
rendering modules, Jinja2), is the page's key; the sync remembers each file's key beside its
content hash (:mod:`sheets_sync.sync_memory`), and a page whose key is the one of the file on
disk is not rendered again (:func:`sheets_sync.files.reuse_output`).

The hash must see everything the template can see, so it is strict about what it accepts:
text, numbers, dates, enums, lists, dicts, frozen dataclasses (every field) and
:class:`Words` (the ``ui`` helper of the templates).  Anything else — an object whose repr
might hide a field, a function that closes over state — makes the page *unkeyable*: it is
rendered every time, as before (slower, never wrong).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
from collections.abc import Callable, Mapping
from datetime import date, datetime, time
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

__all__ = ["Words", "page_key", "salt"]

_ATOMS = (str, int, float, Decimal, Fraction, bool, type(None))


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
    parts: list[str] = []
    try:
        _feed(parts, context)
    except _Unkeyable:
        return None
    h.update("\x1f".join(parts).encode("utf-8", "surrogatepass"))
    return h.hexdigest()[:32]


def _feed(out: list[str], value: object) -> None:
    """Append a canonical, type-tagged spelling of ``value`` (in the order a template iterates it)."""
    kind = type(value)
    if kind in _ATOMS or isinstance(value, str):  # Markup and other str subclasses: their text and type
        out.append(f"{kind.__name__}:{value!r}")  # repr: no separator of ours inside a value
    elif isinstance(value, (list, tuple)):
        out.append(f"{kind.__name__}[{len(value)}")
        for item in value:
            _feed(out, item)
    elif isinstance(value, Mapping):
        out.append(f"{kind.__name__}{{{len(value)}")
        for key, item in value.items():
            _feed(out, key)
            _feed(out, item)
    elif isinstance(value, (set, frozenset)):
        out.append(f"set{{{len(value)}")
        for item in sorted(value, key=repr):
            _feed(out, item)
    elif isinstance(value, enum.Enum):
        out.append(f"enum:{kind.__qualname__}.{value.name}")
    elif isinstance(value, (datetime, date, time)):
        out.append(f"{kind.__name__}:{value.isoformat()}")
    elif isinstance(value, Words):
        out.append(f"words:{value.language}:{value.lookup.__module__}.{value.lookup.__qualname__}")
    elif dataclasses.is_dataclass(value) and not isinstance(value, type) and kind.__dataclass_params__.frozen:
        fields = dataclasses.fields(value)
        out.append(f"dc:{kind.__module__}.{kind.__qualname__}[{len(fields)}")
        for f in fields:
            _feed(out, getattr(value, f.name))
    else:
        raise _Unkeyable(kind.__qualname__)
