"""The web app's settings under pytest (pytest-django reads ``DJANGO_SETTINGS_MODULE`` from pyproject).

A private data folder per test process (xdist workers included) and the queue in immediate mode:
a job enqueued by a view runs at once in the same thread, so a test sees its effect on return.
Tests that exercise the real consumer (a worker killed mid-sync) build their own Huey.
"""

from __future__ import annotations

import os
import tempfile

# xdist's workers inherit the controller's environment, so a folder chosen there would be shared
# (two workers' tournament 1 writing one sites/1/): each worker takes a folder of its own
if os.environ.get("PYTEST_XDIST_WORKER") and os.environ.get("SHEETS_SYNC_DATA_WORKER") != os.environ["PYTEST_XDIST_WORKER"]:
    os.environ["SHEETS_SYNC_DATA"] = tempfile.mkdtemp(prefix=f"sheets-sync-web-test-{os.environ['PYTEST_XDIST_WORKER']}-")
    os.environ["SHEETS_SYNC_DATA_WORKER"] = os.environ["PYTEST_XDIST_WORKER"]
os.environ.setdefault("SHEETS_SYNC_DATA", tempfile.mkdtemp(prefix="sheets-sync-web-test-"))

from sheets_sync.web.settings import *  # noqa: E402,F403 - the real settings, then the tests' changes

HUEY = {**HUEY, "immediate": True}  # noqa: F405
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast hashing in tests only; the server keeps Django's PBKDF2
# pytest-django's live_server serves through Django's static-files handler, which needs a
# STATIC_URL (the app itself has no static files: its pages carry their own styles)
STATIC_URL = "/static/"
