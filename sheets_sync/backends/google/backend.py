"""The Google spreadsheet as a :class:`~sheets_sync.backends.base.Backend`: read, apply, metadata.

The tab list and locale come from one metadata GET that is cached; it is refreshed when a
request fails because a tab was renamed or deleted (:func:`~.errors.is_stale`), and at the
latest every ``metadata_max_age`` seconds (to notice tabs people add).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any
from urllib.parse import quote

from gspread.exceptions import APIError
from gspread.http_client import HTTPClient
from gspread.utils import absolute_range_name

from sheets_sync.backends.base import BackendError, Grid, Patch, Protection, Snapshot, values_fingerprint
from sheets_sync.backends.google.auth import account_email, load_credentials, resolve_credentials_path
from sheets_sync.backends.google.errors import is_stale, translate_errors
from sheets_sync.backends.google.http import (
    BACKOFF_BASE,
    DRIVE_API,
    HTTP_TIMEOUT,
    MAX_RETRIES,
    SHEETS_API,
    RetryingHTTPClient,
    authorized_http_client,
    resolve_endpoint,
)
from sheets_sync.backends.google.metadata import (
    METADATA_FIELDS,
    SpreadsheetMetadata,
    parse_metadata,
    parse_protected_range,
)
from sheets_sync.backends.google.planner import bounds_cells, plan_batch_update, split_batch
from sheets_sync.refs import spreadsheet_id

__all__ = ["GoogleBackend", "parse_spreadsheet_ref", "spreadsheet_url", "locale_advice"]

log = logging.getLogger(__name__)

MAX_URL_LENGTH = 8000  # a batchGet whose URL would be longer is sent as a POST instead
_VALUE_PARAMS = {"valueRenderOption": "UNFORMATTED_VALUE", "dateTimeRenderOption": "SERIAL_NUMBER",
                 "majorDimension": "ROWS"}


# -- references --------------------------------------------------------------------------
def parse_spreadsheet_ref(ref: str) -> str:
    """The spreadsheet id from a URL, ``gsheet:ID`` or a bare ID (a ``ValueError`` saying which
    forms work when it is none of them; :func:`sheets_sync.refs.spreadsheet_id`)."""
    return spreadsheet_id(ref)


def spreadsheet_url(spreadsheet_id: str) -> str:
    """The address a person opens the spreadsheet at."""
    return f"https://docs.google.com/spreadsheets/d/{spreadsheet_id}/edit"



# -- locale -----------------------------------------------------------------------------------
_COMMA_DECIMAL = {
    "ru", "uk", "be", "kk", "de", "fr", "es", "it", "pt", "pl", "cs", "sk", "nl", "tr", "sv", "fi", "da",
    "nb", "no", "lt", "lv", "et", "hu", "ro", "bg", "hr", "sr", "sl", "el", "az", "hy", "ka", "id", "vi",
}


def locale_advice(locale: str | None) -> str | None:
    """What a spreadsheet's locale does to what judges type, or None when harmless.

    The reader parses numbers from strings itself (``0,5`` and ``0.5`` both work), so the
    only harm is Google turning a typed value into something else before we see it.
    """
    if not locale:
        return None
    lang = locale.replace("-", "_").split("_")[0].lower()
    if lang in _COMMA_DECIMAL:
        return (
            f"spreadsheet locale {locale}: decimals typed with a comma ('0,5') arrive as numbers, "
            "fine; but a dot-separated pair such as '2.5' or '1.10' may be taken for a date "
            "(2 May) and reach us as a day number. Ask judges to type '2,5', or set the input "
            "columns to plain text (Format > Number > Plain text)."
        )
    return (
        f"spreadsheet locale {locale}: '0.5' arrives as a number and '0,5' as text (both read "
        "fine), but '1,5' may be read as 15 (thousands separator) and '1/2' or '2.5.' as a date. "
        "For Russian-speaking judges set File > Settings > Locale to Russia, or ask them to type "
        "decimals with a dot."
    )


# -- the backend ------------------------------------------------------------------------------
class GoogleBackend:
    """A Google spreadsheet as a :class:`~sheets_sync.backends.base.Backend`.

    ``http_client`` is the transport, like gspread's ``Client(auth, http_client=…)``: any gspread
    ``HTTPClient`` (e.g. :func:`~.http.authorized_http_client` for credentials you loaded, or
    one aimed at a test server).  Without one, a :class:`~.http.RetryingHTTPClient` is built on
    first use from ``credentials`` (a key file; default ``$GOOGLE_APPLICATION_CREDENTIALS``),
    ``endpoint`` (default ``$SHEETS_SYNC_GOOGLE_ENDPOINT``), ``http_timeout``, ``max_retries``
    and ``backoff_base``.
    """

    def __init__(
        self,
        spreadsheet: str,
        *,
        credentials: str | None = None,
        endpoint: str | None = None,
        http_client: HTTPClient | None = None,
        http_timeout: float = HTTP_TIMEOUT,
        max_retries: int = MAX_RETRIES,
        metadata_max_age: float = 60.0,
        backoff_base: float = BACKOFF_BASE,
    ) -> None:
        self.spreadsheet_id = parse_spreadsheet_ref(spreadsheet)
        self.source = spreadsheet_url(self.spreadsheet_id)
        self.endpoint = resolve_endpoint(endpoint)
        self.credentials_path = resolve_credentials_path(credentials)
        self.http_timeout = http_timeout
        self.max_retries = max_retries
        self.metadata_max_age = metadata_max_age
        self.backoff_base = backoff_base
        self.warnings: list[str] = []  # advice for the organizer (locale, key file permissions)
        self._http = http_client
        self._meta: SpreadsheetMetadata | None = None
        self._advised_locale: str | None = None

    # connection --------------------------------------------------------------------------
    @property
    def http(self) -> HTTPClient:
        """The transport: the one given, else built from the credentials on first use."""
        if self._http is None:
            self._http = _open_transport(self.credentials_path, self.endpoint, self.warnings,
                                         timeout=self.http_timeout, max_retries=self.max_retries,
                                         backoff_base=self.backoff_base)
        return self._http

    @property
    def account_email(self) -> str | None:
        """The service account's e-mail (None for a person's OAuth login)."""
        return account_email(self.http.auth)

    def close(self) -> None:
        if self._http is not None:
            self._http.session.close()
            self._http = None

    def link_supported(self) -> bool:
        return True

    @classmethod
    def create_spreadsheet(
        cls,
        title: str,
        *,
        credentials: str | None = None,
        endpoint: str | None = None,
        http_client: HTTPClient | None = None,
        locale: str | None = None,
        share_with: Iterable[str] = (),
        http_timeout: float = HTTP_TIMEOUT,
        max_retries: int = MAX_RETRIES,
        backoff_base: float = BACKOFF_BASE,
        **kwargs: Any,
    ) -> GoogleBackend:
        """Create a new spreadsheet (for ``init``) and return a backend for it (same transport).

        A spreadsheet created by a service account belongs to that account: pass the
        organizer's e-mail in ``share_with`` so that a person can open it (editor access).
        """
        endpoint = resolve_endpoint(endpoint)
        warnings: list[str] = []
        if http_client is None:
            http_client = _open_transport(resolve_credentials_path(credentials), endpoint, warnings,
                                          timeout=http_timeout, max_retries=max_retries, backoff_base=backoff_base)
        props: dict[str, Any] = {"title": title}
        if locale:
            props["locale"] = locale
        with translate_errors(None, lambda: account_email(http_client.auth)):
            data = http_client.request("post", SHEETS_API, json={"properties": props}).json()
            for email in share_with:
                _share(http_client, data["spreadsheetId"], email, "writer")
        backend = cls(data["spreadsheetId"], credentials=credentials, endpoint=endpoint, http_client=http_client,
                      http_timeout=http_timeout, max_retries=max_retries, backoff_base=backoff_base, **kwargs)
        backend.warnings.extend(warnings)
        backend._meta = parse_metadata(data)
        return backend

    def share(self, emails: Iterable[str], role: str = "writer") -> None:
        """Give people access (Drive permission, no notification e-mail); one request each."""
        with self._errors():
            for email in emails:
                _share(self.http, self.spreadsheet_id, email, role)

    # errors ------------------------------------------------------------------------------
    @contextmanager
    def _errors(self) -> Iterator[None]:
        with translate_errors(self.spreadsheet_id, lambda: account_email(self._http.auth) if self._http else None):
            yield

    # metadata ----------------------------------------------------------------------------
    def _load_meta(self) -> SpreadsheetMetadata:
        data = self.http.fetch_sheet_metadata(
            self.spreadsheet_id, params={"includeGridData": "false", "fields": METADATA_FIELDS}
        )
        meta = parse_metadata(data)
        self._meta = meta
        if meta.locale != self._advised_locale:
            self._advised_locale = meta.locale
            advice = locale_advice(meta.locale)
            if advice:
                log.warning(advice)
                self.warnings.append(advice)
        return meta

    def _cached_meta(self) -> tuple[SpreadsheetMetadata, bool]:
        """(metadata, whether it came from the cache)."""
        meta = self._meta
        if meta is not None and time.monotonic() - meta.loaded_at <= self.metadata_max_age:
            return meta, True
        return self._load_meta(), False

    def tab_titles(self) -> tuple[str, ...]:
        """The tabs' titles in order, from one metadata request (no values read): what the web's «add a
        sheet» looks at before it hands out a code."""
        with self._errors():
            meta = self._load_meta()
        return tuple(t.title for t in meta.tabs)

    def refresh_metadata(self) -> None:
        """Forget the cached tab list: the next read fetches it again."""
        self._meta = None

    # read --------------------------------------------------------------------------------
    def read(self) -> Snapshot:
        """Every tab's values in one request (plus the metadata GET when the cache is old)."""
        with self._errors():
            meta, cached = self._cached_meta()
            try:
                grids = self._batch_get(meta)
            except APIError as exc:
                if not (cached and is_stale(exc)):
                    raise
                log.info("Google Sheets: tab list changed, re-reading it")
                meta = self._load_meta()
                grids = self._batch_get(meta)
        order = tuple(t.title for t in meta.tabs)
        snapshot = Snapshot(
            tabs=dict(zip(order, grids)),
            order=order,
            locale=meta.locale,
            source=self.source,
            token=tuple((t.sheet_id, t.title) for t in meta.tabs),
            protections=_protections(meta),
        )
        return replace(snapshot, fingerprint=values_fingerprint(snapshot))

    def fingerprint(self) -> str | None:
        """None: only a read of every value tells whether anybody typed (Drive's file version
        moves on every edit of anybody, so it cannot say "nothing changed" any cheaper)."""
        return None

    def _batch_get(self, meta: SpreadsheetMetadata) -> list[Grid]:
        """Every tab's values in one request: ``values:batchGet`` while the URL stays short,
        else ``values:batchGetByDataFilter`` (a POST: the ranges travel in the body, so a
        200-tab tournament is still read in one request)."""
        ranges = [absolute_range_name(t.title) for t in meta.tabs]
        if not ranges:
            return []
        budget = MAX_URL_LENGTH - len(SHEETS_API) - len(self.spreadsheet_id) - 200
        if _fits_in_url(ranges, budget):
            data = self.http.values_batch_get(self.spreadsheet_id, ranges, params=dict(_VALUE_PARAMS))
            value_ranges = data.get("valueRanges", [])
        else:
            value_ranges = self._batch_get_by_data_filter(ranges)
        if len(value_ranges) != len(ranges):
            raise BackendError("Google Sheets answered a batchGet with a wrong number of ranges")
        return [_grid(vr) for vr in value_ranges]

    def _batch_get_by_data_filter(self, ranges: list[str]) -> list[dict]:
        url = f"{SHEETS_API}/{quote(self.spreadsheet_id, safe='')}/values:batchGetByDataFilter"
        body = {"dataFilters": [{"a1Range": r} for r in ranges], **_VALUE_PARAMS}
        matched = self.http.request("post", url, json=body).json().get("valueRanges", [])
        by_range = {}
        for m in matched:
            for f in m.get("dataFilters", []):
                if "a1Range" in f:
                    by_range.setdefault(f["a1Range"], m.get("valueRange", {}))
        if all(r in by_range for r in ranges):
            return [by_range[r] for r in ranges]
        return [m.get("valueRange", {}) for m in matched]  # no filters echoed: rely on the order

    # apply -------------------------------------------------------------------------------
    def apply(self, patch: Patch, *, base: Snapshot | None) -> str | None:
        """Write ``patch`` in one ``spreadsheets:batchUpdate`` (all-or-nothing) — several in turn when
        it is too big for one (:func:`~sheets_sync.backends.google.planner.split_batch`: the marks and
        the state tab together in the last); the fingerprint of the result is not known (Google
        formats what it stores: None, the next read says).

        Google offers no cheap way to tell whether someone edited since ``base`` was read,
        and people edit concurrently by design; since the patch only rewrites owned tabs and
        marks, ``base`` is not used to refuse the write.
        """
        if patch.empty:
            return
        with self._errors():
            meta, cached = self._cached_meta()
            body, new_meta = plan_batch_update(patch, meta)
            if not body["requests"]:
                return
            bodies = split_batch(body, new_meta)
            try:
                replies = [self.http.batch_update(self.spreadsheet_id, bodies[0])]
            except APIError as exc:
                if not (cached and is_stale(exc)):
                    raise
                log.info("Google Sheets: tab list changed, re-planning the write")
                meta = self._load_meta()
                body, new_meta = plan_batch_update(patch, meta)
                bodies = split_batch(body, new_meta)
                replies = [self.http.batch_update(self.spreadsheet_id, bodies[0])]
            replies += self._rest(bodies[1:])
        reply = {"replies": [r for one in replies for r in one.get("replies", [])]}
        self._learn(new_meta, reply, meta)

    def _rest(self, bodies: list[dict]) -> list[dict]:
        """The requests of a split write after its first; one failing leaves the tab list unknown
        (the first ones were applied): it is read again next time."""
        replies = []
        try:
            for body in bodies:
                replies.append(self.http.batch_update(self.spreadsheet_id, body))
        except BaseException:
            self._meta = None
            raise
        return replies

    def _learn(self, new_meta: SpreadsheetMetadata, reply: dict, meta: SpreadsheetMetadata) -> None:
        """Keep the tab list as the write left it: the protected ranges' ids and the grids Google made."""
        _learn_protected_ids(new_meta, reply)
        for r in reply.get("replies", []):
            props = r.get("addSheet", {}).get("properties")
            if props:  # trust Google's view of the grid it created
                for tab in new_meta.tabs:
                    if tab.sheet_id == props.get("sheetId"):
                        grid = props.get("gridProperties", {})
                        tab.rows = int(grid.get("rowCount", tab.rows))
                        tab.cols = int(grid.get("columnCount", tab.cols))
        new_meta.loaded_at = meta.loaded_at
        self._meta = new_meta


def _open_transport(credentials_path: str | None, endpoint: str | None, warnings: list[str], *,
                    timeout: float, max_retries: int, backoff_base: float) -> RetryingHTTPClient:
    """The transport for a key file; the key's advice (e.g. its permissions) joins ``warnings``
    once the transport exists."""
    advice: list[str] = []
    credentials = load_credentials(credentials_path, endpoint, advice)
    http = authorized_http_client(credentials, endpoint=endpoint, timeout=timeout, max_retries=max_retries,
                                  backoff_base=backoff_base)
    warnings.extend(advice)
    return http


def _share(http: HTTPClient, spreadsheet_id: str, email: str, role: str) -> None:
    """Give ``email`` access (a Drive permission, no notification e-mail)."""
    http.request(
        "post",
        f"{DRIVE_API}/{quote(spreadsheet_id, safe='')}/permissions",
        params={"sendNotificationEmail": "false"},
        json={"type": "user", "role": role, "emailAddress": email},
    )


def _protections(meta: SpreadsheetMetadata) -> tuple[Protection, ...]:
    """The protected ranges as the sync sees them; a warning-only one keeps nobody out, so it is
    no protection (as of the metadata: read at most ``metadata_max_age`` seconds ago)."""
    titles = {t.sheet_id: t.title for t in meta.tabs}
    return tuple(Protection(sheet=titles[r.sheet_id], cells=bounds_cells(r.bounds), editors=r.editors)
                 for r in meta.protected if not r.warning_only and r.sheet_id in titles)


def _learn_protected_ids(meta: SpreadsheetMetadata, reply: dict) -> None:
    """Google numbers the protected ranges a write added: remember the ids (to update them later)."""
    for r in reply.get("replies", []):
        data = r.get("addProtectedRange", {}).get("protectedRange")
        if not data:
            continue
        added = parse_protected_range(data, 0)
        for known in meta.protected:
            if known.range_id is None and (known.sheet_id, known.bounds) == (added.sheet_id, added.bounds):
                known.range_id = added.range_id


def _fits_in_url(ranges: list[str], budget: int) -> bool:
    """Whether a batchGet of ``ranges`` keeps its query within ``budget`` characters (one range always does)."""
    return len(ranges) == 1 or sum(len("&ranges=") + len(quote(r, safe="")) for r in ranges) <= budget


def _grid(value_range: dict) -> Grid:
    """The rows of one range as the API sent them, empty cells None, trailing empties trimmed."""
    rows = [_trim(tuple(None if v == "" else v for v in row)) for row in value_range.get("values", [])]
    while rows and not rows[-1]:
        rows.pop()
    return tuple(rows)


def _trim(row: tuple[Any, ...]) -> tuple[Any, ...]:
    end = len(row)
    while end and row[end - 1] is None:
        end -= 1
    return row[:end]
