"""Where a game stands after its events: the step, who is at the table, who speaks, the record.

A :class:`GameState` is plain frozen data — numbers, tuples, a few enums — so that a
JavaScript port of the replay (the phone offline) holds the same fields.  The day and the night
share their number: day n is followed by night n (night 0, the meeting night, comes first), as
the protocol counts them (``killed_night``, ``voted_day``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from decimal import Decimal

from scoring.game.refusals import Refusal
from scoring.model import Role, Team
from scoring.preset import Preset
from scoring.problems import Text

__all__ = ["Step", "Out", "SeatState", "DayLog", "NightLog", "GameRules", "GameState", "WANT", "new_game", "STEP_NAMES"]

WANT = {Role.DON: 1, Role.MAFIA: 2, Role.SHERIFF: 1, Role.CIVILIAN: 6}


class Step(enum.Enum):
    DEAL = "deal"  # seating and dealing the roles, then night 0's agreement of the mafia
    DON_LOOK = "don_look"  # night 0: the don looks at the town
    SHERIFF_LOOK = "sheriff_look"  # night 0: the sheriff looks at the town
    MORNING = "morning"  # day n: the last word of the player shot at night
    SPEECHES = "speeches"  # day n: everyone's speech, nominations
    VOTE = "vote"  # day n: a vote is awaited
    TIE = "tie"  # day n: the speeches of a tie before the vote again
    RAISE = "raise"  # day n: the vote to raise every candidate of a repeated tie
    FAREWELL = "farewell"  # day n: the last words of the players voted out
    SHOT = "shot"  # night n: the mafia shoots
    DON_CHECK = "don_check"
    SHERIFF_CHECK = "sheriff_check"
    END = "end"

    @property
    def phase(self) -> str:
        """setup, night_zero, day, night or ended."""
        return _PHASES[self]


_PHASES = {Step.DEAL: "setup", Step.DON_LOOK: "night_zero",
           Step.SHERIFF_LOOK: "night_zero", Step.SHOT: "night", Step.DON_CHECK: "night", Step.SHERIFF_CHECK: "night",
           Step.END: "ended", **{s: "day" for s in (Step.MORNING, Step.SPEECHES, Step.VOTE, Step.TIE, Step.RAISE,
                                                     Step.FAREWELL)}}

# the step as the judge reads it in a refusal ({n}: the day's or night's number)
STEP_NAMES: dict[Step, tuple[str, str]] = {
    Step.DEAL: ("рассадка, раздача ролей, договорка мафии", "seating, dealing the roles, the mafia's agreement"),
    Step.DON_LOOK: ("ночь 0, дон смотрит на город", "night 0, the don looks at the town"),
    Step.SHERIFF_LOOK: ("ночь 0, шериф смотрит на город", "night 0, the sheriff looks at the town"),
    Step.MORNING: ("день {n}, последнее слово убитого", "day {n}, the last word of the player shot"),
    Step.SPEECHES: ("день {n}, речи", "day {n}, speeches"),
    Step.VOTE: ("день {n}, голосование", "day {n}, the vote"),
    Step.TIE: ("день {n}, речи при равенстве голосов", "day {n}, the speeches of a tie"),
    Step.RAISE: ("день {n}, голосование за подъём всех", "day {n}, the vote to raise all"),
    Step.FAREWELL: ("день {n}, последнее слово заголосованных", "day {n}, the last words of the players voted out"),
    Step.SHOT: ("ночь {n}, стрельба", "night {n}, the shot"),
    Step.DON_CHECK: ("ночь {n}, проверка дона", "night {n}, the don's check"),
    Step.SHERIFF_CHECK: ("ночь {n}, проверка шерифа", "night {n}, the sheriff's check"),
    Step.END: ("игра окончена", "the game is over"),
}


@dataclass(frozen=True, slots=True)
class Out:
    """How and when a player left: shot (night n), voted (day n), removed or team_defeat (the day
    or night n it happened; night 0 is 0)."""

    how: str
    number: int


@dataclass(frozen=True, kw_only=True, slots=True)
class SeatState:
    seat: int
    player: str | None = None
    role: Role | None = None  # None until dealt; an undealt seat is a civilian from night 0 on
    fouls: int = 0
    out: Out | None = None
    silenced_day: int | None = None  # the day whose speech the third foul takes away
    best_move: tuple[int, ...] = ()
    extra: Decimal = Decimal(0)

    @property
    def at_table(self) -> bool:
        return self.out is None


@dataclass(frozen=True, kw_only=True, slots=True)
class DayLog:
    """What day n recorded: nominations (by, seat) in order, each vote's counts, the vote to raise
    all (how many for it), why there was none, and who left by the vote."""

    number: int
    nominations: tuple[tuple[int, int], ...] = ()
    votes: tuple[tuple[tuple[int, int], ...], ...] = ()
    raise_yes: int | None = None
    no_raise: str = ""  # "four" | "everyone": why a repeated tie ended without the vote to raise all
    voted_out: tuple[int, ...] = ()


@dataclass(frozen=True, kw_only=True, slots=True)
class NightLog:
    number: int
    shot: int | None = None  # None: a miss
    don_check: int | None = None
    sheriff_check: int | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class GameRules:
    """What of the preset the live game enforces: who may name a best move
    (:data:`scoring.items.BEST_MOVE_AUTHORS` keys) and the extra points' range and step (None:
    not checked here, :mod:`scoring.rules` checks the protocol)."""

    best_move_by: tuple[str, ...] = ("shot_first",)
    extra_min: Decimal | None = None
    extra_max: Decimal | None = None
    extra_step: Decimal | None = None

    @classmethod
    def of(cls, preset: Preset) -> GameRules:
        return cls(best_move_by=tuple(preset.best_move_by), extra_min=preset.extra_min, extra_max=preset.extra_max,
                   extra_step=preset.extra_step)


@dataclass(frozen=True, kw_only=True, slots=True)
class GameState:
    step: Step = Step.DEAL
    number: int = 0  # the day's or the night's number
    seats: tuple[SeatState, ...] = ()
    judge: str = ""
    turns: tuple[int, ...] = ()  # who still speaks in this step, the next first
    speaking: int | None = None
    first_speaker: int = 1  # who opened today's speeches (tomorrow the next one at the table does)
    candidates: tuple[int, ...] = ()  # today's nominees; in a vote, the tie or the raise: that vote's
    vote_round: int = 0  # 1 the first vote of the day, 2 after a tie…
    no_vote: bool = False  # a removal before or during the vote: no vote today
    best_move_by: tuple[int, ...] = ()  # who may name a best move now
    quiet: int = 0  # days and nights in a row (day n + night n) nobody left
    cycle_count: int = 10  # players at the table when day n began
    days: tuple[DayLog, ...] = ()
    nights: tuple[NightLog, ...] = ()
    winner: Team | None = None
    reason: Text | None = None  # why the game ended
    rules: GameRules = GameRules()
    refused: tuple[tuple[str, Refusal], ...] = ()  # (event id, why) of the events not in force
    undone: tuple[str, ...] = ()  # ids of the events taken back by an undo

    def seat(self, n: int) -> SeatState:
        return self.seats[n - 1]

    @property
    def at_table(self) -> tuple[int, ...]:
        return tuple(s.seat for s in self.seats if s.out is None)

    def count(self, team: Team | None = None) -> int:
        return sum(1 for s in self.seats if s.out is None and (team is None or _team(s.role) is team))

    def holder(self, role: Role) -> SeatState | None:
        """The seat dealt ``role`` (the don, the sheriff), when one is."""
        return next((s for s in self.seats if s.role is role), None)

    @property
    def ended(self) -> bool:
        return self.step is Step.END

    @property
    def this_day(self) -> DayLog | None:
        return self.days[-1] if self.days and self.step.phase == "day" else None

    def step_name(self) -> Text:
        ru, en = STEP_NAMES[self.step]
        return Text(ru.format(n=self.number), en.format(n=self.number))


def _team(role: Role | None) -> Team:
    return role.team if role is not None else Team.RED  # an undealt seat is a civilian


def new_game(players: tuple[str | None, ...] = (), rules: GameRules = GameRules()) -> GameState:
    """A game before its first event: ten seats, the seating's players in them."""
    names = tuple(players) + (None,) * (10 - len(players))
    return GameState(seats=tuple(SeatState(seat=i + 1, player=names[i] or None) for i in range(10)), rules=rules)
