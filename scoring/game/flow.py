"""How a game moves on by itself: the turn order, the end of the speeches, the vote's outcome,
the morning, and the end of the game.

Regulation (German Mafia Open 2016, «Нюансы правил») and FIIM's rules, where the game's course
is decided without the judge pressing anything:

* the end: red wins when every black is out, black when blacks are at least as many as reds;
  «когда на протяжении трёх ночей за столом остаётся неизменное количество игроков … объявляется
  победа мирных» — three days and nights in a row (day n + night n) nobody left;
* a removal «когда за столом остаётся 3 или 4 игрока» gives the other team the win, and so does
  a removal with team defeat (ППК);
* «если игрок удаляется до голосования или во время голосования, дальнейшего голосования не
  происходит … день проходит до конца и наступает ночь»;
* FIIM: the first day with a single nominee has no vote; later days, a single nominee leaves
  without one; a tie means the tied speak again and the table votes again among them, and a
  tie of the same players once more means the vote to raise them all (more than half of the
  table for it) — never «when four are at the table» (two would be raised);
* the night's shot takes effect in the morning (the victim is at the table until the judge
  announces it), so a removal during the night comes before it — as :mod:`scoring.rules`
  replays a protocol (day n's removal before night n's shot).
"""

from __future__ import annotations

from dataclasses import replace

from scoring.game.state import DayLog, GameState, NightLog, Out, SeatState, Step
from scoring.model import Role, Team
from scoring.problems import Text

__all__ = ["day_order", "leave", "settle", "end", "finish_turn", "begin_night", "morning", "vote_out", "update_day",
           "other", "TURN_STEPS", "deal_done", "after_look", "after_shot_step", "record_night", "team_of"]

TURN_STEPS = (Step.MORNING, Step.SPEECHES, Step.TIE, Step.FAREWELL)
_OTHER = {Team.RED: Team.BLACK, Team.BLACK: Team.RED}


def other(team: Team) -> Team:
    return _OTHER[team]


def team_of(seat: SeatState) -> Team:
    return seat.role.team if seat.role is not None else Team.RED


def day_order(state: GameState, first: int) -> tuple[int, ...]:
    """The seats at the table in speaking order, from ``first`` round the table."""
    return tuple(s for s in (*range(first, 11), *range(1, first)) if state.seat(s).at_table)


def _next_first(state: GameState) -> int:
    """Who opens the next day: the first seat at the table after today's first speaker."""
    after = (*range(state.first_speaker + 1, 11), *range(1, state.first_speaker + 1))
    return next((s for s in after if state.seat(s).at_table), state.first_speaker)


def leave(state: GameState, seat: int, how: str) -> GameState:
    seats = list(state.seats)
    seats[seat - 1] = replace(seats[seat - 1], out=Out(how, state.number))
    return replace(state, seats=tuple(seats))


def end(state: GameState, team: Team, reason: Text) -> GameState:
    """The game is over; a best move still owed by the player shot first may be named."""
    return replace(state, step=Step.END, winner=team, reason=reason, turns=(), speaking=None, candidates=())


def settle(state: GameState) -> GameState:
    """The game's natural end, if the players at the table make one."""
    if state.ended:
        return state
    black, red = state.count(Team.BLACK), state.count(Team.RED)
    if black == 0:
        return end(state, Team.RED, Text("все чёрные выбыли", "every black player is out"))
    if black >= red:
        return end(state, Team.BLACK, Text(f"чёрных ({black}) не меньше, чем красных ({red})",
                                           f"blacks ({black}) are at least as many as reds ({red})"))
    return state


def update_day(state: GameState, **changes: object) -> GameState:
    return replace(state, days=(*state.days[:-1], replace(state.days[-1], **changes)))


def deal_done(state: GameState) -> GameState:
    """Night 0 begins: every seat not dealt a black card or the sheriff's is a civilian."""
    return replace(state, seats=tuple(replace(s, role=s.role or Role.CIVILIAN) for s in state.seats))


def after_look(state: GameState, done: Step) -> GameState:
    """Night 0's next step after ``done`` (the deal and the mafia's agreement, the don's look):
    the don's look, the sheriff's (each only while he is at the table), then day 1."""
    order = (Step.DEAL, Step.DON_LOOK, Step.SHERIFF_LOOK)
    for step in order[order.index(done) + 1:]:
        holder = state.holder(Role.DON if step is Step.DON_LOOK else Role.SHERIFF)
        if holder is not None and holder.at_table:
            return replace(state, step=step)
    return _begin_day(state, 1, first=1, shot=None)


def _begin_day(state: GameState, number: int, *, first: int, shot: int | None) -> GameState:
    first = (day_order(state, first) or (first,))[0]  # seat 1 removed on night 0: seat 2 opens day 1
    state = replace(state, number=number, first_speaker=first, candidates=(), vote_round=0, no_vote=False,
                    cycle_count=state.count(), days=(*state.days, DayLog(number=number)), speaking=None)
    if shot is not None:
        first_night = number == 2 and "shot_first" in state.rules.best_move_by  # shot on night 1
        return replace(state, step=Step.MORNING, turns=(shot,), best_move_by=(shot,) if first_night else ())
    return replace(state, step=Step.SPEECHES, turns=day_order(state, first))


def begin_night(state: GameState) -> GameState:
    return replace(state, step=Step.SHOT, turns=(), speaking=None, candidates=(), best_move_by=())


def morning(state: GameState) -> GameState:
    """Night n is over: its shot takes effect, the game may end (the natural end, or three days
    and nights in a row without anybody leaving), else day n + 1 begins."""
    night = state.nights[-1]
    victim = night.shot if night.shot is not None and state.seat(night.shot).at_table else None
    if victim is not None:
        state = leave(state, victim, "shot")
    state = settle(state)
    if state.ended:
        if victim is not None and night.number == 1 and "shot_first" in state.rules.best_move_by:
            state = replace(state, best_move_by=(victim,))  # «при сломе стола … всё равно имеет право»
        return state
    quiet = state.quiet + 1 if state.count() == state.cycle_count else 0
    state = replace(state, quiet=quiet)
    if quiet >= 3:
        n = night.number
        return end(state, Team.RED, Text(f"три ночи подряд без выбывших (ночи {n - 2}–{n})",
                                         f"three nights in a row with nobody leaving (nights {n - 2}–{n})"))
    return _begin_day(state, night.number + 1, first=_next_first(state), shot=victim)


def finish_turn(state: GameState) -> GameState:
    """Nobody speaks now: when nobody is left to speak in this step, the step is over."""
    if state.speaking is not None or state.turns or state.step not in TURN_STEPS:
        return state
    if state.step is Step.MORNING:
        return replace(state, step=Step.SPEECHES, turns=day_order(state, state.first_speaker), best_move_by=())
    if state.step is Step.SPEECHES:
        return _close_speeches(state)
    if state.step is Step.TIE:
        return replace(state, step=Step.VOTE, vote_round=state.vote_round + 1)
    return begin_night(state)  # the last words are said


def _close_speeches(state: GameState) -> GameState:
    nominees = tuple(s for s in state.candidates if state.seat(s).at_table)
    if state.no_vote or not nominees or (state.number == 1 and len(nominees) == 1):
        return begin_night(state)
    if len(nominees) == 1:
        return vote_out(state, nominees)
    return replace(state, step=Step.VOTE, candidates=nominees, vote_round=1)


def vote_out(state: GameState, seats: tuple[int, ...]) -> GameState:
    """The vote removes ``seats``; the game may end, else they say their last words."""
    for seat in seats:
        state = leave(state, seat, "voted")
    best = seats if state.number == 1 and "voted_first_day" in state.rules.best_move_by else ()
    state = settle(update_day(replace(state, best_move_by=best), voted_out=seats))
    if state.ended:
        return state
    return replace(state, step=Step.FAREWELL, turns=seats, speaking=None)


def record_night(state: GameState, **changes: object) -> GameState:
    if state.nights and state.nights[-1].number == state.number:
        return replace(state, nights=(*state.nights[:-1], replace(state.nights[-1], **changes)))
    return replace(state, nights=(*state.nights, NightLog(number=state.number, **changes)))


def after_shot_step(state: GameState, done: Step) -> GameState:
    """The night's next step after ``done``: the don's check, the sheriff's (each only while he
    is at the table — a player shot tonight still is), then the morning."""
    order = (Step.SHOT, Step.DON_CHECK, Step.SHERIFF_CHECK)
    for step in order[order.index(done) + 1:]:
        holder = state.holder(Role.DON if step is Step.DON_CHECK else Role.SHERIFF)
        if holder is not None and holder.at_table:
            return replace(state, step=step)
    return morning(state)
