"""The one-tap link that ties a player's Telegram chat to his application: ``t.me/<bot>?start=<code>``."""

from __future__ import annotations

import os

__all__ = ["BOT_ENV", "TOKEN_ENV", "API_ENV", "bot_name", "telegram_link"]

TOKEN_ENV = "SHEETS_SYNC_TELEGRAM_TOKEN"  # the bot's token: in the environment, never in the database
BOT_ENV = "SHEETS_SYNC_TELEGRAM_BOT"  # the bot's user name (without @)
API_ENV = "SHEETS_SYNC_TELEGRAM_API"  # the Bot API's address (a test's fake server); Telegram's own when unset


def bot_name() -> str:
    """The bot's user name, "" when the server runs no bot (no token or no name)."""
    if not os.environ.get(TOKEN_ENV):
        return ""
    return os.environ.get(BOT_ENV, "").strip().lstrip("@")


def telegram_link(application) -> str | None:
    """The address that opens the bot with the application's ``/start`` code (None: no bot)."""
    name = bot_name()
    return f"https://t.me/{name}?start={application.start_code}" if name else None
