"""A club season in words, the same in every output (the Итоги and Вечера tabs, the site, the
VK posts, the console): a place as shown (provisional in parentheses), the scheme's main
number, the movement since the last evening, where an evening stands, which evenings a table
covers.  Pure functions of :mod:`scoring.season`'s objects.
"""

from __future__ import annotations

from scoring.preset_settings import RATING_COLUMNS
from scoring.season import Evening, Season, SeasonStanding, season
from sheets_sync.render.json_out import change_text, points, rating_text
from sheets_sync.render.progress_text import evening_date
from sheets_sync.render.words import ru_en

__all__ = ["place_text", "main_value", "main_word", "movement_text", "provisional_note", "evening_title",
           "evening_status", "season_covers", "season_console_rows", "season_columns", "column_header", "column_title",
           "column_value", "NUMBER_COLUMNS", "COUNT_COLUMNS", "RATING_VALUES", "rating_text", "change_text", "cell_text"]


def place_text(e: SeasonStanding) -> str:
    """«3», «3–6»; a provisional place (below the minimum of games) in parentheses: «(10)»; "" without a game."""
    return f"({e.standing.places})" if e.provisional else e.standing.places


def main_value(s: Season, e: SeasonStanding) -> str:
    """The number the scheme ranks by: the average per game, the total or the rating, as shown
    (a rating below the scheme's minimum of games: «—»)."""
    if s.ranking == "rating":
        return rating_text(column_value(s, e, "rating", "")) or "—"
    return points(e.average if s.ranking == "average" else e.stats.total)


def main_word(s: Season, language: str) -> str:
    if s.ranking == "rating":
        return ru_en("Рейтинг", "Rating", language)
    return ru_en("Среднее", "Average", language) if s.ranking == "average" else ru_en("Сумма", "Total", language)


def movement_text(e: SeasonStanding, language: str) -> str:
    """Since the evening before the last one: «↑2», «↓1», «=», «новый» (his first evening); "" otherwise."""
    if e.new:
        return ru_en("новый", "new", language)
    if e.movement is None:
        return ""
    return f"↑{e.movement}" if e.movement > 0 else f"↓{-e.movement}" if e.movement < 0 else "="


def provisional_note(s: Season, language: str) -> str:
    """What a place in parentheses means (empty when no place is provisional)."""
    if not any(e.provisional for e in s.below_minimum):
        return ""
    n = max(1, s.min_games)
    return ru_en(f"(места в скобках) — предварительные: меньше {n} игр", f"(places in parentheses): provisional, "
                 f"fewer than {n} games", language)


def _evening_name(e: Evening, language: str) -> str:
    return ru_en(f"Вечер {evening_date(e.date)}", f"Evening {evening_date(e.date)}", language) if e.date else \
        ru_en("Игры без даты", "Games without a date", language)


def evening_title(e: Evening, language: str) -> str:
    """«Итоги вечера 05.12.2026» once every game typed in counts; «Вечер 05.12.2026: промежуточные
    итоги» while one waits (nothing is worded as final then)."""
    if not e.date:
        return _evening_name(e, language)
    if e.waiting:
        return ru_en(f"Вечер {evening_date(e.date)}: промежуточные итоги",
                     f"Evening {evening_date(e.date)}: provisional results", language)
    return ru_en(f"Итоги вечера {evening_date(e.date)}", f"Results of the evening {evening_date(e.date)}", language)


def evening_status(e: Evening, language: str, *, named: bool = True) -> str:
    """«Вечер 05.12.2026: игр 3, засчитано 1, ждут исправления 2» (and «не закончены 1»);
    ``named=False``: the counts alone, beside the evening's title."""
    parts = [ru_en(f"игр {e.typed}", f"{e.typed} games", language),
             ru_en(f"засчитано {len(e.games)}", f"{len(e.games)} counted", language)]
    if e.with_errors:
        parts.append(ru_en(f"ждут исправления {e.with_errors}", f"{e.with_errors} awaiting a correction", language))
    if e.unfinished:
        parts.append(ru_en(f"не закончены {e.unfinished}", f"{e.unfinished} not finished", language))
    return (f"{_evening_name(e, language)}: " if named else "") + ", ".join(parts)


def season_covers(s: Season, language: str) -> str:
    """Which evenings the table covers: «Учтены вечера 05.12.2026–19.12.2026 (3), игр 5», and the
    games that wait: «; ждут исправления или окончания: 2 (вечер 19.12.2026)»."""
    dated = [e.date for e in s.evenings if e.games and e.date]
    if not s.games:
        line = ru_en("Засчитанных игр пока нет", "No game counted yet", language)
    elif len(dated) == 1:
        line = ru_en(f"Учтён вечер {evening_date(dated[0])}, игр {s.games}",
                     f"Covers the evening of {evening_date(dated[0])}, {s.games} games", language)
    else:
        span = f"{evening_date(dated[0])}–{evening_date(dated[-1])}" if dated else ""
        line = ru_en(f"Учтены вечера {span} ({len(dated)}), игр {s.games}",
                     f"Covers the evenings {span} ({len(dated)}), {s.games} games", language)
    waiting = [e for e in s.evenings if e.waiting]
    if waiting:
        days = ", ".join(evening_date(e.date) for e in waiting if e.date)
        line += ru_en(f"; не учтены, пока ждут исправления или окончания: {s.waiting}",
                      f"; not counted yet, awaiting a correction or a winner: {s.waiting}", language)
        line += ru_en(f" (вечер {days})", f" (evening {days})", language) if days else ""
    return line


def season_console_rows(results, top: int, language: str) -> tuple[tuple[str, str], list[tuple[str, str, str, str]]]:
    """The console's table of a sync: the header of the main number (en, ru) and the first ``top``
    who played, in the season's one order."""
    s = season(results)
    main = {"average": ("Average", "Среднее"), "rating": ("Rating", "Рейтинг")}.get(s.ranking, ("Total", "Итого"))
    return main, [(place_text(e), e.player, main_value(s, e), str(e.stats.games))
                  for e in s.table if e.stats.games][:top]


# -- the season table's columns (the scheme's ``season.columns``) ------------------------------------------
_HEADERS = {
    "movement": ("±", "±"), "total": ("Сумма", "Total"), "average": ("Среднее", "Average"), "games": ("Игр", "Games"),
    "evenings": ("Вечеров", "Evenings"), "wins": ("Побед", "Wins"), "win_rate": ("Побед, %", "Win %"),
    "civilian": ("Мирный", "Civilian"), "sheriff": ("Шериф", "Sheriff"), "mafia": ("Мафия", "Mafia"),
    "don": ("Дон", "Don"), "first_killed": ("ПУ", "Killed first"), "best_move": ("ЛХ", "Best move"),
    "extra": ("Доп. баллы", "Extra points"), "penalties": ("Штрафы", "Penalties"),
    "last_evening": ("Последний вечер", "Last evening"), "club": ("Клуб", "Club"),
    "tiebreak": ("Почему выше следующего / игр до рейтинга", "Why above the next / games to be ranked"),
    "rating": ("Рейтинг", "Rating"), "rating_change": ("± рейтинга", "Rating ±"),
    "rating_red": ("Рейтинг красных", "Red rating"), "rating_black": ("Рейтинг чёрных", "Black rating"),
    "rated_games": ("Игр в рейтинге", "Rated games"),
}
_TITLES = {  # what a short header means (the site's title attribute)
    "movement": ("место с прошлого вечера", "places since the last evening"),
    "civilian": ("побед / игр мирным", "wins / games as a civilian"),
    "sheriff": ("побед / игр шерифом", "wins / games as the sheriff"),
    "mafia": ("побед / игр мафией", "wins / games as mafia"), "don": ("побед / игр доном", "wins / games as the don"),
    "first_killed": ("первый убитый: раз", "times killed first"), "best_move": ("очки за лучший ход",
                                                                           "best move points"),
    "rating_change": ("изменение рейтинга за последний вечер", "the rating's change on the last evening"),
    "rating_red": ("рейтинг за игры красным", "the rating of the games played red"),
    "rating_black": ("рейтинг за игры чёрным", "the rating of the games played black"),
}
NUMBER_COLUMNS = frozenset({"total", "average", "extra", "best_move", "penalties"})  # points: a number cell
COUNT_COLUMNS = frozenset({"games", "evenings", "wins", "first_killed", "rated_games"})
RATING_VALUES = frozenset({"rating", "rating_red", "rating_black"})  # a rating as shown: a number, no points format


def season_columns(s: Season, preset_columns) -> list[str]:
    """The scheme's columns, without the main number (shown beside the name already).  With a
    rating and none of its columns listed, all of them come after the movement; without a
    rating, its columns are left out."""
    main = {"average": "average", "rating": "rating"}.get(s.ranking, "total")
    columns = list(preset_columns)
    if s.rating is None:
        columns = [c for c in columns if c not in RATING_COLUMNS]
    elif not any(c in RATING_COLUMNS for c in columns):
        at = columns.index("movement") + 1 if "movement" in columns else 0
        columns[at:at] = RATING_COLUMNS
    return [c for c in columns if c != main]


def cell_text(key: str, value) -> str:
    """A season table cell as the site and the screen show it: points with two places, a rating
    as the scheme shows it, its change signed."""
    if key in NUMBER_COLUMNS:
        return points(value)
    if key == "rating_change":
        return change_text(value)
    return rating_text(value)


def column_header(key: str, language: str) -> str:
    return ru_en(*_HEADERS[key], language)


def column_title(key: str, language: str) -> str:
    return ru_en(*_TITLES[key], language) if key in _TITLES else column_header(key, language)


def _role_cell(s: Season, e: SeasonStanding, key: str) -> str:
    record = next((r for r in (s.players[e.player].roles if e.player in s.players else ()) if r.role.value == key), None)
    return f"{record.wins} / {record.games}" if record and record.games else ""


def column_value(s: Season, e: SeasonStanding, key: str, language: str, *, why: str = ""):
    """A cell of the season table: a Decimal for points, an int for counts, text otherwise
    (``why``: the tiebreak's words, worked out by the caller)."""
    if key in RATING_COLUMNS:  # before the dict below, which works out the average
        return _rating_cell(s, e, key)
    st = e.stats
    values = {"total": st.total, "average": e.average, "extra": st.extra_points, "best_move": st.best_move_points,
              "penalties": st.penalties, "games": st.games, "evenings": e.evenings, "wins": st.wins,
              "first_killed": st.shot_first}
    if key in values:
        return values[key]
    if key == "win_rate":
        return f"{round(100 * st.wins / st.games)}%" if st.games else ""
    if key in ("civilian", "sheriff", "mafia", "don"):
        return _role_cell(s, e, key)
    if key == "movement":
        return movement_text(e, language)
    if key == "last_evening":
        return evening_date(e.last_evening)
    if key == "club":
        return st.club
    return why if e.ranked else ru_en(f"ещё {e.games_needed}", f"{e.games_needed} more", language)


def _rating_cell(s: Season, e: SeasonStanding, key: str):
    """A rating column's cell: the rating, a side rating or the last evening's change as a Decimal
    (as the scheme shows it), the rated games as a count; "" below the scheme's minimum of games
    (the rating is not listed yet) or for a change when he did not play the last evening."""
    rating = s.rating
    if rating is None or e.player not in rating.lines:
        return ""
    line = rating.lines[e.player]
    if key == "rated_games":
        return line.games
    if key == "rating_change":
        return "" if line.last_evening is None else rating.scheme.shown_change(line.last_evening)
    if not rating.listed(e.player):
        return ""
    return rating.scheme.shown({"rating": line.overall, "rating_red": line.red, "rating_black": line.black}[key])
