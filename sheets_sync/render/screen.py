"""The hall's screen: ``screen.html`` (standings, top rows) and ``screen-2.html`` (the next
round's seating), big type for a TV or a projector.

Each page reloads itself with a meta refresh (no JavaScript) and hands over to the other, so a
screen left on ``screen.html`` alternates between the two and shows an edit to a protocol at
the next reload (``watch --serve`` serves the files as the watch rewrites them).  The next round
is derived from the tournament's seating: the first round, in stage order, with a scheduled
game that is not counted yet.  Pure: results in, ``{file: html}`` out.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from dataclasses import dataclass

from scoring.model import SeatingEntry
from scoring.progress import Progress, progress as progress_of
from scoring.standings import Results
from sheets_sync.render.json_out import points
from sheets_sync.render.progress_text import headline, status_lines
from sheets_sync.render.templates import environment
from sheets_sync.render.words import ui

__all__ = ["SCREEN_ROWS", "SCREEN_SECONDS", "NextRound", "next_round", "screen_files"]

# What a TV across a hall can show in type read from the back rows; not a regulation number.
SCREEN_ROWS = 12
# Seconds each of the two pages stays before the other: long enough to find one's name.
SCREEN_SECONDS = 20


@dataclass(frozen=True, kw_only=True, slots=True)
class NextRound:
    stage: str
    round: int
    tables: tuple[SeatingEntry, ...]  # by table number


def next_round(results: Results) -> NextRound | None:
    """The first (stage, round) of the seating, in stage order, with a game not yet counted."""
    order = {k: i for i, k in enumerate(results.preset.stage_keys)}
    hidden = frozenset(results.hidden)
    counted = {p.key for p in results.counted}
    rounds: dict[tuple[str, int], list[SeatingEntry]] = defaultdict(list)
    for entry in results.tournament.seating:
        if entry.stage in order and entry.stage not in hidden:
            rounds[(entry.stage, entry.round)].append(entry)
    for stage, round_no in sorted(rounds, key=lambda k: (order[k[0]], k[1])):
        entries = rounds[(stage, round_no)]
        if any((e.stage, e.round, e.table) not in counted for e in entries):
            return NextRound(stage=stage, round=round_no, tables=tuple(sorted(entries, key=lambda e: e.table)))
    return None


def screen_files(results: Results, *, language: str, progress: Progress | None = None,
                 updated: datetime | None = None) -> dict[str, str]:
    """``screen.html`` and ``screen-2.html`` (the second only alternates when there is a next round),
    titled by the tournament's progress like every page (``progress`` of the full results when
    these are the published ones; ``updated`` the time the pages say they were made)."""
    preset = results.preset
    if progress is None:
        progress = progress_of(results)
    first_stage = preset.stage_keys[0] if preset.stage_keys else ""
    nxt = next_round(results)
    rows = [{"places": st.places, "player": st.stats.player, "total": points(st.stats.total), "games": st.stats.games}
            for st in results.overall[:SCREEN_ROWS]] if progress.started else []
    seating = None
    if nxt is not None:
        word = ui("round" if nxt.stage == first_stage else "game", language)
        seating = {
            "title": f"{preset.stage(nxt.stage).name(language)}, {word.lower()} {nxt.round}",
            "tables": [{"table": e.table, "seats": [{"seat": i + 1, "player": p or "—"} for i, p in enumerate(e.players)]}
                       for e in nxt.tables],
        }
    common = {"lang": language, "tournament": results.tournament.name, "seconds": SCREEN_SECONDS,
              "headline": headline(progress, preset, language), "status": status_lines(progress, updated, language), "ui": lambda key: ui(key, language)}
    env = environment()
    standings_page = env.get_template("site/screen.html").render(
        **common, part="standings", next_page="screen-2.html" if seating else "screen.html",
        title=common["headline"], rows=rows, seating=None, shown=len(rows), total_players=len(results.overall))
    seating_page = env.get_template("site/screen.html").render(
        **common, part="seating", next_page="screen.html",
        title=seating["title"] if seating else ui("seating", language), rows=[], seating=seating, shown=0,
        total_players=len(results.overall))
    return {"screen.html": standings_page, "screen-2.html": seating_page}
