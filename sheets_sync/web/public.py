"""The hosted public site of each tournament at ``/t/<slug>/``: the files its syncs wrote.

A sync writes the site through :class:`sheets_sync.loop.publish.PublicResults` — the public filter
is applied there, once (a hidden final stays hidden) — into a folder of its own; the server then
switches to it at once (:mod:`sheets_sync.web.site_versions`), and ``jobs.site_dir(t)`` is the
version switched to: a sync stopped half-way (a full disk) never shows half a site. This view only
serves those files read-only: GET and HEAD, nothing outside the folder (the path is resolved, links
followed, and must still be inside), a folder's ``index.html`` and never a listing, the content
type by extension, ``no-cache`` with an ETag so the hall screen and phones see each sync. A
tournament that is not public, or whose site no sync wrote yet, gets a friendly
«ещё не опубликовано» page with status 404.
"""

from __future__ import annotations

import mimetypes
import os
from pathlib import Path

from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_safe

from sheets_sync.resources import shipped
from sheets_sync.web.jobs import site_dir
from sheets_sync.web.models import Tournament

__all__ = ["public_site", "asset", "safe_file", "file_response", "CONTENT_TYPES", "ASSETS"]

CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
                 ".js": "text/javascript; charset=utf-8", ".json": "application/json",
                 ".txt": "text/plain; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png",
                 ".zip": "application/zip"}
ASSETS = shipped("templates") / "web" / "assets"  # the app's own scripts and styles (its pages have none inline)


def safe_file(root: Path, path: str) -> tuple[Path | None, bool]:
    """(the real file inside ``root`` for the relative ``path``, or None; whether ``path`` names a
    folder without its trailing slash). ``..``, a drive, a backslash or a link out are no way out."""
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if any(p == ".." or "\\" in p or ":" in p or "\x00" in p for p in parts):
        return None, False
    base = os.path.realpath(root)
    real = os.path.realpath(os.path.join(base, *parts))
    if real != base and not real.startswith(base + os.sep):
        return None, False
    if os.path.isdir(real):
        index = os.path.join(real, "index.html")
        return (Path(index) if os.path.isfile(index) else None), bool(path) and not path.endswith("/")
    return (Path(real) if os.path.isfile(real) else None), False


def file_response(request: HttpRequest, real: Path, *, download: bool = False) -> HttpResponse:
    """``real`` with its content type, ``no-cache`` and an ETag (a reload of an unchanged page is a 304)."""
    info = real.stat()
    etag = f'"{info.st_mtime_ns:x}-{info.st_size:x}"'
    if etag in request.META.get("HTTP_IF_NONE_MATCH", ""):
        response: HttpResponse = HttpResponseNotModified()
    else:
        kind = CONTENT_TYPES.get(real.suffix.lower()) or mimetypes.guess_type(real.name)[0] or "application/octet-stream"
        response = FileResponse(real.open("rb"), content_type=kind, as_attachment=download, filename=real.name)
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@require_safe
def public_site(request: HttpRequest, slug: str, path: str = "") -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    root = site_dir(tournament)
    if not tournament.public or not (root / "index.html").is_file():
        return render(request, "public/not_published.html", {"tournament": tournament}, status=404)
    real, bare_folder = safe_file(root, path)
    if real is None:
        raise Http404("no such page")
    if bare_folder:  # /t/x/players → /t/x/players/, so the index's relative links resolve
        return redirect(request.path + "/", permanent=True)
    return file_response(request, real)


@require_safe
def asset(request: HttpRequest, name: str) -> HttpResponse:
    """``/assets/<name>``: a script or a style of the app's pages (a file of ``templates/web/assets``)."""
    real, _ = safe_file(ASSETS, name)
    if real is None:
        raise Http404("no such file")
    return file_response(request, real)
