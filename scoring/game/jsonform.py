"""A game's state as plain JSON: the fields of :class:`~scoring.game.state.GameState` by their
names, enums by their values, tuples as lists, decimals as their text ("0.5"), a refusal as
:meth:`Refusal.to_dict` and a reason as ``{"ru", "en"}``.

It is the shape the phone's JavaScript port of the replay keeps (templates/web/assets/judge/game.js),
so the two can be compared field by field (tests/test_game_js.py), and the shape a page is sent.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from scoring.game.refusals import Refusal
from scoring.game.replay import allowed, next_speaker, timer
from scoring.game.state import DayLog, GameRules, GameState, NightLog, SeatState
from scoring.problems import Text

__all__ = ["state_to_dict", "rules_to_dict", "rules_from_dict", "live_view"]


def _decimal(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def rules_to_dict(rules: GameRules) -> dict[str, Any]:
    return {"best_move_by": list(rules.best_move_by), "extra_min": _decimal(rules.extra_min),
            "extra_max": _decimal(rules.extra_max), "extra_step": _decimal(rules.extra_step)}


def rules_from_dict(data: dict[str, Any]) -> GameRules:
    def number(key: str) -> Decimal | None:
        value = data.get(key)
        return None if value is None else Decimal(str(value))
    return GameRules(best_move_by=tuple(data.get("best_move_by", ("shot_first",))), extra_min=number("extra_min"),
                     extra_max=number("extra_max"), extra_step=number("extra_step"))


def _seat(seat: SeatState) -> dict[str, Any]:
    return {"seat": seat.seat, "player": seat.player, "role": seat.role.value if seat.role else None,
            "fouls": seat.fouls, "out": {"how": seat.out.how, "number": seat.out.number} if seat.out else None,
            "silenced_day": seat.silenced_day, "best_move": list(seat.best_move), "extra": str(seat.extra)}


def _day(day: DayLog) -> dict[str, Any]:
    return {"number": day.number, "nominations": [list(n) for n in day.nominations],
            "votes": [[list(c) for c in vote] for vote in day.votes], "raise_yes": day.raise_yes,
            "no_raise": day.no_raise, "voted_out": list(day.voted_out)}


def _night(night: NightLog) -> dict[str, Any]:
    return {"number": night.number, "shot": night.shot, "don_check": night.don_check,
            "sheriff_check": night.sheriff_check}


def _text(value: Text | None) -> dict[str, str] | None:
    return None if value is None else {"ru": value.ru, "en": value.en}


def _refused(entry: tuple[str, Refusal]) -> list[Any]:
    return [entry[0], entry[1].to_dict()]


def state_to_dict(state: GameState) -> dict[str, Any]:
    return {"step": state.step.value, "number": state.number, "seats": [_seat(s) for s in state.seats],
            "judge": state.judge, "turns": list(state.turns), "speaking": state.speaking,
            "first_speaker": state.first_speaker, "candidates": list(state.candidates), "vote_round": state.vote_round,
            "no_vote": state.no_vote, "best_move_by": list(state.best_move_by), "quiet": state.quiet,
            "cycle_count": state.cycle_count, "days": [_day(d) for d in state.days],
            "nights": [_night(n) for n in state.nights], "winner": state.winner.value if state.winner else None,
            "reason": _text(state.reason), "rules": rules_to_dict(state.rules),
            "refused": [_refused(r) for r in state.refused], "undone": list(state.undone)}


def live_view(state: GameState) -> dict[str, Any]:
    """What the live mode shows besides the state: the kinds allowed now, the timer, the speaker."""
    clock = timer(state)
    return {"allowed": {kind: list(seats) for kind, seats in allowed(state).items()},
            "timer": {"kind": clock.kind, "seconds": clock.seconds} if clock else None,
            "next_speaker": next_speaker(state)}
