"""A seeded simulator of plausible, valid games — for the example tournament and for tests.

It deals roles, plays days and nights (votes, shots, misses, fouls, a rare removal),
lets the first-shot red player name a best move, and has the judge hand out extra
points, always within the regulation so that every simulated protocol validates.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
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
    alive = set(range(1, 11))
    killed: dict[int, int] = {}
    voted: dict[int, int] = {}
    removed: dict[int, int] = {}
    fouls = {s: min(3, int(rng.expovariate(1.6))) for s in alive}
    winner: Team | None = None
    unchanged_nights = 0

    def blacks() -> int:
        return sum(1 for s in alive if roles[s - 1].team is Team.BLACK)

    def reds() -> int:
        return len(alive) - blacks()

    def outcome() -> Team | None:
        if blacks() == 0:
            return Team.RED
        if blacks() >= reds():
            return Team.BLACK
        return None

    day = 0
    while winner is None:
        day += 1
        before = len(alive)
        # a rare removal for the 4th foul, only while many players are at the table
        if len(alive) > 6 and rng.random() < 0.03:
            seat = rng.choice(sorted(alive))
            fouls[seat] = 4
            removed[seat] = day
            alive.discard(seat)
        else:
            # day vote: reds find a black more often as the game goes on
            if day > 1 or rng.random() < 0.5:
                if rng.random() < 0.8:
                    pool = sorted(alive)
                    weights = [2.0 + day * 0.5 if roles[s - 1].team is Team.BLACK else 1.0 for s in pool]
                    seat = rng.choices(pool, weights)[0]
                    voted[seat] = day
                    alive.discard(seat)
        winner = outcome()
        if winner is not None:
            break
        # night: the mafia shoots a red player, sometimes misses
        if rng.random() < 0.92:
            pool = sorted(s for s in alive if roles[s - 1].team is Team.RED)
            weights = [2.5 if roles[s - 1] is Role.SHERIFF else 1.0 for s in pool]
            seat = rng.choices(pool, weights)[0]
            killed[seat] = day
            alive.discard(seat)
        winner = outcome()
        if len(alive) == before:
            unchanged_nights += 1
            if unchanged_nights >= 3:
                winner = Team.RED
        else:
            unchanged_nights = 0

    # best move: the red player shot on the first night names three seats
    best: dict[int, tuple[int, ...]] = {}
    for seat, night in killed.items():
        if night == 1 and roles[seat - 1].team is Team.RED and rng.random() < 0.85:
            others = [s for s in range(1, 11) if s != seat]
            black_seats = [s for s in others if roles[s - 1].team is Team.BLACK]
            k = rng.choices([0, 1, 2, 3], [0.15, 0.35, 0.35, 0.15])[0]
            picks = rng.sample(black_seats, k) + rng.sample([s for s in others if s not in black_seats], 3 - k)
            best[seat] = tuple(sorted(picks))

    # extra points: the judge recognises one to three players, mostly winners
    steps = int((preset.extra_max - preset.extra_min) / preset.extra_step)
    extra: dict[int, Decimal] = {}
    for _ in range(rng.choice([1, 1, 2, 2, 3])):
        pool = [s for s in range(1, 11) if roles[s - 1].team is winner] or list(range(1, 11))
        seat = rng.choice(pool)
        k = rng.randint(max(1, steps // 7), max(1, steps * 5 // 7))
        extra[seat] = preset.extra_min + preset.extra_step * k

    seats = tuple(
        SeatRecord(
            seat=s,
            player=players[s - 1],
            role=roles[s - 1],
            fouls=fouls[s],
            killed_night=killed.get(s),
            voted_day=voted.get(s),
            removal=Removal.REMOVED if s in removed else None,
            removal_day=removed.get(s),
            best_move=best.get(s, ()),
            extra_points=extra.get(s, Decimal(0)),
        )
        for s in range(1, 11)
    )
    return Protocol(sheet=sheet, stage=stage, round=round_no, table=table, judge=judge, winner=winner, seats=seats)
