"""What each kind of event checks and what it does: ``check(state, event)`` returns a
:class:`~scoring.game.refusals.Refusal` or None, ``act(state, event)`` the next state.

One pair a kind, in :data:`HANDLERS`; the steps each kind is recorded in, in :data:`WHEN`.
A JavaScript port is this table and these short functions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from scoring.game.events import Event
from scoring.game.flow import (TURN_STEPS, after_look, after_shot_step, begin_night, deal_done, end, finish_turn,
                               leave, other, record_night, settle, team_of, update_day, vote_out)
from scoring.game.refusals import Refusal, refusal
from scoring.game.state import WANT, GameState, Step
from scoring.model import Role
from scoring.problems import Text

__all__ = ["HANDLERS", "WHEN", "EVENT_NAMES", "check", "act"]

Check = Callable[[GameState, Any], Refusal | None]
Act = Callable[[GameState, Any], GameState]

_ANY = frozenset(Step)
_PLAYING = frozenset(Step) - {Step.DEAL, Step.END}
WHEN: dict[str, frozenset[Step]] = {
    "seat": _ANY, "judge": _ANY, "best_move": _ANY, "deal": frozenset({Step.DEAL}),
    "night_zero": frozenset({Step.DEAL, Step.DON_LOOK, Step.SHERIFF_LOOK}),
    "speech_start": frozenset(TURN_STEPS), "speech_end": frozenset(TURN_STEPS), "nominate": frozenset({Step.SPEECHES}),
    "vote": frozenset({Step.VOTE}), "raise_all": frozenset({Step.RAISE}), "shot": frozenset({Step.SHOT}),
    "miss": frozenset({Step.SHOT}), "don_check": frozenset({Step.DON_CHECK}),
    "sheriff_check": frozenset({Step.SHERIFF_CHECK}), "foul": _PLAYING, "removal": _PLAYING, "ruling": _PLAYING,
    "extra": frozenset({Step.END}), "undo": _ANY,
}
EVENT_NAMES: dict[str, tuple[str, str]] = {
    "seat": ("игрок на месте", "a player at a seat"), "deal": ("роль", "a role"), "judge": ("судья", "the judge"),
    "night_zero": ("ночь 0", "night 0"), "speech_start": ("начало речи", "a speech's start"),
    "speech_end": ("конец речи", "a speech's end"), "nominate": ("выставление", "a nomination"),
    "vote": ("голосование", "a vote"), "raise_all": ("подъём всех", "the vote to raise all"),
    "shot": ("выстрел", "a shot"), "miss": ("промах", "a miss"), "don_check": ("проверка дона", "the don's check"),
    "sheriff_check": ("проверка шерифа", "the sheriff's check"), "best_move": ("лучший ход", "a best move"),
    "foul": ("фол", "a foul"), "removal": ("удаление", "a removal"), "extra": ("доп. баллы", "extra points"),
    "ruling": ("победа решением судьи", "a win by the judge's ruling"), "undo": ("отмена", "an undo"),
}
_NIGHT_ZERO = {Step.DEAL: "agreement", Step.DON_LOOK: "don", Step.SHERIFF_LOOK: "sheriff"}
_ROLE_WORDS = {Role.DON: Text("дон", "don"), Role.MAFIA: Text("мафия", "mafia"),
               Role.SHERIFF: Text("шериф", "sheriff"), Role.CIVILIAN: Text("мирный", "civilian")}


def check(state: GameState, event: Event) -> Refusal | None:
    """Why ``event`` cannot be recorded now, or None."""
    for name in ("seat", "by"):
        value = getattr(event, name, None)
        if isinstance(value, int) and not 1 <= value <= 10:
            return refusal("seat.range", seat=value)
    if state.step not in WHEN[event.kind]:
        return _not_now(state, event)
    return HANDLERS[event.kind][0](state, event)


def act(state: GameState, event: Event) -> GameState:
    return HANDLERS[event.kind][1](state, event)


def _not_now(state: GameState, event: Event) -> Refusal:
    if state.ended:
        return refusal("game.ended", reason=state.reason or "")
    if state.step is Step.DEAL and event.kind in ("foul", "removal", "ruling"):
        return refusal("game.not_started")
    if event.kind == "extra":
        return refusal("extra.not_ended")
    day = state.days[-1] if state.days and state.days[-1].number == state.number else None  # today, or tonight's day
    if event.kind == "raise_all" and day is not None and day.no_raise:
        return refusal("raise.four" if day.no_raise == "four" else "raise.everyone")
    ru, en = EVENT_NAMES[event.kind]
    return refusal("step.wrong", step=state.step_name(), event=Text(ru, en))


def _out(state: GameState, seat: int | None) -> Refusal | None:
    return refusal("seat.out", seat=seat) if seat is not None and not state.seat(seat).at_table else None


# -- before the game ------------------------------------------------------------------------------
def _check_seat(state: GameState, ev: Any) -> Refusal | None:
    other_seat = next((s.seat for s in state.seats if ev.player and s.player == ev.player and s.seat != ev.seat), None)
    return refusal("player.twice", player=ev.player, other=other_seat) if other_seat else None


def _seat(state: GameState, ev: Any) -> GameState:
    return _set_seat(state, ev.seat, player=ev.player)


def _set_seat(state: GameState, seat: int, **changes: object) -> GameState:
    seats = list(state.seats)
    seats[seat - 1] = replace(seats[seat - 1], **changes)
    return replace(state, seats=tuple(seats))


def _check_deal(state: GameState, ev: Any) -> Refusal | None:
    dealt = sum(1 for s in state.seats if s.role is ev.role and s.seat != ev.seat)
    return refusal("deal.too_many", role=_ROLE_WORDS[ev.role], count=dealt) if dealt >= WANT[ev.role] else None


def _deal(state: GameState, ev: Any) -> GameState:
    return _set_seat(state, ev.seat, role=ev.role)


def _check_night_zero(state: GameState, ev: Any) -> Refusal | None:
    if ev.step != _NIGHT_ZERO[state.step]:
        return _not_now(state, ev)
    if state.step is not Step.DEAL:
        return None
    empty = next((s.seat for s in state.seats if not s.player), None)
    if empty is not None:
        return refusal("seat.empty", seat=empty)
    missing = [_ROLE_WORDS[r] for r in (Role.DON, Role.MAFIA, Role.SHERIFF)
               if sum(1 for s in state.seats if s.role is r) < WANT[r]]
    return refusal("deal.incomplete", missing=tuple(missing)) if missing else None


def _night_zero(state: GameState, ev: Any) -> GameState:
    if state.step is Step.DEAL:
        state = deal_done(state)
    return after_look(state, state.step)


# -- speeches and nominations ---------------------------------------------------------------------
def _check_start(state: GameState, ev: Any) -> Refusal | None:
    if state.speaking is not None:
        return refusal("speech.busy", speaking=state.speaking)
    if not state.turns or ev.seat != state.turns[0]:
        return refusal("speech.turn", next=state.turns[0] if state.turns else "—", seat=ev.seat)
    return None


def _start(state: GameState, ev: Any) -> GameState:
    return replace(state, speaking=ev.seat, turns=state.turns[1:])


def _check_end(state: GameState, ev: Any) -> Refusal | None:
    return refusal("speech.not_speaking", seat=ev.seat) if state.speaking != ev.seat else None


def _end_speech(state: GameState, ev: Any) -> GameState:
    keep = tuple(s for s in state.best_move_by if s != ev.seat or state.step is not Step.FAREWELL)
    return finish_turn(replace(state, speaking=None, best_move_by=keep))


def _check_nominate(state: GameState, ev: Any) -> Refusal | None:
    if state.speaking is None:
        return refusal("nominate.nobody_speaks")
    if ev.by != state.speaking:
        return refusal("nominate.speaker", speaking=state.speaking)
    if state.no_vote:
        return refusal("nominate.no_vote")
    nominations = state.days[-1].nominations
    first = next((seat for by, seat in nominations if by == ev.by), None)
    if first is not None:
        return refusal("nominate.second", by=ev.by, first=first)
    already = next((by for by, seat in nominations if seat == ev.seat), None)
    if already is not None:
        return refusal("nominate.already", seat=ev.seat, by=already)
    return _out(state, ev.seat)


def _nominate(state: GameState, ev: Any) -> GameState:
    state = update_day(state, nominations=(*state.days[-1].nominations, (ev.by, ev.seat)))
    return replace(state, candidates=(*state.candidates, ev.seat))


# -- the vote -------------------------------------------------------------------------------------
def _check_vote(state: GameState, ev: Any) -> Refusal | None:
    seats = tuple(seat for seat, _ in ev.counts)
    if seats not in (state.candidates, state.candidates[:-1]):
        return refusal("vote.candidates", candidates=state.candidates)
    total = sum(n for _, n in ev.counts)
    return refusal("vote.total", total=total, count=state.count()) if total > state.count() else None


def _vote(state: GameState, ev: Any) -> GameState:
    given = dict(ev.counts)
    last = state.candidates[-1]
    given[last] = given.get(last, 0) + state.count() - sum(given.values())  # the votes not given (FIIM)
    counts = tuple((seat, given[seat]) for seat in state.candidates)
    state = update_day(state, votes=(*state.days[-1].votes, counts))
    top = max(n for _, n in counts)
    leaders = tuple(seat for seat, n in counts if n == top)
    if len(leaders) == 1:
        return vote_out(state, leaders)
    if state.vote_round >= 2 and leaders == state.candidates:
        return _to_raise(state)
    return replace(state, step=Step.TIE, turns=leaders, candidates=leaders)


def _to_raise(state: GameState) -> GameState:
    """The same players tie again: the vote to raise them all — none with four at the table, nor
    when the candidates are everyone at the table."""
    if state.count() == 4:
        return begin_night(update_day(state, no_raise="four"))
    if len(state.candidates) == state.count():
        return begin_night(update_day(state, no_raise="everyone"))
    return replace(state, step=Step.RAISE)


def _check_raise(state: GameState, ev: Any) -> Refusal | None:
    return refusal("raise.total", yes=ev.yes, count=state.count()) if ev.yes > state.count() else None


def _raise(state: GameState, ev: Any) -> GameState:
    state = update_day(state, raise_yes=ev.yes)
    if 2 * ev.yes > state.count():  # more than half of the table
        return vote_out(state, state.candidates)
    return begin_night(state)


# -- the night ------------------------------------------------------------------------------------
def _check_shot(state: GameState, ev: Any) -> Refusal | None:
    return _out(state, ev.seat)


def _shot(state: GameState, ev: Any) -> GameState:
    return after_shot_step(record_night(state, shot=ev.seat), Step.SHOT)


def _miss(state: GameState, ev: Any) -> GameState:
    return after_shot_step(record_night(state, shot=None), Step.SHOT)


def _check_by(role: Role, who: Text) -> Check:
    def check_night(state: GameState, ev: Any) -> Refusal | None:
        holder = state.holder(role)
        if ev.seat is not None and holder is not None and ev.seat == holder.seat:
            return refusal("check.self", who=who)
        return _out(state, ev.seat)
    return check_night


def _don_check(state: GameState, ev: Any) -> GameState:
    return after_shot_step(record_night(state, don_check=ev.seat), Step.DON_CHECK)


def _sheriff_check(state: GameState, ev: Any) -> GameState:
    return after_shot_step(record_night(state, sheriff_check=ev.seat), Step.SHERIFF_CHECK)


def _nothing(state: GameState, ev: Any) -> Refusal | None:
    return None


# -- the best move --------------------------------------------------------------------------------
def _check_best_move(state: GameState, ev: Any) -> Refusal | None:
    if ev.seat not in state.best_move_by:
        return _not_author(state, ev.seat)
    seats = ev.seats
    if len(seats) != 3 or len(set(seats)) != 3 or ev.seat in seats:
        return refusal("best_move.seats", seats=" ".join(map(str, seats)) or "—")
    return None


def _not_author(state: GameState, seat: int) -> Refusal:
    first_night = state.nights[0] if state.nights else None
    out = state.seat(seat).out
    if first_night is not None and first_night.shot is None and out is not None and out.how == "shot":
        return refusal("best_move.after_miss")
    if state.best_move_by:
        return refusal("best_move.author", seats=state.best_move_by)
    return refusal("best_move.nobody")


def _best_move(state: GameState, ev: Any) -> GameState:
    state = _set_seat(state, ev.seat, best_move=tuple(ev.seats))
    return replace(state, best_move_by=tuple(s for s in state.best_move_by if s != ev.seat))


# -- fouls and removals ---------------------------------------------------------------------------
def _check_at_table(state: GameState, ev: Any) -> Refusal | None:
    return _out(state, ev.seat)


def _foul(state: GameState, ev: Any) -> GameState:
    fouls = state.seat(ev.seat).fouls + 1
    state = _set_seat(state, ev.seat, fouls=fouls)
    if fouls == 3:
        state = _set_seat(state, ev.seat, silenced_day=_silenced_day(state, ev.seat))
    return remove(state, ev.seat, "removed") if fouls == 4 else state


def _silenced_day(state: GameState, seat: int) -> int:
    """«Если игрок получает 3-е замечание, то он лишается речи на данном кругу (если он получил
    замечание до речи) или на следующем (если он получил замечание на своей речи или после нее)»."""
    if state.step.phase in ("setup", "night_zero"):
        return 1
    if state.step.phase == "night":
        return state.number + 1
    before_his_speech = state.step is Step.MORNING or (state.step is Step.SPEECHES and seat in state.turns)
    return state.number if before_his_speech else state.number + 1


def _removal(state: GameState, ev: Any) -> GameState:
    return remove(state, ev.seat, "team_defeat" if ev.team_defeat else "removed")


def remove(state: GameState, seat: int, how: str) -> GameState:
    """The player leaves the table now; the game may end, else the day loses its vote."""
    before, team = state.count(), team_of(state.seat(seat))
    state = leave(state, seat, how)
    state = replace(state, turns=tuple(t for t in state.turns if t != seat),
                    speaking=None if state.speaking == seat else state.speaking)
    if how == "team_defeat":
        return end(state, other(team), Text(f"ППК игроку на месте {seat}", f"team defeat of seat {seat}"))
    if before in (3, 4):
        return end(state, other(team), Text(f"удаление на месте {seat} при {before} игроках за столом",
                                            f"seat {seat} removed with {before} players at the table"))
    state = settle(state)
    if state.ended:
        return state
    return _after_removal(state)


def _after_removal(state: GameState) -> GameState:
    """The day's vote is off after a removal before or during it; a night or night 0 waits only
    for players still at the table."""
    step = state.step
    if step in (Step.MORNING, Step.SPEECHES):
        return finish_turn(replace(state, no_vote=True))
    if step in (Step.VOTE, Step.TIE, Step.RAISE):
        return begin_night(replace(state, no_vote=True))
    if step in (Step.DON_CHECK, Step.SHERIFF_CHECK, Step.DON_LOOK, Step.SHERIFF_LOOK):
        holder = state.holder(Role.DON if step in (Step.DON_CHECK, Step.DON_LOOK) else Role.SHERIFF)
        if holder is not None and not holder.at_table:
            return after_shot_step(state, step) if step.phase == "night" else after_look(state, step)
    return finish_turn(state)


# -- the end and after it -------------------------------------------------------------------------
def _ruling(state: GameState, ev: Any) -> GameState:
    return end(state, ev.team, Text("решение судьи", "the judge's ruling"))


def _check_extra(state: GameState, ev: Any) -> Refusal | None:
    rules, value = state.rules, ev.points
    if not value or rules.extra_min is None or rules.extra_max is None:
        return None
    if not rules.extra_min <= value <= rules.extra_max:
        return refusal("extra.range", value=value, low=rules.extra_min, high=rules.extra_max)
    if rules.extra_step and (value - rules.extra_min) % rules.extra_step:
        return refusal("extra.step", value=value, step=rules.extra_step)
    return None


def _extra(state: GameState, ev: Any) -> GameState:
    return _set_seat(state, ev.seat, extra=ev.points)


def _judge(state: GameState, ev: Any) -> GameState:
    return replace(state, judge=ev.name)


HANDLERS: dict[str, tuple[Check, Act]] = {
    "seat": (_check_seat, _seat), "judge": (_nothing, _judge), "deal": (_check_deal, _deal),
    "night_zero": (_check_night_zero, _night_zero), "speech_start": (_check_start, _start),
    "speech_end": (_check_end, _end_speech), "nominate": (_check_nominate, _nominate), "vote": (_check_vote, _vote),
    "raise_all": (_check_raise, _raise), "shot": (_check_shot, _shot), "miss": (_nothing, _miss),
    "don_check": (_check_by(Role.DON, Text("дон", "don")), _don_check),
    "sheriff_check": (_check_by(Role.SHERIFF, Text("шериф", "sheriff")), _sheriff_check),
    "best_move": (_check_best_move, _best_move), "foul": (_check_at_table, _foul),
    "removal": (_check_at_table, _removal), "ruling": (_nothing, _ruling), "extra": (_check_extra, _extra),
}
