"""The WSGI application (waitress serves it: ``sheets-sync server``; gunicorn or any WSGI server on a host)."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sheets_sync.web.settings")

from django.core.wsgi import get_wsgi_application  # noqa: E402 - after the settings module is chosen

application = get_wsgi_application()
