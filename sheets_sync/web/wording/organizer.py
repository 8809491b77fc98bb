"""The organizer part's words, key -> (ru, en) (joined in :mod:`sheets_sync.web.words`).

Keys have no underscores: a template's ``w.organizer_games`` finds ``organizer.games``."""

WORDS: dict[str, tuple[str, str]] = {
    # a copy button beside a text to paste elsewhere (templates/web/copy_button.html)
    "copy.button": ("Скопировать", "Copy"),
    "copy.done": ("Скопировано", "Copied"),
    # the tournament at a glance
    "organizer.opensheet": ("Открыть таблицу", "Open the sheet"),
    "organizer.public": ("Страница для игроков", "Page for players"),
    "organizer.public.none": ("ещё не опубликована — появится после первой синхронизации",
                              "not published yet: it appears after the first sync"),
    "organizer.sharelost": ("Доступ потерян: таблица больше не открыта для сервиса. Откройте её в Google Таблицах, "
                            "нажмите «Настройки доступа» и снова добавьте адрес сервиса редактором — синхронизация "
                            "продолжится сама.",
                            "Access lost: the sheet is no longer shared with the service. Open it in Google Sheets, "
                            "press Share and add the service's address as an editor again: syncing resumes by itself."),
    "organizer.stopped": ("Синхронизация остановлена: в таблице нет вкладки, без которой турнир не прочитать. "
                          "Итоги не пересчитаны, сайт и пост не обновлены — они показывают прошлые итоги.",
                          "The sync stopped: the sheet lacks a tab the tournament cannot be read without. "
                          "The standings were not recomputed, the site and the post not updated: they show the last "
                          "standings."),
    "organizer.lasterror": ("Последняя синхронизация не удалась:", "The last sync failed:"),
    "organizer.games": ("Игр засчитано", "Games counted"),
    "organizer.of": ("из", "of"),
    "organizer.errors": ("ошибки", "errors"),
    "organizer.warnings": ("замечания", "warnings"),
    "organizer.lastsync": ("Последняя синхронизация", "Last sync"),
    "organizer.never": ("ещё не было", "none yet"),
    # a sync that found the sheet as the last one left it: the last edits were counted then, at {when}
    "organizer.unchanged": ("новых правок нет — всё уже учтено", "no new edits: everything is counted already"),
    "organizer.unchanged.since": ("новых правок нет — последние правки учтены в {when}",
                                  "no new edits: the last ones were counted at {when}"),
    "organizer.writtentabs": ("записано вкладок", "tabs written"),
    "organizer.nothingwritten": ("в таблице ничего менять не пришлось", "nothing in the sheet needed changing"),
    "organizer.sitefiles": ("обновлено файлов сайта", "site files updated"),
    "organizer.advanced": ("Рассажен следующий этап:", "Next stage seated:"),
    "organizer.jobs": ("Задачи", "Jobs"),
    "organizer.waiting": ("ждут", "waiting"),
    "organizer.running": ("выполняются", "running"),
    "organizer.failed": ("не удались", "failed"),
    "organizer.problems": ("Ошибки и замечания", "Problems"),
    "organizer.problems.none": ("Ошибок нет.", "No problems."),
    "organizer.problems.more": ("Ещё столько же и больше — на вкладке «Ошибки» в таблице:",
                                "More on the sheet's Problems tab:"),
    "organizer.problems.hint": ("Нажмите на ячейку — таблица откроется на ней.",
                                "Press a cell: the sheet opens at it."),
    "organizer.problems.excel": ("Вкладка!ячейка в файле Excel.", "Tab!cell in the Excel file."),
    "organizer.buttons": ("Действия", "Actions"),
    "organizer.recent": ("Последние задачи", "Recent jobs"),
    "organizer.when": ("Когда", "When"),
    "organizer.what": ("Что", "What"),
    "organizer.state": ("Состояние", "State"),
    "organizer.refreshing": ("Задачи выполняются — страница обновится сама.", "Jobs are running: the page refreshes itself."),
    # the buttons
    "organizer.action.sync": ("Обновить сейчас", "Sync now"),
    # a sync is named by what started it (Job.params["reason"]): only a pressed one is «Обновить сейчас»
    "organizer.sync.by.button": ("Обновить сейчас (нажато)", "Sync now (pressed)"),
    "organizer.sync.by.push": ("Обновление после правки в таблице", "Update after an edit in the sheet"),
    "organizer.sync.by.drive": ("Обновление после правки в таблице", "Update after an edit in the sheet"),
    "organizer.sync.by.poll": ("Обновление автоматически: таблица изменилась", "Automatic update: the sheet changed"),
    "organizer.sync.by.due": ("Обновление автоматически (повтор)", "Automatic update (again)"),
    "organizer.sync.by.again": ("Обновление автоматически: правка во время прошлого",
                                "Automatic update: an edit during the last one"),
    "organizer.sync.by.draw": ("Обновление после жеребьёвки", "Update after the draw"),
    "organizer.sync.by.advance": ("Обновление после рассадки этапа", "Update after seating the stage"),
    "organizer.sync.by.replace": ("Обновление после замены игрока", "Update after the replacement"),
    "organizer.sync.by.evening": ("Обновление после нового вечера", "Update after the new evening"),
    "organizer.sync.by.added": ("Первое обновление", "First update"),
    "organizer.sync.by.start": ("Обновление при запуске программы", "Update when the program started"),
    "organizer.sync.by.file": ("Обновление после сохранения файла", "Update after the file was saved"),
    "organizer.sync.by.other": ("Обновление автоматически", "Automatic update"),
    "organizer.action.draw": ("Жеребьёвка отбора", "Draw the qualifying"),
    "organizer.action.advance": ("Рассадить следующий этап", "Seat the next stage"),
    "organizer.action.replace": ("Заменить опоздавшего", "Replace a late player"),
    "organizer.action.evening": ("Добавить вечер", "Add an evening"),
    "organizer.action.vk": ("Пост ВКонтакте", "VK post"),
    "organizer.action.mwt": ("Экспорт для MWT", "MWT export"),
    "organizer.action.protocols": ("Бланки протоколов для печати", "Printable protocol blanks"),
    "organizer.action.seating": ("Рассадка для печати", "Printable seating"),
    "organizer.help.sync": ("Прочитать таблицу, пересчитать итоги и обновить страницу для игроков. Обычно это "
                            "происходит само через минуту-другую после правки.",
                            "Read the sheet, recount the standings and update the players' page. It usually happens "
                            "by itself a minute or two after an edit."),
    "organizer.help.draw": ("Рассадить все туры отбора: соперники поровну, места по кругу, одноклубники врозь. "
                            "Заполняет вкладку «Рассадка» и вкладки протоколов. Если судьи уже вписали игры, "
                            "жеребьёвка откажется — отметьте «даже если протоколы заполнены», только если уверены.",
                            "Seat every qualifying round: opponents balanced, seats rotated, clubmates apart. Fills "
                            "the Seating tab and the protocol tabs. If judges already typed games the draw refuses; "
                            "tick «even if protocols are filled» only if you are sure."),
    "organizer.help.advance": ("Рассадить полуфинал или финал по текущим итогам (лучшие по таблице).",
                               "Seat the semifinal or the final from the current standings."),
    "organizer.help.replace": ("Игрок опоздал на полуфинал? Его место займёт следующий по итогам.",
                               "A player late for the semifinal? The next one in the standings takes the seat."),
    "organizer.help.evening": ("Новая вкладка вечера с пустыми протоколами для судей.",
                               "A new evening tab with empty protocols for the judges."),
    "organizer.help.vk": ("Текст для поста с итогами и картинка с таблицей.",
                          "The standings post's text and a picture of the table."),
    "organizer.help.mwt": ("Архив с играми в формате Mafia World Tour для рейтинга ФИИМ.",
                           "An archive of the games in the Mafia World Tour format for the FIIM rating."),
    "organizer.help.protocols": ("Страница с бланками протоколов тура — откройте и распечатайте.",
                                 "A page with the round's protocol blanks: open it and print."),
    "organizer.help.seating": ("Страница с рассадкой тура — откройте и распечатайте.",
                               "A page with the round's seating: open it and print."),
    "organizer.confirm": ("Записать в таблицу? Рассадка этого этапа будет заменена.",
                          "Write into the sheet? This stage's seating will be replaced."),
    "organizer.field.seed": ("Номер варианта (тот же номер — та же рассадка)", "Variant number (same number, same seating)"),
    "organizer.field.timelimit": ("Искать не дольше, секунд", "Search at most, seconds"),
    "organizer.field.force": ("даже если протоколы уже заполнены", "even if protocols are filled"),
    "organizer.field.forceadvance": ("даже если прошлый этап засчитан не весь",
                                     "even if the last stage is not all counted"),
    "organizer.field.stage": ("Этап", "Stage"),
    "organizer.stage.next": ("следующий по порядку", "the next one"),
    "organizer.stage.round": ("тот, что рассажен в этом туре", "the one seated in this round"),
    "organizer.stage.seated": ("тот, где игрок рассажен", "the one the player is seated in"),
    "organizer.field.player": ("Кого заменить (ник, как в таблице)", "Who to replace (nickname as in the sheet)"),
    "organizer.field.late": ("Кто опоздал", "Who is late"),
    "organizer.field.pick": ("— выберите игрока —", "— choose the player —"),
    "organizer.replace.nobody": ("Заменять пока некого: следующий этап ещё не рассажен. Сначала «Рассадить "
                                 "следующий этап».",
                                 "Nobody to replace yet: the next stage is not seated. First «Seat the next stage»."),
    "organizer.field.date": ("Дата вечера", "Date of the evening"),
    "organizer.field.games": ("Игр за вечер (за всеми столами вместе)", "Games this evening (all tables together)"),
    "organizer.field.tables": ("Столов", "Tables"),
    "organizer.field.round": ("Тур", "Round"),
    "organizer.field.judgeqr": ("QR-код судьи на листе стола", "The judge's QR code on the table's poster"),
    "organizer.form.invalid": ("Проверьте поля: {fields}", "Please check: {fields}"),
    # the press limit (sheets_sync.web.throttle.PRESSES) and a press whose twin waits in the queue
    "organizer.press.toofast": ("Слишком много нажатий подряд: следующую кнопку можно нажать через {wait}. Задачи, "
                                "которые уже в очереди, выполнятся.",
                                "Too many presses in a row: you can press the next button in {wait}. The jobs "
                                "already queued will run."),
    "organizer.press.twin": ("Такое же действие уже ждёт в очереди — вот оно; второе не добавлено.",
                             "The same action is already waiting in the queue — here it is; no second one added."),
    "organizer.sync.requested": ("Синхронизация запущена.", "Sync started."),
    "organizer.sync.waiting": ("Синхронизация уже в очереди — она прочитает и эти изменения.",
                               "A sync is already waiting: it will read these changes too."),
    # a job's page
    "organizer.back": ("← К турниру", "← Back to the tournament"),
    "organizer.job.wait": ("Выполняется… страница обновится сама.", "Working… the page refreshes itself."),
    "organizer.job.queued": ("В очереди — начнётся, как только до неё дойдёт очередь. Страница обновится сама.",
                             "Waiting in the queue: it starts when its turn comes. The page refreshes itself."),
    # why a queued job waits (Job.waiting)
    "organizer.job.waiting.workbook": ("Она ждёт, пока закончится другая задача этого турнира (синхронизация, "
                                       "жеребьёвка…): таблицу пишет одна задача за раз.",
                                       "It waits for another job of this tournament to end (a sync, a draw…): "
                                       "one job at a time writes the sheet."),
    "organizer.job.waiting.share": ("Она ждёт, пока закончится другая ваша долгая задача (жеребьёвка, экспорт…): "
                                    "у каждого организатора одна такая задача за раз, чтобы задачи других "
                                    "организаторов тоже шли.",
                                    "It waits for another long job of yours to end (a draw, an export…): each "
                                    "organizer has one such job at a time, so that other organizers' jobs go on too."),
    "organizer.job.waiting.thread": ("Все обработчики сервера сейчас заняты — она начнётся через несколько секунд.",
                                     "Every worker of the server is busy: it starts in a few seconds."),
    # the claim check and a new tournament, followed by a page of their own (web/accounts/pending.py)
    "organizer.job.check.title": ("Проверяем таблицу", "Checking the sheet"),
    "organizer.job.check.wait": ("Читаем таблицу и ищем в ней ваш код. Страница обновится сама и откроет турнир.",
                                 "Reading the sheet for your code. The page refreshes itself and opens the tournament."),
    "organizer.job.new.title": ("Создаём таблицу", "Creating the sheet"),
    "organizer.job.new.wait.app": ("Создаём таблицу Excel в папке. Страница обновится сама и откроет турнир.",
                                   "Creating the Excel workbook in the folder. The page refreshes itself and opens "
                                   "the tournament."),
    "organizer.job.new.wait": ("Создаём таблицу турнира и открываем её вам. Страница обновится сама и откроет турнир.",
                               "Creating the tournament's sheet and sharing it with you. The page refreshes itself "
                               "and opens the tournament."),
    "organizer.job.csvtoobig": ("Файл игроков больше {kb} КБ — это не похоже на список игроков. Проверьте файл.",
                                "The players file is over {kb} KB: that does not look like a list of players. "
                                "Check the file."),
    "organizer.job.waiting.budget": ("Запросы к Google у сервиса на эту минуту закончились (у Google лимит в минуту) — "
                                     "задача начнётся сама, как только они появятся, обычно меньше чем через минуту.",
                                     "The service's Google requests for this minute are used up (Google limits them "
                                     "per minute): the job starts by itself as soon as there are some again, usually "
                                     "within a minute."),
    "organizer.job.quota": ("Запросы к Google у сервиса на эту минуту закончились. Подождите минуту и нажмите снова.",
                            "The service's Google requests for this minute are used up. Wait a minute and press "
                            "again."),
    # a job whose worker stopped mid-way (sheets_sync.web.recovery) and is not safe to run again by itself
    "organizer.job.interrupted.advance": (
        "Сервер остановился посреди рассадки следующего этапа, и неизвестно, успел ли он её записать. Откройте "
        "таблицу: если на вкладке «Рассадка» уже есть новый этап и его протоколы, всё записано — нажимать снова не "
        "нужно; если нет, нажмите «Рассадить следующий этап» ещё раз.",
        "The server stopped while seating the next stage, and it is not known whether the seating was written. "
        "Open the sheet: if the Seating tab has the new stage and its protocol tabs, it is written and there is no "
        "need to press again; if not, press «Seat the next stage» again."),
    "organizer.job.interrupted.replace": (
        "Сервер остановился посреди замены игрока {player}. Откройте вкладку «Рассадка»: если вместо него уже "
        "записан следующий по итогам, нажимать снова не нужно; если {player} всё ещё там, нажмите «Заменить "
        "опоздавшего» ещё раз.",
        "The server stopped while replacing {player}. Open the Seating tab: if the next player in the standings is "
        "already there instead, there is no need to press again; if {player} is still there, press «Replace a late "
        "player» again."),
    "organizer.job.interrupted.evening": (
        "Сервер остановился, пока добавлял вечер. Проверьте вкладки таблицы: если вкладка нового вечера уже есть, "
        "нажимать снова не нужно (иначе появится второй такой же вечер); если её нет, нажмите «Добавить вечер» ещё раз.",
        "The server stopped while adding the evening. Look at the sheet's tabs: if the new evening's tab is there, do "
        "not press again (that would add a second one); if not, press «Add an evening» again."),
    "organizer.job.interrupted.draw": (
        "Сервер остановился посреди жеребьёвки «даже если протоколы заполнены», и сам её не повторяет: судьи могли "
        "уже вписать игры. Проверьте вкладку «Рассадка» и протоколы и нажмите снова, только если уверены.",
        "The server stopped in the middle of a draw made «even if protocols are filled», and does not repeat it by "
        "itself: judges may have typed games since. Check the Seating tab and the protocols, and press again only "
        "if you are sure."),
    "organizer.job.interrupted.new": (
        "Сервер остановился, пока создавал таблицу «{name}». Посмотрите в своём Google Диске: если она появилась "
        "недоделанной, удалите её и создайте турнир снова.",
        "The server stopped while creating the sheet «{name}». Look in your Google Drive: if a half-made one "
        "appeared, delete it and create the tournament again."),
    "organizer.job.interrupted.any": ("Сервер остановился посреди этой задачи. Проверьте таблицу, прежде чем нажимать "
                                      "снова.",
                                      "The server stopped in the middle of this job. Check the sheet before pressing "
                                      "again."),
    "organizer.job.interrupted.again": ("Сервер останавливался во время этой задачи {times} раза подряд, и больше она "
                                        "сама не запускается. Сообщите администратору сервера.",
                                        "The server stopped during this job {times} times in a row, so it is not "
                                        "started again by itself. Tell the server's administrator."),
    "organizer.job.crashed": ("Не получилось из-за внутренней ошибки сервиса. Подробности — в журнале сервера; "
                              "попробуйте ещё раз или напишите администратору.",
                              "It failed because of an internal error of the service (details in the server's log); "
                              "try again or tell the administrator."),
    "organizer.job.refused": ("Не выполнено:", "Not done:"),
    "organizer.status.queued": ("в очереди", "waiting"),
    "organizer.status.running": ("выполняется", "running"),
    "organizer.status.done": ("готово", "done"),
    "organizer.status.failed": ("не удалось", "failed"),
    "organizer.draw.report": ("Отчёт о жеребьёвке", "Draw report"),
    "organizer.draw.table": ("Игроки: соперники, места, столы", "Players: opponents, seats, tables"),
    "organizer.draw.meetings": ("Сколько пар сколько раз играли вместе", "How many pairs played together how often"),
    "organizer.draw.games": ("Записано игр в таблицу:", "Games written into the sheet:"),
    "organizer.draw.removed": ("Удалены пустые вкладки старой рассадки:", "Blank tabs of the old seating removed:"),
    "organizer.draw.kept": ("Оставлены вкладки старой рассадки с записями (решите сами):",
                            "Tabs of the old seating with something typed, kept (your call):"),
    "organizer.advance.players": ("Рассажены:", "Seated:"),
    "organizer.replace.done": ("заменён на", "replaced by"),
    "organizer.evening.done": ("Добавлена вкладка", "Tab added"),
    "organizer.vk.text": ("Текст поста", "The post's text"),
    "organizer.vk.copy": ("Скопировать текст", "Copy the text"),
    "organizer.vk.copied": ("Скопировано", "Copied"),
    "organizer.vk.picture": ("Картинка для поста", "The post's picture"),
    "organizer.files": ("Файлы", "Files"),
    "organizer.mwt.games": ("Игр в архиве:", "Games in the archive:"),
    # what the MWT files lack (runners.mwt_missing): who, not the file's null fields
    "organizer.mwt.notournament": ("Не указан «ID турнира MWT» (вкладка «Турнир»): MWT не узнает, к какому турниру "
                                   "относятся игры.",
                                   "No «MWT tournament ID» (the Tournament tab): MWT cannot tell which tournament the "
                                   "games are of."),
    "organizer.mwt.judges": ("Нет «ID MWT» у судей:", "Judges without an «MWT ID»:"),
    "organizer.mwt.players": ("Нет «ID MWT» у игроков:", "Players without an «MWT ID»:"),
    "organizer.mwt.fix": ("Впишите номера на вкладки «Турнир» и «Игроки» и выгрузите снова: без номера MWT не "
                          "свяжет игры с человеком.",
                          "Type the numbers on the Tournament and Players tabs and export again: without one MWT "
                          "cannot link the games to the person."),
    "organizer.seating.noqr": ("QR-кодов судей на листах столов нет: у столов этого этапа ещё нет ссылок. Сделайте их "
                               "(«Сделать ссылки для столов этапа» в разделе «Судьи») и нажмите снова.",
                               "No judge QR codes on the tables' posters: this stage's tables have no links yet. Make "
                               "them («Make the links of the stage's tables» under «Judges») and press again."),
    "organizer.printhint": ("Откройте и нажмите «Печать» в браузере.", "Open it and press Print in the browser."),
    # app mode: one organizer's folder
    "organizer.app.title": ("Турниры в папке", "Tournaments in the folder"),
    "organizer.app.empty": ("В папке пока нет турниров. Создайте новый кнопкой выше — или положите в папку "
                            "таблицу Excel турнира: она появится здесь сама.",
                            "No tournaments in the folder yet. Create one with the button above, or put a "
                            "tournament's Excel workbook in the folder: it appears here by itself."),
    "organizer.app.league": ("Лиги", "Leagues"),
    "organizer.app.league.help": ("Таблица Excel с вкладкой «Лига»: рейтинг по турнирам и сезонам, которые она "
                                  "перечисляет. Её не синхронизируют как турнир; пересчитайте лигу кнопкой.",
                                  "An Excel workbook with a «League» tab: the rating over the tournaments and seasons "
                                  "it lists. It is not synced as a tournament; recount the league with the button."),
    "organizer.app.league.run": ("Пересчитать лигу", "Recount the league"),
    "organizer.app.league.running": ("Лига пересчитывается…", "The league is being recounted…"),
    "organizer.app.league.done": ("Посчитано: турниров и сезонов — {events}, игр — {games}, игроков — {players}.",
                                  "Counted: {events} tournaments and seasons, {games} games, {players} players."),
    "organizer.app.league.site": ("Страница лиги:", "The league's page:"),
    "organizer.app.league.tabs": ("Вкладки в таблице:", "Tabs in the workbook:"),
    "organizer.app.league.failed": ("Лига не посчитана:", "The league was not counted:"),
    "organizer.app.hint": ("Сохраните таблицу в Excel — итоги и страница для игроков обновятся сами.",
                           "Save the workbook in Excel: the standings and the players' page update by themselves."),
}
