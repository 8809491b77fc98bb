"""Who goes on to the next stage: one decision for `advance`, `replace` and the sync's own advance.

The standings already hold each cut (:class:`scoring.standings.Cut`: the top N of the
previous stage among players who can still play, the players tied across the line, and
whether every game of that stage counted).  This module turns a cut into either a
:class:`StagePlan` — the players to seat, with the clubs of exactly those players, and the
tables and games of the stage — or a :class:`Refusal` that says, in both languages, why
nothing may be seated and what the organizer must decide.  Drawing the seats from a plan
is the caller's business (:mod:`scoring.draw`); writing them is the edges'.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from scoring.collation import name_key
from scoring.draw.formats import Teams
from scoring.model import PlayerStatus, SeatingEntry, Tournament
from scoring.preset import TeamRule
from scoring.problems import Text
from scoring.standings import Results

__all__ = ["StagePlan", "ReplacementPlan", "Refusal", "StageTeams", "next_stage", "clubs_of", "teams_of", "plan_stage",
           "plan_replacement", "crowded_teams", "teams_rule_for", "stage_teams", "teammates_together",
           "replacement_notice"]


@dataclass(frozen=True, kw_only=True, slots=True)
class StagePlan:
    """Seat ``players`` (ranking order) in ``stage``: ``tables`` tables, ``games`` games each."""

    stage: str
    after: str  # the stage whose standings chose them
    players: tuple[str, ...]
    clubs: Mapping[str, str] = field(default_factory=dict)  # club of each seated player who has one
    teams: Mapping[str, str] = field(default_factory=dict)  # team of each seated player who has one
    tables: int
    games: int


@dataclass(frozen=True, kw_only=True, slots=True)
class ReplacementPlan:
    """``newcomer`` takes ``player``'s seats in every game of ``stage``."""

    stage: str
    player: str
    newcomer: str
    entries: tuple[SeatingEntry, ...]  # the stage's seating with the newcomer in place
    players: tuple[str, ...]  # everyone seated in the stage afterwards
    clubs: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True, slots=True)
class Refusal:
    """Nothing may be seated: ``reason`` is a stable key, ``text`` the explanation (ru/en)."""

    reason: str  # all_seated | unknown_stage | incomplete | tie | too_few | not_seated | already_played | nobody_left
    text: Text
    tied: tuple[str, ...] = ()

    def message(self, language: str) -> str:
        return self.text.said(language)


def next_stage(results: Results) -> str | None:
    """The first stage after the first one that has no seating yet (None: all seated)."""
    seated = {e.stage for e in results.tournament.seating}
    return next((key for key in results.preset.stage_keys[1:] if key not in seated), None)


def teams_of(tournament: Tournament, players: Iterable[str]) -> dict[str, str]:
    """Team of each of ``players`` who has one (the Players tab's «Команда»), like :func:`clubs_of`."""
    wanted = set(players)
    return {p.nickname: p.team for p in tournament.players if p.team and p.nickname in wanted}


def clubs_of(tournament: Tournament, players: Iterable[str]) -> dict[str, str]:
    """Club of each of ``players`` who has one — never of anybody else: a draw is given
    the clubs of exactly the players it seats."""
    wanted = set(players)
    return {p.nickname: p.club for p in tournament.players if p.club and p.nickname in wanted}


@dataclass(frozen=True, kw_only=True, slots=True)
class StageTeams:
    """What a later stage's draw does with the seated players' teams: ``teams`` for the draw
    (None: no teams, or the preset's ``[teams]`` neither keeps them apart nor seats one per
    game), and ``notice`` when one member per game cannot hold for this field — which teams,
    and that the draw keeps them apart as well as it can instead (never silently)."""

    teams: Teams | None
    notice: Text | None = None
    crowded: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (team, its players in the stage) over the tables


def crowded_teams(teams: Mapping[str, str], players: Iterable[str], tables: int) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Teams with more players in the field than a round has tables (one per game cannot hold
    for them), each with those players in ranking order; by team name."""
    members: dict[str, list[str]] = {}
    for p in players:
        if teams.get(p):
            members.setdefault(teams[p], []).append(p)
    return tuple((team, tuple(names)) for team, names in sorted(members.items(), key=lambda kv: name_key(kv[0]))
                 if len(names) > tables)


def _crowded_notice(stage: Text, crowded: Sequence[tuple[str, Sequence[str]]], tables: int) -> Text:
    listed = "; ".join(f"{team} — {len(names)}: {', '.join(names)}" for team, names in crowded)
    return Text(
        f"{stage.ru}: по одному игроку команды за игрой не получится — столов в туре {tables}, а в команде больше "
        f"игроков этапа ({listed}). Рассажено как можно лучше: игроки одной команды разведены, где это возможно; "
        "их встречи посчитаны на вкладке «Жеребьёвка»",
        f"{stage.en}: one member of each team per game cannot hold — a round has {tables} table(s) and a team has "
        f"more players in this stage ({listed}). Seated as well as it can be: teammates kept apart where possible; "
        "the draw report counts their meetings")


def teams_rule_for(teams: Mapping[str, str], players: Sequence[str], tables: int, rule: TeamRule,
                   stage: Text) -> StageTeams:
    """The preset's team constraints (``rule``) for a stage's draw of ``players`` (their
    ``teams``) at ``tables`` tables a round, exactly as the first draw applies them: teammates
    apart (``apart``), at most one per game (``one_per_game``, a hard rule) — or, where more of
    one team are in the stage than it has tables, the soft rule with a notice naming those
    teams and their players (``stage``: the stage's name, ru/en)."""
    teams = {p: teams[p] for p in players if teams.get(p)}
    if not teams or not (rule.apart or rule.one_per_game):
        return StageTeams(teams=None)
    if not rule.one_per_game:
        return StageTeams(teams=Teams(of=teams))
    crowded = crowded_teams(teams, players, tables)
    if not crowded:
        return StageTeams(teams=Teams(of=teams, one_per_game=True))
    return StageTeams(teams=Teams(of=teams), notice=_crowded_notice(stage, crowded, tables), crowded=crowded)


def stage_teams(results: Results, plan: StagePlan) -> StageTeams:
    """:func:`teams_rule_for` of a planned stage with the preset's ``[teams]``."""
    return teams_rule_for(plan.teams, plan.players, plan.tables, results.preset.teams,
                          Text(*_names(results, plan.stage)))


def teammates_together(entries: Iterable[SeatingEntry], teams: Mapping[str, str]) -> tuple[tuple[str, tuple[str, ...], int, int], ...]:
    """(team, its players there, round, table) of every game that seats two or more of one team."""
    found = []
    for e in entries:
        members: dict[str, list[str]] = {}
        for p in e.players:
            if p and teams.get(p):
                members.setdefault(teams[p], []).append(p)
        found += [(team, tuple(names), e.round, e.table) for team, names in sorted(members.items()) if len(names) > 1]
    return tuple(found)


def replacement_notice(results: Results, plan: ReplacementPlan) -> Text | None:
    """With ``teams.one_per_game``: the games where the newcomer now sits with a teammate (a
    replacement swaps one name and never reseats the stage), or None."""
    if not results.preset.teams.one_per_game:
        return None
    teams = teams_of(results.tournament, plan.players)
    clashes = [c for c in teammates_together(plan.entries, teams) if plan.newcomer in c[1]]
    if not clashes:
        return None
    ru, en = _names(results, plan.stage)
    listed_ru = "; ".join(f"тур {r}, стол {t}: {', '.join(names)} ({team})" for team, names, r, t in clashes)
    listed_en = "; ".join(f"round {r}, table {t}: {', '.join(names)} ({team})" for team, names, r, t in clashes)
    return Text(f"{ru}: после замены за столом два игрока одной команды — {listed_ru}. Поменяйте их местами "
                "на вкладке «Рассадка»",
                f"{en}: after the replacement a game seats two members of one team — {listed_en}. Swap them on "
                "the Seating tab")


def _names(results: Results, stage: str) -> tuple[str, str]:
    rule = results.preset.stage(stage)
    return rule.name_ru, rule.name_en


def plan_stage(results: Results, *, stage: str | None = None, force: bool = False) -> StagePlan | Refusal:
    """Who is seated in ``stage`` (default: the next stage not seated yet), or why nobody may be.

    ``force`` seats from the standings even though some games of the previous stage are
    missing, unfinished or broken; a tie across the cut line is never decided here (never at
    random): the organizer decides."""
    preset = results.preset
    later = preset.stage_keys[1:]
    if stage is None:
        stage = next_stage(results)
        if stage is None:
            return Refusal(reason="all_seated", text=Text("все этапы уже рассажены", "every stage is already seated"))
    if stage not in later:
        known = ", ".join(later)
        return Refusal(reason="unknown_stage", text=Text(f"неизвестный этап «{stage}» (этапы: {known})",
                                                          f"unknown stage {stage!r} (stages: {known})"))
    cut = results.cuts[stage]
    ru, en = _names(results, stage)
    after_ru, after_en = _names(results, cut.after)
    if not cut.complete and not force:
        return Refusal(reason="incomplete", text=Text(
            f"{after_ru}: не все игры засчитаны (есть несыгранные, незавершённые или с ошибками — см. вкладку "
            f"«Проверка»); --force рассадит всё равно",
            f"{after_en} is not complete: some games are missing, unfinished or have errors (see the Problems tab); "
            "use --force to seat anyway"))
    if cut.tied:
        names = ", ".join(cut.tied)
        return Refusal(reason="tie", tied=cut.tied, text=Text(
            f"{ru}: равенство на линии отсечения — {names} делят место после всех дополнительных показателей. "
            f"Решает организатор: поставьте остальным статус «снялся» или задайте «{stage}.players» на вкладке "
            "«Турнир», затем повторите",
            f"tie at the cut line for {en}: {names} share a place after every tiebreak. "
            f"The organizer must decide who goes on: give the others the status 'снялся' / withdrawn, "
            f"or set '{stage}.players' on the Tournament tab, then run advance again"))
    if len(cut.players) < cut.size:
        return Refusal(reason="too_few", text=Text(
            f"{ru}: нужно {cut.size} игроков, играть могут только {len(cut.players)}",
            f"{en} needs {cut.size} players, only {len(cut.players)} can play"))
    return StagePlan(stage=stage, after=cut.after, players=cut.players,
                     clubs=clubs_of(results.tournament, cut.players), teams=teams_of(results.tournament, cut.players),
                     tables=len(cut.players) // 10, games=preset.stage(stage).games)


def plan_replacement(results: Results, player: str, *, stage: str | None = None) -> ReplacementPlan | Refusal:
    """``player`` (late, absent) is replaced in a seated later stage by the best-ranked player
    of the previous stage who is not seated there yet and can play."""
    preset = results.preset
    seating = results.tournament.seating
    if stage is None:
        stages = [s for s in preset.stage_keys[1:] if any(e.stage == s and player in e.players for e in seating)]
        if not stages:
            return Refusal(reason="not_seated", text=Text(f"«{player}» не рассажен ни в одном следующем этапе",
                                                          f"{player!r} is not seated in a later stage"))
        stage = stages[-1]
    if stage not in preset.stage_keys[1:]:
        known = ", ".join(preset.stage_keys[1:])
        return Refusal(reason="unknown_stage", text=Text(f"неизвестный этап «{stage}» (этапы: {known})",
                                                          f"unknown stage {stage!r} (stages: {known})"))
    entries = [e for e in seating if e.stage == stage]
    ru, en = _names(results, stage)
    if not any(player in e.players for e in entries):
        return Refusal(reason="not_seated", text=Text(f"«{player}» не рассажен в этапе «{ru}»",
                                                      f"{player!r} is not seated in {en}"))
    typed = [p.sheet for p in results.tournament.protocols
             if p.stage == stage and p.winner is not None and any(s.player == player for s in p.seats)]
    if typed:
        games = ", ".join(typed)
        return Refusal(reason="already_played", text=Text(
            f"«{player}» уже сыграл: {games}; замените его в протоколах вручную",
            f"{player!r} already played {games}; replace him in the protocols by hand"))
    after = preset.stage_keys[preset.stage_keys.index(stage) - 1]
    seated = {n for e in entries for n in e.players if n}
    candidates = [st.stats.player for st in results.stages[after]
                  if st.stats.player not in seated and st.stats.status is PlayerStatus.PLAYING]
    if not candidates:
        after_ru, after_en = _names(results, after)
        return Refusal(reason="nobody_left", text=Text(
            f"в таблице этапа «{after_ru}» не осталось игроков на замену «{player}»",
            f"nobody left in the {after_en} ranking to replace {player!r}"))
    newcomer = candidates[0]
    new_entries = tuple(SeatingEntry(stage=e.stage, round=e.round, table=e.table,
                                     players=tuple(newcomer if n == player else n for n in e.players))
                        for e in entries)
    players = tuple(sorted((seated - {player}) | {newcomer}, key=name_key))
    return ReplacementPlan(stage=stage, player=player, newcomer=newcomer, entries=new_entries, players=players,
                           clubs=clubs_of(results.tournament, players))
