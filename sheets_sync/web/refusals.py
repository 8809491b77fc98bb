"""What a page says of a refused action (a :class:`~scoring.errors.SheetsSyncError`): in the
reader's language and in the page's own words.

The actions' messages are the command line's (:mod:`sheets_sync.messages`): they name its flags
(``--force``, ``--date``, ``--out ПАПКА``) where a flag is the way out there. A page never shows a
flag (docs/decisions.md, 2026-12-05): it has a field to tick, or nothing to type at all (a full
disk is the server's, not the organizer's). So :func:`said`, in this order:

1. a message with a web twin (``refusal.<key>`` in :mod:`sheets_sync.web.wording.refusals`) is
   said by the twin, with the message's own values and the fields' words;
2. a message built without a key (the stage plan's refusals come from the pure core) has its
   flag phrase replaced by the field's words (:data:`FLAG_PHRASES`);
3. an error that brought no Russian words (a backend's English-only message) is said in Russian
   by its kind (``refusal.kind.<class>``), never in English on a Russian page.
"""

from __future__ import annotations

from scoring.errors import SheetsSyncError
from sheets_sync.messages import filled
from sheets_sync.web.words import WORDS, word

__all__ = ["said", "messages_of", "FLAG_PHRASES"]

# the command line's flag phrases in the stage plan's refusals (scoring.advance), and the page's words
FLAG_PHRASES: dict[str, tuple[tuple[str, str], ...]] = {
    "ru": (("; --force рассадит всё равно", "; отметьте «{force_advance}», чтобы рассадить всё равно"),),
    "en": (("; use --force to seat anyway", "; tick «{force_advance}» to seat anyway"),),
}


def _fields(lang: str) -> dict[str, str]:
    return {"force": word("organizer.field.force", lang), "force_advance": word("organizer.field.forceadvance", lang)}


def said(exc: SheetsSyncError, lang: str) -> str:
    """``exc`` as a page in ``lang`` says it: no flag, no English on a Russian page."""
    twin = f"refusal.{exc.key}" if exc.key else None
    if twin in WORDS:
        return word(twin, lang, **filled(exc.values, lang), **_fields(lang))
    if lang == "ru" and not exc.ru:
        kind = next(f"refusal.kind.{c.__name__}" for c in type(exc).__mro__ if f"refusal.kind.{c.__name__}" in WORDS)
        return word(kind, lang)
    message = exc.message(lang)
    for cli, page in FLAG_PHRASES.get(lang, ()):
        message = message.replace(cli, page.format(**_fields(lang)))
    return message


def messages_of(exc: SheetsSyncError) -> dict[str, str]:
    """``exc`` said in both languages (a job's result keeps both: its page speaks the reader's)."""
    return {lang: said(exc, lang) for lang in ("ru", "en")}
