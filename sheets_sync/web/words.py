"""The web pages' words in Russian and English, and which of the two a request gets.

Like the command line (:mod:`sheets_sync.messages`), the pages take their words from a dictionary
key → (ru, en), not from gettext (no compiled catalogues to build). Each part of the app keeps its
words in a dictionary of its own module, joined here; a template reads ``w.key`` (the context
processor :func:`web_words` gives ``w`` and ``lang``).

Which language: the one the person chose (``?lang=en`` once, kept in the session), else the
browser's ``Accept-Language`` when it prefers English, else Russian.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.http import HttpRequest

from sheets_sync.web.wording import access, accounts, forms, keeping, organizer, public, refusals

__all__ = ["WORDS", "word", "request_language", "web_words", "LANGUAGES"]

LANGUAGES = ("ru", "en")

# key -> (ru, en)
_COMMON: dict[str, tuple[str, str]] = {
    "app.name": ("sheets-sync", "sheets-sync"),
    "lang.switch": ("English", "Русский"),
}


def _joined(*parts: dict[str, tuple[str, str]]) -> dict[str, tuple[str, str]]:
    joined: dict[str, tuple[str, str]] = {}
    for part in parts:
        twice = joined.keys() & part.keys()
        if twice:  # two parts naming the same key: one of them would silently lose its words
            raise ValueError(f"web words defined twice: {sorted(twice)}")
        joined.update(part)
    return joined


WORDS: dict[str, tuple[str, str]] = _joined(_COMMON, accounts.WORDS, organizer.WORDS, public.WORDS, keeping.WORDS,
                                            access.WORDS, refusals.WORDS, forms.WORDS)


def word(key: str, lang: str, **values: object) -> str:
    ru, en = WORDS[key]
    text = en if lang == "en" else ru
    return text.format(**values) if values else text


def request_language(request: HttpRequest) -> str:
    chosen = request.GET.get("lang")
    session = getattr(request, "session", None)
    if chosen in LANGUAGES:
        if session is not None:
            session["lang"] = chosen
        return chosen
    if session is not None and session.get("lang") in LANGUAGES:
        return session["lang"]
    accepted = request.META.get("HTTP_ACCEPT_LANGUAGE", "").lower()
    return "en" if accepted.startswith("en") else "ru"


class _Words(Mapping):
    """``w.key`` in a template: the word in the request's language (dots in keys become ``_``)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __getitem__(self, key: str) -> str:
        real = key if key in WORDS else key.replace("_", ".")
        if real not in WORDS:
            raise KeyError(key)
        return word(real, self.lang)

    def __iter__(self):
        return iter(WORDS)

    def __len__(self) -> int:
        return len(WORDS)


def web_words(request: HttpRequest) -> dict[str, object]:
    lang = request_language(request)
    return {"lang": lang, "w": _Words(lang)}
