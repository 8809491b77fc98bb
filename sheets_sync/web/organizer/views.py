"""The organizer's pages of one tournament: the page itself, its buttons (POST), a job's page and
the small JSON statuses the pages poll, and the downloads of what the exports wrote."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import select_template
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from sheets_sync.keeper.address import unreachable_host
from sheets_sync.web import jobs
from sheets_sync.web.access import tournament_for
from sheets_sync.web.accounts.sheet_access import own_access
from sheets_sync.web.models import Job, Tournament
from sheets_sync.web.organizer.buttons import BUTTONS, Known, buttons_for, form_for, params_of
from sheets_sync.web.organizer.glance import ACTIVE, glance, job_title
from sheets_sync.web.organizer.limits import press_held
from sheets_sync.web.keeping import ensure_hook_secret
from sheets_sync.web.public import file_response, safe_file
from sheets_sync.web.words import request_language, word

__all__ = ["tournament_page", "tournament_status", "press", "job_page", "job_status", "download"]

PUSH_TEMPLATE = "keeping/push.html"  # the push trigger's snippet, where the keeping part provides it


def _push(request: HttpRequest, tournament: Tournament) -> dict:
    """The «instant update» snippet's template and the hook's address: a Google sheet's only (an
    .xlsx has no Apps Script), its secret made on first show. The address is the server's public
    one (``SHEETS_SYNC_PUBLIC_URL``) when set, else the one this page was opened at; when Google
    cannot reach it (``hook_unreachable``: a loopback or private address) the page says so beside
    the snippet, and what to set (issue 43 §4)."""
    if tournament.source != Tournament.GOOGLE or not tournament.spreadsheet_id:
        return {"push_template": None, "hook_url": ""}
    try:
        template = select_template([PUSH_TEMPLATE]).template.name
    except TemplateDoesNotExist:
        return {"push_template": None, "hook_url": ""}
    ensure_hook_secret(tournament)
    path = reverse("hook", args=[tournament.spreadsheet_id])
    base = jobs.public_base()
    hook_url = f"{base}{path}" if base else request.build_absolute_uri(path)
    unreachable = unreachable_host(hook_url)
    # the warning's words around the host, which the page shows as code (a name such as «localhost» is no word)
    before, _, after = word("push.unreachable", request_language(request)).partition("{host}")
    return {"push_template": template, "hook_url": hook_url, "hook_unreachable": unreachable,
            "push_unreachable": (before, after) if unreachable else None}


def _last_error(tournament: Tournament, lang: str) -> str:
    """Why the last sync failed, in the page's language: its job's words (``last_error`` is the
    server log's English text, not the reader's)."""
    if not tournament.last_error:
        return ""
    failed = Job.objects.filter(tournament=tournament, action=jobs.SYNC, status=Job.FAILED).order_by("-pk").first()
    return _failure(failed, lang) if failed is not None else word("organizer.job.crashed", lang)


@login_required
@require_safe
def tournament_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug)
    lang = request_language(request)
    context = {"tournament": tournament, "glance": glance(tournament, lang), "buttons": buttons_for(tournament),
               "known": Known.of(tournament, lang),
               "last_error": _last_error(tournament, lang), "my_access": own_access(tournament, request.user, lang),
               "public_url": reverse("public_site", args=[tournament.slug]),
               "status_url": reverse("tournament_status", args=[tournament.slug]), **_push(request, tournament)}
    if tournament.kind == Tournament.TOURNAMENT:  # the judges' links (issue 44): a tournament's tables
        from sheets_sync.web.judge.organizer import judges_context

        context.update(judges_context(request, tournament))
    from sheets_sync.web.messaging.organizer import messages_context  # the players' messages (issue 45 §4)

    context.update(messages_context(tournament, lang))
    if tournament.kind == Tournament.TOURNAMENT:  # the draw at the announced time (issue 45)
        from sheets_sync.web.registration.timed import draw_line

        context["timed_draw"] = draw_line(tournament, lang=lang)
    return render(request, "organizer/tournament.html", context)


@login_required
@require_safe
def tournament_status(request: HttpRequest, slug: str) -> JsonResponse:
    """What the page polls while jobs run: it reloads when this changes."""
    tournament = tournament_for(request, slug)
    active = list(Job.objects.filter(tournament=tournament, status__in=ACTIVE).order_by("pk").values_list("pk", "status"))
    return JsonResponse({"active": [list(a) for a in active],
                         "synced_at": tournament.last_sync_at.isoformat() if tournament.last_sync_at else None,
                         "share_lost": tournament.share_lost, "error": bool(tournament.last_error)})


@login_required
@require_POST
def press(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    """A button: checks its fields and enqueues its job, then shows the job (sync: the page)."""
    tournament = tournament_for(request, slug)
    if (held := press_held(request, tournament, action)) is not None:  # the press limit, a twin waiting
        return held
    lang = request_language(request)
    button = BUTTONS.get(action)
    if button is None or tournament.kind not in button.kinds:
        raise Http404("no such button")
    form = form_for(button, request.POST, tournament, lang)
    if not form.is_valid():
        fields = ", ".join(word(f"organizer.field.{name.replace('_', '')}", lang) for name in form.errors)
        messages.error(request, word("organizer.form.invalid", lang, fields=fields))
        return redirect("tournament", slug=tournament.slug)
    if action == jobs.SYNC:
        job = jobs.request_sync(tournament, "button", user=request.user)
        messages.info(request, word("organizer.sync.requested" if job else "organizer.sync.waiting", lang))
        return redirect("tournament", slug=tournament.slug)
    job = jobs.enqueue(tournament, action, params=params_of(form), user=request.user)
    return redirect("job", slug=tournament.slug, job_id=job.pk)


def _job(request: HttpRequest, slug: str, job_id: int) -> tuple[Tournament, Job]:
    tournament = tournament_for(request, slug)
    return tournament, get_object_or_404(Job, pk=job_id, tournament=tournament)


def _failure(job: Job, lang: str) -> str:
    if job.status != Job.FAILED:
        return ""
    refused = (job.result or {}).get("messages") or {}
    return refused.get(lang) or word("organizer.job.crashed", lang)


def waiting_words(job: Job, lang: str) -> str:
    """Why a queued job waits, as the page says it ("" when it is only in the queue)."""
    return word(f"organizer.job.waiting.{job.waiting}", lang) if job.status == Job.QUEUED and job.waiting else ""


def _said(result: dict, key: str, lang: str) -> list:
    """A runner's lines in the page's language (``{"ru": [...], "en": [...]}``); a sync's result has
    counts under the same names (``warnings``: how many), which are no lines to list."""
    value = result.get(key)
    return list(value.get(lang) or []) if isinstance(value, dict) else []


@login_required
@require_safe
def job_page(request: HttpRequest, slug: str, job_id: int) -> HttpResponse:
    tournament, job = _job(request, slug, job_id)
    lang = request_language(request)
    result = job.result or {}
    files = result.get("files") if isinstance(result.get("files"), list) else []  # a sync's is a count
    context = {"tournament": tournament, "job": job, "title": job_title(job, lang), "result": result, "failure": _failure(job, lang),
               "waiting": waiting_words(job, lang),
               "lines": _said(result, "lines", lang), "rows": _said(result, "rows", lang),
               "warnings": _said(result, "warnings", lang), "report": (result.get("report") or {}).get(lang), "files": [(f, f.rsplit("/", 1)[-1]) for f in files],
               "active": job.status in ACTIVE, "status_url": reverse("job_status", args=[tournament.slug, job.pk])}
    return render(request, "organizer/job.html", context)


@login_required
@require_safe
def job_status(request: HttpRequest, slug: str, job_id: int) -> JsonResponse:
    _, job = _job(request, slug, job_id)
    lang = request_language(request)
    return JsonResponse({"id": job.pk, "action": job.action, "status": job.status, "waiting": job.waiting,
                         "message": _failure(job, lang) or waiting_words(job, lang) or job.message,
                         "finished_at": job.finished_at.isoformat() if job.finished_at else None})


@login_required
@require_safe
def download(request: HttpRequest, slug: str, path: str) -> HttpResponse:
    """A file an export wrote (``exports/<kind>/…`` of the tournament's output folder), to its organizers only."""
    tournament = tournament_for(request, slug)
    prefix = "exports/"
    if not path.startswith(prefix):
        raise Http404("no such file")
    real, _ = safe_file(jobs.out_dir(tournament) / "exports", path[len(prefix):])
    if real is None or real.suffix.lower() == "":
        raise Http404("no such file")
    # pages to print open in the browser; a picture or an archive is saved
    return file_response(request, real, download=real.suffix.lower() == ".zip")

