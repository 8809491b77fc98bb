"""The web pages' words in Russian and English, and which of the two a request gets.

Like the command line (:mod:`sheets_sync.messages`), the pages take their words from a dictionary
key → (ru, en), not from gettext (no compiled catalogues to build). Each part of the app keeps its
words in a dictionary of its own module, joined here; a template reads ``w.key`` (the context
processor :func:`web_words` gives ``w`` and ``lang``).

Which language: the one the person chose (``?lang=en`` once, kept in a cookie), else the
browser's ``Accept-Language`` when it prefers English, else Russian.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.http import HttpRequest

from sheets_sync.web.wording import (access, accounts, forms, judge, keeping, messaging, organizer, public, refusals,
                                     registration, sharing)

__all__ = ["WORDS", "word", "request_language", "web_words", "LANGUAGES", "LANGUAGE_COOKIE", "LanguageCookie"]

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
                                            access.WORDS, refusals.WORDS, forms.WORDS, judge.WORDS, sharing.WORDS,
                                            messaging.WORDS,
                                            registration.WORDS)


def word(key: str, lang: str, **values: object) -> str:
    ru, en = WORDS[key]
    text = en if lang == "en" else ru
    return text.format(**values) if values else text


LANGUAGE_COOKIE = "sheets_sync_lang"
_YEAR = 365 * 24 * 3600


def request_language(request: HttpRequest) -> str:
    """``?lang=`` (kept in a cookie by :class:`LanguageCookie`), else the cookie, else a choice an
    older version kept in the session, else the browser's. The choice is never written to the
    session: a page read with ``?lang=en`` must not write the database (a write waits while
    another process holds SQLite; docs/decisions.md, 2026-12-05)."""
    chosen = request.GET.get("lang")
    if chosen in LANGUAGES:
        request.chosen_language = chosen
        return chosen
    kept = request.COOKIES.get(LANGUAGE_COOKIE)
    if kept in LANGUAGES:
        return kept
    session = getattr(request, "session", None)
    if session is not None and session.get("lang") in LANGUAGES:
        return session["lang"]
    accepted = request.META.get("HTTP_ACCEPT_LANGUAGE", "").lower()
    return "en" if accepted.startswith("en") else "ru"


class LanguageCookie:
    """Middleware: the language a page was asked for with ``?lang=`` is kept in a cookie."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        response = self.get_response(request)
        chosen = getattr(request, "chosen_language", None)
        if chosen is not None and request.COOKIES.get(LANGUAGE_COOKIE) != chosen:
            from django.conf import settings

            response.set_cookie(LANGUAGE_COOKIE, chosen, max_age=_YEAR, samesite="Lax", httponly=True,
                                secure=getattr(settings, "SESSION_COOKIE_SECURE", False))
        return response


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
    from django.conf import settings

    lang = request_language(request)
    return {"lang": lang, "w": _Words(lang), "app_mode": settings.MODE == "app"}
