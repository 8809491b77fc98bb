"""Google's answers in the organizer's words — Russian and English (:mod:`sheets_sync.messages`) —
which failures are ours to retry, which are theirs to fix.

API errors, refused credentials and network failures become the backends' own
:class:`~sheets_sync.backends.base.BackendError` family; 400s that mean "the tab list
changed under us" are recognised (:func:`is_stale`) so the backend can re-read and retry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import google.auth.exceptions
import requests
from gspread.exceptions import APIError

from sheets_sync.backends.base import BackendError, PermissionDenied, TransientError, WorkbookNotFound
from sheets_sync.backends.google.http import RETRY_STATUSES
from sheets_sync.messages import Inner, fail

__all__ = ["translate_errors", "is_stale"]

# 400 messages that mean "our cached tab list is stale": re-read metadata and re-plan
_STALE_HINTS = (
    "unable to parse range",
    "no grid with id",
    "already exists",
    "exceeds grid limits",
    "remove all the sheets",
)


def is_stale(exc: APIError) -> bool:
    """Whether Google refused a request because our cached tab list is out of date."""
    if exc.response.status_code != 400:
        return False
    message = str(exc.error.get("message", "")).lower()
    return any(hint in message for hint in _STALE_HINTS)


@contextmanager
def translate_errors(spreadsheet_id: str | None, email: Callable[[], str | None]) -> Iterator[None]:
    """Every failure of the requests inside as a :class:`BackendError` saying what to do, in both
    languages (:func:`sheets_sync.messages.fail`): share the spreadsheet with the account
    ``email()`` names (asked only then: the connection may open inside the block), check the key,
    try again later."""
    try:
        yield
    except BackendError:
        raise
    except APIError as exc:
        raise _api_error(exc, spreadsheet_id, email()) from None
    except google.auth.exceptions.RefreshError as exc:
        if getattr(exc, "retryable", False):
            raise fail(TransientError, "google.signin_failed", reason=_short(exc)) from None
        raise fail(PermissionDenied, "google.key_refused", reason=_short(exc)) from None
    except (requests.Timeout, requests.ConnectionError, google.auth.exceptions.TransportError) as exc:
        raise fail(TransientError, "google.unreachable", reason=type(exc).__name__) from None


def _short(exc: Exception) -> str:
    text = str(exc.args[0]) if exc.args else type(exc).__name__
    return text[:200]


def _api_error(exc: APIError, spreadsheet_id: str | None, email: str | None) -> BackendError:
    status = exc.response.status_code
    message = (str(exc.error.get("message", "")) or exc.response.reason or "")[:300]
    if status == 403:
        if "has not been used" in message or "disabled" in message.lower():
            return fail(PermissionDenied, "google.api_disabled", message=message)
        who = Inner("google.service_account", email=email) if email else Inner("google.your_account")
        what = Inner("google.sheet_to", id=spreadsheet_id) if spreadsheet_id else Inner("google.any_sheet_to")
        return fail(PermissionDenied, "google.no_access", what=what, who=who, message=message)
    if status == 404:
        what = Inner("google.sheet", id=spreadsheet_id) if spreadsheet_id else Inner("google.any_sheet")
        return fail(WorkbookNotFound, "google.not_found", what=what,
                    hint=Inner("google.not_shared", email=email) if email else "")
    if status == 401:
        return fail(PermissionDenied, "google.credentials_rejected", message=message)
    if status in RETRY_STATUSES:
        return fail(TransientError, "google.busy", status=status, message=message)
    return fail(BackendError, "google.rejected", status=status, message=message)
