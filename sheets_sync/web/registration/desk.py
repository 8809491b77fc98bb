"""What the registration pages know of the workbook between syncs: the last sync's Tournament-tab
settings (places, «Регистрация до», «Начало», time zone), the preset's excused-round notice and the
Players tab's rows (names, states, arrivals — never contacts), kept in ``registration.json`` beside
the judges' games file in the tournament's private output folder (not the public site).

Written by the mirror after each sync (:mod:`sheets_sync.web.registration.mirror`), read by the
pages: a page never reads the sheet (a Google read is the account's budget)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

from django.utils import timezone

from scoring.model import ApplicationState
from scoring.names import fold
from sheets_sync import clock
from sheets_sync.files import write_text_atomic
from sheets_sync.web.jobs import out_dir
from sheets_sync.web.models import Application, Tournament

__all__ = ["desk_file", "read_desk", "write_desk", "zone_of", "local_moment", "aware", "deadline", "is_open",
           "places_taken", "places_left", "excuse_until", "DEFAULT_EXCUSE_HOURS", "HOLDING"]

DEFAULT_EXCUSE_HOURS = 24  # the preset's registration.excuse_notice_hours when it has none
HOLDING = tuple(s.value for s in ApplicationState if s.holds_place)


def desk_file(tournament: Tournament) -> Path:
    return out_dir(tournament) / "registration.json"


def read_desk(tournament: Tournament) -> dict:
    """The last sync's registration facts ({} before a sync wrote them)."""
    try:
        return json.loads(desk_file(tournament).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def write_desk(tournament: Tournament, desk: dict) -> None:
    path = desk_file(tournament)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, json.dumps(desk, ensure_ascii=False))


def zone_of(desk: dict):
    """The tournament's time zone («Часовой пояс»), else the server's."""
    return clock.zone(desk.get("time_zone") or "") or timezone.get_default_timezone()


def aware(desk: dict, key: str) -> datetime | None:
    """A Tournament-tab moment (stored naive, in the tournament's zone) as an aware datetime."""
    text = desk.get(key)
    if not text:
        return None
    try:
        return datetime.fromisoformat(text).replace(tzinfo=zone_of(desk))
    except ValueError:
        return None


def local_moment(desk: dict, moment: datetime) -> datetime:
    """``moment`` as the tournament's clock shows it, naive (what a cell holds)."""
    return timezone.localtime(moment, zone_of(desk)).replace(tzinfo=None)


def deadline(desk: dict) -> datetime | None:
    return aware(desk, "registration_until")


def is_open(tournament: Tournament, desk: dict, now: datetime | None = None) -> bool:
    """The form takes applications: opened by the organizer and not past «Регистрация до»."""
    until = deadline(desk)
    return tournament.registration_open and (until is None or (now or timezone.now()) <= until)


def places_taken(tournament: Tournament, desk: dict) -> int:
    """Places held now: the server's applications that hold one, and the sheet's rows that are no
    application of the server (a player the organizer typed, a state typed by hand) holding one."""
    ours = {fold(n) for n in Application.objects.filter(tournament=tournament).values_list("nickname", flat=True)}
    held = Application.objects.filter(tournament=tournament, state__in=HOLDING).count()
    return held + sum(1 for row in desk.get("rows", ()) if row.get("holds_place") and fold(row["nickname"]) not in ours)


def places_left(tournament: Tournament, desk: dict) -> int | None:
    """Free places (None: the Tournament tab names no number of places)."""
    places = desk.get("places")
    return None if not places else max(0, places - places_taken(tournament, desk))


def excuse_until(desk: dict) -> datetime | None:
    """Until when a player may ask for his excused round himself: the preset's notice before «Начало»."""
    start = aware(desk, "starts_at")
    hours = desk.get("excuse_notice_hours", DEFAULT_EXCUSE_HOURS)
    return None if start is None else start - timedelta(hours=hours)
