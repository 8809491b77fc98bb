"""Applications in the server: made from the public form, found by the player's token, changed by
the pages (each change queued for the registration writer), deleted on request.

The player's link is ``/me/<token>/``: ``secrets.token_urlsafe(32)``, looked up by its SHA-256 and
compared in constant time; an unknown or deleted token is a 404, the same as a malformed one. The
Telegram ``/start`` code is a random one of its own (never the token: a code shown to a bot is no key)."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from django.db import IntegrityError, transaction
from django.http import Http404
from django.utils import timezone

from scoring.model import ApplicationState
from scoring.names import distance, fold
from scoring.registration import state_word
from sheets_sync.web.models import Application, RegistrationWrite, Tournament
from sheets_sync.web.registration.desk import places_left, read_desk
from sheets_sync.web.registration.writer import request_write

__all__ = ["create_application", "application_for", "same_nickname", "similar_nicknames", "queue_change",
           "waiting_place", "set_state", "Taken", "known_nicknames"]


class Taken(Exception):
    """The nickname (or one a protocol could not tell from it) has applied already."""


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def known_nicknames(tournament: Tournament) -> list[str]:
    """Every nickname the tournament knows: its applications' and the sheet's rows (the last sync's)."""
    ours = list(Application.objects.filter(tournament=tournament).values_list("nickname", flat=True))
    return ours + [r["nickname"] for r in read_desk(tournament).get("rows", ())]


def same_nickname(tournament: Tournament, nickname: str) -> str | None:
    """The known nickname of the same fold («Пума», «пума», «Пyма»): one player to a protocol."""
    probe = fold(nickname)
    return next((n for n in known_nicknames(tournament) if fold(n) == probe), None)


def similar_nicknames(tournament: Tournament, nickname: str) -> list[str]:
    """Known nicknames a letter or two away (a third of the name at most): «Это вы?»."""
    probe = fold(nickname)
    most = max(1, min(2, len(probe) // 3))
    return sorted({n for n in known_nicknames(tournament) if 0 < distance(probe, fold(n)) <= most})[:3]


def create_application(tournament: Tournament, data: dict) -> Application:
    """A new application from the form's cleaned ``data``: submitted, or waiting past the places;
    queued for the writer. Raises :class:`Taken` for a nickname of the same fold."""
    if same_nickname(tournament, data["nickname"]):
        raise Taken(data["nickname"])
    left = places_left(tournament, read_desk(tournament))
    state = ApplicationState.WAITING if left == 0 else ApplicationState.SUBMITTED
    token = secrets.token_urlsafe(32)
    fields = {k: data.get(k) or "" for k in ("nickname", "club", "city", "telegram", "vk", "email", "phone", "rating")}
    try:
        with transaction.atomic():
            app = Application.objects.create(tournament=tournament, **fields, mwt_id=data.get("mwt_id"),
                                             state=state.value, applied_at=timezone.now(), token=token,
                                             token_hash=_hash(token), start_code=secrets.token_urlsafe(16))
    except IntegrityError:  # the same nickname sent twice at once: one application
        raise Taken(data["nickname"]) from None
    from sheets_sync.web.signals import application_state_changed

    application_state_changed.send(sender=Application, application=app, old="", new=app.state)  # "" = new
    request_write(tournament)
    return app


def application_for(token: str) -> Application:
    """The application of ``token``; else 404 (unknown, deleted, malformed: all alike)."""
    if not token or len(token) > 100:
        raise Http404("no such application")
    app = Application.objects.select_related("tournament").filter(token_hash=_hash(token)).first()
    if app is None or not hmac.compare_digest(app.token.encode(), token.encode("utf-8", "replace")):
        raise Http404("no such application")
    return app


def queue_change(tournament: Tournament, nickname: str, cells: dict, base: dict,
                 application: Application | None = None) -> RegistrationWrite:
    """A change of a Players-tab row for the writer (``cells``: column key → text, ``base``: what
    the server knew the cell held)."""
    change = RegistrationWrite.objects.create(tournament=tournament, application=application, nickname=nickname,
                                              cells=cells, base=base)
    request_write(tournament)
    return change


def set_state(app: Application, state: ApplicationState, language: str) -> RegistrationWrite:
    """Write ``state`` into the application's «Заявка» (the server's copy follows at once; the next
    sync's mirror says what the sheet holds)."""
    old = ApplicationState(app.state)
    if state is not old:  # first the server's copy and its signal: the writer's sync may mirror the sheet at once
        from sheets_sync.web.signals import application_state_changed

        Application.objects.filter(pk=app.pk).update(state=state.value)
        app.state = state.value
        application_state_changed.send(sender=Application, application=app, old=old.value, new=state.value)
    change = queue_change(app.tournament, app.nickname, {"application": state_word(state, language)},
                          {"application": state_word(old, language)}, application=app)
    return change


def waiting_place(app: Application) -> int | None:
    """His number on the waiting list (in the order applied), None when he is not on it."""
    if app.state != ApplicationState.WAITING.value:
        return None
    return Application.objects.filter(tournament=app.tournament, state=app.state,
                                      applied_at__lt=app.applied_at).count() + 1
