"""Where the tournament stands, from the data alone: one answer every output shows.

Not started (no counted game); a stage in progress (qualifying after round k of R, a
semifinal after game k of R, the final in progress); the final hidden (played or being
played while the preset hides it and the chief judge has not released it); finished (every
game of the last stage counted and nothing hidden, or the final released).

A round (a game of a later stage) is *done* when every table seated for it has a counted
game; ``done`` is the number of rounds done from the first one on.  The number of rounds
of a stage is the larger of the preset's ``games`` and the rounds seated.

The public outputs ask for the progress of the games they rank (``public=True``): a game
awaiting a second judge's confirmation is not counted there, so the standings, «засчитано игр»
and the title agree.  A tournament is finished only when no game of its last stage awaits
confirmation or has an open dispute — no medals, winners or «Итоговая таблица» before; the
progress says how many games wait (``awaiting``, ``disputed``).

Pure: the time shown beside the progress ("Обновлено: …") comes from the edge.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from scoring.model import Protocol, SeatingEntry
from scoring.standings import Results, hidden_stages, withheld_sheets

__all__ = ["Phase", "Progress", "progress", "scheduled_games"]


class Phase(enum.Enum):
    NOT_STARTED = "not_started"
    RUNNING = "running"  # a stage in progress (``stage`` says which)
    FINAL_HIDDEN = "final_hidden"
    FINISHED = "finished"


@dataclass(frozen=True, kw_only=True, slots=True)
class Progress:
    phase: Phase
    stage: str = ""  # key of the stage being played ("" when not started)
    first: bool = True  # ``stage`` is the first stage (rounds) rather than a later one (games)
    last: bool = False  # ``stage`` is the last stage (the final, or the only stage)
    done: int = 0  # rounds (games of a later stage) done in ``stage``
    of: int = 0  # rounds of ``stage``
    games_counted: int = 0  # counted games the public may see
    games_total: int = 0  # games seated or played the public may see (at least games_counted)
    awaiting: int = 0  # finished games not counted until a second judge confirms them (public progress)
    disputed: int = 0  # counted games with an open dispute

    @property
    def finished(self) -> bool:
        return self.phase is Phase.FINISHED

    @property
    def started(self) -> bool:
        return self.phase is not Phase.NOT_STARTED


def scheduled_games(seating: Iterable[SeatingEntry], protocols: Iterable[Protocol]) -> set[tuple[str, int, int]]:
    """(stage, round, table) of every game seated or with a protocol."""
    return {(e.stage, e.round, e.table) for e in seating} | {p.key for p in protocols}


def _rounds_done(stage: str, games: set[tuple[str, int, int]], counted: set[tuple[str, int, int]]) -> int:
    rounds = sorted({r for s, r, _ in games if s == stage})
    done = 0
    for r in rounds:
        if not all(g in counted for g in games if g[0] == stage and g[1] == r):
            break
        done = r
    return done


def progress(results: Results, *, public: bool = False) -> Progress:
    """The progress of the full results (not :func:`scoring.standings.published` ones: the
    hidden final is a phase of its own); the game counts leave a hidden stage out.  ``public``:
    of the games the public outputs rank (without those awaiting confirmation)."""
    t = results.tournament
    preset = results.preset
    keys = preset.stage_keys
    hide = hidden_stages(results) | results.hidden
    withheld = (withheld_sheets(results) if public else frozenset()) | results.withheld
    counted = {p.key for p in results.counted if p.sheet not in withheld}
    games = scheduled_games(t.seating, t.protocols)
    shown = [p for p in t.protocols if p.stage not in hide and p.sheet not in results.cancelled]
    waiting = {p.key for p in shown if (p.sheet in withheld and p.finished) or p.sheet in results.disputed}
    public_counted = sum(1 for g in counted if g[0] not in hide)
    public_total = max(public_counted, sum(1 for g in games if g[0] not in hide))
    figures = {"games_counted": public_counted, "games_total": public_total,
               "awaiting": sum(1 for p in shown if p.sheet in withheld and p.finished) + results.awaiting_confirmation,
               "disputed": sum(1 for p in shown if p.sheet in results.disputed and p.key in counted)}
    if not counted:
        return Progress(phase=Phase.NOT_STARTED, **figures)
    # the stage being played: the latest with a counted game, or the next one once that is
    # complete and the next is seated (a seating typed ahead of time does not start a stage)
    stage = ([k for k in keys if any(g[0] == k for g in counted)] or keys[:1])[-1]
    while True:
        i = keys.index(stage)
        rule = preset.stage(stage)
        stage_games = {g for g in games if g[0] == stage}
        of = max([rule.games, *(r for _, r, _ in stage_games)])
        done = _rounds_done(stage, games, counted)
        complete = bool(stage_games) and stage_games <= counted and done >= rule.games
        following = keys[i + 1] if i + 1 < len(keys) else None
        if not (complete and following and any(g[0] == following for g in games)):
            break
        stage = following
    where = {"stage": stage, "first": i == 0, "last": i == len(keys) - 1, "done": done, "of": of}
    if stage in hide:
        return Progress(phase=Phase.FINAL_HIDDEN, **where, **figures)
    released = preset.hidden_final and len(keys) > 1 and bool(t.released)  # the chief judge published it
    settled = not any(g[0] == stage for g in waiting)  # no game of it awaits a confirmation or a dispute's decision
    if where["last"] and (complete or released) and settled:
        return Progress(phase=Phase.FINISHED, **where, **figures)
    return Progress(phase=Phase.RUNNING, **where, **figures)
