"""A club season's owned tabs: the season's Standings (total, average, the players below the
minimum of games) and the Evenings tab (each evening's standings, newest first).

Pure functions from results to :class:`TabWrite`, beside :mod:`sheets_sync.render.tabs`
(whose header look, number format and page setup they share); :func:`owned_season_tabs` is
what the sync writes instead of :func:`~sheets_sync.render.tabs.owned_tabs` when the Tournament
tab says «Формат: сезон»: the season's Standings and Evenings in place of the stages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from scoring import labels as L
from scoring.cells import column_letter
from scoring.problems import Problem
from scoring.season import Season, SeasonStanding, season
from scoring.standings import Results
from sheets_sync.backends.base import PageSetup, Style, TabWrite
from sheets_sync.render.paper import LINE_PT, columns_on_paper, paper_page
from sheets_sync.render.progress_text import season_headline
from sheets_sync.render.season_text import (
    NUMBER_COLUMNS,
    column_header,
    column_value,
    evening_status,
    evening_title,
    main_word,
    place_text,
    season_columns,
    season_covers,
)
from sheets_sync.render.tabs import (
    HEADER_HEIGHT,
    HEADER_ROW,
    HEADING_ROWS,
    TABLE_PAGE,
    TOP_ROWS,
    header_styles,
    heading,
    heading_styles,
    number,
    number_styles,
    problems_tab,
    statistics_tab,
    tab_title,
    tiebreak_text,
)
from sheets_sync.render.team_tabs import side_rows, side_tabs
from sheets_sync.render.words import ru_en

__all__ = ["owned_season_tabs", "season_standings_tab", "evenings_tab"]


def _ranking_word(s: Season, language: str) -> str:
    by = {"average": ru_en("по среднему за игру", "by the average per game", language),
          "rating": ru_en("по рейтингу игрока", "by the player rating", language)}.get(
        s.ranking, ru_en("по сумме очков", "by the total", language))
    needed = ru_en(f", в рейтинге — от {s.min_games} игр", f", ranked from {s.min_games} games", language) \
        if s.min_games > 1 else ""
    if s.ranking == "rating":
        return ru_en("Порядок ", "Ranked ", language) + by + needed
    return ru_en("Рейтинг ", "Ranked ", language) + by + needed


def _row(s: Season, e: SeasonStanding, columns: Sequence[str], language: str) -> tuple:
    why = tiebreak_text(e.standing, language) or "" if e.ranked else ""
    cells = [column_value(s, e, key, language, why=why) for key in columns]
    main = column_value(s, e, s.ranking, language)
    return (place_text(e) or None, e.player, None if main == "" else main if s.ranking == "rating" else number(main),
            *((number(v) if key in NUMBER_COLUMNS else v if v != "" else None) for key, v in zip(columns, cells)))


def season_standings_tab(results: Results, language: str) -> TabWrite:
    """The season table clubs keep: place, name, the scheme's main number, then the scheme's columns
    (``season.columns``); the ranked, then the provisional (places in parentheses), then who has not played."""
    s = season(results)
    columns = season_columns(s, results.preset.season.columns)
    header = (ru_en("Место", "Place", language), ru_en("Игрок", "Player", language), main_word(s, language),
              *(column_header(key, language) for key in columns))
    title = tab_title(results.tournament.name, season_headline(len(s.evenings), s.games, language))
    status = f"{_ranking_word(s, language)}. {season_covers(s, language)}"
    rows: list[tuple] = [*heading(title, status), header, *(_row(s, e, columns, language) for e in s.standings)]
    provisional = [e for e in s.below_minimum if e.provisional]
    unplayed = [e for e in s.below_minimum if not e.provisional]
    n = max(1, s.min_games)
    if provisional:  # the same order goes on: places after the ranked, in parentheses
        rows += [*([()] if s.standings else []), (ru_en(f"Меньше {n} игр: места предварительные (в скобках)", f"Fewer than {n} games: "
                            "provisional places (in parentheses)", language),)]
        rows += [_row(s, e, columns, language) for e in provisional]
    if unplayed:
        rows += [*([()] if s.standings or provisional else []), (ru_en("Ещё не играли в этом сезоне", "Not played this season yet", language),)]
        rows += [_row(s, e, columns, language) for e in unplayed]
    numbers = [*([] if s.ranking == "rating" else [2]), *(3 + i for i, key in enumerate(columns) if key in NUMBER_COLUMNS)]
    widths = (7, 22, 9, *(_WIDTHS.get(key, 8) for key in columns))
    players_end = len(rows)
    # the team and classification tables under the season's, as under a tournament's standings
    # (place, name, points in the main number's column, the members beside it, why at the end)
    width = max(len(header), 5)
    side = side_rows(results, language, {"place": 0, "name": 1, "points": 2, "note": 3, "why": width - 1}, width)
    rows += side.rows
    return TabWrite(title=L.tab("standings", language), rows=tuple(rows), column_widths=widths, frozen_rows=TOP_ROWS,
                    frozen_cols=3, bold_rows=(0, HEADER_ROW, *(players_end + i for i in side.bold)),
                    row_heights=HEADER_HEIGHT,
                    styles=(*header_styles(len(header), size=HEADER_PT), *number_styles(numbers, TOP_ROWS, players_end - 1),
                            *number_styles([2], players_end, len(rows) - 1), *_right(columns, players_end),
                            *number_styles([3 + i for i, key in enumerate(columns) if key == "rating_change"], TOP_ROWS,
                                           players_end - 1, CHANGE_FORMAT)),
                    page=_season_page(widths, len(rows)))


CHANGE_FORMAT = "+0.00;-0.00;0.00"  # a rating's change as the site shows it: +2.00, -1.50
HEADER_PT = 9  # the header row's small bold type (header_styles' own), the table's smallest text


def _season_page(widths: Sequence[float], rows: int) -> PageSetup:
    """Итоги on A4 at 8 pt or more: the place, the name, the main number and as many of the scheme's
    columns, in its order, as one landscape width holds so (the print area); the others stay on the
    screen. The whole table fitted to the width printed at 5.5 pt (4.5 pt with a rating's columns)."""
    shown = columns_on_paper(widths, smallest_font=HEADER_PT)
    heights = [h if h is not None else LINE_PT for h in HEADER_HEIGHT] + [LINE_PT] * max(rows - len(HEADER_HEIGHT), 0)
    return paper_page(widths[:shown], heights, smallest_font=HEADER_PT, landscape=True, repeat_rows=TOP_ROWS,
                      area=f"A1:{column_letter(shown - 1)}{rows}")


def _right(columns: Sequence[str], count: int) -> tuple[Style, ...]:
    """The short text columns (movement, win rate, a role's wins / games) right-aligned beside the numbers."""
    right = [3 + i for i, key in enumerate(columns) if key in _RIGHT]
    return tuple(Style(cells=f"{column_letter(c)}{TOP_ROWS + 1}:{column_letter(c)}{max(count, TOP_ROWS + 1)}",
                       align="right") for c in right)


_RIGHT = frozenset({"movement", "win_rate", "civilian", "sheriff", "mafia", "don", "last_evening"})
_WIDTHS = {"movement": 6, "games": 5, "evenings": 7, "wins": 6, "first_killed": 4, "best_move": 6, "last_evening": 12,
           "club": 16, "tiebreak": 40, "civilian": 8, "sheriff": 7, "mafia": 7, "don": 6, "rating": 8,
           "rating_change": 8, "rating_red": 8, "rating_black": 8, "rated_games": 9}


def evenings_tab(results: Results, language: str) -> TabWrite:
    """The tab's title and status line, then every evening's standings by total, the newest first: a
    title row, a header, its players."""
    s = season(results)
    header = (ru_en("Место", "Place", language), ru_en("Игрок", "Player", language), ru_en("Очки", "Points", language),
              ru_en("Игр", "Games", language), ru_en("Побед", "Wins", language),
              ru_en("Почему выше следующего", "Why above the next", language))
    status = season_covers(s, language)
    rows: list[tuple] = heading(tab_title(results.tournament.name, L.tab("evenings", language)), status)
    bold: list[int] = [0]
    for evening in reversed(s.evenings):
        bold += [len(rows), len(rows) + 1]
        rows.append((evening_title(evening, language), evening_status(evening, language)))
        rows.append(header)
        rows += [(st.places, st.stats.player, number(st.stats.total), st.stats.games, st.stats.wins,
                  tiebreak_text(st, language) or None) for st in evening.standings]
        if not evening.standings:  # every game of it waits
            rows.append((ru_en("Засчитанных игр пока нет", "No game counted yet", language),))
        rows.append(())
    if not s.evenings:
        rows.append((ru_en("Вечеров пока нет", "No evenings yet", language),))
    # on paper the tab's title and status repeat, not the first evening's heading
    return TabWrite(title=L.tab("evenings", language), rows=tuple(rows), column_widths=(24, 22, 9, 6, 6, 40),
                    bold_rows=tuple(bold), styles=(*heading_styles(), *number_styles([2], HEADING_ROWS, len(rows) - 1)),
                    page=replace(TABLE_PAGE, repeat_rows=HEADING_ROWS))


def owned_season_tabs(results: Results, problems: Sequence[Problem], language: str, *, links: bool) -> list[TabWrite]:
    """The owned tabs of a club season: Standings, Evenings, the teams' and classifications' (only
    with the Players tab's «Команда» / «Зачёт»), Statistics, Problems."""
    return [season_standings_tab(results, language), evenings_tab(results, language), *side_tabs(results, language),
            statistics_tab(results, language), problems_tab(problems, language, links=links, name=results.tournament.name)]
