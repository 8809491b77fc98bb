"""``sheets-sync app FOLDER``: the server's pages for one organizer with Excel workbooks on one
computer — no account, no Google.

The data lives in ``FOLDER/.sheets-sync/``; every .xlsx in FOLDER is a tournament of one local
organizer (:func:`register_folder`), synced at start and again whenever its file is saved
(:class:`FolderWatch`: the folder's file events, so a workbook made in the folder while the app
runs — by Excel or by «Новый турнир / сезон», :data:`NEW` in the app — appears too).
:class:`LocalOrganizer` signs that organizer in automatically — only for a request from this
computer (127.0.0.1 / ::1), so nobody on the network gets in.

A league workbook (a «Лига» tab, :mod:`sheets_sync.league.book`) is no tournament: it is never
registered nor synced (nothing of a tournament is written into it); the start page lists it with a
button running the league as a job (:data:`LEAGUE`), as ``sheets-sync league FILE`` does.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_POST, require_safe

from sheets_sync.web import jobs
from sheets_sync.web.addresses import phone_card
from sheets_sync.web.jobs import request_sync
from sheets_sync.web.models import Job, Membership, Tournament
from sheets_sync.web.words import request_language, word

__all__ = ["LOCAL_ORGANIZER", "LocalOrganizer", "register_folder", "register_workbook", "workbooks_in",
           "is_league_workbook", "leagues_in", "new_workbook_path", "FolderWatch", "app_home", "app_league",
           "app_status", "LEAGUE"]

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


def _is_workbook_name(path: Path) -> bool:
    """An .xlsx that is a workbook of the organizer's: not Excel's lock file (``~$…``), not a
    sync's separate results, not a hidden or temporary file an editor saves through."""
    return (path.suffix.lower() == ".xlsx" and not path.name.startswith(("~$", ".", "~"))
            and not path.stem.endswith("-results"))


def workbooks_in(folder: Path) -> list[Path]:
    """The folder's workbooks: every .xlsx but Excel's lock files (``~$…``) and a sync's separate results."""
    return sorted(p for p in Path(folder).glob("*.xlsx") if p.is_file() and _is_workbook_name(p))


def is_league_workbook(path: Path) -> bool:
    """A league kept in a workbook (a «Лига» / «League» tab): its tab names only, read-only. A file
    that cannot be read (being written right now) is not known to be one: False, asked again later."""
    from openpyxl import load_workbook

    from sheets_sync.league.book import LEAGUE_TABS

    try:
        book = load_workbook(path, read_only=True)
    except Exception:  # noqa: BLE001 - half-written, not a workbook: the sync will say what it is
        return False
    try:
        return any(name in LEAGUE_TABS for name in book.sheetnames)
    finally:
        book.close()


def leagues_in(folder: Path) -> list[Path]:
    """The folder's league workbooks (``league.xlsx``): run from the start page, never synced."""
    return [p for p in workbooks_in(folder) if is_league_workbook(p)]


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


def register_workbook(path: Path, reason: str = "start", **fields) -> Tournament | None:
    """One workbook as a tournament of the local organizer (a known one kept by its path), a sync
    requested; a league workbook is none (None), and an older version's registration of it is dropped."""
    path = Path(path).resolve()
    if is_league_workbook(path):
        Tournament.objects.filter(source=Tournament.EXCEL, path=str(path)).delete()
        return None
    t = Tournament.objects.filter(source=Tournament.EXCEL, path=str(path)).first()
    if t is None:
        slug = _slug_for(path, set(Tournament.objects.values_list("slug", flat=True)))
        t = Tournament.objects.create(slug=slug, title=fields.pop("title", None) or path.stem, source=Tournament.EXCEL,
                                      path=str(path), **fields)
    Membership.objects.get_or_create(user=local_organizer(), tournament=t, defaults={"role": Membership.OWNER})
    request_sync(t, reason)
    return t


def register_folder(folder: Path) -> list[Tournament]:
    """Every workbook of ``folder`` as a tournament of the local organizer (known ones kept by path),
    each with a sync requested so the page and the site are current; league workbooks left out."""
    return [t for t in (register_workbook(path) for path in workbooks_in(folder)) if t is not None]


_UNSAFE = str.maketrans({c: " " for c in '/\\:*?"<>|'})


def new_workbook_path(folder: Path, name: str) -> Path:
    """Where «Новый турнир / сезон» writes its workbook: ``FOLDER/<name>.xlsx``, the name as a person
    wrote it (characters no file name may hold made spaces), «name (2).xlsx» beside one that exists."""
    stem = " ".join(name.translate(_UNSAFE).split()).strip(". ") or "tournament"
    path, n = Path(folder) / f"{stem[:120]}.xlsx", 2
    while path.exists():
        path, n = Path(folder) / f"{stem[:120]} ({n}).xlsx", n + 1
    return path


class FolderWatch:
    """One watcher on the folder (watchfiles, the file events of ``watch``): a save of a known
    workbook asks for its sync (several saves while one waits add none, :func:`request_sync`); a new
    workbook (made in Excel, copied in, or by the app's own «Новый турнир / сезон») is registered;
    a league workbook is left alone. Without file events: «sync now» after saving, restart for new files."""

    def __init__(self, tournaments: list[Tournament], folder: Path | None = None) -> None:
        folder = folder or (Path(settings.APP_FOLDER) if settings.APP_FOLDER else
                            Path(tournaments[0].path).parent if tournaments else None)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if folder is None:
            return
        try:
            import watchfiles

            changes = watchfiles.watch(folder, watch_filter=lambda _change, path: _is_workbook_name(Path(path)),
                                       step=50, stop_event=self._stop, recursive=False, raise_interrupt=False)
        except (ImportError, OSError):
            log.warning("%s: no file events here; press «sync now» after saving", folder)
            return
        self._thread = threading.Thread(target=self._watch, args=(changes,), name="watch the folder", daemon=True)
        self._thread.start()

    def _watch(self, changes) -> None:
        from django.db import close_old_connections

        try:
            for batch in changes:
                for path in sorted({Path(p) for _change, p in batch}):
                    if not path.is_file():
                        continue  # removed, or renamed away: its tournament stays until the organizer removes it
                    try:
                        self.saw(path)
                    except Exception:  # noqa: BLE001 - one file's trouble must not stop the watch
                        log.exception("%s: could not follow this file", path)
                    finally:
                        close_old_connections()
        except Exception:  # noqa: BLE001 - a watcher that fails (no inotify left…): «sync now» still works
            log.exception("the folder's file events stopped; press «sync now» after saving")

    @staticmethod
    def saw(path: Path) -> Tournament | None:
        """A workbook of the folder written: its sync asked for, registered first if it is new."""
        known = Tournament.objects.filter(source=Tournament.EXCEL, path=str(path.resolve())).first()
        if known is not None and not is_league_workbook(path):
            request_sync(known, "file")
            return known
        return register_workbook(path, "file")

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=3)


@login_required
def app_home(request: HttpRequest) -> HttpResponse:
    """The folder's tournaments (app mode's start page; the server has its own list)."""
    if settings.MODE != "app":
        raise Http404("app mode only")
    tournaments = Tournament.objects.filter(memberships__user=request.user).order_by("title", "slug")
    folder = Path(settings.APP_FOLDER) if settings.APP_FOLDER else None
    lang = request_language(request)
    leagues = [_league_card(p, lang) for p in (leagues_in(folder) if folder else [])]
    return render(request, "organizer/app_home.html", {
        "tournaments": tournaments, "folder": folder or "", "leagues": leagues, "phone": phone_card(request),
        "running": any(league["job"] and league["job"].status in _ACTIVE for league in leagues)})


LEAGUE = "app-league"  # the job running a league workbook of the folder (`sheets-sync league FILE`)
_ACTIVE = (Job.QUEUED, Job.RUNNING)


def _league_card(path: Path, lang: str) -> dict:
    """A league workbook on the start page: its last run, said in the page's language."""
    job = _last_league_job(path)
    result = (job.result or {}) if job else {}
    done = word("organizer.app.league.done", lang, events=result.get("events", 0), games=result.get("games", 0),
                players=result.get("players", 0)) if job and job.status == Job.DONE else ""
    failure = ((result.get("messages") or {}).get(lang) or word("organizer.job.crashed", lang)) \
        if job and job.status == Job.FAILED else ""
    return {"name": path.name, "job": job, "done": done, "failure": failure}


def _last_league_job(path: Path) -> Job | None:
    return Job.objects.filter(action=LEAGUE, tournament__isnull=True, params__path=str(path.resolve())).order_by(
        "-pk").first()


@jobs.runner(LEAGUE, long=True)
def run_app_league(tournament: None, params: dict) -> dict:
    """The league of a workbook in the folder: league.json and its site in ``league/`` beside it,
    the «Рейтинг»/«Серия» tabs where its «Вывод» says (into itself when empty) — the CLI's run."""
    from sheets_sync.actions.league import run_league

    run = run_league(params["path"])
    site = next((str(p) for p in run.written if p.name == "index.html"), "")
    return {"events": len(run.league.events), "games": len(run.league.ratings.history),
            "players": len(run.league.ratings.players), "site": site, "tabs": list(run.output_tabs)}


@login_required
@require_POST
def app_league(request: HttpRequest) -> HttpResponse:
    """The league button: the named league workbook of the folder run as a job (one at a time)."""
    if settings.MODE != "app" or not settings.APP_FOLDER:
        raise Http404("app mode only")
    path = next((p for p in leagues_in(Path(settings.APP_FOLDER)) if p.name == request.POST.get("name")), None)
    if path is None:
        raise Http404("no such league workbook")
    last = _last_league_job(path)
    if last is None or last.status not in _ACTIVE:
        jobs.enqueue(None, LEAGUE, params={"path": str(path.resolve())}, user=request.user)
    return redirect("app_home")


@login_required
@require_safe
def app_status(request: HttpRequest) -> JsonResponse:
    """What the start page polls while a league runs (poll.js: reload when ``active`` empties)."""
    if settings.MODE != "app":
        raise Http404("app mode only")
    active = Job.objects.filter(action=LEAGUE, tournament__isnull=True, status__in=_ACTIVE).values_list("pk", flat=True)
    return JsonResponse({"active": list(active)})

