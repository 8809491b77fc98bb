"""Google Sheets backend: a Snapshot in one ``values:batchGet``, a Patch in one ``:batchUpdate``.

Request budget per sync cycle (independent of the number of tabs and games):

* ``read()``: 1 ``values:batchGet`` for every tab (``values:batchGetByDataFilter``, a POST,
  when the URL would exceed ~8 KB).  The tab list and locale come from one metadata GET that is cached; it is
  refreshed when a batchGet fails with "Unable to parse range" (a tab was renamed or
  deleted) and at the latest every ``metadata_max_age`` seconds (to notice tabs people add).
* ``apply()``: 1 ``spreadsheets:batchUpdate`` holding every change (new tabs with explicit
  sheet ids, owned tabs cleared and rewritten, pre-filled cells, formatting, dropdowns,
  marks).  The API applies a batchUpdate all-or-nothing.  When it fails because our cached
  metadata was stale it is re-planned against fresh metadata and sent once more.

The package by concern:

* :mod:`.auth` — service-account keys, a person's OAuth login, key-file permission advice;
* :mod:`.http` — the transport: gspread's HTTP client with bounded, jittered retries over a
  google-auth session; ``endpoint`` / ``SHEETS_SYNC_GOOGLE_ENDPOINT`` redirects all Google
  hosts (Sheets, Drive, OAuth token) to a test server;
* :mod:`.planner` — the one batchUpdate for a patch (never ``USER_ENTERED``: text stays text);
* :mod:`.metadata` — the cached tab list; :mod:`.errors` — Google's failures in the
  organizer's words;
* :mod:`.backend` — :class:`GoogleBackend`: read, apply, create, share.

The transport is injectable like gspread's ``Client(auth, http_client=…)``::

    http = authorized_http_client(credentials, endpoint="http://127.0.0.1:8080")
    backend = GoogleBackend("gsheet:ID", http_client=http)
"""

from sheets_sync.backends.google.auth import SCOPES
from sheets_sync.backends.google.backend import GoogleBackend, locale_advice, parse_spreadsheet_ref, spreadsheet_url
from sheets_sync.backends.google.http import ENDPOINT_ENV, RetryingHTTPClient, authorized_http_client
from sheets_sync.backends.google.planner import hyperlink_formula

__all__ = [
    "GoogleBackend",
    "RetryingHTTPClient",
    "authorized_http_client",
    "parse_spreadsheet_ref",
    "spreadsheet_url",
    "hyperlink_formula",
    "locale_advice",
    "SCOPES",
    "ENDPOINT_ENV",
]
