"""The draw, advancing to the next stage, and replacing a late player — as workbook patches.

Each command reads the workbook once, decides with the pure core (``scoring.draw``,
``scoring.standings``), and writes one patch: the Seating tab, pre-filled protocol tabs and
the draw report.  Nothing is written when a command refuses (typed protocols, a tie at the
cut line, an impossible format); the message says what the organizer must decide.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from scoring import labels as L
from scoring.advance import Refusal, StagePlan, clubs_of, next_stage, plan_replacement, plan_stage
from scoring.draw import Draw, DrawFormatError, draw_final, draw_qualifying, draw_stage, evaluate
from scoring.errors import SheetsSyncError
from scoring.model import PlayerStatus, SeatingEntry
from sheets_sync.backends.base import Backend, Patch, Snapshot, TabWrite
from sheets_sync.layout import protocol_tab, protocol_title, seating_tab
from sheets_sync.outcome import Outcome, compute, read_workbook
from sheets_sync.refs import workbook_folder

__all__ = ["CommandRefused", "draw_workbook", "advance_workbook", "replace_player", "seating_from_draw", "DrawOutcome",
           "draw_plan", "auto_advance"]


class CommandRefused(SheetsSyncError):
    """The command will not write: the message explains why and what to do."""


@dataclass(frozen=True, kw_only=True, slots=True)
class DrawOutcome:
    stage: str
    draw: Draw
    entries: tuple[SeatingEntry, ...]
    patch: Patch
    language: str = "ru"                      # the tournament's language (Tournament tab)


def _read(backend: Backend) -> tuple[Snapshot, Outcome]:
    """One read and what the sync computes from it (a preset file beside the workbook included)."""
    snapshot = read_workbook(backend)
    return snapshot, compute(snapshot, base_dir=workbook_folder(backend.source))


def seating_from_draw(draw: Draw, stage: str) -> list[SeatingEntry]:
    return [SeatingEntry(stage=stage, round=r + 1, table=t + 1, players=tuple(seats))
            for r, tables in enumerate(draw.rounds) for t, seats in enumerate(tables)]


def _typed_protocols(outcome: Outcome, stage: str) -> list[str]:
    """Protocol tabs of ``stage`` where a judge already typed more than the pre-filled players."""
    typed = []
    for p in outcome.results.tournament.protocols:
        if p.stage == stage and (p.winner is not None or any(s.role or s.fouls or s.killed_night or s.voted_day
                                                               or s.extra_points or s.best_move for s in p.seats)):
            typed.append(p.sheet)
    return typed


def _stage_patch(outcome: Outcome, stage: str, entries: Sequence[SeatingEntry], draw: Draw, *,
                 replace_stage: bool) -> Patch:
    preset, language = outcome.preset, outcome.language
    old = [e for e in outcome.results.tournament.seating if not (replace_stage and e.stage == stage)]
    seating = seating_tab(sorted([*old, *entries], key=lambda e: (preset.stage_keys.index(e.stage), e.round, e.table)),
                          preset, language)
    writes: list[TabWrite] = [replace(seating, owned=True)]  # the draw rewrites the whole Seating tab
    for e in entries:
        writes.append(protocol_tab(title=protocol_title(preset, e.stage, e.round, e.table, language),
                                   stage_name=preset.stage(e.stage).name(language), round_no=e.round, table=e.table,
                                   players=e.players, language=language, preset=preset))
    report_rows = [[f"{preset.stage(stage).name(language)}"], *draw.report.rows(language)]
    writes.append(TabWrite(title=L.tab("draw_report", language), rows=tuple(tuple(r) for r in report_rows),
                           column_widths=(24, 14, 8, 10, 12, 18, 8, 24, 10, 10, 10, 10, 10, 10), bold_rows=(0,)))
    return Patch(writes=tuple(writes))


def draw_workbook(backend: Backend, *, seed: int, time_limit: float | None = None, force: bool = False,
                  progress: Callable[[float, int, int], None] | None = None) -> DrawOutcome:
    """Draw the first stage for everyone playing and write it (refuses over typed protocols)."""
    snapshot, outcome = _read(backend)
    preset = outcome.preset
    stage = preset.stage_keys[0]
    typed = _typed_protocols(outcome, stage)
    if typed and not force:
        raise CommandRefused(f"protocols already typed ({', '.join(typed[:5])}{' …' if len(typed) > 5 else ''}); "
                             "a new draw would move players away from their games — use --force only if you mean it")
    players = [p.nickname for p in outcome.results.tournament.players if p.status is PlayerStatus.PLAYING]
    # the core reads no clock: the time limit becomes a deadline on the clock passed in
    deadline = None if time_limit is None else time.monotonic() + time_limit
    try:
        draw = draw_qualifying(players, rounds=preset.stage(stage).games, seed=seed,
                               clubs=clubs_of(outcome.results.tournament, players),
                               progress=progress, deadline=deadline, clock=time.monotonic)
    except DrawFormatError as exc:
        raise CommandRefused(str(exc)) from exc
    entries = seating_from_draw(draw, stage)
    patch = _stage_patch(outcome, stage, entries, draw, replace_stage=True)
    # protocol tabs of a previous draw that no longer exist in this one (fewer tables) are left for the organizer
    backend.apply(patch, base=snapshot)
    return DrawOutcome(stage=stage, draw=draw, entries=tuple(entries), patch=patch,
                       language=outcome.language)


def draw_plan(plan: StagePlan, *, seed: int) -> Draw:
    """The seating of a planned stage: one table is a final (distinct seats, equal seat sums),
    several tables are drawn like qualifying with the clubs of exactly the seated players."""
    if plan.tables == 1:
        return draw_final(list(plan.players), games=plan.games, clock=time.monotonic)
    return draw_stage(list(plan.players), tables=plan.tables, games=plan.games, seed=seed, clubs=plan.clubs,
                      clock=time.monotonic)


def advance_workbook(backend: Backend, *, seed: int = 1, force: bool = False, stage: str | None = None) -> DrawOutcome:
    """Seat the next stage from the standings (top N by the tiebreak chain)."""
    snapshot, outcome = _read(backend)
    plan = plan_stage(outcome.results, stage=stage, force=force)
    if isinstance(plan, Refusal):
        raise CommandRefused(plan.message("en"))
    draw = draw_plan(plan, seed=seed)
    entries = seating_from_draw(draw, plan.stage)
    patch = _stage_patch(outcome, plan.stage, entries, draw, replace_stage=True)
    backend.apply(patch, base=snapshot)
    return DrawOutcome(stage=plan.stage, draw=draw, entries=tuple(entries), patch=patch,
                       language=outcome.language)


def replace_player(backend: Backend, *, player: str, stage: str | None = None) -> tuple[str, DrawOutcome]:
    """Replace ``player`` in a seated later stage by the next one in the ranking (e.g. late for the semifinal)."""
    snapshot, outcome = _read(backend)
    plan = plan_replacement(outcome.results, player, stage=stage)
    if isinstance(plan, Refusal):
        raise CommandRefused(plan.message("en"))
    rounds = [[e.players for e in plan.entries if e.round == r] for r in sorted({e.round for e in plan.entries})]
    report = evaluate(list(plan.players), rounds, plan.clubs)
    draw = Draw(rounds=tuple(tuple(r) for r in rounds), rests=tuple(() for _ in rounds), seed=0, report=report)
    patch = _stage_patch(outcome, plan.stage, plan.entries, draw, replace_stage=True)
    backend.apply(patch, base=snapshot)
    return plan.newcomer, DrawOutcome(stage=plan.stage, draw=draw, entries=plan.entries, patch=patch,
                                      language=outcome.language)


def auto_advance(outcome: Outcome, *, seed: int = 1) -> tuple[Patch | None, str | None]:
    """The sync's own advance: when the chief judge confirmed a stage on the Tournament tab
    (`Этап подтверждён = Отбор`) and the next stage is not seated yet, seat it — the same
    decision as `advance` (:func:`scoring.advance.plan_stage`), never forced.
    Returns (patch or None, a line for the organizer or None)."""
    from scoring.parse import stage_lookup

    confirmed_raw = outcome.settings.confirmed
    if not confirmed_raw:
        return None, None
    lookup = stage_lookup(outcome.preset)
    confirmed = {lookup[c] for c in confirmed_raw if c in lookup}
    stage = next_stage(outcome.results)
    if stage is None or outcome.results.cuts[stage].after not in confirmed:
        return None, None
    name = outcome.preset.stage(stage).name(outcome.language)
    plan = plan_stage(outcome.results, stage=stage)
    if isinstance(plan, Refusal):
        return None, f"{name}: not seated — {plan.message('en')}"
    draw = draw_plan(plan, seed=seed)
    entries = seating_from_draw(draw, stage)
    return _stage_patch(outcome, stage, entries, draw, replace_stage=True), f"{name}: seated {len(plan.players)} players"
