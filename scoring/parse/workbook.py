"""The whole workbook: every reader, in order, into :class:`Parsed`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from scoring import labels as L
from scoring.model import Protocol, Tournament
from scoring.names import NameIndex
from scoring.preset import Preset
from scoring.problems import Problem
from scoring.values import text
from scoring.parse.disputes import _parse_disputes
from scoring.parse.grid import Grid, find_tab
from scoring.parse.penalties import _parse_penalties
from scoring.parse.players import _parse_players
from scoring.parse.protocols import _protocols_of_tab
from scoring.parse.seating import _parse_seating
from scoring.parse.settings import Settings, stage_lookup
from scoring.parse.typed_names import _Names


# -- the whole workbook ---------------------------------------------------------------------------
def owned_titles(preset: Preset) -> set[str]:
    """Normalised titles of the tabs the sync owns (never read as input)."""
    titles = {L.norm(t) for key in L.OWNED_TABS for t in L.TABS[key]}
    for s in preset.stages:
        titles.add(L.norm(s.name_ru))
        titles.add(L.norm(s.name_en))
    titles.add(L.norm("_sheets_sync"))
    return titles


@dataclass(frozen=True, kw_only=True, slots=True)
class Parsed:
    tournament: Tournament
    problems: tuple[Problem, ...]
    unreadable: frozenset[str] = field(default_factory=frozenset)  # protocol tabs that could not be read at all
    # protocols whose stage, round or table could not be read: they count for nobody, but the
    # rules about their own cells still check them (read with the first stage)
    unplaced: tuple[Protocol, ...] = ()


def parse_tournament(tabs: Mapping[str, Grid], order: Sequence[str], preset: Preset, settings: Settings) -> Parsed:
    problems: list[Problem] = list(settings.problems)
    stages = stage_lookup(preset)
    first_stage = preset.stage_keys[0]
    players, judges, applications = _parse_players(tabs, problems, preset.registration)
    seating = _parse_seating(tabs, stages, first_stage, problems)
    penalties = _parse_penalties(tabs, stages, first_stage, problems)
    disputes = _parse_disputes(tabs, problems)
    input_titles = {find_tab(tabs, k) for k in ("tournament", "players", "seating", "penalties", "disputes")}
    owned = owned_titles(preset)
    protocols: list[Protocol] = []
    unreadable: set[str] = set()
    unplaced: list[Protocol] = []
    for title in order:
        if title in input_titles or L.norm(title) in owned or title not in tabs:
            continue
        read = _protocols_of_tab(title, tabs[title], stages, preset)
        if read is None:
            continue
        found, tab_problems = read
        problems.extend(tab_problems)
        for protocol, placed in found:
            if placed:
                protocols.append(protocol)
            else:
                unreadable.add(title)
                unplaced.append(protocol)
    released = {stages.get(v, v) for v in settings.released}
    names = _Names(NameIndex(p.nickname for p in players), problems)
    protocols = [names.protocol(p) for p in protocols]
    unplaced = [names.protocol(p) for p in unplaced]
    seating = tuple(names.seating(e) for e in seating)
    penalties = tuple(names.penalty(e) for e in penalties)
    return Parsed(
        tournament=Tournament(
            name=settings.name,
            preset_id=preset.id,
            language=settings.language,
            chief_judge=settings.chief_judge,
            date=settings.date,
            link=settings.link,
            season=settings.season,
            players=players,
            seating=seating,
            protocols=tuple(protocols),
            penalties=penalties,
            overrides=tuple((k, text(v), loc) for k, v, loc in settings.overrides),
            released=frozenset(released),
            confirmed_stages=frozenset(stages[v] for v in settings.confirmed if v in stages),
            judges=judges,
            mwt_id=settings.mwt_tournament_id,
            disputes=disputes,
            applications=applications,
            places=settings.places,
            registration_until=settings.registration_until,
            starts_at=settings.starts_at,
            draw_at=settings.draw_at,
            time_zone=settings.time_zone,
        ),
        problems=tuple(problems),
        unreadable=frozenset(unreadable),
        unplaced=tuple(unplaced),
    )
