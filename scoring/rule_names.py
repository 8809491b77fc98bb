"""The name of every rule, as the Проверка / Problems tab shows it in its «Правило» / «Rule» column.

A rule id (``extra.range``) is the program's; an organizer reads «Доп. баллы вне диапазона».
Every id of :data:`scoring.problems.MESSAGES` has a name here in both languages
(tests/test_rules.py checks it): a new rule is its message there and its name here.
"""

from __future__ import annotations

__all__ = ["RULE_NAMES", "rule_name"]

# rule id -> (Russian name, English name)
RULE_NAMES: dict[str, tuple[str, str]] = {
    # reading
    "read.tab_missing": ("Нет вкладки", "Tab missing"),
    "read.required_tab": ("Нет нужной вкладки", "Required tab missing"),
    "read.tab_renamed": ("Вкладка переименована", "Tab renamed"),
    "game.tab_gone": ("Вкладка игры удалена", "Game tab deleted"),
    "seating.tab_gone": ("Рассадка удалена", "Seating deleted"),
    "values.not_remembered": ("Слишком много ячеек", "Too many cells"),
    "read.label_missing": ("Нет строки шапки", "Header row missing"),
    "read.table_missing": ("Нет таблицы протокола", "Protocol table missing"),
    "read.column_missing": ("Нет столбца", "Column missing"),
    "read.number": ("Не число", "Not a number"),
    "read.integer": ("Не целое число", "Not a whole number"),
    "read.date_guessed": ("Число стало датой", "Number turned into a date"),
    "read.formula": ("Формула вместо значения", "Formula instead of a value"),
    "read.role": ("Неизвестная роль", "Unknown role"),
    "read.role_lookalike": ("Латинская буква в роли", "A letter of the other alphabet in a role"),
    "read.winner": ("Непонятный победитель", "Unreadable winner"),
    "read.stage": ("Неизвестный этап", "Unknown stage"),
    "read.removal": ("Непонятное удаление", "Unreadable removal"),
    "read.best_move": ("Непонятный лучший ход", "Unreadable best move"),
    "read.seat_number": ("Неверный номер места", "Wrong seat number"),
    "read.status": ("Неизвестный статус", "Unknown status"),
    "read.application": ("Неизвестное состояние заявки", "Unknown application state"),
    "registration.over_places": ("Участников больше, чем мест", "More players than places"),
    "registration.out_of_turn": ("Подтверждена вне очереди", "Confirmed out of turn"),
    "registration.late_excuse": ("Пропуск заявлен поздно", "Excused round announced late"),
    "registration.unknown_time_zone": ("Неизвестный часовой пояс", "Unknown time zone"),
    "read.mwt_id": ("Неверный ID MWT", "Invalid MWT ID"),
    "read.rounds_list": ("Непонятный список туров", "Unreadable list of rounds"),
    "read.penalty_reason": ("Неизвестная причина штрафа", "Unknown penalty reason"),
    "read.duplicate_player": ("Игрок записан дважды", "Player registered twice"),
    "read.similar_players": ("Похожие ники", "Nicknames alike"),
    "read.similar_teams": ("Команда записана по-разному", "Team spelled differently"),
    "read.team_of_judge": ("Команда у судьи", "A judge with a team"),
    "read.unknown_setting": ("Неизвестная настройка", "Unknown setting"),
    "read.bad_setting": ("Неверная настройка", "Invalid setting"),
    "read.unknown_preset": ("Неизвестный регламент", "Unknown preset"),
    "read.too_long": ("Слишком длинное значение", "Value too long"),
    "read.value_ignored": ("Значение не используется", "Value not used"),
    "internal.error": ("Внутренняя ошибка программы", "Internal error"),
    # protection
    "protect.tab_restored": ("Защита вкладки восстановлена", "Tab protection restored"),
    "protect.cells_restored": ("Защита ячеек восстановлена", "Cell protection restored"),
    # seating
    "seating.unknown_player": ("Рассадка: неизвестный игрок", "Seating: unknown player"),
    "seating.twice_in_round": ("Рассадка: игрок дважды в туре", "Seating: player twice in a round"),
    "seating.seat_count": ("Рассадка: не 10 игроков за столом", "Seating: not 10 players at a table"),
    "seating.duplicate_game": ("Рассадка: игра указана дважды", "Seating: game listed twice"),
    # protocols
    "penalty.no_reason": ("Штраф без причины", "Penalty without a reason"),
    "protocol.summary_conflict": ("Итоговая строка противоречит местам", "Summary line contradicts the seats"),
    "protocol.seat_rows": ("Не 10 строк мест", "Not 10 seat rows"),
    "protocol.no_header": ("Игра без шапки", "Game without a header"),
    "protocol.duplicate_evening": ("Игра вечера записана дважды", "Evening's game recorded twice"),
    "protocol.duplicate": ("Протокол повторяется", "Duplicate protocol"),
    "game.secret": ("Игра идёт: подробности в примечании", "Game in play: details in the note"),
    "protocol.not_finished": ("Игра не закончена", "Game not finished"),
    "protocol.unconfirmed": ("Протокол не подтверждён", "Protocol not confirmed"),
    "protocol.changed_after_confirmation": ("Изменён после подтверждения", "Changed after confirmation"),
    "protocol.header_mismatch": ("Шапка не совпадает с вкладкой", "Header does not match the tab"),
    "protocol.no_seating": ("Нет рассадки для игры", "No seating for the game"),
    "protocol.round_range": ("Тур вне этапа", "Round outside the stage"),
    "protocol.other_table": ("Протокол другого стола", "Another table's protocol"),
    "protocol.unread_rows": ("Лишние строки под протоколом", "Unread rows below a protocol"),
    "evening.date_unreadable": ("Непонятная дата вечера", "Unreadable evening date"),
    "evening.date_form": ("Дата вечера не полностью", "Evening date incomplete"),
    "evening.date_mismatch": ("Дата вечера не как в названии", "Evening date differs from the title"),
    "dispute.unknown_game": ("Спор о несуществующей игре", "Dispute about an unknown game"),
    "dispute.bad_status": ("Неизвестный статус спора", "Unknown dispute status"),
    # roles and players
    "roles.composition": ("Неверный состав ролей", "Wrong set of roles"),
    "roles.composition_marked": ("Лишние роли при пустых", "Too many of a role, others empty"),
    "roles.missing": ("Нет роли", "Role missing"),
    "player.missing": ("Нет игрока", "Player missing"),
    "player.unknown": ("Неизвестный игрок", "Unknown player"),
    "player.folded": ("Ник написан иначе", "Nickname spelled differently"),
    "player.ambiguous": ("Неоднозначный ник", "Ambiguous nickname"),
    "player.duplicate": ("Игрок дважды за столом", "Player twice at a table"),
    "player.two_games": ("Две игры в одном туре", "Two games in one round"),
    "player.two_games_evening": ("Две игры одновременно", "Two games at once"),
    "player.not_seated_here": ("Не по рассадке", "Not as seated"),
    "player.substitute": ("Замена игрока", "Substitute player"),
    "player.inactive": ("Выбывший игрок за столом", "Inactive player seated"),
    # the game's course
    "fouls.range": ("Фолов вне диапазона", "Fouls out of range"),
    "fouls.not_removed": ("4 фола без удаления", "4 fouls, not removed"),
    "leave.twice": ("Игрок выбыл дважды", "Player left twice"),
    "leave.after_end": ("Выбыл после конца игры", "Left after the game ended"),
    "kill.night_twice": ("Два отстрела за ночь", "Two shot in one night"),
    "kill.night_range": ("Невозможная ночь", "Impossible night"),
    "vote.day_range": ("Невозможный день голосования", "Impossible voting day"),
    "vote.four_left": ("Двое выбыли при четырёх", "Two voted out of four"),
    "removal.day_range": ("Невозможный день удаления", "Impossible removal day"),
    # points
    "best_move.not_first_shot": ("Лучший ход не от первого убитого", "Best move not by the first shot"),
    "best_move.not_author": ("Лучший ход не от того игрока", "Best move by the wrong player"),
    "best_move.after_miss": ("Лучший ход после промаха", "Best move after a miss"),
    "best_move.seats": ("Неверные места лучшего хода", "Invalid best move seats"),
    "best_move.partial": ("Лучший ход не из трёх мест", "Best move not of three seats"),
    "best_move.black": ("Лучший ход чёрного игрока", "Best move by a black player"),
    "extra.range": ("Доп. баллы вне диапазона", "Extra points out of range"),
    "extra.step": ("Доп. баллы не кратны шагу", "Extra points off the step"),
    # the winner
    "winner.contradiction": ("Победитель противоречит протоколу", "Winner contradicts the protocol"),
    "winner.incomplete": ("Победа не подтверждена", "Win not confirmed"),
    "winner.undated_removal": ("Удаление без дня", "Removal without a day"),
    "winner.unverifiable": ("Победу нельзя проверить", "Win cannot be checked"),
    # penalties
    "penalty.unknown_player": ("Штраф: неизвестный игрок", "Penalty: unknown player"),
    "penalty.late_tier": ("Опоздание без штрафа", "Lateness without a penalty"),
    "penalty.excused_many": ("Слишком много пропусков без штрафа", "Too many excused rounds"),
}


def rule_name(rule: str, language: str) -> str:
    """The name of ``rule`` in ``language`` ("en", else Russian); the id itself for a rule not named yet."""
    names = RULE_NAMES.get(rule)
    if names is None:
        return rule
    return names[1] if language == "en" else names[0]
