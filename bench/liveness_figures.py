"""How early the ✓ / ✗ marks speak on the example tournament (issue 25 §5).

Plain script: the bundled example (40 players, 7 qualifying rounds, a cut of 20) cut to its
qualifying rounds 1 … k — protocols, seating of the qualifying and penalties of those rounds
only, as the tournament stood after round k with the next rounds' seating already out — and
the number of players marked through, out and open for the semifinal.

    python -m bench.liveness_figures
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace

from scoring.liveness import State, liveness
from scoring.rules import validate
from scoring.standings import Results, compute
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.example import EXAMPLE_PATH
from sheets_sync.loop.outcome import compute as compute_outcome
from sheets_sync.loop.outcome import read_workbook


@dataclass(frozen=True, slots=True)
class Decided:
    """After round ``round``: how many players are marked through, out and open."""

    round: int
    through: int
    out: int
    open: int

    @property
    def decided(self) -> int:
        return self.through + self.out


def example_results() -> Results:
    """The bundled example, finished, as a sync reads it."""
    return compute_outcome(read_workbook(ExcelBackend(EXAMPLE_PATH))).results


def after_round(full: Results, k: int, *, seated_ahead: bool = True) -> Results:
    """The results of ``full`` as they stood after qualifying round ``k``; ``seated_ahead``: the
    seating of the qualifying's later rounds is known (the draw is made before the tournament)."""
    first = full.preset.stage_keys[0]
    t = full.tournament
    t = replace(t, protocols=tuple(p for p in t.protocols if p.stage == first and p.round <= k),
                seating=tuple(e for e in t.seating if e.stage == first and (seated_ahead or e.round <= k)),
                penalties=tuple(e for e in t.penalties if e.stage == first and e.round is not None and e.round <= k))
    return compute(t, full.preset, validate(t, full.preset))


def decided_after(full: Results, k: int, *, seated_ahead: bool = True) -> Decided:
    results = after_round(full, k, seated_ahead=seated_ahead)
    live = liveness(results, full.preset.stage_keys[1])
    assert live is not None
    count = {s: sum(1 for c in live.chances.values() if c.state is s) for s in State}
    return Decided(round=k, through=count[State.THROUGH], out=count[State.OUT], open=count[State.OPEN])


def main() -> None:
    argparse.ArgumentParser(description=__doc__).parse_args()
    full = example_results()
    rounds = full.preset.stage(full.preset.stage_keys[0]).games
    print(f"{'after round':>11}  {'seating':<14} {'through':>7} {'out':>4} {'open':>5} {'decided':>7}")
    for k in range(1, rounds):
        for ahead in (True, False):
            d = decided_after(full, k, seated_ahead=ahead)
            print(f"{k:>11}  {'all rounds' if ahead else 'played only':<14} {d.through:>7} {d.out:>4} {d.open:>5} {d.decided:>7}")


if __name__ == "__main__":
    main()
