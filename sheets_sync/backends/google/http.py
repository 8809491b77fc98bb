"""The way to Google: gspread's HTTP client with bounded, jittered retries over an authorized session.

:func:`authorized_http_client` builds the transport a :class:`~sheets_sync.backends.google.GoogleBackend`
uses; pass your own to ``GoogleBackend(ref, http_client=…)`` the way gspread's
``Client(auth, http_client=…)`` takes one.  ``endpoint`` (or ``SHEETS_SYNC_GOOGLE_ENDPOINT``)
sends every Google host — Sheets, Drive and the OAuth token endpoint — to another server,
e.g. a fake Sheets API in the tests.
"""

from __future__ import annotations

import logging
import os
import random
import time
from collections.abc import Callable
from typing import Any

import google.auth.exceptions
import requests
from google.auth.transport.requests import AuthorizedSession, Request
from gspread.exceptions import APIError
from gspread.http_client import HTTPClient

__all__ = ["ENDPOINT_ENV", "SHEETS_API", "DRIVE_API", "RETRY_STATUSES", "HTTP_TIMEOUT", "MAX_RETRIES", "BACKOFF_BASE",
           "RetryingHTTPClient", "authorized_http_client", "resolve_endpoint", "rewrite_url", "RewritingSession",
           "RewritingAuthorizedSession"]

log = logging.getLogger(__name__)

ENDPOINT_ENV = "SHEETS_SYNC_GOOGLE_ENDPOINT"
GOOGLE_HOSTS = (
    "https://sheets.googleapis.com",
    "https://www.googleapis.com",
    "https://oauth2.googleapis.com",
)
SHEETS_API = "https://sheets.googleapis.com/v4/spreadsheets"
DRIVE_API = "https://www.googleapis.com/drive/v3/files"

RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
HTTP_TIMEOUT, MAX_RETRIES, BACKOFF_BASE = 30.0, 5, 0.5  # seconds per request, retries, first backoff (s)


def rewrite_url(url: str, endpoint: str | None) -> str:
    """``url`` with a Google host replaced by ``endpoint`` (unchanged without one)."""
    if endpoint:
        for host in GOOGLE_HOSTS:
            if url.startswith(host + "/") or url == host:
                return endpoint + url[len(host) :]
    return url


class RewritingSession(requests.Session):
    """Plain session (used for token requests) that sends Google hosts to ``endpoint``."""

    def __init__(self, endpoint: str | None) -> None:
        super().__init__()
        self.endpoint = endpoint

    def request(self, method: str, url: str, *args: Any, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        return super().request(method, rewrite_url(url, self.endpoint), *args, **kwargs)


class RewritingAuthorizedSession(AuthorizedSession):
    """google-auth's session (adds the bearer token, refreshes on 401), host-rewriting."""

    def __init__(self, credentials: Any, endpoint: str | None) -> None:
        self._token_session = RewritingSession(endpoint)
        super().__init__(credentials, auth_request=Request(self._token_session))
        self.endpoint = endpoint

    def request(self, method: str, url: str, *args: Any, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        return super().request(method, rewrite_url(url, self.endpoint), *args, **kwargs)

    def close(self) -> None:
        self._token_session.close()
        super().close()


class RetryingHTTPClient(HTTPClient):
    """gspread's HTTP client with bounded retries and full-jitter exponential backoff.

    Retries 408, 429, 5xx, timeouts and connection errors at most ``max_retries`` times
    (sleeping ``uniform(0, min(cap, base * 2**attempt))``, at least ``Retry-After``);
    400/401/403/404 are raised at once.  gspread's own ``BackOffHTTPClient`` retries forever.
    """

    def __init__(
        self,
        auth: Any,
        session: requests.Session | None = None,
        *,
        max_retries: int = MAX_RETRIES,
        backoff_base: float = BACKOFF_BASE,
        backoff_cap: float = 32.0,
        sleep: Callable[[float], None] = time.sleep,
        rng: random.Random | None = None,
    ) -> None:
        super().__init__(auth, session)
        self.auth = auth
        self.max_retries = max_retries
        self.backoff_base = backoff_base
        self.backoff_cap = backoff_cap
        self.sleep = sleep
        self.rng = rng or random.Random()
        self.attempts = 0  # HTTP attempts made (diagnostics)
        self.retries = 0  # of which were retries

    def request(self, method: str, endpoint: str, *args: Any, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        attempt = 0
        while True:
            retry_after = 0.0
            self.attempts += 1
            try:
                return super().request(method, endpoint, *args, **kwargs)
            except APIError as exc:
                status = exc.response.status_code
                if status not in RETRY_STATUSES or attempt >= self.max_retries:
                    raise
                try:
                    retry_after = float(exc.response.headers.get("Retry-After", 0))
                except ValueError:
                    retry_after = 0.0
                reason = f"HTTP {status}"
            except (requests.Timeout, requests.ConnectionError, google.auth.exceptions.TransportError) as exc:
                if attempt >= self.max_retries:
                    raise
                reason = type(exc).__name__
            except google.auth.exceptions.RefreshError as exc:
                # the token endpoint failed; google-auth marks 5xx/429 answers retryable
                if not getattr(exc, "retryable", False) or attempt >= self.max_retries:
                    raise
                reason = "token refresh failed"
            delay = self.rng.uniform(0, min(self.backoff_cap, self.backoff_base * 2**attempt))
            delay = max(delay, min(retry_after, self.backoff_cap))
            log.info("Google Sheets: %s on %s, retry %d/%d in %.2fs", reason, method.upper(),
                     attempt + 1, self.max_retries, delay)
            self.sleep(delay)
            attempt += 1
            self.retries += 1


def authorized_http_client(credentials: Any, *, endpoint: str | None = None, timeout: float = HTTP_TIMEOUT,
                           max_retries: int = MAX_RETRIES, backoff_base: float = BACKOFF_BASE) -> RetryingHTTPClient:
    """The transport for google-auth ``credentials``: a :class:`RetryingHTTPClient` over an
    authorized session (bearer token, refreshed when it expires), every Google host sent to
    ``endpoint`` when one is given."""
    session = RewritingAuthorizedSession(credentials, endpoint)
    http = RetryingHTTPClient(credentials, session, max_retries=max_retries, backoff_base=backoff_base)
    http.set_timeout(timeout)
    return http


def resolve_endpoint(endpoint: str | None) -> str | None:
    """``endpoint``, else ``$SHEETS_SYNC_GOOGLE_ENDPOINT``, without a trailing slash; None: Google itself."""
    value = endpoint or os.environ.get(ENDPOINT_ENV) or None
    return value.rstrip("/") if value else None
