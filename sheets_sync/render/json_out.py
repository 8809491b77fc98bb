"""`standings.json`: the machine-readable twin of the standings (schema in docs/standings-json.md).

This is a public output: unless told otherwise it shows :func:`scoring.standings.published`
results, so a hidden final stays out until the chief judge releases it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from decimal import Decimal

from scoring.numbers import quantize
from scoring.nominations import Nomination
from scoring.problems import Problem
from scoring.standings import Results, game_states, hidden_sheets, published
from sheets_sync.render.tabs import tiebreak_text

__all__ = ["standings_document", "dumps", "points"]

SCHEMA_VERSION = 1


def points(value: Decimal) -> str:
    """A decimal string with at least two places, exact: 12.35, 0.375, -2.00."""
    text = format(value, "f")
    if "." not in text:
        return text + ".00"
    whole, frac = text.split(".")
    frac = frac.rstrip("0")
    return f"{whole}.{frac.ljust(2, '0')}"


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


def standings_document(results: Results, problems: Sequence[Problem], *, language: str, public: bool = True) -> dict:
    """The document; ``public`` (default) hides an unreleased hidden final and its problems.
    ``public=False``: the results are shown as given (already public ones, e.g.
    :class:`sheets_sync.publish.PublicResults`, still list their hidden stages)."""
    if public:
        sheets = hidden_sheets(results) | results.tournament.unconfirmed if results.preset.confirmation else hidden_sheets(results)
        results = published(results)
        problems = [p for p in problems if p.sheet not in sheets]
    hidden = results.hidden
    t = results.tournament
    states = game_states(results)
    counted = {p.sheet for p in results.counted}
    preset = results.preset
    standings = []
    for st in results.overall:
        s = st.stats
        standings.append({
            "place": st.place,
            "places": st.places,
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
        })
    return {
        "schema": SCHEMA_VERSION,
        "tournament": {"name": t.name, "date": t.date, "chief_judge": t.chief_judge, "language": language},
        "preset": {"id": preset.id, "name": preset.name, "ci": preset.ci.enabled,
                   "auto_extra": points(preset.auto_extra), "hidden_final": preset.hidden_final},
        "hidden_stages": sorted(hidden),
        "stages": [{"key": s.key, "name": s.name(language), "games": s.games, "players": s.players,
                    "coefficient": points(s.coefficient)} for s in preset.stages],
        "standings": standings,
        "cuts": {k: {"after": c.after, "players": list(c.players), "tied": list(c.tied), "complete": c.complete}
                 for k, c in results.cuts.items()},
        "games_counted": len(results.counted),
        "games_awaiting_confirmation": results.awaiting_confirmation,
        # games not plainly counted: not confirmed, changed after confirmation, disputed, cancelled
        "games": [{"sheet": p.sheet, "stage": p.stage, "round": p.round, "table": p.table,
                   "counted": p.sheet in counted, "states": list(states[p.sheet])}
                  for p in t.protocols if p.sheet in states],
        "nominations": [_nomination(n, language) for n in results.nominations],
        "problems": [{"sheet": p.sheet, "cell": p.cell, "severity": p.severity.value, "rule": p.rule,
                      "message": p.message(language)} for p in sorted(problems, key=Problem.sort_key)],
    }


def dumps(document: dict) -> str:
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"
