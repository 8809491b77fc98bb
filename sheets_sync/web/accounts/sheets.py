"""The organizer's tournaments: the list at ``/``, adding a Google sheet they already have (proved
by a one-time code, :mod:`sheets_sync.web.claims`), and a new tournament or club season."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from scoring.errors import SheetsSyncError
from sheets_sync.backends.google import spreadsheet_url
from sheets_sync.refs import WorkbookRefError, spreadsheet_id
from sheets_sync.web import jobs
from sheets_sync.web.claims import ClaimRefused, check_claim, claim_for, register
from sheets_sync.web.models import Claim, Tournament
from sheets_sync.web.refusals import said
from sheets_sync.web.service_accounts import NoServiceAccount, pick_account
from sheets_sync.web.words import request_language, word

__all__ = ["tournament_list", "add_sheet"]


@login_required
def tournament_list(request: HttpRequest) -> HttpResponse:
    tournaments = (Tournament.objects.filter(memberships__user=request.user)
                   .order_by("-last_sync_at", "-created_at").distinct())
    return render(request, "accounts/list.html", {"tournaments": tournaments})


def refused(request: HttpRequest, exc: ClaimRefused) -> str:
    """Why a claim was refused, in the page's language (a backend's error inside it too)."""
    lang = request_language(request)
    values = {k: said(v, lang) if isinstance(v, SheetsSyncError) else v for k, v in exc.values.items()}
    return word(exc.key, lang, **values)


def _start_claim(request: HttpRequest, context: dict) -> HttpResponse:
    """The organizer pasted a link: their code for that sheet."""
    lang = request_language(request)
    link = request.POST.get("link", "").strip()
    context["link"] = link
    try:
        sid = spreadsheet_id(link, language=lang)
        context["claim"] = claim_for(request.user, sid, context["account"])
    except WorkbookRefError:
        context["error"] = word("add.bad_link", lang)
    except ClaimRefused as exc:
        context["error"] = refused(request, exc)
    return render(request, "accounts/add.html", context)


def _check(request: HttpRequest, context: dict) -> HttpResponse:
    """The organizer typed the code and pressed «Проверить»."""
    claim = get_object_or_404(Claim, pk=request.POST.get("claim"), user=request.user, proved_at__isnull=True)
    context["claim"] = claim
    try:
        title, _ = check_claim(claim)
        tournament = register(request.user, spreadsheet_id=claim.spreadsheet_id, account=claim.account,
                              title=title, language=request_language(request))
    except ClaimRefused as exc:
        context["error"] = refused(request, exc)
        return render(request, "accounts/add.html", context)
    Claim.objects.filter(pk=claim.pk).update(proved_at=tournament.created_at)
    jobs.request_sync(tournament, "added", user=request.user)
    messages.success(request, word("add.done", request_language(request), code=claim.code))
    return redirect("tournament", tournament.slug)


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
