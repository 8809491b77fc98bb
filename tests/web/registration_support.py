"""Helpers of the registration tests (issue 45): a tournament with the registration columns and
settings typed in its sheet, synced, its form open; an application sent as the form sends it."""

from __future__ import annotations

from datetime import datetime

import openpyxl

from sheets_sync.web import jobs
from sheets_sync.web.models import Tournament

__all__ = ["with_registration", "open_form", "apply", "player_rows", "row_of", "server_now", "FORM", "tournament_tab_rows"]

FORM = {"nickname": "Пума", "club": "Котики", "city": "Берлин", "telegram": "@puma_mafia", "vk": "", "email": "",
        "phone": "", "mwt_id": "", "rating": ""}


def tournament_tab_rows(places: int | None = 40, until: datetime | None = None, start: datetime | None = None) -> list:
    rows = []
    if places is not None:
        rows.append(("Мест", places))
    if until is not None:
        rows.append(("Регистрация до", until))
    if start is not None:
        rows.append(("Начало", start))
    return rows


def with_registration(path, *, places: int | None = 40, until: datetime | None = None,
                      start: datetime | None = None) -> None:
    """The Tournament tab's places, deadline and start typed below its settings (an .xlsx)."""
    wb = openpyxl.load_workbook(path)
    ws = wb["Турнир"]
    row = ws.max_row + 1
    for label, value in tournament_tab_rows(places, until, start):
        ws.cell(row=row, column=1, value=label)
        ws.cell(row=row, column=2, value=value)
        row += 1
    wb.save(path)


def open_form(tournament: Tournament) -> Tournament:
    """Synced once (the pages know the sheet's places) and the form opened."""
    jobs.request_sync(tournament, "test")
    Tournament.objects.filter(pk=tournament.pk).update(registration_open=True)
    tournament.refresh_from_db()
    return tournament


def apply(client, slug: str, address: str = "10.0.0.1", **fields):
    return client.post(f"/apply/{slug}/", {**FORM, **fields}, REMOTE_ADDR=address)


def player_rows(path) -> list[tuple]:
    """The Players tab of an .xlsx as values."""
    ws = openpyxl.load_workbook(path)["Игроки"]
    return [tuple(c.value for c in row) for row in ws.iter_rows()]


def row_of(path, nickname: str) -> dict:
    """A Players-tab row of an .xlsx by its nickname, as header → value."""
    rows = player_rows(path)
    return next(dict(zip(rows[0], r)) for r in rows[1:] if r[0] == nickname)


def server_now() -> datetime:
    """The server's local time, naive, to the second (as a Tournament-tab moment is typed)."""
    from django.utils import timezone

    return timezone.localtime().replace(tzinfo=None, microsecond=0)
