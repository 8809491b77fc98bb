"""`watch --serve`: the output site on the local network while the watch keeps it current.

Served in a daemon thread by the guarded waitress of :mod:`sheets_sync.loop.guard`, the one server
of every face (``server`` and ``app`` too), so a hall's network full of phones is not a thread per
connection and no client can stop it: a request's headers have 10 s, a slow body is cut, one
address holds a few dozen connections in progress, a body over 64 KB is refused unread (413), and
the process's open-file limit is raised for thousands of connections.  A client that goes away
early is not news, and a malformed request is answered 400 with one line on stderr — never a
traceback.

:func:`site_app` serves one folder read-only: GET and HEAD only (any other method is 405), no
directory listings, and nothing outside the folder — neither through ``..`` nor through a
symbolic link.  Pages are sent with ``Cache-Control: no-cache`` (and an ETag, so a reload of an
unchanged page is a 304) so the hall's screen (``screen.html``, which reloads itself) shows the
newest standings.  Bound to 127.0.0.1 unless the organizer names another address
(``--bind 0.0.0.0`` for the hall).
"""

from __future__ import annotations

import logging
import mimetypes
import os
import sys
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from scoring.errors import SheetsSyncError
from sheets_sync.messages import fail, text

if TYPE_CHECKING:
    from sheets_sync.loop.guard import Limits

__all__ = ["SiteServer", "stop_waitress", "ServeError", "serve_site", "site_app", "MAX_BODY"]

MAX_BODY = 1 << 16  # a read-only site takes no uploads: a larger body is refused unread
_THREADS = 4  # requests answered at once: files from the disk, each a few milliseconds

_HTML_TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
               ".js": "text/javascript; charset=utf-8", ".json": "application/json",
               ".txt": "text/plain; charset=utf-8", ".svg": "image/svg+xml"}


class ServeError(SheetsSyncError):
    """The address cannot be listened on (port taken, address not of this machine)."""


class _BadRequest(Exception):
    """A path no file can have (a NUL, bytes that are not UTF-8): answered 400."""


Say = Callable[[str], None]
StartResponse = Callable[[str, list[tuple[str, str]]], object]


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _headers(extra: Iterable[tuple[str, str]] = ()) -> list[tuple[str, str]]:
    return [("Cache-Control", "no-cache"), ("X-Content-Type-Options", "nosniff"), *extra]


def _relative(environ: dict) -> str:
    """PATH_INFO as the text the client meant (WSGI hands it over as latin-1 of the bytes)."""
    try:
        path = environ.get("PATH_INFO", "/").encode("latin-1").decode("utf-8")
    except UnicodeError as exc:
        raise _BadRequest from exc
    if "\x00" in path or any(ord(c) < 32 for c in path):
        raise _BadRequest
    return path


def _file_for(root: str, path: str) -> tuple[str | None, bool]:
    """(the real file inside ``root`` for ``path``, or None; whether ``path`` is a folder without its
    trailing slash).  ``..``, a drive or a backslash are no way out: the real path (links followed)
    must still be inside the folder."""
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if any(p == ".." or "\\" in p or ":" in p for p in parts):
        return None, False
    real = os.path.realpath(os.path.join(root, *parts))
    if real != root and not real.startswith(root + os.sep):
        return None, False
    if os.path.isdir(real):
        index = os.path.join(real, "index.html")
        # a folder without index.html is not listed: only the pages the site links to are served
        return (index if os.path.isfile(index) else None), not path.endswith("/")
    return (real if os.path.isfile(real) else None), False


def _answer(start_response: StartResponse, status: str, extra: Iterable[tuple[str, str]] = ()) -> list[bytes]:
    body = status.encode("ascii")
    start_response(status, _headers([("Content-Type", "text/plain; charset=utf-8"),
                                     ("Content-Length", str(len(body))), *extra]))
    return [body]


def site_app(folder: Path, *, say: Say = _stderr, language: str = "en"):
    """The WSGI application serving ``folder`` read-only (see the module's docstring)."""
    root = os.path.realpath(folder)

    def app(environ: dict, start_response: StartResponse):
        method = environ.get("REQUEST_METHOD", "GET")
        if method not in ("GET", "HEAD"):
            return _answer(start_response, "405 Method Not Allowed", [("Allow", "GET, HEAD")])
        try:
            path = _relative(environ)
        except _BadRequest:
            raw = quote(environ.get("PATH_INFO", "").encode("latin-1"), safe="/")[:200]
            say(text("serve.bad_request", language, path=raw, client=environ.get("REMOTE_ADDR", "?")))
            return _answer(start_response, "400 Bad Request")
        real, bare_folder = _file_for(root, path)
        if real is None:
            return _answer(start_response, "404 Not Found")
        if bare_folder:  # /players → /players/, so the index's relative links resolve
            return _answer(start_response, "301 Moved Permanently", [("Location", environ.get("SCRIPT_NAME", "") + path + "/")])
        return _send(environ, start_response, real, head=method == "HEAD")

    return app


def _send(environ: dict, start_response: StartResponse, real: str, *, head: bool):
    try:
        handle = open(real, "rb")  # noqa: SIM115 - handed to the server, which closes it
    except OSError:  # gone between the look and the open (the sync replaced it): as if never there
        return _answer(start_response, "404 Not Found")
    info = os.fstat(handle.fileno())
    etag = f'"{info.st_mtime_ns:x}-{info.st_size:x}"'
    kind = _HTML_TYPES.get(os.path.splitext(real)[1].lower()) or mimetypes.guess_type(real)[0] or "application/octet-stream"
    if etag in environ.get("HTTP_IF_NONE_MATCH", ""):
        handle.close()
        start_response("304 Not Modified", _headers([("ETag", etag)]))
        return []
    start_response("200 OK", _headers([("Content-Type", kind), ("Content-Length", str(info.st_size)), ("ETag", etag)]))
    if head:
        handle.close()
        return []
    wrapper = environ.get("wsgi.file_wrapper")
    return wrapper(handle, 65536) if wrapper else _chunks(handle)


def _chunks(handle) -> Iterable[bytes]:
    with handle:
        while chunk := handle.read(65536):
            yield chunk


class _OneLine(logging.Handler):
    """waitress's own warnings as one line each (a full connection limit, a thread still busy at
    the end), never a traceback: the organizer's console is for the watch's lines."""

    def __init__(self, say: Say, language: str):
        super().__init__(logging.WARNING)
        self.say_line = say
        self.language = language

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message.startswith("per-address cap") and isinstance(record.args, tuple) and len(record.args) == 2:
            self.say_line(text("serve.address_full", self.language, client=record.args[0], n=record.args[1]))
        elif "connection limit" in message:
            self.say_line(text("serve.full", self.language))
        elif "dropped below the connection limit" not in message:
            self.say_line(text("serve.note", self.language, note=message.splitlines()[0] if message else "?"))


def _quiet_waitress(say: Say, language: str) -> logging.Handler:
    logger = logging.getLogger("waitress")
    handler = _OneLine(say, language)
    logger.addHandler(handler)
    logger.propagate = False
    # «Task queue depth is N»: a burst of requests waiting a few milliseconds for a thread is not news
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    return handler


def stop_waitress(server, sockets: dict, thread: threading.Thread) -> None:
    """Stop a waitress server running in ``thread``: its listening sockets and connections closed,
    then its worker threads, then the loop's trigger.

    The trigger goes last: a worker thread finishing a response wakes the loop through it
    (``pull_trigger``), and a trigger closed under a still-running worker raised "Bad file
    descriptor" in that thread (a test's teardown saw it once in a few hundred runs).  Waitress's
    own ``server.close()`` closes the trigger first, so the listening socket is closed here without it."""
    from waitress import wasyncore

    trigger = next((d for d in sockets.values() if hasattr(d, "pull_trigger")), None)
    looping = thread.is_alive() and trigger is not None

    def close(keep_trigger: bool) -> Callable[[], None]:
        done = threading.Event()

        def close_them() -> None:  # in the server's own thread: its map is not touched from outside
            for dispatcher in list(sockets.values()):
                if keep_trigger and dispatcher is trigger:
                    continue
                if keep_trigger and hasattr(dispatcher, "trigger"):  # the listening server's own close()
                    wasyncore.dispatcher.close(dispatcher)  # closes the trigger too: just its socket here
                else:
                    dispatcher.close()
            done.set()

        def run() -> None:
            if looping and thread.is_alive():
                trigger.pull_trigger(close_them)
                done.wait(timeout=5)
            else:
                close_them()
        return run

    close(keep_trigger=True)()
    server.task_dispatcher.shutdown(timeout=5)  # no worker is left to pull the trigger
    close(keep_trigger=False)()
    if looping:
        thread.join(timeout=5)


class SiteServer:
    """A running server; :meth:`close` stops it (and closes every connection)."""

    def __init__(self, server, sockets: dict, folder: Path, handler: logging.Handler, limits: Limits):
        self.server = server
        self.sockets = sockets  # waitress's map: the listening sockets, its trigger, every connection
        self.folder = folder
        self.limits = limits
        self._handler = handler
        self.thread = threading.Thread(target=server.run, name="sheets-sync-serve", daemon=True)

    @property
    def host(self) -> str:
        return str(self.server.effective_host)

    @property
    def port(self) -> int:
        return int(self.server.effective_port)

    @property
    def url(self) -> str:
        host = self.host
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}/"

    def close(self) -> None:
        stop_waitress(self.server, self.sockets, self.thread)
        logging.getLogger("waitress").removeHandler(self._handler)


def serve_site(folder: Path, *, port: int, bind: str = "127.0.0.1", language: str = "en", say: Say | None = None,
               limits: Limits | None = None) -> SiteServer:
    """Start serving ``folder`` (created if missing) on ``bind:port`` in a background thread;
    the server's few lines (a malformed request, a full limit) go to ``say`` (default: stderr).
    ``limits``: the guard's (:func:`sheets_sync.loop.guard.limits_for` a 64 KB body by default)."""
    from sheets_sync.loop.guard import guarded_server, limits_for

    folder.mkdir(parents=True, exist_ok=True)
    say = say or _stderr
    limits = limits or limits_for(MAX_BODY)
    handler = _quiet_waitress(say, language)
    sockets: dict = {}
    try:
        server = guarded_server(site_app(folder, say=say, language=language), map=sockets, host=bind, port=port,
                                limits=limits, threads=_THREADS, ident="sheets-sync", expose_tracebacks=False,
                                log_socket_errors=False, clear_untrusted_proxy_headers=True)
    except (OSError, OverflowError, ValueError) as exc:
        logging.getLogger("waitress").removeHandler(handler)
        raise fail(ServeError, "serve.cannot_listen", language=language, address=f"{bind}:{port}",
                   reason=getattr(exc, "strerror", None) or str(exc)) from exc
    site = SiteServer(server, sockets, folder, handler, limits)
    site.thread.start()
    return site
