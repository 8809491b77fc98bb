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
hides it and the chief judge has not released it, and without a secret of a game in play
(:mod:`scoring.secrecy`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction

from scoring import ci as ci_mod
from scoring.collation import name_key
from scoring.items import GameLine
from scoring.memo import last_answer
from scoring.metrics import METRICS, Metric
from scoring.model import GameIndex, PenaltyReason, Player, PlayerStatus, Protocol, Tournament
from scoring.names import nearest_hint
from scoring.nominations import Nomination, nominate
from scoring.points import score_protocol
from scoring.preset import Preset
from scoring.problems import Problem, Severity, problem
from scoring.ranking import Placed, place
from scoring.secrecy import public_problems, secrets
from scoring.stats import AppliedPenalty, CiAccount, PlayerStats, player_stats
from scoring.trust import cancelled_games, disputed_games

__all__ = ["Standing", "Cut", "Results", "ScoreMemo", "compute", "overall_standings", "rank", "published", "released",
           "kept_secret", "hidden_stages", "hidden_sheets", "withheld_sheets",
           "game_states", "GAME_STATES",
           "RELEASE_WORDS"]

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


@dataclass(frozen=True, kw_only=True, slots=True, weakref_slot=True)  # weakly held by scoring.memo
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
    nominations: tuple[Nomination, ...] = ()  # in the preset's order
    hidden: frozenset[str] = frozenset()  # stage keys left out (see published())
    input_problems: tuple[Problem, ...] = ()  # the problems compute() was given
    withheld: frozenset[str] = frozenset()  # protocol tabs left out awaiting confirmation (public view)
    disputed: frozenset[str] = frozenset()  # protocol tabs with an open dispute
    cancelled: frozenset[str] = frozenset()  # protocol tabs of games an accepted dispute cancelled

    awaiting_confirmation: int = 0  # finished games left out of these results until a second judge confirms them
    # every counted game's lines as scored here (by the protocol's identity): the race scores the
    # same games again for each round, and starts from these
    scored: ScoreMemo = field(default_factory=dict, compare=False, repr=False)


# -- counting ---------------------------------------------------------------------------------------
def counted_protocols(protocols: Iterable[Protocol], problems: Iterable[Problem]) -> tuple[Protocol, ...]:
    """A game counts when it is finished and no error points into its tab (into its block, when
    the tab holds several)."""
    protocols = tuple(protocols)
    games = GameIndex(protocols)
    broken = {games.game_at(p.location) for p in problems if p.severity is Severity.ERROR and p.location is not None}
    return tuple(p for p in protocols if p.finished and p.game_id not in broken)


def _participants(t: Tournament, preset: Preset, counted: Sequence[Protocol]) -> dict[str, frozenset[str]]:
    result: dict[str, set[str]] = {s.key: set() for s in preset.stages}
    for entry in t.seating:
        if entry.stage in result:
            result[entry.stage].update(p for p in entry.players if p)
    for p in counted:
        if p.stage in result:
            result[p.stage].update(s.player for s in p.seats if s.player)
    reserves = t.reserves
    first = preset.stage_keys[0]
    result[first].update(pl.nickname for pl in t.players)
    return {k: frozenset(v - reserves) for k, v in result.items()}


def tournament_penalties(t: Tournament, preset: Preset, counted: Sequence[Protocol]) -> tuple[list[AppliedPenalty], list[Problem]]:
    """Typed penalties plus missed rounds derived from seating vs counted protocols."""
    excused, problems = _excused_rounds(t, preset)
    typed, typed_problems = _typed_penalties(t, preset, excused)
    return typed + _missed_rounds_found(t, preset, counted, excused, typed), problems + typed_problems


def _excused_rounds(t: Tournament, preset: Preset) -> tuple[set[tuple[str, str, int]], list[Problem]]:
    """(player, first stage, round) of every announced skip the preset allows; a warning for each player with more."""
    first_stage = preset.stage_keys[0]
    excused: set[tuple[str, str, int]] = set()
    problems: list[Problem] = []
    for pl in t.players:
        rounds = sorted(pl.excused_rounds)
        if len(rounds) > preset.excused_rounds:
            problems.append(problem("penalty.excused_many", Severity.WARNING, pl.location, player=pl.nickname,
                                    limit=preset.excused_rounds, count=len(rounds)))
        excused.update((pl.nickname, first_stage, r) for r in rounds[: preset.excused_rounds])
    return excused, problems


def _typed_penalties(t: Tournament, preset: Preset, excused: Collection[tuple[str, str, int]]) -> tuple[list[AppliedPenalty], list[Problem]]:
    """The Penalties tab: the points typed, or else what the preset gives for a missed round or lateness."""
    known = {p.nickname for p in t.players}
    applied: list[AppliedPenalty] = []
    problems: list[Problem] = []
    for e in t.penalties:
        if e.player not in known:
            problems.append(problem("penalty.unknown_player", Severity.ERROR, e.location, player=e.player,
                                    hint=nearest_hint(e.player, known)))
            continue
        points = e.points
        skip = False
        if points is None:
            if e.reason is PenaltyReason.MISSED_ROUND:
                skip = (e.player, e.stage, e.round) in excused
                points = ZERO if skip else preset.missed_round
            elif e.reason is PenaltyReason.LATE:
                points = preset.lateness_points(e.minutes_late or 0)
                if points is None:
                    problems.append(problem("penalty.late_tier", Severity.WARNING, e.location, minutes=e.minutes_late or 0))
                    points = ZERO
            else:
                points = ZERO
        applied.append(AppliedPenalty(player=e.player, stage=e.stage, round=e.round, reason=e.reason, points=points,
                                      excused=skip, entry=e))
    return applied, problems


def _missed_rounds_found(t: Tournament, preset: Preset, counted: Sequence[Protocol],
                         excused: Collection[tuple[str, str, int]], typed: Sequence[AppliedPenalty]) -> list[AppliedPenalty]:
    """Players seated in a counted game they did not play, unless the Penalties tab already has that round."""
    known = {p.nickname for p in t.players}
    typed_missed = {(p.player, p.stage, p.round) for p in typed if p.reason is PenaltyReason.MISSED_ROUND}
    played = {(p.stage, p.round, s.player) for p in counted for s in p.seats if s.player}
    counted_games = {(p.stage, p.round, p.table) for p in counted}
    found: list[AppliedPenalty] = []
    for entry in t.seating:
        if (entry.stage, entry.round, entry.table) not in counted_games:
            continue
        for nickname in entry.players:
            if not nickname or nickname not in known or (entry.stage, entry.round, nickname) in played:
                continue
            if (nickname, entry.stage, entry.round) in typed_missed:
                continue
            skip = (nickname, entry.stage, entry.round) in excused
            found.append(AppliedPenalty(player=nickname, stage=entry.stage, round=entry.round,
                                        reason=PenaltyReason.MISSED_ROUND,
                                        points=ZERO if skip else preset.missed_round, excused=skip, derived=True))
    return found


# the lines of games already scored, by the protocol's identity (hashing a frozen protocol by value
# would cost about what scoring it does): for callers that compute the standings of the same games
# with the same preset and players many times over (scoring.race)
ScoreMemo = dict[int, tuple[Protocol, tuple[GameLine, ...]]]


def _scored(memo: ScoreMemo, p: Protocol, preset: Preset, reserves: frozenset[str]) -> tuple[GameLine, ...]:
    known = memo.get(id(p))
    if known is not None and known[0] is p:
        return known[1]
    lines = score_protocol(p, preset, reserves=reserves)
    memo[id(p)] = (p, lines)  # the protocol is kept with its lines, so its id is never reused meanwhile
    return lines


# -- the tables -----------------------------------------------------------------------------------
def compute(t: Tournament, preset: Preset, problems: Sequence[Problem], *, hide: Iterable[str] = (),
            withhold: Iterable[str] = (), scored: ScoreMemo | None = None) -> Results:
    """Score every counted game, apply tournament penalties, rank per stage and overall.

    ``hide``: stage keys whose games, seating and penalties are left out (a hidden final,
    see :func:`published`); the cut into a hidden stage is still reported.  ``withhold``:
    protocol tabs that do not count here (unconfirmed, in the public view).  A game an accepted
    dispute cancelled never counts, and its seats are not missed rounds."""
    hidden = frozenset(hide)
    withheld = frozenset(withhold)
    t = _without_stages(t, hidden)
    awaiting = sum(1 for p in t.protocols if p.game_id in withheld and p.finished)
    if withheld:  # a withheld protocol is not shown at all, only counted as awaiting
        t = replace(t, protocols=tuple(p for p in t.protocols if p.game_id not in withheld))
    scored = {} if scored is None else scored
    cancelled, counted, tally, penalty_problems = _tallied(t, preset, problems, scored)
    stage_tables, qualifying = _stage_tables(tally)
    overall = _overall(tally, qualifying, _ranked_stages(t, preset, counted))
    return Results(
        tournament=t,
        preset=preset,
        overall=overall,
        stages=stage_tables,
        cuts=_cuts(stage_tables, t, preset, counted),
        counted=counted,
        lines=ci_mod.with_ci(tally.base_lines, preset),
        penalties=tally.penalties,
        problems=tuple(problems) + tuple(penalty_problems),
        participants=tally.participants,
        nominations=nominate(preset.nominations, [st.stats for st in overall]),
        hidden=hidden,
        input_problems=tuple(problems),
        withheld=withheld,
        disputed=disputed_games(t),
        cancelled=cancelled,
        awaiting_confirmation=awaiting,
        scored=scored,
    )


def overall_standings(t: Tournament, preset: Preset, problems: Sequence[Problem], *, hide: Iterable[str] = (),
                      scored: ScoreMemo | None = None) -> tuple[Standing, ...]:
    """``compute(t, preset, problems, hide=hide, scored=scored).overall`` without the rest of the
    results (the stage tables, cuts, nominations), for the race's many rounds: the same places,
    shared places, tiebreaks and statistics, except that a player's ``qualifying_place`` stays
    None unless the ranking reads it (the final's tiebreak chain names it and the final is
    reached) — the qualifying table is ranked only then."""
    t = _without_stages(t, frozenset(hide))
    _, counted, tally, _ = _tallied(t, preset, problems, {} if scored is None else scored)
    reached = _ranked_stages(t, preset, counted)
    needed = "qualifying_place" in preset.tiebreaks and preset.stage_keys[-1] in reached
    return _overall(tally, _qualifying(_stage_table(tally, 0, {})) if needed else {}, reached)


def _tallied(t: Tournament, preset: Preset, problems: Sequence[Problem],
             scored: ScoreMemo) -> tuple[frozenset[str], tuple[Protocol, ...], _Tally, list[Problem]]:
    """The cancelled games, the counted ones, what the tables are ranked from, and the problems of
    the penalties; each game scored once into ``scored`` (the race scores the same games again
    and again, starting from the memo of compute)."""
    cancelled = cancelled_games(t)
    counted = tuple(p for p in counted_protocols(t.protocols, problems) if p.game_id not in cancelled)
    reserves = t.reserves
    base_lines = tuple(ln for p in counted for ln in _scored(scored, p, preset, reserves))
    applied, penalty_problems = tournament_penalties(t, preset, counted)
    tally = _Tally(preset=preset, players=tuple(p for p in t.players if p.ranked),
                   participants=_participants(t, preset, counted), base_lines=base_lines, penalties=tuple(applied))
    return cancelled, counted, tally, penalty_problems


GAME_STATES = ("unconfirmed", "changed", "edited", "disputed", "cancelled")


def game_states(results: Results) -> dict[str, tuple[str, ...]]:
    """Protocol (:attr:`~scoring.model.Protocol.game_id`) -> what the outputs say about the game (keys of :data:`GAME_STATES`):
    not confirmed (when confirmation is required), changed after confirmation (now),
    edited after confirmation (and confirmed again), disputed (an open dispute), cancelled
    (an accepted dispute)."""
    t = results.tournament
    states: dict[str, tuple[str, ...]] = {}
    for p in t.protocols:
        found = []
        changed = p.game_id in t.edited_after_confirmation and p.game_id in t.unconfirmed
        if p.game_id in t.unconfirmed and not changed:
            found.append("unconfirmed")
        if changed:
            found.append("changed")
        elif p.game_id in t.edited_after_confirmation:
            found.append("edited")
        if p.game_id in results.disputed:
            found.append("disputed")
        if p.game_id in results.cancelled:
            found.append("cancelled")
        if found:
            states[p.game_id] = tuple(found)
    return states


def _without_stages(t: Tournament, hidden: frozenset[str]) -> Tournament:
    """The tournament without the games, seating and penalties of ``hidden`` stages."""
    if not hidden:
        return t
    return replace(t, protocols=tuple(p for p in t.protocols if p.stage not in hidden),
                   seating=tuple(e for e in t.seating if e.stage not in hidden),
                   penalties=tuple(e for e in t.penalties if e.stage not in hidden))


@dataclass(frozen=True, kw_only=True, slots=True)
class _Tally:
    """What every table is ranked from: the scored games, the penalties, who took part where."""

    preset: Preset
    players: tuple[Player, ...]  # ranked (no reserves), in registration order
    participants: Mapping[str, frozenset[str]]  # stage key -> nicknames
    base_lines: tuple[GameLine, ...]  # every counted game scored, Ci not set yet
    penalties: tuple[AppliedPenalty, ...]

    def stats(self, players: Iterable[Player], stages: Collection[str] | None,
              qualifying: Mapping[str, int]) -> dict[str, PlayerStats]:
        """The statistics of ``players`` over the games and penalties of ``stages`` (all when
        None), with Ci as it stood after those games."""
        preset = self.preset
        lines: dict[str, list[GameLine]] = defaultdict(list)
        for ln in ci_mod.with_ci(self.base_lines, preset, stages=stages):
            lines[ln.player].append(ln)
        penalties: dict[str, list[AppliedPenalty]] = defaultdict(list)
        for ap in self.penalties:
            if stages is None or ap.stage in stages:
                penalties[ap.player].append(ap)
        accounts = _accounts_by_player(ci_mod.accounts(self.base_lines, preset, stages=stages)
                                       if preset.ci.enabled else {})
        return {pl.nickname: player_stats(pl, lines[pl.nickname], penalties[pl.nickname], preset.stage_keys,
                                          accounts.get(pl.nickname, ()),
                                          max_missed_rounds=preset.max_missed_rounds,
                                          disqualified_eligible=preset.disqualified_eligible,
                                          qualifying_place=qualifying.get(pl.nickname))
                for pl in players}

    def took_part(self, stage: str) -> list[Player]:
        return [pl for pl in self.players if pl.nickname in self.participants[stage]]


def _accounts_by_player(table: Mapping[tuple[str, tuple[str, ...]], CiAccount]) -> dict[str, tuple[CiAccount, ...]]:
    """Each player's Ci accounts, in the table's order (grouped in one pass: looking each player's
    up in the whole table made a Ci preset's tables quadratic in the players)."""
    grouped: dict[str, list[CiAccount]] = defaultdict(list)
    for (player, _), account in table.items():
        grouped[player].append(account)
    return {player: tuple(accounts) for player, accounts in grouped.items()}


def _stage_tables(tally: _Tally) -> tuple[dict[str, tuple[Standing, ...]], dict[str, int]]:
    """One table per stage, counting the games up to it; and each player's place after qualifying."""
    tables: dict[str, tuple[Standing, ...]] = {}
    qualifying: dict[str, int] = {}
    for i, key in enumerate(tally.preset.stage_keys):
        tables[key] = _stage_table(tally, i, qualifying)
        if i == 0:
            qualifying = _qualifying(tables[key])
    return tables, qualifying


def _stage_table(tally: _Tally, i: int, qualifying: Mapping[str, int]) -> tuple[Standing, ...]:
    """The table of the ``i``-th stage: its players ranked by the games up to it."""
    keys = tally.preset.stage_keys
    members = tally.stats(tally.took_part(keys[i]), frozenset(keys[: i + 1]), qualifying)
    return tuple(rank(members.values(), tally.preset.tiebreaks, final=(i == len(keys) - 1 and i > 0), group=keys[i]))


def _qualifying(table: Iterable[Standing]) -> dict[str, int]:
    return {st.stats.player: st.place for st in table}


def _ranked_stages(t: Tournament, preset: Preset, counted: Sequence[Protocol]) -> tuple[str, ...]:
    """The stages the overall standings rank by: the first, and each later one once the stage
    before it is complete (every game seated or played for it counted, as many rounds as the
    stage has) or confirmed by the chief judge («Этап подтверждён»).  A seating typed for the
    semifinal while the qualifying is still played does not lift its players above the rest."""
    keys = preset.stage_keys
    done = {p.key for p in counted}
    games = {(e.stage, e.round, e.table) for e in t.seating} | {p.key for p in t.protocols}
    reached = [keys[0]]
    for before, key in zip(keys, keys[1:]):
        scheduled = {g for g in games if g[0] == before}
        complete = bool(scheduled) and scheduled <= done and len({r for _, r, _ in scheduled}) >= preset.stage(before).games
        if not (complete or before in t.confirmed_stages):
            break
        reached.append(key)
    return tuple(reached)


def _overall(tally: _Tally, qualifying: Mapping[str, int], reached: Sequence[str]) -> tuple[Standing, ...]:
    """Finalists first, then semifinalists, then the rest, each group ranked by its own totals —
    as far as the stages are ``reached`` (:func:`_ranked_stages`).  Before a stage is reached
    its players are ranked with everyone by their totals (every counted game and penalty, as
    their pages show them), as if the stage did not exist yet."""
    preset = tally.preset
    keys = preset.stage_keys
    stats = tally.stats(tally.players, None, qualifying)
    overall: list[Standing] = []
    placed: set[str] = set()
    for key in (reversed(reached) if preset.finalists_first else [keys[0]]):
        members = [stats[pl.nickname] for pl in tally.took_part(key) if pl.nickname not in placed]
        final = key == keys[-1] and len(keys) > 1
        part = rank(members, preset.tiebreaks, final=final, group=key, start=len(overall) + 1)
        overall.extend(part)
        placed.update(s.stats.player for s in part)
    return tuple(overall)


def _cuts(tables: Mapping[str, Sequence[Standing]], t: Tournament, preset: Preset, counted: Sequence[Protocol]) -> dict[str, Cut]:
    """The cut into every stage after the first, from the table of the stage before it."""
    return {nxt.key: _cut(tables[before.key], nxt.key, before.key, nxt.players, t, preset, counted)
            for before, nxt in zip(preset.stages, preset.stages[1:])}


# -- ranking ------------------------------------------------------------------------------------------
def _exact_total(stats: PlayerStats) -> Fraction | Decimal:
    """The exact total: the Fraction when Ci makes one, else the Decimal total, which is exact too
    (a Decimal and a Fraction compare exactly; a sort of Decimals runs in C, a sort of Fractions
    in Python)."""
    return stats.exact if stats.exact is not None else stats.total


def rank(stats: Iterable[PlayerStats], chain: Sequence[str], *, final: bool = False, group: str = "", start: int = 1,
         by: Callable[[PlayerStats], Fraction] | None = None) -> list[Standing]:
    """Sort by (``by``: the exact total, chain…) best first; equal tuples share a place; name the separating metric.

    Players with equal keys are listed in nickname order so that the output never depends
    on the order of the input.  Players without a counted game come last and share no place
    with anybody who played (the outputs show them without a place, not as «9–40»).  A club
    season ranks ``by`` the average per game (:mod:`scoring.season`).
    """
    metrics = [METRICS[k] for k in chain if final or not METRICS[k].final_only]
    score = by or _exact_total
    placed = place(stats, key=lambda s: (s.games > 0, score(s), *(m.rank_key(s) for m in metrics)),
                   listing=lambda s: name_key(s.player), start=start)
    return [Standing(place=p.place, places=p.places, stats=p.entry, tiebreak=_why_above(p, below, metrics, score),
                     group=group)
            for p, below in zip(placed, [*placed[1:], None])]


def _why_above(this: Placed[PlayerStats], below: Placed[PlayerStats] | None, metrics: Sequence[Metric],
               by: Callable[[PlayerStats], Fraction]) -> str | None:
    """Why ``this`` is above the next player although their scores are equal: a metric key,
    "exact_total" (totals equal only when rounded for display), "shared"; None when the scores differ."""
    if below is None:
        return None
    a, b = this.entry, below.entry
    # the keys they were placed by (rank's): played or not, the score, then each metric's key
    (played_a, score_a, *metric_keys_a), (played_b, score_b, *metric_keys_b) = this.key, below.key
    if played_a != played_b:
        return None  # the next one has not played yet
    if by is _exact_total and b.total == a.total and score_b != score_a:
        return "exact_total"  # equal when rounded for display, not exactly (Ci)
    if score_b != score_a:
        return None
    if below.place == this.place:
        return "shared"
    return next((m.key for m, ka, kb in zip(metrics, metric_keys_a, metric_keys_b) if ka != kb), "shared")


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
    return frozenset(p.game_id for p in results.tournament.protocols if p.stage in hide)


@last_answer  # the Standings tab and every public file of one sync ask for it
def published(results: Results) -> Results:
    """The results the site, the VK post and standings.json may show: :func:`released` (no
    hidden final), and every game in play without its secrets (:func:`kept_secret`).
    Idempotent: ``published(published(r)) is published(r)``.  The organizers' own tabs
    use the full results."""
    return kept_secret(released(results))


def kept_secret(results: Results) -> Results:
    """``results`` with each game in play as :func:`scoring.secrecy.public_protocol` shows it and
    the problems as :func:`scoring.secrecy.public_problems` says them; the standings are the same
    (a game in play counts for nobody).  The same object when no game in play hides anything."""
    known = secrets(results.tournament, results.preset)
    if known is None:
        return results
    problems = public_problems(results.tournament, results.preset, results.problems, known)
    if known.shown is results.tournament and problems == results.problems:
        return results
    return replace(results, tournament=known.shown, problems=problems,
                   input_problems=public_problems(results.tournament, results.preset, results.input_problems, known))


def released(results: Results) -> Results:
    """The results without what the chief judge has not released yet.

    Unchanged when nothing is hidden; otherwise recomputed without the hidden final's
    games, seating and penalties (the standings are those after the semifinal, the cut
    into the final is still listed), and without the problems of the final's tabs."""
    hide = hidden_stages(results)
    withhold = withheld_sheets(results)
    if (not hide or hide <= results.hidden) and withhold <= results.withheld:
        return results
    sheets = hidden_sheets(results) | withhold
    games = GameIndex(results.tournament.protocols)
    problems = [p for p in results.input_problems if games.game_at(p.location) not in sheets]
    return compute(results.tournament, results.preset, problems, hide=hide | results.hidden,
                   withhold=withhold | results.withheld)


def withheld_sheets(results: Results) -> frozenset[str]:
    """Protocol tabs the public outputs leave out until a second judge confirms them (when the
    preset's ``publish.confirmation`` is on; the organizers' own tabs count them, marked)."""
    if not results.preset.confirmation:
        return frozenset()
    return results.tournament.unconfirmed


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
