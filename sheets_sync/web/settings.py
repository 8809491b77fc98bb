"""Django settings, all from the environment and the data folder — nothing to edit by hand.

* ``SHEETS_SYNC_DATA`` — the data folder (default ``./sheets-sync-data``): the SQLite database,
  the queue's SQLite file, each tournament's published outputs, the generated secret key.
* ``DATABASE_URL`` — ``postgres://user:password@host:5432/name`` to run on PostgreSQL instead of
  SQLite (several web processes and workers on several machines).
* ``SHEETS_SYNC_REDIS_URL`` — ``redis://host:6379/0``: the queue on Redis (workers on several
  machines); without it the queue is a SQLite file in the data folder (one process).
* ``SHEETS_SYNC_SECRET_KEY`` — else a random key kept in ``DATA/secret_key`` (mode 600).
* ``SHEETS_SYNC_HTTPS=1`` — behind an HTTPS proxy: Secure cookies, the proxy's scheme header, HSTS.
* ``SHEETS_SYNC_ALLOWED_HOSTS`` — comma-separated host names (default: localhost names, and when the
  command listens on the network — ``SHEETS_SYNC_LISTEN``, set by ``server --host`` — every address
  and name of this computer, :mod:`sheets_sync.web.addresses`).
* ``SHEETS_SYNC_GOOGLE_ENDPOINT`` — another Google API address (the tests' fake Sheets server).
* ``SHEETS_SYNC_SMTP_URL`` — ``smtp://user:password@host:port``: the mail server for reset links and
  invitations (without it they are written to the server's log).
* ``SHEETS_SYNC_SERVICE_ACCOUNTS`` — a folder of service-account JSON keys, or one key file.
* ``SHEETS_SYNC_MODE`` — ``server`` (default) or ``app`` (one organizer's Excel folder, no account).
* ``SHEETS_SYNC_WORKER_TIMEOUT`` — seconds without a heartbeat after which a worker counts as dead
  and its jobs are run again or failed (default 30; :mod:`sheets_sync.web.workers`).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from urllib.parse import unquote, urlsplit

from sheets_sync.resources import shipped
from sheets_sync.web.addresses import allowed_hosts

DATA_DIR = Path(os.environ.get("SHEETS_SYNC_DATA") or "sheets-sync-data").resolve()
DATA_DIR.mkdir(parents=True, exist_ok=True)
MODE = os.environ.get("SHEETS_SYNC_MODE", "server")
APP_FOLDER = os.environ.get("SHEETS_SYNC_APP_FOLDER") or None  # app mode: the organizer's folder of workbooks
GOOGLE_ENDPOINT = os.environ.get("SHEETS_SYNC_GOOGLE_ENDPOINT") or None
SERVICE_ACCOUNTS = os.environ.get("SHEETS_SYNC_SERVICE_ACCOUNTS") or None  # a folder of *.json keys, or one key file
WORKER_TIMEOUT = float(os.environ.get("SHEETS_SYNC_WORKER_TIMEOUT") or 30)  # seconds: a worker without a heartbeat is dead


def _secret_key() -> str:
    if os.environ.get("SHEETS_SYNC_SECRET_KEY"):
        return os.environ["SHEETS_SYNC_SECRET_KEY"]
    path = DATA_DIR / "secret_key"
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(secrets.token_urlsafe(50))
    return path.read_text().strip()


def _database() -> dict:
    url = os.environ.get("DATABASE_URL")
    if not url:
        # WAL: a read never waits for a writer; IMMEDIATE: a write transaction takes the lock when it
        # begins, so it waits for it (a deferred one would fail at once upgrading a read lock). The
        # timeout is the worker's wait; a web request waits 2 s (sheets_sync.web.busy), then a 503
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": str(DATA_DIR / "server.sqlite3"),
                "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE",
                            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"}}
    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql"):
        raise ValueError(f"DATABASE_URL: only postgres:// is supported, not {parts.scheme}://")
    return {"ENGINE": "django.db.backends.postgresql", "NAME": parts.path.lstrip("/"),
            "USER": unquote(parts.username or ""), "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "", "PORT": str(parts.port or "")}


def _huey() -> dict:
    redis_url = os.environ.get("SHEETS_SYNC_REDIS_URL")
    common = {"name": "sheets-sync", "immediate": False, "utc": True}
    if redis_url:
        return {**common, "huey_class": "huey.RedisHuey", "url": redis_url}
    return {**common, "huey_class": "huey.SqliteHuey", "filename": str(DATA_DIR / "queue.sqlite3")}


SECRET_KEY = _secret_key()
DEBUG = os.environ.get("SHEETS_SYNC_DEBUG") == "1"
# listening on the network (``server --host 0.0.0.0``): this computer's own addresses and names too
ALLOWED_HOSTS = [h.strip() for h in os.environ.get("SHEETS_SYNC_ALLOWED_HOSTS", "").split(",") if h.strip()] \
    or allowed_hosts()

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "huey.contrib.djhuey",
    "axes",
    "sheets_sync.web.apps.WebConfig",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",  # HSTS behind HTTPS, Referrer-Policy, nosniff
    "sheets_sync.web.headers.SecurityPolicy",  # a Content-Security-Policy on every answer
    "sheets_sync.web.busy.BusyDatabase",  # before anything reads the database: short SQLite waits, a 503 page
    "sheets_sync.web.words.LanguageCookie",  # ?lang= kept in a cookie: reading a page never writes the session
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks
]

AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]

ROOT_URLCONF = "sheets_sync.web.urls"
WSGI_APPLICATION = "sheets_sync.web.wsgi.application"

TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [str(shipped("templates") / "web")],
    "APP_DIRS": False,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.request",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
        "sheets_sync.web.words.web_words",
    ]},
}]

DATABASES = {"default": _database()}
HUEY = _huey()

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "ru"
TIME_ZONE = os.environ.get("TZ") or "UTC"
USE_I18N = False  # the pages take their words from sheets_sync.web's own ru/en dictionary, like the CLI
USE_TZ = True

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournaments"
LOGOUT_REDIRECT_URL = "login"

# cookies: HttpOnly session, SameSite, Secure behind HTTPS
HTTPS = os.environ.get("SHEETS_SYNC_HTTPS") == "1"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
CSRF_FAILURE_VIEW = "sheets_sync.web.errors.csrf_failure"  # «the page went stale: reload» in the reader's language
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_REFERRER_POLICY = "same-origin"  # another site never learns a tournament's or a job's address
SECURE_CONTENT_TYPE_NOSNIFF = True
if HTTPS:
    SECURE_HSTS_SECONDS = 365 * 24 * 3600  # browsers keep to HTTPS for a year (subdomains are not ours to bind)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    CSRF_TRUSTED_ORIGINS = [f"https://{h}" for h in ALLOWED_HOSTS if not h.startswith("[")]

# sign-in slows down after repeated failures (django-axes): 5 failures lock the pair of
# user name and address for 15 minutes
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "accounts/locked.html"  # the organizer's words, not django-axes' English line
AXES_USERNAME_CALLABLE = "sheets_sync.web.accounts.forms.axes_username"  # an e-mail in any case is one user
AXES_VERBOSE = False  # no banner on start (it landed after pytest's closing line)


def _mail() -> dict:
    """``SHEETS_SYNC_SMTP_URL`` (``smtp://user:password@host:port``, ``smtps://`` for TLS on
    connect): mail goes out through that server; without it every mail (a password-reset link,
    an invitation) is written to the server's log (logger ``sheets_sync.web.mail``)."""
    url = os.environ.get("SHEETS_SYNC_SMTP_URL")
    if not url:
        return {"EMAIL_BACKEND": "sheets_sync.web.mail.LogEmailBackend"}
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps"):
        raise ValueError(f"SHEETS_SYNC_SMTP_URL: smtp:// or smtps://, not {parts.scheme}://")
    return {"EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend", "EMAIL_HOST": parts.hostname or "localhost",
            "EMAIL_PORT": parts.port or (465 if parts.scheme == "smtps" else 587),
            "EMAIL_HOST_USER": unquote(parts.username or ""), "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
            "EMAIL_USE_SSL": parts.scheme == "smtps", "EMAIL_USE_TLS": parts.scheme == "smtp" and parts.port != 25}


globals().update(_mail())
DEFAULT_FROM_EMAIL = os.environ.get("SHEETS_SYNC_FROM_EMAIL", "sheets-sync@localhost")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"line": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "line"}},
    "root": {"handlers": ["console"], "level": "INFO"},
    "loggers": {"django.server": {"level": "WARNING"}, "huey": {"level": "WARNING"}},
}
