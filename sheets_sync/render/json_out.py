"""`standings.json`: the machine-readable twin of the standings (docs/standings-json.md; the JSON
Schema is schemas/standings.schema.json).

This is a public output: unless told otherwise it shows :func:`scoring.standings.published`
results, so a hidden final stays out until the chief judge releases it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

from scoring.collation import name_key
from scoring.model import GameIndex
from scoring.liveness import ASK, Ask, Liveness, State, given_or_current
from scoring.numbers import quantize
from scoring.race import Race, race
from scoring.rating.club import workbook_rating
from scoring.nominations import Nomination
from scoring.problems import Problem
from scoring.progress import Progress, progress as progress_of
from scoring.standings import Results, game_states, hidden_sheets, published
from scoring.teams import Sides, sides as sides_of
from sheets_sync.render.progress_text import headline
from sheets_sync.render.registration_view import registration_document
from sheets_sync.render.tabs import team_tiebreak_text, tiebreak_text

if TYPE_CHECKING:
    from scoring.season import PlayerSeason, Season, SeasonStanding

__all__ = ["standings_document", "dumps", "points"]

# the document's version: changes only when a field is removed, renamed or changes its meaning;
# new fields come without a new version (the schema allows additional properties)
SCHEMA_VERSION = 1


def points(value: Decimal, places: int = 2) -> str:
    """A decimal string with at least ``places`` places, exact: 12.35, 0.375, -2.00; a column shows
    its points with the one ``places`` its preset needs (:meth:`scoring.preset.Preset.points_places`:
    14.850 beside 14.825), standings.json keeps the exact value with two at least."""
    whole, _, frac = format(value, "f").partition(".")
    return f"{whole}.{frac.rstrip('0').ljust(places, '0')}"


def rating_text(value) -> str:
    """A rating as text: «1023» (to the scheme's decimals), "" for none."""
    return format(value, "f") if isinstance(value, Decimal) else str(value)


def change_text(value) -> str:
    """A rating change as text, signed: «+2.13», «-1.50», «0.00»; "" for none."""
    if not isinstance(value, Decimal):
        return str(value)
    return f"+{value:f}" if value > 0 else format(value, "f")


def _nomination(n: Nomination, language: str) -> dict:
    return {"key": n.key, "name": n.name(language), "role": n.role, "min_games": n.min_games,
            "formula": list(n.formula), "winners": list(n.winners), "shared": n.shared,
            "ranking": [{"place": e.place, "places": e.places, "player": e.player, "games": e.games,
                         "score": points(e.shown)} for e in n.ranking[:10]]}


def _ci_detail(s) -> list[dict]:
    """Per stage group: B, N, round(k·N), the Ci one compensated game carries, how many do."""
    return [{"group": list(a.group), "shot_first_red": a.shot_first_red, "games": a.games,
             "denominator": a.denominator, "ci_per_game": points(quantize(a.value)),
             "ci_per_game_exact": f"{a.value.numerator}/{a.value.denominator}", "compensated_games": a.compensated}
            for a in s.ci_accounts if a.shot_first_red]


def _exact(value: Fraction) -> str:
    """A bound as a decimal string: exact when it is a finite decimal, else rounded half up (Ci)."""
    d = value.denominator
    for prime in (2, 5):
        while d % prime == 0:
            d //= prime
    if d != 1:
        return points(quantize(value))
    return points(Decimal(value.numerator) / Decimal(value.denominator))


def _chance(live: Liveness | None, player: str) -> dict | None:
    """The player's state in the cut being played and the bounds of his stage total."""
    chance = live.chances.get(player) if live else None
    if chance is None:
        return None
    def maybe(value):
        return None if value is None else _exact(value)

    return {"stage": live.stage, "state": chance.state.value, "low": _exact(chance.low), "high": _exact(chance.high),
            "remaining_games": chance.remaining, "to_get_in": maybe(chance.to_get_in), "to_be_sure": maybe(chance.to_be_sure)}


def _liveness(live: Liveness | None) -> dict | None:
    if live is None:
        return None
    return {"stage": live.stage, "after": live.after, "size": live.size, "complete": live.complete,
            "counts": {s.value: sum(1 for c in live.chances.values() if c.state is s) for s in State}}


def _race(r: Race) -> dict:
    """The overall place and total of every player after every round with a counted game."""
    players = sorted({p for point in r.points for p in point.places}, key=name_key)
    return {"rounds": [{"stage": p.stage, "round": p.round} for p in r.points],
            "places": {p: list(r.places(p)) for p in players},
            "totals": {p: [points(point.totals[p]) if p in point.totals else None for point in r.points] for p in players}}


def _progress(p: Progress, preset, language: str, updated: datetime | None) -> dict:
    return {"phase": p.phase.value, "stage": p.stage or None, "rounds_done": p.done, "rounds": p.of,
            "games_counted": p.games_counted, "games_total": p.games_total,
            "games_awaiting_confirmation": p.awaiting, "games_disputed": p.disputed,
            "title": headline(p, preset, language), "updated": updated.isoformat() if updated else None}


def standings_document(results: Results, problems: Sequence[Problem], *, language: str, public: bool = True,
                       progress: Progress | None = None, updated: datetime | None = None,
                       live: Liveness | None | Ask = ASK) -> dict:
    """The document; ``public`` (default) hides an unreleased hidden final and its problems.
    ``public=False``: the results are shown as given (already public ones, e.g.
    :class:`sheets_sync.loop.publish.PublicResults`, still list their hidden stages).  ``live``: who can
    still qualify in the results shown (worked out here when not given)."""
    if progress is None:
        progress = progress_of(results, public=public)  # of the full results, before published() below
    if public:
        sheets = hidden_sheets(results) | results.tournament.unconfirmed if results.preset.confirmation else hidden_sheets(results)
        results = published(results)
        games = GameIndex(results.tournament.protocols)
        problems = [p for p in problems if games.game_at(p.location) not in sheets]
    hidden = results.hidden
    t = results.tournament
    states = game_states(results)
    counted = {p.game_id for p in results.counted}
    preset = results.preset
    live = given_or_current(live, results)
    standings = []
    for st in results.overall:
        s = st.stats
        standings.append({
            "place": st.place if s.games else None,  # no place before a counted game
            "places": st.places if s.games else None,
            "player": s.player,
            "club": s.club,
            "city": s.city,
            "total": points(s.total),
            "stages": {k: (points(s.stage_points.get(k, Decimal(0))) if s.player in results.participants.get(k, ()) else None)
                       for k in preset.stage_keys},
            "group": st.group,
            "games": s.games,
            "wins": s.wins,
            "wins_as": dict(s.wins_as),
            "extra_points": points(s.extra_points),
            "recognised_best": s.recognised_best,
            "best_move_points": points(s.best_move_points),
            "penalties": points(s.penalties),
            "tournament_penalties": points(s.tournament_penalties),
            "shot_first": s.shot_first,
            "missed_rounds": s.missed_rounds,
            "eligible": s.eligible,
            "status": s.status.value,
            "tiebreak": st.tiebreak,
            "tiebreak_text": tiebreak_text(st, language) or None,
            "ci": points(s.ci),
            "ci_detail": _ci_detail(s),
            "qualification": _chance(live, s.player),
        })
    return {
        "schema_version": SCHEMA_VERSION,
        "schema": SCHEMA_VERSION,  # the first release's name of schema_version, kept for its readers
        "tournament": {"name": t.name, "date": t.date, "chief_judge": t.chief_judge, "language": language},
        "preset": {"id": preset.id, "name": preset.name, "ci": preset.ci.enabled,
                   "auto_extra": points(preset.auto_extra), "hidden_final": preset.hidden_final},
        "hidden_stages": sorted(hidden),
        "progress": _progress(progress, preset, language, updated),
        "stages": [{"key": s.key, "name": s.name(language), "games": s.games, "players": s.players,
                    "coefficient": points(s.coefficient)} for s in preset.stages],
        "standings": standings,
        "cuts": {k: {"after": c.after, "players": list(c.players), "tied": list(c.tied), "complete": c.complete}
                 for k, c in results.cuts.items()},
        "liveness": _liveness(live),
        "race": _race(race(results)),
        "games_counted": len(results.counted),
        "games_awaiting_confirmation": results.awaiting_confirmation,
        # games not plainly counted: not confirmed, changed after confirmation, disputed, cancelled
        "games": [{"sheet": p.sheet, "stage": p.stage, "round": p.round, "table": p.table,
                   "counted": p.game_id in counted, "states": list(states[p.game_id])}
                  for p in t.protocols if p.game_id in states],
        "nominations": [_nomination(n, language) for n in results.nominations],
        "season": season_document(results),  # null for a tournament
        "problems": [{"sheet": p.sheet, "cell": p.cell, "severity": p.severity.value, "rule": p.rule,
                      "message": p.message(language)} for p in sorted(problems, key=Problem.sort_key)],
    } | _sides(sides_of(results), standings, language) | _rating(results) | registration_document(t, preset.registration)


def _rating(results: Results) -> dict:
    """``rating``, only when the preset has a ``[rating]`` (a document without one is the one it
    always was): every player's rating before and after the workbook's games, as the scheme shows
    them (strings) and exact (the float the replay keeps, for checking against a reference)."""
    found = workbook_rating(results)
    if found is None:
        return {}
    scheme = found.scheme
    players = []
    for name in sorted(found.lines, key=name_key):
        line = found.lines[name]
        listed = found.listed(name)
        players.append({
            "player": name, "listed": listed, "games": line.games,
            "before": rating_text(scheme.shown(line.before)),
            "rating": rating_text(scheme.shown(line.overall)) if listed else None,
            "red": rating_text(scheme.shown(line.red)) if listed else None,
            "black": rating_text(scheme.shown(line.black)) if listed else None,
            "change": rating_text(scheme.shown_change(line.change)),
            "last_evening_change": None if line.last_evening is None else rating_text(scheme.shown_change(line.last_evening)),
            "exact": {"before": line.before, "rating": line.overall, "red": line.red, "black": line.black}})
    return {"rating": {"scheme": scheme.id, "name": scheme.name, "kind": results.preset.rating.kind,  # type: ignore[union-attr]
                       "min_games": scheme.min_games, "offset": scheme.offset, "last_evening": found.last_evening or None,
                       "games": len(found.ratings.history), "players": players}}


def _sides(found: Sides, standings: list[dict], language: str) -> dict:
    """``teams`` and ``classifications``, only when the Players tab has them (a document without
    them is the one it always was); each player's row gets his ``team`` then too."""
    document: dict = {}
    if found.teams:
        team_of = {m.player: t.team for t in found.teams for m in t.members}
        for row in standings:
            row["team"] = team_of.get(row["player"])
        document["teams"] = {
            "count": found.count, "best": found.best if found.count == "best" else None,
            "standings": [{"place": t.place, "places": t.places, "team": t.team, "points": points(t.points),
                           "points_exact": f"{t.exact.numerator}/{t.exact.denominator}",
                           "tiebreak": t.tiebreak, "tiebreak_text": team_tiebreak_text(t.tiebreak, language) or None,
                           # no place before a counted game, as in the standings (a season's member yet to come)
                           "members": [{"player": m.player, "place": m.place if m.games else None,
                                        "places": m.places if m.games else None,
                                        "points": points(m.points), "games": m.games, "counted": m.counted}
                                       for m in t.members]}
                          for t in found.teams]}
    if found.classifications:
        document["classifications"] = [
            {"name": c.name, "standings": [{"place": e.place, "places": e.places, "player": e.standing.stats.player,
                                            "main_place": e.standing.place if e.standing.stats.games else None,
                                            "main_places": e.standing.places if e.standing.stats.games else None,
                                            "total": points(e.standing.stats.total), "games": e.standing.stats.games}
                                           for e in c.entries]}
            for c in found.classifications]
    return document


# -- a club season (docs/standings-json.md, "A club season") -------------------------------------
def _rate(value: Fraction | None) -> str | None:
    """A share as an exact fraction "2/3" (people's pages show it as a percentage)."""
    return None if value is None else f"{value.numerator}/{value.denominator}"


def _entry(e: SeasonStanding) -> dict:
    st = e.stats
    return {"place": e.standing.place if e.ranked else None, "places": e.standing.places if e.ranked else None,
            # below the minimum: the place in the season's one order, provisional (shown in parentheses)
            "provisional_place": e.standing.place if e.provisional else None,
            "provisional_places": e.standing.places if e.provisional else None,
            "player": st.player, "club": st.club, "total": points(st.total), "average": points(e.average),
            "average_exact": _rate(e.exact_average), "games": st.games, "wins": st.wins,
            "games_needed": e.games_needed, "tiebreak": e.standing.tiebreak if e.ranked else None,
            "evenings": e.evenings, "last_evening": e.last_evening or None, "movement": e.movement, "new": e.new}


def _player(p: PlayerSeason) -> dict:
    return {"history": [{"date": h.date or None, "sheet": h.sheet, "game": h.game, "table": h.table, "seat": h.seat,
                         "role": h.role.value, "won": h.won, "points": points(h.points)} for h in p.history],
            "roles": {r.role.value: {"games": r.games, "wins": r.wins, "win_rate": _rate(r.win_rate)} for r in p.roles},
            "best_moves": p.best_moves, "blacks_named": p.blacks_named,
            "best_move_accuracy": _rate(p.best_move_accuracy)}


def season_document(results: Results) -> dict | None:
    """None for a tournament; for a club season its ratings, evenings by date and players."""
    if not results.tournament.season:
        return None
    from scoring.season import season  # a club season's modules load for a club season only

    s: Season = season(results)
    return {
        "ranking": s.ranking, "min_games": s.min_games, "evenings_played": len(s.evenings), "games": s.games,
        "standings": [_entry(e) for e in s.standings],
        "below_minimum": [_entry(e) for e in s.below_minimum],
        "evenings": [{"date": e.date or None, "games": len(e.games), "typed": e.typed, "with_errors": e.with_errors,
                      "unfinished": e.unfinished,
                      "standings": [{"place": st.place, "places": st.places, "player": st.stats.player,
                                     "points": points(st.stats.total), "games": st.stats.games,
                                     "wins": st.stats.wins} for st in e.standings]} for e in s.evenings],
        "players": {name: _player(p) for name, p in sorted(s.players.items(), key=lambda np: name_key(np[0]))},
        "race": [{"date": p.date or None, "places": dict(sorted(p.places.items())),
                  "provisional": sorted(p.provisional)} for p in s.race],
    }


def dumps(document: dict) -> str:
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"
