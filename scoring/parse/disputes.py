"""The Disputes tab."""

from __future__ import annotations

from collections.abc import Mapping

from scoring import labels as L
from scoring.model import Dispute, DisputeStatus
from scoring.problems import Problem
from scoring.parse.grid import Grid, W, _Reader, _find_header_row, _words, find_tab


def _parse_disputes(tabs: Mapping[str, Grid], problems: list[Problem]) -> tuple[Dispute, ...]:
    """The Disputes tab: game (a protocol tab's title), who filed, reason, status (blank = open)."""
    title = find_tab(tabs, "disputes")
    if title is None:
        return ()
    grid = tabs[title]
    rd = _Reader(title, grid)
    header = _find_header_row(grid, L.DISPUTE_COLUMNS, ("game",))
    if header is None:
        return ()
    hr, cols = header
    statuses = _words(L.DISPUTE_STATUS_WORDS)
    disputes: list[Dispute] = []
    for r in range(hr + 1, len(grid)):
        game = rd.text(r, cols["game"])
        if not game:
            continue
        status_text = rd.text(r, cols.get("status"))
        status = statuses.get(L.norm(status_text))
        if status is None:
            rd.add("dispute.bad_status", W, r, cols["status"], value=status_text)
            status = "open"  # an unreadable decision is not taken: the game stays disputed
        disputes.append(Dispute(game=game, filed_by=rd.text(r, cols.get("filed_by")), reason=rd.text(r, cols.get("reason")),
                                status=DisputeStatus(status), location=rd.loc(r, cols["game"])))
    problems.extend(rd.problems)
    return tuple(disputes)
