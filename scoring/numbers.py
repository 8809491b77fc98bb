"""Rounding the scoring shares: ordinary half-up rounding and the display quantum of exact values.

A leaf module (it imports nothing of the project), so that every other module can round
the same way without importing the module that happens to need rounding first.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

__all__ = ["CI_QUANTUM", "round_half_up", "quantize"]

# exact values that are not finite decimals (Ci, nomination scores) are shown to this step
CI_QUANTUM = Decimal("0.001")


def round_half_up(x: Fraction | Decimal | int) -> int:
    """Ordinary rounding: halves go away from zero (2.5 → 3, 2.4 → 2, −2.5 → −3)."""
    q = Fraction(x)
    n = math.floor(abs(q) + Fraction(1, 2))
    return n if q >= 0 else -n


def quantize(value: Fraction | Decimal, quantum: Decimal = CI_QUANTUM) -> Decimal:
    """An exact value rounded half up to ``quantum`` (for display only)."""
    q = Fraction(quantum)
    steps = round_half_up(Fraction(value) / q)
    if not steps:
        return Decimal(0)
    shown = (Decimal(steps) * quantum).normalize()
    return shown.quantize(Decimal(1)) if shown == shown.to_integral_value() else shown
