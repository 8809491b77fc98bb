"""A small fake of the Google Sheets API v4 (and the OAuth token endpoint) for tests.

Only what sheets-sync and gspread use is implemented, with the real response shapes
(checked against gspread's recorded cassettes and the API reference):

* ``POST /token``                                  service-account JWT grant -> access token
* ``POST /v4/spreadsheets``                        create
* ``GET  /v4/spreadsheets/{id}``                   metadata (``fields`` mask honoured)
* ``GET  /v4/spreadsheets/{id}/values:batchGet``   ``ranges`` (repeated), ``valueRenderOption``,
                                                   ``dateTimeRenderOption``, ``majorDimension``
* ``POST /v4/spreadsheets/{id}/values:batchGetByDataFilter``  ``dataFilters`` with ``a1Range``
                                                   or ``gridRange`` (same options as batchGet)
* ``POST /v4/spreadsheets/{id}/values:batchUpdate`` ``valueInputOption`` RAW / USER_ENTERED
* ``POST /v4/spreadsheets/{id}:batchUpdate``       addSheet, deleteSheet, updateCells, repeatCell,
                                                   setDataValidation, updateSheetProperties,
                                                   updateDimensionProperties, appendDimension,
                                                   updateBorders, addProtectedRange,
                                                   updateProtectedRange, deleteProtectedRange
* ``GET /drive/v3/changes/startPageToken``, ``GET /drive/v3/changes``  the Drive changes feed per
                                                   account (files shared with it; ``removed`` when its
                                                   permission is deleted), visible after
                                                   :attr:`FakeSheetsServer.drive_delay` seconds
  (a token made stale by :meth:`FakeSheetsServer.expire_page_tokens` answers 410 Gone)
  (a change's ``file`` carries the file's ``modifiedTime`` and ``lastModifyingUser``: its latest
  content change Drive knows of — sharing moves neither, as in Drive)
* ``GET|POST /drive/v3/files/{id}/permissions``, ``DELETE …/permissions/{permId}``  sharing; a
                                                   permission's ``role`` is ``writer`` or ``reader``: a
                                                   reader reads, and each of its writes answers 403; who
                                                   may not share (a reader, or any editor but the owner
                                                   after :meth:`FakeSheetsServer.forbid_sharing`) is
                                                   refused sharing and unsharing with 403
* ``GET /drive/v3/files/{id}``                     the file (``fields`` mask honoured) with
                                                   ``capabilities.canEdit``/``canShare`` for the caller

Quotas: past 60 Sheets read requests or 60 write requests in a rolling minute per account (the
account its bearer token was issued to) the answer is Google's 429 ``RESOURCE_EXHAUSTED`` with
its error body (:func:`quota_error`); :attr:`FakeSheetsServer.clock` is the minute's clock (tests
move it instead of sleeping), :attr:`FakeSheetsServer.quota` (:class:`QuotaMeter`) counts per
account and minute and per file, ``quota.enabled = False`` turns the limit off.
:meth:`FakeSheetsServer.storm` injects a run of 429s or 500s.

Every cell is stored as a Sheets ``CellData``-like dict (``userEnteredValue``,
``userEnteredFormat``, ``note``, ``dataValidation``, ``textFormatRuns``), so ``fields``
masks apply exactly as in the real API.  A ``:batchUpdate`` is applied to a copy and
committed only when every request succeeded (all-or-nothing).

What a person types (``USER_ENTERED``, and :meth:`FakeSheetsServer.set_values`) is coerced
the way Google Sheets coerces it in the spreadsheet's locale — the cases sheets-sync relies on,
each with where the behaviour comes from (see :func:`_user_entered`):

* a cell formatted as plain text (``userEnteredFormat.numberFormat.type = TEXT``) keeps what is
  typed as text — Sheets API reference, ``NumberFormatType.TEXT`` ("Text formatting, e.g
  1000.12", no grouping applied); FlowmapBlue/FlowmapBlue discussion #66 ("Google Sheets will
  automatically show separators unless you change the cell format to 'Plain text'");
* a leading ``'`` keeps the rest as text — Docs Editors Help, TO_TEXT
  (support.google.com/docs/answer/3094285): "equivalent to prefixing a number with an apostrophe";
* ``=…`` is a formula, ``TRUE``/``FALSE`` a boolean — Sheets API reference, ValueInputOption
  USER_ENTERED ("parsed as if the user typed them into the UI");
* a decimal comma (ru_RU ``0,5`` → 0.5) or point (en_US ``0.5`` → 0.5) by the locale's
  decimal separator — ValueInputOption USER_ENTERED; observed by the project (tests pinned since
  the first Google backend);
* ru_RU digit grouping with spaces, loosely: ``1 000`` → 1000, and also ``2 5 8`` → 258 and
  ``8 9 10`` → 8910 — project issue 13 (37 of 150 protocols of a ru_RU tournament arrived as
  such numbers); the groups are not checked for three digits.  In en_US only well-formed comma
  groups are taken (``1,000`` → 1000): whether Sheets also takes ``1,5`` for 15 is an assumption
  left out (the reader reads the text ``1,5``, and 15 would be an out-of-range value it reports);
* dates: ru_RU ``D.M`` / ``D.M.Y`` (``1.2`` → 1 February of this year; ``0.5`` is no date and
  stays text), en_US ``M/D[/Y]`` and month, day, year separated by spaces (``3 5`` → 5 March,
  ``8 9 10`` → 9 August 2010) — getodk/getodk#463 ("Google Docs is interpreting space-separated
  numbers as date fields": ``3 5`` became 3/5/2011); two-digit years 00–29 are 20xx, 30–99 19xx
  (an assumption, as in Excel).  A date is stored as its day number (serial) with a DATE format:
  what sheets-sync reads back (``UNFORMATTED_VALUE``, ``SERIAL_NUMBER``) is that number, so the
  reader is built for both readings (text, or the day number);
* anything else (``½``, ``да 3``, ``ППК 3``, ``-``, ``2,5,8`` in ru_RU) stays text — an
  assumption for ``½`` (no source says Sheets parses Unicode fractions; the reader reads ``½``
  and 0.5 alike).
Percentages, currencies and times are not modelled: nothing typed into a protocol needs them.

Protected ranges are modelled as the API reference describes ``ProtectedRange``: a
``protectedRangeId`` the server gives, a ``range`` (a ``GridRange``; no bounds at all is a
protected sheet, and a sheet takes one such protection: a second is refused with the wording
googleapis/google-api-python-client#1064 shows, ``Sheet "X" already has sheet protection.``),
``description``, ``warningOnly`` (no ``editors`` with it) and ``editors.users``; they are
listed in ``sheets[].protectedRanges`` of a GET, ``editors`` only to an editor of the range.
Every request is made by the account its bearer token was issued to (:attr:`tokens`); a
values write or a batchUpdate that touches a protected range (its cells, its sheet's
properties, the sheet itself, the protection itself) by somebody who is neither one of its
editors nor the spreadsheet's owner (the account that created it) fails whole with HTTP 400,
``INVALID_ARGUMENT`` and the API's own message (theoephraim/node-google-spreadsheet#20):
:data:`PROTECTED_MESSAGE`.  A warning-only range refuses nobody (the warning is the UI's).

Test helpers: :attr:`FakeSheetsServer.request_log`, :attr:`request_count` (Sheets/Drive
API requests, the token endpoint not counted), :meth:`reset_counts`, :meth:`cells`,
:meth:`values`, :meth:`create_spreadsheet`, :meth:`set_values`, :meth:`set_number_format`, :meth:`rename_tab`,
:meth:`share`; fault injection through :attr:`faults` (a queue of :class:`Fault`) and
:attr:`fault_rates` (probabilities per status).

Run standalone for other processes: ``python -m tests.fake_sheets --port 8765``.
"""

from __future__ import annotations

import argparse
import base64
import copy
import hashlib
import datetime as dt
import json
import math
import random
import re
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

__all__ = ["FakeSheetsServer", "Fault", "Cell", "ApiError", "PROTECTED_MESSAGE", "DriveFeed", "QuotaMeter",
           "quota_error", "sheets_request_kind", "QUOTA_PER_MINUTE"]

PROTECTED_MESSAGE = ("You are trying to edit a protected cell or object. Please contact the spreadsheet owner to "
                     "remove protection if you need to edit.")

DEFAULT_ROWS, DEFAULT_COLS = 1000, 26
COMMA_DECIMAL_LOCALES = ("ru", "uk", "be", "de", "fr", "es", "it", "pt", "pl", "cs", "nl", "tr", "sv", "fi", "da", "nb")


# Google refuses a request whose body is over 10 MB (400 INVALID_ARGUMENT, "Request payload size
# exceeds the limit: 10485760 bytes."): so does the fake
MAX_REQUEST_BYTES = 10 * 1024 * 1024


class ApiError(Exception):
    def __init__(self, code: int, message: str, status: str) -> None:
        super().__init__(message)
        self.code, self.message, self.status = code, message, status

    def body(self) -> dict:
        return {"error": {"code": self.code, "message": self.message, "status": self.status}}


def _bad(message: str) -> ApiError:
    return ApiError(400, message, "INVALID_ARGUMENT")


STATUS_NAMES = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    408: "DEADLINE_EXCEEDED",
    410: "GONE",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    502: "UNAVAILABLE",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
}
STATUS_MESSAGES = {
    429: "Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute per user' "
    "of service 'sheets.googleapis.com' for consumer 'project_number:000000000000'.",
    500: "Internal error encountered.",
    503: "The service is currently unavailable.",
    403: "The caller does not have permission",
    404: "Requested entity was not found.",
}


@dataclass
class Fault:
    """One injected misbehaviour, consumed by the first request it matches.

    ``status``: answer with this HTTP error instead of handling the request (None: handle it);
    ``delay``: sleep this many seconds first; ``action``: call this (e.g. rename a tab)
    before handling; ``match``: substring of ``METHOD path`` the request must contain;
    ``times``: how many matching requests it affects.
    """

    status: int | None = None
    delay: float = 0.0
    action: Callable[[], None] | None = None
    match: str = ""
    times: int = 1
    message: str | None = None


@dataclass(frozen=True)
class Cell:
    """A friendly view of one stored cell (for assertions)."""

    value: Any  # effective value: str / int / float / bool / None
    formula: str | None
    note: str | None
    background: str | None  # RGB hex like "F4B6B6"
    bold: bool
    validation: tuple[str, ...] | None  # ONE_OF_LIST values
    number_format: str | None
    raw: dict = field(repr=False, compare=False, default_factory=dict)


# -- A1 helpers ---------------------------------------------------------------------------
_A1 = re.compile(r"^\$?([A-Za-z]*)\$?(\d*)$")


def _col_index(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n - 1


def _col_letters(index: int) -> str:
    s, index = "", index + 1
    while index:
        index, rem = divmod(index - 1, 26)
        s = chr(65 + rem) + s
    return s


def _a1(row: int, col: int) -> str:
    return f"{_col_letters(col)}{row + 1}"


def _split_range(rng: str) -> tuple[str | None, str | None]:
    """``'Tab''s'!A1:B2`` -> ("Tab's", "A1:B2"); ``Tab`` -> ("Tab", None)."""
    if rng.startswith("'"):
        i, name = 1, []
        while i < len(rng):
            if rng[i] == "'":
                if i + 1 < len(rng) and rng[i + 1] == "'":
                    name.append("'")
                    i += 2
                    continue
                break
            name.append(rng[i])
            i += 1
        else:
            raise ValueError(rng)
        rest = rng[i + 1 :]
        if rest == "":
            return "".join(name), None
        if not rest.startswith("!"):
            raise ValueError(rng)
        return "".join(name), rest[1:]
    if "!" in rng:
        name, _, cells = rng.rpartition("!")
        return name, cells
    return None, rng


def _parse_cells(cells: str) -> tuple[int, int | None, int, int | None]:
    """``B2:D`` -> (row0, row_end_excl | None, col0, col_end_excl | None)."""
    parts = cells.split(":")
    if len(parts) > 2 or not cells:
        raise ValueError(cells)
    m1 = _A1.match(parts[0])
    m2 = _A1.match(parts[-1])
    if not m1 or not m2 or not (m1.group(1) or m1.group(2)):
        raise ValueError(cells)
    c0 = _col_index(m1.group(1)) if m1.group(1) else 0
    r0 = int(m1.group(2)) - 1 if m1.group(2) else 0
    if len(parts) == 1:
        if not (m1.group(1) and m1.group(2)):
            raise ValueError(cells)
        return r0, r0 + 1, c0, c0 + 1
    c1 = _col_index(m2.group(1)) + 1 if m2.group(1) else None
    r1 = int(m2.group(2)) if m2.group(2) else None
    if (r0 < 0) or (r1 is not None and r1 <= r0) or (c1 is not None and c1 <= c0):
        raise ValueError(cells)
    return r0, r1, c0, c1


# -- field masks ---------------------------------------------------------------------------
def _parse_mask(mask: str) -> list[str]:
    """``properties(title,locale),sheets.properties`` -> ["properties.title", ...]."""
    out: list[str] = []

    def parse(s: str, prefix: str) -> None:
        depth, start = 0, 0
        items = []
        for i, ch in enumerate(s):
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            elif ch == "," and depth == 0:
                items.append(s[start:i])
                start = i + 1
        items.append(s[start:])
        for item in items:
            item = item.strip()
            if not item:
                continue
            if "(" in item:
                head, inner = item.split("(", 1)
                if not inner.endswith(")"):
                    raise _bad(f"Invalid field selection {mask}")
                parse(inner[:-1], prefix + head.strip() + ".")
            else:
                out.append(prefix + item)

    parse(mask, "")
    return out


def _select(obj: Any, paths: list[list[str]]) -> Any:
    """Keep only the given paths of a JSON object (lists are traversed)."""
    if isinstance(obj, list):
        return [_select(x, paths) for x in obj]
    if not isinstance(obj, dict):
        return obj
    if any(p == [] or p == ["*"] for p in paths):
        return obj
    out = {}
    for key, value in obj.items():
        sub = [p[1:] for p in paths if p and p[0] == key]
        if sub:
            out[key] = _select(value, sub)
    return out


def _get_path(obj: dict, path: list[str]) -> Any:
    for key in path:
        if not isinstance(obj, dict) or key not in obj:
            return None
        obj = obj[key]
    return obj


def _set_path(obj: dict, path: list[str], value: Any) -> None:
    """Set (or, for None, delete and prune) ``path`` in ``obj``."""
    if value is None:
        stack = []
        cur = obj
        for key in path[:-1]:
            if not isinstance(cur.get(key), dict):
                return
            stack.append((cur, key))
            cur = cur[key]
        cur.pop(path[-1], None)
        for parent, key in reversed(stack):
            if parent[key] == {}:
                del parent[key]
        return
    cur = obj
    for key in path[:-1]:
        cur = cur.setdefault(key, {})
    cur[path[-1]] = copy.deepcopy(value)


def _apply_mask(target: dict, source: dict, fields: str, allowed: tuple[str, ...]) -> None:
    if not fields:
        raise _bad("At least one field must be specified.")
    if fields.strip() == "*":
        for key in allowed:
            _set_path(target, [key], source.get(key))
        return
    for path in _parse_mask(fields):
        parts = path.split(".")
        if parts[0] not in allowed:
            raise _bad(f"Invalid field mask: '{path}'")
        _set_path(target, parts, _get_path(source, parts))


CELL_FIELDS = ("userEnteredValue", "userEnteredFormat", "note", "dataValidation", "textFormatRuns")


# -- the spreadsheet model --------------------------------------------------------------------
class _Sheet:
    def __init__(self, props: dict) -> None:
        self.props = props
        self.cells: dict[tuple[int, int], dict] = {}
        self.protected: list[dict] = []  # ProtectedRange objects, as the API returns them
        self.col_widths: dict[int, int] = {}
        self.row_heights: dict[int, int] = {}

    @property
    def id(self) -> int:
        return self.props["sheetId"]

    @property
    def title(self) -> str:
        return self.props["title"]

    @property
    def rows(self) -> int:
        return self.props["gridProperties"]["rowCount"]

    @property
    def cols(self) -> int:
        return self.props["gridProperties"]["columnCount"]


class _Spreadsheet:
    def __init__(self, sid: str, title: str, locale: str) -> None:
        self.id = sid
        self.props = {
            "title": title,
            "locale": locale,
            "autoRecalc": "ON_CHANGE",
            "timeZone": "Europe/Moscow",
            "defaultFormat": {"backgroundColor": {"red": 1, "green": 1, "blue": 1}},
        }
        self.sheets: list[_Sheet] = []
        self.shared_with: set[str] | None = None  # None: everybody may edit
        self.permissions: list[dict] = []
        self.readers: set[str] = set()  # shared as «Viewer» (role reader): may read, every write answers 403
        self.owner: str | None = None  # the account that created it: edits every protected range
        # the Share dialog's «Editors can change permissions and share» (off: only the owner shares)
        self.writers_can_share = True
        self.requester: str = "anonymous"  # who makes the request being handled

    def sheet_by_title(self, title: str) -> _Sheet | None:
        for sh in self.sheets:
            if sh.title == title:
                return sh
        # Sheets matches tab names case-insensitively in ranges
        for sh in self.sheets:
            if sh.title.lower() == title.lower():
                return sh
        return None

    def sheet_by_id(self, sheet_id: int) -> _Sheet:
        for sh in self.sheets:
            if sh.id == sheet_id:
                return sh
        raise _bad(f"Invalid requests: No grid with id: {sheet_id}")

    def may_share(self, email: str) -> bool:
        """Drive's ``capabilities.canShare`` of ``email``: the owner, or an editor the owner lets share."""
        if self.owner is not None and email == self.owner:
            return True
        return email not in self.readers and self.writers_can_share

    def may_edit(self, protection: dict) -> bool:
        """Whether the requester gets past ``protection`` (a warning only stops nobody)."""
        if protection.get("warningOnly"):
            return True
        users = {u.lower() for u in protection.get("editors", {}).get("users", ())}
        return self.requester.lower() in users or (self.owner is not None and self.requester == self.owner)

    def guard(self, sheet: _Sheet, r0: int = 0, r1: int | None = None, c0: int = 0, c1: int | None = None) -> None:
        """Refuse, as the API does, a change to cells [r0, r1) × [c0, c1) of ``sheet`` (None: to
        the end) that a protected range the requester may not edit covers."""
        r1 = sheet.rows if r1 is None else r1
        c1 = sheet.cols if c1 is None else c1
        for protection in sheet.protected:
            rng = protection.get("range", {})
            pr0, pr1 = rng.get("startRowIndex", 0), rng.get("endRowIndex", 10**9)
            pc0, pc1 = rng.get("startColumnIndex", 0), rng.get("endColumnIndex", 10**9)
            overlaps = r0 < pr1 and pr0 < r1 and c0 < pc1 and pc0 < c1
            if overlaps and not self.may_edit(protection):
                raise ApiError(400, PROTECTED_MESSAGE, "INVALID_ARGUMENT")

    def guard_sheet(self, sheet: _Sheet) -> None:
        """Refuse a change to the sheet itself (properties, deletion) under a protected sheet
        (or any protected range of it, for a deletion) the requester may not edit."""
        for protection in sheet.protected:
            if not self.may_edit(protection):
                raise ApiError(400, PROTECTED_MESSAGE, "INVALID_ARGUMENT")

    def protected_range(self, range_id: Any) -> tuple[_Sheet, dict]:
        for sheet in self.sheets:
            for protection in sheet.protected:
                if protection["protectedRangeId"] == range_id:
                    return sheet, protection
        raise _bad(f"Invalid requests: No protected range with id: {range_id}")

    def new_protected_range_id(self) -> int:
        used = {p["protectedRangeId"] for sh in self.sheets for p in sh.protected}
        while True:
            n = random.randint(1, 2**31 - 1)
            if n not in used:
                return n

    def reindex(self) -> None:
        for i, sh in enumerate(self.sheets):
            sh.props["index"] = i

    def new_sheet_id(self) -> int:
        used = {sh.id for sh in self.sheets}
        while True:
            n = random.randint(1, 2**31 - 1)
            if n not in used:
                return n

    def add_sheet(self, props: dict) -> _Sheet:
        props = copy.deepcopy(props)
        if "sheetId" in props:
            if not isinstance(props["sheetId"], int) or props["sheetId"] < 0:
                raise _bad(f"Invalid sheetId: {props['sheetId']}")
            if any(sh.id == props["sheetId"] for sh in self.sheets):
                raise _bad(
                    f"Invalid requests[0].addSheet: Sheet with id {props['sheetId']} already exists."
                )
        else:
            props["sheetId"] = self.new_sheet_id() if self.sheets else 0
        if "title" not in props:
            n = len(self.sheets) + 1
            while self.sheet_by_title(f"Sheet{n}"):
                n += 1
            props["title"] = f"Sheet{n}"
        title = props["title"]
        if self.sheet_by_title(title) is not None:
            raise _bad(
                f'Invalid requests[0].addSheet: A sheet with the name "{title}" already exists. '
                "Please enter another name."
            )
        grid = props.setdefault("gridProperties", {})
        grid.setdefault("rowCount", DEFAULT_ROWS)
        grid.setdefault("columnCount", DEFAULT_COLS)
        props.setdefault("sheetType", "GRID")
        if props.get("hidden") is False:
            del props["hidden"]
        _check_grid(grid)
        index = props.pop("index", None)
        sheet = _Sheet(props)
        if index is None or index >= len(self.sheets):
            self.sheets.append(sheet)
        else:
            self.sheets.insert(max(0, index), sheet)
        self.reindex()
        return sheet

    def metadata(self) -> dict:
        return {
            "spreadsheetId": self.id,
            "properties": copy.deepcopy(self.props),
            "sheets": [{"properties": copy.deepcopy(sh.props),
                        **({"protectedRanges": copy.deepcopy(sh.protected)} if sh.protected else {})}
                       for sh in self.sheets],
            "spreadsheetUrl": f"https://docs.google.com/spreadsheets/d/{self.id}/edit",
        }


def _check_grid(grid: dict) -> None:
    if grid["rowCount"] < 1 or grid["columnCount"] < 1:
        raise _bad("Invalid gridProperties: rowCount and columnCount must be positive")
    if grid["rowCount"] * grid["columnCount"] > 10_000_000:
        raise _bad("This action would increase the number of cells in the workbook above the limit of 10000000 cells.")
    if grid.get("frozenRowCount", 0) >= grid["rowCount"] and grid.get("frozenRowCount", 0) > 0:
        raise _bad("You can't freeze all visible rows on the sheet.")
    if grid.get("frozenColumnCount", 0) >= grid["columnCount"] and grid.get("frozenColumnCount", 0) > 0:
        raise _bad("You can't freeze all visible columns on the sheet.")


def _colour_hex(colour: dict | None) -> str | None:
    if not colour:
        return None
    return "".join(f"{round(float(colour.get(k, 0)) * 255):02X}" for k in ("red", "green", "blue"))


_HYPERLINK = re.compile(r'^=\s*HYPERLINK\(\s*"((?:[^"]|"")*)"\s*[;,]\s*"((?:[^"]|"")*)"\s*\)\s*$', re.I)


def _effective(cell: dict) -> Any:
    uev = cell.get("userEnteredValue")
    if not uev:
        return None
    if "stringValue" in uev:
        return uev["stringValue"]
    if "numberValue" in uev:
        return uev["numberValue"]
    if "boolValue" in uev:
        return uev["boolValue"]
    if "formulaValue" in uev:
        m = _HYPERLINK.match(uev["formulaValue"])
        if m:
            return m.group(2).replace('""', '"')
        return "#NAME?"
    if "errorValue" in uev:
        return "#ERROR!"
    return None


def _decimal_sep(locale: str) -> str:
    return "," if locale.split("_")[0].lower() in COMMA_DECIMAL_LOCALES else "."


def _format_number(value: float | int, locale: str) -> str:
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = repr(value) if isinstance(value, float) else str(value)
    return text.replace(".", _decimal_sep(locale))


def _number(value: Any) -> int | float:
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


# locales whose digit grouping is a space (ru_RU "1 000"); other comma-decimal locales group with "."
SPACE_GROUPING_LOCALES = ("ru", "uk", "be", "kk", "fr", "pl", "cs", "sk", "sv", "fi", "nb", "no", "bg", "lt", "lv", "et")
_SERIAL_EPOCH = dt.date(1899, 12, 30)


def _language(locale: str) -> str:
    return locale.replace("-", "_").split("_")[0].lower()


def _typed_number(text: str, locale: str) -> int | float | None:
    """The number a typed text is in ``locale`` (see the module's notes), or None."""
    if _decimal_sep(locale) == ",":
        if _language(locale) in SPACE_GROUPING_LOCALES:  # loose groups: "1 000", "2 5 8", "8 9 10"
            m = re.fullmatch(r"([+-]?)(\d+(?:[ \u00a0]\d+)*)(?:,(\d+))?", text)
        else:
            m = re.fullmatch(r"([+-]?)(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d+))?", text)
        if m:
            whole = re.sub(r"[ \u00a0.]", "", m.group(2))
            return _number(float(f"{m.group(1)}{whole}.{m.group(3) or 0}"))
        return None
    m = re.fullmatch(r"([+-]?)(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?", text)
    if m:
        return _number(float(f"{m.group(1)}{m.group(2).replace(',', '')}.{m.group(3) or 0}"))
    return None


def _typed_date(text: str, locale: str, today: dt.date) -> dt.date | None:
    """The date a typed text is in ``locale`` (see the module's notes), or None."""
    if _decimal_sep(locale) == ",":
        m = re.fullmatch(r"(\d{1,2})\.(\d{1,2})(?:\.(\d{1,4}))?", text)
        parts = (m.group(1), m.group(2), m.group(3)) if m else None  # day, month, year
    else:
        m = re.fullmatch(r"(\d{1,2})/(\d{1,2})(?:/(\d{1,4}))?", text) or \
            re.fullmatch(r"(\d{1,2}) (\d{1,2})(?: (\d{1,4}))?", text)
        parts = (m.group(2), m.group(1), m.group(3)) if m else None
    if parts is None:
        return None
    day, month, year = parts
    y = today.year if year is None else int(year)
    if year is not None and len(year) <= 2:
        y += 2000 if y < 30 else 1900
    try:
        return dt.date(y, int(month), int(day))
    except ValueError:
        return None


def _user_entered(value: Any, locale: str, *, plain_text: bool = False,
                  today: dt.date | None = None) -> tuple[dict, str | None]:
    """What the Sheets UI makes of a value typed by a person (USER_ENTERED) into a cell
    (``plain_text``: a cell formatted as plain text): (userEnteredValue, the number format type
    Sheets gives the cell, or None to leave it)."""
    if isinstance(value, bool):
        return {"boolValue": value}, None
    if isinstance(value, (int, float)):
        return {"numberValue": value}, None
    if value is None:
        return {}, None
    text = str(value)
    if plain_text:
        return {"stringValue": text}, None
    if text.startswith("'"):
        return {"stringValue": text[1:]}, None
    if text.startswith("=") and len(text) > 1:
        return {"formulaValue": text}, None
    candidate = text.strip()
    if candidate.upper() in ("TRUE", "FALSE"):
        return {"boolValue": candidate.upper() == "TRUE"}, None
    number = _typed_number(candidate, locale)
    if number is not None:
        return {"numberValue": number}, None
    day = _typed_date(candidate, locale, today or dt.date.today())
    if day is not None:
        return {"numberValue": (day - _SERIAL_EPOCH).days}, "DATE"
    return {"stringValue": text}, None


def _type_into(cell: dict, value: Any, locale: str, *, raw: bool, today: dt.date | None) -> None:
    """Store ``value`` typed into ``cell`` (RAW, or USER_ENTERED honouring the cell's format)."""
    if raw:
        uev, kind = _raw_value(value), None
    else:
        plain = cell.get("userEnteredFormat", {}).get("numberFormat", {}).get("type") == "TEXT"
        uev, kind = _user_entered(value, locale, plain_text=plain, today=today)
    _set_path(cell, ["userEnteredValue"], uev or None)
    if kind is not None:
        _set_path(cell, ["userEnteredFormat", "numberFormat"], {"type": kind})


def _raw_value(value: Any) -> dict:
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, (int, float)):
        return {"numberValue": value}
    if value is None:
        return {}
    return {"stringValue": str(value)}


# -- Drive changes, permissions and Google's per-minute quotas ----------------------------------
QUOTA_PER_MINUTE = 60  # Sheets API: read requests and write requests per minute per user (a service account is one)
QUOTA_WINDOW = 60.0
QUOTA_MESSAGES = {
    "read": ("Read requests", "ReadRequestsPerMinutePerUser", "read_requests"),
    "write": ("Write requests", "WriteRequestsPerMinutePerUser", "write_requests"),
}


def quota_error(kind: str) -> dict:
    """Google's 429 body for a Sheets per-user quota (the shape the API returns, ``details`` included)."""
    metric, limit, short = QUOTA_MESSAGES[kind]
    return {"error": {
        "code": 429,
        "message": f"Quota exceeded for quota metric '{metric}' and limit '{metric} per minute per user' of service "
                   "'sheets.googleapis.com' for consumer 'project_number:000000000000'.",
        "status": "RESOURCE_EXHAUSTED",
        "details": [{
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            "reason": "RATE_LIMIT_EXCEEDED",
            "domain": "googleapis.com",
            "metadata": {"quota_metric": f"sheets.googleapis.com/{short}", "quota_limit": limit,
                         "service": "sheets.googleapis.com", "consumer": "projects/000000000000",
                         "quota_location": "global", "quota_limit_value": str(QUOTA_PER_MINUTE)},
        }],
    }}


def sheets_request_kind(method: str, path: str) -> str | None:
    """``read`` / ``write`` for a Sheets API request (the two per-minute quotas), None otherwise (Drive,
    the token endpoint: Drive has a quota of its own)."""
    if not path.startswith("/v4/spreadsheets"):
        return None
    if method == "GET" or path.endswith("values:batchGetByDataFilter"):
        return "read"
    return "write"


@dataclass
class DriveChange:
    """One entry of the Drive changes feed: a file modified (by ``user``), or its share with
    ``removed_for`` deleted; visible to the feed from ``visible_at`` (Drive lags behind Sheets).
    A change of sharing only (``content`` False) is in the feed but moves neither the file's
    ``modifiedTime`` nor its ``lastModifyingUser``, as in Drive."""

    seq: int
    file_id: str
    at: float
    visible_at: float
    user: str
    removed_for: str | None = None
    content: bool = True


class DriveFeed:
    """The fake's Drive side: per-file permissions, the changes feed per account, Drive's lag."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.delay = 0.0  # seconds before a change shows in the feed (Drive sees Sheets edits up to ~3 min late)
        self.changes: list[DriveChange] = []
        self.edits: dict[str, list[DriveChange]] = {}  # file -> its content changes, in order
        self.expired_before = 0  # page tokens below this answer 410 Gone (:meth:`FakeSheetsServer.expire_page_tokens`)

    def record(self, file_id: str, user: str, removed_for: str | None = None, *, content: bool = True) -> None:
        now = self.clock()
        change = DriveChange(len(self.changes) + 1, file_id, now, now + self.delay, user, removed_for,
                             content and removed_for is None)
        self.changes.append(change)
        if change.content:
            self.edits.setdefault(file_id, []).append(change)

    def last_edit(self, file_id: str, now: float) -> DriveChange | None:
        """The file's latest content change Drive knows of at ``now`` (its ``modifiedTime`` and
        ``lastModifyingUser``): Drive's lag holds back the file's metadata as it holds the feed."""
        return next((c for c in reversed(self.edits.get(file_id, [])) if c.visible_at <= now), None)

    def start_token(self) -> str:
        return str(len(self.changes) + 1)

    def page(self, books: dict[str, _Spreadsheet], email: str, token: str, size: int) -> dict:
        """The ``changes.list`` answer for ``email`` from ``token``: one change per file (the latest),
        only changes already visible; ``newStartPageToken`` stops before the first invisible one."""
        try:
            start = int(token)
        except ValueError:
            raise _bad(f"Invalid Value: pageToken {token!r}") from None
        if start < self.expired_before:
            raise ApiError(410, "The page token is no longer valid; start again from a new startPageToken.", "GONE")
        now = self.clock()
        end = next((c.seq for c in self.changes[start - 1:] if c.visible_at > now), len(self.changes) + 1)
        latest: dict[str, DriveChange] = {}
        for change in self.changes[start - 1:end - 1]:
            if change.removed_for == email or (change.removed_for is None and self._sees(books, change.file_id, email)):
                latest.pop(change.file_id, None)
                latest[change.file_id] = change
        items = list(latest.values())
        if len(items) > size:
            last = items[size - 1].seq
            return {"kind": "drive#changeList", "nextPageToken": str(last + 1),
                    "changes": [self._json(books, c, now) for c in items[:size]]}
        return {"kind": "drive#changeList", "newStartPageToken": str(end),
                "changes": [self._json(books, c, now) for c in items]}

    @staticmethod
    def _sees(books: dict[str, _Spreadsheet], file_id: str, email: str) -> bool:
        book = books.get(file_id)
        return book is not None and (book.shared_with is None or email in book.shared_with)

    def _json(self, books: dict[str, _Spreadsheet], change: DriveChange, now: float) -> dict:
        out: dict[str, Any] = {"kind": "drive#change", "changeType": "file", "type": "file",
                               "time": _drive_stamp(change.at), "fileId": change.file_id,
                               "removed": change.removed_for is not None}
        book = books.get(change.file_id)
        if change.removed_for is None and book is not None:
            edit = self.last_edit(change.file_id, now) or change  # a file never edited: dated by this change
            out["file"] = {"kind": "drive#file", "id": book.id, "name": book.props["title"],
                           "mimeType": "application/vnd.google-apps.spreadsheet", "modifiedTime": _drive_stamp(edit.at),
                           "lastModifyingUser": {"kind": "drive#user", "emailAddress": edit.user}}
        return out


def _drive_stamp(seconds: float) -> str:
    """Drive's RFC 3339 time in UTC with milliseconds: ``2026-12-05T10:15:30.123Z``."""
    return dt.datetime.fromtimestamp(seconds, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def _permission_id(email: str) -> str:
    return "p" + hashlib.sha1(email.lower().encode()).hexdigest()[:16]


def _permission_list(book: _Spreadsheet) -> list[dict]:
    """Drive's ``permissions.list``: the owner, those shared by a request, those shared by the test."""
    out = [{"id": _permission_id(book.owner), "type": "user", "role": "owner", "emailAddress": book.owner}] \
        if book.owner else []
    for p in book.permissions:
        out.append({"id": _permission_id(p.get("emailAddress", "anyone")), "type": p.get("type"),
                    "role": p.get("role"), **({"emailAddress": p["emailAddress"]} if p.get("emailAddress") else {})})
    listed = {p.get("emailAddress") for p in out}
    for email in sorted(book.shared_with or ()):
        if email not in listed:
            out.append({"id": _permission_id(email), "type": "user",
                        "role": "reader" if email in book.readers else "writer", "emailAddress": email})
    return out


class QuotaMeter:
    """Sheets requests per account in a rolling minute (Google's 60 reads / 60 writes per user), and
    counters for tests and benches: per account and minute, per file."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.enabled = True
        self.limit = QUOTA_PER_MINUTE
        self.recent: dict[tuple[str, str], deque[float]] = {}  # (account, kind) -> accepted request times
        self.per_minute: dict[tuple[str, str, int], int] = {}  # (account, kind, minute) -> accepted requests
        self.file_reads: dict[str, int] = {}
        self.file_writes: dict[str, int] = {}
        self.refused: dict[tuple[str, str], int] = {}  # (account, kind) -> 429s answered

    def admit(self, account: str, kind: str, file_id: str | None) -> bool:
        """Count one request; False (and not counted) when it is over the quota."""
        now = self.clock()
        times = self.recent.setdefault((account, kind), deque())
        while times and times[0] <= now - QUOTA_WINDOW:
            times.popleft()
        if self.enabled and len(times) >= self.limit:
            self.refused[(account, kind)] = self.refused.get((account, kind), 0) + 1
            return False
        times.append(now)
        minute = int(now // 60)
        self.per_minute[(account, kind, minute)] = self.per_minute.get((account, kind, minute), 0) + 1
        if file_id is not None:
            counts = self.file_reads if kind == "read" else self.file_writes
            counts[file_id] = counts.get(file_id, 0) + 1
        return True

    def busiest_minute(self, kind: str) -> int:
        """The most requests of ``kind`` any account made in one calendar minute."""
        return max((n for (_, k, _), n in self.per_minute.items() if k == kind), default=0)

    def in_last_minute(self, account: str, kind: str) -> int:
        now = self.clock()
        return sum(1 for t in self.recent.get((account, kind), ()) if t > now - QUOTA_WINDOW)

    def reset(self) -> None:
        self.recent.clear()
        self.per_minute.clear()
        self.file_reads.clear()
        self.file_writes.clear()
        self.refused.clear()


# -- the server ---------------------------------------------------------------------------
class FakeSheetsServer:
    """The fake API on 127.0.0.1 (``port=0``: any free port)."""

    def __init__(self, port: int = 0, host: str = "127.0.0.1", *, check_auth: bool = True) -> None:
        self.host, self.port = host, port
        self.check_auth = check_auth
        self.spreadsheets: dict[str, _Spreadsheet] = {}
        self.tokens: dict[str, str] = {}  # access token -> client e-mail
        self.request_log: list[dict] = []
        self.token_requests = 0
        self.faults: deque[Fault] = deque()
        self.fault_rates: dict[int, float] = {}  # status -> probability per request
        self.rng = random.Random(1234)
        self.today: dt.date | None = None  # "today" for dates typed without a year (None: the real one)
        self.clock: Callable[[], float] = time.time  # the quotas' and Drive's clock (tests move their own)
        self.drive = DriveFeed(lambda: self.clock())
        self.quota = QuotaMeter(lambda: self.clock())
        self.lock = threading.RLock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # lifecycle ------------------------------------------------------------------------
    def start(self) -> FakeSheetsServer:
        server = self

        class Handler(_Handler):
            fake = server

        self._httpd = ThreadingHTTPServer((self.host, self.port), Handler)
        self._httpd.daemon_threads = True
        self.port = self._httpd.server_address[1]
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="fake-sheets", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> FakeSheetsServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def token_uri(self) -> str:
        return self.url + "/token"

    # test helpers -----------------------------------------------------------------------
    @property
    def request_count(self) -> int:
        """Sheets/Drive API requests since the last reset (the token endpoint not counted)."""
        with self.lock:
            return sum(1 for r in self.request_log if r["path"] != "/token")

    def reset_counts(self) -> None:
        """Forget the requests made so far (the log, the token count and the quota's window: a test
        starts with a fresh minute)."""
        with self.lock:
            self.request_log.clear()
            self.token_requests = 0
            self.quota.reset()

    @property
    def drive_delay(self) -> float:
        """Seconds before a change shows in the Drive changes feed."""
        return self.drive.delay

    @drive_delay.setter
    def drive_delay(self, seconds: float) -> None:
        self.drive.delay = seconds

    def storm(self, status: int, count: int, match: str = "/v4/spreadsheets") -> None:
        """The next ``count`` requests matching ``match`` answer ``status`` (a 429 or 500 storm)."""
        message = quota_error("read")["error"]["message"] if status == 429 else None
        self.faults.append(Fault(status=status, times=count, match=match, message=message))

    def expire_page_tokens(self) -> None:
        """Every changes page token given so far answers 410 Gone (as Google's do when they go stale);
        a new ``startPageToken`` works."""
        with self.lock:
            self.drive.record("", "google")  # an entry nobody sees: the fresh start token differs from every stale one
            self.drive.expired_before = len(self.drive.changes) + 1

    def unshare(self, spreadsheet_id: str, email: str) -> None:
        """Delete ``email``'s permission, as the owner does in the Share dialog (the feed says ``removed``)."""
        with self.lock:
            book = self.spreadsheets[spreadsheet_id]
            if book.shared_with is not None:
                book.shared_with.discard(email)
            book.permissions = [p for p in book.permissions if p.get("emailAddress") != email]
            book.readers.discard(email)
            self.drive.record(spreadsheet_id, "owner@example.com", removed_for=email)

    def create_spreadsheet(
        self,
        title: str = "Untitled spreadsheet",
        tabs: dict[str, list[list[Any]]] | None = None,
        *,
        locale: str = "ru_RU",
        shared_with: set[str] | None = None,
        spreadsheet_id: str | None = None,
    ) -> str:
        """Create a spreadsheet directly; cell values are stored as a person would type them."""
        with self.lock:
            sid = spreadsheet_id or secrets.token_urlsafe(33)[:44]
            book = _Spreadsheet(sid, title, locale)
            book.shared_with = shared_with
            for name in tabs or {"Sheet1": []}:
                book.add_sheet({"title": name})
            self.spreadsheets[sid] = book
        for name, rows in (tabs or {}).items():
            if rows:
                self.set_values(sid, name, rows)
        return sid

    def forbid_sharing(self, spreadsheet_id: str, forbidden: bool = True) -> None:
        """The owner turns off «Editors can change permissions and share»: editors other than the
        owner get ``canShare`` false, and their ``permissions.create``/``delete`` answer 403."""
        with self.lock:
            self.spreadsheets[spreadsheet_id].writers_can_share = not forbidden

    def share(self, spreadsheet_id: str, email: str | None, role: str = "writer") -> None:
        """Restrict the spreadsheet to e-mails given here (None: open to everybody); ``role``
        ``reader`` is the Share dialog's «Viewer» (sharing again with another role changes it)."""
        with self.lock:
            book = self.spreadsheets[spreadsheet_id]
            if email is None:
                book.shared_with = None
            else:
                book.shared_with = (book.shared_with or set()) | {email}
                if role == "reader":
                    book.readers.add(email)
                else:
                    book.readers.discard(email)
                self.drive.record(spreadsheet_id, "owner@example.com", content=False)

    def set_values(
        self, spreadsheet_id: str, tab: str, rows: list[list[Any]], start: str = "A1", *, raw: bool = False,
        user: str = "judge@example.com",
    ) -> None:
        """Simulate a person (``user``) typing ``rows`` at ``start`` (USER_ENTERED unless ``raw``)."""
        with self.lock:
            self.drive.record(spreadsheet_id, user)
            book = self.spreadsheets[spreadsheet_id]
            sheet = book.sheet_by_title(tab)
            if sheet is None:
                raise KeyError(tab)
            r0, _, c0, _ = _parse_cells(start)
            for i, row in enumerate(rows):
                for j, value in enumerate(row):
                    self._grow(sheet, r0 + i + 1, c0 + j + 1)
                    cell = sheet.cells.setdefault((r0 + i, c0 + j), {})
                    _type_into(cell, value, book.props["locale"], raw=raw, today=self.today)

    def set_number_format(self, spreadsheet_id: str, tab: str, cell: str, kind: str) -> None:
        """Format one cell as Format › Number does (``kind``: ``TEXT`` for plain text, ``NUMBER``…)."""
        with self.lock:
            sheet = self.spreadsheets[spreadsheet_id].sheet_by_title(tab)
            if sheet is None:
                raise KeyError(tab)
            r, _, c, _ = _parse_cells(cell)
            self._grow(sheet, r + 1, c + 1)
            _set_path(sheet.cells.setdefault((r, c), {}), ["userEnteredFormat", "numberFormat"], {"type": kind})

    def add_tab(self, spreadsheet_id: str, title: str) -> int:
        with self.lock:
            return self.spreadsheets[spreadsheet_id].add_sheet({"title": title}).id

    def rename_tab(self, spreadsheet_id: str, old: str, new: str) -> None:
        with self.lock:
            sheet = self.spreadsheets[spreadsheet_id].sheet_by_title(old)
            if sheet is None:
                raise KeyError(old)
            sheet.props["title"] = new

    def rename_mid_cycle(self, spreadsheet_id: str, old: str, new: str, match: str = "values:batchGet") -> None:
        """Rename a tab just before the next request matching ``match`` is handled."""
        self.faults.append(Fault(match=match, action=lambda: self.rename_tab(spreadsheet_id, old, new)))

    def delete_tab(self, spreadsheet_id: str, title: str) -> None:
        with self.lock:
            book = self.spreadsheets[spreadsheet_id]
            book.sheets = [sh for sh in book.sheets if sh.title != title]
            book.reindex()

    def tabs(self, spreadsheet_id: str) -> list[str]:
        with self.lock:
            return [sh.title for sh in self.spreadsheets[spreadsheet_id].sheets]

    def sheet_properties(self, spreadsheet_id: str, tab: str) -> dict:
        with self.lock:
            sheet = self.spreadsheets[spreadsheet_id].sheet_by_title(tab)
            assert sheet is not None, tab
            return copy.deepcopy(sheet.props)

    def column_widths(self, spreadsheet_id: str, tab: str) -> dict[int, int]:
        with self.lock:
            sheet = self.spreadsheets[spreadsheet_id].sheet_by_title(tab)
            assert sheet is not None, tab
            return dict(sheet.col_widths)

    def cells(self, spreadsheet_id: str, tab: str) -> dict[str, Cell]:
        """Every non-blank stored cell of a tab: A1 -> :class:`Cell`."""
        with self.lock:
            sheet = self.spreadsheets[spreadsheet_id].sheet_by_title(tab)
            if sheet is None:
                raise KeyError(tab)
            out = {}
            for (r, c), data in sorted(sheet.cells.items()):
                if not data:
                    continue
                fmt = data.get("userEnteredFormat", {})
                dv = data.get("dataValidation")
                out[_a1(r, c)] = Cell(
                    value=_effective(data),
                    formula=data.get("userEnteredValue", {}).get("formulaValue"),
                    note=data.get("note"),
                    background=_colour_hex(fmt.get("backgroundColor")),
                    bold=bool(fmt.get("textFormat", {}).get("bold")),
                    validation=tuple(v.get("userEnteredValue") for v in dv["condition"].get("values", ()))
                    if dv
                    else None,
                    number_format=fmt.get("numberFormat", {}).get("type"),
                    raw=copy.deepcopy(data),
                )
            return out

    def values(self, spreadsheet_id: str, tab: str) -> list[list[Any]]:
        """The tab's effective values as rows (trailing blanks trimmed)."""
        with self.lock:
            book = self.spreadsheets[spreadsheet_id]
            sheet = book.sheet_by_title(tab)
            if sheet is None:
                raise KeyError(tab)
            return _grid_values(sheet, 0, sheet.rows, 0, sheet.cols, formatted=False, locale=book.props["locale"])

    @staticmethod
    def _grow(sheet: _Sheet, rows: int, cols: int) -> None:
        grid = sheet.props["gridProperties"]
        grid["rowCount"] = max(grid["rowCount"], rows)
        grid["columnCount"] = max(grid["columnCount"], cols)

    # request handling ------------------------------------------------------------------
    def _take_fault(self, method: str, path: str) -> Fault | None:
        key = f"{method} {path}"
        with self.lock:
            for fault in list(self.faults):
                if path == "/token" and "token" not in fault.match:
                    continue  # faults hit the token endpoint only when they ask for it
                if fault.match in key:
                    fault.times -= 1
                    if fault.times <= 0:
                        self.faults.remove(fault)
                    return fault
            if path != "/token":
                for status, p in self.fault_rates.items():
                    if self.rng.random() < p:
                        return Fault(status=status)
        return None

    def handle(self, method: str, raw_path: str, headers: dict[str, str], body: bytes) -> tuple[int, dict | None]:
        split = urlsplit(raw_path)
        path = unquote(split.path)
        query = parse_qs(split.query, keep_blank_values=True)
        with self.lock:
            self.request_log.append({"method": method, "path": path, "query": query, "bytes": len(body),
                                     "url_length": len(raw_path)})
        if len(body) > MAX_REQUEST_BYTES:  # Google's answer to a body over its limit, before anything else
            return 400, ApiError(400, f"Request payload size exceeds the limit: {MAX_REQUEST_BYTES} bytes.",
                                 "INVALID_ARGUMENT").body()
        fault = self._take_fault(method, path)
        if fault is not None:
            if fault.delay:
                time.sleep(fault.delay)
            if fault.action is not None:
                fault.action()
            if fault.status is not None:
                status = fault.status
                return status, ApiError(
                    status, fault.message or STATUS_MESSAGES.get(status, "Error"), STATUS_NAMES.get(status, "UNKNOWN")
                ).body()
        try:
            if path == "/token" and method == "POST":
                return 200, self._token(body)
            email = self._authenticate(headers)
            kind = sheets_request_kind(method, path)
            if kind is not None:
                m = re.match(r"/v4/spreadsheets/([^/:]+)", path)
                with self.lock:
                    admitted = self.quota.admit(email, kind, m.group(1) if m else None)
                if not admitted:
                    return 429, quota_error(kind)
            if path.startswith("/drive/v3/"):
                return self._drive(method, path, query, body, email)
            return 200, self._route(method, path, query, body, email)
        except ApiError as exc:
            return exc.code, exc.body()

    def _token(self, body: bytes) -> dict:
        form = parse_qs(body.decode())
        self.token_requests += 1
        grant = form.get("grant_type", [""])[0]
        if grant != "urn:ietf:params:oauth:grant-type:jwt-bearer":
            raise ApiError(400, "unsupported_grant_type", "INVALID_ARGUMENT")
        try:
            _, payload_b64, _ = form["assertion"][0].split(".")
            payload = json.loads(base64.urlsafe_b64decode(payload_b64 + "=" * (-len(payload_b64) % 4)))
        except Exception as exc:  # noqa: BLE001
            raise ApiError(400, "invalid_grant: malformed assertion", "INVALID_ARGUMENT") from exc
        if payload.get("exp", 0) < time.time() - 60 or not payload.get("iss"):
            raise ApiError(400, "invalid_grant: Invalid JWT", "INVALID_ARGUMENT")
        token = "ya29.fake-" + secrets.token_urlsafe(24)
        with self.lock:
            self.tokens[token] = payload["iss"]
        return {"access_token": token, "expires_in": 3599, "token_type": "Bearer"}

    def _authenticate(self, headers: dict[str, str]) -> str:
        auth = headers.get("authorization", "")
        if not self.check_auth:
            return self.tokens.get(auth.removeprefix("Bearer "), "anonymous")
        token = auth.removeprefix("Bearer ")
        with self.lock:
            email = self.tokens.get(token)
        if not auth.startswith("Bearer ") or email is None:
            raise ApiError(
                401,
                "Request is missing required authentication credential. Expected OAuth 2 access token, "
                "login cookie or other valid authentication credential.",
                "UNAUTHENTICATED",
            )
        return email

    def _book(self, sid: str, email: str) -> _Spreadsheet:
        book = self.spreadsheets.get(sid)
        if book is None:
            raise ApiError(404, "Requested entity was not found.", "NOT_FOUND")
        if book.shared_with is not None and email not in book.shared_with:
            raise ApiError(403, "The caller does not have permission", "PERMISSION_DENIED")
        return book

    def _route(self, method: str, path: str, query: dict, body: bytes, email: str) -> dict:
        data = json.loads(body) if body else {}
        if path == "/v4/spreadsheets" and method == "POST":
            return self._create(data, email)
        m = re.fullmatch(r"/v4/spreadsheets/([^/:]+)(/values:batchGet|/values:batchGetByDataFilter|/values:batchUpdate|:batchUpdate)?",
                         path)
        if not m:
            raise ApiError(404, f"Method not found: {method} {path}", "NOT_FOUND")
        sid, op = m.group(1), m.group(2)
        with self.lock:
            book = self._book(sid, email)
            book.requester = email
            if method == "POST" and op in ("/values:batchUpdate", ":batchUpdate") and email in book.readers:
                raise ApiError(403, "The caller does not have permission", "PERMISSION_DENIED")
            if op is None and method == "GET":
                return self._get(book, query)
            if op == "/values:batchGet" and method == "GET":
                return self._batch_get(book, query)
            if op == "/values:batchGetByDataFilter" and method == "POST":
                return self._batch_get_by_data_filter(book, data)
            if op == "/values:batchUpdate" and method == "POST":
                reply = self._values_batch_update(book, data)
                self.drive.record(sid, email)
                return reply
            if op == ":batchUpdate" and method == "POST":
                reply = self._batch_update(book, data)
                self.drive.record(sid, email)
                return reply
        raise ApiError(404, f"Method not found: {method} {path}", "NOT_FOUND")

    # Drive ----------------------------------------------------------------------------------
    def _drive(self, method: str, path: str, query: dict, body: bytes, email: str) -> tuple[int, dict | None]:
        """``changes/startPageToken``, ``changes`` (``pageToken``, ``pageSize``; removed entries always
        included), ``files/{id}/permissions`` list and create, ``…/permissions/{permId}`` delete."""
        data = json.loads(body) if body else {}
        with self.lock:
            if path == "/drive/v3/changes/startPageToken" and method == "GET":
                return 200, {"kind": "drive#startPageToken", "startPageToken": self.drive.start_token()}
            if path == "/drive/v3/changes" and method == "GET":
                token = query.get("pageToken", [""])[0]
                size = int(query.get("pageSize", ["100"])[0])
                return 200, self.drive.page(self.spreadsheets, email, token, max(1, min(size, 1000)))
            file_match = re.fullmatch(r"/drive/v3/files/([^/]+)", path)
            if file_match is not None and method == "GET":
                return 200, self._drive_file(self._book(file_match.group(1), email), email, query)
            m = re.fullmatch(r"/drive/v3/files/([^/]+)/permissions(?:/([^/]+))?", path)
            if m is None:
                raise ApiError(404, f"Method not found: {method} {path}", "NOT_FOUND")
            book = self._book(m.group(1), email)
            if m.group(2) is None and method == "GET":
                return 200, {"kind": "drive#permissionList", "permissions": _permission_list(book)}
            if method in ("POST", "DELETE") and not book.may_share(email):
                raise ApiError(403, "The user does not have sufficient permissions for this file.",
                               "PERMISSION_DENIED")
            if m.group(2) is None and method == "POST":
                book.permissions = [p for p in book.permissions  # a second share of one address changes its role
                                    if not data.get("emailAddress") or p.get("emailAddress") != data["emailAddress"]]
                book.permissions.append(data)  # recorded as asked (tests compare it)
                if book.shared_with is not None and data.get("emailAddress"):
                    book.shared_with.add(data["emailAddress"])
                    if data.get("role") == "reader":
                        book.readers.add(data["emailAddress"])
                    else:
                        book.readers.discard(data["emailAddress"])
                self.drive.record(book.id, email, content=False)
                return 200, {"kind": "drive#permission", "id": _permission_id(data.get("emailAddress", "anyone")),
                             "type": data.get("type"), "role": data.get("role")}
            if m.group(2) is not None and method == "DELETE":
                found = [p for p in _permission_list(book) if p["id"] == m.group(2) and p["role"] != "owner"]
                if not found:
                    raise ApiError(404, f"Permission not found: {m.group(2)}.", "NOT_FOUND")
                self.unshare(book.id, found[0].get("emailAddress", ""))
                return 204, None
        raise ApiError(404, f"Method not found: {method} {path}", "NOT_FOUND")

    @staticmethod
    def _drive_file(book: _Spreadsheet, email: str, query: dict) -> dict:
        """Drive's ``files.get``: the file as ``email`` sees it (``capabilities`` are the caller's)."""
        can_edit = email not in book.readers
        meta = {"kind": "drive#file", "id": book.id, "name": book.props["title"],
                "mimeType": "application/vnd.google-apps.spreadsheet",
                "capabilities": {"canEdit": can_edit, "canComment": can_edit, "canShare": book.may_share(email),
                                 "canCopy": True, "canDownload": True}}
        fields = query.get("fields", [""])[0].replace("/", ".")
        return _select(meta, [p.split(".") for p in _parse_mask(fields)]) if fields else meta

    # endpoints ----------------------------------------------------------------------------
    def _create(self, data: dict, email: str) -> dict:
        props = data.get("properties", {})
        with self.lock:
            sid = secrets.token_urlsafe(33)[:44]
            book = _Spreadsheet(sid, props.get("title", "Untitled spreadsheet"), props.get("locale", "en_US"))
            book.shared_with = {email} if self.check_auth else None
            book.owner = email
            for sheet in data.get("sheets") or [{"properties": {"title": "Sheet1"}}]:
                book.add_sheet(sheet.get("properties", {}))
            self.spreadsheets[sid] = book
            return book.metadata()

    def _get(self, book: _Spreadsheet, query: dict) -> dict:
        meta = book.metadata()
        for sh_meta in meta["sheets"]:  # editors: "only visible to users with edit access to the protected range"
            for protection in sh_meta.get("protectedRanges", ()):
                protection["requestingUserCanEdit"] = book.may_edit(protection)
                if not book.may_edit(protection):
                    protection.pop("editors", None)
        if query.get("includeGridData", ["false"])[0].lower() == "true":
            for sh_meta, sheet in zip(meta["sheets"], book.sheets):
                sh_meta["data"] = [{"startRow": 0, "startColumn": 0, "rowData": _row_data(sheet)}]
        fields = query.get("fields", [""])[0]
        if fields:
            meta = _select(meta, [p.split(".") for p in _parse_mask(fields)])
        return meta

    def _resolve(self, book: _Spreadsheet, rng: str) -> tuple[_Sheet, int, int, int, int]:
        try:
            name, cells = _split_range(rng)
        except ValueError:
            raise _bad(f"Unable to parse range: {rng}") from None
        if name is None:
            sheet = book.sheet_by_title(rng)
            if sheet is not None:
                cells = None
            elif book.sheets:
                sheet = book.sheets[0]
            else:
                raise _bad(f"Unable to parse range: {rng}")
        else:
            sheet = book.sheet_by_title(name)
            if sheet is None:
                raise _bad(f"Unable to parse range: {rng}")
        if cells is None:
            return sheet, 0, sheet.rows, 0, sheet.cols
        try:
            r0, r1, c0, c1 = _parse_cells(cells)
        except ValueError:
            raise _bad(f"Unable to parse range: {rng}") from None
        return sheet, r0, min(r1 or sheet.rows, sheet.rows), c0, min(c1 or sheet.cols, sheet.cols)

    def _batch_get(self, book: _Spreadsheet, query: dict) -> dict:
        render = query.get("valueRenderOption", ["FORMATTED_VALUE"])[0]
        dt_render = query.get("dateTimeRenderOption", ["SERIAL_NUMBER"])[0]
        major = query.get("majorDimension", ["ROWS"])[0]
        if render not in ("FORMATTED_VALUE", "UNFORMATTED_VALUE", "FORMULA"):
            raise _bad(f"Invalid value at 'value_render_option' (TYPE_ENUM), \"{render}\"")
        if dt_render not in ("SERIAL_NUMBER", "FORMATTED_STRING"):
            raise _bad(f"Invalid value at 'date_time_render_option' (TYPE_ENUM), \"{dt_render}\"")
        if major not in ("ROWS", "COLUMNS"):
            raise _bad(f"Invalid value at 'major_dimension' (TYPE_ENUM), \"{major}\"")
        out = []
        for rng in query.get("ranges", []):
            sheet, r0, r1, c0, c1 = self._resolve(book, rng)
            values = _grid_values(
                sheet, r0, r1, c0, c1, formatted=render == "FORMATTED_VALUE", locale=book.props["locale"],
                formula=render == "FORMULA", dates_as_strings=dt_render == "FORMATTED_STRING",
            )
            if major == "COLUMNS" and values:
                width = max(len(r) for r in values)
                cols = [[(row[j] if j < len(row) else "") for row in values] for j in range(width)]
                values = [_trim_row(col) for col in cols]
                while values and not values[-1]:
                    values.pop()
            vr: dict[str, Any] = {"range": _range_name(sheet, r0, r1, c0, c1), "majorDimension": major}
            if values:
                vr["values"] = values
            out.append(vr)
        return {"spreadsheetId": book.id, "valueRanges": out}

    def _batch_get_by_data_filter(self, book: _Spreadsheet, data: dict) -> dict:
        """The POST twin of batchGet: ranges travel in the body, so there is no URL limit."""
        filters = data.get("dataFilters") or []
        if not filters:
            raise _bad("Invalid dataFilters: must specify at least one data filter.")
        ranges = []
        for n, f in enumerate(filters):
            if "a1Range" in f:
                ranges.append(f["a1Range"])
            elif "gridRange" in f:
                g = f["gridRange"]
                sheet = book.sheet_by_id(g.get("sheetId", 0))
                r0, r1 = g.get("startRowIndex", 0), g.get("endRowIndex", sheet.rows)
                c0, c1 = g.get("startColumnIndex", 0), g.get("endColumnIndex", sheet.cols)
                title = "'" + sheet.title.replace("'", "''") + "'"
                ranges.append(f"{title}!{_a1(r0, c0)}:{_a1(max(r1, r0 + 1) - 1, max(c1, c0 + 1) - 1)}")
            else:
                raise _bad(f"Invalid dataFilters[{n}]: only a1Range and gridRange are supported by this fake")
        query = {"ranges": ranges}
        for key in ("valueRenderOption", "dateTimeRenderOption", "majorDimension"):
            if key in data:
                query[key] = [data[key]]
        got = self._batch_get(book, query)
        return {"spreadsheetId": book.id,
                "valueRanges": [{"valueRange": vr, "dataFilters": [copy.deepcopy(f)]}
                                for vr, f in zip(got["valueRanges"], filters)]}

    def _values_batch_update(self, book: _Spreadsheet, data: dict) -> dict:
        option = data.get("valueInputOption")
        if option not in ("RAW", "USER_ENTERED"):
            raise _bad("Invalid valueInputOption: INPUT_VALUE_OPTION_UNSPECIFIED")
        work = copy.deepcopy(book)
        responses = []
        for item in data.get("data", []):
            sheet, r0, r1, c0, c1 = self._resolve(work, item["range"])
            if ":" not in item["range"].rpartition("!")[2]:
                r1, c1 = 10**9, 10**9  # a single cell is only the anchor of the written block
            rows = item.get("values", [])
            if item.get("majorDimension", "ROWS") == "COLUMNS":
                width = max((len(c) for c in rows), default=0)
                rows = [[c[i] if i < len(c) else None for c in rows] for i in range(width)]
            height = len(rows)
            width = max((len(r) for r in rows), default=0)
            work.guard(sheet, r0, r0 + height, c0, c0 + width)
            if r0 + height > r1 or c0 + width > c1:
                if r0 + height > sheet.rows or c0 + width > sheet.cols:
                    self._grow(sheet, r0 + height, c0 + width)  # values API expands the grid
                else:
                    raise _bad(
                        f"Requested writing within range [{item['range']}], but tried writing to "
                        f"row [{r0 + height}]"
                    )
            for i, row in enumerate(rows):
                for j, value in enumerate(row):
                    if value is None:
                        continue
                    _type_into(sheet.cells.setdefault((r0 + i, c0 + j), {}), value, work.props["locale"],
                               raw=option == "RAW", today=self.today)
            responses.append({
                "spreadsheetId": book.id,
                "updatedRange": _range_name(sheet, r0, r0 + height, c0, c0 + width),
                "updatedRows": height,
                "updatedColumns": width,
                "updatedCells": sum(len(r) for r in rows),
            })
        self.spreadsheets[book.id] = work
        return {
            "spreadsheetId": book.id,
            "totalUpdatedRows": sum(r["updatedRows"] for r in responses),
            "totalUpdatedColumns": max((r["updatedColumns"] for r in responses), default=0),
            "totalUpdatedCells": sum(r["updatedCells"] for r in responses),
            "totalUpdatedSheets": len({r["updatedRange"].split("!")[0] for r in responses}),
            "responses": responses,
        }

    def _batch_update(self, book: _Spreadsheet, data: dict) -> dict:
        requests = data.get("requests")
        if not requests:
            raise _bad("Invalid requests: must specify at least one request.")
        work = copy.deepcopy(book)  # all-or-nothing: apply to a copy, commit at the end
        replies = []
        for n, request in enumerate(requests):
            if len(request) != 1:
                raise _bad(f"Invalid requests[{n}]: exactly one kind of request must be set")
            (kind, body), = request.items()
            handler = getattr(self, f"_req_{kind}", None)
            if handler is None:
                raise _bad(f"Invalid JSON payload received. Unknown name \"{kind}\" at 'requests[{n}]'")
            try:
                replies.append(handler(work, body) or {})
            except ApiError as exc:
                if exc.message == PROTECTED_MESSAGE:  # told as it is, naming no request
                    raise
                exc.message = re.sub(r"^Invalid requests(\[\d+\])?", f"Invalid requests[{n}]", exc.message)
                if not exc.message.startswith("Invalid requests["):
                    exc.message = f"Invalid requests[{n}].{kind}: {exc.message}"
                raise
        self.spreadsheets[book.id] = work
        result = {"spreadsheetId": book.id, "replies": replies}
        if data.get("includeSpreadsheetInResponse"):
            result["updatedSpreadsheet"] = work.metadata()
        return result

    # batchUpdate request kinds ------------------------------------------------------------
    @staticmethod
    def _grid_range(book: _Spreadsheet, rng: dict) -> tuple[_Sheet, int, int, int, int]:
        sheet = book.sheet_by_id(rng.get("sheetId", 0))
        r0, r1 = rng.get("startRowIndex", 0), rng.get("endRowIndex", sheet.rows)
        c0, c1 = rng.get("startColumnIndex", 0), rng.get("endColumnIndex", sheet.cols)
        if r0 < 0 or c0 < 0 or r1 < r0 or c1 < c0:
            raise _bad("Invalid requests: invalid GridRange")
        if r1 > sheet.rows:
            raise _bad(
                f"Invalid requests: Range ('{sheet.title}'!{_a1(r0, c0)}:{_a1(r1 - 1, max(c1 - 1, c0))}) "
                f"exceeds grid limits. Max rows: {sheet.rows}, max columns: {sheet.cols}"
            )
        if c1 > sheet.cols:
            raise _bad(
                f"Invalid requests: Range ('{sheet.title}'!{_a1(r0, c0)}:{_a1(max(r1 - 1, r0), c1 - 1)}) "
                f"exceeds grid limits. Max rows: {sheet.rows}, max columns: {sheet.cols}"
            )
        return sheet, r0, r1, c0, c1

    def _req_addSheet(self, book: _Spreadsheet, body: dict) -> dict:
        sheet = book.add_sheet(body.get("properties", {}))
        return {"addSheet": {"properties": copy.deepcopy(sheet.props)}}

    def _req_deleteSheet(self, book: _Spreadsheet, body: dict) -> None:
        sheet = book.sheet_by_id(body.get("sheetId", 0))
        book.guard_sheet(sheet)
        if len(book.sheets) == 1:
            raise _bad("Invalid requests: You can't remove all the sheets in a document.")
        book.sheets.remove(sheet)
        book.reindex()

    def _req_updateCells(self, book: _Spreadsheet, body: dict) -> None:
        fields = body.get("fields", "")
        rows = body.get("rows", [])
        if "start" in body:
            start = body["start"]
            sheet = book.sheet_by_id(start.get("sheetId", 0))
            r0, c0 = start.get("rowIndex", 0), start.get("columnIndex", 0)
            height = len(rows)
            width = max((len(r.get("values", [])) for r in rows), default=0)
            self._grid_range(book, {"sheetId": sheet.id, "startRowIndex": r0, "endRowIndex": r0 + height,
                                    "startColumnIndex": c0, "endColumnIndex": c0 + width})
            book.guard(sheet, r0, r0 + height, c0, c0 + width)
            targets = [
                (r0 + i, c0 + j, cell) for i, row in enumerate(rows) for j, cell in enumerate(row.get("values", []))
            ]
        elif "range" in body:
            sheet, r0, r1, c0, c1 = self._grid_range(book, body["range"])
            book.guard(sheet, r0, r1, c0, c1)
            if len(rows) > r1 - r0 or any(len(r.get("values", [])) > c1 - c0 for r in rows):
                raise _bad("Invalid requests: rows do not fit in the range")
            targets = []
            for r in range(r0, r1):
                row = rows[r - r0].get("values", []) if r - r0 < len(rows) else []
                for c in range(c0, c1):
                    if c - c0 < len(row) or (r, c) in sheet.cells:
                        targets.append((r, c, row[c - c0] if c - c0 < len(row) else {}))
        else:
            raise _bad("Invalid requests: updateCells needs start or range")
        for r, c, cell in targets:
            _check_cell(cell)
            _check_format(cell.get("userEnteredFormat"))
            stored = sheet.cells.setdefault((r, c), {})
            _apply_mask(stored, cell, fields, CELL_FIELDS)
            if not stored:
                del sheet.cells[(r, c)]

    def _req_repeatCell(self, book: _Spreadsheet, body: dict) -> None:
        sheet, r0, r1, c0, c1 = self._grid_range(book, body["range"])
        book.guard(sheet, r0, r1, c0, c1)
        cell = body.get("cell", {})
        _check_cell(cell)
        _check_format(cell.get("userEnteredFormat"))
        for r in range(r0, r1):
            for c in range(c0, c1):
                stored = sheet.cells.setdefault((r, c), {})
                _apply_mask(stored, cell, body.get("fields", ""), CELL_FIELDS)
                if not stored:
                    del sheet.cells[(r, c)]

    def _req_setDataValidation(self, book: _Spreadsheet, body: dict) -> None:
        sheet, r0, r1, c0, c1 = self._grid_range(book, body["range"])
        book.guard(sheet, r0, r1, c0, c1)
        rule = body.get("rule")
        if rule is not None:
            cond = rule.get("condition", {})
            if cond.get("type") not in ("ONE_OF_LIST", "ONE_OF_RANGE", "NUMBER_BETWEEN", "BOOLEAN"):
                raise _bad(f"Invalid requests: unsupported condition type {cond.get('type')}")
            if cond.get("type") == "ONE_OF_LIST" and not cond.get("values"):
                raise _bad("Invalid requests: ONE_OF_LIST condition needs values")
        for r in range(r0, r1):
            for c in range(c0, c1):
                stored = sheet.cells.setdefault((r, c), {})
                _set_path(stored, ["dataValidation"], rule)
                if not stored:
                    del sheet.cells[(r, c)]

    def _req_updateSheetProperties(self, book: _Spreadsheet, body: dict) -> None:
        props = body.get("properties", {})
        sheet = book.sheet_by_id(props.get("sheetId", 0))
        book.guard_sheet(sheet)
        fields = body.get("fields", "")
        new = copy.deepcopy(sheet.props)
        _apply_mask(new, props, fields, ("title", "index", "hidden", "gridProperties", "tabColor", "rightToLeft",
                                         "tabColorStyle"))
        new["sheetId"] = sheet.id
        if "title" in new and new["title"] != sheet.title:
            other = book.sheet_by_title(new["title"])
            if other is not None and other is not sheet:
                raise _bad(f'Invalid requests: A sheet with the name "{new["title"]}" already exists.')
        if not new.get("title"):
            raise _bad("Invalid requests: a sheet needs a title")
        grid = new.setdefault("gridProperties", {})
        grid.setdefault("rowCount", sheet.rows)
        grid.setdefault("columnCount", sheet.cols)
        for key in ("frozenRowCount", "frozenColumnCount"):
            if grid.get(key) == 0:
                grid.pop(key)
        _check_grid(grid)
        if new.get("hidden") is False:
            new.pop("hidden")
        if new.get("hidden") and all(s.props.get("hidden") for s in book.sheets if s is not sheet):
            raise _bad("Invalid requests: You can't hide all the sheets in a document.")
        index = new.pop("index", sheet.props["index"])
        sheet.props = new
        if index != book.sheets.index(sheet):
            book.sheets.remove(sheet)
            book.sheets.insert(min(index, len(book.sheets)), sheet)
        book.reindex()
        # cells beyond a shrunk grid disappear
        sheet.cells = {k: v for k, v in sheet.cells.items() if k[0] < sheet.rows and k[1] < sheet.cols}

    def _req_updateDimensionProperties(self, book: _Spreadsheet, body: dict) -> None:
        rng = body.get("range", {})
        sheet = book.sheet_by_id(rng.get("sheetId", 0))
        book.guard_sheet(sheet)
        if rng.get("dimension") not in ("ROWS", "COLUMNS"):
            raise _bad("Invalid requests: dimension must be ROWS or COLUMNS")
        if "pixelSize" not in body.get("fields", ""):
            raise _bad("Invalid requests: only pixelSize is supported by this fake")
        limit = sheet.cols if rng["dimension"] == "COLUMNS" else sheet.rows
        start, end = rng.get("startIndex", 0), rng.get("endIndex", limit)
        if end > limit or start < 0 or end <= start:
            raise _bad(f"Invalid requests: Invalid dimension range [{start}, {end}) (limit {limit})")
        sizes = sheet.col_widths if rng["dimension"] == "COLUMNS" else sheet.row_heights
        for i in range(start, end):
            sizes[i] = body["properties"]["pixelSize"]

    def _req_updateBorders(self, book: _Spreadsheet, body: dict) -> None:
        """Borders are stored as the API stores them: in each cell's ``userEnteredFormat.borders``
        (an inner border is the bottom/right of one cell and the top/left of the next)."""
        sheet, r0, r1, c0, c1 = self._grid_range(book, body["range"])
        book.guard(sheet, r0, r1, c0, c1)
        sides = ("top", "bottom", "left", "right", "innerHorizontal", "innerVertical")
        unknown = set(body) - {"range", *sides}
        if unknown:
            raise _bad(f"Invalid JSON payload received. Unknown name \"{sorted(unknown)[0]}\" at 'requests[0].update_borders'")
        for side in sides:
            if side in body:
                _check_border(body[side])
        for r in range(r0, r1):
            for c in range(c0, c1):
                edges = {"top": body.get("top") if r == r0 else body.get("innerHorizontal"),
                         "bottom": body.get("bottom") if r == r1 - 1 else body.get("innerHorizontal"),
                         "left": body.get("left") if c == c0 else body.get("innerVertical"),
                         "right": body.get("right") if c == c1 - 1 else body.get("innerVertical")}
                stored = sheet.cells.setdefault((r, c), {})
                for edge, border in edges.items():
                    if border is not None:
                        value = None if border.get("style") == "NONE" else border
                        _set_path(stored, ["userEnteredFormat", "borders", edge], value)
                if not stored:
                    del sheet.cells[(r, c)]

    def _req_addProtectedRange(self, book: _Spreadsheet, body: dict) -> dict:
        protection = copy.deepcopy(body.get("protectedRange") or {})
        if "protectedRangeId" in protection or "requestingUserCanEdit" in protection:
            raise _bad("Invalid requests: protectedRangeId and requestingUserCanEdit are read-only")
        if "namedRangeId" in protection:
            raise _bad("Invalid requests: named ranges are not supported by this fake")
        rng = protection.get("range")
        if not isinstance(rng, dict):
            raise _bad("Invalid requests: a protected range needs a range")
        sheet, *_ = self._grid_range(book, rng)
        self._check_protection(sheet, protection)
        if not any(k in rng for k in ("startRowIndex", "endRowIndex", "startColumnIndex", "endColumnIndex")) and any(
                not set(p["range"]) - {"sheetId"} for p in sheet.protected):
            raise _bad(f'Invalid requests: Sheet "{sheet.title}" already has sheet protection.')
        protection["range"] = {"sheetId": sheet.id, **{k: v for k, v in rng.items() if k != "sheetId"}}
        protection["protectedRangeId"] = book.new_protected_range_id()
        protection.setdefault("warningOnly", False)
        sheet.protected.append(protection)
        return {"addProtectedRange": {"protectedRange": {**copy.deepcopy(protection), "requestingUserCanEdit": True}}}

    def _req_updateProtectedRange(self, book: _Spreadsheet, body: dict) -> None:
        new = body.get("protectedRange") or {}
        sheet, protection = book.protected_range(new.get("protectedRangeId"))
        if not book.may_edit(protection):
            raise ApiError(400, PROTECTED_MESSAGE, "INVALID_ARGUMENT")
        updated = copy.deepcopy(protection)
        _apply_mask(updated, new, body.get("fields", ""), ("range", "description", "warningOnly", "editors",
                                                            "unprotectedRanges"))
        updated.setdefault("warningOnly", False)
        self._check_protection(sheet, updated)
        protection.clear()
        protection.update(updated)

    def _req_deleteProtectedRange(self, book: _Spreadsheet, body: dict) -> None:
        sheet, protection = book.protected_range(body.get("protectedRangeId"))
        if not book.may_edit(protection):
            raise ApiError(400, PROTECTED_MESSAGE, "INVALID_ARGUMENT")
        sheet.protected.remove(protection)

    @staticmethod
    def _check_protection(sheet: _Sheet, protection: dict) -> None:
        if protection.get("warningOnly") and protection.get("editors"):
            raise _bad("Invalid requests: Editors are not supported with warning_only protection.")
        users = protection.get("editors", {}).get("users", [])
        if not isinstance(users, list) or not all(isinstance(u, str) and "@" in u for u in users):
            raise _bad(f"Invalid requests: invalid editors {users!r}")

    def _req_appendDimension(self, book: _Spreadsheet, body: dict) -> None:
        sheet = book.sheet_by_id(body.get("sheetId", 0))
        book.guard_sheet(sheet)
        grid = sheet.props["gridProperties"]
        key = "rowCount" if body.get("dimension") == "ROWS" else "columnCount"
        grid[key] += int(body.get("length", 0))
        _check_grid(grid)


def _check_cell(cell: dict) -> None:
    uev = cell.get("userEnteredValue")
    if uev is not None:
        if len(uev) != 1 or next(iter(uev)) not in (
            "stringValue", "numberValue", "boolValue", "formulaValue", "errorValue"
        ):
            raise _bad(f"Invalid requests: invalid userEnteredValue {uev!r}")
        (kind, value), = uev.items()
        if kind == "numberValue" and (not isinstance(value, (int, float)) or isinstance(value, bool)
                                      or not math.isfinite(value)):
            raise _bad(f"Invalid value at 'requests.update_cells.rows.values.user_entered_value.number_value' "
                       f"(TYPE_DOUBLE), {value!r}")
        if kind == "stringValue" and not isinstance(value, str):
            raise _bad(f"Invalid value at 'string_value' (TYPE_STRING), {value!r}")
        if kind == "formulaValue" and not (isinstance(value, str) and value.startswith("=")):
            raise _bad("Invalid requests: formulaValue must start with '='")


_FORMAT_ENUMS = {
    "horizontalAlignment": ("LEFT", "CENTER", "RIGHT"),
    "verticalAlignment": ("TOP", "MIDDLE", "BOTTOM"),
    "wrapStrategy": ("OVERFLOW_CELL", "LEGACY_WRAP", "CLIP", "WRAP"),
}
_NUMBER_FORMAT_TYPES = ("TEXT", "NUMBER", "PERCENT", "CURRENCY", "DATE", "TIME", "DATE_TIME", "SCIENTIFIC")
_FORMAT_KEYS = ("numberFormat", "backgroundColor", "backgroundColorStyle", "borders", "padding",
                "horizontalAlignment", "verticalAlignment", "wrapStrategy", "textDirection", "textFormat",
                "hyperlinkDisplayType", "textRotation")
_BORDER_STYLES = ("DOTTED", "DASHED", "SOLID", "SOLID_MEDIUM", "SOLID_THICK", "NONE", "DOUBLE")


def _check_colour(colour: Any, where: str) -> None:
    if not isinstance(colour, dict) or set(colour) - {"red", "green", "blue", "alpha"} or any(
            not isinstance(v, (int, float)) or not 0 <= v <= 1 for v in colour.values()):
        raise _bad(f"Invalid value at '{where}' (type.googleapis.com/google.type.Color), {colour!r}")


def _check_format(fmt: dict | None) -> None:
    """The shape of a ``CellFormat``: known keys, enum values, colours in 0..1."""
    if fmt is None:
        return
    for key, value in fmt.items():
        if key not in _FORMAT_KEYS:
            raise _bad(f"Invalid JSON payload received. Unknown name \"{key}\" at 'cell.user_entered_format'")
        if key in _FORMAT_ENUMS and value not in _FORMAT_ENUMS[key]:
            raise _bad(f"Invalid value at 'cell.user_entered_format.{key}', {value!r}")
    number = fmt.get("numberFormat")
    if number is not None and number.get("type") not in _NUMBER_FORMAT_TYPES:
        raise _bad(f"Invalid value at 'cell.user_entered_format.number_format.type', {number.get('type')!r}")
    if "backgroundColor" in fmt:
        _check_colour(fmt["backgroundColor"], "cell.user_entered_format.background_color")
    text = fmt.get("textFormat", {})
    if "foregroundColor" in text:
        _check_colour(text["foregroundColor"], "cell.user_entered_format.text_format.foreground_color")
    if "fontSize" in text and not isinstance(text["fontSize"], int):
        raise _bad(f"Invalid value at 'cell.user_entered_format.text_format.font_size' (TYPE_INT32), {text['fontSize']!r}")


def _check_border(border: Any) -> None:
    if not isinstance(border, dict) or border.get("style") not in _BORDER_STYLES:
        raise _bad(f"Invalid value at 'requests[0].update_borders', {border!r}")
    if "color" in border:
        _check_colour(border["color"], "requests[0].update_borders.color")


def _trim_row(row: list) -> list:
    while row and row[-1] in ("", None):
        row.pop()
    return row


def _grid_values(
    sheet: _Sheet, r0: int, r1: int, c0: int, c1: int, *, formatted: bool, locale: str,
    formula: bool = False, dates_as_strings: bool = False,
) -> list[list[Any]]:
    rows: list[list[Any]] = []
    # only the stored cells' bounding box can hold values (the rest is trimmed anyway)
    r1 = min(r1, max((r for r, _ in sheet.cells), default=-1) + 1)
    c1 = min(c1, max((c for _, c in sheet.cells), default=-1) + 1)
    for r in range(r0, r1):
        row: list[Any] = []
        for c in range(c0, c1):
            data = sheet.cells.get((r, c))
            if not data or "userEnteredValue" not in data:
                row.append("")
                continue
            if formula and "formulaValue" in data["userEnteredValue"]:
                row.append(data["userEnteredValue"]["formulaValue"])
                continue
            value = _effective(data)
            is_date = data.get("userEnteredFormat", {}).get("numberFormat", {}).get("type") in (
                "DATE", "DATE_TIME", "TIME")
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                value = _number(value)
                if formatted or (is_date and dates_as_strings):
                    value = _format_number(value, locale)
            elif isinstance(value, bool) and formatted:
                value = "TRUE" if value else "FALSE"
            row.append("" if value is None else value)
        rows.append(_trim_row(row))
    while rows and not rows[-1]:
        rows.pop()
    return rows


def _row_data(sheet: _Sheet) -> list[dict]:
    if not sheet.cells:
        return []
    height = max(r for r, _ in sheet.cells) + 1
    width = max(c for _, c in sheet.cells) + 1
    return [{"values": [copy.deepcopy(sheet.cells.get((r, c), {})) for c in range(width)]} for r in range(height)]


def _range_name(sheet: _Sheet, r0: int, r1: int, c0: int, c1: int) -> str:
    title = sheet.title
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", title) or re.fullmatch(r"[A-Za-z]{1,3}\d+", title):
        title = "'" + title.replace("'", "''") + "'"
    return f"{title}!{_a1(r0, c0)}:{_a1(max(r1, r0 + 1) - 1, max(c1, c0 + 1) - 1)}"


class _Handler(BaseHTTPRequestHandler):
    fake: FakeSheetsServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass

    def _serve(self, method: str) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        headers = {k.lower(): v for k, v in self.headers.items()}
        try:
            status, payload = self.fake.handle(method, self.path, headers, body)
        except Exception as exc:  # noqa: BLE001  a bug in the fake: answer 500 like Google would
            status, payload = 500, ApiError(500, f"fake server bug: {exc!r}", "INTERNAL").body()
        data = b"" if payload is None else json.dumps(payload, ensure_ascii=False).encode()
        try:
            self.send_response(status)
            if payload is not None:
                self.send_header("Content-Type", "application/json; charset=UTF-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_GET(self) -> None:  # noqa: N802
        self._serve("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._serve("POST")

    def do_PUT(self) -> None:  # noqa: N802
        self._serve("PUT")

    def do_DELETE(self) -> None:  # noqa: N802
        self._serve("DELETE")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Fake Google Sheets API v4 for tests")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--no-auth", action="store_true", help="accept any bearer token")
    args = parser.parse_args(argv)
    server = FakeSheetsServer(args.port, args.host, check_auth=not args.no_auth).start()
    print(f"fake Sheets API listening on {server.url} (token endpoint {server.token_uri})", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.stop()


if __name__ == "__main__":
    main()
