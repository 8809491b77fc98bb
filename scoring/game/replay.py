"""A game's events replayed into its state; what may be recorded next; the timer to show.

``replay`` never raises: an event the game does not allow is kept out of the state and listed
in :attr:`GameState.refused` with its reason; an event id seen before is the same event (the
phone sent it again); an undo takes back the last event in force (an undo names it: taking
back anything else is refused).  Events are taken in the phone's order (``seq``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from scoring.game.events import (BestMove, Deal, DonCheck, Event, Extra, Foul, JudgeName, Miss, NightZero, Nominate,
                                 RaiseAll, Remove, Ruling, SeatPlayer, SheriffCheck, Shot, SpeechEnd, SpeechStart,
                                 Undo, Vote)
from scoring.game.handlers import WHEN, act, check
from scoring.game.refusals import Refusal, refusal
from scoring.game.state import GameRules, GameState, Step, new_game
from scoring.model import Role, Team

__all__ = ["replay", "apply", "allowed", "timer", "Timer", "TIMERS", "next_speaker", "turn_kind", "in_order"]

# seconds on the face's clock, by what is happening (regulation: 15 s for each check at night;
# «30 секунд на речь» for a player who lost his speech when 3 or 4 are at the table; «на
# голосование после объявления кандидатуры отводится 2 секунды»; FIIM: a minute a speech and
# a last word, 30 s for a speech after a tie, a minute for the mafia's agreement)
TIMERS = {"speech": 60, "short": 30, "lost": 0, "tie": 30, "last_word": 60, "agreement": 60, "look": 15,
          "check": 15, "vote": 2}


@dataclass(frozen=True, slots=True)
class Timer:
    kind: str  # a key of TIMERS
    seconds: int


def in_order(events: Iterable[Event]) -> list[Event]:
    """The events by the phone's sequence, each id once (the first copy)."""
    seen: set[str] = set()
    unique = []
    for event in events:
        if event.id not in seen:
            seen.add(event.id)
            unique.append(event)
    return sorted(unique, key=lambda e: e.seq)


def apply(state: GameState, event: Event) -> GameState | Refusal:
    """The state after ``event`` (not an undo: that needs the history, see :func:`replay`)."""
    why = check(state, event)
    return why if why is not None else act(state, event)


def replay(events: Iterable[Event], *, players: tuple[str | None, ...] = (), rules: GameRules = GameRules()) -> GameState:
    """The state after ``events`` (the seating's ``players`` in the seats to begin with)."""
    state = new_game(tuple(players), rules)
    kinds: dict[str, str] = {}
    history: list[tuple[str, GameState]] = []  # (event id, the state before it) of the events in force
    refused: list[tuple[str, Refusal]] = []
    undone: list[str] = []
    for event in in_order(events):
        kinds[event.id] = event.kind
        if isinstance(event, Undo):
            why = _undo_refusal(history, kinds, event)
            if why is None:
                undone.append(history[-1][0])
                state = history.pop()[1]
        else:
            why = check(state, event)
            if why is None:
                history.append((event.id, state))
                state = act(state, event)
        if why is not None:
            refused.append((event.id, why))
    return replace(state, refused=tuple(refused), undone=tuple(undone))


def _undo_refusal(history: list[tuple[str, GameState]], kinds: dict[str, str], undo: Undo) -> Refusal | None:
    if kinds.get(undo.target) == "undo":
        return refusal("undo.undo")
    if not history:
        return refusal("undo.nothing")
    if history[-1][0] != undo.target:
        return refusal("undo.not_last", last=history[-1][0])
    return None


# -- what may come next ---------------------------------------------------------------------------
_SEAT_KINDS = ("seat", "foul", "removal", "shot", "don_check", "sheriff_check", "speech_start", "speech_end",
               "nominate", "best_move", "extra")


def _probe(state: GameState, kind: str, seat: int | None) -> Event:
    """A stand-in event of ``kind`` (at ``seat``) that only its kind and seat can make refused."""
    common = {"id": "probe", "seq": 1}
    others = tuple(s for s in range(1, 11) if s != seat)[:3]
    makers = {
        "seat": lambda: SeatPlayer(**common, seat=seat, player=None), "judge": lambda: JudgeName(**common, name=""),
        "deal": lambda: Deal(**common, seat=seat or 1, role=Role.CIVILIAN),
        "night_zero": lambda: NightZero(**common, step=_NIGHT_ZERO.get(state.step, "agreement")),
        "speech_start": lambda: SpeechStart(**common, seat=seat), "speech_end": lambda: SpeechEnd(**common, seat=seat),
        "nominate": lambda: Nominate(**common, by=state.speaking or 1, seat=seat),
        "vote": lambda: Vote(**common, counts=tuple((s, 0) for s in state.candidates[:-1])),
        "raise_all": lambda: RaiseAll(**common, yes=0), "shot": lambda: Shot(**common, seat=seat),
        "miss": lambda: Miss(**common), "don_check": lambda: DonCheck(**common, seat=seat),
        "sheriff_check": lambda: SheriffCheck(**common, seat=seat), "best_move": lambda: BestMove(**common, seat=seat, seats=others),
        "foul": lambda: Foul(**common, seat=seat), "removal": lambda: Remove(**common, seat=seat),
        "ruling": lambda: Ruling(**common, team=Team.RED), "extra": lambda: Extra(**common, seat=seat, points=0),
    }
    return makers[kind]()


_NIGHT_ZERO = {Step.DEAL: "agreement", Step.DON_LOOK: "don", Step.SHERIFF_LOOK: "sheriff"}


def allowed(state: GameState) -> dict[str, tuple[int, ...]]:
    """What the judge may record now: each kind with the seats it may name (() for a kind that
    names none).  Deals are listed while the deal is open; an undo is always possible while an
    event is in force."""
    out: dict[str, tuple[int, ...]] = {}
    for kind, steps in WHEN.items():
        if kind == "undo" or state.step not in steps:
            continue
        if kind in _SEAT_KINDS:
            seats = tuple(s for s in range(1, 11) if check(state, _probe(state, kind, s)) is None)
            if seats:
                out[kind] = seats
        elif check(state, _probe(state, kind, None)) is None:
            out[kind] = ()
    return out


def next_speaker(state: GameState) -> int | None:
    """Who speaks now, else who speaks next in this step."""
    if state.speaking is not None:
        return state.speaking
    return state.turns[0] if state.turns else None


def turn_kind(state: GameState, seat: int) -> str:
    """A day's speech: the whole minute, 30 s for a player who lost his speech with 3 or 4 at the
    table, none otherwise (he may still nominate)."""
    if state.seat(seat).silenced_day == state.number:
        return "short" if state.count() in (3, 4) else "lost"
    return "speech"


_STEP_TIMERS = {Step.DON_LOOK: "look", Step.SHERIFF_LOOK: "look", Step.MORNING: "last_word",
                Step.FAREWELL: "last_word", Step.TIE: "tie", Step.VOTE: "vote", Step.RAISE: "vote",
                Step.DON_CHECK: "check", Step.SHERIFF_CHECK: "check"}


def timer(state: GameState) -> Timer | None:
    """The clock the face shows for what happens now (None: no clock — the deal, the shot, the end)."""
    kind = _STEP_TIMERS.get(state.step)
    if state.step is Step.SPEECHES and next_speaker(state) is not None:
        kind = turn_kind(state, next_speaker(state))
    if state.step is Step.DEAL and check(state, _probe(state, "night_zero", None)) is None:
        kind = "agreement"
    return Timer(kind, TIMERS[kind]) if kind else None
