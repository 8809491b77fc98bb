"""An action's refusals as the web pages say them, key -> (ru, en) (joined in :mod:`sheets_sync.web.words`).

The command line's messages (:mod:`sheets_sync.messages`) name its flags (``--force``, ``--out
ПАПКА``, ``--date``) and the computer it runs on; a page has a field to tick instead, or a server
the organizer does not run. ``refusal.<key>`` is what a page says for the message ``<key>``, with
the same values filled in (and ``{force}``, ``{force_advance}``: the fields' own words);
:mod:`sheets_sync.web.refusals` picks it."""

WORDS: dict[str, tuple[str, str]] = {
    "refusal.draw.typed": ("протоколы уже заполняются ({tabs}); новая жеребьёвка пересадит игроков из их игр — "
                           "отметьте «{force}», только если так и нужно",
                           "protocols already typed ({tabs}); a new draw would move players away from their games — "
                           "tick «{force}» only if you mean it"),
    "refusal.evening.exists": ("вечер {title} уже есть в таблице: вкладка «{tab}»; впишите игры туда или выберите "
                               "другую дату",
                               "the evening of {title} is already in the workbook: tab «{tab}»; add its games there, "
                               "or choose another date"),
    "refusal.output.disk_full": ("Сайт для игроков не обновлён: на диске сервера закончилось место. Игроки по-прежнему "
                                 "видят прежнюю версию сайта, целиком. Сообщите тому, кто запускает сервер; таблица не "
                                 "пострадала, синхронизация повторится сама.",
                                 "The players' site was not updated: the server's disk is full. Players still see the "
                                 "previous version of the site, whole. Tell whoever runs the server; the sheet is "
                                 "unharmed and the sync is retried by itself."),
    "refusal.output.read_only": ("Сайт для игроков не обновлён: сервер не может писать в свою папку данных ({reason}). "
                                 "Игроки видят прежнюю версию сайта. Сообщите тому, кто запускает сервер; таблица не "
                                 "пострадала.",
                                 "The players' site was not updated: the server cannot write to its data folder "
                                 "({reason}). Players see the previous version of the site. Tell whoever runs the "
                                 "server; the sheet is unharmed."),
    "refusal.output.failed": ("Сайт для игроков не обновлён: не удалось записать файл ({reason}). Игроки видят прежнюю "
                              "версию сайта; таблица не пострадала.",
                              "The players' site was not updated: a file could not be written ({reason}). Players see "
                              "the previous version of the site; the sheet is unharmed."),
    "refusal.workbook.read_only": ("не могу сохранить {name}: {reason}. В папку {folder} нельзя писать — разрешите "
                                   "запись в неё; таблица не изменена",
                                   "cannot save {name}: {reason}. The folder {folder} is read-only: allow writing to "
                                   "it; the workbook is unchanged"),
    "refusal.ref.not_found": ("{path}: такой таблицы нет — файл перемещён или удалён; верните его на место",
                              "{path}: no such workbook — the file was moved or deleted; put it back"),
    "refusal.report.locked": ("{name} открыта в Excel или LibreOffice: сайт обновлён, а вкладки таблицы будут "
                              "записаны, когда файл закроют",
                              "{name} is open in Excel or LibreOffice: the site is updated; the workbook's tabs will "
                              "be written when the file is closed"),
    # Google's answers: what to do, without Google's own English words
    "refusal.google.no_access": ("нет доступа к {what}: откройте её в Google Таблицах, нажмите «Настройки доступа» и "
                                 "дайте {who} доступ «Редактор»",
                                 "no access to {what}: open it in Google Sheets, press Share and give {who} Editor "
                                 "access"),
    "refusal.google.busy": ("Google Таблицы сейчас заняты или сбоят (HTTP {status}) — попробуйте ещё раз через минуту",
                            "Google Sheets is busy or failing (HTTP {status}): try again in a minute"),
    "refusal.google.rejected": ("Google Таблицы отклонили запрос (HTTP {status}) — сообщите тому, кто запускает сервер",
                                "Google Sheets rejected the request (HTTP {status}): tell whoever runs the server"),
    "refusal.google.api_disabled": ("в проекте Google этого сервера не включён Google Sheets API — сообщите тому, "
                                    "кто запускает сервер",
                                    "the Google Sheets API is not enabled for this server's Google project: tell "
                                    "whoever runs the server"),
    "refusal.google.credentials_rejected": ("Google отклонил ключ сервисного аккаунта — сообщите тому, кто запускает "
                                            "сервер",
                                            "Google rejected the service account's key: tell whoever runs the server"),
    "refusal.google.key_refused": ("Google отклонил ключ сервисного аккаунта — сообщите тому, кто запускает сервер",
                                   "Google refused the service account's key: tell whoever runs the server"),
    "refusal.google.signin_failed": ("служба входа Google не ответила — попробуйте ещё раз через минуту",
                                     "Google's sign-in service failed: try again in a minute"),
    "refusal.google.unreachable": ("нет связи с Google Таблицами — попробуйте ещё раз через минуту",
                                   "cannot reach Google Sheets: try again in a minute"),
    # an error that came without Russian words (a backend's English-only message): what kind it is
    "refusal.kind.WorkbookLocked": ("таблица открыта в другой программе — закройте её и повторите",
                                    "the workbook is open in another program: close it and try again"),
    "refusal.kind.WorkbookChanged": ("таблицу сохранили во время синхронизации; ничего не записано — повторите",
                                     "the workbook was saved during the sync; nothing was written: try again"),
    "refusal.kind.TransientError": ("временный сбой — попробуйте ещё раз через минуту",
                                    "a passing failure: try again in a minute"),
    "refusal.kind.WorkbookNotFound": ("таблица не найдена", "the workbook was not found"),
    "refusal.kind.WorkbookUnreadable": ("таблицу не удалось прочитать: это не книга .xlsx, или она повреждена",
                                        "the workbook could not be read: not an .xlsx workbook, or a broken one"),
    "refusal.kind.PermissionDenied": ("нет доступа к таблице", "no access to the workbook"),
    "refusal.kind.BackendError": ("не удалось прочитать или записать таблицу", "the workbook could not be read or written"),
    "refusal.kind.SheetsSyncError": ("действие не выполнено", "not done"),
}
