"""Validation of protocols against the regulation: one function per rule, all problems at once.

Each rule has an id (the key of its message in :mod:`scoring.problems`) and a severity:
an error keeps the game out of the standings until fixed, a warning counts but is listed.
Every problem points at the cell the judge must look at; a problem that involves several cells
(two dons, two players shot in one night, a winner and the departure contradicting it) names
the others as ``related`` — every one of them may be the cell to fix.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice, permutations, product

from scoring.cells import parse_a1
from scoring.items import BEST_MOVE_AUTHORS, best_move_seats, may_name_best_move
from scoring.names import fold, nearest_hint as _hint
from scoring.model import Location, PlayerStatus, Protocol, Removal, Role, SeatingEntry, SeatRecord, Team, Tournament
from scoring.preset import Preset
from scoring.problems import Problem, Severity, Text, problem

__all__ = ["RULES", "validate", "game_problems", "Context"]

E, W = Severity.ERROR, Severity.WARNING


@dataclass(frozen=True, kw_only=True, slots=True)
class Context:
    tournament: Tournament
    preset: Preset
    known: frozenset[str]
    folds: frozenset[str]  # the known names folded (scoring.names.fold)
    by_key: dict  # (stage, round, table) -> SeatingEntry
    reserves: frozenset[str]  # nicknames of the reserve players


def _loc(protocol: Protocol, seat: int | None, column: str) -> Location:
    if seat is not None:
        rec = protocol.seats[seat - 1] if 0 < seat <= len(protocol.seats) else None
        if rec is not None and column in rec.cells:
            return rec.cells[column]
    return (protocol.cells.get(column) or protocol.cells.get("stage") or protocol.cells.get("round")
            or Location(protocol.sheet, protocol.anchor or "A1"))


def _cells(protocol: Protocol, seats: Iterable[int], column: str) -> tuple[Location, ...]:
    """The cells of ``column`` in the rows of ``seats`` (those the protocol has)."""
    out = []
    for seat in seats:
        rec = protocol.seats[seat - 1] if 0 < seat <= len(protocol.seats) else None
        if rec is not None and column in rec.cells:
            out.append(rec.cells[column])
    return tuple(out)


# the last night (and day) a game can reach: three in a row without anybody leaving end it, and at
# most eight departures are needed to end it otherwise (7 red, 3 black) — so 8 × 3 (issue 44)
LAST_NIGHT = 24

ProtocolRule = Callable[[Protocol, Context], Iterator[Problem]]
RULES: dict[str, ProtocolRule] = {}


def rule(fn: ProtocolRule) -> ProtocolRule:
    RULES[fn.__name__] = fn
    return fn


# -- per-protocol rules ------------------------------------------------------------------------
@rule
def players_present(p: Protocol, ctx: Context) -> Iterator[Problem]:
    if len(p.seats) < 10:
        rows = [parse_a1(rec.cells["player"].cell)[0] + 1 for rec in p.seats if "player" in rec.cells]
        where = p.cells.get("table") or _loc(p, None, "stage")
        yield problem("protocol.seat_rows", E, where, count=len(p.seats),
                      rows=f"{rows[0]}–{rows[-1]}" if rows else "—")
    for rec in p.seats:
        if rec.player is None:
            if p.finished or rec.role is not None:
                yield problem("player.missing", E, _loc(p, rec.seat, "player"), seat=rec.seat)
        elif rec.player not in ctx.known:
            if fold(rec.player) in ctx.folds:
                continue  # several players of this spelling: the reader reported it
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
            yield problem("player.duplicate", E, _loc(p, seats[1], "player"), related=_cells(p, seats, "player"),
                          player=name, seats=seats)


@rule
def roles(p: Protocol, ctx: Context) -> Iterator[Problem]:
    if not any(rec.role for rec in p.seats) and not p.finished:
        return  # a blank pre-filled protocol: nothing typed yet
    counts = Counter(rec.role for rec in p.seats if rec.role)
    # a role cell with something unreadable in it has its own error at that cell (read.role), not «no role»
    empty = [rec.seat for rec in p.seats if rec.role is None and rec.player and not rec.role_unread]
    if empty and any(counts.get(r, 0) > n for r, n in _WANT.items()):
        yield _marked_composition(p, counts, empty)  # the composition, not the empty cells, is the mistake
        return
    for seat in empty:
        yield problem("roles.missing", E, _loc(p, seat, "role"), seat=seat)
    if any(counts.get(r, 0) != n for r, n in _WANT.items()) and all(rec.role for rec in p.seats):
        # the cells of every role there are too many of: any one of them may be the mistake
        surplus = _cells(p, (rec.seat for rec in p.seats if counts[rec.role] > _WANT[rec.role]), "role")
        where = surplus or (_loc(p, 1, "role"),)
        yield problem("roles.composition", E, where[0], related=where, don=counts.get(Role.DON, 0),
                      mafia=counts.get(Role.MAFIA, 0), sheriff=counts.get(Role.SHERIFF, 0),
                      civilian=counts.get(Role.CIVILIAN, 0))


# how many of a role, as a message says it: (ru, en) by count; beyond the table, the number
_HOW_MANY = {
    Role.DON: {0: ("нет дона", "no don"), 2: ("два дона", "two dons"), 3: ("три дона", "three dons"),
               4: ("четыре дона", "four dons")},
    Role.MAFIA: {0: ("нет мафии", "no mafia"), 1: ("одна мафия", "one mafia"), 3: ("три мафии", "three mafia"),
                 4: ("четыре мафии", "four mafia")},
    Role.SHERIFF: {0: ("нет шерифа", "no sheriff"), 2: ("два шерифа", "two sheriffs"), 3: ("три шерифа", "three sheriffs"),
                   4: ("четыре шерифа", "four sheriffs")},
    Role.CIVILIAN: {},
}
_MANY = {Role.DON: ("{n} донов", "{n} dons"), Role.MAFIA: ("{n} мафий", "{n} mafia"),
         Role.SHERIFF: ("{n} шерифов", "{n} sheriffs"), Role.CIVILIAN: ("{n} мирных", "{n} civilians")}
_ROLE_ORDER = (Role.DON, Role.MAFIA, Role.SHERIFF, Role.CIVILIAN)


def _how_many(role: Role, n: int, seats: Sequence[int]) -> Text:
    ru, en = _HOW_MANY[role].get(n) or (_MANY[role][0].format(n=n), _MANY[role][1].format(n=n))
    if not seats:
        return Text(ru, en)
    listed = ", ".join(map(str, seats))
    return Text(f"{ru} (места {listed})", f"{en} (seats {listed})")


def _marked_composition(p: Protocol, counts: Counter, empty: Sequence[int]) -> Problem:
    """More dons, mafia, sheriffs or civilians marked than a game has, with some role cells empty:
    one error at the cells of every role there are too many of (any may be the mistake) that also
    says what is missing and why the empty cells were not read as civilians."""
    parts = [_how_many(role, counts[role], [rec.seat for rec in p.seats if rec.role is role])
             for role in _ROLE_ORDER if counts.get(role, 0) > _WANT[role]]
    # a role none is marked of may be one of the empty cells: said, not marked
    parts += [_how_many(role, 0, ()) for role in _ROLE_ORDER if role is not Role.CIVILIAN and not counts.get(role, 0)]
    where = _cells(p, (rec.seat for rec in p.seats if rec.role is not None and counts[rec.role] > _WANT[rec.role]), "role")
    return problem("roles.composition_marked", E, where[0] if where else _loc(p, 1, "role"), related=where,
                   roles=Text(", ".join(t.ru for t in parts), ", ".join(t.en for t in parts)),
                   empty=Text(f"{'место' if len(empty) == 1 else 'места'} {', '.join(map(str, empty))}",
                              f"{'seat' if len(empty) == 1 else 'seats'} {', '.join(map(str, empty))}"))


@rule
def fouls(p: Protocol, ctx: Context) -> Iterator[Problem]:
    for rec in p.seats:
        if not 0 <= rec.fouls <= 4:
            yield problem("fouls.range", E, _loc(p, rec.seat, "fouls"), seat=rec.seat, fouls=rec.fouls)
        elif rec.fouls == 4 and rec.removal is None:
            yield problem("fouls.not_removed", E, _loc(p, rec.seat, "fouls"), seat=rec.seat)


@rule
def seat_penalty(p: Protocol, ctx: Context) -> Iterator[Problem]:
    """A penalty in a seat's row counts as typed; without its reason it is listed (the player will ask)."""
    for rec in p.seats:
        if rec.penalty and not rec.penalty_reason:
            yield problem("penalty.no_reason", W, _loc(p, rec.seat, "penalty"), seat=rec.seat, value=rec.penalty)


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
    """Warnings only: a best move is a detail of one player's points, never a reason to refuse
    the game — one that cannot be scored scores nothing, one of fewer than three other seats
    scores the blacks among them (:func:`scoring.items.best_move_seats`)."""
    first = p.first_shot
    for rec in p.seats:
        if not rec.best_move:
            continue
        loc = _loc(p, rec.seat, "best_move")
        authors = ctx.preset.best_move_by
        if not may_name_best_move(rec, authors):
            if authors != ("shot_first",):  # a league's own list (points.best_move_by): say who may
                yield problem("best_move.not_author", W, loc, seat=rec.seat, who=Text(
                    " или ".join(BEST_MOVE_AUTHORS[a].name_ru for a in authors),
                    " or ".join(BEST_MOVE_AUTHORS[a].name_en for a in authors)))
            elif first is None and rec.killed_night is not None:
                yield problem("best_move.after_miss", W, loc, seat=rec.seat)
            else:
                yield problem("best_move.not_first_shot", W, loc, seat=rec.seat)
            continue
        named = rec.best_move
        scored = best_move_seats(rec)
        typed = " ".join(map(str, named))
        if scored is None:
            yield problem("best_move.seats", W, loc, seat=rec.seat, value=typed)
        elif len(named) != 3 or len(scored) != 3:
            yield problem("best_move.partial", W, loc, seat=rec.seat, value=typed,
                          seats=" ".join(map(str, sorted(scored))) or "—")
        elif rec.role is not None and rec.role.team.value == "black":
            yield problem("best_move.black", W, loc, seat=rec.seat)


@rule
def kills(p: Protocol, ctx: Context) -> Iterator[Problem]:
    by_night: dict[int, list[int]] = defaultdict(list)
    for rec in p.seats:
        if rec.killed_night is not None:
            if not 1 <= rec.killed_night <= LAST_NIGHT:
                yield problem("kill.night_range", E, _loc(p, rec.seat, "killed_night"), seat=rec.seat, night=rec.killed_night)
            by_night[rec.killed_night].append(rec.seat)
        if rec.voted_day is not None and not 1 <= rec.voted_day <= LAST_NIGHT:
            yield problem("vote.day_range", E, _loc(p, rec.seat, "voted_day"), seat=rec.seat, day=rec.voted_day)
        if rec.removal is not None and rec.removal_day is not None and not 0 <= rec.removal_day <= LAST_NIGHT:
            yield problem("removal.day_range", E, _loc(p, rec.seat, "removal"), seat=rec.seat, day=rec.removal_day)
        ways = [(h, column) for h, v, column in ((_SHOT, rec.killed_night, "killed_night"), (_VOTED, rec.voted_day, "voted_day"),
                                                  (_REMOVED, rec.removal, "removal")) if v is not None]
        if len(ways) > 1:
            yield problem("leave.twice", E, _loc(p, rec.seat, "voted_day" if rec.voted_day is not None else "removal"),
                          related=tuple(loc for _, column in ways for loc in _cells(p, [rec.seat], column)),
                          seat=rec.seat, how=[h for h, _ in ways])
    for night, seats in sorted(by_night.items()):
        if len(seats) > 1:
            yield problem("kill.night_twice", E, _loc(p, seats[1], "killed_night"), related=_cells(p, seats, "killed_night"),
                          night=night, seats=seats)


_SHOT = Text("убит ночью", "shot at night")
_VOTED = Text("заголосован", "voted out")
_REMOVED = Text("удалён", "removed")
_TEAM = {Team.RED: Text("Мирные", "Red"), Team.BLACK: Text("Мафия", "Black")}
_OTHER = {Team.RED: Team.BLACK, Team.BLACK: Team.RED}
_WANT = {Role.DON: 1, Role.MAFIA: 2, Role.SHERIFF: 1, Role.CIVILIAN: 6}

# an event's time: (number, phase, order); day n (votes, then removals) precedes night n
_DAY_VOTE, _DAY_REMOVAL, _NIGHT = 0, 1, 2


@dataclass(frozen=True, slots=True)
class _Event:
    time: tuple[int, int]
    kind: str  # "vote" | "removal" | "kill"
    record: SeatRecord


@dataclass(slots=True)
class _Replay:
    """What the recorded departures imply: who won, why, and what happened after the end."""

    winner: Team | None = None
    reason: Text | None = None
    end: tuple[int, int] | None = None
    late: list[_Event] | None = None  # events after the game was decided
    four_left: list[tuple[int, list[int]]] | None = None  # (day, seats) votes of two or more at four players
    decisive: tuple[_Event, ...] = ()  # the departures that decided the game (none after three quiet nights)
    red: int = 0
    black: int = 0
    black_left: tuple[int, ...] = ()  # seats of the black players still at the table at the end


def _what(ev: _Event) -> Text:
    n = ev.time[0]
    if ev.kind == "kill":
        return Text(f"убит в ночь {n}", f"shot on night {n}")
    if ev.kind == "vote":
        return Text(f"заголосован в день {n}", f"voted out on day {n}")
    return Text(f"удалён в день {n}", f"removed on day {n}")


def _column(kind: str) -> str:
    return {"kill": "killed_night", "vote": "voted_day", "removal": "removal"}[kind]


def _departures(p: Protocol, removal_days: dict[int, int], order: dict[int, int]) -> list[_Event]:
    """Every recorded departure as an event at its time (a removal without a day takes it from
    ``removal_days``, or is left out), in the order the replay meets them (removals of one day
    in ``order``, else by seat)."""
    events: list[_Event] = []
    for rec in p.seats:
        if rec.voted_day is not None:
            events.append(_Event((rec.voted_day, _DAY_VOTE), "vote", rec))
        if rec.killed_night is not None:
            events.append(_Event((rec.killed_night, _NIGHT), "kill", rec))
        if rec.removal is not None:
            day = rec.removal_day if rec.removal_day is not None else removal_days.get(rec.seat)
            if day is not None:
                events.append(_Event((day, _DAY_REMOVAL), "removal", rec))
    events.sort(key=lambda e: (e.time, order.get(e.record.seat, 0), e.record.seat))
    return events


def _same_day_orders(p: Protocol) -> Iterator[dict[int, int]]:
    """The orders to try for removals dated the same day, which a protocol cannot order (seat
    order first; at most 24, of days with at most four removals)."""
    by_day: dict[int, list[int]] = defaultdict(list)
    for rec in p.seats:
        if rec.removal is not None and rec.removal_day is not None:
            by_day[rec.removal_day].append(rec.seat)
    groups = [list(permutations(seats)) for seats in by_day.values() if 1 < len(seats) <= 4]
    for combo in islice(product(*groups), 24):
        yield {seat: i for perm in combo for i, seat in enumerate(perm)}


def replay(p: Protocol, removal_days: dict[int, int] | None = None, order: dict[int, int] | None = None) -> _Replay:
    """Replay the departures in order (day n before night n) and decide the game.

    ``removal_days`` gives a day to removals the protocol records without one.
    Red wins when every black is out, or after three cycles (day + night) with no change,
    or when a black player is removed with team defeat or at 3–4 players left; black wins
    when blacks are at least as many as reds, or when a red player is removed so.
    """
    roles = {rec.seat: rec.role for rec in p.seats}
    alive = {rec.seat for rec in p.seats}
    events = _departures(p, removal_days or {}, order or {})
    out = _Replay(late=[], four_left=[])

    def counts() -> tuple[int, int]:
        black = sum(1 for s in alive if roles[s] is not None and roles[s].team is Team.BLACK)
        return len(alive) - black, black

    def natural(time: tuple[int, int], batch: Sequence[_Event]) -> None:
        red, black = counts()
        if black == 0:
            decide(Team.RED, Text("все чёрные выбыли", "every black player is out"), time, batch)
        elif black >= red:
            decide(Team.BLACK, Text(f"чёрных ({black}) не меньше, чем красных ({red})",
                                    f"blacks ({black}) are at least as many as reds ({red})"), time, batch)

    def decide(team: Team, reason: Text, time: tuple[int, int], batch: Sequence[_Event] = ()) -> None:
        if out.winner is None:
            out.winner, out.reason, out.end, out.decisive = team, reason, time, tuple(batch)

    last = max((e.time[0] for e in events), default=0)
    quiet = 0
    for n in range(0, last + 1):
        at_start = len(alive)
        for phase in (_DAY_VOTE, _DAY_REMOVAL, _NIGHT):
            batch = [e for e in events if e.time == (n, phase)]
            if not batch:
                continue
            if out.winner is not None:
                out.late.extend(batch)
                continue
            if phase == _DAY_VOTE:
                if len(alive) == 4 and len(batch) >= 2:
                    out.four_left.append((n, [e.record.seat for e in batch]))
                alive.difference_update(e.record.seat for e in batch)
                natural((n, phase), batch)
            elif phase == _NIGHT:
                alive.difference_update(e.record.seat for e in batch)
                natural((n, phase), batch)
            else:
                for e in batch:
                    if out.winner is not None:
                        out.late.append(e)
                        continue
                    before = len(alive)
                    alive.discard(e.record.seat)
                    role = roles[e.record.seat]
                    other = _OTHER[role.team] if role is not None else None
                    seat = e.record.seat
                    if other is not None and e.record.removal is Removal.TEAM_DEFEAT:
                        decide(other, Text(f"ППК игроку на месте {seat}", f"team defeat of seat {seat}"), (n, phase), [e])
                    elif other is not None and before in (3, 4):
                        decide(other, Text(f"удаление на месте {seat} при {before} игроках за столом",
                                           f"seat {seat} removed with {before} players at the table"), (n, phase), [e])
                    else:
                        natural((n, phase), [e])
        if n >= 1 and out.winner is None:
            quiet = quiet + 1 if len(alive) == at_start else 0
            if quiet >= 3:
                decide(Team.RED, Text(f"три ночи подряд без выбывших (ночи {n - 2}–{n})",
                                      f"three nights in a row with nobody leaving (nights {n - 2}–{n})"), (n, _NIGHT))
    out.red, out.black = counts()
    out.black_left = tuple(sorted(s for s in alive if roles[s] is not None and roles[s].team is Team.BLACK))
    return out


def _replay_problems(p: Protocol, r: _Replay) -> list[Problem]:
    """The replay against the protocol: errors where the recorded departures contradict each
    other or the winner (every cell involved named), a warning where they merely do not record
    enough to confirm the winner — for either winner alike."""
    found: list[Problem] = []
    decisive = tuple(_loc(p, ev.record.seat, _column(ev.kind)) for ev in r.decisive)
    for day, seats in r.four_left or ():
        found.append(problem("vote.four_left", E, _loc(p, seats[1], "voted_day"), related=_cells(p, seats, "voted_day"),
                             day=day, seats=seats))
    for ev in r.late or ():
        found.append(problem("leave.after_end", E, _loc(p, ev.record.seat, _column(ev.kind)), related=decisive,
                             seat=ev.record.seat, event=_what(ev), reason=r.reason))
    if p.winner is not None:
        where = p.cells.get("winner") or _loc(p, None, "stage")
        if r.winner is not None and r.winner is not p.winner:
            found.append(problem("winner.contradiction", E, where, related=decisive,
                                 winner=_TEAM[p.winner], reason=Text(f"{r.reason.ru} — победа «{_TEAM[r.winner].ru}»",
                                                                     f"{r.reason.en}: {_TEAM[r.winner].en} win")))
        elif r.winner is None:
            found.append(problem("winner.incomplete", W, where, winner=_TEAM[p.winner], missing=_missing(p.winner, r)))
    return found


def _missing(winner: Team, r: _Replay) -> Text:
    """What the protocol would have to record for ``winner`` to have won (the replay found no end)."""
    left = ", ".join(map(str, r.black_left))
    if winner is Team.RED:  # every black player out (or three quiet nights, which leave no trace)
        n = len(r.black_left)
        return Text(f"у {n} {'чёрного игрока' if n == 1 else 'чёрных игроков'} не записано выбывание "
                    f"({'место' if n == 1 else 'места'} {left})",
                    f"{n} black {'player has' if n == 1 else 'players have'} no departure recorded "
                    f"({'seat' if n == 1 else 'seats'} {left})")
    n = r.red - r.black  # blacks at least as many as reds: at least this many more reds out
    return Text(f"не записано выбывание ещё минимум {n} {'красного игрока' if n == 1 else 'красных игроков'} "
                f"(за столом остались красных: {r.red}, чёрных: {r.black})",
                f"at least {n} more red {'player' if n == 1 else 'players'} must have left, but no departure is recorded "
                f"(left at the table: {r.red} red, {r.black} black)")


@rule
def winner(p: Protocol, ctx: Context) -> Iterator[Problem]:
    """The winner agrees with the departures; no departure after the game was decided."""
    if len(p.seats) != 10 or any(rec.role is None for rec in p.seats):
        return
    if Counter(rec.role for rec in p.seats) != Counter(_WANT):
        return
    if any(not 1 <= (rec.killed_night if rec.killed_night is not None else 1) <= LAST_NIGHT
           or not 1 <= (rec.voted_day if rec.voted_day is not None else 1) <= LAST_NIGHT
           or not 0 <= (rec.removal_day if rec.removal_day is not None else 0) <= LAST_NIGHT
           or sum(v is not None for v in (rec.killed_night, rec.voted_day, rec.removal)) > 1 for rec in p.seats):
        return  # reported by `kills`; a replay of impossible numbers would only repeat it
    undated = [rec for rec in p.seats if rec.removal is not None and rec.removal_day is None]
    if not undated:  # removals of one day in any order that fits (the protocol cannot order them)
        tried = [_replay_problems(p, replay(p, order=order)) for order in _same_day_orders(p)]
        yield from next((found for found in tried if not any(f.severity is E for f in found)), tried[0])
        return
    first = _loc(p, undated[0].seat, "removal")
    if len(undated) > 2:  # too many combinations to try
        yield problem("winner.unverifiable", W, first, seat=undated[0].seat,
                      winner=_TEAM[p.winner] if p.winner else Text("—", "—"))
        return
    # a removal without a day: the protocol is fine if any day it could have happened on fits
    last = max([rec.killed_night or 0 for rec in p.seats] + [rec.voted_day or 0 for rec in p.seats]
               + [rec.removal_day or 0 for rec in p.seats]) + 1
    outcomes: list[list[Problem]] = []
    for days in _placements(len(undated), last):
        found = _replay_problems(p, replay(p, {rec.seat: d for rec, d in zip(undated, days)}))
        if not any(f.severity is E for f in found):
            yield from found  # a day that fits: what it leaves unconfirmed, if anything
            return
        outcomes.append(found)
    best = min(outcomes, key=len)[0]
    yield problem("winner.undated_removal", E, first, seat=undated[0].seat,
                  reason=Text(best.message("ru"), best.message("en")))


def _placements(count: int, last: int) -> Iterator[tuple[int, ...]]:
    if count == 0:
        yield ()
        return
    for d in range(0, last + 1):
        for rest in _placements(count - 1, last):
            yield (d, *rest)


def _stage_name(preset: Preset, key: str) -> Text | str:
    if key in preset.stage_keys:
        stage = preset.stage(key)
        return Text(stage.name_ru, stage.name_en)
    return key


@rule
def header(p: Protocol, ctx: Context) -> Iterator[Problem]:
    """The round exists in the stage (the table and the schedule are checked against the seating).
    An evening's game number is not a round of a stage: an evening plays as many games as it likes."""
    if p.stage in ctx.preset.stage_keys and p.date is None:
        stage = ctx.preset.stage(p.stage)
        if p.round > stage.games:
            yield problem("protocol.round_range", W, p.cells.get("round") or _loc(p, None, "stage"), round=p.round,
                          stage=_stage_name(ctx.preset, p.stage), games=stage.games)


@rule
def finished(p: Protocol, ctx: Context) -> Iterator[Problem]:
    """No winner yet (a winner written but not understood is the reader's one error instead)."""
    if not p.finished and not p.winner_text and any(rec.role for rec in p.seats):
        yield problem("protocol.not_finished", W, p.cells.get("winner") or _loc(p, None, "stage"))


# -- cross-protocol rules -------------------------------------------------------------------------
def _duplicates(protocols: Sequence[Protocol]) -> Iterator[Problem]:
    """The same game twice: stage, round and table (and, on an evening, the date).  In a tournament
    the later tab is the copy; two blocks of an evening are both marked (neither counts until the
    judge renumbers one), so the order of the blocks in the tab changes nothing."""
    first: dict[tuple, Protocol] = {}
    marked: set[str] = set()
    for p in protocols:
        if p.blank:
            continue  # not a game: a typed copy of its game is the only one
        key = (p.date, *p.key)
        if key not in first:
            first[key] = p
        elif p.date is not None:
            other = first[key]
            yield problem("protocol.duplicate_evening", E, _loc(p, None, "round"), round=p.round, table=p.table,
                          other=other.game_id)
            if other.game_id not in marked:
                marked.add(other.game_id)
                yield problem("protocol.duplicate_evening", E, _loc(other, None, "round"), round=p.round,
                              table=p.table, other=p.game_id)
        else:
            yield problem("protocol.duplicate", E, p.cells.get("round") or _loc(p, None, "stage"), other=first[key].game_id)


def _two_games(protocols: Sequence[Protocol]) -> Iterator[Problem]:
    """A player in two games of one round: both games are marked (which one is wrong is for the judge)."""
    where: dict[tuple[object, str, int, str], Protocol] = {}
    reported: set[tuple[str, str]] = set()
    for p in protocols:
        if p.blank:
            continue  # its pre-filled players (perhaps of a seating changed since) play nowhere yet
        for rec in p.seats:
            if not rec.player:
                continue
            key = (p.date, p.stage, p.round, rec.player)
            other = where.get(key)
            if other is not None and other.key != p.key:
                yield _two_games_problem(p, rec.seat, rec.player, other)
                first = other.seat_of(rec.player)
                if first is not None and (other.game_id, rec.player) not in reported:
                    reported.add((other.game_id, rec.player))
                    yield _two_games_problem(other, first.seat, rec.player, p)
            else:
                where[key] = p


def _two_games_problem(p: Protocol, seat: int, player: str, other: Protocol) -> Problem:
    if p.date is not None:
        return problem("player.two_games_evening", E, _loc(p, seat, "player"), player=player, round=p.round,
                       date=p.date.strftime("%d.%m.%Y"), other=other.game_id)
    return problem("player.two_games", E, _loc(p, seat, "player"), player=player, round=p.round, other=other.game_id)


_WRONG_TAB_MATCH = 8  # of the ten typed players, at least this many seated at the other table


def _seated_elsewhere(p: Protocol, entry: SeatingEntry, ctx: Context) -> Problem | None:
    """The game of another table of the same round typed into this tab: the typed players are
    (at least eight of ten, allowing for substitutes) those the seating put at that table, and
    fewer of them are this table's.  One problem saying which game it looks like, instead of a
    seating mismatch at every seat."""
    typed = {rec.player for rec in p.seats if rec.player}
    own = len(typed & set(entry.players))
    if own == len(typed):
        return None  # the usual case: this table's players (looked at before the other tables)
    best: tuple[int, SeatingEntry] | None = None
    for other in ctx.tournament.seating:
        if (other.stage, other.round) != (p.stage, p.round) or other.table == p.table:
            continue
        shared = len(typed & set(other.players))
        if shared >= _WRONG_TAB_MATCH and shared > own and (best is None or shared > best[0]):
            best = (shared, other)
    if best is None:
        return None
    shared, other = best
    tab = next((q.sheet for q in ctx.tournament.protocols if q.key == (other.stage, other.round, other.table)
                and q.date is None), None)
    stage = _stage_name(ctx.preset, p.stage)
    game = tab or Text(f"{stage} тур {other.round} стол {other.table}",
                       f"{stage.en if isinstance(stage, Text) else stage} round {other.round} table {other.table}")
    return problem("protocol.other_table", E, p.cells.get("table_number") or p.cells.get("round") or _loc(p, None, "stage"),
                   game=game, matched=shared, table=p.table)


def _against_seating(p: Protocol, ctx: Context) -> Iterator[Problem]:
    entry: SeatingEntry | None = ctx.by_key.get(p.key)
    if entry is None:
        if ctx.tournament.seating and any(rec.player for rec in p.seats):
            yield problem("protocol.no_seating", W, p.cells.get("round") or _loc(p, None, "stage"),
                          stage=_stage_name(ctx.preset, p.stage), round=p.round, table=p.table)
        return
    elsewhere = _seated_elsewhere(p, entry, ctx)
    if elsewhere is not None:
        yield elsewhere
        return
    for rec in p.seats:
        expected = entry.players[rec.seat - 1] if rec.seat - 1 < len(entry.players) else None
        if not rec.player or not expected or rec.player == expected or rec.player not in ctx.known:
            continue
        if rec.player in ctx.reserves:
            yield problem("player.substitute", W, _loc(p, rec.seat, "player"), seat=rec.seat, player=rec.player, expected=expected)
        else:
            yield problem("player.not_seated_here", W, _loc(p, rec.seat, "player"), seat=rec.seat, player=rec.player, expected=expected)


def _seating(entries: Sequence[SeatingEntry], known: frozenset[str]) -> Iterator[Problem]:
    folds = frozenset(map(fold, known))
    seen_game: set[tuple] = set()
    seen_player: dict[tuple[str, int, str], tuple[SeatingEntry, int]] = {}
    reported_first: set[tuple[str, int, str]] = set()
    for e in entries:
        key = (e.stage, e.round, e.table)
        if key in seen_game:
            yield problem("seating.duplicate_game", E, e.location, stage=e.stage, round=e.round, table=e.table)
        seen_game.add(key)
        filled = [p for p in e.players if p]
        if len(filled) != 10:
            yield problem("seating.seat_count", W, e.location, count=len(filled))
        for i, name in enumerate(e.players):
            if not name:
                continue
            if name not in known and fold(name) not in folds:
                yield problem("seating.unknown_player", E, e.seat_location(i), player=name, hint=_hint(name, known))
            k = (e.stage, e.round, name)
            if k in seen_player:
                # both cells are marked: either may be the one the organizer mistyped
                first, first_i = seen_player[k]
                if k not in reported_first:
                    reported_first.add(k)
                    yield problem("seating.twice_in_round", E, first.seat_location(first_i), player=name, round=e.round)
                yield problem("seating.twice_in_round", E, e.seat_location(i), player=name, round=e.round)
            else:
                seen_player[k] = (e, i)


# rules that need only the protocol's own cells: they also check a protocol whose stage, round or
# table could not be read (the round range and "not finished" need to know which game it is)
_OWN_CELL_RULES = ("players_present", "roles", "fouls", "extra_points", "seat_penalty", "best_move", "kills", "winner")


def _context(t: Tournament, preset: Preset) -> Context:
    known = frozenset(p.nickname for p in t.players)
    by_key = {(e.stage, e.round, e.table): e for e in t.seating}
    return Context(tournament=t, preset=preset, known=known, folds=frozenset(map(fold, known)), by_key=by_key,
                   reserves=t.reserves)


def _one_game(p: Protocol, ctx: Context) -> Iterator[Problem]:
    if p.stage not in ctx.preset.stage_keys or p.blank:  # a blank tab is not a game: nothing to check yet
        return
    for fn in RULES.values():
        yield from fn(p, ctx)
    yield from _against_seating(p, ctx)


def game_problems(t: Tournament, preset: Preset, protocols: Sequence[Protocol]) -> list[Problem]:
    """What the per-game rules of :func:`validate` find in ``protocols`` (games of ``t``), the
    cross-game rules left out: :mod:`scoring.secrecy` asks it of a game as typed and as shown."""
    ctx = _context(t, preset)
    return [pr for p in protocols for pr in _one_game(p, ctx)]


def validate(t: Tournament, preset: Preset, unplaced: Sequence[Protocol] = ()) -> list[Problem]:
    """Every problem of every protocol and of the seating; ``unplaced`` protocols (their header
    could not place them in a game) get the rules about their own cells only."""
    ctx = _context(t, preset)
    problems: list[Problem] = list(_seating(t.seating, ctx.known))
    for p in t.protocols:
        problems.extend(_one_game(p, ctx))
    for p in unplaced:
        if p.blank:
            continue
        for name in _OWN_CELL_RULES:
            problems.extend(RULES[name](p, ctx))
    problems.extend(_duplicates(t.protocols))
    problems.extend(_two_games(t.protocols))
    return problems
