"""The draw, advancing to the next stage, and replacing a late player — as workbook patches.

Each command reads the workbook once, decides with the pure core (``scoring.draw``,
``scoring.standings``), and writes one patch: the Seating tab, pre-filled protocol tabs and
the draw report.  Nothing is written when a command refuses (typed protocols, a tie at the
cut line, an impossible format); the message says what the organizer must decide, in the
tournament's language.

``draw`` plans the first stage from the preset as the Tournament tab overrides it
(``отбор.игр``/``отбор.туров`` rounds, ``отбор.столов`` tables): a format that does not
fit is refused with the nearest ones that do, as Tournament-tab settings; protocol tabs of
the old seating that the new one no longer has are removed when nothing was typed into
them and kept (and named) otherwise.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from scoring import labels as L
from scoring.advance import (Refusal, StagePlan, StageTeams, clubs_of, next_stage, plan_replacement, plan_stage,
                             replacement_notice, stage_teams, teams_of)
from scoring.draw.formats import TABLE_SIZE, DrawFormatError, Format, Teams, plan_format
from scoring.errors import SheetsSyncError
from scoring.cells import parse_a1
from scoring.model import ApplicationState, Player, PlayerStatus, Protocol, SeatingEntry, Tournament
from scoring.preset import RegistrationRule, StageRule, TeamRule
from scoring.registration import DrawField, draw_field, state_word
from scoring.problems import Text
from scoring.preset_settings import STAGE_KEY_ALIASES
from sheets_sync.backends.base import STATE_TAB, Backend, Patch, Snapshot, TabWrite
from sheets_sync.workbook.changelog import previous_values, state_with_values, written_values
from sheets_sync.workbook.layout import draw_report_tab, protocol_tab, protocol_title, seating_tab
from sheets_sync.messages import fail, text
from sheets_sync.loop.outcome import Outcome, compute, read_workbook
from sheets_sync.refs import workbook_folder

if TYPE_CHECKING:
    from scoring.draw import Draw

__all__ = ["CommandRefused", "draw_workbook", "advance_workbook", "replace_player", "seating_from_draw", "DrawOutcome",
           "draw_plan", "draw_teams", "auto_advance", "playing_players", "default_tables", "stage_setting_label", "format_refusal",
           "first_stage_format", "prefilled_values", "registered_tournament", "promoted_write", "check_in_lines"]


class CommandRefused(SheetsSyncError):
    """The command will not write: the message explains why and what to do."""


def _refused(en: str, ru: str, language: str) -> CommandRefused:
    return CommandRefused(en, ru=ru, language=language)


def draw_teams(rule: TeamRule, teams: Mapping[str, str]) -> Teams | None:
    """What the qualifying draw does with the players' teams, as the preset's ``[teams]`` says:
    nothing without teams or with ``apart = false``; keep them apart; or one per game."""
    if not teams or not (rule.apart or rule.one_per_game):
        return None
    return Teams(of=teams, one_per_game=rule.one_per_game)


# -- the first stage's format --------------------------------------------------------------------
def playing_players(players: Sequence[Player]) -> list[str]:
    """Nicknames drawn into the first stage (reserves only fill seats the format leaves empty)."""
    return [p.nickname for p in players if p.status is PlayerStatus.PLAYING]


def default_tables(playing: int) -> int:
    """Tables a round when the preset and the Tournament tab name none: as many as the players fill."""
    return max(1, playing // TABLE_SIZE)


def stage_setting_label(stage: str, field: str, language: str) -> str:
    """The Tournament-tab label of a stage's ``"rounds"`` or ``"tables"``: ``отбор.туров``,
    ``qualifying.tables`` (a stage without a Russian word: ``stages.<key>.games``)."""
    ru_word = {v: k for k, v in STAGE_KEY_ALIASES.items()}.get(stage)
    if ru_word is None:
        return f"stages.{stage}.{'games' if field == 'rounds' else 'tables'}"
    if language == "ru":
        return f"{ru_word}.{'туров' if field == 'rounds' else 'столов'}"
    return f"{stage}.{field}"


def format_settings(fmt: Format, stage: StageRule, language: str) -> list[tuple[str, int]]:
    """The Tournament-tab rows that make ``fmt`` the stage's format (only what differs from the preset)."""
    rows = []
    if fmt.rounds != stage.games:
        rows.append((stage_setting_label(stage.key, "rounds", language), fmt.rounds))
    if fmt.tables != (stage.tables or default_tables(fmt.players)):
        rows.append((stage_setting_label(stage.key, "tables", language), fmt.tables))
    return rows


def format_refusal(exc: DrawFormatError, heading: str, render: Callable[[Format, str], str],
                   language: str) -> CommandRefused:
    """``exc`` with the nearest formats that work, each as ``render`` spells it (a command to
    run, the Tournament-tab settings to type), in both languages."""
    def message(lang: str) -> str:
        lines = [exc.message(lang)]
        if exc.formats:
            lines.append(text(heading, lang))
            lines += [f"  {render(f, lang)}\n      {f.describe(lang)}" for f in exc.formats]
        return "\n".join(lines)

    return _refused(message("en"), message("ru"), language)


def first_stage_format(players: Sequence[Player], stage: StageRule, language: str) -> Format:
    """The first stage's format from the preset with the Tournament tab's overrides; refused
    with the nearest formats, as Tournament-tab settings, when the numbers do not fit."""
    playing = playing_players(players)

    def settings(fmt: Format, lang: str) -> str:
        rows = format_settings(fmt, stage, lang) or [(stage_setting_label(stage.key, "rounds", lang), fmt.rounds)]
        return " · ".join(f"{label} = {value}" for label, value in rows)

    try:
        return plan_format(len(playing), tables=stage.tables or None, rounds=stage.games)
    except DrawFormatError as exc:
        raise format_refusal(exc, "format.nearest_tab", settings, language) from None


def registered_tournament(tournament: Tournament, rule: RegistrationRule) -> tuple[Tournament, DrawField]:
    """The tournament as the first draw sees it (issue 45, :func:`scoring.registration.draw_field`):
    only the players taking part and, once check-in has begun, only those present, the waiting
    players who replace the absent added, and the Players tab's reserves present."""
    registered = draw_field(tournament, rule)
    seated = set(registered.players)
    kept = [p for p in tournament.players if p.nickname in seated
            or (p.status is PlayerStatus.RESERVE and (p.arrived or not registered.check_in))]
    kept += [Player(nickname=a.nickname, club=a.club, city=a.city, arrived=a.arrived, location=a.location)
             for a in registered.promoted]
    return replace(tournament, players=tuple(kept)), registered


def promoted_write(registered: DrawField, language: str) -> tuple[TabWrite, ...]:
    """The «Заявка» of each waiting player the draw seats becomes «подтверждена»: the sync then
    reads him as a player (the draw is the organizer's command; every other cell is left alone)."""
    cells = [a.state_location for a in registered.promoted if a.state_location is not None]
    if not cells:
        return ()
    grid: list[list[object]] = []
    for loc in cells:
        r, c = parse_a1(loc.cell)
        grid.extend([] for _ in range(r + 1 - len(grid)))
        grid[r].extend(None for _ in range(c + 1 - len(grid[r])))
        grid[r][c] = state_word(ApplicationState.CONFIRMED, language)
    return (TabWrite(title=cells[0].sheet, rows=tuple(tuple(row) for row in grid), owned=False),)


def check_in_lines(registered: DrawField | None, language: str) -> list[str]:
    """What the organizer is told of a draw made on check-in: who was not seated, who took their seats."""
    if registered is None or not registered.absent:
        return []
    lines = [text("draw.absent", language, names=", ".join(registered.absent))]
    if registered.replacements:
        pairs = ", ".join(f"{absent} → {reserve}" for absent, reserve in registered.replacements)
        lines.append(text("draw.replaced", language, pairs=pairs))
    return lines


def _first_stage_field(players: Sequence[Player], fmt: Format, stage: StageRule, language: str) -> list[str]:
    """Everybody drawn: the players, then as many reserves (Players tab order) as the format seats."""
    reserves = [p.nickname for p in players if p.status is PlayerStatus.RESERVE]
    if len(reserves) < fmt.reserves:
        raise fail(CommandRefused, "format.reserves_missing", language=language, tables=fmt.tables,
                   seats=TABLE_SIZE * fmt.tables, players=fmt.players, have=len(reserves), need=fmt.reserves,
                   key=stage_setting_label(stage.key, "tables", language))
    return playing_players(players) + reserves[:fmt.reserves]


# -- protocol tabs the new seating no longer has -----------------------------------------------------
def _value(v: object) -> str:
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    return "" if v is None else str(v).strip()


def _untouched(grid: Sequence[Sequence[object]], blank: Sequence[Sequence[object]]) -> bool:
    """True when every value in ``grid`` is the one a freshly pre-filled tab (``blank``) has there."""
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            if _value(v) and (r >= len(blank) or c >= len(blank[r]) or _value(blank[r][c]) != _value(v)):
                return False
    return True


def _stale_tabs(snapshot: Snapshot, outcome: Outcome, stage: str,
                entries: Sequence[SeatingEntry]) -> tuple[list[str], list[str]]:
    """(blank tabs to remove, tabs to keep): protocol tabs of ``stage`` whose game the new
    seating no longer has.  A tab is blank when it holds exactly what the draw pre-filled for
    the old seating; anything typed (a role, a judge, another player) keeps it."""
    wanted = {(e.stage, e.round, e.table) for e in entries}
    titles = {protocol_title(outcome.preset, e.stage, e.round, e.table, outcome.language) for e in entries}
    old = {(e.stage, e.round, e.table): e for e in outcome.results.tournament.seating}
    remove, keep = [], []
    for p in outcome.results.tournament.protocols:
        if p.stage != stage or p.key in wanted or p.sheet in titles or p.sheet not in snapshot.tabs:
            continue
        (remove if _is_blank(snapshot, outcome, p, old.get(p.key)) else keep).append(p.sheet)
    return remove, keep


def _is_blank(snapshot: Snapshot, outcome: Outcome, p: Protocol, seated: SeatingEntry | None) -> bool:
    if seated is None:
        return False
    blank = protocol_tab(title=p.sheet, stage_name=outcome.preset.stage(p.stage).name(outcome.language),
                         round_no=p.round, table=p.table, players=seated.players, language=outcome.language,
                         preset=outcome.preset)
    return _untouched(snapshot.tabs[p.sheet], blank.rows)


@dataclass(frozen=True, kw_only=True, slots=True)
class DrawOutcome:
    stage: str
    draw: Draw
    entries: tuple[SeatingEntry, ...]
    patch: Patch
    language: str = "ru"                      # the tournament's language (Tournament tab)
    format: Format | None = None              # the first stage's format (draw)
    removed: tuple[str, ...] = ()             # blank protocol tabs the new seating no longer has
    kept: tuple[str, ...] = ()                # such tabs with something typed in them: left for the organizer
    notice: Text | None = None                # a team rule that could not hold for this field, and what was done
    registration: DrawField | None = None     # check-in (issue 45): the absent and who replaced them


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
                 replace_stage: bool, notice: Text | None = None) -> Patch:
    preset, language = outcome.preset, outcome.language
    old = [e for e in outcome.results.tournament.seating if not (replace_stage and e.stage == stage)]
    seating = seating_tab(sorted([*old, *entries], key=lambda e: (preset.stage_keys.index(e.stage), e.round, e.table)),
                          preset, language)
    writes: list[TabWrite] = [replace(seating, owned=True)]  # the draw rewrites the whole Seating tab
    for e in entries:
        writes.append(protocol_tab(title=protocol_title(preset, e.stage, e.round, e.table, language),
                                   stage_name=preset.stage(e.stage).name(language), round_no=e.round, table=e.table,
                                   players=e.players, language=language, preset=preset))
    notes = () if notice is None else (notice.said(language),)
    writes.append(draw_report_tab(draw.report, stage_name=preset.stage(stage).name(language), language=language,
                                  tournament=outcome.results.tournament.name, notes=notes))
    return Patch(writes=tuple(writes))


def prefilled_values(values: Mapping[str, Mapping[str, str]], patch: Patch, existing: Iterable[str],
                     language: str) -> dict[str, dict[str, str]]:
    """The typed values the state tab should remember once a stage ``patch`` is written: its
    Seating tab and pre-filled protocols as written (the draw report is no tab people type
    into), so that the next sync's Журнал shows none of the draw's names — only what people
    type afterwards (:func:`sheets_sync.workbook.changelog.written_values`)."""
    report = L.norm(L.tab("draw_report", language))
    prefilled = [w for w in patch.writes if L.norm(w.title) != report and w.title != STATE_TAB]
    return written_values(values, prefilled, existing=existing, deleted=patch.delete_tabs)


def _remembering(snapshot: Snapshot, patch: Patch, language: str) -> Patch:
    """``patch`` with the state tab's remembered values updated to what it pre-fills; unchanged
    when no sync has remembered values yet (the first sync takes everything as its baseline)."""
    before = previous_values(snapshot)
    if before is None:
        return patch
    values = prefilled_values(before, patch, snapshot.tabs, language)
    state = TabWrite(title=STATE_TAB, rows=state_with_values(snapshot.tabs.get(STATE_TAB, ()), values), hidden=True)
    return replace(patch, writes=(*patch.writes, state))


def draw_workbook(backend: Backend, *, seed: int, time_limit: float | None = None, force: bool = False,
                  progress: Callable[[float, int, int], None] | None = None, keep_seating: bool = False) -> DrawOutcome:
    """Draw the first stage for everyone playing and write it (refuses over typed protocols).

    The format is the preset's as the Tournament tab overrides it; reserves fill the seats
    of a table more than the players need.  Protocol tabs of the old seating that the new
    one no longer has are removed when blank and kept otherwise. ``keep_seating`` (the server's draw
    at the announced time): a stage seated already is refused, not drawn again."""
    snapshot, outcome = _read(backend)
    preset, language = outcome.preset, outcome.language
    stage = preset.stage_keys[0]
    if keep_seating and any(e.stage == stage for e in outcome.results.tournament.seating):
        raise fail(CommandRefused, "draw.seated_already", language=language, stage=preset.stage(stage).name(language))
    typed = _typed_protocols(outcome, stage)
    if typed and not force:
        raise fail(CommandRefused, "draw.typed", language=language,
                   tabs=", ".join(typed[:5]) + (" …" if len(typed) > 5 else ""))
    tournament, registered = registered_tournament(outcome.results.tournament, preset.registration)
    players = tournament.players
    rule = preset.stage(stage)
    fmt = first_stage_format(players, rule, language)
    field = _first_stage_field(players, fmt, rule, language)
    # the core reads no clock: the time limit becomes a deadline on the clock passed in
    deadline = None if time_limit is None else time.monotonic() + time_limit
    try:
        from scoring.draw import draw_qualifying  # the search loads only when a draw is made

        draw = draw_qualifying(field, rounds=fmt.rounds, tables=fmt.tables, seed=seed,
                               clubs=clubs_of(tournament, field),
                               teams=draw_teams(preset.teams, teams_of(tournament, field)),
                               progress=progress, deadline=deadline, clock=time.monotonic)
    except DrawFormatError as exc:
        raise _refused(str(exc), exc.message("ru"), language) from exc
    entries = seating_from_draw(draw, stage)
    patch = _stage_patch(outcome, stage, entries, draw, replace_stage=True)
    removed, kept = _stale_tabs(snapshot, outcome, stage, entries)
    promoted = promoted_write(registered, language)
    patch = replace(patch, delete_tabs=tuple(removed), writes=(*patch.writes, *promoted))
    patch = _remembering(snapshot, patch, language)
    backend.apply(patch, base=snapshot)
    return DrawOutcome(stage=stage, draw=draw, entries=tuple(entries), patch=patch, language=language, format=fmt,
                       removed=tuple(removed), kept=tuple(kept), registration=registered)


def draw_plan(plan: StagePlan, *, seed: int, teams: StageTeams = StageTeams(teams=None)) -> Draw:
    """The seating of a planned stage: one table is a final (distinct seats, equal seat sums),
    several tables are drawn like qualifying with the clubs of exactly the seated players, or
    their teams as the preset's ``[teams]`` says (:func:`scoring.advance.stage_teams`: apart, one
    per game, or apart as well as it can when one per game cannot hold)."""
    from scoring.draw import draw_final, draw_stage  # the search loads only when a draw is made

    if plan.tables == 1:
        return draw_final(list(plan.players), games=plan.games, clock=time.monotonic,
                          teams=teams.teams.of if teams.teams is not None else None)
    return draw_stage(list(plan.players), tables=plan.tables, games=plan.games, seed=seed, clubs=plan.clubs,
                      clock=time.monotonic, teams=teams.teams)


def advance_workbook(backend: Backend, *, seed: int = 1, force: bool = False, stage: str | None = None) -> DrawOutcome:
    """Seat the next stage from the standings (top N by the tiebreak chain), teammates as the
    preset's ``[teams]`` says; a team rule that cannot hold for the field is said in the
    outcome's ``notice`` and on the draw report tab."""
    snapshot, outcome = _read(backend)
    plan = plan_stage(outcome.results, stage=stage, force=force)
    if isinstance(plan, Refusal):
        raise _refused(plan.message("en"), plan.message("ru"), outcome.language)
    teams = stage_teams(outcome.results, plan)
    draw = draw_plan(plan, seed=seed, teams=teams)
    entries = seating_from_draw(draw, plan.stage)
    patch = _remembering(snapshot, _stage_patch(outcome, plan.stage, entries, draw, replace_stage=True,
                                                notice=teams.notice), outcome.language)
    backend.apply(patch, base=snapshot)
    return DrawOutcome(stage=plan.stage, draw=draw, entries=tuple(entries), patch=patch,
                       language=outcome.language, notice=teams.notice)


def replace_player(backend: Backend, *, player: str, stage: str | None = None) -> tuple[str, DrawOutcome]:
    """Replace ``player`` in a seated later stage by the next one in the ranking (e.g. late for the semifinal)."""
    snapshot, outcome = _read(backend)
    plan = plan_replacement(outcome.results, player, stage=stage)
    if isinstance(plan, Refusal):
        raise _refused(plan.message("en"), plan.message("ru"), outcome.language)
    rounds = [[e.players for e in plan.entries if e.round == r] for r in sorted({e.round for e in plan.entries})]
    from scoring.draw import Draw, evaluate

    teams = teams_of(outcome.results.tournament, plan.players)
    report = evaluate(list(plan.players), rounds, plan.clubs, teams=teams or None)
    draw = Draw(rounds=tuple(tuple(r) for r in rounds), rests=tuple(() for _ in rounds), seed=0, report=report)
    notice = replacement_notice(outcome.results, plan)  # one per game broken by the swap: said, never silently
    patch = _remembering(snapshot, _stage_patch(outcome, plan.stage, plan.entries, draw, replace_stage=True,
                                                notice=notice), outcome.language)
    backend.apply(patch, base=snapshot)
    return plan.newcomer, DrawOutcome(stage=plan.stage, draw=draw, entries=plan.entries, patch=patch,
                                      language=outcome.language, notice=notice)


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
        return None, text("advance.not_seated", outcome.language, stage=name, reason=plan.message(outcome.language))
    teams = stage_teams(outcome.results, plan)
    draw = draw_plan(plan, seed=seed, teams=teams)
    entries = seating_from_draw(draw, stage)
    line = text("advance.auto_seated", outcome.language, stage=name, players=len(plan.players))
    if teams.notice is not None:
        line += "\n" + teams.notice.said(outcome.language)
    return _stage_patch(outcome, stage, entries, draw, replace_stage=True, notice=teams.notice), line
