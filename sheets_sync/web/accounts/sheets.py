"""The organizer's tournaments: the list at ``/``, adding a Google sheet they already have (proved
by a one-time code, :mod:`sheets_sync.web.claims`), and a new tournament or club season."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from sheets_sync.backends.google import spreadsheet_url
from sheets_sync.refs import WorkbookRefError, spreadsheet_id
from sheets_sync.web import jobs
from sheets_sync.web.claims import ClaimRefused, claim_for, has_tournament_tab
from sheets_sync.web.models import Claim, Job, Tournament
from sheets_sync.web.service_accounts import NoServiceAccount, pick_account
from sheets_sync.web.words import request_language, word

__all__ = ["tournament_list", "add_sheet", "CHECK"]


@login_required
def tournament_list(request: HttpRequest) -> HttpResponse:
    tournaments = (Tournament.objects.filter(memberships__user=request.user)
                   .order_by("-last_sync_at", "-created_at").distinct())
    return render(request, "accounts/list.html", {"tournaments": tournaments})


def refused(request: HttpRequest, exc: ClaimRefused) -> str:
    return exc.said(request_language(request))


def _start_claim(request: HttpRequest, context: dict) -> HttpResponse:
    """The organizer pasted a link: their code for that sheet."""
    lang = request_language(request)
    link = request.POST.get("link", "").strip()
    context["link"] = link
    try:
        sid = spreadsheet_id(link, language=lang)
        account = context["account"]
        context["claim"] = claim_for(request.user, sid, account, before_new=lambda: has_tournament_tab(sid, account))
    except WorkbookRefError:
        context["error"] = word("add.bad_link", lang)
    except ClaimRefused as exc:
        context["error"] = refused(request, exc)
    return render(request, "accounts/add.html", context)


CHECK = "check"  # the job reading the sheet for the claim's code (sheets_sync.web.accounts.pending)


def _check(request: HttpRequest, context: dict) -> HttpResponse:
    """The organizer typed the code and pressed «Проверить»: the check reads the sheet, which may
    wait for the account's budget, so it is a job; the page follows it (a second press while one
    is waiting shows that one)."""
    claim = get_object_or_404(Claim, pk=request.POST.get("claim"), user=request.user, proved_at__isnull=True)
    job = (Job.objects.filter(action=CHECK, owner=request.user, tournament__isnull=True, params__claim=claim.pk,
                              status__in=(Job.QUEUED, Job.RUNNING)).first()
           or jobs.enqueue(None, CHECK, params={"claim": claim.pk, "language": request_language(request)},
                           user=request.user))
    return redirect("account_job", job.pk)


@login_required
@require_http_methods(["GET", "POST"])
def add_sheet(request: HttpRequest) -> HttpResponse:
    try:
        account = pick_account()
    except NoServiceAccount:
        return render(request, "accounts/no_account.html", status=503)
    context: dict = {"account": account}
    if request.method == "POST" and request.POST.get("claim"):
        return _check(request, context)
    if request.method == "POST":
        return _start_claim(request, context)
    return render(request, "accounts/add.html", context)


def sheet_url(tournament: Tournament) -> str:
    return spreadsheet_url(tournament.spreadsheet_id) if tournament.spreadsheet_id else ""
