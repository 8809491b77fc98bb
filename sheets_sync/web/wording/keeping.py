"""The keeping part's words, key -> (ru, en) (joined in :mod:`sheets_sync.web.words`): the push
trigger's instructions, for someone who never opened Apps Script."""

WORDS: dict[str, tuple[str, str]] = {
    "push.title": ("Мгновенное обновление (по желанию)",
                   "Instant updates (optional)"),
    "push.why": ("Без этого сайт обновляется в течение минуты после правки. С этим — через несколько секунд: "
                 "таблица сама сообщает серверу о каждой правке судей.",
                 "Without this the site updates within a minute of an edit. With it, within seconds: the "
                 "spreadsheet itself tells the server about every judge's edit."),
    "push.seen": ("Последний сигнал из таблицы:", "Last signal from the spreadsheet:"),
    "push.step.open": ("Откройте таблицу и выберите в меню «Расширения» → «Apps Script».",
                       "Open the spreadsheet and choose Extensions → Apps Script in the menu."),
    "push.step.paste": ("Удалите всё, что там написано, и вставьте код ниже целиком.",
                        "Delete whatever is there and paste the whole code below."),
    "push.step.save": ("Нажмите значок дискеты («Сохранить проект»).",
                       "Press the disk icon (Save project)."),
    "push.step.run": ("Вверху выберите функцию installTrigger и нажмите «Выполнить».",
                      "At the top choose the function installTrigger and press Run."),
    "push.step.allow": ("Google попросит разрешение: выберите свой аккаунт, «Дополнительно» → «Перейти к проекту» → "
                        "«Разрешить». Это нужно один раз.",
                        "Google asks for permission: choose your account, Advanced → Go to the project → Allow. "
                        "Only once."),
    "push.step.check": ("Готово: исправьте любую ячейку протокола — строка «Последний сигнал» на этой странице "
                        "обновится.",
                        "Done: change any cell of a protocol — the “Last signal” line on this page updates."),
    "push.secret.note": ("В коде — секрет этой таблицы: не публикуйте его. Чужой сигнал без секрета ничего не "
                         "запускает.",
                         "The code holds this spreadsheet's secret: do not publish it. A signal without the "
                         "secret starts nothing."),
}
