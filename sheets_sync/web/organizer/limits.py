"""What holds a button press back before it becomes a job: the same draw or export already waiting
in the queue (the organizer is shown that job instead of queueing a twin), and the per-organizer
press limit (:data:`sheets_sync.web.throttle.PRESSES`: a burst, then a short wait, said in the
page's language with when to press again). Every job is work for the workers and Google requests
from the service account's one budget, so a held-down button must not queue dozens."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

from sheets_sync.web import runners, throttle
from sheets_sync.web.models import Job, Tournament
from sheets_sync.web.organizer.buttons import BUTTONS, form_for, params_of
from sheets_sync.web.words import request_language, word

__all__ = ["press_held", "TWIN_ACTIONS"]

TWIN_ACTIONS = (runners.DRAW, *runners.EXPORTS)  # a second one while the first waits would only redo it


def press_held(request: HttpRequest, tournament: Tournament, action: str) -> HttpResponse | None:
    """The answer to a press that must not become a job (the waiting twin's page, or the tournament's
    page saying when to press again); None: go on with the press."""
    button = BUTTONS.get(action)
    if button is None or tournament.kind not in button.kinds:
        return None  # the view says 404
    lang = request_language(request)
    twin = _waiting_twin(request, tournament, action)
    if twin is not None:
        messages.info(request, word("organizer.press.twin", lang))
        return redirect("job", slug=tournament.slug, job_id=twin.pk)
    wait = throttle.take(throttle.PRESSES, request.user.pk)
    if wait:
        messages.error(request, word("organizer.press.toofast", lang, wait=throttle.wait_words(wait, lang)))
        return redirect("tournament", slug=tournament.slug)
    return None


def _waiting_twin(request: HttpRequest, tournament: Tournament, action: str) -> Job | None:
    """A queued job of the same action and fields for this tournament (not one running: a press after
    it starts may want the sheet as it is now)."""
    if action not in TWIN_ACTIONS:
        return None
    form = form_for(BUTTONS[action], request.POST, tournament, "ru")  # the language says no choice's value
    if not form.is_valid():
        return None
    params = params_of(form)
    waiting = Job.objects.filter(tournament=tournament, action=action, status=Job.QUEUED).order_by("pk")
    return next((job for job in waiting if job.params == params), None)
