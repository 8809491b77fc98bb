"""The settings of ``sheets-sync app``: the server's, plus the local organizer signed in
automatically (:class:`sheets_sync.web.app_mode.LocalOrganizer`) — only ever used by the app
command, which binds to 127.0.0.1 (docs/decisions.md)."""

from sheets_sync.web.settings import *  # noqa: F403 - the server's settings, then app mode's changes
from sheets_sync.web.settings import MIDDLEWARE

MIDDLEWARE = [*MIDDLEWARE, "sheets_sync.web.app_mode.LocalOrganizer"]
LOGIN_REDIRECT_URL = "app_home"
