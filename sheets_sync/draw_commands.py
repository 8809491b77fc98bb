"""The draw, advancing to the next stage, and replacing a late player — as workbook patches.

Each command reads the workbook once, decides with the pure core (``scoring.draw``,
``scoring.standings``), and writes one patch: the Seating tab, pre-filled protocol tabs and
the draw report.  Nothing is written when a command refuses (typed protocols, a tie at the
cut line, an impossible format); the message says what the organizer must decide.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from scoring import labels as L
from scoring.draw import Draw, DrawFormatError, draw_final, draw_qualifying, draw_stage, evaluate
from scoring.model import PlayerStatus, SeatingEntry
from scoring.preset import Preset
from sheets_sync.backends.base import Backend, Patch, TabWrite
from sheets_sync.layout import protocol_tab, protocol_title, seating_tab
from sheets_sync.sync import Outcome, compute

__all__ = ["CommandRefused", "draw_workbook", "advance_workbook", "replace_player", "seating_from_draw", "DrawOutcome"]


class CommandRefused(Exception):
    """The command will not write: the message explains why and what to do."""


@dataclass(frozen=True, kw_only=True, slots=True)
class DrawOutcome:
    stage: str
    draw: Draw
    entries: tuple[SeatingEntry, ...]
    patch: Patch
    language: str = "ru"                      # the tournament's language (Tournament tab)


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


def _clubs(outcome: Outcome) -> dict[str, str]:
    return {p.nickname: p.club for p in outcome.results.tournament.players if p.club}


def draw_workbook(backend: Backend, *, seed: int, time_limit: float | None = None, force: bool = False,
                  progress: Callable[[float, int, int], None] | None = None) -> DrawOutcome:
    """Draw the first stage for everyone playing and write it (refuses over typed protocols)."""
    snapshot = backend.read()
    outcome = compute(snapshot)
    preset = outcome.preset
    stage = preset.stage_keys[0]
    typed = _typed_protocols(outcome, stage)
    if typed and not force:
        raise CommandRefused(f"protocols already typed ({', '.join(typed[:5])}{' …' if len(typed) > 5 else ''}); "
                             "a new draw would move players away from their games — use --force only if you mean it")
    players = [p.nickname for p in outcome.results.tournament.players if p.status is PlayerStatus.PLAYING]
    try:
        draw = draw_qualifying(players, rounds=preset.stage(stage).games, seed=seed, clubs=_clubs(outcome),
                               progress=progress, time_limit=time_limit)
    except DrawFormatError as exc:
        raise CommandRefused(str(exc)) from exc
    entries = seating_from_draw(draw, stage)
    patch = _stage_patch(outcome, stage, entries, draw, replace_stage=True)
    # protocol tabs of a previous draw that no longer exist in this one (fewer tables) are left for the organizer
    backend.apply(patch, base=snapshot)
    return DrawOutcome(stage=stage, draw=draw, entries=tuple(entries), patch=patch,
                       language=outcome.language)


def next_stage(outcome: Outcome) -> str | None:
    seated = {e.stage for e in outcome.results.tournament.seating}
    for key in outcome.preset.stage_keys[1:]:
        if key not in seated:
            return key
    return None


def _stage_draw(players: Sequence[str], preset: Preset, stage: str, seed: int, clubs) -> Draw:
    rule = preset.stage(stage)
    if len(players) == 10:
        return draw_final(players, games=rule.games)
    return draw_stage(players, tables=len(players) // 10, games=rule.games, seed=seed, clubs=clubs)


def advance_workbook(backend: Backend, *, seed: int = 1, force: bool = False, stage: str | None = None) -> DrawOutcome:
    """Seat the next stage from the standings (top N by the tiebreak chain)."""
    snapshot = backend.read()
    outcome = compute(snapshot)
    preset = outcome.preset
    stage = stage or next_stage(outcome)
    if stage is None:
        raise CommandRefused("every stage is already seated")
    if stage not in preset.stage_keys[1:]:
        raise CommandRefused(f"unknown stage {stage!r} (stages: {', '.join(preset.stage_keys[1:])})")
    cut = outcome.results.cuts[stage]
    name = preset.stage(stage).name(outcome.language)
    if not cut.complete and not force:
        raise CommandRefused(f"{preset.stage(cut.after).name(outcome.language)} is not complete: some games are missing, "
                             "unfinished or have errors (see the Problems tab); use --force to seat anyway")
    if cut.tied:
        raise CommandRefused(
            f"tie at the cut line for {name}: {', '.join(cut.tied)} share a place after every tiebreak. "
            f"The organizer must decide who goes on: give the others the status 'снялся' / withdrawn, "
            f"or set '{stage}.players' on the Tournament tab, then run advance again")
    if len(cut.players) < cut.size:
        raise CommandRefused(f"{name} needs {cut.size} players, only {len(cut.players)} can play")
    draw = _stage_draw(list(cut.players), preset, stage, seed, _clubs(outcome))
    entries = seating_from_draw(draw, stage)
    patch = _stage_patch(outcome, stage, entries, draw, replace_stage=True)
    backend.apply(patch, base=snapshot)
    return DrawOutcome(stage=stage, draw=draw, entries=tuple(entries), patch=patch,
                       language=outcome.language)


def replace_player(backend: Backend, *, player: str, stage: str | None = None) -> tuple[str, DrawOutcome]:
    """Replace ``player`` in a seated later stage by the next one in the ranking (e.g. late for the semifinal)."""
    snapshot = backend.read()
    outcome = compute(snapshot)
    preset = outcome.preset
    seating = outcome.results.tournament.seating
    stages = [s for s in preset.stage_keys[1:] if any(e.stage == s and player in e.players for e in seating)]
    if stage is None:
        if not stages:
            raise CommandRefused(f"{player!r} is not seated in a later stage")
        stage = stages[-1]
    entries = [e for e in seating if e.stage == stage]
    if not any(player in e.players for e in entries):
        raise CommandRefused(f"{player!r} is not seated in {stage}")
    typed = [p.sheet for p in outcome.results.tournament.protocols
             if p.stage == stage and p.winner is not None and any(s.player == player for s in p.seats)]
    if typed:
        raise CommandRefused(f"{player!r} already played {', '.join(typed)}; replace him in the protocols by hand")
    after = preset.stage_keys[preset.stage_keys.index(stage) - 1]
    seated = {n for e in entries for n in e.players if n}
    candidates = [st.stats.player for st in outcome.results.stages[after]
                  if st.stats.player not in seated and st.stats.status is PlayerStatus.PLAYING]
    if not candidates:
        raise CommandRefused(f"nobody left in the {after} ranking to replace {player!r}")
    newcomer = candidates[0]
    new_entries = [SeatingEntry(stage=e.stage, round=e.round, table=e.table,
                                players=tuple(newcomer if n == player else n for n in e.players)) for e in entries]
    rounds = [[e.players for e in new_entries if e.round == r] for r in sorted({e.round for e in new_entries})]
    report = evaluate([n for n in seated - {player}] + [newcomer], rounds)
    draw = Draw(rounds=tuple(tuple(r) for r in rounds), rests=tuple(() for _ in rounds), seed=0, report=report)
    patch = _stage_patch(outcome, stage, new_entries, draw, replace_stage=True)
    backend.apply(patch, base=snapshot)
    return newcomer, DrawOutcome(stage=stage, draw=draw, entries=tuple(new_entries), patch=patch,
                                 language=outcome.language)


def auto_advance(outcome: Outcome, *, seed: int = 1) -> tuple[Patch | None, str | None]:
    """The sync's own advance: when the chief judge confirmed a stage on the Tournament tab
    (`Этап подтверждён = Отбор`), it is complete and the next stage is not seated yet, seat it.
    Returns (patch or None, a line for the organizer or None)."""
    from scoring.parse import stage_lookup

    confirmed_raw = outcome.settings.confirmed
    if not confirmed_raw:
        return None, None
    lookup = stage_lookup(outcome.preset)
    confirmed = {lookup[c] for c in confirmed_raw if c in lookup}
    stage = next_stage(outcome)
    if stage is None:
        return None, None
    cut = outcome.results.cuts[stage]
    if cut.after not in confirmed:
        return None, None
    name = outcome.preset.stage(stage).name(outcome.language)
    if not cut.complete:
        return None, f"{name}: not seated yet — the confirmed stage still has missing, unfinished or broken games"
    if cut.tied:
        return None, f"{name}: not seated — tie at the cut line between {', '.join(cut.tied)}; the organizer must decide"
    if len(cut.players) < cut.size:
        return None, f"{name}: not seated — needs {cut.size} players, only {len(cut.players)} can play"
    draw = _stage_draw(list(cut.players), outcome.preset, stage, seed, _clubs(outcome))
    entries = seating_from_draw(draw, stage)
    return _stage_patch(outcome, stage, entries, draw, replace_stage=True), f"{name}: seated {len(cut.players)} players"
