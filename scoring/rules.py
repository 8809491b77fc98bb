"""Validation of protocols against the regulation: one function per rule, all problems at once.

Each rule has an id (the key of its message in :mod:`scoring.problems`) and a severity:
an error keeps the game out of the standings until fixed, a warning counts but is listed.
Every problem points at the cell the judge must look at.
"""

from __future__ import annotations

import difflib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from scoring.model import Location, PlayerStatus, Protocol, Role, SeatingEntry, Tournament
from scoring.preset import Preset
from scoring.problems import Problem, Severity, problem

__all__ = ["RULES", "validate", "closest_name", "Context"]

E, W = Severity.ERROR, Severity.WARNING


@dataclass(frozen=True, kw_only=True, slots=True)
class Context:
    tournament: Tournament
    preset: Preset
    known: frozenset[str]
    by_key: dict  # (stage, round, table) -> SeatingEntry


def closest_name(name: str, known: Iterable[str]) -> str | None:
    """The registered nickname a typo most likely meant (case-insensitive), or None."""
    known = list(known)
    lowered = {k.lower().replace("ё", "е"): k for k in known}
    probe = name.lower().replace("ё", "е").strip()
    if probe in lowered:
        return lowered[probe]
    match = difflib.get_close_matches(probe, list(lowered), n=1, cutoff=0.6)
    return lowered[match[0]] if match else None


def _hint(name: str, known: Iterable[str], language_neutral: bool = True) -> str:
    guess = closest_name(name, known)
    return f" (может быть, «{guess}»? / did you mean '{guess}'?)" if guess else ""


def _loc(protocol: Protocol, seat: int | None, column: str) -> Location:
    if seat is not None:
        rec = protocol.seats[seat - 1] if 0 < seat <= len(protocol.seats) else None
        if rec is not None and column in rec.cells:
            return rec.cells[column]
    return protocol.cells.get(column) or protocol.cells.get("stage") or Location(protocol.sheet, "A1")


ProtocolRule = Callable[[Protocol, Context], Iterator[Problem]]
RULES: dict[str, ProtocolRule] = {}


def rule(fn: ProtocolRule) -> ProtocolRule:
    RULES[fn.__name__] = fn
    return fn


# -- per-protocol rules ------------------------------------------------------------------------
@rule
def players_present(p: Protocol, ctx: Context) -> Iterator[Problem]:
    if len(p.seats) < 10:
        yield problem("seating.seat_count", E, _loc(p, None, "stage"), count=len(p.seats))
    for rec in p.seats:
        if rec.player is None:
            if p.finished or rec.role is not None:
                yield problem("player.missing", E, _loc(p, rec.seat, "player"), seat=rec.seat)
        elif rec.player not in ctx.known:
            yield problem("player.unknown", E, _loc(p, rec.seat, "player"), seat=rec.seat, player=rec.player,
                          hint=_hint(rec.player, ctx.known))
        else:
            pl = ctx.tournament.player(rec.player)
            if pl is not None and pl.status in (PlayerStatus.WITHDRAWN, PlayerStatus.DISQUALIFIED):
                yield problem("player.inactive", W, _loc(p, rec.seat, "player"), seat=rec.seat, player=rec.player,
                              status=pl.status.value)
    seats_of: dict[str, list[int]] = defaultdict(list)
    for rec in p.seats:
        if rec.player:
            seats_of[rec.player].append(rec.seat)
    for name, seats in seats_of.items():
        if len(seats) > 1:
            yield problem("player.duplicate", E, _loc(p, seats[1], "player"), player=name, seats=seats)


@rule
def roles(p: Protocol, ctx: Context) -> Iterator[Problem]:
    if not any(rec.role for rec in p.seats) and not p.finished:
        return  # a blank pre-filled protocol: nothing typed yet
    counts = Counter(rec.role for rec in p.seats if rec.role)
    for rec in p.seats:
        if rec.role is None and rec.player:
            yield problem("roles.missing", E, _loc(p, rec.seat, "role"), seat=rec.seat)
    want = {Role.DON: 1, Role.MAFIA: 2, Role.SHERIFF: 1, Role.CIVILIAN: 6}
    if any(counts.get(r, 0) != n for r, n in want.items()) and all(rec.role for rec in p.seats):
        yield problem("roles.composition", E, _loc(p, 1, "role"), don=counts.get(Role.DON, 0),
                      mafia=counts.get(Role.MAFIA, 0), sheriff=counts.get(Role.SHERIFF, 0),
                      civilian=counts.get(Role.CIVILIAN, 0))


@rule
def fouls(p: Protocol, ctx: Context) -> Iterator[Problem]:
    for rec in p.seats:
        if not 0 <= rec.fouls <= 4:
            yield problem("fouls.range", E, _loc(p, rec.seat, "fouls"), seat=rec.seat, fouls=rec.fouls)
        elif rec.fouls == 4 and rec.removal is None:
            yield problem("fouls.not_removed", E, _loc(p, rec.seat, "fouls"), seat=rec.seat)


@rule
def extra_points(p: Protocol, ctx: Context) -> Iterator[Problem]:
    pr = ctx.preset
    for rec in p.seats:
        value = rec.extra_points
        if not value:
            continue
        if value < pr.extra_min or value > pr.extra_max:
            yield problem("extra.range", E, _loc(p, rec.seat, "extra_points"), seat=rec.seat, value=value,
                          low=pr.extra_min, high=pr.extra_max)
        elif (value - pr.extra_min) % pr.extra_step:
            yield problem("extra.step", E, _loc(p, rec.seat, "extra_points"), seat=rec.seat, value=value, step=pr.extra_step)


@rule
def best_move(p: Protocol, ctx: Context) -> Iterator[Problem]:
    first = p.first_shot
    for rec in p.seats:
        if not rec.best_move:
            continue
        loc = _loc(p, rec.seat, "best_move")
        if rec.killed_night != 1:
            if first is None and rec.killed_night is not None:
                yield problem("best_move.after_miss", E, loc, seat=rec.seat)
            else:
                yield problem("best_move.not_first_shot", E, loc, seat=rec.seat)
            continue
        named = rec.best_move
        if len(named) != 3 or len(set(named)) != 3 or rec.seat in named or not set(named) <= set(range(1, 11)):
            yield problem("best_move.seats", E, loc, seat=rec.seat, value=" ".join(map(str, named)))
        elif rec.role is not None and rec.role.team.value == "black":
            yield problem("best_move.black", W, loc, seat=rec.seat)


@rule
def kills(p: Protocol, ctx: Context) -> Iterator[Problem]:
    by_night: dict[int, list[int]] = defaultdict(list)
    for rec in p.seats:
        if rec.killed_night is not None:
            if not 1 <= rec.killed_night <= 10:
                yield problem("kill.night_range", E, _loc(p, rec.seat, "killed_night"), seat=rec.seat, night=rec.killed_night)
            by_night[rec.killed_night].append(rec.seat)
        if rec.voted_day is not None and not 1 <= rec.voted_day <= 10:
            yield problem("vote.day_range", E, _loc(p, rec.seat, "voted_day"), seat=rec.seat, day=rec.voted_day)
        hows = [h for h, v in (("убит ночью / shot", rec.killed_night), ("заголосован / voted", rec.voted_day),
                               ("удалён / removed", rec.removal)) if v is not None]
        if len(hows) > 1:
            yield problem("leave.twice", E, _loc(p, rec.seat, "voted_day" if rec.voted_day else "removal"), seat=rec.seat, how=", ".join(hows))
    for night, seats in sorted(by_night.items()):
        if len(seats) > 1:
            yield problem("kill.night_twice", E, _loc(p, seats[1], "killed_night"), night=night, seats=seats)


@rule
def finished(p: Protocol, ctx: Context) -> Iterator[Problem]:
    if not p.finished and any(rec.role for rec in p.seats):
        yield problem("protocol.not_finished", W, p.cells.get("winner") or _loc(p, None, "stage"))


# -- cross-protocol rules -------------------------------------------------------------------------
def _duplicates(protocols: Sequence[Protocol]) -> Iterator[Problem]:
    first: dict[tuple, Protocol] = {}
    for p in protocols:
        if p.key in first:
            yield problem("protocol.duplicate", E, p.cells.get("round") or _loc(p, None, "stage"), other=first[p.key].sheet)
        else:
            first[p.key] = p


def _two_games(protocols: Sequence[Protocol]) -> Iterator[Problem]:
    where: dict[tuple[str, int, str], Protocol] = {}
    for p in protocols:
        for rec in p.seats:
            if not rec.player:
                continue
            key = (p.stage, p.round, rec.player)
            other = where.get(key)
            if other is not None and other.key != p.key:
                yield problem("player.two_games", E, _loc(p, rec.seat, "player"), player=rec.player, round=p.round, other=other.sheet)
            else:
                where[key] = p


def _against_seating(p: Protocol, ctx: Context) -> Iterator[Problem]:
    entry: SeatingEntry | None = ctx.by_key.get(p.key)
    if entry is None:
        if ctx.tournament.seating and any(rec.player for rec in p.seats):
            yield problem("protocol.no_seating", W, p.cells.get("round") or _loc(p, None, "stage"),
                          stage=p.stage, round=p.round, table=p.table)
        return
    reserves = {pl.nickname for pl in ctx.tournament.players if pl.status is PlayerStatus.RESERVE}
    for rec in p.seats:
        expected = entry.players[rec.seat - 1] if rec.seat - 1 < len(entry.players) else None
        if not rec.player or not expected or rec.player == expected or rec.player not in ctx.known:
            continue
        if rec.player in reserves:
            yield problem("player.substitute", W, _loc(p, rec.seat, "player"), seat=rec.seat, player=rec.player, expected=expected)
        else:
            yield problem("player.not_seated_here", W, _loc(p, rec.seat, "player"), seat=rec.seat, player=rec.player, expected=expected)


def _seating(entries: Sequence[SeatingEntry], known: frozenset[str]) -> Iterator[Problem]:
    seen_game: set[tuple] = set()
    seen_player: dict[tuple[str, int, str], SeatingEntry] = {}
    for e in entries:
        key = (e.stage, e.round, e.table)
        if key in seen_game:
            yield problem("seating.duplicate_game", E, e.location, stage=e.stage, round=e.round, table=e.table)
        seen_game.add(key)
        filled = [p for p in e.players if p]
        if len(filled) != 10:
            yield problem("seating.seat_count", W, e.location, count=len(filled))
        for name in filled:
            if name not in known:
                yield problem("seating.unknown_player", E, e.location, player=name, hint=_hint(name, known))
            k = (e.stage, e.round, name)
            if k in seen_player:
                yield problem("seating.twice_in_round", E, e.location, player=name, round=e.round)
            seen_player[k] = e


def validate(t: Tournament, preset: Preset) -> list[Problem]:
    """Every problem of every protocol and of the seating."""
    known = frozenset(p.nickname for p in t.players)
    by_key = {(e.stage, e.round, e.table): e for e in t.seating}
    ctx = Context(tournament=t, preset=preset, known=known, by_key=by_key)
    problems: list[Problem] = list(_seating(t.seating, known))
    for p in t.protocols:
        if p.stage not in preset.stage_keys:
            continue
        for fn in RULES.values():
            problems.extend(fn(p, ctx))
        problems.extend(_against_seating(p, ctx))
    problems.extend(_duplicates(t.protocols))
    problems.extend(_two_games(t.protocols))
    return problems
