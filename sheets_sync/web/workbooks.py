"""The one place the web app opens a registered workbook: a Google sheet as the service account it
is shared with, an .xlsx of the app's folder as a file.

Every sync, button and claim check goes through :func:`open_tournament_backend`, so the transport
(and the per-account request budget around it) is chosen here only.
"""

from __future__ import annotations

from django.conf import settings

from sheets_sync.backends.base import Backend
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.backends.google.backend import GoogleBackend
from sheets_sync.web.models import ServiceAccount, Tournament

__all__ = ["open_google_backend", "open_tournament_backend", "workbook_ref"]


def open_google_backend(spreadsheet_id: str, account: ServiceAccount) -> GoogleBackend:
    return GoogleBackend(spreadsheet_id, credentials=account.key_file, endpoint=settings.GOOGLE_ENDPOINT)


def open_tournament_backend(tournament: Tournament) -> Backend:
    if tournament.source == Tournament.EXCEL:
        return ExcelBackend(tournament.path)
    assert tournament.account is not None, f"{tournament.slug}: a Google sheet without its service account"
    return open_google_backend(tournament.spreadsheet_id, tournament.account)


def workbook_ref(tournament: Tournament) -> str:
    """The WORKBOOK argument the command line would be given for this tournament."""
    return tournament.path if tournament.source == Tournament.EXCEL else f"gsheet:{tournament.spreadsheet_id}"
