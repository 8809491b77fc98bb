"""Raw cells -> typed tournament.  Tolerant first, strict after.

Input is what a backend read: tab title -> rows of raw cell values.  Labels are found by
their text (either language), so a row inserted above a table or a moved column does
not break reading.  Every unreadable value becomes a :class:`~scoring.problems.Problem`
naming its tab and cell; reading never raises and never turns garbage into a zero.
A protocol with a reading error is still returned (the rules decide whether it counts)
so that later checks can point at the rest of its cells too.

One module a reader — :mod:`.settings` (the Tournament tab), :mod:`.players`, :mod:`.seating`,
:mod:`.penalties`, :mod:`.disputes`, :mod:`.protocols` (with :mod:`.blocks`, where a tab's
protocols are, :mod:`.best_move`, :mod:`.evenings` and :mod:`.kinds`, what a tab holds) — on the
tools of :mod:`.grid`; :mod:`.typed_names` reads every typed name against the Players tab and
:mod:`.workbook` runs them all.  The names below are the package's interface:
``from scoring.parse import X`` is all the rest of the project needs.
"""

from __future__ import annotations

from scoring.parse.best_move import seat_readings
from scoring.parse.grid import Grid, _header_map, find_tab
from scoring.parse.kinds import evening_of, is_protocol_grid
from scoring.parse.protocols import winner_team
from scoring.parse.settings import Settings, read_mwt_id, read_settings, stage_lookup
from scoring.parse.workbook import Parsed, owned_titles, parse_tournament

__all__ = ["Settings", "read_settings", "read_mwt_id", "parse_tournament", "find_tab", "is_protocol_grid", "stage_lookup",
           "evening_of", "owned_titles", "Parsed", "seat_readings", "winner_team", "Grid", "_header_map"]
