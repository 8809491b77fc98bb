"""Problems found while reading and validating: rule id, severity, place, message ru/en.

A problem never stops a run: every reader and rule returns all problems it finds
(like pypa/packaging's metadata validation), and the sync shows them all at once.
Messages are templates in both languages with the values involved filled in.

A problem that involves several cells (two dons, two players shot in one night, the winner and
the departure that contradicts it) has one ``location`` — where it is listed — and the other
cells in ``related``; the sync marks every one of them.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from scoring.model import Location

__all__ = ["Severity", "Problem", "MESSAGES", "problem", "Text", "cell_names", "reading_order", "more_problems",
           "severity_counts"]


class Severity(enum.Enum):
    ERROR = "error"  # the game (or value) does not count until fixed
    WARNING = "warning"  # counts, but listed


# what a cycle stopped by a missing tab does not do (said after the tab's name)
_STOPPED = ("Пока её нет, синхронизация не пересчитывает итоги и ничего не публикует: итоги, сайт и пост остаются прежними",
            "Until then the sync does not recompute the standings and publishes nothing: the standings, the site and the "
            "post stay as they were")

# rule id -> (Russian template, English template); placeholders are str.format fields.
MESSAGES: dict[str, tuple[str, str]] = {
    # reading
    "read.tab_missing": ("Нет вкладки «{tab}»", "Tab '{tab}' is missing"),
    # a tab the reading cannot do without (scoring.parse.structure): the sync stops, says so and publishes nothing
    "read.required_tab": (
        "Нет вкладки «{tab}»: {without}. " + _STOPPED[0],
        "There is no tab '{tab}': {without}. " + _STOPPED[1],
    ),
    "read.tab_renamed": (
        "Нет вкладки «{tab}». Похоже, это вкладка «{lookalike}» — верните ей имя «{tab}». " + _STOPPED[0],
        "There is no tab '{tab}'. Tab '{lookalike}' looks like it — rename it back to '{tab}'. " + _STOPPED[1],
    ),
    # what the workbook lost since the last sync (scoring.vanished)
    "game.tab_gone": (
        "Вкладки «{tab}» больше нет, а {what}. Верните вкладку (Файл → История версий) или восстановите {restore} из копии",
        "Tab '{tab}' is gone, and {what}. Bring the tab back (File → Version history) or restore {restore} from a copy",
    ),
    "values.not_remembered": (
        "На вкладке «{tab}» больше {n} заполненных ячеек — столько в турнире не бывает: похоже, сюда что-то вставили "
        "по ошибке. Пока их столько, ошибки этой вкладки не отмечаются в ней самой (они перечислены здесь), "
        "а журнал изменений не следит за ячейками начиная с {cell}",
        "Tab '{tab}' has more than {n} filled cells — no tournament has that many: something seems pasted here by "
        "mistake. While it has that many, its problems are not marked in it (they are listed here), and the change "
        "log does not follow its cells from {cell} on",
    ),
    "seating.tab_gone": (
        "Вкладки «{tab}» больше нет (при прошлой синхронизации она была). Без неё не проверить, что игроки сидят за "
        "своими столами, и не провести жеребьёвку следующего этапа; игры считаются по протоколам. "
        "Верните вкладку (Файл → История версий)",
        "Tab '{tab}' is gone (it was there at the last sync). Without it nobody can check that the players sit at "
        "their tables, and the next stage cannot be drawn; games are counted from the protocols. "
        "Bring the tab back (File → Version history)",
    ),
    "read.label_missing": (
        "Не найдена строка «{label}» в шапке протокола",
        "Header row '{label}' not found in the protocol",
    ),
    "read.table_missing": (
        "Не найдена таблица протокола (строка с заголовками «№», «Игрок», «Роль»…)",
        "Protocol table not found (a header row with '№', 'Player', 'Role'…)",
    ),
    "read.column_missing": ("Нет столбца «{column}»", "Column '{column}' is missing"),
    "read.number": ("«{value}» — не число", "'{value}' is not a number"),
    "read.integer": ("«{value}» — не целое число", "'{value}' is not a whole number"),
    "read.date_guessed": (
        "Таблица превратила ввод в дату ({value}); введите число как текст",
        "The spreadsheet turned the input into a date ({value}); type the number as text",
    ),
    "read.formula": ("Формула вместо значения: {value}", "A formula instead of a value: {value}"),
    "read.role": (
        "«{value}» — неизвестная роль (мирный, шериф, мафия, дон)",
        "'{value}' is not a role (civilian, sheriff, mafia, don)",
    ),
    "read.role_lookalike": (
        "«{value}» — {script} буква «{typed}» вместо {other} «{meant}»: роль «{fixed}» ({role}) пишут {alphabet} буквами",
        "'{value}': the {script} letter '{typed}' in place of the {other} '{meant}' — the role '{fixed}' ({role}) "
        "is typed in {alphabet}",
    ),
    "read.winner": (
        "«{value}» — непонятный победитель: пишите «Мирные» (красные, К) или «Мафия» (чёрные, Ч)",
        "'{value}' is not a winner: write 'Red' (civilians, R) or 'Black' (mafia, B)",
    ),
    "read.stage": ("«{value}» — неизвестный этап", "'{value}' is not a stage"),
    "read.removal": (
        "«{value}»: в «Удалён» пишут «да» или «ППК» (можно с номером дня)",
        "'{value}': 'Removed' takes 'yes' or 'team defeat' (optionally with the day)",
    ),
    "read.best_move": (
        "«{value}» — лучший ход это три номера мест (например «2 5 8»); не засчитан (на зачёт игры это не влияет)",
        "'{value}': a best move is three seat numbers (e.g. '2 5 8'); not scored (this does not keep the game from counting)",
    ),
    "read.seat_number": ("Номер места должен быть {expected}, а не «{value}»", "Seat number must be {expected}, not '{value}'"),
    "read.status": (
        "«{value}» — неизвестный статус (пусто, снялся, дисквалифицирован, запасной, судья)",
        "'{value}' is not a status (empty, withdrawn, disqualified, reserve, judge)",
    ),
    "read.application": (
        "«{value}» — неизвестное состояние заявки (подана, подтверждена, оплачена, лист ожидания, снялась)",
        "'{value}' is not an application state (submitted, confirmed, paid, waiting, withdrawn)",
    ),
    # registration (issue 45, scoring.registration)
    "registration.over_places": (
        "Подтверждено игроков: {taking}, а мест {places} (строка «Мест» вкладки «Турнир»): лишних {over} — "
        "поставьте им «лист ожидания» или увеличьте число мест",
        "{taking} players are confirmed but there are {places} places (the Tournament tab's 'Places'): {over} too many "
        "— put them on the waiting list or raise the places",
    ),
    "registration.out_of_turn": (
        "Заявка «{player}» (подана {applied}) подтверждена раньше очереди: «{first}» в листе ожидания с {first_applied}",
        "'{player}' (applied {applied}) is confirmed out of turn: '{first}' has waited since {first_applied}",
    ),
    "registration.late_excuse": (
        "«Пропуск» заполнен позже срока ({deadline}: за {hours} ч до начала; по журналу изменений — {filled}): "
        "тур без штрафа по регламенту уже не положен; оставьте, если так решил главный судья",
        "The excused round was filled in after the limit ({deadline}: {hours} h before the start; the change log "
        "saw it {filled}) — keep it only if the chief judge decided so",
    ),
    "registration.unknown_time_zone": (
        "«{value}» — неизвестный часовой пояс: сроки регистрации, пропуска и жеребьёвки считаются по часам "
        "сервера. Напишите название пояса, например Europe/Moscow или Europe/Berlin",
        "'{value}' is not a known time zone: the registration's, the excused round's and the draw's times are "
        "read on the server's clock. Type a zone's name, e.g. Europe/Moscow or Europe/Berlin",
    ),
    "read.mwt_id": (
        "«{value}» — ID MWT это целое положительное число",
        "'{value}': an MWT ID is a positive whole number",
    ),
    "read.rounds_list": ("«{value}» — ожидаются номера туров", "'{value}': round numbers expected"),
    "read.penalty_reason": (
        "«{value}» — неизвестная причина (пропуск, опоздание, прочее)",
        "'{value}' is not a reason (missed round, late, other)",
    ),
    "read.duplicate_player": (
        "Игрок «{player}» зарегистрирован дважды (строки {rows})",
        "Player '{player}' is registered twice (rows {rows})",
    ),
    "read.similar_players": (
        "Игроки «{player}» и «{other}» (строки {rows}) пишутся почти одинаково (регистр, пробелы, ё, похожие "
        "русские и латинские буквы) — в протоколе их не различить; переименуйте одного",
        "Players '{player}' and '{other}' (rows {rows}) are spelled almost alike (case, spaces, ё, look-alike "
        "Cyrillic and Latin letters): a protocol cannot tell them apart; rename one",
    ),
    "read.similar_teams": (
        "Команда «{team}» записана иначе, чем в строке {row} («{other}»): регистр или пробелы — считаем одной "
        "командой; исправьте написание",
        "Team '{team}' is spelled unlike row {row} ('{other}'): case or spaces — counted as one team; fix the "
        "spelling",
    ),
    "read.team_of_judge": (
        "У судьи «{player}» указаны команда или зачёт — судья не играет, они не учитываются",
        "Judge '{player}' has a team or a classification: a judge does not play, they are ignored",
    ),
    "read.unknown_setting": ("Неизвестная настройка «{key}»", "Unknown setting '{key}'"),
    "read.bad_setting": ("Настройка «{key}»: {reason}", "Setting '{key}': {reason}"),
    "read.unknown_preset": ("Неизвестный регламент «{value}» (есть: {known})", "Unknown preset '{value}' (known: {known})"),
    "read.too_long": ("Значение слишком длинное ({length} символов)", "Value too long ({length} characters)"),
    "internal.error": (
        "Внутренняя ошибка sheets-sync: {error}. Итоги не обновлены; подробности — в файле {log}. Сообщите разработчикам",
        "Internal error in sheets-sync: {error}. The standings were not updated; details in {log}. Please report it",
    ),
    "protect.tab_restored": (
        "Защиту вкладки «{tab}» сняли или изменили; sheets-sync вернул её (изменять вкладку могут: {editors})",
        "The protection of tab '{tab}' was removed or changed; sheets-sync put it back (who may edit it: {editors})",
    ),
    "protect.cells_restored": (
        "Защиту ячейки {cells} вкладки «{tab}» сняли или изменили; sheets-sync вернул её (писать в неё могут: {editors})",
        "The protection of cell {cells} of tab '{tab}' was removed or changed; sheets-sync put it back "
        "(who may write in it: {editors})",
    ),
    "read.value_ignored": ("Значение не используется: «{value}»", "Value is not used: '{value}'"),
    # seating
    "seating.unknown_player": ("Рассадка: неизвестный игрок «{player}»{hint}. Новый игрок — новая строка на вкладке «Игроки»",
                               "Seating: unknown player '{player}'{hint}. A new player is a new row on the Players tab"),
    "seating.twice_in_round": (
        "Рассадка: «{player}» дважды в туре {round}",
        "Seating: '{player}' is seated twice in round {round}",
    ),
    "seating.seat_count": (
        "Рассадка: за столом {count} игроков вместо 10",
        "Seating: {count} players at the table instead of 10",
    ),
    "seating.duplicate_game": (
        "Рассадка: игра {stage} тур {round} стол {table} указана дважды",
        "Seating: game {stage} round {round} table {table} is listed twice",
    ),
    # protocol structure
    "penalty.no_reason": (
        "Место {seat}: штраф {value} без причины — укажите её в «Причина штрафа»",
        "Seat {seat}: a penalty of {value} without a reason — write it under 'Penalty reason'",
    ),
    "protocol.summary_conflict": (
        "«{label} {value}» в строке под местами не сходится со строками мест (ПУ — место, убитое в первую ночь, "
        "ЛХ — его лучший ход); исправьте одно из двух",
        "'{label} {value}' in the line below the seats contradicts the seat rows (ПУ: the seat shot on night 1, "
        "ЛХ: his best move); fix one of them",
    ),
    "protocol.seat_rows": (
        "В протоколе {count} строк мест вместо 10 (строки {rows}); лишнюю строку удалите, недостающую добавьте",
        "The protocol has {count} seat rows instead of 10 (rows {rows}); delete the extra row or add the missing one",
    ),
    "protocol.no_header": (
        "Строки {rows}: места игры без шапки над ними (Игра, Стол, Судья, Победа) — эта игра не считается, "
        "пока шапка не возвращена; к игре выше они не относятся",
        "Rows {rows}: a game's seats without a header above them (Game, Table, Judge, Winner) — the game does "
        "not count until its header is back; they are not part of the game above",
    ),
    "protocol.unread_rows": (
        "Строки {rows} под протоколом (непустых: {count}) не читаются как часть протокола и не учтены; "
        "если они попали сюда случайно, удалите их",
        "Rows {rows} below the protocol ({count} not empty) are not read as part of it and count for nothing; "
        "if they got here by mistake, delete them",
    ),
    "protocol.duplicate_evening": (
        "Игра {round} стола {table} этого вечера записана дважды: она же в блоке «{other}»; исправьте номер "
        "игры или стола одной из них",
        "Game {round} of table {table} of this evening is recorded twice: also in the block '{other}'; fix the game "
        "or table number of one of them",
    ),
    "player.two_games_evening": (
        "«{player}» играет в двух играх одного времени ({date}, игра {round}): «{other}»",
        "'{player}' plays two games at the same time ({date}, game {round}): '{other}'",
    ),
    "evening.date_unreadable": (
        "«{value}» — не дата вечера: пишите ДД.ММ.ГГГГ, например 05.12.2026. Игры этого вечера не "
        "считаются, пока дата не понятна",
        "'{value}' is not the evening's date: write DD.MM.YYYY, e.g. 05.12.2026. The evening's games do not "
        "count until the date is understood",
    ),
    "evening.date_form": (
        "Дата «{value}» прочитана как {date}; пишите её полностью: ДД.ММ.ГГГГ",
        "The date '{value}' was read as {date}; write it in full: DD.MM.YYYY",
    ),
    "evening.date_mismatch": (
        "Дата вечера {date} не совпадает с названием вкладки «{title}»; считается дата из ячейки",
        "The evening's date {date} differs from the tab's title '{title}'; the cell's date is used",
    ),
    "protocol.duplicate": (
        "Этот протокол дублирует «{other}» (тот же этап, тур и стол)",
        "This protocol duplicates '{other}' (same stage, round and table)",
    ),
    # a problem of a game in play that would tell a role, a check, a best move or extra points (scoring.secrecy)
    "game.secret": (
        "Ошибка в ячейке игры, которая ещё идёт; что не так — в примечании к ячейке (здесь не сказано до конца игры, "
        "чтобы не раскрыть роли)",
        "A mistake in a cell of a game still in play; the cell's note says what it is (not said here until the game "
        "ends, so as not to give away the roles)",
    ),
    "protocol.not_finished": ("Игра не завершена: победитель не указан", "Game not finished: no winner"),
    "protocol.unconfirmed": (
        "Протокол не подтверждён: в «Проверил» нужен второй судья (не «{judge}»); в публичных итогах игры нет",
        "Protocol not confirmed: 'Checked by' needs a second judge (not '{judge}'); the game is not in public results",
    ),
    "protocol.changed_after_confirmation": (
        "Протокол изменён после подтверждения ({checker}): проверяющему нужно подтвердить его снова "
        "(стереть «Проверил» и вписать заново)",
        "Protocol changed after confirmation ({checker}): the checker must confirm it again "
        "(clear 'Checked by' and type it again)",
    ),
    "dispute.unknown_game": (
        "Протест к игре «{game}»: такой вкладки протокола нет",
        "Dispute about '{game}': there is no such protocol tab",
    ),
    "dispute.bad_status": (
        "«{value}» — неизвестный статус протеста (открыт, принят, отклонён)",
        "'{value}' is not a dispute status (open, accepted, rejected)",
    ),
    "protocol.header_mismatch": (
        "Шапка ({stage} тур {round} стол {table}) не совпадает с названием вкладки",
        "Header ({stage} round {round} table {table}) does not match the tab's name",
    ),
    "protocol.other_table": (
        "Похоже, это протокол {game}: здесь игроки, которых рассадка посадила за тот стол ({matched} из 10), "
        "а не за стол {table}. Игра не засчитана, пока её не перенесут на свою вкладку или не исправят стол в шапке",
        "This looks like the protocol of {game}: it holds the players the seating put at that table ({matched} of 10), "
        "not those of table {table}. The game does not count until it is moved to its own tab or the header's table is fixed",
    ),
    "protocol.no_seating": (
        "Нет рассадки для {stage} тур {round} стол {table}",
        "No seating for {stage} round {round} table {table}",
    ),
    "roles.composition": (
        "Роли: {don} дон, {mafia} мафии, {sheriff} шериф, {civilian} мирных; нужно 1, 2, 1, 6",
        "Roles: {don} don, {mafia} mafia, {sheriff} sheriff, {civilian} civilians; need 1, 2, 1, 6",
    ),
    "roles.composition_marked": (
        "Роли: {roles}, а в игре один дон, две мафии, один шериф и шесть мирных. Поэтому пустые роли ({empty}) "
        "не прочитаны как «мирный» — так их читают, только когда отмечены ровно один дон, две мафии и один шериф",
        "Roles: {roles}, but a game has one don, two mafia, one sheriff and six civilians. So the empty roles ({empty}) "
        "are not read as civilians — they are only when exactly one don, two mafia and one sheriff are marked",
    ),
    "roles.missing": ("Место {seat}: роль не указана", "Seat {seat}: no role"),
    "player.missing": ("Место {seat}: игрок не указан", "Seat {seat}: no player"),
    "player.unknown": (
        "Место {seat}: «{player}» нет в списке игроков{hint}. Новый игрок — новая строка на вкладке «Игроки»",
        "Seat {seat}: '{player}' is not a registered player{hint}. A new player is a new row on the Players tab",
    ),
    "player.folded": (
        "«{typed}» прочитан как «{player}» с вкладки «Игроки» (написан иначе: регистр, пробелы, ё или латинская буква)",
        "'{typed}' is read as '{player}' of the Players tab (spelled differently: case, spaces, ё or a Latin letter)",
    ),
    "player.ambiguous": (
        "«{typed}» подходит нескольким игрокам: {players} — напишите ник так, как на вкладке «Игроки»",
        "'{typed}' could be any of {players}: type the nickname as the Players tab spells it",
    ),
    "player.duplicate": (
        "«{player}» указан дважды (места {seats})",
        "'{player}' appears twice (seats {seats})",
    ),
    "player.two_games": (
        "«{player}» играет в двух играх тура {round}: «{other}»",
        "'{player}' plays two games of round {round}: '{other}'",
    ),
    "player.not_seated_here": (
        "Место {seat}: по рассадке здесь «{expected}», а указан «{player}»",
        "Seat {seat}: the seating has '{expected}' here, the protocol '{player}'",
    ),
    "player.substitute": (
        "Место {seat}: «{player}» — замена за «{expected}» (очки за эту игру никому не начисляются за это место; «{expected}» получает штраф за пропуск)",
        "Seat {seat}: '{player}' substitutes for '{expected}' (this seat earns nobody points; '{expected}' gets the missed-round penalty)",
    ),
    "player.inactive": (
        "Место {seat}: «{player}» имеет статус «{status}»",
        "Seat {seat}: '{player}' has status '{status}'",
    ),
    # fouls, leaving
    "fouls.range": ("Место {seat}: фолов {fouls}, допустимо 0–4", "Seat {seat}: {fouls} fouls, allowed 0–4"),
    "fouls.not_removed": ("Место {seat}: 4 фола, но игрок не удалён", "Seat {seat}: 4 fouls but the player is not removed"),
    "leave.twice": (
        "Место {seat}: игрок покинул стол дважды ({how})",
        "Seat {seat}: the player left the table twice ({how})",
    ),
    "kill.night_twice": (
        "Ночь {night}: убиты двое (места {seats})",
        "Night {night}: two players shot (seats {seats})",
    ),
    "kill.night_range": ("Место {seat}: ночь {night} невозможна", "Seat {seat}: night {night} is impossible"),
    "vote.day_range": ("Место {seat}: день {day} невозможен", "Seat {seat}: day {day} is impossible"),
    "vote.four_left": (
        "День {day}: при четырёх игроках нельзя заголосовать двоих (места {seats})",
        "Day {day}: with four players left two cannot be voted out (seats {seats})",
    ),
    "removal.day_range": ("Место {seat}: день удаления {day} невозможен", "Seat {seat}: removal day {day} is impossible"),
    "leave.after_end": (
        "Место {seat}: {event}, но игра уже закончилась: {reason}",
        "Seat {seat}: {event}, but the game was already over: {reason}",
    ),
    "protocol.round_range": (
        "Тур {round}: в этапе «{stage}» всего {games} игр",
        "Round {round}: stage '{stage}' has only {games} games",
    ),
    # best move
    "best_move.not_first_shot": (
        "Место {seat}: лучший ход может назвать только убитый в первую ночь — не засчитан (на зачёт игры это не влияет)",
        "Seat {seat}: only the player shot on the first night may name a best move: not scored (this does not keep the game from counting)",
    ),
    "best_move.not_author": (
        "Место {seat}: по регламенту лучший ход называет только {who} — не засчитан (на зачёт игры это не влияет)",
        "Seat {seat}: under this regulation a best move is named only by {who}: not scored (this does not keep the game from counting)",
    ),
    "best_move.after_miss": (
        "Место {seat}: после промаха в первую ночь лучший ход не называется — не засчитан (на зачёт игры это не влияет)",
        "Seat {seat}: no best move after a miss on the first night: not scored (this does not keep the game from counting)",
    ),
    "best_move.seats": (
        "Место {seat}: лучший ход — три разных места 1–10, кроме своего ({value}) — не засчитан (на зачёт игры это не влияет)",
        "Seat {seat}: a best move is three distinct seats 1–10 other than his own ({value}): not scored (this does not keep the game from counting)",
    ),
    "best_move.partial": (
        "Место {seat}: лучший ход — три других места, а записано «{value}»; засчитан по чёрным среди мест {seats}",
        "Seat {seat}: a best move is three other seats, the protocol has '{value}'; scored by the blacks among seats {seats}",
    ),
    "best_move.black": (
        "Место {seat}: лучший ход назвал чёрный игрок — баллов не приносит",
        "Seat {seat}: the best move was named by a black player and earns nothing",
    ),
    # extra points
    "extra.range": (
        "Место {seat}: доп. баллы {value} вне диапазона {low}…{high}",
        "Seat {seat}: extra points {value} outside {low}…{high}",
    ),
    "extra.step": (
        "Место {seat}: доп. баллы {value} не кратны шагу {step}",
        "Seat {seat}: extra points {value} are not a multiple of {step}",
    ),
    # winner
    "winner.contradiction": (
        "Победа «{winner}» противоречит протоколу: {reason}",
        "Winner '{winner}' contradicts the protocol: {reason}",
    ),
    "winner.incomplete": (
        "Победа «{winner}» не подтверждается протоколом: {missing}",
        "Winner '{winner}' is not confirmed by the protocol: {missing}",
    ),
    "winner.undated_removal": (
        "Место {seat}: удаление без номера дня, и ни при каком дне протокол не сходится ({reason})",
        "Seat {seat}: a removal without a day, and no day makes the protocol consistent ({reason})",
    ),
    "winner.unverifiable": (
        "Место {seat}: удалений без номера дня слишком много — победу «{winner}» нельзя проверить; укажите дни",
        "Seat {seat}: too many removals without a day to check winner '{winner}'; add the days",
    ),
    # penalties
    "penalty.unknown_player": ("Штраф: неизвестный игрок «{player}»{hint}", "Penalty: unknown player '{player}'{hint}"),
    "penalty.late_tier": (
        "Опоздание {minutes} мин не даёт штрафа по регламенту",
        "Being {minutes} min late carries no penalty in the preset",
    ),
    "penalty.excused_many": (
        "«{player}»: без штрафа можно пропустить не более {limit} тура, указано {count}",
        "'{player}': at most {limit} round(s) may be skipped without penalty, {count} listed",
    ),
}


@dataclass(frozen=True, kw_only=True, slots=True)
class Problem:
    rule: str
    severity: Severity
    location: Location | None
    params: Mapping[str, object] = field(default_factory=dict)
    related: tuple[Location, ...] = ()  # the other cells involved (marked too)

    @property
    def locations(self) -> tuple[Location, ...]:
        """Every cell of the problem: where it is listed first, then the related ones."""
        return (self.location, *self.related) if self.location is not None else ()

    @property
    def sheet(self) -> str:
        return self.location.sheet if self.location else ""

    @property
    def cell(self) -> str:
        return self.location.cell if self.location else ""

    def message(self, language: str = "ru") -> str:
        ru, en = MESSAGES[self.rule]
        template = en if language == "en" else ru
        values = {k: _display(v, language) for k, v in self.params.items()}
        return template.format_map(_Missing(values))

    def sort_key(self) -> tuple:
        from scoring.cells import parse_a1

        if self.location is None:
            return ("", 0, 0, self.rule)
        try:
            row, col = parse_a1(self.location.cell)
        except ValueError:
            row, col = 0, 0
        return (self.location.sheet, row, col, self.rule)


@dataclass(frozen=True, slots=True)
class Text:
    """A message parameter that itself depends on the language (a hint, a reason)."""

    ru: str
    en: str

    def __str__(self) -> str:
        return self.ru

    def said(self, language: str) -> str:
        """The text in ``language`` (en, else ru)."""
        return self.en if language == "en" else self.ru


def _display(value: object, language: str = "ru") -> str:
    if isinstance(value, Text):
        return value.said(language)
    if isinstance(value, (list, tuple, set, frozenset)):
        return ", ".join(_display(v, language) for v in value)
    return str(value)


class _Missing(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def reading_order(locations: Iterable[Location], sheet: str) -> list[Location]:
    """Cells of ``sheet`` first, top to bottom and left to right, then those of other tabs."""
    from scoring.cells import parse_a1

    return sorted(locations, key=lambda loc: (loc.sheet != sheet, loc.sheet, parse_a1(loc.cell)))


def cell_names(locations: Iterable[Location], sheet: str) -> str:
    """Cells as a person reads them, in reading order: ``C11, C12`` in ``sheet``,
    ``'Тур 1 Стол 2'!B12`` elsewhere."""
    return ", ".join(loc.cell if loc.sheet == sheet else str(loc) for loc in reading_order(locations, sheet))


def problem(rule: str, severity: Severity, location: Location | None, *, related: tuple[Location, ...] = (),
            **params: object) -> Problem:
    """A problem at ``location``; ``related``: the other cells involved (duplicates and the
    location itself are dropped, the order kept)."""
    if rule not in MESSAGES:
        raise KeyError(f"no message for rule {rule!r}")
    others = tuple(dict.fromkeys(loc for loc in related if loc is not None and loc != location))
    return Problem(rule=rule, severity=severity, location=location, params=params, related=others)


def severity_counts(problems: Iterable[Problem]) -> tuple[int, int]:
    """(errors, warnings) among ``problems``."""
    errors = warnings = 0
    for p in problems:
        if p.severity is Severity.ERROR:
            errors += 1
        else:
            warnings += 1
    return errors, warnings


def _count(n: int, forms: tuple[str, str, str], language: str) -> str:
    """«4 812 ошибок», «1 ошибка», «3 ошибки»; English «4,812 errors», «1 error» (forms: one, few, many
    in Russian; one, many in English)."""
    if language == "en":
        return f"{n:,} {forms[0] if n == 1 else forms[2]}"
    last, tens = n % 10, n % 100
    form = forms[0] if last == 1 and tens != 11 else forms[1] if 2 <= last <= 4 and not 12 <= tens <= 14 else forms[2]
    return f"{n:,}".replace(",", "\u00a0") + f" {form}"


_MORE_WORDS = {
    "ru": (("ошибка", "ошибки", "ошибок"), ("предупреждение", "предупреждения", "предупреждений")),
    "en": (("error", "errors", "errors"), ("warning", "warnings", "warnings")),
}


def more_problems(errors: int, warnings: int, language: str, *, here: bool = True) -> str:
    """«и ещё 4 812 ошибок в этом листе» — the problems a capped list (the marks of a tab, the
    Problems tab) leaves out; ``here`` False: «… на других вкладках» (the rest of the workbook)."""
    language = "en" if language == "en" else "ru"
    error_words, warning_words = _MORE_WORDS[language]
    parts = [_count(n, words, language) for n, words in ((errors, error_words), (warnings, warning_words)) if n]
    if language == "en":
        where = "in this tab" if here else "in other tabs"
        return f"and {parts[0].replace(' ', ' more ', 1)}{''.join(' and ' + p for p in parts[1:])} {where}"
    where = "в этом листе" if here else "на других вкладках"
    return f"и ещё {' и '.join(parts)} {where}"
