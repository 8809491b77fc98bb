"""Team standings and side classifications of a tournament, from the main standings.

A team's points come from its members' points in the main standings (the Players tab's
«Команда»), as the preset's ``[teams]`` says: the sum of every member's, the sum of the best
``k`` members', or the average of the members who played a counted game.  Teams are ranked
by the tuple (played at all, exact points, the ``teams.tiebreaks`` metrics of
:mod:`scoring.team_metrics`) with the tie-aware :func:`scoring.ranking.place`: equal tuples
share their places, never a random order.

Exact and shown: a team is ranked by the exact value (members' exact totals — Ci is a
Fraction — summed, or their average as a Fraction); what the tables show is the sum of the
members' totals as the standings show them, or the average rounded half up to the hundredth,
once, here (:func:`shown_points`), for every output alike.

In a club season the main standings are the season's table (ranked by its own key, total or
average, the provisional after the ranked; :func:`main_table`); a team's points are still its
members' season totals as ``[teams]`` counts them.

A classification (the Players tab's «Зачёт»: «женский, юниоры») is the players in it in the
order of the main standings: its places are counted among them, two players sharing a main
place share the classification's, and each keeps his main place beside it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from scoring.collation import name_key
from scoring.memo import last_answer
from scoring.model import Player
from scoring.preset import TeamRule
from scoring.ranking import format_places, place
from scoring.standings import Results, Standing
from scoring.team_metrics import TEAM_METRICS, Member

__all__ = ["TeamMember", "TeamStanding", "ClassEntry", "Classification", "Sides",
           "team_standings", "classification_tables", "sides", "shown_points", "has_teams", "main_table"]

HUNDREDTH = Decimal("0.01")


@dataclass(frozen=True, kw_only=True, slots=True)
class TeamMember:
    player: str
    place: int  # in the main standings
    places: str
    points: Decimal  # his total as the standings show it
    games: int
    counted: bool  # his points make the team's (all, or one of the best k)


@dataclass(frozen=True, kw_only=True, slots=True)
class TeamStanding:
    team: str
    place: int
    places: str  # "3" or "3–4"
    points: Decimal  # as shown: a sum of shown totals, or an average to the hundredth
    exact: Fraction  # what the team is ranked by
    members: tuple[TeamMember, ...]  # in the main standings' order
    tiebreak: str | None = None  # why above the next team with equal points: a team metric key, "shared", None

    @property
    def counted(self) -> int:
        return sum(1 for m in self.members if m.counted)


@dataclass(frozen=True, kw_only=True, slots=True)
class ClassEntry:
    place: int  # among the classification's players
    places: str
    standing: Standing  # the player's row of the main standings (his main place, points…)


@dataclass(frozen=True, kw_only=True, slots=True)
class Classification:
    name: str  # as first typed on the Players tab
    entries: tuple[ClassEntry, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class Sides:
    """Everything beside the players' table: teams and classifications (both empty without the columns)."""

    teams: tuple[TeamStanding, ...]
    classifications: tuple[Classification, ...]
    count: str  # the preset's teams.count, for the tables' headers
    best: int


def has_teams(players: Sequence[Player]) -> bool:
    return any(p.team for p in players)


def shown_points(exact: Fraction, count: str, members_sum: Decimal) -> Decimal:
    """What a table shows for a team: the members' shown totals summed, or the exact average
    rounded half up to the hundredth (the one place a team's points are rounded)."""
    if count != "average":
        return members_sum
    return (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(HUNDREDTH, rounding=ROUND_HALF_UP)


def _exact(standing: Standing) -> Fraction:
    return standing.stats.exact_total


def _counted(members: Sequence[Standing], rule: TeamRule) -> list[Standing]:
    """The members whose points make the team's: all; the best k (by exact points, then name);
    for an average, those who played a counted game."""
    if rule.count == "best":
        return sorted(members, key=lambda s: (-_exact(s), name_key(s.stats.player)))[: rule.best]
    if rule.count == "average":
        return [s for s in members if s.stats.games > 0]
    return list(members)


@dataclass(frozen=True, slots=True)
class _Team:
    name: str
    members: tuple[Standing, ...]
    counted: tuple[Standing, ...]
    exact: Fraction
    played: bool


def _team(name: str, members: Sequence[Standing], rule: TeamRule) -> _Team:
    counted = _counted(members, rule)
    total = sum((_exact(s) for s in counted), Fraction(0))
    exact = total / len(counted) if rule.count == "average" and counted else total
    return _Team(name, tuple(members), tuple(counted), exact, any(s.stats.games > 0 for s in members))


def team_standings(overall: Sequence[Standing], players: Sequence[Player], rule: TeamRule) -> tuple[TeamStanding, ...]:
    """Every team of ``players`` ranked from the main standings ``overall`` (reserves, who are not
    in it, are no team's members)."""
    team_of = {p.nickname: p.team for p in players if p.team}
    by_team: dict[str, list[Standing]] = {}
    for st in overall:
        if st.stats.player in team_of:
            by_team.setdefault(team_of[st.stats.player], []).append(st)
    teams = [_team(name, members, rule) for name, members in by_team.items()]
    metrics = [TEAM_METRICS[k] for k in rule.tiebreaks]

    def key(t: _Team) -> tuple:
        members: list[Member] = [(s.place, s.stats) for s in t.counted]
        return (t.played, t.exact, *(m.rank_key(members) for m in metrics))

    placed = place(teams, key=key, listing=lambda t: name_key(t.name))
    result = []
    for this, below in zip(placed, [*placed[1:], None]):
        t = this.entry
        counted = {id(s) for s in t.counted}
        members = tuple(TeamMember(player=s.stats.player, place=s.place, places=s.places, points=s.stats.total,
                                   games=s.stats.games, counted=id(s) in counted) for s in t.members)
        shown_sum = sum((m.points for m in members if m.counted), Decimal(0))
        result.append(TeamStanding(team=t.name, place=this.place, places=this.places,
                                   points=shown_points(t.exact, rule.count, shown_sum), exact=t.exact,
                                   members=members, tiebreak=_why_above(this.key, below, metrics, this.place)))
    return tuple(result)


def _why_above(key: tuple, below, metrics, this_place: int) -> str | None:
    """The metric that put a team above the next one with equal points; "shared"; None when the points differ."""
    if below is None or below.key[:2] != key[:2]:
        return None
    if below.place == this_place:
        return "shared"
    return next((m.key for m, a, b in zip(metrics, key[2:], below.key[2:]) if a != b), "shared")


def classification_tables(overall: Sequence[Standing], players: Sequence[Player]) -> tuple[Classification, ...]:
    """One table per classification named on the Players tab (in the order first typed)."""
    names: dict[str, None] = {}
    of_player: dict[str, tuple[str, ...]] = {}
    for p in players:
        names.update(dict.fromkeys(p.classifications))
        of_player[p.nickname] = p.classifications
    return tuple(Classification(name=name, entries=_classification(
        [st for st in overall if name in of_player.get(st.stats.player, ())])) for name in names)


def _classification(members: Sequence[Standing]) -> tuple[ClassEntry, ...]:
    """Places among ``members`` (in main-standings order): players sharing a main place share this one."""
    sharing: Mapping[int, int] = {}
    for st in members:
        sharing[st.place] = sharing.get(st.place, 0) + 1  # type: ignore[index]
    entries: list[ClassEntry] = []
    first_of: dict[int, int] = {}
    for i, st in enumerate(members):
        first = first_of.setdefault(st.place, i + 1)
        entries.append(ClassEntry(place=first, places=format_places(first, first + sharing[st.place] - 1), standing=st))
    return tuple(entries)


def main_table(results: Results) -> Sequence[Standing]:
    """The standings teams and classifications are made from: a tournament's overall standings;
    a club season's table (:func:`scoring.season.season`: the ranked, the provisional — placed
    after them by the season's own key, total or average — then the players without a game, at
    one place after everybody who played, so that no metric takes their empty place for the
    best)."""
    if not results.tournament.season:
        return results.overall
    from scoring.season import season  # a club season's modules load for a club season only

    table = season(results).table
    after = sum(1 for e in table if e.stats.games) + 1
    return [e.standing if e.stats.games else replace(e.standing, place=after, places="") for e in table]


@last_answer  # the Standings tab, the site, standings.json and the post all ask for the same results
def sides(results: Results) -> Sides:
    """The teams and classifications of ``results`` (its main table, :func:`main_table`, and players)."""
    players = results.tournament.players
    rule = results.preset.teams
    table = main_table(results)
    teams = team_standings(table, players, rule) if has_teams(players) else ()
    return Sides(teams=teams, classifications=classification_tables(table, players),
                 count=rule.count, best=rule.best)
