"""Registration (issue 45), pure: who is in, who waits, who moves in, until when, and whom the draw seats.

The state lives on the Players tab's «Заявка» (:class:`scoring.model.ApplicationState`); the server
and the sync write these words, a person may type any of ``labels.APPLICATION_WORDS``.  A row with
an empty «Заявка» is a player the organizer typed himself: he takes part.  The preset's
``[registration]`` (:class:`scoring.preset.RegistrationRule`) says whether a confirmed application
must also be paid («Игрок считается зарегистрированным после подтверждения от организаторов и
внесения оплаты») and how many hours before the start the excused round must be announced.

Every moment here is naive, in the tournament's time zone (``Tournament.time_zone``): the caller
that owns a clock converts ``now`` before asking; this module reads none.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from scoring import labels as L
from scoring.model import Application, ApplicationState, PlayerStatus, Tournament
from scoring.preset import RegistrationRule
from scoring.problems import Problem, Severity, Text, problem

__all__ = ["state_word", "takes_part", "Lineup", "lineup", "promotions", "registration_open", "excuse_deadline",
           "excuse_allowed", "check_in_begun", "DrawField", "draw_field", "registration_problems", "late_excuses"]


def state_word(state: ApplicationState, language: str) -> str:
    """The word written for ``state`` in a workbook of ``language`` (ru: «подтверждена», en: «confirmed»)."""
    words = L.APPLICATION_WORDS[state.value]
    if language == "en":
        return next(w for w in words if w.isascii())
    return words[0]


def takes_part(state: ApplicationState, rule: RegistrationRule = RegistrationRule()) -> bool:
    """Whether an application in ``state`` is in the tournament: confirmed or paid, only paid when
    the preset requires the payment."""
    if rule.payment_required:
        return state is ApplicationState.PAID
    return state.takes_part


def _waiting_order(application: Application) -> tuple[bool, datetime, int]:
    """The waiting list's order: by «Подана», then (no time typed) by the row."""
    return (application.applied_at is None, application.applied_at or datetime.min, application.row)


@dataclass(frozen=True, kw_only=True, slots=True)
class Lineup:
    """Who is in (``taking_part``, the Players tab's order), whose application holds a place while
    the organizer has not decided or the payment is missing (``pending``), who waits (in order),
    and the places still free (None: the Tournament tab names no «Мест»)."""

    taking_part: tuple[str, ...]
    pending: tuple[str, ...]
    waiting: tuple[Application, ...]
    places: int | None
    places_left: int | None

    @property
    def waiting_nicknames(self) -> tuple[str, ...]:
        return tuple(a.nickname for a in self.waiting)


def lineup(tournament: Tournament, rule: RegistrationRule = RegistrationRule()) -> Lineup:
    """The tournament's registration as the Players tab says it now."""
    states = {a.nickname: a.state for a in tournament.applications}
    taking = [p.nickname for p in tournament.players if p.status is PlayerStatus.PLAYING
              and (p.nickname not in states or takes_part(states[p.nickname], rule))]
    pending = [a.nickname for a in tournament.applications if a.state.holds_place and not takes_part(a.state, rule)]
    waiting = sorted((a for a in tournament.applications if a.state is ApplicationState.WAITING), key=_waiting_order)
    left = None if tournament.places is None else max(0, tournament.places - len(taking) - len(pending))
    return Lineup(taking_part=tuple(taking), pending=tuple(pending), waiting=tuple(waiting),
                  places=tournament.places, places_left=left)


def promotions(tournament: Tournament, rule: RegistrationRule = RegistrationRule(),
               now: datetime | None = None) -> tuple[Application, ...]:
    """The waiting applications that move in now: as many of the first in line as places are free
    (a withdrawn application frees its place).  The server writes their new state and tells them;
    without «Мест» nobody waits for a place, so nobody moves.  From «Начало» on (``now`` given) a
    place is no longer given this way: on the day the draw replaces the absent by those present."""
    current = lineup(tournament, rule)
    if not current.places_left or (now is not None and tournament.starts_at is not None and now >= tournament.starts_at):
        return ()
    return current.waiting[:current.places_left]


def registration_open(tournament: Tournament, now: datetime) -> bool:
    """Whether applications are taken at ``now``: until «Регистрация до» (inclusive), else until
    «Начало»; with neither, always.  Past the places an application still comes in, to wait."""
    until = tournament.registration_until or tournament.starts_at
    return until is None or now <= until


def excuse_deadline(tournament: Tournament, rule: RegistrationRule = RegistrationRule()) -> datetime | None:
    """The last moment a player may announce his excused round (None: no «Начало», no limit)."""
    if tournament.starts_at is None:
        return None
    return tournament.starts_at - timedelta(hours=rule.excuse_notice_hours)


def excuse_allowed(tournament: Tournament, now: datetime, rule: RegistrationRule = RegistrationRule()) -> bool:
    """Whether a player may still announce his excused round at ``now`` (the regulation: «заранее
    (за 24 часа до начала турнира)»; the preset's ``registration.excuse_notice_hours``)."""
    deadline = excuse_deadline(tournament, rule)
    return deadline is None or now <= deadline


def check_in_begun(tournament: Tournament) -> bool:
    """Whether the day's check-in has begun: somebody's «Прибыл» is ticked."""
    return any(p.arrived for p in tournament.players) or any(a.arrived for a in tournament.applications)


@dataclass(frozen=True, kw_only=True, slots=True)
class DrawField:
    """Whom the first draw seats (``players``: the present players, then the reserves that replace
    the absent), who is absent, and each absent player's replacement (absent, reserve) in order.
    ``promoted`` are the waiting applications seated: their «Заявка» becomes confirmed."""

    players: tuple[str, ...]
    absent: tuple[str, ...] = ()
    replacements: tuple[tuple[str, str], ...] = ()
    promoted: tuple[Application, ...] = ()
    check_in: bool = False


def draw_field(tournament: Tournament, rule: RegistrationRule = RegistrationRule()) -> DrawField:
    """The players the draw is made on.  Before check-in, everybody taking part.  Once it has
    begun, only those present; the absent are replaced by the first waiting players present, in
    the waiting list's order (the regulation: a late player is replaced); an absent player nobody
    replaces leaves his seat to the format (fewer tables, or reserves)."""
    current = lineup(tournament, rule)
    if not check_in_begun(tournament):
        return DrawField(players=current.taking_part)
    arrived = {p.nickname for p in tournament.players if p.arrived}
    present = [n for n in current.taking_part if n in arrived]
    absent = tuple(n for n in current.taking_part if n not in arrived)
    reserves = [a for a in current.waiting if a.arrived][:len(absent)]
    return DrawField(players=(*present, *(a.nickname for a in reserves)), absent=absent,
                     replacements=tuple(zip(absent, (a.nickname for a in reserves))), promoted=tuple(reserves),
                     check_in=True)


def _moment(value: datetime | None) -> str:
    return "" if value is None else f"{value:%d.%m.%Y %H:%M}"


def registration_problems(tournament: Tournament, rule: RegistrationRule = RegistrationRule()) -> list[Problem]:
    """What the judge is told of the registration, at the cells: more players confirmed than places
    (at the «Заявка» of the last confirmed, in the order applied), and an application confirmed
    while an earlier one still waits (at its «Заявка»)."""
    problems = _over_places(tournament, rule)
    first = next((a for a in lineup(tournament, rule).waiting if a.applied_at is not None), None)
    if first is None:
        return problems
    for a in tournament.applications:
        if a.state.takes_part and a.applied_at is not None and a.applied_at > first.applied_at:
            problems.append(problem("registration.out_of_turn", Severity.WARNING, a.state_location,
                                    related=(first.state_location,), player=a.nickname, applied=_moment(a.applied_at),
                                    first=first.nickname, first_applied=_moment(first.applied_at)))
    return problems


def _over_places(tournament: Tournament, rule: RegistrationRule) -> list[Problem]:
    """More confirmed than places: those taking part and those confirmed but not paid yet (where the
    preset requires the payment) — the organizer's own rows first, then the applications in the order
    applied; the last ones are too many."""
    current = lineup(tournament, rule)
    states = {a.nickname: a for a in tournament.applications}
    confirmed = [*current.taking_part, *(n for n in current.pending if states[n].state is ApplicationState.CONFIRMED)]
    if current.places is None or len(confirmed) <= current.places:
        return []

    def applied(nickname: str) -> tuple[bool, tuple[bool, datetime, int]]:
        own = nickname not in states
        return (not own, (False, datetime.min, 0) if own else _waiting_order(states[nickname]))

    over = sorted(confirmed, key=applied)[current.places:]
    cells = [states[n].state_location if n in states else tournament.player(n).location for n in over]
    return [problem("registration.over_places", Severity.WARNING, cells[0], related=tuple(cells[1:]),
                    taking=len(confirmed), places=current.places, over=len(over))]


def late_excuses(tournament: Tournament, filled_at: Mapping[str, datetime],
                 rule: RegistrationRule = RegistrationRule(), this_sync: frozenset[str] = frozenset()) -> list[Problem]:
    """A warning at each «Пропуск» filled after the preset's limit before the start.  ``filled_at``:
    the Players tab's cell (``D7``) -> when the sync saw its present value typed, in the tournament's
    time (the edges read it from the change log; the core reads no clock); ``this_sync``: the cells
    typed since the last sync, whose moment is only a bound they are later than (the newest logged)."""
    deadline = excuse_deadline(tournament, rule)
    if deadline is None:
        return []
    problems = []
    for p in tournament.players:
        loc = p.excused_location
        if loc is None or not p.excused_rounds or loc.cell not in filled_at or filled_at[loc.cell] <= deadline:
            continue
        filled = Text("в эту синхронизацию", "in this sync") if loc.cell in this_sync else _moment(filled_at[loc.cell])
        problems.append(problem("registration.late_excuse", Severity.WARNING, loc, filled=filled,
                                deadline=_moment(deadline), hours=rule.excuse_notice_hours))
    return problems
