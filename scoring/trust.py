"""Trust in the results: protocols confirmed by a second judge, edits after a confirmation,
and disputes (protests) against games.

Pure.  The sync remembers, per confirmed protocol, a fingerprint of its cells (a hash the edge
computes, without the «Проверил» cell) and the checker's name; :func:`confirmations` compares
what it remembers with the protocols of this snapshot and says which protocols are not (or no
longer) confirmed, which were edited after a confirmation, and what to remember next.

A protocol is confirmed when «Проверил» names someone other than «Судья».  Editing a confirmed
protocol clears the confirmation until the checker confirms it again — by typing another name
into «Проверил», or by clearing it and typing it again (two syncs); putting the edited values
back as they were restores the confirmation.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from scoring import labels as L
from scoring.model import DisputeStatus, Location, Protocol, Tournament
from scoring.problems import Problem, Severity, problem

__all__ = ["Remembered", "Confirmations", "second_judge", "confirmations", "disputed_games", "cancelled_games",
           "dispute_problems"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Remembered:
    """What the sync keeps about one protocol between syncs."""

    fingerprint: str  # of the protocol as confirmed; "" = not confirmed now
    checker: str = ""  # «Проверил» when it was confirmed
    edited: bool = False  # edited after a confirmation at least once (the site says so)


@dataclass(frozen=True, kw_only=True, slots=True)
class Confirmations:
    unconfirmed: frozenset[str]  # protocol tabs that do not count publicly (only when the preset asks)
    changed: frozenset[str]  # edited after a confirmation and not confirmed again yet
    edited: frozenset[str]  # edited after a confirmation, now or before
    confirmed: frozenset[str]  # confirmed by a second judge now
    remember: Mapping[str, Remembered]
    problems: tuple[Problem, ...]


def second_judge(p: Protocol) -> bool:
    """«Проверил» names someone other than «Судья»."""
    checker = L.norm(p.checked_by)
    return bool(checker) and checker != L.norm(p.judge)


def confirmations(protocols: Sequence[Protocol], fingerprints: Mapping[str, str], remembered: Mapping[str, Remembered],
                  *, required: bool) -> Confirmations:
    """Each protocol's confirmation against what the sync remembered; ``required``: the preset's
    ``publish.confirmation`` (unconfirmed protocols are then left out of public outputs and marked)."""
    unconfirmed: set[str] = set()
    changed: set[str] = set()
    confirmed: set[str] = set()
    remember: dict[str, Remembered] = {}
    problems: list[Problem] = []
    for p in protocols:
        fp = fingerprints.get(p.sheet, "")
        old = remembered.get(p.sheet)
        where = p.cells.get("checked_by") or Location(p.sheet, "A1")
        if not second_judge(p):
            if old is not None and old.fingerprint and old.fingerprint != fp:
                old = replace(old, edited=True)
            if old is not None and old.edited:
                remember[p.sheet] = Remembered(fingerprint="", edited=True)
            unconfirmed.add(p.sheet)
            if required and p.finished:
                problems.append(problem("protocol.unconfirmed", Severity.WARNING, where, judge=p.judge or "—"))
            continue
        if old is None or not old.fingerprint or old.fingerprint == fp:
            remember[p.sheet] = Remembered(fingerprint=fp, checker=p.checked_by, edited=old.edited if old else False)
            confirmed.add(p.sheet)
        elif L.norm(old.checker) != L.norm(p.checked_by):  # a new name in «Проверил»: confirmed again
            remember[p.sheet] = Remembered(fingerprint=fp, checker=p.checked_by, edited=True)
            confirmed.add(p.sheet)
        else:
            remember[p.sheet] = replace(old, edited=True)  # the confirmed fingerprint stays: undoing restores it
            changed.add(p.sheet)
            unconfirmed.add(p.sheet)
            if required:
                problems.append(problem("protocol.changed_after_confirmation", Severity.WARNING, where,
                                        checker=p.checked_by))
    edited = frozenset(s for s, r in remember.items() if r.edited)
    return Confirmations(unconfirmed=frozenset(unconfirmed) if required else frozenset(), changed=frozenset(changed),
                         edited=edited, confirmed=frozenset(confirmed), remember=remember, problems=tuple(problems))


# -- disputes ---------------------------------------------------------------------------------------
def _sheets(t: Tournament) -> dict[str, str]:
    return {L.norm(p.sheet): p.sheet for p in t.protocols}


def _games(t: Tournament, statuses: Iterable[DisputeStatus]) -> frozenset[str]:
    sheets = _sheets(t)
    wanted = set(statuses)
    return frozenset(sheets[L.norm(d.game)] for d in t.disputes if d.status in wanted and L.norm(d.game) in sheets)


def cancelled_games(t: Tournament) -> frozenset[str]:
    """Protocol tabs of games an accepted dispute cancelled: they do not count."""
    return _games(t, (DisputeStatus.ACCEPTED,))


def disputed_games(t: Tournament) -> frozenset[str]:
    """Protocol tabs with an open dispute (and none accepted): marked disputed in every output."""
    return _games(t, (DisputeStatus.OPEN,)) - cancelled_games(t)


def dispute_problems(t: Tournament, tab_titles: Iterable[str] = ()) -> list[Problem]:
    """A dispute naming a game that is not a protocol tab (``tab_titles``: every tab of the
    workbook, so that a protocol that could not be read is still a game)."""
    known = set(_sheets(t)) | {L.norm(title) for title in tab_titles}
    return [problem("dispute.unknown_game", Severity.WARNING, d.location, game=d.game)
            for d in t.disputes if L.norm(d.game) not in known]
