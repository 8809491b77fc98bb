"""The outbox the players' messages are sent from (issue 45 §4): never twice, never lost.

* :func:`queue` / :func:`queue_many`: a row per message, in the transaction of the event that
  caused it; its ``key`` is unique, so the same message queued again is the same row.
* :class:`Sender`: one pass over the queued rows — each row is marked ``sending`` (a conditional
  update: one sender wins it) before the call and ``sent`` after. What the call's failure says
  decides the rest: refused before sending, or a 429 (wait its ``retry_after``) → queued again;
  refused for good (the bot blocked) → ``failed``; no answer (the request left, nothing came
  back) → ``uncertain``: it may have arrived, so it is never sent again by itself.
* :class:`Pace`: Telegram's limits — at most 30 messages a second overall and one a second to a
  chat — and the pause a 429 asks for.
* :func:`take_lease`: one loop sends and polls at a time in the whole server; whoever takes the
  lease anew finds any row still ``sending`` left by a loop that died in its call, and marks it
  ``uncertain`` for the organizer.

No chat id nor e-mail address is logged: rows are named by their number.
"""

from __future__ import annotations

import logging
import os
import smtplib
import time
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone

from sheets_sync.web.messaging.telegram import BotApi, MaybeSent, NotSent, Refused, TooMany
from sheets_sync.web.models import Application, BotState, OutboxMessage

__all__ = ["LEASE", "channel_of", "mail_goes_out", "queue", "queue_many", "Pace", "Sender", "take_lease", "release_lease",
           "left_uncertain"]

log = logging.getLogger("sheets_sync.web.messaging")

LEASE = timedelta(seconds=float(os.environ.get("SHEETS_SYNC_BOT_LEASE", "30")))
PER_SECOND = 30  # Telegram: about 30 messages a second to different chats
PER_CHAT = 1.0  # … and one a second to the same chat
BATCH = 200


def channel_of(application: Application) -> str | None:
    """How a message reaches the player now: his linked chat, else his e-mail; None when he gave
    neither or said /stop (then nothing is queued)."""
    if application.chat_id is not None:
        return OutboxMessage.TELEGRAM if application.chat_stopped_at is None else None
    return OutboxMessage.EMAIL if application.email and mail_goes_out() else None


def mail_goes_out() -> bool:
    """Whether the server sends mail: without an SMTP server the mail is written to the server's
    log (:mod:`sheets_sync.web.mail`), where a player's address and messages have no business."""
    from django.conf import settings

    return settings.EMAIL_BACKEND != "sheets_sync.web.mail.LogEmailBackend"


def _row(application: Application, kind: str, key: str, text: str, params: dict | None) -> OutboxMessage | None:
    channel = channel_of(application)
    if channel is None:
        return None
    return OutboxMessage(application=application, kind=kind, channel=channel, key=key[:200], text=text,
                         params=params or {})


def queue(application: Application, kind: str, key: str, text: str, params: dict | None = None) -> OutboxMessage | None:
    """Queue one message (the same ``key`` again: the row already there)."""
    row = _row(application, kind, key, text, params)
    if row is None:
        return None
    found, _ = OutboxMessage.objects.get_or_create(key=row.key, defaults={
        "application": application, "kind": kind, "channel": row.channel, "text": text, "params": row.params})
    return found


def queue_many(messages: Iterable[tuple[Application, str, str, str, dict | None]]) -> int:
    """Queue many at once (a round's seating for every player): the keys already queued are
    skipped; returns how many were new."""
    rows = [r for r in (_row(*m) for m in messages) if r is not None]
    if not rows:
        return 0
    known = set(OutboxMessage.objects.filter(key__in=[r.key for r in rows]).values_list("key", flat=True))
    fresh = [r for r in rows if r.key not in known]
    OutboxMessage.objects.bulk_create(fresh, ignore_conflicts=True)  # a concurrent sync's row wins
    return len(fresh)


class Pace:
    """Telegram's limits as waits: a message leaves at least 1/29 s after the one before (so
    no second holds more than 30), a chat hears at most once a second, and a 429 stops all
    sending for its ``retry_after``."""

    def __init__(self, per_second: int = PER_SECOND, per_chat: float = PER_CHAT, *,
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep) -> None:
        self.gap = 1.0 / (per_second - 1) if per_second > 1 else 1.0
        self.per_chat = per_chat * 1.02  # a margin: our clock and Telegram's see the moments differently
        self.clock, self.sleep = clock, sleep
        self._last = -1e9
        self._chats: dict[int, float] = {}
        self._paused_until = -1e9

    def chat_ready(self, chat_id: int) -> float:
        """Seconds until ``chat_id`` may hear again (0: now)."""
        return max(0.0, self._chats.get(chat_id, -1e9) + self.per_chat - self.clock())

    def wait_turn(self) -> None:
        """Wait for the next message's turn (the overall rate, a 429's pause)."""
        wait = max(self._last + self.gap, self._paused_until) - self.clock()
        if wait > 0:
            self.sleep(wait)

    def sent(self, chat_id: int | None) -> None:
        now = self.clock()
        self._last = now
        if chat_id is not None:
            self._chats[chat_id] = now

    def note(self, chat_id: int, at: float) -> None:
        """``chat_id`` heard at ``at`` (this clock's time)."""
        self._chats[chat_id] = max(self._chats.get(chat_id, -1e9), at)

    def pause(self, seconds: float) -> None:
        self._paused_until = max(self._paused_until, self.clock() + seconds)

    def forget_old(self) -> None:
        now = self.clock()
        self._chats = {c: t for c, t in self._chats.items() if now - t < self.per_chat}


def _set(row: OutboxMessage, expected: tuple[str, ...], **fields) -> bool:
    """Move the row on from one of the ``expected`` states (a conditional update: one sender wins)."""
    done = OutboxMessage.objects.filter(pk=row.pk, state__in=expected).update(**fields)
    for name, value in fields.items():
        setattr(row, name, value)
    return bool(done)


class Sender:
    """Sends the queued rows within the limits: :meth:`send_due` is one pass."""

    def __init__(self, api: BotApi | None, pace: Pace | None = None, *, mail: Callable[[str, str, str], None] | None = None) -> None:
        self.api = api
        self.pace = pace or Pace()
        self.mail = mail or _send_mail

    def remember_recent(self, now: datetime | None = None) -> None:
        """The chats the last holder of the lease wrote to within the last second (a new holder
        knows nothing of them otherwise): their second is kept here too."""
        now = now or timezone.now()
        recent = OutboxMessage.objects.filter(channel=OutboxMessage.TELEGRAM, sent_at__gte=now - timedelta(seconds=1.1))
        clock = self.pace.clock()
        for chat, sent_at in recent.values_list("application__chat_id", "sent_at"):
            if chat is not None:
                self.pace.note(chat, clock - (now - sent_at).total_seconds())

    def send_due(self, until: float | None = None) -> tuple[int, float]:
        """Send what is queued and may go now; returns (sent, seconds until a deferred one may go:
        0 when none waits for its chat)."""
        rows = OutboxMessage.objects.filter(state=OutboxMessage.QUEUED).select_related("application__tournament")
        sent, soonest = 0, 0.0
        for row in rows.order_by("pk")[:BATCH]:
            if until is not None and self.pace.clock() >= until:
                break
            chat = row.application.chat_id if row.channel == OutboxMessage.TELEGRAM else None
            if row.channel == OutboxMessage.TELEGRAM and (chat is None or row.application.chat_stopped_at):
                _set(row, (OutboxMessage.QUEUED,), state=OutboxMessage.FAILED, error="стоп: игрок отписался")
                continue
            if row.channel == OutboxMessage.EMAIL and not row.application.email:
                _set(row, (OutboxMessage.QUEUED,), state=OutboxMessage.FAILED, error="у игрока больше нет адреса почты")
                continue
            if row.channel == OutboxMessage.TELEGRAM and self.api is None:
                continue  # the server runs no bot (now): the rows wait for one
            wait = self.pace.chat_ready(chat) if chat is not None else 0.0
            if wait > 0:
                soonest = wait if not soonest else min(soonest, wait)
                continue
            self.pace.wait_turn()
            if not _set(row, (OutboxMessage.QUEUED,), state=OutboxMessage.SENDING, sending_at=timezone.now(),
                        attempts=row.attempts + 1):
                continue  # another sender took it
            sent += self._deliver(row, chat)
        self.pace.forget_old()
        return sent, soonest

    def _deliver(self, row: OutboxMessage, chat: int | None) -> int:
        try:
            if chat is not None:
                self.api.send_message(chat, row.text)
            else:
                self.mail(row.application.email, _subject(row), row.text)
        except TooMany as exc:
            self.pace.pause(exc.retry_after)
            _set(row, (OutboxMessage.SENDING,), state=OutboxMessage.QUEUED, error=f"429: ждём {exc.retry_after:g} с")
            log.info("outbox message %s: 429, waiting %s s", row.pk, exc.retry_after)
            return 0
        except Refused as exc:
            state = OutboxMessage.FAILED if exc.for_good else OutboxMessage.QUEUED
            _set(row, (OutboxMessage.SENDING,), state=state, error=_refusal(exc))
            if exc.code == 403 and chat is not None:  # blocked by the player: as good as his /stop (a /start undoes it)
                Application.objects.filter(chat_id=chat, chat_stopped_at__isnull=True).update(chat_stopped_at=timezone.now())
            log.warning("outbox message %s refused: %s", row.pk, exc.code)
            return 0
        except (NotSent, ConnectionRefusedError, smtplib.SMTPConnectError) as exc:
            self.pace.pause(5.0)
            _set(row, (OutboxMessage.SENDING,), state=OutboxMessage.QUEUED, error=f"не отправлено: {type(exc).__name__}")
            return 0
        except (smtplib.SMTPRecipientsRefused, smtplib.SMTPSenderRefused):
            _set(row, (OutboxMessage.SENDING,), state=OutboxMessage.FAILED, error="почтовый сервер не принял адрес")
            return 0
        except (MaybeSent, Exception) as exc:  # noqa: BLE001 - the request may have left: never again by itself
            _set(row, (OutboxMessage.SENDING,), state=OutboxMessage.UNCERTAIN, error=f"нет ответа: {type(exc).__name__}")
            log.warning("outbox message %s uncertain: %s", row.pk, type(exc).__name__)
            return 0
        finally:
            self.pace.sent(chat)
        _set(row, (OutboxMessage.SENDING, OutboxMessage.UNCERTAIN), state=OutboxMessage.SENT, sent_at=timezone.now(),
             error="")
        return 1


def _refusal(exc: Refused) -> str:
    """Why Telegram refused, in the organizer's words (Telegram's own description after it)."""
    said = {403: "игрок заблокировал бота или удалил чат", 400: "Telegram не принял сообщение"}.get(
        exc.code, "Telegram не ответил как надо, сообщение уйдёт позже")
    return f"{said} ({exc.code})"[:200]


def _subject(row: OutboxMessage) -> str:
    tournament = row.application.tournament
    return tournament.title or tournament.slug


def _send_mail(address: str, subject: str, text: str) -> None:
    from django.core.mail import send_mail

    send_mail(subject, text, None, [address])


# -- the lease ----------------------------------------------------------------------------------------
def take_lease(owner: str, now: datetime | None = None) -> bool:
    """Hold (or keep holding) the bot's lease. Taken anew: every row a dead holder left
    ``sending`` is marked ``uncertain`` (a holder sends only while it holds the lease and releases
    it only after its last call ended, so such a row's call was cut off)."""
    now = now or timezone.now()
    BotState.objects.get_or_create(pk=1)
    if BotState.objects.filter(pk=1, lease_owner=owner, lease_until__gte=now + LEASE / 2).exists():
        return True  # held, and long enough: no write every pass (SQLite serialises the writes)
    if BotState.objects.filter(pk=1, lease_owner=owner).update(lease_until=now + LEASE):
        return True
    free = Q(lease_until__isnull=True) | Q(lease_until__lt=now)
    if not BotState.objects.filter(free, pk=1).update(lease_owner=owner, lease_until=now + LEASE):
        return False
    left = left_uncertain()
    if left:
        log.warning("%d outbox message(s) were being sent when the bot's loop stopped: marked uncertain", left)
    return True


def left_uncertain() -> int:
    return OutboxMessage.objects.filter(state=OutboxMessage.SENDING).update(
        state=OutboxMessage.UNCERTAIN, error="отправка прервалась: сообщение могло дойти")


def release_lease(owner: str) -> None:
    BotState.objects.filter(pk=1, lease_owner=owner).update(lease_until=None, lease_owner="")
