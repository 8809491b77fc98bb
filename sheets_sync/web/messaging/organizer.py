"""The players' messages on the organizer's tournament page: how many were sent, wait, failed,
and those in doubt (a sending cut off by a crash: it may have arrived) with the organizer's two
choices — send it again, or count it as delivered. Never resent without him: the outbox sends a
message once as far as it can know (:mod:`sheets_sync.web.messaging.outbox`)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.views.decorators.http import require_POST

from sheets_sync.web.access import tournament_for
from sheets_sync.web.models import OutboxMessage, Tournament
from sheets_sync.web.words import request_language, word

__all__ = ["messages_context", "messages_press"]

SHOWN = 50  # rows in doubt or failed shown on the page


def messages_context(tournament: Tournament, lang: str) -> dict:
    """``player_messages`` for the page, or nothing when no message was ever queued."""
    rows = OutboxMessage.objects.filter(application__tournament=tournament)
    counts = dict(rows.values_list("state").annotate(n=Count("pk")).values_list("state", "n"))
    if not counts:
        return {}

    def listed(state: str) -> list[dict]:
        return [{"pk": m.pk, "player": m.application.nickname, "text": m.text, "why": m.error,
                 "at": m.sending_at or m.queued_at}
                for m in rows.filter(state=state).select_related("application").order_by("-pk")[:SHOWN]]

    return {"player_messages": {
        "counts": word("messages.counts", lang, **{s: counts.get(s, 0) for s in ("sent", "queued", "failed", "uncertain")}),
        "doubtful": listed(OutboxMessage.UNCERTAIN), "failed": listed(OutboxMessage.FAILED)}}


@login_required
@require_POST
def messages_press(request: HttpRequest, slug: str, op: str) -> HttpResponse:
    """A message in doubt: ``resend`` queues it again, ``delivered`` counts it as sent."""
    tournament = tournament_for(request, slug)
    lang = request_language(request)
    try:
        pk = int(request.POST.get("message", ""))
    except ValueError:
        raise Http404("no such message") from None
    doubtful = OutboxMessage.objects.filter(pk=pk, application__tournament=tournament, state=OutboxMessage.UNCERTAIN)
    if op == "resend":
        done = doubtful.update(state=OutboxMessage.QUEUED, error="")
        said = "messages.resent"
    elif op == "delivered":
        done = doubtful.update(state=OutboxMessage.SENT, sent_at=timezone.now(), error="")
        said = "messages.marked"
    else:
        raise Http404("no such press")
    if not done:
        raise Http404("no such message")
    messages.info(request, word(said, lang))
    return redirect(f"/o/{tournament.slug}/#player-messages")
