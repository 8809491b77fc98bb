"""The seating draw (жеребьёвка): who plays whom, at which table and in which seat.

Qualifying rounds are drawn so that every player plays the same number of games, rests
are spread evenly, opponents are as even as possible (Σ over pairs of games-together² as
close as possible to the proven lower bound), seats do not repeat and seat groups balance,
club mates and keep-apart pairs are separated, and physical tables rotate.  Semifinal and
final stages have their own small constructions.  `evaluate` measures any seating, also a
hand-edited one, and is what the fairness report of a draw is built from.

Pure: no I/O and no clock.  The modules, by concern:

- `formats`: which formats can be drawn, and the proven lower bounds;
- `report`: the fairness report and its Russian and English labels;
- `measure`: `evaluate`, the report of any seating;
- `draws`: the qualifying, stage and final draws that put the parts below together;
- `search`: who shares a table with whom (simulated annealing on the groups);
- `orthogonal`: orthogonal starting rounds for square fields (k tables of k);
- `seats`: physical tables and seat numbers for groups already drawn.
"""

from typing import TYPE_CHECKING, Any

from scoring.draw.formats import (TABLE_SIZE, DrawFormatError, check_format, games_per_player, lower_bound,
                                  tables_per_round)

if TYPE_CHECKING:
    from scoring.draw.draws import Draw, draw_final, draw_qualifying, draw_stage
    from scoring.draw.measure import evaluate
    from scoring.draw.report import FairnessReport, PlayerFairness

# the search and the report load when first used: a sync that seats nobody never needs them
_LAZY = {"Draw": "draws", "draw_final": "draws", "draw_qualifying": "draws", "draw_stage": "draws",
         "evaluate": "measure", "FairnessReport": "report", "PlayerFairness": "report"}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'scoring.draw' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"scoring.draw.{_LAZY[name]}"), name)

__all__ = [
    "TABLE_SIZE", "DrawFormatError", "Draw", "FairnessReport", "PlayerFairness",
    "tables_per_round", "check_format", "games_per_player", "lower_bound", "draw_qualifying",
    "draw_stage", "draw_final", "evaluate",
]
