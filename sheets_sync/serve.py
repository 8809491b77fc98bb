"""`watch --serve`: the output site on the local network while the watch keeps it current.

A stdlib HTTP server in a daemon thread, serving one folder read-only: GET and HEAD only
(any other method is 405), no directory listings, and nothing outside the folder — neither
through ``..`` nor through a symbolic link.  Pages are sent with ``Cache-Control: no-cache``
so the hall's screen (``screen.html``, which reloads itself) shows the newest standings.
Bound to 127.0.0.1 unless the organizer names another address (``--bind 0.0.0.0`` for the hall).
"""

from __future__ import annotations

import os
import threading
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from scoring.errors import SheetsSyncError
from sheets_sync.messages import fail

__all__ = ["SiteServer", "ServeError", "serve_site"]


class ServeError(SheetsSyncError):
    """The address cannot be listened on (port taken, address not of this machine)."""


class _ReadOnly(SimpleHTTPRequestHandler):
    """GET/HEAD of files inside ``directory``; everything else is refused."""

    server_version = "sheets-sync"
    sys_version = ""

    def _refuse(self) -> None:
        self.send_response(HTTPStatus.METHOD_NOT_ALLOWED)
        self.send_header("Allow", "GET, HEAD")
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _refuse

    def send_head(self):  # noqa: ANN201 - the stdlib's signature
        """The file asked for; 404 when its real path (links followed) leaves the folder."""
        root = os.path.realpath(self.directory)
        real = os.path.realpath(self.translate_path(self.path))
        if real != root and not real.startswith(root + os.sep):
            self.send_error(HTTPStatus.NOT_FOUND)
            return None
        return super().send_head()

    def list_directory(self, path):  # noqa: ANN001 - the stdlib's signature
        # a folder without index.html is not listed: only the pages the site links to are served
        self.send_error(HTTPStatus.NOT_FOUND)
        return None

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the stdlib's name
        pass  # the watch's own lines are what the organizer reads; requests are not news


class SiteServer:
    """A running server; :meth:`close` stops it."""

    def __init__(self, httpd: ThreadingHTTPServer, folder: Path):
        self.httpd = httpd
        self.folder = folder
        self.thread = threading.Thread(target=httpd.serve_forever, name="sheets-sync-serve", daemon=True)

    @property
    def port(self) -> int:
        return int(self.httpd.server_address[1])

    @property
    def url(self) -> str:
        host = str(self.httpd.server_address[0])
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}/"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


def serve_site(folder: Path, *, port: int, bind: str = "127.0.0.1", language: str = "en") -> SiteServer:
    """Start serving ``folder`` (created if missing) on ``bind:port`` in a background thread."""
    folder.mkdir(parents=True, exist_ok=True)

    class _Server(ThreadingHTTPServer):
        daemon_threads = True
        address_family = _family(bind)

        def server_bind(self) -> None:
            # the stdlib looks up the host's FQDN here, which can hang on a hall's network without DNS
            import socketserver

            socketserver.TCPServer.server_bind(self)
            self.server_name, self.server_port = str(self.server_address[0]), int(self.server_address[1])

    try:
        httpd = _Server((bind, port), partial(_ReadOnly, directory=str(folder)))
    except (OSError, OverflowError) as exc:
        raise fail(ServeError, "serve.cannot_listen", language=language, address=f"{bind}:{port}",
                   reason=getattr(exc, "strerror", None) or str(exc)) from exc
    server = SiteServer(httpd, folder)
    server.thread.start()
    return server


def _family(bind: str) -> int:
    import socket

    return socket.AF_INET6 if ":" in bind else socket.AF_INET
