"""The registration as the public sees it (issue 45): who is in and who waits, in order — for the
site's «Участники» page and standings.json's ``registration``.  Never a contact: the core's
:class:`scoring.model.Application` has none (they stay in the server's database, for the organizers)."""

from __future__ import annotations

from scoring.model import Tournament
from scoring.preset import RegistrationRule
from scoring.registration import lineup

__all__ = ["has_registration", "registration_document", "entrants"]


def has_registration(tournament: Tournament) -> bool:
    """Whether the tournament registers its players: an application on the Players tab or «Мест» set."""
    return bool(tournament.applications) or tournament.places is not None


def registration_document(tournament: Tournament, rule: RegistrationRule) -> dict:
    """standings.json's ``registration`` (``{}`` without one, so the key is absent)."""
    if not has_registration(tournament):
        return {}
    current = lineup(tournament, rule)
    return {"registration": {"places": current.places, "confirmed": len(current.taking_part),
                             "pending": len(current.pending), "places_left": current.places_left,
                             "waiting": list(current.waiting_nicknames)}}


def entrants(tournament: Tournament, rule: RegistrationRule) -> dict:
    """The «Участники» page's context: the players in (the Players tab's order, club and city), the
    waiting list numbered in its order, and the places line's numbers."""
    current = lineup(tournament, rule)
    players = [tournament.player(n) for n in current.taking_part]
    waiting = {a.nickname: a for a in current.waiting}
    return {"taking": [{"player": p.nickname, "club": p.club, "city": p.city} for p in players if p is not None],
            "waiting": [{"number": i, "player": n, "club": waiting[n].club, "city": waiting[n].city}
                        for i, n in enumerate(current.waiting_nicknames, start=1)],
            "places": current.places, "places_left": current.places_left, "pending": len(current.pending),
            "confirmed": len(current.taking_part)}
