"""A freed place goes to the first in line (issue 45): after each sync, before «Начало», the
waiting applications that :func:`scoring.registration.promotions` names get «подтверждена» written
into their «Заявка» by the registration writer — only while the cell still says «лист ожидания»
(never over a person's typing).  The server's copy is not changed here: once the writer has written
the cell and the next sync's mirror reads it, :data:`~sheets_sync.web.signals.application_state_changed`
(waiting → confirmed) queues the player's «Освободилось место» message, so a write refused by a
person's typing tells nobody a lie.

Each promotion once: a row that has had a promotion queued (written or not) gets no second one —
a sync before the writer's write sees the row still waiting and must not queue the change again,
and an organizer who puts a promoted player back on the waiting list by hand is not overruled."""

from __future__ import annotations

from django.utils import timezone

from scoring.model import ApplicationState
from scoring.names import fold
from scoring.preset import RegistrationRule
from scoring.registration import promotions, state_word
from sheets_sync import clock
from sheets_sync.web.models import Application, RegistrationWrite, Tournament
from sheets_sync.web.registration.applications import queue_change

__all__ = ["promote", "tournament_now"]


def tournament_now(time_zone: str, moment=None):
    """``moment`` (now) as the tournament's clock shows it, naive: what :mod:`scoring.registration` compares."""
    zone = clock.zone(time_zone or "") or timezone.get_default_timezone()
    return timezone.localtime(moment or timezone.now(), zone).replace(tzinfo=None)


def _promoted_before(tournament: Tournament, nickname: str, confirmed: str, waiting: str) -> bool:
    key = fold(nickname)
    return any(fold(w.nickname) == key and w.cells.get("application") == confirmed and w.base.get("application") == waiting
               for w in RegistrationWrite.objects.filter(tournament=tournament, cells__has_key="application"))


def promote(tournament: Tournament, outcome, moment=None) -> list[str]:
    """Queue the promotions the sheet (as the sync read it) calls for; the nicknames queued."""
    sheet = outcome.results.tournament
    rule = getattr(outcome.preset, "registration", None) or RegistrationRule()
    moving = promotions(sheet, rule, tournament_now(sheet.time_zone, moment))
    if not moving:
        return []
    language = outcome.language or "ru"
    confirmed = state_word(ApplicationState.CONFIRMED, language)
    waiting = state_word(ApplicationState.WAITING, language)
    ours = {fold(a.nickname): a for a in Application.objects.filter(tournament=tournament)}
    queued = []
    for application in moving:
        if _promoted_before(tournament, application.nickname, confirmed, waiting):
            continue
        queue_change(tournament, application.nickname, {"application": confirmed}, {"application": waiting},
                     application=ours.get(fold(application.nickname)))
        queued.append(application.nickname)
    return queued
