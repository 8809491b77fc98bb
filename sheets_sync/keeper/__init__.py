"""Keeping many registered Google sheets synced within Google's quotas, without Django: the Drive
changes feed, the per-account request budget, the fast lane's plan and the push hook's debounce.
:mod:`sheets_sync.web.keeping` is the glue that runs them for the server."""
