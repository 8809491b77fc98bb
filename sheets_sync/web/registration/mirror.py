"""The sheet wins: after each sync (:data:`sheets_sync.web.signals.sync_finished`) the applications'
states, arrivals and excused rounds are set as the Players tab says, and the registration pages'
facts (:mod:`sheets_sync.web.registration.desk`) are written from what the sync read.

An application whose row says another state than the server had gets it, and
:data:`~sheets_sync.web.signals.application_state_changed` is sent (the player's message is queued
from it). A row whose «Заявка» the organizer emptied is a player he took in: confirmed. An
application not yet in the sheet (the writer has not written it) keeps its state; one whose row is
gone keeps its last (the organizer may have renamed it: nothing is guessed). Then a place the sheet
shows free goes to the first in line (:mod:`sheets_sync.web.registration.promote`)."""

from __future__ import annotations

from django.dispatch import receiver
from django.utils import timezone

from scoring.model import ApplicationState, PlayerStatus
from scoring.names import fold
from sheets_sync.web.models import Application, Tournament
from sheets_sync.web.registration.desk import DEFAULT_EXCUSE_HOURS, write_desk
from sheets_sync.web.registration.promote import promote
from sheets_sync.web.signals import application_state_changed, sync_finished

__all__ = ["mirror", "desk_of"]


def _iso(moment) -> str | None:
    return moment.isoformat() if moment is not None else None


def excuse_hours(preset) -> int:
    """The preset's ``registration.excuse_notice_hours`` (24 when it has none)."""
    hours = getattr(getattr(preset, "registration", None), "excuse_notice_hours", None)
    return DEFAULT_EXCUSE_HOURS if hours is None else int(hours)


def desk_of(outcome) -> dict:
    """The registration pages' facts from a sync's outcome: settings and rows, never contacts."""
    t = outcome.results.tournament
    states = {fold(a.nickname): a for a in t.applications}
    rows = [{"nickname": a.nickname, "state": a.state.value, "arrived": a.arrived, "holds_place": a.state.holds_place,
             "takes_part": a.state.takes_part, "checks_in": a.state.takes_part, "excused": sorted(a.excused_rounds)}
            for a in t.applications]
    # the organizer's own rows: a player takes part; a reserve checks in too (he may replace a late one)
    rows += [{"nickname": p.nickname, "state": "", "arrived": p.arrived, "excused": sorted(p.excused_rounds),
              "holds_place": p.status is PlayerStatus.PLAYING, "takes_part": p.status is PlayerStatus.PLAYING,
              "checks_in": p.status in (PlayerStatus.PLAYING, PlayerStatus.RESERVE)}
             for p in t.players if fold(p.nickname) not in states]
    keys = outcome.preset.stage_keys
    rounds = outcome.preset.stage(keys[0]).games if keys else 0  # the rounds a player may ask to skip
    return {"language": outcome.language, "places": t.places, "registration_until": _iso(t.registration_until),
            "starts_at": _iso(t.starts_at), "draw_at": _iso(t.draw_at), "time_zone": t.time_zone,
            "excuse_notice_hours": excuse_hours(outcome.preset), "rounds": rounds, "rows": rows,
            "seated": bool(t.seating),  # a draw was made (by any means): no timed draw over it
            "read_at": timezone.now().isoformat()}


def mirror(tournament: Tournament, desk: dict) -> list[tuple[Application, str, str]]:
    """Set each written application as its row says; the changes of state (application, old, new)."""
    rows = {fold(r["nickname"]): r for r in desk["rows"]}
    changed = []
    now = timezone.now()
    for app in Application.objects.filter(tournament=tournament, written_at__isnull=False):
        row = rows.get(fold(app.nickname))
        if row is None:
            continue
        new = row["state"] or (ApplicationState.CONFIRMED.value if row["takes_part"] else app.state)
        arrived_at = (app.arrived_at or now) if row["arrived"] else None
        excused = row["excused"][0] if row["excused"] else None
        if (new, arrived_at, excused) == (app.state, app.arrived_at, app.excused_round):
            continue
        old = app.state
        Application.objects.filter(pk=app.pk).update(state=new, arrived_at=arrived_at, excused_round=excused)
        app.state, app.arrived_at, app.excused_round = new, arrived_at, excused
        if new != old:
            changed.append((app, old, new))
    return changed


@receiver(sync_finished, dispatch_uid="registration-mirror")
def _after_sync(sender, tournament, outcome, snapshot, **kw) -> None:
    desk = desk_of(outcome)
    write_desk(tournament, desk)
    for app, old, new in mirror(tournament, desk):
        application_state_changed.send(sender=Application, application=app, old=old, new=new)
    promote(tournament, outcome)  # a place freed: the first in line moves in (after the mirror: the writer reads the desk)
