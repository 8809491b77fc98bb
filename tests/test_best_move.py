"""A detail that cannot score never refuses a real game (issue 25 §6): every best move a judge
writes is a warning at its cell at worst, the game counts, and the best move scores what the
blacks among the other seats named give (tests/rulebook.py: seat 1 is shot first; seats 2 and 8
are mafia, 6 the don).  Through the reader, the rules and the standings, as a sync computes them.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from scoring.parse import parse_tournament, read_settings
from scoring.problems import Severity
from scoring.rules import validate
from scoring.standings import compute
from sheets_sync.presets import load_preset
from tests.rulebook import workbook

PRESET = load_preset("gmo-2016")[0]
POINTS = {n: PRESET.best_move_points(n) for n in range(4)}


@pytest.mark.parametrize("typed, rule, blacks", [
    ("2 6 8", None, 3),
    ("2 6 5", None, 2),
    ("1 6 8", "best_move.partial", 2),  # his own seat among the three: «5 7 10» on seat 10
    ("6 8", "best_move.partial", 2),
    ("68", "best_move.partial", 2),  # two seats typed without a space
    ("2", "best_move.partial", 1),
    (5, "best_move.partial", 0),  # one seat, stored as a number
    ("1 1 2", "best_move.partial", 1),
    ("6 6 8", "best_move.partial", 2),
    ("2 6 11", "best_move.seats", None),  # a seat that does not exist: not scored
    ("2 3 5 6 8", "best_move.seats", None),  # more than three: not scored
    ("два шесть", "read.best_move", None),
])
def test_a_best_move_is_a_warning_and_the_game_counts(typed, rule, blacks):
    snapshot = workbook({"H10": typed}).read()
    settings = read_settings(snapshot.tabs)
    parsed = parse_tournament(snapshot.tabs, snapshot.order, PRESET, settings)
    problems = list(parsed.problems) + validate(parsed.tournament, PRESET, parsed.unplaced)
    found = [(p.rule, p.severity, p.cell) for p in problems if p.sheet == "Тур 1 Стол 1"]
    assert found == ([(rule, Severity.WARNING, "H10")] if rule else [])
    results = compute(parsed.tournament, PRESET, problems)
    assert len(results.counted) == 1
    first = next(st.stats for st in results.overall if st.stats.player == "Алхимик")
    assert first.best_move_points == (POINTS[blacks] if blacks is not None else Decimal(0))
