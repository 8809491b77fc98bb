"""What anybody may see of a game while it is played: who is out and how, fouls, who speaks,
today's nominations and votes — what the judge announces at the table.

Never a role, a check, the night's shot before the morning or a best move while the game
runs: a player who learns one by a page has peeked («сознательное подглядывание» — the team
loses), so the page must not be the way to it.  Once the game is over, everything is public.
"""

from __future__ import annotations

from typing import Any

from scoring.game.replay import next_speaker, timer
from scoring.game.state import GameState, SeatState

__all__ = ["public_view"]


def _seat(seat: SeatState, state: GameState) -> dict[str, Any]:
    out = seat.out
    shown: dict[str, Any] = {
        "seat": seat.seat, "player": seat.player, "fouls": seat.fouls, "at_table": out is None,
        "left": None if out is None else {"how": out.how, "number": out.number},
        "speech_lost": seat.silenced_day == state.number and state.step.phase == "day",
    }
    if state.ended:
        shown.update(role=seat.role.value if seat.role else None, best_move=list(seat.best_move),
                     extra_points=str(seat.extra) if seat.extra else None)
    return shown


def _today(state: GameState) -> dict[str, Any] | None:
    day = state.this_day
    if day is None:
        return None
    return {"nominations": [list(n) for n in day.nominations], "votes": [[list(c) for c in v] for v in day.votes],
            "raise_yes": day.raise_yes, "voted_out": list(day.voted_out)}


def _ending(state: GameState) -> dict[str, Any]:
    return {"winner": state.winner.value if state.winner else None,
            "reason": {"ru": state.reason.ru, "en": state.reason.en} if state.reason else None,
            "nights": [{"number": n.number, "shot": n.shot, "don_check": n.don_check, "sheriff_check": n.sheriff_check}
                       for n in state.nights]}


def public_view(state: GameState) -> dict[str, Any]:
    """The game as a JSON-ready dict for a public page (the hall's screen, a spectator's phone).
    A night shows as a night, nothing more: its steps (the don's check comes only while the don
    is at the table) would tell who the don and the sheriff were."""
    night = state.step.phase in ("night", "night_zero")
    clock = None if night else timer(state)
    view: dict[str, Any] = {
        "phase": state.step.phase, "step": state.step.phase if night else state.step.value, "number": state.number,
        "speaking": state.speaking, "next": next_speaker(state),
        "timer": {"kind": clock.kind, "seconds": clock.seconds} if clock else None,
        "candidates": list(state.candidates) if state.step.phase == "day" else [],
        "today": _today(state), "seats": [_seat(s, state) for s in state.seats], "judge": state.judge,
    }
    if state.ended:
        view.update(_ending(state))
    return view
