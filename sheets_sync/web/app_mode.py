"""``sheets-sync app FOLDER``: the server's pages for one organizer with Excel workbooks on one
computer — no account, no Google.

The data lives in ``FOLDER/.sheets-sync/``; every .xlsx in FOLDER is a tournament of one local
organizer (:func:`register_folder`), synced at start and again whenever its file is saved
(:class:`FolderWatch`, the same file events as ``watch``). :class:`LocalOrganizer` signs that
organizer in automatically — only for a request from this computer (127.0.0.1 / ::1) to a server
the app command bound to 127.0.0.1, so nobody on the network gets in.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.text import slugify

from sheets_sync.web.jobs import request_sync
from sheets_sync.web.models import Membership, Tournament

__all__ = ["LOCAL_ORGANIZER", "LocalOrganizer", "register_folder", "workbooks_in", "FolderWatch", "app_home"]

LOCAL_ORGANIZER = "organizer@localhost"
LOCAL_ADDRESSES = ("127.0.0.1", "::1")
log = logging.getLogger("sheets_sync.web.app_mode")


def local_organizer():
    user, created = get_user_model().objects.get_or_create(username=LOCAL_ORGANIZER, defaults={"email": LOCAL_ORGANIZER})
    if created:
        user.set_unusable_password()  # nobody signs in as the local organizer with a password
        user.save()
    return user


class LocalOrganizer:
    """Middleware of app mode: a request from this computer is the local organizer's."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (settings.MODE == "app" and not request.user.is_authenticated
                and request.META.get("REMOTE_ADDR") in LOCAL_ADDRESSES):
            login(request, local_organizer(), backend="django.contrib.auth.backends.ModelBackend")
        return self.get_response(request)


def workbooks_in(folder: Path) -> list[Path]:
    """The folder's workbooks: every .xlsx but Excel's lock files (``~$…``) and a sync's separate results."""
    return sorted(p for p in Path(folder).glob("*.xlsx")
                  if p.is_file() and not p.name.startswith("~$") and not p.stem.endswith("-results"))


_LATIN = dict(zip("абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
                  ["a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "i", "k", "l", "m", "n", "o", "p", "r", "s", "t",
                   "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "iu", "ia"]))


def _slug_for(path: Path, taken: set[str]) -> str:
    """An address from the file's name: Cyrillic in Latin letters («Кубок 2026» → kubok-2026)."""
    latin = "".join(_LATIN.get(c, c) for c in path.stem.lower())
    base = slugify(latin, allow_unicode=False) or "tournament"
    slug, n = base[:70], 2
    while slug in taken:
        slug, n = f"{base[:66]}-{n}", n + 1
    return slug


def register_folder(folder: Path) -> list[Tournament]:
    """Every workbook of ``folder`` as a tournament of the local organizer (known ones kept by path),
    each with a sync requested so the page and the site are current."""
    user = local_organizer()
    known = {t.path: t for t in Tournament.objects.filter(source=Tournament.EXCEL)}
    taken = set(Tournament.objects.values_list("slug", flat=True))
    tournaments = []
    for path in workbooks_in(folder):
        t = known.get(str(path.resolve()))
        if t is None:
            slug = _slug_for(path, taken)
            taken.add(slug)
            t = Tournament.objects.create(slug=slug, title=path.stem, source=Tournament.EXCEL, path=str(path.resolve()))
        Membership.objects.get_or_create(user=user, tournament=t, defaults={"role": Membership.OWNER})
        request_sync(t, "start")
        tournaments.append(t)
    return tournaments


class FolderWatch:
    """A thread per workbook waiting for its file to be saved: each save asks for a sync (several
    saves while one waits add none, :func:`request_sync`)."""

    def __init__(self, tournaments: list[Tournament]) -> None:
        from sheets_sync.loop.file_events import file_events

        self._stop = threading.Event()
        self._threads = []
        for t in tournaments:
            events = file_events(Path(t.path))
            if events is None:
                log.warning("%s: no file events here; press «sync now» after saving", t.path)
                continue
            thread = threading.Thread(target=self._watch, args=(t, events), name=f"watch {t.slug}", daemon=True)
            thread.start()
            self._threads.append((thread, events))

    def _watch(self, tournament: Tournament, events) -> None:
        from django.db import close_old_connections

        while not self._stop.is_set():
            if events.wait(1.0):
                try:
                    request_sync(tournament, "file")
                finally:
                    close_old_connections()

    def close(self) -> None:
        self._stop.set()
        for thread, events in self._threads:
            events.close()
            thread.join(timeout=3)


@login_required
def app_home(request: HttpRequest) -> HttpResponse:
    """The folder's tournaments (app mode's start page; the server has its own list)."""
    if settings.MODE != "app":
        raise Http404("app mode only")
    tournaments = Tournament.objects.filter(memberships__user=request.user).order_by("title", "slug")
    return render(request, "organizer/app_home.html", {"tournaments": tournaments,
                                                        "folder": settings.APP_FOLDER or ""})
