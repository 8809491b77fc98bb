"""`standings.json`: the machine-readable twin of the standings (schema in docs/standings-json.md)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from decimal import Decimal

from scoring.problems import Problem
from scoring.standings import Results
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


def standings_document(results: Results, problems: Sequence[Problem], *, language: str) -> dict:
    t = results.tournament
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
        })
    return {
        "schema": SCHEMA_VERSION,
        "tournament": {"name": t.name, "date": t.date, "chief_judge": t.chief_judge, "language": language},
        "preset": {"id": preset.id, "name": preset.name},
        "stages": [{"key": s.key, "name": s.name(language), "games": s.games, "players": s.players,
                    "coefficient": points(s.coefficient)} for s in preset.stages],
        "standings": standings,
        "cuts": {k: {"after": c.after, "players": list(c.players), "tied": list(c.tied), "complete": c.complete}
                 for k, c in results.cuts.items()},
        "games_counted": len(results.counted),
        "problems": [{"sheet": p.sheet, "cell": p.cell, "severity": p.severity.value, "rule": p.rule,
                      "message": p.message(language)} for p in sorted(problems, key=Problem.sort_key)],
    }


def dumps(document: dict) -> str:
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"
