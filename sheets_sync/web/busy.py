"""The web app while its SQLite database is held by another process (a backup, a ``sqlite3`` shell, a
long write): a request waits a second or two at most, then says so in the reader's language — a
503 page with «повторите» (and, for a form, a button that sends the same fields again) — never a
500, never a press lost without a word.

Why a public page waited 20 s (measured on main, docs/decisions.md 2026-12-05): not a read — in WAL
mode a read never waits for a writer, and neither the ``init_command`` PRAGMAs nor ``BEGIN
IMMEDIATE`` (only write transactions open one) touch a read. Each button press waited the 20-second
busy timeout on one of waitress' eight threads; with eight presses waiting, the public GET waited
in waitress' queue for a thread. So a web request waits :data:`WEB_WAIT` at most (SQLite's busy
handler retries within it), and only :data:`LONG_WAITERS` forms at a time wait that long — the
others :data:`SHORT_WAIT` — so threads stay free and the reads go through. The worker's
threads keep the long timeout of the settings: nobody waits on a page for them, and a job failed
for a busy database would have to be run again.

A page read with ``?lang=`` no longer writes the session (:func:`sheets_sync.web.words.request_language`
keeps the choice in a cookie). PostgreSQL is untouched: its lock waits are not SQLite's.
"""

from __future__ import annotations

import logging
import sys
import threading
from contextvars import ContextVar

from django.db import connection
from django.db.backends.signals import connection_created
from django.db.utils import OperationalError
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string

__all__ = ["WEB_WAIT", "BusyDatabase", "is_busy", "busy_page", "busy_now"]

log = logging.getLogger("sheets_sync.web.busy")

WEB_WAIT = 2.0  # seconds a web request waits for SQLite's write lock before it answers 503
SHORT_WAIT = 0.25  # … a form sent while LONG_WAITERS others already wait (our own writes take milliseconds)
LONG_WAITERS = 2  # of waitress' 8 threads: the rest stay free for pages to read
RETRY_AFTER = 5  # seconds the 503 asks the browser (and a script) to wait
_WAIT: ContextVar[float | None] = ContextVar("sheets_sync_web_wait", default=None)  # set inside a web request
_LONG = threading.BoundedSemaphore(LONG_WAITERS)
_LOCKED = ("database is locked", "database table is locked", "database schema is locked")


def is_busy(exc: BaseException | None) -> bool:
    """Whether ``exc`` is SQLite's «another connection holds the lock» (after the busy wait)."""
    import sqlite3

    return isinstance(exc, (OperationalError, sqlite3.OperationalError)) and \
        any(text in str(exc).lower() for text in _LOCKED)


def busy_now() -> bool:
    """Whether the exception being handled (a 500's) is a busy database."""
    return is_busy(sys.exc_info()[1])


def _wait_briefly(raw, seconds: float = WEB_WAIT) -> None:
    raw.execute(f"PRAGMA busy_timeout = {int(seconds * 1000)}")


def _settings_wait() -> float:
    return float(connection.settings_dict.get("OPTIONS", {}).get("timeout", 5))


@receiver(connection_created)
def _web_requests_wait_briefly(sender, connection, **kwargs) -> None:  # noqa: ARG001 - Django's signal
    """A connection opened for a web request waits that request's wait, not the settings' timeout."""
    wait = _WAIT.get()
    if connection.vendor == "sqlite" and wait is not None:
        _wait_briefly(connection.connection, wait)


class BusyDatabase:
    """Middleware (first after Django's security one): this request's SQLite waits are short, and a
    view that still found the database held answers :func:`busy_page`."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # a form writes: at most LONG_WAITERS of them wait the full WEB_WAIT at once, so a burst of
        # presses against a held database cannot take every thread from the pages being read
        long = request.method in ("GET", "HEAD", "OPTIONS") or _LONG.acquire(blocking=False)
        mark = _WAIT.set(WEB_WAIT if long else SHORT_WAIT)
        try:
            if connection.vendor == "sqlite" and connection.connection is not None:  # a kept connection
                _wait_briefly(connection.connection, _WAIT.get())
            return self.get_response(request)
        finally:
            _WAIT.reset(mark)
            if long and request.method not in ("GET", "HEAD", "OPTIONS"):
                _LONG.release()
            if connection.vendor == "sqlite" and connection.connection is not None:  # kept past the request
                _wait_briefly(connection.connection, _settings_wait())

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_busy(exception):
            return None
        return busy_page(request)


def _language(request: HttpRequest) -> str:
    from sheets_sync.web.words import request_language

    try:
        return request_language(request)
    except Exception:  # noqa: BLE001 - the session's read may be what failed
        return "ru"


def busy_page(request: HttpRequest) -> HttpResponse:
    """503 in the reader's language: «повторите»; a form's fields (not its files) can be sent again."""
    from sheets_sync.web.words import _Words, word

    lang = _language(request)
    log.warning("the database is busy: %s %s answered 503", request.method, request.path)
    resend = [(k, v) for k, values in request.POST.lists() for v in values if k != "csrfmiddlewaretoken"] \
        if request.method == "POST" else []
    context = {"w": _Words(lang), "lang": lang, "title": word("busy.title", lang),
               "text": word("busy.press" if request.method == "POST" else "busy.text", lang),
               "resend": resend, "action": request.get_full_path(), "post": request.method == "POST",
               "csrf_token": get_token(request) if request.method == "POST" else ""}
    response = HttpResponse(render_to_string("busy.html", context), status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    return response
