"""Seeded random games as the judge's phone records them: event logs, for tests and benchmarks.

A walk through the game: at each step the judge records what comes next (a speech, a vote, the
night's shot and checks), now and then a foul, a removal, a ruling, an undo of the last event,
or (``junk``) an event the game may well refuse.  Votes are cast by the table at random, so
ties, repeated ties, votes to raise all and long games happen as they would.
"""

from __future__ import annotations

import random
from decimal import Decimal

from scoring.game.events import (BestMove, Deal, DonCheck, Event, Extra, Foul, JudgeName, Miss, NightZero, Nominate,
                                 RaiseAll, Remove, Ruling, SheriffCheck, Shot, SpeechEnd, SpeechStart, Undo, Vote)
from scoring.game.handlers import act, check
from scoring.game.state import WANT, GameRules, GameState, Step, new_game
from scoring.model import Role, Team

__all__ = ["simulate_events", "PLAYERS"]

PLAYERS = ("Алхимик", "Бармен", "Вольт", "Гроза", "Дюна", "Ёж", "Жасмин", "Зодчий", "Искра", "Лиса")
_BLACK_CARDS = (Role.DON, Role.MAFIA, Role.SHERIFF)


def simulate_events(rng: random.Random, *, players: tuple[str, ...] = PLAYERS, rules: GameRules = GameRules(),
                    undo: float = 0.02, junk: float = 0.0, limit: int = 3000) -> tuple[Event, ...]:
    """The events of one game (finished unless ``limit`` events came first)."""
    walk = _Walk(rng, players, rules, undo=undo, junk=junk)
    while not walk.state.ended and len(walk.events) < limit:
        walk.step()
    walk.after_the_end()
    return tuple(walk.events)


class _Walk:
    def __init__(self, rng: random.Random, players: tuple[str, ...], rules: GameRules, *, undo: float, junk: float):
        self.rng, self.rules, self.undo, self.junk = rng, rules, undo, junk
        self.state: GameState = new_game(players, rules)
        self.events: list[Event] = []
        self.history: list[tuple[str, GameState]] = []  # (event id, state before) of the events in force

    def send(self, kind: type[Event], **fields: object) -> None:
        n = len(self.events) + 1
        event = kind(id=f"e{n}", seq=n, **fields)
        self.events.append(event)
        if isinstance(event, Undo):
            self.state = self.history.pop()[1]
        elif check(self.state, event) is None:
            self.history.append((event.id, self.state))
            self.state = act(self.state, event)

    def step(self) -> None:
        r = self.rng.random()
        if r < self.undo and self.history:
            self.send(Undo, target=self.history[-1][0])
        elif r < self.undo + self.junk:
            self.send_junk()
        elif r < self.undo + self.junk + 0.04 and self.state.step is not Step.DEAL:
            self.incident()
        else:
            self.flow()

    def at_table(self) -> list[int]:
        return list(self.state.at_table)

    def incident(self) -> None:
        r, seat = self.rng.random(), self.rng.choice(self.at_table())
        if r < 0.9:
            self.send(Foul, seat=seat)
        elif r < 0.98:
            self.send(Remove, seat=seat, team_defeat=r > 0.96)
        else:
            self.send(Ruling, team=self.rng.choice((Team.RED, Team.BLACK)))

    def send_junk(self) -> None:
        seat = self.rng.randint(1, 10)
        kind = self.rng.choice((Foul, Shot, SpeechStart, SpeechEnd, Remove, DonCheck, SheriffCheck))
        self.send(kind, seat=seat)

    def flow(self) -> None:
        step = self.state.step
        if step is Step.DEAL:
            self.deal()
        elif step in (Step.DON_LOOK, Step.SHERIFF_LOOK):
            self.send(NightZero, step="don" if step is Step.DON_LOOK else "sheriff")
        elif step in (Step.MORNING, Step.SPEECHES, Step.TIE, Step.FAREWELL):
            self.turn()
        elif step is Step.VOTE:
            self.vote()
        elif step is Step.RAISE:
            self.send(RaiseAll, yes=self.rng.randint(0, self.state.count()))
        else:
            self.night(step)

    def deal(self) -> None:
        """The black cards and the sheriff's to seats not dealt yet (an undo may take one back)."""
        seats = self.state.seats
        missing = [r for r in _BLACK_CARDS if sum(1 for s in seats if s.role is r) < WANT[r]]
        if missing:
            free = [s.seat for s in seats if s.role is None]
            self.send(Deal, seat=self.rng.choice(free), role=self.rng.choice(missing))
        else:
            self.send(NightZero, step="agreement")

    def turn(self) -> None:
        state = self.state
        if state.speaking is None:
            self.send(SpeechStart, seat=state.turns[0])
            return
        speaker = state.speaking
        nominated = any(by == speaker for by, _ in state.days[-1].nominations)
        if speaker in state.best_move_by and self.rng.random() < 0.85:
            self.send(BestMove, seat=speaker, seats=tuple(self.rng.sample([s for s in range(1, 11) if s != speaker], 3)))
        elif state.step is Step.SPEECHES and not nominated and not state.no_vote and self.rng.random() < 0.4:
            free = [s for s in self.at_table() if s not in state.candidates]
            self.send(Nominate, by=speaker, seat=self.rng.choice(free))
        else:
            self.send(SpeechEnd, seat=speaker)

    def vote(self) -> None:
        candidates = self.state.candidates
        weights = [self.rng.random() for _ in candidates]
        tally = dict.fromkeys(candidates, 0)
        for _ in range(self.state.count()):
            tally[self.rng.choices(candidates, weights)[0]] += 1
        counts = tuple(tally.items())
        self.send(Vote, counts=counts[:-1] if self.rng.random() < 0.5 else counts)

    def night(self, step: Step) -> None:
        seats = self.at_table()
        if step is Step.SHOT:
            if self.rng.random() < 0.88:
                reds = [s for s in seats if self.state.seat(s).role not in (Role.DON, Role.MAFIA)]
                self.send(Shot, seat=self.rng.choice(reds or seats))
            else:
                self.send(Miss)
            return
        role = Role.DON if step is Step.DON_CHECK else Role.SHERIFF
        own = self.state.holder(role)
        pick = [s for s in seats if own is None or s != own.seat]
        seat = self.rng.choice(pick) if pick and self.rng.random() < 0.95 else None
        self.send(DonCheck if step is Step.DON_CHECK else SheriffCheck, seat=seat)

    def after_the_end(self) -> None:
        state = self.state
        for seat in state.best_move_by:
            self.send(BestMove, seat=seat, seats=tuple(self.rng.sample([s for s in range(1, 11) if s != seat], 3)))
        self.send(JudgeName, name="Судья Анна")
        if not state.ended:
            return
        rules = self.rules
        low, high, step = rules.extra_min or Decimal("0.1"), rules.extra_max or Decimal("0.7"), rules.extra_step or Decimal("0.05")
        steps = int((high - low) / step)
        for seat in self.rng.sample(range(1, 11), self.rng.randint(0, 3)):
            value = low + step * self.rng.randint(0, steps)
            if value:
                self.send(Extra, seat=seat, points=value)
