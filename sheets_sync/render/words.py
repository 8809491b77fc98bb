"""The words people read in every output (owned tabs, site, VK post, printable blanks), in Russian or English.

One table of the site's, the post's and the blanks' words (:data:`UI`, :func:`ui`), the one
way to choose between a Russian and an English text (:func:`ru_en`), role names, and
:func:`plain_text` for outputs that are one plain line (the post, the picture).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from scoring import labels as L

__all__ = ["UI", "ui", "ru_en", "role_name", "plain_text", "state_words"]

# words of the site, the post and the blanks: key -> (ru, en)
UI: dict[str, tuple[str, str]] = {
    "standings": ("Итоги", "Standings"),
    "statistics": ("Статистика", "Statistics"),
    "players": ("Игроки", "Players"),
    "games": ("Игры", "Games"),
    "place": ("Место", "Place"),
    "player": ("Игрок", "Player"),
    "club": ("Клуб", "Club"),
    "city": ("Город", "City"),
    "total": ("Итого", "Total"),
    "this_stage": ("За этап", "This stage"),
    "teams": ("Команды", "Teams"),
    # registration (issue 45): the «Участники» page
    "entrants": ("Участники", "Entrants"),
    "entrants_in": ("Участвуют", "Taking part"),
    "entrants_waiting": ("Лист ожидания", "Waiting list"),
    "entrants_places": ("Мест", "Places"),
    "entrants_left": ("свободно", "free"),
    "entrants_pending": ("заявок ждут решения организатора", "applications await the organizer"),
    "entrants_none": ("Пока никого", "Nobody yet"),
    "entrants_waiting_note": ("Освободившееся место получает первый в очереди", "A freed place goes to the first in line"),
    "team": ("Команда", "Team"),
    "team_points": ("Очки", "Points"),
    "members": ("Игроки команды", "Members"),
    "counted": ("В зачёте", "Counted"),
    "team_not_counted": ("не в зачёте команды", "not counted for the team"),
    "classification": ("Зачёт", "Classification"),
    "games_n": ("Игр", "Games"),
    "wins": ("Побед", "Wins"),
    "wins_don": ("Побед доном", "Wins as don"),
    "wins_sheriff": ("Побед шерифом", "Wins as sheriff"),
    "wins_mafia": ("Побед мафией", "Wins as mafia"),
    "extra": ("Доп. баллы", "Extra points"),
    "best_move": ("Лучший ход", "Best move"),
    "penalties": ("Штрафы", "Penalties"),
    "shot_first": ("Убит первым", "Shot first"),
    "eligible": ("Призы", "Awards"),
    # «Призы: да» on every row said nothing: the column marks only who is out of the awards, once explained
    "not_eligible": ("без приза", "no award"),
    "not_eligible_legend": ("«без приза» — по регламенту не участвует в награждении (пропуски туров, дисквалификация); "
                            "остальные участвуют", "“no award”: out of the awards under the regulation (missed rounds, "
                            "disqualification); everyone else takes part"),
    "winners": ("Победители", "Winners"),
    "final_winner": ("Победитель финала", "Winner of the final"),
    "why": ("Почему выше следующего", "Why above the next"),
    "round": ("Тур", "Round"),
    "game": ("Игра", "Game"),
    "table": ("Стол", "Table"),
    "seat": ("Место", "Seat"),
    "role": ("Роль", "Role"),
    "result": ("Результат", "Result"),
    "win": ("победа", "win"),
    "loss": ("поражение", "loss"),
    "coefficient": ("Коэфф.", "Coef."),
    "points": ("Очки", "Points"),
    "stage": ("Этап", "Stage"),
    "judge": ("Судья", "Judge"),
    "checked_by": ("Проверил", "Checked by"),
    "winner": ("Победа", "Winner"),
    "fouls": ("Фолы", "Fouls"),
    "killed_night": ("Убит ночью", "Shot night"),
    "voted_day": ("Заголосован днём", "Voted out day"),
    "removal": ("Удалён", "Removed"),
    "comment": ("Комментарий", "Comment"),
    "protocol": ("Протокол игры", "Game protocol"),
    "not_counted": ("Игра не засчитана (не закончена или в протоколе есть ошибки)",
                    "Game not counted (unfinished or the protocol has errors)"),
    "substitute": ("замена: очков не приносит", "substitute: earns nobody points"),
    "go_on": ("Проходят дальше", "Go on"),
    "tied_cut": ("Равенство на границе", "Tied at the cut line"),
    "reason": ("Причина", "Reason"),
    "excused": ("заявленный пропуск, без штрафа", "announced skip, no penalty"),
    "derived": ("найдено по рассадке", "found from the seating"),
    "overall_place": ("Место в итогах", "Overall place"),
    "status": ("Статус", "Status"),
    "games_counted": ("Засчитано игр", "Games counted"),
    "awaiting": ("Ждут подтверждения второго судьи, в итогах пока не учтены", "Awaiting a second judge's confirmation, not in these results yet"),
    "game_unconfirmed": ("не подтверждён", "not confirmed"),
    "game_changed": ("изменён после подтверждения", "changed after confirmation"),
    "game_edited": ("изменён после подтверждения", "changed after confirmation"),
    "game_disputed": ("протест: игра оспаривается", "disputed: a protest is open"),
    "game_cancelled": ("отменена по протесту", "cancelled on a protest"),
    "games_state": ("Состояние игр", "Games' state"),
    "red_wins": ("Побед мирных", "Red wins"),
    "black_wins": ("Побед мафии", "Black wins"),
    "red_won": ("победа мирных", "the red team won"),  # one game's result (a club evening's list of games)
    "black_won": ("победа мафии", "the black team won"),
    "red_rate": ("Доля побед мирных", "Red win rate"),
    "best_moves_scored": ("Лучших ходов с баллами", "Best moves with points"),
    "by_seat": ("По местам за столом", "By seat"),
    "by_role": ("По ролям", "By role"),
    "by_table": ("По столам", "By table"),
    "nominations": ("Номинации", "Nominations"),
    "measure": ("Показатель", "Measure"),
    "value": ("Значение", "Value"),
    "recognised_best": ("Признан лучшим", "Recognised best"),
    "chief_judge": ("Главный судья", "Chief judge"),
    "no_games": ("Игр пока нет", "No games yet"),
    # a club season (sheets_sync.render.season_site)
    "season_total": ("Сумма", "Total"),
    "average": ("Среднее", "Average"),
    "evenings": ("Вечера", "Evenings"),
    "evening": ("Вечер", "Evening"),
    "date": ("Дата", "Date"),
    "below_minimum": ("Пока вне рейтинга: меньше {n} игр", "Not ranked yet: fewer than {n} games"),
    "games_needed": ("Ещё игр до рейтинга", "Games still needed"),
    "history": ("История игр", "Games played"),
    "roles_stats": ("По ролям", "By role"),
    "win_rate": ("Доля побед", "Win rate"),
    "best_move_accuracy": ("Точность лучшего хода", "Best move accuracy"),
    "points_over_time": ("Очки по вечерам", "Points after each evening"),
    "season_place": ("Место в сезоне", "Season place"),
    "ranked_by_total": ("Рейтинг по сумме очков", "Ranked by the total"),
    "ranked_by_average": ("Рейтинг по среднему за игру", "Ranked by the average per game"),
    "ranked_by_rating": ("Порядок по рейтингу игрока", "Ranked by the player rating"),
    "rating_before": ("Рейтинг до турнира", "Rating before"),
    "rating_after": ("Рейтинг после турнира", "Rating after"),
    "rating_change": ("Изменение рейтинга", "Rating change"),
    "rating": ("Рейтинг", "Rating"),
    "rating_red": ("Рейтинг красных", "Red rating"),
    "rating_black": ("Рейтинг чёрных", "Black rating"),
    "rated_games": ("Игр в рейтинге", "Rated games"),
    "rating_last_evening": ("± рейтинга за последний вечер", "Rating ± on the last evening"),
    "rating_after_evening": ("Рейтинг после каждого вечера", "Rating after each evening"),
    "points_of_game": ("Очки за игру", "Points from the game"),
    "blacks_named": ("чёрных", "blacks"),
    "menu": ("Разделы", "Sections"),
    "all_games": ("Все игры", "All games"),
    "not_counted_short": ("не засчитана", "not counted"),
    "problems": ("Проблемы в протоколе", "Problems in the protocol"),
    "final_table": ("Итоговая таблица", "Final standings"),
    "standings_top": ("Таблица", "Standings"),
    "seating": ("Рассадка", "Seating"),
    "judge_qr": ("Для судьи стола", "For the table's judge"),  # under the QR on a table's seating poster
    "no_seating": ("Рассадки следующего тура пока нет", "No seating for the next round yet"),
    "screen_more": ("Вся таблица — на сайте турнира", "The full standings are on the tournament's site"),
    "yes": ("да", "yes"),
    "no": ("нет", "no"),
    "red": ("Мирные", "Red"),
    "seat_n": ("Место", "Seat"),
    "upcoming": ("Предстоящие игры", "Upcoming games"),
    "not_played_short": ("ещё не сыграна", "not played yet"),
    "played_round": ("сыгран", "played"),
    "current_round": ("текущий", "current"),
    "seating_none": ("Рассадки пока нет", "No seating yet"),
    # the seating page: «where do I sit», a list by name (issue 34 §10)
    "seat_lookup": ("Где я сижу: игроки по алфавиту", "Where do I sit: players by name"),
    "table_seat": ("стол {table}, место {seat}", "table {table}, seat {seat}"),
    "black": ("Мафия", "Black"),
    # under the seating: the draw's fairness report (issue 45)
    "draw_report": ("Отчёт о жеребьёвке", "Draw report"),
}


# what a short header of the points breakdown (scoring.items' names: «ДБ», «ЛХ») stands for, in the
# legend under the table and its <abbr title> (issue 34 §11: «Доп. баллы» typed, «ДБ» the points)
ITEM_FULL: dict[str, tuple[str, str]] = {
    "extra": ("очки за доп. баллы", "points of the extra points"),
    "auto_extra": ("автоматические доп. баллы", "automatic extra points"),
    "best_move": ("очки за лучший ход", "points of the best move"),
    "ci": ("компенсация за отстрел в первую ночь", "compensation for being shot on the first night"),
}


def item_full(key: str, language: str) -> str:
    """What the breakdown's column of the point item ``key`` stands for ("" when its name says it)."""
    words = ITEM_FULL.get(key)
    return ru_en(*words, language) if words else ""


def ui(key: str, language: str) -> str:
    """The word ``key`` of :data:`UI` in ``language``."""
    return ru_en(*UI[key], language)


def ru_en(ru: str, en: str, language: str) -> str:
    """``en`` for an English tournament, else ``ru``."""
    return en if language == "en" else ru


def role_name(role: Any, language: str) -> str:
    """A role (``Role`` or its value) as people call it; empty for none."""
    if role is None:
        return ""
    return L.word(getattr(role, "value", str(role)), language)


def plain_text(value: object) -> str:
    """One line of text: control characters and line breaks become spaces (post and picture)."""
    text = "" if value is None else str(value)
    text = "".join(" " if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch for ch in text)
    return re.sub(r" {2,}", " ", text).strip()


def state_words(states: tuple[str, ...], language: str) -> str:
    """What the outputs say about a game's confirmation and disputes (:func:`scoring.standings.game_states`)."""
    return "; ".join(ui("game_" + key, language) for key in states)
