"""What an organizer asks for before there is a tournament — the claim check («Проверить») and a
new tournament («Создать таблицу») — run as jobs, and the page that follows them.

Both read or write Google as the service account and may wait for the account's budget
(:data:`sheets_sync.web.workbooks.BUDGET_WAIT`); a web request never waits for it. The views
(:mod:`~sheets_sync.web.accounts.sheets`, :mod:`~sheets_sync.web.accounts.new`) enqueue a job
owned by the organizer who pressed and send them to :func:`account_job`: it shows the job waiting
and polls it as a tournament's job page does, lands on the tournament once it is done, or shows
the refusal on the form it came from, in the page's language.

The claim check is safe to run again when its worker dies (it reads, then registers in one
transaction; a sheet the same organizer registered meanwhile counts as done); a new tournament
is not (the spreadsheet may already exist), and fails saying to look in Google Drive.
"""

from __future__ import annotations

import base64
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_safe

from scoring.errors import SheetsSyncError
from sheets_sync.keeper.budget import READ, WRITE, Budget, BudgetExhausted
from sheets_sync.web import jobs, workbooks
from sheets_sync.web.accounts.new import (DEFAULT_PRESET, NEW, SEASON_PRESET, NewTournamentForm, init_in_folder,
                                          init_sheet)
from sheets_sync.web.accounts.sheets import CHECK
from sheets_sync.web.claims import FIRST_TAB, ClaimRefused, check_claim, register
from sheets_sync.web.models import Claim, Job, Membership, ServiceAccount, Tournament
from sheets_sync.web.words import request_language, word

__all__ = ["run_check", "run_new", "account_job", "account_job_status", "Refused"]


class Refused(SheetsSyncError):
    """A claim refused (``ClaimRefused``) said in both languages, as a failed job keeps it."""

    @classmethod
    def of(cls, exc: ClaimRefused) -> Refused:
        return cls(exc.said("en"), ru=exc.said("ru"))


def _registered_by(claim: Claim) -> Tournament | None:
    """The claim's sheet if its organizer owns it already (a check run again after its worker died)."""
    return Tournament.objects.filter(spreadsheet_id=claim.spreadsheet_id, memberships__user=claim.user_id,
                                     memberships__role=Membership.OWNER).first()


@jobs.runner(CHECK, again=True)
def run_check(tournament: None, params: dict) -> dict:
    """Read the claimed sheet for its code; the tournament registered and its first sync asked for."""
    claim = Claim.objects.select_related("account", "user").get(pk=params["claim"])
    done = _registered_by(claim)
    if done is None:
        try:
            title, _ = check_claim(claim)
            done = register(claim.user, spreadsheet_id=claim.spreadsheet_id, account=claim.account, title=title,
                            language=params.get("language") or "ru")
        except ClaimRefused as exc:
            raise Refused.of(exc) from None
        except BudgetExhausted:  # it only read: it waits in the queue for the account's next minute
            raise jobs.TryLater(jobs.BUDGET_AGAIN) from None
        jobs.request_sync(done, "added", user=claim.user)
    Claim.objects.filter(pk=claim.pk).update(proved_at=done.created_at)
    return {"slug": done.slug, "code": claim.code}


def _form_of(params: dict) -> NewTournamentForm:
    """The new-tournament form filled in again from what was posted (the file from its bytes)."""
    files = {}
    if params.get("csv"):
        files["players_csv"] = SimpleUploadedFile("players.csv", base64.b64decode(params["csv"]))
    return NewTournamentForm(params["data"], files, lang=params.get("language") or "ru")


INIT_NEEDS = {READ: 8, WRITE: 12}  # a new sheet costs 8 requests in all (create, share, write, first sync): room kept


def _budget_for_init(account: ServiceAccount) -> None:
    """Start ``init`` only with its requests left in the account's minute: past its first request
    it cannot be repeated (the spreadsheet exists), so it must not be cut off by the budget."""
    budget = Budget(workbooks.budget_store(), account.email, clock=workbooks.budget_clock)
    if any(budget.left(kind) < need for kind, need in INIT_NEEDS.items()):
        raise jobs.TryLater(jobs.BUDGET_AGAIN)


@jobs.runner(NEW, long=True)
def run_new(tournament: None, params: dict) -> dict:
    """``init`` into a new sheet (or the proved empty one), registered for the organizer."""
    form = _form_of(params)
    if not form.is_valid():  # the view checked it: only a preset removed meanwhile gets here
        raise SheetsSyncError(f"the form: {dict(form.errors)}", ru=f"форма: {dict(form.errors)}")
    user = get_user_model().objects.get(pk=params["user"])
    if settings.MODE == "app":  # the app: a workbook in its folder, followed like any other there
        from sheets_sync.web.app_mode import register_workbook

        path = init_in_folder(form, Path(settings.APP_FOLDER))
        created = register_workbook(path, "created", title=form.cleaned_data["name"], kind=form.cleaned_data["kind"],
                                    language=form.cleaned_data["language"])
        return {"slug": created.slug, "file": path.name}
    claim = Claim.objects.select_related("account").get(pk=params["claim"]) if params.get("claim") else None
    account = claim.account if claim is not None else ServiceAccount.objects.get(pk=params["account"])
    _budget_for_init(account)
    try:
        if claim is not None:
            check_claim(claim, tab=FIRST_TAB)
        backend = init_sheet(form, user, account, f"gsheet:{claim.spreadsheet_id}" if claim else "gsheet:new")
        created = register(user, spreadsheet_id=backend.spreadsheet_id, account=account,
                           title=form.cleaned_data["name"], kind=form.cleaned_data["kind"],
                           language=form.cleaned_data["language"])
    except ClaimRefused as exc:
        raise Refused.of(exc) from None
    if claim is not None:
        Claim.objects.filter(pk=claim.pk).update(proved_at=created.created_at)
    jobs.request_sync(created, "created", user=user)
    return {"slug": created.slug}


# -- the page that follows them ---------------------------------------------------------------------------
def _own_job(request: HttpRequest, job_id: int) -> Job:
    """The signed-in organizer's job without a tournament; 404 to anyone else."""
    return get_object_or_404(Job, pk=job_id, tournament__isnull=True, owner=request.user, action__in=(CHECK, NEW))


def _refused_page(request: HttpRequest, job: Job, lang: str) -> HttpResponse:
    """The form the job came from, with the refusal in the page's language."""
    failure = ((job.result or {}).get("messages") or {}).get(lang) or word("organizer.job.crashed", lang)
    if job.action == CHECK:
        claim = Claim.objects.filter(pk=job.params.get("claim"), user=request.user).select_related("account").first()
        context = {"error": failure, "claim": claim if claim and claim.proved_at is None else None,
                   "account": claim.account if claim else None}
        return render(request, "accounts/add.html", context)
    form = NewTournamentForm(initial=job.params.get("data") or {}, lang=lang)
    account = ServiceAccount.objects.filter(pk=job.params.get("account")).first()
    return render(request, "accounts/new.html", {"form": form, "account": account, "error": failure,
                                                 "default_preset": DEFAULT_PRESET, "season_preset": SEASON_PRESET})


def _waiting(job: Job, lang: str) -> str:
    return word(f"organizer.job.waiting.{job.waiting}", lang) if job.status == Job.QUEUED and job.waiting else ""


@login_required
@require_safe
def account_job(request: HttpRequest, job_id: int) -> HttpResponse:
    """The claim check or the new tournament: waiting (the page follows it), done (on to the
    tournament), or refused (the form again, with why)."""
    job = _own_job(request, job_id)
    lang = request_language(request)
    if job.status == Job.DONE:
        done = Tournament.objects.filter(slug=(job.result or {}).get("slug"), memberships__user=request.user).first()
        if done is not None:
            key = "add.done" if job.action == CHECK else "new.done.app" if settings.MODE == "app" else "new.done"
            messages.success(request, word(key, lang, code=(job.result or {}).get("code", ""),
                                           file=(job.result or {}).get("file", "")))
            return redirect("tournament", done.slug)
        return redirect("tournaments")
    if job.status == Job.FAILED:
        return _refused_page(request, job, lang)
    return render(request, "accounts/job.html", {"job": job, "waiting": _waiting(job, lang),
                                                 "status_url": reverse("account_job_status", args=[job.pk])})


@login_required
@require_safe
def account_job_status(request: HttpRequest, job_id: int) -> JsonResponse:
    job = _own_job(request, job_id)
    return JsonResponse({"id": job.pk, "action": job.action, "status": job.status, "waiting": job.waiting,
                         "message": _waiting(job, request_language(request))})
