"""Teams and classifications in the workbook (issue 36 §4): their tables under the Итоги tab's
standings, the «Команды» tab (every team with its members) and the «Зачёты» tab (one table per
classification, one under another — a tab per classification would put people's words into tab
titles, where they could clash with the workbook's own tabs).

Nothing here without the Players tab's «Команда» / «Зачёт»: the tabs are not written, Итоги has
no extra rows.  Points are written exact and shown with the site's decimals; a team's average is
the one rounded value (to the hundredth, :func:`scoring.teams.shown_points`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring import labels as L
from scoring.standings import Results
from scoring.team_metrics import TEAM_METRICS
from scoring.teams import Classification, Sides, TeamStanding, sides
from sheets_sync.backends.base import TabWrite
from sheets_sync.render.progress_text import games_line
from sheets_sync.render.tab_look import (HEADER_HEIGHT, HEADER_ROW, TABLE_PAGE, TOP_ROWS, header_styles, heading,
                                         number, number_styles, tab_title)
from sheets_sync.render.words import ru_en
from scoring.progress import progress

__all__ = ["SideRows", "side_rows", "side_tabs", "team_tiebreak_text", "team_count_text"]


def team_tiebreak_text(tiebreak: str | None, language: str) -> str:
    """Why a team is above the next one with equal points (as a player's «Почему выше следующего»)."""
    if tiebreak is None:
        return ""
    if tiebreak == "shared":
        return ru_en("полное равенство: место делится", "all equal: place shared", language)
    return ru_en("выше по критерию: ", "ahead on: ", language) + TEAM_METRICS[tiebreak].name(language)


def team_count_text(found: Sides, language: str) -> str:
    """How a team's points are made, for the tables' titles: «сумма очков игроков», «4 лучших», «среднее»."""
    if found.count == "best":
        return ru_en(f"сумма {found.best} лучших результатов игроков", f"the best {found.best} members' points", language)
    if found.count == "average":
        return ru_en("среднее очков сыгравших игроков", "the average of the members who played", language)
    return ru_en("сумма очков игроков", "the sum of the members' points", language)


def _members_text(t: TeamStanding) -> str:
    """«Аня 9.5, Боря 6 (не в зачёте: Вера 1)» — the counted members first."""
    counted = ", ".join(m.player for m in t.members if m.counted)
    rest = [m.player for m in t.members if not m.counted]
    return counted + (f" (+ {', '.join(rest)})" if rest else "")


@dataclass(frozen=True, slots=True)
class SideRows:
    """Rows to put under a table, with which of them are bold (section titles, headers) and which
    hold points (in the ``points`` column), as offsets from the first."""

    rows: list[tuple]
    bold: list[int]
    points: list[int]


def side_rows(results: Results, language: str, at: Mapping[str, int], width: int) -> SideRows:
    """The team table and each classification's, for the Итоги tab: the cells go to the standings'
    own columns ``at`` (``place``, ``name``, ``note``, ``points``, ``why``) so they print with them."""
    found = sides(results)
    out = SideRows([], [], [])

    def row(**cells: object) -> tuple:
        values: list[object] = [None] * width
        for key, value in cells.items():
            values[at[key]] = value
        return tuple(values)

    def title(text: str) -> None:
        out.rows.append(())
        out.bold.append(len(out.rows))
        out.rows.append((text,))

    if found.teams:
        title(ru_en("Командный зачёт", "Team standings", language) + f" ({team_count_text(found, language)})")
        out.bold.append(len(out.rows))
        out.rows.append(row(place=ru_en("Место", "Place", language), name=ru_en("Команда", "Team", language),
                            note=ru_en("Игроки", "Members", language), points=ru_en("Очки", "Points", language),
                            why=ru_en("Почему выше следующего", "Why above the next", language)))
        for t in found.teams:
            out.points.append(len(out.rows))
            out.rows.append(row(place=t.places, name=t.team, note=_members_text(t), points=number(t.points),
                                why=team_tiebreak_text(t.tiebreak, language) or None))
    for c in found.classifications:
        title(ru_en("Зачёт: ", "Classification: ", language) + c.name)
        out.bold.append(len(out.rows))
        out.rows.append(row(place=ru_en("Место", "Place", language), name=ru_en("Игрок", "Player", language),
                            note=ru_en("Место в общем зачёте", "Overall place", language),
                            points=ru_en("Итого", "Total", language)))
        for e in c.entries:
            out.points.append(len(out.rows))
            played = e.standing.stats.games > 0
            out.rows.append(row(place=e.places if played else None, name=e.standing.stats.player,
                                note=e.standing.places if played else None, points=number(e.standing.stats.total)))
    return out


def side_tabs(results: Results, language: str) -> list[TabWrite]:
    """«Команды» and «Зачёты», each only when the Players tab has its column filled."""
    found = sides(results)
    status = games_line(progress(results), language)
    tabs = []
    if found.teams:
        rows: list[tuple] = [*heading(tab_title(results.tournament.name, L.tab("teams", language)),
                                      f"{status}; {team_count_text(found, language)}"),
                             (ru_en("Место", "Place", language), ru_en("Команда", "Team", language),
                              ru_en("Очки", "Points", language), ru_en("Игрок", "Player", language),
                              ru_en("Место игрока", "Player's place", language),
                              ru_en("Очки игрока", "Player's points", language), ru_en("Игр", "Games", language),
                              ru_en("В зачёте", "Counted", language),
                              ru_en("Почему выше следующего", "Why above the next", language))]
        bold = [0, HEADER_ROW]
        for t in found.teams:
            bold.append(len(rows))
            rows.append((t.places, t.team, number(t.points), None, None, None, None, None,
                         team_tiebreak_text(t.tiebreak, language) or None))
            rows += [(None, None, None, m.player, m.places if m.games else None, number(m.points), m.games,
                      L.word("yes" if m.counted else "no", language), None) for m in t.members]
        formats = (*number_styles([2], TOP_ROWS, len(rows) - 1), *number_styles([5], TOP_ROWS, len(rows) - 1))
        tabs.append(TabWrite(title=L.tab("teams", language), rows=tuple(rows),
                             column_widths=(7, 20, 9, 20, 9, 9, 6, 9, 36), frozen_rows=TOP_ROWS, bold_rows=tuple(bold),
                             row_heights=HEADER_HEIGHT, styles=(*header_styles(9), *formats), page=TABLE_PAGE))
    if found.classifications:
        tabs.append(_classifications_tab(results, found.classifications, status, language))
    return tabs


def _classifications_tab(results: Results, classifications: Sequence[Classification], status: str,
                         language: str) -> TabWrite:
    """Every classification's table, one under another, each under its name."""
    header = (ru_en("Место", "Place", language), ru_en("Игрок", "Player", language),
              ru_en("Место в общем зачёте", "Overall place", language), ru_en("Итого", "Total", language),
              ru_en("Игр", "Games", language))
    rows: list[tuple] = [*heading(tab_title(results.tournament.name, L.tab("classifications", language)), status), header]
    bold = [0, HEADER_ROW]
    for i, c in enumerate(classifications):
        if i:
            rows.append(())
        bold.append(len(rows))
        rows.append((c.name,))
        for e in c.entries:
            played = e.standing.stats.games > 0
            rows.append((e.places if played else None, e.standing.stats.player, e.standing.places if played else None,
                         number(e.standing.stats.total), e.standing.stats.games))
    return TabWrite(title=L.tab("classifications", language), rows=tuple(rows), column_widths=(7, 22, 12, 9, 6),
                    frozen_rows=TOP_ROWS, bold_rows=tuple(bold), row_heights=HEADER_HEIGHT,
                    styles=(*header_styles(len(header)), *number_styles([3], TOP_ROWS, len(rows) - 1)), page=TABLE_PAGE)
