"""A seeded simulator of plausible, valid games — for the example tournament and for tests.

It deals roles, plays days and nights (votes, shots, misses, fouls, a rare removal),
lets the first-shot red player name a best move, and has the judge hand out extra
points, always within the regulation so that every simulated protocol validates.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from scoring.model import Protocol, Removal, Role, SeatRecord, Team
from scoring.preset import Preset

__all__ = ["simulate_game"]

_ROLES = [Role.DON, Role.MAFIA, Role.MAFIA, Role.SHERIFF] + [Role.CIVILIAN] * 6


def simulate_game(players: Sequence[str], *, stage: str, round_no: int, table: int, sheet: str, preset: Preset,
                  rng: random.Random, judge: str = "") -> Protocol:
    """One finished game of ten ``players`` (seat order), valid under ``preset``."""
    assert len(players) == 10
    roles = _ROLES[:]
    rng.shuffle(roles)
    game = _Game(roles=roles, alive=set(range(1, 11)))
    game.fouls = {s: min(3, int(rng.expovariate(1.6))) for s in game.alive}
    winner = _play(game, rng)
    best = _best_moves(game, rng)
    extra = _extra_points(game, winner, preset, rng)
    seats = tuple(
        SeatRecord(
            seat=s,
            player=players[s - 1],
            role=roles[s - 1],
            fouls=game.fouls[s],
            killed_night=game.killed.get(s),
            voted_day=game.voted.get(s),
            removal=Removal.REMOVED if s in game.removed else None,
            removal_day=game.removed.get(s),
            best_move=best.get(s, ()),
            extra_points=extra.get(s, Decimal(0)),
        )
        for s in range(1, 11)
    )
    return Protocol(sheet=sheet, stage=stage, round=round_no, table=table, judge=judge, winner=winner, seats=seats)


@dataclass(kw_only=True, slots=True)
class _Game:
    """A game being played: roles by seat (index seat − 1), who is still at the table, and
    the day or night each of the others left on."""

    roles: list[Role]
    alive: set[int]
    fouls: dict[int, int] = field(default_factory=dict)
    killed: dict[int, int] = field(default_factory=dict)
    voted: dict[int, int] = field(default_factory=dict)
    removed: dict[int, int] = field(default_factory=dict)

    def team(self, seat: int) -> Team:
        return self.roles[seat - 1].team

    def outcome(self) -> Team | None:
        blacks = sum(1 for s in self.alive if self.team(s) is Team.BLACK)
        reds = len(self.alive) - blacks
        if blacks == 0:
            return Team.RED
        if blacks >= reds:
            return Team.BLACK
        return None


def _play(game: _Game, rng: random.Random) -> Team:
    """Days and nights until a team wins; three rounds in a row without anybody leaving
    end the game for the reds."""
    winner: Team | None = None
    unchanged_nights = 0
    day = 0
    while winner is None:
        day += 1
        before = len(game.alive)
        _day(game, day, rng)
        winner = game.outcome()
        if winner is not None:
            break
        _night(game, day, rng)
        winner = game.outcome()
        if len(game.alive) == before:
            unchanged_nights += 1
            if unchanged_nights >= 3:
                winner = Team.RED
        else:
            unchanged_nights = 0
    return winner


def _day(game: _Game, day: int, rng: random.Random) -> None:
    alive = game.alive
    # a rare removal for the 4th foul, only while many players are at the table
    if len(alive) > 6 and rng.random() < 0.03:
        seat = rng.choice(sorted(alive))
        game.fouls[seat] = 4
        game.removed[seat] = day
        alive.discard(seat)
    else:
        # day vote: reds find a black more often as the game goes on
        if day > 1 or rng.random() < 0.5:
            if rng.random() < 0.8:
                pool = sorted(alive)
                weights = [2.0 + day * 0.5 if game.team(s) is Team.BLACK else 1.0 for s in pool]
                seat = rng.choices(pool, weights)[0]
                game.voted[seat] = day
                alive.discard(seat)


def _night(game: _Game, day: int, rng: random.Random) -> None:
    # the mafia shoots a red player, sometimes misses
    if rng.random() < 0.92:
        pool = sorted(s for s in game.alive if game.team(s) is Team.RED)
        weights = [2.5 if game.roles[s - 1] is Role.SHERIFF else 1.0 for s in pool]
        seat = rng.choices(pool, weights)[0]
        game.killed[seat] = day
        game.alive.discard(seat)


def _best_moves(game: _Game, rng: random.Random) -> dict[int, tuple[int, ...]]:
    """The red player shot on the first night names three seats (usually)."""
    best: dict[int, tuple[int, ...]] = {}
    for seat, night in game.killed.items():
        if night == 1 and game.team(seat) is Team.RED and rng.random() < 0.85:
            others = [s for s in range(1, 11) if s != seat]
            black_seats = [s for s in others if game.team(s) is Team.BLACK]
            k = rng.choices([0, 1, 2, 3], [0.15, 0.35, 0.35, 0.15])[0]
            picks = rng.sample(black_seats, k) + rng.sample([s for s in others if s not in black_seats], 3 - k)
            best[seat] = tuple(sorted(picks))
    return best


def _extra_points(game: _Game, winner: Team, preset: Preset, rng: random.Random) -> dict[int, Decimal]:
    """The judge recognises one to three players, mostly winners, within the preset's range."""
    steps = int((preset.extra_max - preset.extra_min) / preset.extra_step)
    extra: dict[int, Decimal] = {}
    for _ in range(rng.choice([1, 1, 2, 2, 3])):
        pool = [s for s in range(1, 11) if game.team(s) is winner] or list(range(1, 11))
        seat = rng.choice(pool)
        k = rng.randint(max(1, steps // 7), max(1, steps * 5 // 7))
        extra[seat] = preset.extra_min + preset.extra_step * k
    return extra
