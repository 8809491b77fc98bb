"""The pages of a request refused or failed — a request refused (400: an address the server does not
answer to), a form whose CSRF token went stale (403), an address
that does not exist or is not the person's (404), a failure of the server's own (500) — in the
reader's language on the site's own page (base.html), each with a way back.

The 500 page must not fail in turn: it is rendered without the request's context processors (no
session, no database), and if even that fails a plain page says it in both languages."""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.http import url_has_allowed_host_and_scheme

from sheets_sync.web.words import _Words, request_language, word

__all__ = ["bad_request", "csrf_failure", "not_found", "server_error"]

log = logging.getLogger("sheets_sync.web.errors")

_PLAIN_500 = ("<!doctype html><meta charset=\"utf-8\"><title>Ошибка на сервере / Server error</title>"
              "<h1>Ошибка на сервере</h1><p>Попробуйте ещё раз через минуту.</p>"
              "<h1 lang=\"en\">Server error</h1><p lang=\"en\">Try again in a minute.</p>")


def _back(request: HttpRequest) -> str:
    """Where the person came from (a page of this site only: its path), else the start page."""
    referer = request.META.get("HTTP_REFERER", "")
    if not referer or not url_has_allowed_host_and_scheme(referer, allowed_hosts={request.get_host()}):
        return "/"
    parts = urlsplit(referer)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def _context(key: str, status: int, back: str, back_key: str, lang: str) -> dict:
    return {"title": word(f"{key}.title", lang), "text": word(f"{key}.text", lang), "status": status,
            "back": back, "back_word": word(back_key, lang)}


def _page(request: HttpRequest, status: int, key: str, back: str, back_key: str) -> HttpResponse:
    context = _context(key, status, back, back_key, request_language(request))
    return HttpResponse(render_to_string("error.html", context, request=request), status=status)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: a form sent from a page that went stale (or without cookies)."""
    log.info("CSRF refused %s %s: %s", request.method, request.path, reason)
    return _page(request, 403, "csrf", _back(request), "csrf.back")


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler404``: the same page for an address that does not exist and one that is not yours."""
    return _page(request, 404, "notfound", "/", "error.home")


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler400``: a request Django refuses — most often opened at an address (host) the server does
    not answer (``ALLOWED_HOSTS``). Rendered without the request's context: asking it for its host
    would refuse again."""
    from django.core.exceptions import DisallowedHost

    key = "badhost" if isinstance(exception, DisallowedHost) else "badrequest"
    lang = request_language(request)
    context = {**_context(key, 400, "/", "error.home", lang), "w": _Words(lang), "lang": lang}
    return HttpResponse(render_to_string("error.html", context), status=400)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: rendered without the request's context (the failure may be the database's).
    A database held by another process is no failure: it answers the busy page (503), wherever the
    wait ran out — in a view, or in a middleware saving the session."""
    from sheets_sync.web.busy import busy_now, busy_page

    if busy_now():
        return busy_page(request)
    try:
        try:
            lang = request_language(request)
        except Exception:  # noqa: BLE001 - the session may be what failed
            lang = "ru"
        context = {**_context("servererror", 500, "/", "error.home", lang), "w": _Words(lang), "lang": lang}
        body = render_to_string("error.html", context)
    except Exception:  # noqa: BLE001 - the error page must answer whatever broke
        log.exception("the 500 page itself failed")
        body = _PLAIN_500
    return HttpResponse(body, status=500)
