"""The players' pages (no sign-in): the registration form ``/apply/<slug>/``, the player's own page
``/me/<token>/`` (his state, his number on the waiting list, withdraw, the excused round, the
Telegram link) and the self check-in ``/checkin/<slug>/`` with the code shown in the hall.

The form is throttled per client address (:data:`APPLICATIONS`) and says when to try again; the
check-in's code per address too (:data:`CHECKINS`: a code of six digits is no secret to a robot).
Every change goes to the sheet through the registration writer; the pages never read the sheet."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from scoring import labels as L
from scoring.model import ApplicationState
from scoring.names import fold
from sheets_sync.web import throttle
from sheets_sync.web.messaging.links import telegram_link
from sheets_sync.web.models import Application, Tournament
from sheets_sync.web.registration.applications import (Taken, application_for, create_application, queue_change,
                                                       same_nickname, set_state, similar_nicknames, waiting_place)
from sheets_sync.web.registration.desk import deadline, excuse_until, is_open, local_moment, places_left, read_desk
from sheets_sync.web.registration.forms import ApplyForm, CheckinForm
from sheets_sync.web.words import request_language, word

__all__ = ["apply", "my_application", "self_checkin", "APPLICATIONS", "CHECKINS", "moment_text"]

APPLICATIONS = throttle.Limit("apply", 5, throttle.HOUR)  # applications from one address: five, then one each 12 min
CHECKINS = throttle.Limit("checkin", 10, 600.0)  # check-in tries from one address: ten, then one a minute


def moment_text(desk: dict, moment) -> str:
    """A moment on the tournament's clock, as the Tournament tab writes it: 20.12.2026 18:00."""
    return local_moment(desk, moment).strftime("%d.%m.%Y %H:%M") if moment else ""


def _private(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-store"
    # the player's token is in /me/'s address: never sent to another site (same-origin, not no-referrer:
    # with no-referrer a browser sends «Origin: null» with the page's own form, and CSRF refuses it)
    response["Referrer-Policy"] = "same-origin"
    return response


def _tournament(slug: str) -> Tournament:
    tournament = Tournament.objects.filter(slug=slug, public=True).first()
    if tournament is None:
        raise Http404("no such tournament")
    return tournament


def _form_context(tournament: Tournament, desk: dict, lang: str) -> dict:
    """The form's facts in words: until when, the places left, or why it is closed."""
    left, until, now = places_left(tournament, desk), moment_text(desk, deadline(desk)), timezone.now()
    facts = [word("reg.until", lang, until=until)] if until else []
    if left is not None:
        facts.append(word("reg.places", lang, places=desk["places"], left=left) if left else word("reg.full", lang))
    closed = ""
    if not is_open(tournament, desk, now):
        late = tournament.registration_open and until
        closed = word("reg.closed.deadline", lang, until=until) if late else word("reg.closed", lang)
    return {"tournament": tournament, "open": not closed, "closed": closed, "facts": facts}


@require_http_methods(["GET", "POST"])
def apply(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, lang = _tournament(slug), request_language(request)
    desk = read_desk(tournament)
    context = _form_context(tournament, desk, lang)
    if request.method == "GET" or not context["open"]:
        return _private(render(request, "registration/apply.html", {**context, "form": ApplyForm(lang=lang)}))
    form = ApplyForm(request.POST, lang=lang)
    if not form.is_valid():
        return _private(render(request, "registration/apply.html", {**context, "form": form}, status=400))
    nickname = form.cleaned_data["nickname"]
    if same_nickname(tournament, nickname):  # one player to a protocol: no second row of one name
        form.add_error("nickname", word("reg.taken", lang, nickname=nickname))
        return _private(render(request, "registration/apply.html", {**context, "form": form}, status=400))
    # «Нет, я другой игрок» answers for the nickname it was asked about, not for one changed since
    similar = [] if request.POST.get("not_me") == nickname else similar_nicknames(tournament, nickname)
    if similar:  # «Это вы?»: asked, not stored twice
        asked = word("reg.similar", lang, names=", ".join(f"«{n}»" for n in similar))
        return _private(render(request, "registration/apply.html", {**context, "form": form, "similar": asked}))
    wait = throttle.take(APPLICATIONS, throttle.client_address(request))
    if wait:
        said = word("reg.throttled", lang, wait=throttle.wait_words(wait, lang))
        response = render(request, "registration/apply.html", {**context, "form": form, "refused": said}, status=429)
        response["Retry-After"] = str(int(wait) + 1)
        return _private(response)
    try:
        app = create_application(tournament, form.cleaned_data)
    except Taken:
        form.add_error("nickname", word("reg.taken", lang, nickname=nickname))
        return _private(render(request, "registration/apply.html", {**context, "form": form}, status=400))
    return _private(redirect(f"/me/{app.token}/?new=1"))


def _me_context(app: Application, lang: str) -> dict:
    desk = read_desk(app.tournament)
    until = excuse_until(desk)
    rounds = desk.get("rounds") or 0
    place, until_text = waiting_place(app), moment_text(desk, until)
    return {"app": app, "tournament": app.tournament, "state_text": word(f"me.state.{app.state}", lang),
            "place": place, "place_text": word("me.waiting.place", lang, place=place) if place else "",
            "telegram": telegram_link(app), "rounds": range(1, rounds + 1),
            "excused_text": word("me.excuse.asked", lang, round=app.excused_round) if app.excused_round else "",
            "excuse_until": until_text, "excuse_until_text": word("me.excuse.until", lang, until=until_text),
            "excuse_late_text": word("me.excuse.late", lang, until=until_text),
            "excuse_late": until is not None and timezone.now() > until,
            "pending": app.written_at is None or app.writes.filter(written_at__isnull=True).exists(),
            "withdrawn": app.state == ApplicationState.WITHDRAWN.value, "language": desk.get("language") or lang}


def _excuse(request: HttpRequest, app: Application, context: dict, lang: str) -> str:
    """The player asks to skip a round: refused past the notice, or a second time."""
    if context["excuse_late"] or context["withdrawn"]:
        return word("me.excuse.late", lang, until=context["excuse_until"])
    if app.excused_round is not None:
        return word("me.excuse.once", lang)
    try:
        wanted = int(request.POST.get("round", ""))
    except ValueError:
        wanted = 0
    if wanted not in context["rounds"]:
        return word("me.excuse.bad", lang, rounds=len(context["rounds"]))
    queue_change(app.tournament, app.nickname, {"excused": str(wanted)}, {"excused": ""}, application=app)
    Application.objects.filter(pk=app.pk).update(excused_round=wanted)
    return word("me.excuse.asked", lang, round=wanted)


@require_http_methods(["GET", "POST"])
def my_application(request: HttpRequest, token: str) -> HttpResponse:
    app, lang = application_for(token), request_language(request)
    context = _me_context(app, lang)
    said = ""
    if request.method == "POST":
        if request.POST.get("action") == "withdraw" and not context["withdrawn"]:
            set_state(app, ApplicationState.WITHDRAWN, context["language"])
            said = word("me.withdrawn", lang)
        elif request.POST.get("action") == "excuse":
            said = _excuse(request, app, context, lang)
        app.refresh_from_db()
        context = _me_context(app, lang)
    return _private(render(request, "registration/me.html", {**context, "said": said, "new": request.GET.get("new") == "1"}))


def _checkin_row(tournament: Tournament, nickname: str) -> tuple[str, bool] | None:
    """The sheet's row of a player taking part (his nickname as written, arrived already)."""
    probe = fold(nickname)
    row = next((r for r in read_desk(tournament).get("rows", ()) if fold(r["nickname"]) == probe and r.get("checks_in")), None)
    return (row["nickname"], row["arrived"]) if row else None


@require_http_methods(["GET", "POST"])
def self_checkin(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, lang = _tournament(slug), request_language(request)
    context: dict = {"tournament": tournament, "off": not tournament.checkin_code}
    if request.method == "GET" or context["off"]:
        return _private(render(request, "registration/checkin.html", {**context, "form": CheckinForm(lang=lang)}))
    form = CheckinForm(request.POST, lang=lang)
    wait = throttle.take(CHECKINS, throttle.client_address(request))
    if wait:
        said = word("checkin.throttled", lang, wait=throttle.wait_words(wait, lang))
        return _private(render(request, "registration/checkin.html", {**context, "form": form, "refused": said}, status=429))
    row = _checkin_row(tournament, form.data.get("nickname", "")) if form.is_valid() else None
    if row is None or form.cleaned_data["code"].strip() != tournament.checkin_code:
        return _private(render(request, "registration/checkin.html",
                               {**context, "form": form, "refused": word("checkin.bad", lang)}, status=400))
    nickname, arrived = row
    if not arrived:
        language = read_desk(tournament).get("language") or "ru"
        app = Application.objects.filter(tournament=tournament, nickname=nickname).first()
        queue_change(tournament, nickname, {"arrived": L.word("yes", language)}, {"arrived": ""}, application=app)
    return _private(render(request, "registration/checkin.html",
                           {**context, "form": CheckinForm(lang=lang), "done": word("checkin.done", lang, nickname=nickname)}))

