"""The Penalties tab."""

from __future__ import annotations

from collections.abc import Mapping

from scoring import labels as L
from scoring.model import PenaltyEntry, PenaltyReason
from scoring.names import typed_name
from scoring.problems import Problem
from scoring.parse.grid import E, Grid, _Reader, _find_header_row, _words, find_tab


# -- Penalties ---------------------------------------------------------------------------------
def _parse_penalties(tabs: Mapping[str, Grid], stages: Mapping[str, str], default_stage: str, problems: list[Problem]) -> tuple[PenaltyEntry, ...]:
    title = find_tab(tabs, "penalties")
    if title is None:
        return ()
    grid = tabs[title]
    rd = _Reader(title, grid)
    header = _find_header_row(grid, L.PENALTY_COLUMNS, ("player", "reason"))
    if header is None:
        return ()
    hr, cols = header
    reasons = _words(L.PENALTY_REASON_WORDS)
    entries: list[PenaltyEntry] = []
    for r in range(hr + 1, len(grid)):
        player = typed_name(rd.text(r, cols["player"]))
        if not player:
            continue
        stage = rd.stage(r, cols.get("stage"), stages, default_stage)
        if stage is None:
            continue
        reason_text = rd.text(r, cols["reason"])
        reason = reasons.get(L.norm(reason_text))
        if reason is None:
            rd.add("read.penalty_reason", E, r, cols["reason"], value=reason_text)
            continue
        before = len(rd.problems)
        round_no = rd.integer(r, cols.get("round"))
        minutes = rd.integer(r, cols.get("minutes"))
        points, ok = rd.decimal(r, cols.get("points"))
        if len(rd.problems) > before or not ok:
            continue  # an unreadable penalty is listed, not guessed
        entries.append(
            PenaltyEntry(
                player=player,
                stage=stage,
                round=round_no,
                reason=PenaltyReason(reason),
                minutes_late=minutes,
                points=-abs(points) if points is not None else None,  # "2" and "-2" both mean a penalty
                location=rd.loc(r, cols["player"]),
            )
        )
    problems.extend(rd.problems)
    return tuple(entries)
