"""A game's log as the server keeps it: the phone's events in its order, each once.

The phone numbers its events 1, 2, 3… and sends again whatever it has no answer for.  An event
whose id the log holds is answered "already recorded" and changes nothing, so a resend is
harmless; an event that skips a number is refused until the missing ones arrive (the phone
sends from the first unanswered one); a number taken by another event means two phones (or a
phone reset) write one game, and is refused.  An event the game does not allow is kept in the
log too — the log is what the judge pressed — and the answer carries the reason; the state
leaves it out (:func:`~scoring.game.replay.replay`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from scoring.game.events import Event
from scoring.game.refusals import Refusal, refusal
from scoring.game.replay import replay
from scoring.game.state import GameRules, GameState

__all__ = ["GameLog", "Receipt"]


@dataclass(frozen=True, slots=True)
class Receipt:
    """The answer to one event sent: ``recorded`` (in force), ``duplicate`` (already in the
    log), ``refused`` (in the log, not in force: ``why``), or ``rejected`` (not in the log:
    a gap or a clash of numbers; ``why``)."""

    status: str
    why: Refusal | None = None

    def to_dict(self) -> dict[str, object]:
        return {"status": self.status, "why": self.why.to_dict() if self.why else None}


@dataclass(frozen=True, slots=True)
class GameLog:
    events: tuple[Event, ...] = ()
    players: tuple[str | None, ...] = ()  # the seating's players, seat 1 first
    rules: GameRules = GameRules()

    def state(self) -> GameState:
        return replay(self.events, players=self.players, rules=self.rules)

    def add(self, event: Event) -> tuple[GameLog, Receipt]:
        """The log with ``event`` (unchanged when it is a resend or out of order), and the answer."""
        same = next((e for e in self.events if e.id == event.id), None)
        if same is not None:
            return self, Receipt("duplicate") if same == event else Receipt("rejected", refusal("log.conflict", id=event.id))
        last = self.events[-1].seq if self.events else 0
        if event.seq <= last:
            return self, Receipt("rejected", refusal("log.seq_taken", seq=event.seq))
        if event.seq > last + 1:
            return self, Receipt("rejected", refusal("log.gap", expected=last + 1))
        log = replace(self, events=(*self.events, event))
        why = next((r for event_id, r in log.state().refused if event_id == event.id), None)
        return log, Receipt("refused", why) if why is not None else Receipt("recorded")
