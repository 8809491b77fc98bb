"""What fits a column: a text the server did not type itself (a sheet's «Название», read by a claim
or a sync) cut to its column's length, so that PostgreSQL — which refuses a longer value where
SQLite keeps it — never fails a request or a sync over a long name. What a person types is refused
by its form instead (each form field no longer than its column: tests/web/test_input_lengths.py)."""

from __future__ import annotations

from django.db import models

__all__ = ["fitted"]


def fitted(model: type[models.Model], field: str, value: str) -> str:
    """``value`` cut to the length of ``model.field`` (an ellipsis at the cut)."""
    limit = model._meta.get_field(field).max_length
    return value if limit is None or len(value) <= limit else value[:limit - 1] + "…"
