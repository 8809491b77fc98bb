"""The web app's settings under pytest (pytest-django reads ``DJANGO_SETTINGS_MODULE`` from pyproject).

A private data folder per test process (xdist workers included) and the queue in immediate mode:
a job enqueued by a view runs at once in the same thread, so a test sees its effect on return.
Tests that exercise the real consumer (a worker killed mid-sync) build their own Huey.
"""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("SHEETS_SYNC_DATA", tempfile.mkdtemp(prefix="sheets-sync-web-test-"))

from sheets_sync.web.settings import *  # noqa: E402,F403 - the real settings, then the tests' changes

HUEY = {**HUEY, "immediate": True}  # noqa: F405
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast hashing in tests only; the server keeps Django's PBKDF2
# pytest-django's live_server wraps the app in a static-files handler that needs a STATIC_URL (the
# pages have no static files: their CSS is inline)
STATIC_URL = "/static/"
