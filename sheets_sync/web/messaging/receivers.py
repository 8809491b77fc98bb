"""The players' messages queued from the server's signals (:mod:`sheets_sync.web.signals`):
an application's new state, and after each sync the seating's tables and seats and the stages
reached — each message once (its outbox key), to the player whose application's nickname sits
there. Connected when the app is ready (:class:`sheets_sync.web.apps.WebConfig`)."""

from __future__ import annotations

from django.db import transaction
from django.dispatch import receiver

from sheets_sync.web.messaging import outbox
from sheets_sync.web.messaging.texts import Planned, seat_plan, state_text
from sheets_sync.web.models import Application, OutboxMessage
from sheets_sync.web.signals import application_state_changed, sync_finished

__all__ = ["on_state_changed", "on_sync_finished", "queue_seating"]


@receiver(application_state_changed, dispatch_uid="messaging-state")
def on_state_changed(sender, application, old, new, **kwargs) -> None:  # noqa: ARG001 - a signal's receiver
    text = state_text(application.tournament.title, old or "", new)
    if text and not old and outbox.channel_of(application) == OutboxMessage.EMAIL:
        text += own_page_line(application)  # by mail the first letter brings back the page «Заявка принята»
    if text:
        outbox.queue(application, "state", f"state:{application.pk}:{new}", text, {"old": old or "", "new": new})


def own_page_line(application: Application) -> str:
    """The player's own page (withdraw, the excused round) where the server knows its public address."""
    from sheets_sync.web.jobs import public_base

    base = public_base()
    return f"\n\nВаша страница заявки: {base}/me/{application.token}/" if base else ""


@receiver(sync_finished, dispatch_uid="messaging-seating")
def on_sync_finished(sender, tournament, outcome, snapshot, **kwargs) -> None:  # noqa: ARG001
    if not Application.objects.filter(tournament=tournament).exists():
        return  # no registration on the server: nobody to tell (and a 1,000-player race's seating is not walked)
    results = outcome.results
    stages = [(s.key, s.name(tournament.language or "ru")) for s in results.preset.stages]
    from sheets_sync.web.jobs import public_link

    plans = seat_plan(tournament.title or results.tournament.name, results.tournament.seating, stages,
                      played={p.key for p in results.tournament.protocols if p.finished}, link=public_link(tournament) or results.tournament.link or None)
    queue_seating(tournament, plans)


def queue_seating(tournament, plans: list[Planned]) -> int:
    """Queue the planned messages of the players with an application; a round whose seat a
    message already told and that the seating changed since is told again («Рассадка изменилась»)."""
    if not plans:
        return 0
    by_nickname = {a.nickname: a for a in Application.objects.filter(tournament=tournament)}
    plans = [p for p in plans if p.nickname in by_nickname]
    told: dict[str, dict] = {}  # a round's key → what its latest message said (pk order: the latest wins)
    for m in OutboxMessage.objects.filter(application__tournament=tournament, kind="seat").only("key", "params").order_by("pk"):
        told[":".join(m.key.split(":")[:5])] = m.params
    rows = []
    for plan in plans:
        application = by_nickname[plan.nickname]
        key = f"{plan.key.split(':')[0]}:{tournament.pk}:{plan.key.partition(':')[2]}:{application.pk}"
        before = told.get(key)
        if before is not None and plan.kind == "seat" and _moved(before, plan.params):
            key = f"{key}:{plan.params['table']}:{plan.params['seat']}"
            rows.append((application, plan.kind, key, "Рассадка изменилась. " + plan.text, plan.params))
            continue
        rows.append((application, plan.kind, key, plan.text, plan.params))
    with transaction.atomic():
        return outbox.queue_many(rows)


def _moved(before: dict, now: dict) -> bool:
    return (before.get("table"), before.get("seat")) != (now.get("table"), now.get("seat"))

