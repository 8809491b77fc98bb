"""Words of a co-organizer's access to the Google sheet (issue 43 §1), of the invitation's letter
(§2) and of the push snippet's address (§4)."""

WORDS: dict[str, tuple[str, str]] = {
    "organizer.action.organizer_access": ("Доступ к таблице", "Access to the sheet"),
    "organizer.sync.by.organizer_access": ("Обновление: изменились «Организаторы»", "Update: «Organizers» changed"),
    # the co-organizer's line on the members page
    "access.pending": ("открываем доступ к таблице — несколько секунд…", "giving access to the sheet — a few seconds…"),
    "access.shared": ("редактор Google-таблицы, в «Организаторах» на вкладке «{tab}»",
                      "an editor of the Google sheet, in «Organizers» on the «{tab}» tab"),
    "access.shared.only": ("редактор Google-таблицы", "an editor of the Google sheet"),
    "access.by.hand": ("Сервис не может открыть таблицу для {email}: {why} Откройте таблицу → «Настройки доступа» "
                       "(кнопка «Поделиться») → добавьте {email} как редактора.",
                       "The service cannot share the sheet with {email}: {why} Open the sheet → «Share» → add "
                       "{email} as an editor."),
    "access.why.no.share": ("владелец таблицы не разрешает редакторам открывать доступ (в «Настройках доступа» снята "
                            "галочка «Редакторы могут изменять разрешения и параметры доступа»), или сервис в ней "
                            "не редактор.",
                            "the sheet's owner does not let editors share (the Share dialog's «Editors can change "
                            "permissions and share» is off), or the service is not an editor of it."),
    # the co-organizer's own tournament page, beside «Открыть таблицу»
    "access.mine.pending": ("Открываем вам Google-таблицу — несколько секунд; страница обновится сама.",
                            "Sharing the Google sheet with you — a few seconds; the page refreshes itself."),
    "access.mine.by.hand": ("Google-таблица вам ещё не открыта: сервис не может поделиться ею сам. Попросите "
                            "владельца турнира добавить {email} редактором («Настройки доступа» в таблице) — на его "
                            "странице «Организаторы» написано, как.",
                            "The Google sheet is not shared with you yet: the service cannot share it by itself. Ask "
                            "the tournament's owner to add {email} as an editor (the sheet's «Share») — their "
                            "«Organizers» page says how."),
    "access.recheck": ("Я открыл — проверить", "Done — check again"),
    "access.why.refused": ("Google отказал ({status}) — например, у этой почты нет аккаунта Google.",
                           "Google refused ({status}) — for instance, this address has no Google account."),
    "access.why.failed": ("не удалось связаться с Google.", "Google could not be reached."),
    "access.cell.by.hand": ("Впишите {email} в ячейку «Организаторы» на вкладке «Турнир» — тогда защищённые вкладки "
                            "откроются и ему.",
                            "Type {email} into the «Organizers» cell of the «Tournament» tab — then the protected "
                            "tabs open to them too."),
    "access.removed.by.hand": ("{email} больше не соорганизатор, но сервис не может закрыть ему таблицу: {why} "
                               "Откройте таблицу → «Настройки доступа» (кнопка «Поделиться») → уберите {email}.",
                               "{email} is no longer a co-organizer, but the service cannot take the sheet back: "
                               "{why} Open the sheet → «Share» → remove {email}."),
    # the job's lines (its page)
    "access.done.shared": ("Таблица открыта для {email} (редактор); Google отправил письмо со ссылкой.",
                           "The sheet is shared with {email} (editor); Google mailed them the link."),
    "access.done.already": ("У {email} уже был доступ к таблице как у редактора.",
                            "{email} already edits the sheet."),
    "access.done.listed": ("{email} добавлен в «Организаторы» на вкладке «{tab}» (ячейка {cell}): защищённые вкладки "
                           "откроются ему после обновления.",
                           "{email} is added to «Organizers» on the «{tab}» tab (cell {cell}): the protected tabs "
                           "open to them after the sync."),
    "access.done.listed.already": ("{email} уже был в «Организаторах».", "{email} was already among «Organizers»."),
    "access.done.unshared": ("Доступ {email} к таблице закрыт.", "{email} no longer has access to the sheet."),
    "access.done.kept": ("Доступ {email} к таблице был и до приглашения — он оставлен как был.",
                         "{email} had access to the sheet before the invitation — it is left as it was."),
    "access.done.unlisted": ("{email} убран из «Организаторов» на вкладке «{tab}» (ячейка {cell}).",
                             "{email} is taken out of «Organizers» on the «{tab}» tab (cell {cell})."),
    "access.done.unlisted.kept": ("{email} был в «Организаторах» и до приглашения — ячейка не тронута.",
                                  "{email} was among «Organizers» before the invitation — the cell is untouched."),
    # the invitation's letter (§2)
    "members.mail.none": ("Приглашение для {email} готово. Почтовый сервер не настроен — письмо не отправлено; "
                          "передайте ссылку сами (она ниже). Текст письма — только в журнале сервера.",
                          "The invitation for {email} is ready. No mail server is set up — no letter was sent; "
                          "pass the link on yourself (it is below). The letter is only in the server's log."),
    "members.mail.failed": ("Приглашение для {email} готово, но письмо не ушло: почтовый сервер ответил ошибкой. "
                            "Передайте ссылку сами (она ниже).",
                            "The invitation for {email} is ready, but the letter did not go: the mail server "
                            "answered with an error. Pass the link on yourself (it is below)."),
    "members.invite.help.nomail": ("Мы покажем ссылку-приглашение — передайте её сами (почтовый сервер не настроен, "
                                   "письма не отправляются). Принять его сможет только учётная запись с этой почтой, "
                                   "один раз и в течение 7 дней.",
                                   "We show the invitation link — pass it on yourself (no mail server is set up, no "
                                   "letters go out). Only the account with this e-mail can accept it, once, within "
                                   "7 days."),
    "members.access.note": ("Принявший приглашение становится редактором Google-таблицы и попадает в «Организаторы» "
                            "на вкладке «Турнир»; когда его убирают — и то и другое снимается.",
                            "Whoever accepts becomes an editor of the Google sheet and joins «Organizers» on the "
                            "«Tournament» tab; removing them takes both back."),
    # the push snippet's address (§4)
    "push.unreachable": ("Google не сможет достучаться до этого адреса: {host} — адрес внутри вашей сети (или этого "
                         "компьютера), а скрипт таблицы работает на серверах Google. Сигналы из таблицы пойдут, "
                         "когда у сервера будет публичный адрес: укажите его в настройке SHEETS_SYNC_PUBLIC_URL "
                         "(например, https://sync.example.org) и перезапустите сервер — код ниже изменится сам. "
                         "Без этого таблица всё равно обновляется в течение минуты.",
                         "Google cannot reach this address: {host} is inside your network (or this computer), and "
                         "the sheet's script runs on Google's servers. Its signals get through once the server has a "
                         "public address: set it as SHEETS_SYNC_PUBLIC_URL (for instance https://sync.example.org) "
                         "and restart the server — the code below follows by itself. Without it the sheet is still "
                         "synced within a minute."),
    # the snippet's comments (the code is pasted into Apps Script: its comments in the page's language)
    "push.code.what": ("sheets-sync: сообщает серверу о правке таблицы сразу, как только судья её сделал.",
                       "sheets-sync: tells the server at once when a judge edits this spreadsheet."),
    "push.code.run": ("Запустите installTrigger один раз (▶ Выполнить); после этого каждая правка отправляет "
                      "номер таблицы и её секрет.",
                      "Run installTrigger once (Run ▶); after that every edit posts this sheet's id and secret."),
    "push.code.plain": ("Адрес и секрет — простой текст (буквы, цифры, - и _): экранировать нечего.",
                        "The URL and the secret are plain text (letters, digits, - and _: nothing to escape)."),
    "push.code.loop": ("Сам сервер пишет через API и этот триггер не вызывает: зацикливания нет.",
                       "The server's own writes go through the API and never fire the trigger: no loop."),
    "push.code.twice": ("запуск дважды оставляет один триггер", "run twice, still one trigger"),
    "push.code.unreachable": ("ВНИМАНИЕ: этот адрес Google не виден — укажите SHEETS_SYNC_PUBLIC_URL на сервере.",
                              "WARNING: Google cannot reach this address — set SHEETS_SYNC_PUBLIC_URL on the server."),
}
