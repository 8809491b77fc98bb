"""Google's answers in the organizer's words: which failures are ours to retry, which are theirs to fix.

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
    """Every failure of the requests inside as a :class:`BackendError` saying what to do: share
    the spreadsheet with the account ``email()`` names (asked only then: the connection may open
    inside the block), check the key, try again later."""
    try:
        yield
    except BackendError:
        raise
    except APIError as exc:
        raise _api_error(exc, spreadsheet_id, email()) from None
    except google.auth.exceptions.RefreshError as exc:
        if getattr(exc, "retryable", False):
            raise TransientError(f"Google's sign-in service failed, try again later ({_short(exc)})") from None
        raise PermissionDenied(
            f"Google refused our credentials ({_short(exc)}); check that the key file is current "
            "and the service account is not deleted or disabled"
        ) from None
    except (requests.Timeout, requests.ConnectionError, google.auth.exceptions.TransportError) as exc:
        raise TransientError(f"cannot reach Google Sheets ({type(exc).__name__}); will retry later") from None


def _short(exc: Exception) -> str:
    text = str(exc.args[0]) if exc.args else type(exc).__name__
    return text[:200]


def _api_error(exc: APIError, spreadsheet_id: str | None, email: str | None) -> BackendError:
    status = exc.response.status_code
    message = (str(exc.error.get("message", "")) or exc.response.reason or "")[:300]
    what = f"spreadsheet {spreadsheet_id}" if spreadsheet_id else "Google Sheets"
    if status == 403:
        if "has not been used" in message or "disabled" in message.lower():
            return PermissionDenied(f"Google Sheets API is not enabled for this project: {message}")
        who = (
            f"the service account {email}" if email else "the Google account you signed in with"
        )
        return PermissionDenied(
            f"no access to {what}: open it in Google Sheets, press Share and give {who} Editor "
            f"access (Google said: {message})"
        )
    if status == 404:
        hint = f" or not shared with {email}" if email else ""
        return WorkbookNotFound(f"{what} does not exist{hint} (check the URL or id)")
    if status == 401:
        return PermissionDenied(f"Google rejected our credentials: {message}")
    if status in RETRY_STATUSES:
        return TransientError(f"Google Sheets is busy or failing (HTTP {status}: {message}); retries exhausted")
    return BackendError(f"Google Sheets rejected the request (HTTP {status}): {message}")
