"""A judge's phone in a test: a game recorded event by event, as the judge's page would send it.

``Game()`` seats the ten players and deals the cards (don 8, mafia 9 and 10, sheriff 7, the rest
civilians); its helpers record whole steps (night 0, a day's speeches with nominations, a vote,
a night) and ``state`` replays the events so far, the way the server does.
"""

from __future__ import annotations

from collections.abc import Mapping

from scoring.game import events as ev
from scoring.game.replay import replay
from scoring.game.simulate import PLAYERS
from scoring.game.state import GameRules, GameState, Step
from scoring.model import Role

ROLES = {8: Role.DON, 9: Role.MAFIA, 10: Role.MAFIA, 7: Role.SHERIFF}


class Game:
    def __init__(self, *, roles: Mapping[int, Role] = ROLES, rules: GameRules = GameRules(), night0: bool = True):
        self.events: list[ev.Event] = []
        self.rules = rules
        for seat, role in roles.items():
            self.add(ev.Deal, seat=seat, role=role)
        if night0:
            self.night0()

    def add(self, kind: type[ev.Event], **fields: object) -> ev.Event:
        n = len(self.events) + 1
        event = kind(id=f"e{n}", seq=n, **fields)
        self.events.append(event)
        return event

    @property
    def state(self) -> GameState:
        return replay(self.events, players=PLAYERS, rules=self.rules)

    @property
    def last_refusal(self) -> str | None:
        """The rule of the last event's refusal, None when it is in force."""
        found = dict(self.state.refused).get(self.events[-1].id)
        return found.rule if found is not None else None

    def night0(self) -> Game:
        for step in ("agreement", "don", "sheriff"):
            self.add(ev.NightZero, step=step)
        return self

    def turn(self, seat: int | None = None, *, nominate: int | None = None, fouls: int = 0) -> Game:
        """The next turn (checked to be ``seat``'s): start, ``fouls`` fouls, a nomination, end."""
        state = self.state
        speaker = state.turns[0]
        assert seat is None or seat == speaker, f"turn of {speaker}, not {seat}"
        self.add(ev.SpeechStart, seat=speaker)
        for _ in range(fouls):
            self.add(ev.Foul, seat=speaker)
        if nominate is not None:
            self.add(ev.Nominate, by=speaker, seat=nominate)
        if self.state.speaking == speaker:
            self.add(ev.SpeechEnd, seat=speaker)
        return self

    def speeches(self, nominations: Mapping[int, int] | None = None) -> Game:
        """Every turn of the step (the day's speeches, a tie's, the last words), ``nominations``
        by -> nominee made during the speeches."""
        step, number = self.state.step, self.state.number
        while self.state.step is step and self.state.number == number and self.state.turns:
            speaker = self.state.turns[0]
            self.turn(speaker, nominate=(nominations or {}).get(speaker))
        return self

    def vote(self, *counts: tuple[int, int]) -> Game:
        self.add(ev.Vote, counts=tuple(counts))
        return self

    def night(self, shot: int | None = None, *, don: int | None = None, sheriff: int | None = None) -> Game:
        """The night: the shot (None: a miss), then the checks the night waits for."""
        if shot is None:
            self.add(ev.Miss)
        else:
            self.add(ev.Shot, seat=shot)
        if self.state.step is Step.DON_CHECK:
            self.add(ev.DonCheck, seat=don)
        if self.state.step is Step.SHERIFF_CHECK:
            self.add(ev.SheriffCheck, seat=sheriff)
        return self

    def morning(self) -> Game:
        """The last word of the player shot at night (when there is one)."""
        if self.state.step is Step.MORNING:
            self.speeches()
        return self

    def quiet_day(self) -> Game:
        """A day nobody is nominated (its morning's last word first, when there is one)."""
        while self.state.step in (Step.MORNING, Step.SPEECHES):
            self.speeches()
        return self
