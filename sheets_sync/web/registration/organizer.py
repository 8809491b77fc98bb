"""The organizer's registration pages: ``/o/<slug>/applications/`` (the list with the contacts and
states, a state set with a button, a player's data deleted on request, the form opened and closed)
and ``/o/<slug>/checkin/`` (a phone list to tick arrivals, and the hall's code of the self check-in).

Only the tournament's organizers: each view finds its tournament through
:func:`sheets_sync.web.access.tournament_for` (another organizer gets the same 404 as for no
tournament, and never a contact). A state or an arrival is written into the sheet by the
registration writer; the sheet wins (:mod:`sheets_sync.web.registration.mirror`)."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from scoring import labels as L
from scoring.model import ApplicationState
from scoring.names import fold
from scoring.registration import state_word
from sheets_sync.web.access import tournament_for
from sheets_sync.web.models import Application, RegistrationWrite, Tournament
from sheets_sync.web.registration.applications import queue_change, set_state
from sheets_sync.web.registration.desk import places_taken, read_desk
from sheets_sync.web.registration.pages import moment_text
from sheets_sync.web.words import request_language, word

__all__ = ["applications", "checkin"]


def _conflicts(tournament: Tournament, lang: str) -> list[dict]:
    """The last changes the writer did not write over a person's typing (the page says where)."""
    found, since = [], timezone.now() - timedelta(hours=12)  # today's: an old refusal is no news
    for change in RegistrationWrite.objects.filter(tournament=tournament, written_at__gte=since).order_by("-pk")[:20]:
        found += [{**c, "text": word("apps.conflict", lang, cell=c["cell"], sheet=c["sheet"])}
                  for c in change.result.get("conflicts", [])]
    return found


def _rows(tournament: Tournament, desk: dict, language: str, lang: str) -> list[dict]:
    pending = set(RegistrationWrite.objects.filter(tournament=tournament, written_at__isnull=True)
                  .values_list("application_id", flat=True))
    return [{"app": app, "state": state_word(ApplicationState(app.state), language),
             "applied": moment_text(desk, app.applied_at), "written": app.written_at is not None,
             "pending": app.pk in pending, "contacts": [c for c in (app.telegram, app.vk, app.email, app.phone) if c],
             "delete_sure": word("apps.delete.sure", lang, nickname=app.nickname)}
            for app in Application.objects.filter(tournament=tournament).order_by("applied_at", "pk")]


def _press(request: HttpRequest, tournament: Tournament, language: str, lang: str) -> None:
    action = request.POST.get("action")
    if action in ("open", "close"):
        Tournament.objects.filter(pk=tournament.pk).update(registration_open=action == "open")
        return
    app = get_object_or_404(Application, pk=request.POST.get("application") or 0, tournament=tournament)
    if action == "state":
        try:
            state = ApplicationState(request.POST.get("state", ""))
        except ValueError:
            return
        set_state(app, state, language)
        messages.success(request, word("apps.queued", lang, nickname=app.nickname, state=state_word(state, language)))
    elif action == "delete":  # on the player's request (GDPR): his contacts, link and chat leave the server
        nickname = app.nickname
        app.delete()
        messages.success(request, word("apps.deleted", lang, nickname=nickname))


@login_required
@require_http_methods(["GET", "POST"])
def applications(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, lang = tournament_for(request, slug), request_language(request)
    desk = read_desk(tournament)
    language = desk.get("language") or tournament.language or "ru"
    if request.method == "POST":
        _press(request, tournament, language, lang)
        return redirect("applications", tournament.slug)
    tournament.refresh_from_db()
    rows = _rows(tournament, desk, language, lang)
    places = desk.get("places")
    count = word("apps.count", lang, n=len(rows), taken=places_taken(tournament, desk),
                 places=word("apps.of_places", lang, places=places) if places else "")
    states = [(s.value, state_word(s, language)) for s in ApplicationState]
    return render(request, "registration/applications.html", {
        "tournament": tournament, "rows": rows, "count": count, "states": states, "conflicts": _conflicts(tournament, lang),
        "apply_url": request.build_absolute_uri(f"/apply/{tournament.slug}/")})


def _checkin_rows(tournament: Tournament, desk: dict) -> list[dict]:
    ticked = {fold(c.nickname) for c in RegistrationWrite.objects.filter(tournament=tournament, written_at__isnull=True)
              if "arrived" in c.cells}
    rows = [r for r in desk.get("rows", ()) if r.get("checks_in")]
    return sorted(({"nickname": r["nickname"], "arrived": r["arrived"] or fold(r["nickname"]) in ticked,
                    "pending": fold(r["nickname"]) in ticked} for r in rows), key=lambda r: (r["arrived"], r["nickname"].casefold()))


@login_required
@require_http_methods(["GET", "POST"])
def checkin(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, lang = tournament_for(request, slug), request_language(request)
    desk = read_desk(tournament)
    if request.method == "POST":
        if request.POST.get("action") == "code":
            code = f"{secrets.randbelow(10 ** 6):06d}"
            Tournament.objects.filter(pk=tournament.pk).update(checkin_code=code)
        elif request.POST.get("action") == "arrived":
            nickname = request.POST.get("nickname", "")
            row = next((r for r in desk.get("rows", ()) if r["nickname"] == nickname and r.get("checks_in")), None)
            if row is not None and not row["arrived"]:
                language = desk.get("language") or "ru"
                app = Application.objects.filter(tournament=tournament, nickname=nickname).first()
                queue_change(tournament, nickname, {"arrived": L.word("yes", language)}, {"arrived": ""}, application=app)
        return redirect("checkin_list", tournament.slug)
    tournament.refresh_from_db()
    rows = _checkin_rows(tournament, desk)
    return render(request, "registration/checkin_list.html", {
        "tournament": tournament, "rows": rows, "synced": bool(desk),
        "count": word("checkin.org.count", lang, n=sum(r["arrived"] for r in rows), total=len(rows)),
        "checkin_url": request.build_absolute_uri(f"/checkin/{tournament.slug}/")})
