"""Workbook backends behind one small interface (:mod:`sheets_sync.backends.base`), and the
one place that turns what a person typed as WORKBOOK into a backend."""

from __future__ import annotations

from pathlib import Path

from sheets_sync.backends.base import Backend, BackendError, WorkbookNotFound
from sheets_sync.messages import fail
from sheets_sync.refs import EXCEL_SUFFIXES, WorkbookRefError, is_google_ref, spreadsheet_id

__all__ = ["open_backend", "check_workbook_ref"]


def open_backend(ref: str, *, credentials: str | None = None, backups: int | None = None,
                 output: str | None = None, must_exist: bool = True, protect_password: str | None = None) -> Backend:
    """The backend for WORKBOOK ``ref``: an .xlsx path or a Google spreadsheet; with ``output``,
    the results tabs go to that separate .xlsx instead; ``protect_password``: the password of the
    sheet protection of the .xlsx tabs the sync writes (a Google Sheet protects by editors instead).  A WORKBOOK that cannot be one (a
    folder, a missing file, a malformed spreadsheet reference) is refused with what to type."""
    check_workbook_ref(ref, must_exist=must_exist)
    if is_google_ref(ref):
        from sheets_sync.backends.google import GoogleBackend

        backend: Backend = GoogleBackend(ref, credentials=credentials)
    else:
        from sheets_sync.backends.excel import DEFAULT_BACKUPS, ExcelBackend

        backend = ExcelBackend(ref, backups=DEFAULT_BACKUPS if backups is None else backups,
                               protect_password=protect_password)
    if output:
        from sheets_sync.backends.excel import DEFAULT_BACKUPS, OutputWorkbookBackend

        if not is_google_ref(ref) and Path(output).resolve() == Path(ref).resolve():
            raise BackendError("--output must be a different file from the workbook")
        backend = OutputWorkbookBackend(backend, output, backups=DEFAULT_BACKUPS if backups is None else backups,
                                        protect_password=protect_password)
    return backend


def check_workbook_ref(ref: str, *, language: str | None = None, must_exist: bool = True) -> None:
    """Raise an error saying what to type instead when WORKBOOK ``ref`` cannot be a workbook
    (``must_exist``: a file must be there; ``gsheet:new`` is for ``init`` and passes)."""
    if is_google_ref(ref):
        if ref.strip().lower() != "gsheet:new":
            spreadsheet_id(ref, language=language)
        return
    path = Path(ref).expanduser()
    if path.is_dir():
        example = (path / "cup.xlsx") if path.suffix.lower() not in EXCEL_SUFFIXES else path.with_suffix(".xlsx")
        raise fail(WorkbookRefError, "ref.folder", language=language, path=ref, example=example)
    if must_exist and not path.exists():
        raise fail(WorkbookNotFound, "ref.not_found", language=language, path=ref)
    if path.suffix.lower() not in EXCEL_SUFFIXES and (path.exists() or not must_exist):
        raise fail(WorkbookRefError, "ref.not_xlsx", language=language, path=ref)
