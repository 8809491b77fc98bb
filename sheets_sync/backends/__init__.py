"""Workbook backends behind one small interface (:mod:`sheets_sync.backends.base`), and the
one place that turns what a person typed as WORKBOOK into a backend."""

from __future__ import annotations

from pathlib import Path

from sheets_sync.backends.base import Backend, BackendError
from sheets_sync.refs import check_workbook_ref, is_google_ref

__all__ = ["open_backend"]


def open_backend(ref: str, *, credentials: str | None = None, backups: int | None = None,
                 output: str | None = None, must_exist: bool = True) -> Backend:
    """The backend for WORKBOOK ``ref``: an .xlsx path or a Google spreadsheet; with ``output``,
    the results tabs go to that separate .xlsx instead.  A WORKBOOK that cannot be one (a
    folder, a missing file, a malformed spreadsheet reference) is refused with what to type."""
    check_workbook_ref(ref, must_exist=must_exist)
    if is_google_ref(ref):
        from sheets_sync.backends.google import GoogleBackend

        backend: Backend = GoogleBackend(ref, credentials=credentials)
    else:
        from sheets_sync.backends.excel import DEFAULT_BACKUPS, ExcelBackend

        backend = ExcelBackend(ref, backups=DEFAULT_BACKUPS if backups is None else backups)
    if output:
        from sheets_sync.backends.excel import DEFAULT_BACKUPS, OutputWorkbookBackend

        if not is_google_ref(ref) and Path(output).resolve() == Path(ref).resolve():
            raise BackendError("--output must be a different file from the workbook")
        backend = OutputWorkbookBackend(backend, output, backups=DEFAULT_BACKUPS if backups is None else backups)
    return backend
