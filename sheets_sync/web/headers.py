"""The security headers of every answer: a Content-Security-Policy for each kind of page.

* the public site (``/t/…``) and the exports' printable pages run no script at all
  (``script-src 'none'``): they are static files, and a page for players or for the printer has
  nothing to run; the exports' pages carry their styles inline (``style-src 'unsafe-inline'``
  there only — they are files the renderer writes, shared with the command line);
* the organizer's pages run the app's own files only (``/assets/…``: :func:`sheets_sync.web.public.asset`),
  no inline script, no ``on…=`` handler, no inline style — an injected ``<script>`` in a tournament's
  name would not run even if an escape were ever missed (tests/web/crawl.py finds any inline one).

HSTS (behind HTTPS), ``Referrer-Policy`` and ``X-Content-Type-Options`` are Django's
``SecurityMiddleware`` (settings)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

__all__ = ["SecurityPolicy", "APP", "NO_SCRIPT", "PRINTED", "policy_for"]

_COMMON = "base-uri 'none'; frame-ancestors 'none'; object-src 'none'"
APP = f"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " \
      f"form-action 'self'; {_COMMON}"
NO_SCRIPT = f"default-src 'none'; script-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'none'; " \
            f"{_COMMON}"
PRINTED = f"default-src 'none'; script-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " \
          f"form-action 'none'; {_COMMON}"


def policy_for(path: str) -> str:
    """The policy of the page at ``path``: the public site's, an export's, or the app's."""
    if path.startswith("/t/"):
        return NO_SCRIPT
    parts = path.split("/")
    if len(parts) > 3 and parts[1] == "o" and parts[3] == "files":  # /o/<slug>/files/exports/…
        return PRINTED
    return APP


class SecurityPolicy:
    """Middleware: the Content-Security-Policy of :func:`policy_for` on every answer (error pages too)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy_for(request.path)
        return response
