"""The judges' links' words on the organizer's page, key -> (ru, en) (joined in :mod:`sheets_sync.web.words`)."""

WORDS: dict[str, tuple[str, str]] = {
    "judge.section": ("Судьи", "Judges"),
    "judge.help": ("У каждого стола своя ссылка: судья открывает её на телефоне и заполняет протокол — он попадает "
                   "в ту же вкладку таблицы. Ссылка — это ключ: отдайте её только судье стола. Отозванная ссылка "
                   "перестаёт работать сразу.",
                   "Each table has its own link: the judge opens it on a phone and fills in the protocol, which lands "
                   "in the same tab of the sheet. The link is the key: give it to the table's judge only. A revoked "
                   "link stops working at once."),
    "judge.make": ("Сделать ссылки для столов этапа", "Make the links of the stage's tables"),
    "judge.chief": ("Ссылка главного судьи", "The chief judge's link"),
    "judge.chief.make": ("Сделать ссылку главного судьи", "Make the chief judge's link"),
    "judge.table": ("стол", "table"),
    "judge.judge.make": ("Ссылка судьи на несколько столов", "A judge's link for several tables"),
    "judge.judge.name": ("Судья", "Judge"),
    "judge.judge.tables": ("Его столы", "His tables"),
    "judge.judge.invalid": ("Укажите судью и хотя бы один стол этапа.", "Name the judge and at least one table of the stage."),
    "judge.copy": ("Копировать", "Copy"),
    "judge.copied": ("Скопировано", "Copied"),
    "judge.revoke": ("Отозвать", "Revoke"),
    "judge.renew": ("Заменить на новую", "Replace with a new one"),
    "judge.revoke.sure": ("Ссылка перестанет работать сразу. Продолжить?", "The link stops working at once. Go on?"),
    "judge.none": ("Ссылок пока нет. Они появятся после первой синхронизации с рассадкой.",
                   "No links yet. They appear after the first sync with a seating."),
    "judge.made": ("Ссылки сделаны: {n}.", "Links made: {n}."),
    "judge.revoked": ("Ссылка отозвана.", "The link is revoked."),
    "judge.renewed": ("Ссылка заменена: старая больше не работает.", "The link is replaced: the old one no longer works."),
    "judge.noseating": ("Сначала нужна рассадка этапа и синхронизация.", "A stage seated and synced comes first."),
    "judge.action.write": ("Запись с телефонов судей", "Judges' phones' entries"),
    # the jobs table's titles (organizer.glance.job_title: «organizer.action.<action>», «organizer.sync.by.<reason>»)
    "organizer.action.judge-write": ("Запись с телефонов судей", "Judges' phones' entries"),
    "organizer.sync.by.judge": ("Обновление после записи с телефона судьи", "Update after a judge's phone"),
    "judge.lan": ("Телефоны судей открывают эти адреса в той же сети, что и этот компьютер.",
                  "The judges' phones open these addresses on the same Wi-Fi as this computer."),
    "judge.local": ("Приложение открыто только на этом компьютере: телефоны судей эти ссылки не откроют. Запустите "
                    "его для сети зала (README, «Судьи с телефонами»).",
                    "The app is open on this computer only: the judges' phones cannot open these links. Start it for "
                    "the venue's network (README, «Judges with phones»)."),
}
