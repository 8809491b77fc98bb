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
    # keyed by Protocol.game_id (a tab's title, or title!anchor for a block of a tab with several)
    unconfirmed: frozenset[str]  # protocols that do not count publicly (only when the preset asks)
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
        fp = fingerprints.get(p.game_id, "")
        old = remembered.get(p.game_id)
        where = p.cells.get("checked_by") or Location(p.sheet, p.anchor or "A1")
        if not second_judge(p):
            if old is not None and old.fingerprint and old.fingerprint != fp:
                old = replace(old, edited=True)
            if old is not None and old.edited:
                remember[p.game_id] = Remembered(fingerprint="", edited=True)
            unconfirmed.add(p.game_id)
            if required and p.finished:
                problems.append(problem("protocol.unconfirmed", Severity.WARNING, where, judge=p.judge or "—"))
            continue
        if old is None or not old.fingerprint or old.fingerprint == fp:
            remember[p.game_id] = Remembered(fingerprint=fp, checker=p.checked_by, edited=old.edited if old else False)
            confirmed.add(p.game_id)
        elif L.norm(old.checker) != L.norm(p.checked_by):  # a new name in «Проверил»: confirmed again
            remember[p.game_id] = Remembered(fingerprint=fp, checker=p.checked_by, edited=True)
            confirmed.add(p.game_id)
        else:
            remember[p.game_id] = replace(old, edited=True)  # the confirmed fingerprint stays: undoing restores it
            changed.add(p.game_id)
            unconfirmed.add(p.game_id)
            if required:
                problems.append(problem("protocol.changed_after_confirmation", Severity.WARNING, where,
                                        checker=p.checked_by))
    edited = frozenset(s for s, r in remember.items() if r.edited)
    return Confirmations(unconfirmed=frozenset(unconfirmed) if required else frozenset(), changed=frozenset(changed),
                         edited=edited, confirmed=frozenset(confirmed), remember=remember, problems=tuple(problems))


# -- disputes ---------------------------------------------------------------------------------------
def _sheets(t: Tournament) -> dict[str, str]:
    """How a dispute may name a game -> its :attr:`~scoring.model.Protocol.game_id`: the tab title
    of a tab's only protocol; a block of a tab that holds several by ``title!A12`` or by its tab
    and game number («05.12.2026 3», «05.12.2026 игра 3»; «05.12.2026 3 стол 2» when the tab has tables)."""
    with_tables = {p.sheet for p in t.protocols if p.anchor and p.table != 1}
    names: dict[str, str] = {}
    for p in t.protocols:
        names[L.norm(p.game_id)] = p.game_id
        if not p.anchor:
            continue
        for game in ("", "игра ", "game ", "№"):
            number = f"{p.sheet} {game}{p.round}"
            if p.sheet not in with_tables:
                names[L.norm(number)] = p.game_id
            for table in (f" {p.table}", f" стол {p.table}", f" table {p.table}"):
                names[L.norm(number + table)] = p.game_id
    return names


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
