"""What the sync knows about a workbook: its preset, and the tournament parsed, validated,
scored and ranked.

:func:`compute` is pure given a snapshot and the preset files.  :func:`workbook_view` is the
snapshot it computes from: with a separate results workbook (``--output``) the owned tabs
come from there, so deciding which tabs the sync owns stays here, out of the backends.

A preset that cannot be loaded (an unknown id, a missing or broken file) stops the
computation (:class:`PresetUnavailable`): nothing is ever computed, written or published
with another preset in its place.  The error carries the problem for the Problems tab.
So does a workbook without a tab the reading cannot do without (:class:`WorkbookIncomplete`:
the Tournament or the Players tab renamed or deleted): what it would compute is an empty
tournament, not this one; the error names the missing tab and the present tab that looks like it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from scoring import labels as L
from scoring.errors import SheetsSyncError
from scoring.liveness import Liveness, current_liveness
from scoring.model import GameIndex, Location, Tournament
from scoring.parse import Settings, find_tab, owned_titles, parse_tournament, read_settings
from scoring.parse.structure import MissingTab, missing_tabs, workbook_language
from scoring.preset import Preset, PresetError
from scoring.problems import Problem, Severity, Text, problem
from scoring.rating.club import starts_on_players_tab
from scoring.rules import validate
from scoring.registration import late_excuses, registration_problems
from scoring.standings import Results, compute as compute_standings
from scoring.trust import Remembered, confirmations, dispute_problems
from scoring.vanished import LastSync, Vanished, vanished
from sheets_sync.loop.draw_figures import DrawFigures, draw_figures
from sheets_sync.backends.base import Backend, Snapshot
from sheets_sync.workbook.changelog import (CELLS_REMEMBERED, Change, changes, current_values, fingerprints, logged_tabs, previous_values, remembered,
                                   typed_cells)
from sheets_sync.clock import zone
from sheets_sync.messages import text
from sheets_sync.presets import PresetNotFound, load_preset
from sheets_sync.workbook.excuse_times import excuses_filled_at
from sheets_sync.workbook.protection import restored_problems
from sheets_sync.refs import workbook_folder

__all__ = ["Outcome", "compute", "DEFAULT_PRESET", "owned_tab_titles", "workbook_view", "read_workbook",
           "PresetUnavailable", "WorkbookIncomplete", "require_tabs"]

DEFAULT_PRESET = "gmo-2016"


@dataclass(frozen=True, kw_only=True, slots=True)
class Outcome:
    """What :func:`compute` found: the Tournament tab's settings, the preset with its overrides,
    the results (full, not the public view), every problem, and the tournament's language."""

    settings: Settings
    preset: Preset
    results: Results
    problems: tuple[Problem, ...]
    language: str
    # what the state tab remembers next (confirmations, typed values) and what changed since the last sync
    remember: Mapping[str, Remembered] = field(default_factory=dict)
    values: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # tab -> cell -> text
    changes: tuple[Change, ...] = ()
    # who can still qualify for the cut being played: worked out once here, for every output of the sync
    live: Liveness | None = None
    # what is gone since the last sync (a counted game's tab, the Seating tab): named among the problems
    vanished: Vanished = field(default_factory=Vanished)
    # tabs too full for the state to remember (garbage pasted): the sync leaves their marks as they are
    oversized: frozenset[str] = frozenset()
    # the fairness report's figures the draw wrote on its tab (the public seating page shows them)
    draw_figures: DrawFigures | None = None


class PresetUnavailable(SheetsSyncError):
    """The Tournament tab names a preset that cannot be loaded; ``problem`` says so on the Problems tab."""

    def __init__(self, message: str, *, ru: str, language: str, problem: Problem):
        super().__init__(message, ru=ru, language=language)
        self.problem = problem


class WorkbookIncomplete(SheetsSyncError):
    """A tab the reading cannot do without is missing (:mod:`scoring.parse.structure`): nothing is
    computed; ``problems`` say which tab and which present tab looks like it, in the workbook's
    ``language`` (the look-alike Tournament tab's own, where there is one)."""

    def __init__(self, missing: tuple[MissingTab, ...], *, language: str, snapshot: Snapshot):
        self.problems = tuple(m.problem() for m in missing)
        self.snapshot = snapshot  # what was read: its tab ids give the page's links to the look-alikes
        super().__init__("\n".join(p.message("en") for p in self.problems),
                         ru="\n".join(p.message("ru") for p in self.problems), language=language)


def require_tabs(snapshot: Snapshot) -> None:
    """Raise :class:`WorkbookIncomplete` when the Tournament or the Players tab is missing."""
    missing = missing_tabs(snapshot.tabs, snapshot.order, owned_tab_titles(snapshot))
    if not missing:
        return
    settings_lost = next((m for m in missing if m.key == "tournament"), None)
    language = (read_settings(snapshot.tabs).language if settings_lost is None
                else workbook_language(snapshot.tabs, settings_lost.lookalike))
    raise WorkbookIncomplete(missing, language=language, snapshot=snapshot)


def _unavailable(exc: PresetError, ref: str, settings: Settings) -> PresetUnavailable:
    if isinstance(exc, PresetNotFound):
        en, ru = str(exc), exc.message("ru")
    else:  # the file is there but broken: the loader names file and key (in English)
        en, ru = f"preset {ref} cannot be used: {exc}", f"регламент {ref} не загружается: {exc}"
    en, ru = f"{en}. {text('preset.not_published', 'en')}", f"{ru}. {text('preset.not_published', 'ru')}"
    where = Location(settings.tab, "B2") if settings.tab else None
    found = problem("read.bad_setting", Severity.ERROR, where, key=Text("Регламент", "Preset"), reason=Text(ru, en))
    return PresetUnavailable(en, ru=ru, language=settings.language, problem=found)


def _load_preset_for(settings: Settings, base_dir: Path | None) -> tuple[Preset, list[Problem]]:
    """The preset the Tournament tab names (a .toml path relative to ``base_dir``), with every
    override it accepts; a bad override is a problem, never a crash.  A preset that cannot be
    loaded raises :class:`PresetUnavailable`: nothing is computed with another one instead."""
    problems: list[Problem] = []
    ref = settings.preset_id or DEFAULT_PRESET
    try:
        base, _ = load_preset(ref, base_dir=base_dir)
    except PresetError as exc:
        raise _unavailable(exc, ref, settings) from None
    good: list[tuple[str, object]] = []
    for key, value, loc in settings.overrides:
        try:
            _, rejected = load_preset(ref, [*good, (key, value)], base_dir=base_dir)
        except PresetError as exc:
            problems.append(problem("read.bad_setting", Severity.ERROR, loc, key=key, reason="; ".join(exc.errors)))
            continue
        if rejected:
            problems.append(problem("read.unknown_setting", Severity.ERROR, loc, key=key))
            continue
        good.append((key, value))
    if not good:
        return base, problems
    preset, _ = load_preset(ref, good, base_dir=base_dir)
    return preset, problems


def compute(snapshot: Snapshot, *, base_dir: Path | None = None, last: LastSync | None = None) -> Outcome:
    """Everything the sync knows about the tournament in this snapshot (no I/O but presets); a
    workbook without its Tournament or Players tab raises :class:`WorkbookIncomplete`.  ``last``:
    what the last sync's record knew (which games counted, a seating): what is gone since is named."""
    require_tabs(snapshot)
    settings = read_settings(snapshot.tabs)
    preset, preset_problems = _load_preset_for(settings, base_dir)
    parsed = parse_tournament(snapshot.tabs, snapshot.order, preset, settings)
    before = remembered(snapshot)
    cells, cut = typed_cells(snapshot, logged_tabs(snapshot, parsed.tournament, parsed.unreadable))
    confirmed = confirmations(parsed.tournament.protocols, fingerprints(cells, parsed.tournament), before,
                              required=preset.confirmation)
    starts, start_problems = _rating_starts(snapshot, parsed.tournament, preset)
    tournament = replace(parsed.tournament, unconfirmed=confirmed.unconfirmed, edited_after_confirmation=confirmed.edited,
                         rating_starts=starts)
    values = current_values(cells)
    found = changes(previous_values(snapshot), values, snapshot.order,
                    {p.game_id: bool(before.get(p.game_id) and before[p.game_id].fingerprint) for p in tournament.protocols},
                    GameIndex(tournament.protocols))
    problems = (list(parsed.problems) + preset_problems + start_problems + validate(tournament, preset, parsed.unplaced) + list(confirmed.problems)
                + dispute_problems(tournament, parsed.unreadable) + restored_problems(snapshot) + _not_remembered(cut)
                + _registration(snapshot, tournament, preset, found))
    results = compute_standings(tournament, preset, problems)
    gone, gone_problems = _vanished(snapshot, results, last)
    if gone_problems:  # no cell of theirs: they count for no game, they are only said
        results = replace(results, problems=tuple(gone_problems) + results.problems)
    return Outcome(settings=settings, preset=preset, results=results, problems=results.problems,
                   language=settings.language, remember=confirmed.remember, values=values, changes=found,
                   live=current_liveness(results), vanished=gone, oversized=frozenset(cut),
                   draw_figures=draw_figures(snapshot.tabs, settings.language))


def _registration(snapshot: Snapshot, tournament: Tournament, preset: Preset, found: Sequence[Change]) -> list[Problem]:
    """The registration's warnings (issue 45): places, the waiting list's order, a late «Пропуск»
    (``found``: this sync's changes, not logged yet)."""
    filled_at, this_sync = excuses_filled_at(snapshot, tournament, found)
    return (registration_problems(tournament, preset.registration)
            + late_excuses(tournament, filled_at, preset.registration, this_sync) + _unknown_zone(snapshot, tournament))


def _unknown_zone(snapshot: Snapshot, tournament: Tournament) -> list[Problem]:
    """«Часовой пояс» the server does not know: the deadline, the excused round's limit and the timed
    draw would be read in the server's own zone, hours off — a warning at the cell."""
    typed = tournament.time_zone
    title = find_tab(snapshot.tabs, "tournament")
    if not typed or zone(typed) is not None or title is None:
        return []
    labels = {L.norm(w) for w in L.TOURNAMENT_LABELS["time_zone"]}
    row = next((r for r, cells in enumerate(snapshot.tabs[title]) if cells and L.norm(cells[0]) in labels), None)
    return [problem("registration.unknown_time_zone", Severity.WARNING,
                    Location(title, f"B{row + 1}") if row is not None else None, value=typed)]


def _not_remembered(cut: dict[str, str]) -> list[Problem]:
    """A warning for each tab too full for the state to remember (garbage pasted), at its A1: the first
    line of the tab on the Problems tab, whose list of it is capped (the cell it stops at is said)."""
    n = Text(f"{CELLS_REMEMBERED:,}".replace(",", "\u00a0"), f"{CELLS_REMEMBERED:,}")
    return [problem("values.not_remembered", Severity.WARNING, Location(tab, "A1"), tab=tab, n=n, cell=cell)
            for tab, cell in cut.items()]


def _vanished(snapshot: Snapshot, results: Results, last: LastSync | None) -> tuple[Vanished, list[Problem]]:
    t = results.tournament
    return vanished(last, snapshot.tabs, {p.key for p in results.counted}, {(e.stage, e.round, e.table) for e in t.seating},
                    find_tab(snapshot.tabs, "seating") is not None, results.preset)


def _rating_starts(snapshot: Snapshot, tournament: Tournament, preset: Preset) -> tuple[tuple, list[Problem]]:
    """The ratings typed on the Players tab, read only when the preset has a ``[rating]``."""
    if preset.rating is None:
        return (), []
    return starts_on_players_tab(snapshot.tabs, {p.nickname: p.nickname for p in tournament.players})


# -- the workbook as the sync sees it -------------------------------------------------------------
def owned_tab_titles(snapshot: Snapshot) -> set[str]:
    """Normalised titles of the tabs the sync owns in this workbook (stage tabs follow its preset;
    the default preset's while the one named cannot be loaded — the sync then stops anyway)."""
    try:
        preset, _ = _load_preset_for(read_settings(snapshot.tabs), workbook_folder(snapshot.source))
    except PresetUnavailable:
        preset, _ = load_preset(DEFAULT_PRESET)
    return owned_titles(preset)


def workbook_view(snapshot: Snapshot) -> Snapshot:
    """The snapshot the sync computes from.  With a separate results workbook (``--output``)
    the owned tabs are taken from there — the sync compares its results with what that
    workbook really holds — and stale copies of them in the judges' workbook are ignored."""
    results_workbook = snapshot.results_workbook
    if results_workbook is None:
        return snapshot
    owned = owned_tab_titles(snapshot)
    tabs = {t: g for t, g in snapshot.tabs.items() if L.norm(t) not in owned}
    order = [t for t in snapshot.order if t in tabs]
    for title in results_workbook.order:
        if title not in tabs:
            tabs[title] = results_workbook.tabs[title]
            order.append(title)
    return Snapshot(tabs=tabs, order=tuple(order), locale=snapshot.locale, source=snapshot.source,
                    token=snapshot.token, protections=results_workbook.protections, fingerprint=snapshot.fingerprint)


def read_workbook(backend: Backend) -> Snapshot:
    """One read of the workbook, as the sync sees it (:func:`workbook_view`)."""
    return workbook_view(backend.read())
