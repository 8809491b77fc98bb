"""Words of access refused, key -> (ru, en) (joined in :mod:`sheets_sync.web.words`): a sheet shared
with the service as «Viewer», a form sent from a page that went stale (CSRF), a page that does not
exist, a failure of the server's own.

Keys have no underscores except those only Python asks for: a template's ``w.share_viewonly``
finds ``share.viewonly``."""

WORDS: dict[str, tuple[str, str]] = {
    # a sheet the service may read but not write
    "claim.view_only": ("Таблица открыта для сервиса только на просмотр («Читатель»), а ему нужно записывать в неё "
                        "итоги. Откройте таблицу, нажмите «Настройки доступа», дайте {email} доступ "
                        "«Редактор» и нажмите «Проверить» снова.",
                        "The sheet is shared with the service for viewing only («Viewer»), and the service has to "
                        "write the standings into it. Open the sheet, press «Share», give {email} «Editor» access, "
                        "then press «Check» again."),
    "share.viewonly": ("Таблица открыта для сервиса только на просмотр («Читатель»): итоги в неё не записываются. "
                       "Откройте таблицу, нажмите «Настройки доступа» и дайте доступ «Редактор» адресу сервиса "
                       "(синхронизация продолжится сама):",
                       "The sheet is shared with the service for viewing only («Viewer»): the standings are not "
                       "written into it. Open the sheet, press «Share» and give «Editor» access to the service's "
                       "address (syncing resumes by itself):"),
    "share.viewonly.badge": ("только чтение: нужен доступ «Редактор»", "view only: «Editor» access needed"),
    # the error pages
    "csrf.title": ("Страница устарела", "The page is out of date"),
    "csrf.text": ("Страница устарела — обновите её и повторите. Так бывает, если страница долго была открыта, "
                  "если вы вошли или вышли в другой вкладке, или если браузер не принимает куки этого сайта.",
                  "The page is out of date: reload it and try again. This happens when a page stayed open for a "
                  "long time, after signing in or out in another tab, or when the browser refuses this site's "
                  "cookies."),
    "csrf.back": ("Вернуться на страницу", "Back to the page"),
    "error.home": ("К списку турниров", "To the tournament list"),
    "badhost.title": ("Сервер не отвечает на этот адрес", "The server does not answer this address"),
    "badhost.text": ("Сервер настроен отвечать на другие адреса. Откройте адрес, который сервер напечатал при "
                     "запуске (или наведите камеру на его QR-код). Если адрес верный, сообщите тому, кто запускает "
                     "сервер.",
                     "The server is set to answer other addresses. Open the address it printed when it started (or "
                     "point the camera at its QR code). If the address is right, tell whoever runs the server."),
    "badrequest.title": ("Неверный запрос", "Bad request"),
    "badrequest.text": ("Сервер не понял этот запрос. Вернитесь к списку турниров и попробуйте ещё раз.",
                        "The server did not understand this request. Go back to the tournament list and try again."),
    "notfound.title": ("Страница не найдена", "Page not found"),
    "notfound.text": ("Такой страницы нет — или она не ваша. Проверьте адрес или вернитесь к списку турниров.",
                      "There is no such page, or it is not yours. Check the address or go back to the tournament "
                      "list."),
    # the database held by another process a moment too long (sheets_sync.web.busy): 503
    "busy.title": ("Сервер занят", "The server is busy"),
    "busy.text": ("База данных сервера сейчас занята — это ненадолго. Повторите через несколько секунд.",
                  "The server's database is busy for a moment. Try again in a few seconds."),
    "busy.press": ("База данных сервера сейчас занята — нажатие не выполнено. Повторите через несколько секунд: "
                   "кнопка ниже отправит то же самое ещё раз.",
                   "The server's database is busy for a moment: the press was not done. Try again in a few seconds: "
                   "the button below sends the same again."),
    "busy.again": ("Повторить", "Try again"),
    "busy.reload": ("Обновить страницу", "Reload the page"),
    "servererror.title": ("Ошибка на сервере", "Server error"),
    "servererror.text": ("Что-то сломалось на нашей стороне. Данные в таблице не тронуты. Попробуйте ещё раз через "
                         "минуту; если ошибка повторяется, сообщите тому, кто запускает сервер.",
                         "Something broke on our side. Nothing in the sheet was touched. Try again in a minute; if "
                         "it happens again, tell whoever runs the server."),
}
