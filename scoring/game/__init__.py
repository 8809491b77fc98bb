"""The judge's game as an event log, and the protocol derived from it (issue 44).

The judge's phone records a game live, phase by phase — or as the paper protocol, a form —
and the protocol tab gets the cells a person would type.  This package is the pure core both
modes rely on: :mod:`.events` (the typed events and their JSON form), :mod:`.state` and
:mod:`.replay` (where the game stands, what may come next, the timer), :mod:`.handlers` and
:mod:`.flow` (the regulation's rules of the game's course, one function a rule),
:mod:`.refusals` (why an event is refused, ru/en), :mod:`.log` (the server's idempotent log),
:mod:`.protocol` (the protocol and its cells), :mod:`.form` (the form's problems by field, from
:mod:`scoring.rules`), :mod:`.public` (what may be shown while the game runs) and
:mod:`.simulate` (random games for tests).  No I/O, no clock.
"""

from __future__ import annotations

from scoring.game.events import EVENT_TYPES, Event, EventError, from_dict
from scoring.game.form import FieldProblem, form_problems
from scoring.game.log import GameLog, Receipt
from scoring.game.protocol import cell_writes, protocol_cells, protocol_of, state_protocol
from scoring.game.public import public_view
from scoring.game.refusals import Refusal
from scoring.game.replay import TIMERS, Timer, allowed, apply, next_speaker, replay, timer
from scoring.game.state import GameRules, GameState, Step

__all__ = ["Event", "EventError", "EVENT_TYPES", "from_dict", "GameLog", "Receipt", "GameRules", "GameState", "Step",
           "Refusal", "replay", "apply", "allowed", "timer", "Timer", "TIMERS", "next_speaker", "protocol_of",
           "state_protocol", "protocol_cells", "cell_writes", "form_problems", "FieldProblem", "public_view"]
