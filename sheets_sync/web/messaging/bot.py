"""The server's Telegram bot: the loop that reads the players' ``/start <code>`` and ``/stop``
(getUpdates) and sends the outbox, holding the bot's lease (one loop in the whole server).

It runs in every process with a worker (:class:`BotThread`, started beside the heartbeat by
:mod:`sheets_sync.web.serving`): with ``SHEETS_SYNC_TELEGRAM_TOKEN`` set, the process holding the
lease polls and sends; without it, the e-mails alone go. Or on its own: ``python -m sheets_sync.web.messaging.run --data DIR [--seconds N]``.

* ``/start <code>``: the application with that ``start_code`` gets this chat (a stopped chat
  starts again) and the player is told so through the outbox;
* ``/stop``: every application of the chat stops (``chat_stopped_at``), queued messages to it fail.
The offset of the next update is kept in :class:`~sheets_sync.web.models.BotState` after the
updates were handled: a crash in between handles them again, which changes nothing.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid

from django.db import transaction
from django.utils import timezone

from sheets_sync.web.messaging import outbox
from sheets_sync.web.messaging.telegram import BotApi, BotError, from_environment
from sheets_sync.web.messaging.texts import HELP, STOPPED, UNKNOWN_CODE, linked_text
from sheets_sync.web.models import Application, BotState, OutboxMessage

__all__ = ["BotLoop", "BotThread", "handle_update"]

log = logging.getLogger("sheets_sync.web.messaging")


def handle_update(update: dict) -> str | None:
    """Act on one update; returns a direct answer to send (None: the outbox tells, or nothing to say)."""
    message = update.get("message") or {}
    chat = (message.get("chat") or {})
    text = str(message.get("text") or "").strip()
    if chat.get("type") != "private" or not isinstance(chat.get("id"), int):
        return None
    chat_id = chat["id"]
    command, _, argument = text.partition(" ")
    command = command.split("@")[0].lower()
    if command == "/start" and argument.strip():
        return _link(chat_id, argument.strip()[:64], update.get("update_id"))
    if command == "/stop":
        now = timezone.now()
        with transaction.atomic():
            Application.objects.filter(chat_id=chat_id, chat_stopped_at__isnull=True).update(chat_stopped_at=now)
            OutboxMessage.objects.filter(application__chat_id=chat_id, state=OutboxMessage.QUEUED,
                                         channel=OutboxMessage.TELEGRAM).update(state=OutboxMessage.FAILED,
                                                                                error="стоп: игрок отписался")
        return STOPPED
    return HELP


def _link(chat_id: int, code: str, update_id) -> str | None:
    with transaction.atomic():
        application = Application.objects.select_for_update().select_related("tournament").filter(start_code=code).first()
        if application is None:
            return UNKNOWN_CODE
        application.chat_id, application.chat_stopped_at = chat_id, None
        application.save(update_fields=["chat_id", "chat_stopped_at", "updated_at"])
        outbox.queue(application, "linked", f"linked:{application.pk}:{update_id}", linked_text(application.tournament.title))
    return None


class BotLoop:
    """One holder of the bot's lease: polls the updates and sends the outbox until ``seconds`` pass."""

    def __init__(self, api: BotApi | None, *, pace: outbox.Pace | None = None, poll_wait: int = 1) -> None:
        self.api = api
        self.sender = outbox.Sender(api, pace)
        self.owner = f"bot-{uuid.uuid4().hex[:12]}"
        self.poll_wait = poll_wait

    def run(self, seconds: float, stop: threading.Event | None = None) -> bool:
        """Loop for ``seconds`` (or until ``stop``) if the lease is ours; False when another loop holds it."""
        if not outbox.take_lease(self.owner):
            return False
        self.sender.remember_recent()  # the last holder's messages of the last second count against their chats
        clock = self.sender.pace.clock
        end = clock() + seconds
        try:
            while clock() < end and not (stop is not None and stop.is_set()):
                if not outbox.take_lease(self.owner):
                    return True  # lost it (a pause longer than the lease): the other holder goes on
                self.step(until=end)
        finally:
            outbox.release_lease(self.owner)
        return True

    def step(self, until: float | None = None) -> int:
        """Send what may go, then read the updates (waiting for one only when nothing is to be sent)."""
        sent, soonest = self.sender.send_due(until=until)
        busy = OutboxMessage.objects.filter(state=OutboxMessage.QUEUED).exists()
        if self.api is not None:
            self.poll(0 if busy else self.poll_wait)
            if busy and soonest:
                time.sleep(min(soonest, 0.2))  # a chat's second: the next pass sends it
        elif not sent:  # no bot: the e-mails alone (Telegram's rows wait for a token)
            time.sleep(min(soonest, 1.0) if soonest else self.poll_wait)
        return sent

    def poll(self, wait: int) -> int:
        state = BotState.objects.get(pk=1)
        try:
            updates = self.api.get_updates(state.offset, wait)
        except BotError as exc:
            log.warning("the bot's updates not read: %s", type(exc).__name__)
            time.sleep(min(wait, 1))
            return 0
        for update in updates:
            answer = handle_update(update)
            chat = ((update.get("message") or {}).get("chat") or {}).get("id")
            if answer and isinstance(chat, int):
                self._answer(chat, answer)
        if updates:
            BotState.objects.filter(pk=1).update(offset=max(u["update_id"] for u in updates) + 1)
        return len(updates)

    def _answer(self, chat_id: int, text: str) -> None:
        """A direct answer (help, unknown code, stopped): not a player's message, not kept; within the limits."""
        pace = self.sender.pace
        wait = pace.chat_ready(chat_id)
        if wait:
            time.sleep(wait)
        pace.wait_turn()
        try:
            self.api.send_message(chat_id, text)
        except BotError as exc:
            log.info("an answer of the bot not sent: %s", type(exc).__name__)
        finally:
            pace.sent(chat_id)


class BotThread:
    """The bot in a server's or worker's process: a daemon thread of its own (like the heartbeat,
    it takes no worker thread from the jobs) looping while the process runs. Without a token it
    sends only the e-mails, and looks for them every few seconds; with one, the process that holds
    the lease polls and sends, the others wait for it to be free."""

    def __init__(self) -> None:
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> BotThread:
        self._thread = threading.Thread(target=self._run, name="sheets-sync bot", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        from django.db import close_old_connections

        loop = BotLoop(from_environment())
        try:
            while not self._stop.is_set():
                try:
                    if loop.api is None and not OutboxMessage.objects.filter(state=OutboxMessage.QUEUED).exists():
                        self._stop.wait(5.0)
                    elif not loop.run(60.0, stop=self._stop):
                        self._stop.wait(2.0)  # another process holds the lease
                except Exception:  # noqa: BLE001 - the database busy, a bug: the bot tries again, the server goes on
                    log.exception("the bot's loop failed; trying again")
                    self._stop.wait(5.0)
        finally:
            close_old_connections()

    def stop(self) -> None:
        """Stop after the current pass (its calls end, the lease is released)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
