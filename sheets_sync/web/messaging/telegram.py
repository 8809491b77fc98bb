"""The few Bot API calls the server's bot makes (getMe, getUpdates, sendMessage), over ``requests``.

Why not a bot framework: docs/decisions.md (python-telegram-bot and aiogram own an asyncio loop
and their own retrying; the outbox needs to know, for each call, whether the message may have
reached Telegram — refused before it was sent, refused by Telegram, or lost on the way — and that
is three ``requests`` exceptions here). The token is read from the environment
(``SHEETS_SYNC_TELEGRAM_TOKEN``), never kept in the database, and never in a logged address.
"""

from __future__ import annotations

import os

import requests

from sheets_sync.web.messaging.links import API_ENV, TOKEN_ENV

__all__ = ["TELEGRAM", "BotError", "NotSent", "MaybeSent", "Refused", "TooMany", "BotApi", "from_environment"]

TELEGRAM = "https://api.telegram.org"
TIMEOUT = 10.0  # seconds a sendMessage may take; the outbox's lease is longer


class BotError(Exception):
    """A call that did not do what it was asked."""


class NotSent(BotError):
    """The request never reached Telegram (no connection): the message surely was not sent."""


class MaybeSent(BotError):
    """The request left but no answer came back (a timeout, a broken connection): Telegram may
    have delivered it."""


class Refused(BotError):
    """Telegram answered no (``error_code``, ``description``): the message was not sent."""

    def __init__(self, code: int, description: str) -> None:
        super().__init__(f"{code} {description}")
        self.code = code
        self.description = description

    @property
    def for_good(self) -> bool:
        """The bot blocked, the chat gone, a bad request: sending it again would fail again."""
        return self.code in (400, 403)


class TooMany(Refused):
    """429: too many requests; Telegram says how many seconds to wait (``retry_after``)."""

    def __init__(self, code: int, description: str, retry_after: float) -> None:
        super().__init__(code, description)
        self.retry_after = retry_after


class BotApi:
    """The bot's calls; ``base`` is Telegram's address or a test's fake server's."""

    def __init__(self, token: str, base: str = TELEGRAM, *, timeout: float = TIMEOUT,
                 session: requests.Session | None = None) -> None:
        self._url = f"{base.rstrip('/')}/bot{token}/"
        self._session = session or requests.Session()
        self.timeout = timeout

    def _call(self, method: str, payload: dict, timeout: float | None = None):
        try:
            response = self._session.post(self._url + method, json=payload, timeout=timeout or self.timeout)
        except requests.ConnectionError as exc:  # from None: the request's address holds the token
            raise (NotSent if _before_sending(exc) else MaybeSent)(type(exc).__name__) from None
        except requests.Timeout as exc:
            if isinstance(exc, requests.ConnectTimeout):
                raise NotSent(type(exc).__name__) from None
            raise MaybeSent(type(exc).__name__) from None
        except requests.RequestException as exc:
            raise MaybeSent(type(exc).__name__) from None
        try:
            answer = response.json()
        except ValueError:
            raise MaybeSent(f"HTTP {response.status_code}, no JSON") from None
        if answer.get("ok"):
            return answer.get("result")
        code = int(answer.get("error_code") or response.status_code)
        description = str(answer.get("description") or "")[:150]
        if code == 429:
            retry_after = float((answer.get("parameters") or {}).get("retry_after") or 1)
            raise TooMany(code, description, retry_after)
        raise Refused(code, description)

    def get_me(self) -> dict:
        return self._call("getMe", {})

    def get_updates(self, offset: int, timeout: int = 0) -> list[dict]:
        """Updates from ``offset`` on (those before it are forgotten by Telegram), waiting up to
        ``timeout`` seconds for one (a long poll)."""
        return self._call("getUpdates", {"offset": offset, "timeout": timeout, "allowed_updates": ["message"]},
                          timeout=timeout + self.timeout) or []

    def send_message(self, chat_id: int, text: str) -> dict:
        return self._call("sendMessage", {"chat_id": chat_id, "text": text, "disable_web_page_preview": True})


def _before_sending(exc: requests.ConnectionError) -> bool:
    """Whether the connection failed before the request was written (refused, no route, DNS):
    only then is a message surely not sent."""
    text = repr(exc)
    return any(word in text for word in ("NewConnectionError", "NameResolutionError", "Connection refused",
                                         "ConnectTimeout", "No route to host"))


def from_environment() -> BotApi | None:
    """The server's bot from ``SHEETS_SYNC_TELEGRAM_TOKEN`` (and ``SHEETS_SYNC_TELEGRAM_API``), or None."""
    token = os.environ.get(TOKEN_ENV, "").strip()
    if not token:
        return None
    return BotApi(token, os.environ.get(API_ENV, "").strip() or TELEGRAM)
