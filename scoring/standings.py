"""Standings: tournament penalties, per-player totals, ranking with the tiebreak chain, cuts.

Ranking sorts by the tuple (total, metric keys in the preset's order), best first (each
metric declares which direction is better, see :mod:`scoring.metrics`).  Players whose
tuples are equal share a place ("5–6", :mod:`scoring.ranking`); for every pair of
neighbours with equal totals the standings name the metric that separated them.  Overall,
finalists are ranked first, then semifinalists, then everyone else (each group by its own
totals).

Ci (:mod:`scoring.ci`) is exact (a Fraction): ranking compares ``PlayerStats.exact_total``;
``PlayerStats.total`` is the same value with the player's Ci sum rounded once for display.
Each stage table counts Ci only over the games up to that stage, so a cut does not move
when later stages are played; the overall table carries the current Ci of every game.

Hidden final: :func:`published` returns the results the public outputs (site, VK post,
standings.json) may show — without the final while the preset (or the Tournament tab)
hides it and the chief judge has not released it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from scoring import ci as ci_mod
from scoring.items import GameLine
from scoring.metrics import METRICS, Metric
from scoring.model import PenaltyReason, Player, PlayerStatus, Protocol, Tournament
from scoring.points import score_protocol
from scoring.preset import Preset
from scoring.problems import Problem, Severity, problem
from scoring.ranking import Placed, place
from scoring.stats import AppliedPenalty, CiAccount, PlayerStats, player_stats

__all__ = ["Standing", "Cut", "Results", "compute", "rank",
           "published", "hidden_stages", "hidden_sheets", "RELEASE_WORDS"]

ZERO = Decimal(0)


@dataclass(frozen=True, kw_only=True, slots=True)
class Standing:
    place: int
    places: str  # "5" or "5–6"
    stats: PlayerStats
    # why this player is above the next one with an equal total: metric key, "shared", or None
    tiebreak: str | None = None
    group: str = ""  # stage key of the last stage the player reached (overall standings)


@dataclass(frozen=True, kw_only=True, slots=True)
class Cut:
    """Who goes on from ``after`` to ``stage``; ``tied`` lists players sharing the cut line."""

    stage: str
    after: str
    size: int
    players: tuple[str, ...]
    tied: tuple[str, ...] = ()
    complete: bool = False  # every game of ``after`` is counted


@dataclass(frozen=True, kw_only=True, slots=True)
class Results:
    tournament: Tournament
    preset: Preset
    overall: tuple[Standing, ...]
    stages: Mapping[str, tuple[Standing, ...]]
    cuts: Mapping[str, Cut]
    counted: tuple[Protocol, ...]
    lines: tuple[GameLine, ...]
    penalties: tuple[AppliedPenalty, ...]
    problems: tuple[Problem, ...]
    participants: Mapping[str, frozenset[str]]
    nominations: tuple = ()  # scoring.nominations.Nomination, in the preset's order
    hidden: frozenset[str] = frozenset()  # stage keys left out (see published())
    input_problems: tuple[Problem, ...] = ()  # the problems compute() was given


# -- counting ---------------------------------------------------------------------------------------
def counted_protocols(protocols: Iterable[Protocol], problems: Iterable[Problem]) -> tuple[Protocol, ...]:
    """A game counts when it is finished and no error points into its tab."""
    broken = {p.sheet for p in problems if p.severity is Severity.ERROR and p.location is not None}
    return tuple(p for p in protocols if p.finished and p.sheet not in broken)


def _participants(t: Tournament, preset: Preset, counted: Sequence[Protocol]) -> dict[str, frozenset[str]]:
    result: dict[str, set[str]] = {s.key: set() for s in preset.stages}
    for entry in t.seating:
        if entry.stage in result:
            result[entry.stage].update(p for p in entry.players if p)
    for p in counted:
        if p.stage in result:
            result[p.stage].update(s.player for s in p.seats if s.player)
    reserves = {pl.nickname for pl in t.players if pl.status is PlayerStatus.RESERVE}
    first = preset.stage_keys[0]
    result[first].update(pl.nickname for pl in t.players)
    return {k: frozenset(v - reserves) for k, v in result.items()}


def tournament_penalties(t: Tournament, preset: Preset, counted: Sequence[Protocol]) -> tuple[list[AppliedPenalty], list[Problem]]:
    """Typed penalties plus missed rounds derived from seating vs counted protocols."""
    applied: list[AppliedPenalty] = []
    problems: list[Problem] = []
    known = {p.nickname for p in t.players}
    typed_missed: set[tuple[str, str, int | None]] = set()
    first_stage = preset.stage_keys[0]
    excused_ok: dict[str, frozenset[int]] = {}
    for pl in t.players:
        rounds = sorted(pl.excused_rounds)
        if len(rounds) > preset.excused_rounds:
            problems.append(problem("penalty.excused_many", Severity.WARNING, pl.location, player=pl.nickname,
                                    limit=preset.excused_rounds, count=len(rounds)))
        excused_ok[pl.nickname] = frozenset(rounds[: preset.excused_rounds])

    for e in t.penalties:
        if e.player not in known:
            problems.append(problem("penalty.unknown_player", Severity.ERROR, e.location, player=e.player, hint=""))
            continue
        points = e.points
        excused = False
        if points is None:
            if e.reason is PenaltyReason.MISSED_ROUND:
                excused = e.stage == first_stage and e.round in excused_ok.get(e.player, frozenset())
                points = ZERO if excused else preset.missed_round
            elif e.reason is PenaltyReason.LATE:
                points = preset.lateness_points(e.minutes_late or 0)
                if points is None:
                    problems.append(problem("penalty.late_tier", Severity.WARNING, e.location, minutes=e.minutes_late or 0))
                    points = ZERO
            else:
                points = ZERO
        if e.reason is PenaltyReason.MISSED_ROUND:
            typed_missed.add((e.player, e.stage, e.round))
        applied.append(AppliedPenalty(player=e.player, stage=e.stage, round=e.round, reason=e.reason, points=points,
                                      excused=excused, entry=e))

    played = {(p.stage, p.round, s.player) for p in counted for s in p.seats if s.player}
    counted_games = {(p.stage, p.round, p.table) for p in counted}
    for entry in t.seating:
        if (entry.stage, entry.round, entry.table) not in counted_games:
            continue
        for nickname in entry.players:
            if not nickname or nickname not in known or (entry.stage, entry.round, nickname) in played:
                continue
            if (nickname, entry.stage, entry.round) in typed_missed:
                continue
            excused = entry.stage == first_stage and entry.round in excused_ok.get(nickname, frozenset())
            applied.append(AppliedPenalty(player=nickname, stage=entry.stage, round=entry.round,
                                          reason=PenaltyReason.MISSED_ROUND,
                                          points=ZERO if excused else preset.missed_round,
                                          excused=excused, derived=True))
    return applied, problems


def _stats(player: Player, lines: Sequence[GameLine], penalties: Sequence[AppliedPenalty], preset: Preset,
           stage_keys: Sequence[str], ci_accounts: Sequence[CiAccount] = ()) -> PlayerStats:
    return player_stats(player, lines, penalties, stage_keys, ci_accounts, max_missed_rounds=preset.max_missed_rounds,
                        disqualified_eligible=preset.disqualified_eligible)


# -- ranking ------------------------------------------------------------------------------------------
def rank(stats: Iterable[PlayerStats], chain: Sequence[str], *, final: bool = False, group: str = "", start: int = 1) -> list[Standing]:
    """Sort by (total, chain…) best first; equal tuples share a place; name the separating metric.

    Players with equal keys are listed in nickname order so that the output never depends
    on the order of the input.
    """
    metrics = [METRICS[k] for k in chain if final or not METRICS[k].final_only]
    placed = place(stats, key=lambda s: (s.exact_total, *(m.rank_key(s) for m in metrics)),
                   listing=lambda s: s.player, start=start)
    return [Standing(place=p.place, places=p.places, stats=p.entry, tiebreak=_why_above(p, below, metrics), group=group)
            for p, below in zip(placed, [*placed[1:], None])]


def _why_above(this: Placed[PlayerStats], below: Placed[PlayerStats] | None, metrics: Sequence[Metric]) -> str | None:
    """Why ``this`` is above the next player although their totals are equal: a metric key,
    "exact_total" (equal only when rounded for display), "shared"; None when totals differ."""
    if below is None:
        return None
    a, b = this.entry, below.entry
    if b.total == a.total and b.exact_total != a.exact_total:
        return "exact_total"  # equal when rounded for display, not exactly (Ci)
    if b.exact_total != a.exact_total:
        return None
    if below.place == this.place:
        return "shared"
    return next((m.key for m in metrics if m.rank_key(a) != m.rank_key(b)), "shared")


def _with_place(stats: PlayerStats, place: int | None) -> PlayerStats:
    from dataclasses import replace

    return replace(stats, qualifying_place=place)


def compute(t: Tournament, preset: Preset, problems: Sequence[Problem], *, hide: Iterable[str] = ()) -> Results:
    """Score every counted game, apply tournament penalties, rank per stage and overall.

    ``hide``: stage keys whose games, seating and penalties are left out (a hidden final,
    see :func:`published`); the cut into a hidden stage is still reported."""
    from dataclasses import replace

    from scoring.nominations import nominate

    hidden = frozenset(hide)
    given_problems = tuple(problems)
    if hidden:
        t = replace(t, protocols=tuple(p for p in t.protocols if p.stage not in hidden),
                    seating=tuple(e for e in t.seating if e.stage not in hidden),
                    penalties=tuple(e for e in t.penalties if e.stage not in hidden))
    counted = counted_protocols(t.protocols, problems)
    reserves = frozenset(p.nickname for p in t.players if p.status is PlayerStatus.RESERVE)
    base_lines = tuple(ln for p in counted for ln in score_protocol(p, preset, reserves=reserves))
    lines = ci_mod.with_ci(base_lines, preset)
    ci_table = ci_mod.accounts(base_lines, preset) if preset.ci.enabled else {}
    applied, pen_problems = tournament_penalties(t, preset, counted)
    all_problems = tuple(problems) + tuple(pen_problems)
    participants = _participants(t, preset, counted)
    keys = preset.stage_keys
    ranked_players = [p for p in t.players if p.ranked]
    lines_by: dict[str, list[GameLine]] = defaultdict(list)
    for ln in lines:
        lines_by[ln.player].append(ln)
    pen_by: dict[str, list[AppliedPenalty]] = defaultdict(list)
    for ap in applied:
        pen_by[ap.player].append(ap)

    stage_tables: dict[str, tuple[Standing, ...]] = {}
    cuts: dict[str, Cut] = {}
    qualifying_place: dict[str, int] = {}
    stats_upto: dict[str, dict[str, PlayerStats]] = {}
    for i, key in enumerate(keys):
        upto = set(keys[: i + 1])
        # Ci as it stood with the games up to this stage: the stage table and its cut stay put
        horizon_by: dict[str, list[GameLine]] = defaultdict(list)
        for ln in (ci_mod.with_ci(base_lines, preset, stages=upto) if preset.ci.enabled else lines):
            if ln.stage in upto:
                horizon_by[ln.player].append(ln)
        horizon_accounts = ci_mod.accounts(base_lines, preset, stages=upto) if preset.ci.enabled else {}
        stats = {}
        for pl in ranked_players:
            if pl.nickname not in participants[key]:
                continue
            s = _stats(pl, horizon_by[pl.nickname],
                       [p for p in pen_by[pl.nickname] if p.stage in upto], preset, keys,
                       _accounts_of(horizon_accounts, pl.nickname))
            stats[pl.nickname] = _with_place(s, qualifying_place.get(pl.nickname))
        stats_upto[key] = stats
        table = tuple(rank(stats.values(), preset.tiebreaks, final=(i == len(keys) - 1 and i > 0), group=key))
        stage_tables[key] = table
        if i == 0:
            qualifying_place = {st.stats.player: st.place for st in table}
        if i + 1 < len(keys):
            nxt = preset.stages[i + 1]
            cuts[nxt.key] = _cut(table, nxt.key, key, nxt.players, t, preset, counted)

    # overall: finalists first, then semifinalists, then the rest
    overall: list[Standing] = []
    placed: set[str] = set()
    groups = list(reversed(keys)) if preset.finalists_first else [keys[0]]
    for gi, key in enumerate(groups):
        members = []
        for pl in ranked_players:
            if pl.nickname in placed or pl.nickname not in participants[key]:
                continue
            s = _stats(pl, lines_by[pl.nickname], pen_by[pl.nickname], preset, keys,
                       _accounts_of(ci_table, pl.nickname))
            members.append(_with_place(s, qualifying_place.get(pl.nickname)))
        final = key == keys[-1] and len(keys) > 1
        part = rank(members, preset.tiebreaks, final=final, group=key, start=len(overall) + 1)
        overall.extend(part)
        placed.update(s.stats.player for s in part)

    return Results(
        tournament=t,
        preset=preset,
        overall=tuple(overall),
        stages=stage_tables,
        cuts=cuts,
        counted=counted,
        lines=lines,
        penalties=tuple(applied),
        problems=all_problems,
        participants=participants,
        nominations=nominate(preset.nominations, [st.stats for st in overall]),
        hidden=hidden,
        input_problems=given_problems,
    )


def _accounts_of(table: Mapping[tuple[str, tuple[str, ...]], CiAccount], player: str) -> tuple[CiAccount, ...]:
    return tuple(a for (p, _), a in table.items() if p == player)


# -- the hidden final -------------------------------------------------------------------------------
# A "Финал опубликован / Final released" row may hold a yes-word instead of stage names.
RELEASE_WORDS = frozenset({"да", "yes", "y", "+", "1", "x", "х", "true", "опубликован", "опубликовано", "released",
                           "published", "готово", "done"})


def hidden_stages(results: Results) -> frozenset[str]:
    """Stage keys the public outputs must not show yet: the final, while the preset's
    ``publish.hidden_final`` (or the Tournament tab's "скрытый.финал") is on and the chief
    judge has not released it (``Tournament.released`` holds its key or a yes-word)."""
    preset = results.preset
    keys = preset.stage_keys
    if not preset.hidden_final or len(keys) < 2:
        return frozenset()
    final = keys[-1]
    released = {str(v).strip().lower() for v in results.tournament.released}
    if final in released or released & RELEASE_WORDS:
        return frozenset()
    return frozenset({final})


def hidden_sheets(results: Results) -> frozenset[str]:
    """Protocol tabs of hidden stages (their problems stay out of public outputs too)."""
    hide = hidden_stages(results) | results.hidden
    return frozenset(p.sheet for p in results.tournament.protocols if p.stage in hide)


def published(results: Results) -> Results:
    """The results the site, the VK post and standings.json may show.

    Unchanged when nothing is hidden; otherwise recomputed without the hidden final's
    games, seating and penalties (the standings are those after the semifinal, the cut
    into the final is still listed), and without the problems of the final's tabs.
    Idempotent: ``published(published(r)) is published(r)``.  The organizers' own tabs
    use the full results."""
    hide = hidden_stages(results)
    if not hide or hide <= results.hidden:
        return results
    sheets = hidden_sheets(results)
    problems = [p for p in results.input_problems if p.sheet not in sheets]
    return compute(results.tournament, results.preset, problems, hide=hide | results.hidden)


def _cut(table: Sequence[Standing], stage: str, after: str, size: int, t: Tournament, preset: Preset, counted: Sequence[Protocol]) -> Cut:
    """Top ``size`` of ``table`` among players who can still play; ties across the line reported."""
    able = [s for s in table if s.stats.status is PlayerStatus.PLAYING]
    chosen = able[:size]
    tied: tuple[str, ...] = ()
    if len(able) > size and chosen:
        last = chosen[-1]
        nxt = able[size]
        if last.places == nxt.places:
            tied = tuple(s.stats.player for s in able if s.places == last.places)
    games_needed = {(e.stage, e.round, e.table) for e in t.seating if e.stage == after}
    games_done = {(p.stage, p.round, p.table) for p in counted if p.stage == after}
    complete = bool(games_needed) and games_needed <= games_done
    return Cut(stage=stage, after=after, size=size, players=tuple(s.stats.player for s in chosen), tied=tied, complete=complete)
