"""Shared pieces for the tests that run sheets-sync against the fake Google Sheets server.

* fixtures ``fake_server`` (one :class:`FakeSheetsServer` per test module), ``sa_key``
  (a service-account JSON whose ``token_uri`` points at the fake) and ``private_key_pem``
  (the key inside it, for tests that check it never leaks);
* :func:`upload_xlsx` / :func:`upload_tabs`: put an .xlsx's tabs (or any grids) into the
  fake as a new spreadsheet, values stored as they were (text stays text);
* :class:`ExcelBook` / :class:`GoogleBook`: one small interface over both backends for the
  parity scenarios (judge edits, marks read back, tab values);
* ``python -m tests.google_support edit ...``: a judge in another process, typing into
  protocol tabs through the fake's HTTP API (``values:batchUpdate``, USER_ENTERED).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from collections.abc import Iterable, Mapping
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from sheets_sync.backends.base import MARK_COLOURS, STATE_TAB
from tests.fake_sheets import FakeSheetsServer

__all__ = ["SA_EMAIL", "fake_server", "sa_key", "private_key_pem", "write_key_file", "private_key_pem_text", "upload_xlsx", "upload_tabs", "google_backend", "fake_http_client",
           "ExcelBook", "GoogleBook", "norm", "norm_rows", "OWNED"]

SA_EMAIL = "sheets-sync@tournament-123456.iam.gserviceaccount.com"
# the owned tabs of a Russian gmo-2016 tournament (plus the hidden state tab)
OWNED = ("Итоги", "Отбор", "Полуфинал", "Финал", "Статистика", "Проверка", "Журнал", STATE_TAB)


@functools.lru_cache(maxsize=1)
def private_key_pem_text() -> str:
    """One RSA key for every fake service account of a test run (generating one costs ~0.1 s)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


def write_key_file(path: Path, token_uri: str, email: str = SA_EMAIL) -> str:
    path.write_text(json.dumps({
        "type": "service_account",
        "project_id": "tournament-123456",
        "private_key_id": "0123456789abcdef",
        "private_key": private_key_pem_text(),
        "client_email": email,
        "client_id": "100000000000000000000",
        "token_uri": token_uri,
    }), encoding="utf-8")
    path.chmod(0o600)
    return str(path)


@pytest.fixture(scope="module")
def fake_server():
    with FakeSheetsServer() as srv:
        yield srv


@pytest.fixture(scope="module")
def private_key_pem() -> str:
    return private_key_pem_text()


@pytest.fixture
def sa_key(tmp_path, fake_server) -> str:
    fake_server.faults.clear()
    fake_server.fault_rates.clear()
    fake_server.reset_counts()
    return write_key_file(tmp_path / "service-account.json", fake_server.token_uri)


def fake_http_client(server: FakeSheetsServer, key: str, *, http_timeout: float = 30, max_retries: int = 5,
                     backoff_base: float = 0.001):
    """The transport to the fake server, signed with the service account in ``key`` (its
    ``token_uri`` is the fake's), for ``GoogleBackend(…, http_client=…)``."""
    from google.oauth2 import service_account

    from sheets_sync.backends.google import SCOPES, authorized_http_client

    credentials = service_account.Credentials.from_service_account_file(key, scopes=list(SCOPES))
    return authorized_http_client(credentials, endpoint=server.url, timeout=http_timeout, max_retries=max_retries,
                                  backoff_base=backoff_base)


_TRANSPORT_OPTIONS = ("http_timeout", "max_retries", "backoff_base")


def google_backend(server: FakeSheetsServer, key: str, sid: str, **kw: Any):
    """A backend for spreadsheet ``sid`` of the fake server; ``http_timeout``, ``max_retries`` and
    ``backoff_base`` shape its transport, other keywords go to :class:`GoogleBackend`."""
    from sheets_sync.backends.google import GoogleBackend

    transport = {name: kw.pop(name) for name in _TRANSPORT_OPTIONS if name in kw}
    return GoogleBackend(f"gsheet:{sid}", http_client=fake_http_client(server, key, **transport), **kw)


# -- uploading ----------------------------------------------------------------------------------
def _grid_of(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, (datetime, date)):
        raise ValueError(f"dates are not uploaded by this helper: {value!r}")
    return value


def upload_tabs(server: FakeSheetsServer, tabs: Mapping[str, Iterable[Iterable[Any]]], *, title: str = "Турнир",
                locale: str = "ru_RU") -> str:
    """A new spreadsheet in the fake holding ``tabs`` (in order); values stored raw, as
    Google keeps them when an .xlsx is imported (text stays text, numbers numbers)."""
    sid = server.create_spreadsheet(title, tabs={name: [] for name in tabs}, locale=locale)
    for name, rows in tabs.items():
        rows = [[_grid_of(v) for v in row] for row in rows]
        if any(rows):
            server.set_values(sid, name, rows, raw=True)
    return sid


def upload_xlsx(server: FakeSheetsServer, path: Path, *, locale: str = "ru_RU") -> str:
    """Every tab of an .xlsx (values only) as a new spreadsheet in the fake."""
    wb = openpyxl.load_workbook(path)
    tabs = {ws.title: [[c.value for c in row] for row in ws.iter_rows()] for ws in wb.worksheets}
    return upload_tabs(server, tabs, title=Path(path).stem, locale=locale)


# -- comparing -----------------------------------------------------------------------------------
def norm(value: Any) -> Any:
    """A cell value in a form both backends agree on (numbers as Decimal, blanks as None)."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float, Decimal)):
        return Decimal(repr(value) if isinstance(value, float) else value).normalize()
    return value


def norm_rows(rows: Iterable[Iterable[Any]]) -> list[tuple]:
    out = [tuple(norm(v) for v in row) for row in rows]
    out = [row[: max((i + 1 for i, v in enumerate(row) if v is not None), default=0)] for row in out]
    while out and not out[-1]:
        out.pop()
    return out


_COLOUR_SEVERITY = {v: k for k, v in MARK_COLOURS.items()}


class ExcelBook:
    """An .xlsx file as the parity scenarios see it."""

    kind = "excel"

    def __init__(self, path: Path) -> None:
        self.path = path
        self._cache: tuple[tuple[int, int], Any] | None = None

    def _wb(self):
        """The workbook as saved now (loaded once per version of the file; do not modify)."""
        st = self.path.stat()
        key = (st.st_size, st.st_mtime_ns)
        if self._cache is None or self._cache[0] != key:
            self._cache = (key, openpyxl.load_workbook(self.path))
        return self._cache[1]

    def backend(self):
        from sheets_sync.backends.excel import ExcelBackend

        return ExcelBackend(self.path)

    def edit(self, edits: Mapping[tuple[str, str], Any]) -> None:
        """A judge types ``value`` into ``(tab, cell)`` and saves (text stays text)."""
        wb = openpyxl.load_workbook(self.path)
        for (tab, cell), value in edits.items():
            c = wb[tab][cell]
            c.value = value
            if isinstance(value, str):
                c.data_type = "s"
        wb.save(self.path)

    def cell_values(self, cells: Iterable[tuple[str, str]]) -> dict[tuple[str, str], Any]:
        wb = self._wb()
        return {(tab, cell): wb[tab][cell].value for tab, cell in cells}

    def tabs(self) -> list[str]:
        return self._wb().sheetnames

    def values(self, tab: str) -> list[tuple]:
        ws = self._wb()[tab]
        return norm_rows([c.value for c in row] for row in ws.iter_rows())

    def marks(self) -> dict[tuple[str, str], tuple[str, str | None]]:
        """(tab, cell) -> (severity by fill colour, note) of every cell the sync marked."""
        from sheets_sync.backends.excel import NOTE_AUTHOR

        wb = self._wb()
        out = {}
        for ws in wb.worksheets:
            if ws.title in OWNED:
                continue
            for row in ws.iter_rows():
                for c in row:
                    colour = None
                    if c.fill is not None and c.fill.fill_type == "solid":
                        colour = str(c.fill.fgColor.rgb)[-6:].upper()
                    note = c.comment.text if c.comment is not None and c.comment.author == NOTE_AUTHOR else None
                    if colour in _COLOUR_SEVERITY or note is not None:
                        out[(ws.title, c.coordinate)] = (_COLOUR_SEVERITY.get(colour, colour), note)
        return out

    def text_cells(self, tab: str, text: str) -> list[bool]:
        """For every cell of ``tab`` showing ``text``: whether it is stored as text (not a formula)."""
        ws = self._wb()[tab]
        return [c.data_type == "s" for row in ws.iter_rows() for c in row if c.value == text]


class GoogleBook:
    """A spreadsheet in the fake server as the parity scenarios see it."""

    kind = "google"

    def __init__(self, server: FakeSheetsServer, key: str, sid: str) -> None:
        self.server, self.key, self.sid = server, key, sid

    def backend(self, **kw: Any):
        return google_backend(self.server, self.key, self.sid, **kw)

    def edit(self, edits: Mapping[tuple[str, str], Any]) -> None:
        # raw: what a judge gets by typing text into a cell (a leading '=' typed as '=... would
        # become a formula in the real UI; judges type nicknames, which Google keeps as text)
        for (tab, cell), value in edits.items():
            if value is None:
                self.server.set_values(self.sid, tab, [[None]], start=cell, raw=True)
            else:
                self.server.set_values(self.sid, tab, [[_grid_of(value)]], start=cell, raw=True)

    def cell_values(self, cells: Iterable[tuple[str, str]]) -> dict[tuple[str, str], Any]:
        out = {}
        for tab, cell in cells:
            c = self.server.cells(self.sid, tab).get(cell)
            out[(tab, cell)] = None if c is None else c.value
        return out

    def tabs(self) -> list[str]:
        return self.server.tabs(self.sid)

    def values(self, tab: str) -> list[tuple]:
        return norm_rows(self.server.values(self.sid, tab))

    def marks(self) -> dict[tuple[str, str], tuple[str, str | None]]:
        out = {}
        for tab in self.server.tabs(self.sid):
            if tab in OWNED:
                continue
            for a1, c in self.server.cells(self.sid, tab).items():
                if c.background in _COLOUR_SEVERITY or c.note is not None:
                    out[(tab, a1)] = (_COLOUR_SEVERITY.get(c.background, c.background), c.note)
        return out

    def text_cells(self, tab: str, text: str) -> list[bool]:
        return [c.formula is None and c.raw.get("userEnteredValue", {}).get("stringValue") == text
                for c in self.server.cells(self.sid, tab).values() if c.value == text]


# -- a judge in another process ------------------------------------------------------------------
def _edit_main(argv: list[str]) -> int:
    """Type values into the fake spreadsheet over HTTP, one ``values:batchUpdate`` per edit.

    ``--edits`` is a JSON list of ``{"tab", "cell", "value", "at"}`` (``at``: seconds after
    start).  Prints ``EDITED <n> <unix time>`` after each accepted edit."""
    from google.auth.transport.requests import AuthorizedSession
    from google.oauth2 import service_account

    p = argparse.ArgumentParser()
    p.add_argument("--endpoint", required=True)
    p.add_argument("--credentials", required=True)
    p.add_argument("--sheet", required=True)
    p.add_argument("--edits", required=True)
    args = p.parse_args(argv)
    creds = service_account.Credentials.from_service_account_file(
        args.credentials, scopes=["https://www.googleapis.com/auth/spreadsheets"])
    session = AuthorizedSession(creds)
    url = f"{args.endpoint}/v4/spreadsheets/{args.sheet}/values:batchUpdate"
    start = time.monotonic()
    for n, e in enumerate(json.loads(args.edits)):
        delay = start + float(e.get("at", 0)) - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        tab = "'" + e["tab"].replace("'", "''") + "'"
        body = {"valueInputOption": "USER_ENTERED", "data": [{"range": f"{tab}!{e['cell']}", "values": [[e["value"]]]}]}
        for _ in range(5):
            r = session.post(url, json=body, timeout=10)
            if r.ok:
                break
            time.sleep(0.05)
        r.raise_for_status()
        print(f"EDITED {n} {time.time():.4f}", flush=True)
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "edit":
        sys.exit(_edit_main(sys.argv[2:]))
    print("usage: python -m tests.google_support edit --endpoint URL --credentials KEY --sheet ID --edits JSON")
    sys.exit(2)
