"""The accounts part's words, key -> (ru, en) (joined in :mod:`sheets_sync.web.words`).

A template reads ``w.a_b_c`` for the key ``a.b.c`` (every ``_`` a dot), so keys a template uses
have dots only; keys only Python asks for may keep an ``_`` (``new.players_csv``).
"""

WORDS: dict[str, tuple[str, str]] = {
    # the header
    "header.logout": ("Выйти", "Sign out"),
    # sign-up and sign-in
    "signup.title": ("Регистрация", "Sign up"),
    "signup.email": ("Электронная почта", "E-mail"),
    "signup.password1": ("Пароль", "Password"),
    "signup.password2": ("Пароль ещё раз", "Password again"),
    "signup.password.rules": ("Не короче 8 знаков, не только цифры, не похож на почту и не из списка частых паролей.",
                              "At least 8 characters, not only digits, not like your e-mail, not a common password."),
    "signup.submit": ("Зарегистрироваться", "Sign up"),
    "signup.have.account": ("Уже есть учётная запись?", "Already have an account?"),
    "signup.taken": ("С этой почтой уже зарегистрировались. Войдите или восстановите пароль.",
                     "This e-mail is already signed up. Sign in, or reset the password."),
    "signup.mismatch": ("Пароли не совпадают.", "The two passwords differ."),
    "signup.welcome": ("Готово: вы зарегистрированы и вошли.", "Done: you are signed up and signed in."),
    "password.password_too_short": ("Пароль слишком короткий: нужно не меньше 8 знаков.",
                                    "The password is too short: at least 8 characters."),
    "password.password_too_common": ("Это один из самых частых паролей — выберите другой.",
                                     "This is one of the most common passwords — choose another."),
    "password.password_entirely_numeric": ("Пароль не может состоять из одних цифр.",
                                           "The password cannot be only digits."),
    "password.password_too_similar": ("Пароль слишком похож на почту.", "The password is too like the e-mail."),
    "login.title": ("Вход", "Sign in"),
    "login.email": ("Электронная почта", "E-mail"),
    "login.password": ("Пароль", "Password"),
    "login.submit": ("Войти", "Sign in"),
    "login.forgot": ("Забыли пароль?", "Forgot the password?"),
    "login.no.account": ("Ещё нет учётной записи?", "No account yet?"),
    "login.invalid": ("Неверная почта или пароль. После 5 неудачных попыток вход закрывается на 15 минут.",
                      "Wrong e-mail or password. After 5 failed attempts sign-in is closed for 15 minutes."),
    "locked.title": ("Вход временно закрыт", "Sign-in closed for a while"),
    "locked.text": ("Слишком много неудачных попыток входа с этой почтой. Подождите 15 минут и попробуйте снова "
                    "или восстановите пароль.",
                    "Too many failed sign-ins for this e-mail. Wait 15 minutes and try again, or reset the password."),
    # password reset
    "reset.title": ("Восстановление пароля", "Reset the password"),
    "reset.text": ("Укажите почту, с которой вы регистрировались: мы пришлём ссылку для нового пароля.",
                   "Type the e-mail you signed up with: we send a link to choose a new password."),
    "reset.submit": ("Прислать ссылку", "Send the link"),
    "reset.sent": ("Если такая почта зарегистрирована, письмо со ссылкой уже отправлено. Если на сервере не "
                   "настроена почта, ссылку найдёт в журнале сервера тот, кто его запустил.",
                   "If this e-mail is signed up, the link is on its way. If the server has no mail set up, "
                   "whoever runs it finds the link in the server's log."),
    "reset.new.password": ("Новый пароль", "New password"),
    "reset.save": ("Сохранить пароль", "Save the password"),
    "reset.bad.link": ("Ссылка устарела или уже использована. Попросите новую.",
                       "The link is out of date or used already. Ask for a new one."),
    "reset.complete": ("Пароль изменён. Теперь можно войти.", "The password is changed. You can sign in now."),
    # rate limits (sheets_sync.web.throttle): how long to wait, said as «через {wait}»
    "wait.second.one": ("секунду", "second"),
    "wait.second.few": ("секунды", "seconds"),
    "wait.second.many": ("секунд", "seconds"),
    "wait.minute.one": ("минуту", "minute"),
    "wait.minute.few": ("минуты", "minutes"),
    "wait.minute.many": ("минут", "minutes"),
    "reset.too_many_address": ("Письмо для нового пароля на этот адрес уже отправлялось несколько раз за последний "
                               "час. Проверьте папку «Спам»; следующее письмо можно попросить через {wait}.",
                               "A reset letter to this address was sent several times in the last hour. Check the "
                               "spam folder; you can ask for the next one in {wait}."),
    "reset.too_many_client": ("С вашего адреса в сети слишком часто просят восстановить пароль. Попробуйте снова "
                              "через {wait}.",
                              "Too many password resets asked from your network address. Try again in {wait}."),
    # the tournament list
    "list.title": ("Мои турниры", "My tournaments"),
    # the server listening on the network (sheets_sync.web.addresses): what a phone on the same Wi-Fi opens
    "phone.intro": ("С телефона в той же сети (Wi-Fi) откройте этот адрес — или наведите камеру на код:",
                    "From a phone on the same network (Wi-Fi) open this address, or point its camera at the code:"),
    "list.add": ("Добавить таблицу", "Add a sheet"),
    "list.new": ("Новый турнир / сезон", "New tournament / season"),
    "list.name": ("Турнир", "Tournament"),
    "list.games": ("Игр учтено", "Games counted"),
    "list.last.sync": ("Обновлено", "Last sync"),
    "list.never": ("ещё не обновлялся", "not synced yet"),
    "list.errors": ("ошибок", "errors"),
    "list.kind.tournament": ("турнир", "tournament"),
    "list.kind.season": ("клубный сезон", "club season"),
    "list.share.lost": ("доступ к таблице потерян", "share lost"),
    "list.sync.failed": ("последнее обновление не удалось", "the last sync failed"),
    "list.empty": ("Здесь пока нет турниров. Начать можно двумя способами:",
                   "No tournaments here yet. There are two ways to start:"),
    "list.empty.add": ("у вас уже есть Google-таблица турнира: дайте к ней доступ нашему сервису и вставьте ссылку.",
                       "you already have the tournament's Google sheet: share it with our service and paste its link."),
    "list.empty.new": ("таблицы ещё нет: введите название и список игроков, и сервис сам создаст таблицу и откроет её вам.",
                       "there is no sheet yet: type the name and the players, and the service creates the sheet and shares it with you."),
    # adding a sheet
    "add.title": ("Добавить таблицу", "Add a sheet"),
    "add.step1": ("1. Откройте таблицу в Google Таблицах, нажмите «Настройки доступа» и добавьте этот адрес как редактора:",
                  "1. Open the sheet in Google Sheets, press «Share» and add this address as an editor:"),
    "add.step1.how": ("Это адрес нашего сервиса, а не человека: письмо ему отправлять не нужно.",
                      "This is our service's address, not a person's: no need to notify it."),
    "add.step2": ("2. Вставьте ссылку на таблицу", "2. Paste the sheet's link"),
    "add.next": ("Дальше", "Next"),
    "add.bad_link": ("Это не похоже на ссылку Google-таблицы. Скопируйте адрес из браузера, он начинается с "
                     "https://docs.google.com/spreadsheets/d/…",
                     "This does not look like a Google Sheets link. Copy the address from the browser: it starts "
                     "with https://docs.google.com/spreadsheets/d/…"),
    "add.code.intro": ("3. Докажите, что таблица ваша: вот ваш одноразовый код.",
                       "3. Prove the sheet is yours: here is your one-time code."),
    "add.code.step1": ("Впишите его в любую пустую ячейку вкладки «Турнир» (Tournament) этой таблицы.",
                       "Type it into any empty cell of the sheet's «Турнир» (Tournament) tab."),
    "add.code.step2": ("Нажмите «Проверить».", "Press «Check»."),
    "add.code.expires": ("Код действует 24 часа и подходит только вам.", "The code works for 24 hours and for you only."),
    "add.shared.with": ("Таблица должна быть открыта для", "The sheet must be shared with"),
    "add.check": ("Проверить", "Check"),
    "add.done": ("Таблица добавлена и обновляется. Код {code} можно удалить из вкладки «Турнир».",
                 "The sheet is added and being synced. You may now delete the code {code} from the Tournament tab."),
    "add.no.account": ("На сервере не настроен сервисный аккаунт Google (SHEETS_SYNC_SERVICE_ACCOUNTS). "
                       "Сообщите тому, кто запускает сервер.",
                       "The server has no Google service account (SHEETS_SYNC_SERVICE_ACCOUNTS). "
                       "Tell whoever runs the server."),
    "claim.taken": ("Эта таблица уже зарегистрирована другим организатором. Попросите его пригласить вас "
                    "соорганизатором (страница «Организаторы» турнира).",
                    "This sheet is already registered by another organizer. Ask them to invite you as a "
                    "co-organizer (the tournament's «Organizers» page)."),
    "claim.expired": ("Код устарел (прошло больше 24 часов). Начните заново — вы получите новый код.",
                      "The code is out of date (over 24 hours). Start again to get a new code."),
    "claim.not_shared": ("У сервиса нет доступа к таблице. Откройте её, нажмите «Настройки доступа» и добавьте "
                         "{email} как редактора, затем нажмите «Проверить» снова.",
                         "The service has no access to the sheet. Open it, press «Share», add {email} as an "
                         "editor, then press «Check» again."),
    "claim.not_found": ("Таблица не найдена: проверьте ссылку и что таблица открыта для {email} (редактор).",
                        "The sheet was not found: check the link, and that it is shared with {email} (editor)."),
    "claim.too_fast": ("Проверка только что была — подождите {wait} и нажмите «Проверить» снова.",
                       "Checked just now — wait {wait} and press «Check» again."),
    "claim.too_many_codes": ("За последний час вы получили много новых кодов. Следующий новый код можно получить "
                             "через {wait}; код таблицы, которую вы уже начали добавлять, показывается снова "
                             "в любое время.",
                             "You were given many new codes in the last hour. You can get the next new code in "
                             "{wait}; the code of a sheet you already started adding is shown again at any time."),
    "claim.unreadable": ("Не удалось прочитать таблицу: {reason}. Попробуйте ещё раз через минуту.",
                         "Could not read the sheet: {reason}. Try again in a minute."),
    "claim.share_first": ("Сервис пока не видит эту таблицу. Откройте её, нажмите «Настройки доступа», добавьте "
                          "{email} как редактора и нажмите «Дальше» снова.",
                          "The service cannot see this sheet yet. Open it, press «Share», add {email} as an editor "
                          "and press «Next» again."),
    "claim.no_tournament_tab": ("В таблице нет вкладки «Турнир» (Tournament). Если таблица пустая, выберите "
                                "«Новый турнир / сезон» и укажите её ссылку.",
                                "The sheet has no «Турнир» (Tournament) tab. If it is empty, choose «New "
                                "tournament / season» and give its link there."),
    "claim.code_missing": ("Код {code} не найден во вкладке «{tab}». Впишите его в пустую ячейку этой вкладки "
                           "(без лишних знаков) и нажмите «Проверить».",
                           "The code {code} is not in the «{tab}» tab. Type it into an empty cell of that tab "
                           "(nothing else in the cell) and press «Check»."),
    # a new tournament or season
    "new.title": ("Новый турнир / сезон", "New tournament / season"),
    "new.name": ("Название", "Name"),
    "new.kind": ("Что создаём", "What it is"),
    "new.kind_tournament": ("Турнир", "A tournament"),
    "new.kind_season": ("Клубный сезон (вечера игр)", "A club season (game evenings)"),
    "new.preset": ("Регламент", "Regulation"),
    "new.preset.help": ("Регламенты турниров и клубных сезонов — по названиям; очки каждого можно поменять потом на "
                        "вкладке «Турнир».",
                        "Tournaments' and club seasons' regulations, by their names; any value can be changed later "
                        "on the «Турнир» (Tournament) tab."),
    "new.group.tournament": ("Турнир", "Tournament"),
    "new.group.season": ("Клубный сезон", "Club season"),
    "new.players": ("Игроки, по одному в строке", "Players, one per line"),
    "new.players.help": ("Или загрузите CSV-файл: столбец «Игрок», по желанию «Клуб».",
                         "Or upload a CSV file: a «Player» column, and a «Club» one if you like."),
    "new.players_csv": ("…или CSV-файл игроков", "…or a CSV file of players"),
    "new.games": ("Игр у каждого игрока (турнир)", "Games per player (tournament)"),
    "new.tables": ("Столов (турнир)", "Tables (tournament)"),
    "new.games.help": ("Оставьте пустыми — возьмём числа из регламента.", "Leave blank for the regulation's numbers."),
    # issue 45: a tournament whose players apply (sheets-sync init --registration)
    "new.registration": ("Игроки подают заявки", "Players apply"),
    "new.places": ("Мест (турнир с заявками)", "Places (a tournament with applications)"),
    "new.registration.help": ("Заявки станут строками вкладки «Игроки» («Заявка», «Подана», «Прибыл»); рассадку "
                              "сделает жеребьёвка. Сроки — на вкладке «Турнир».",
                              "Applications become rows of the «Игроки» (Players) tab; the draw seats them. The "
                              "deadlines go on the «Турнир» (Tournament) tab."),
    "new.language": ("Язык таблицы", "The sheet's language"),
    "new.into": ("Ссылка на пустую таблицу", "The empty sheet's link"),
    "new.into.summary": ("У меня уже есть пустая таблица", "I already have an empty sheet"),
    "new.into.help": ("Без ссылки сервис создаст новую таблицу и откроет её вам. Чтобы заполнить свою пустую "
                      "таблицу, дайте доступ редактора адресу",
                      "Without a link the service creates a new sheet and shares it with you. To fill your own "
                      "empty sheet, share it as editor with"),
    "new.code.intro": ("Докажите, что пустая таблица ваша: впишите этот код в любую ячейку её первой вкладки и "
                       "нажмите «Проверить». После создания турнира эту вкладку можно удалить.",
                       "Prove the empty sheet is yours: type this code into any cell of its first tab and press "
                       "«Check». Once the tournament is made you may delete that tab."),
    "new.format.option": ("игр у каждого: {games}, столов: {tables}", "games per player: {games}, tables: {tables}"),
    "new.no_players": ("Впишите игроков (по одному в строке) или загрузите CSV-файл.",
                       "Type the players (one per line) or upload a CSV file."),
    "new.submit": ("Создать таблицу", "Create the sheet"),
    "new.app.where": ("Таблица Excel появится в папке программы под этим названием; откройте её в Excel, когда "
                      "начнётся турнир.",
                      "The Excel workbook appears in the program's folder under this name; open it in Excel when "
                      "the tournament starts."),
    "new.done.app": ("Таблица Excel «{file}» создана в папке; сохраняйте её в Excel — итоги обновятся сами.",
                     "The Excel workbook «{file}» is created in the folder; save it in Excel and the standings "
                     "update by themselves."),
    "new.done": ("Таблица создана и открыта вам в Google Таблицах; она обновляется.",
                 "The sheet is created and shared with you in Google Sheets; it is being synced."),
    # organizers of a tournament
    "members.title": ("Организаторы", "Organizers"),
    "members.owner": ("владелец", "owner"),
    "members.co": ("соорганизатор", "co-organizer"),
    "members.invited": ("приглашён, ещё не принял", "invited, not accepted yet"),
    "members.remove": ("Убрать", "Remove"),
    "members.cancel": ("Отменить приглашение", "Cancel the invitation"),
    "members.invite.label": ("Пригласить соорганизатора (почта)", "Invite a co-organizer (e-mail)"),
    "members.invite.help": ("Мы покажем ссылку-приглашение и отправим её письмом. Принять его сможет только "
                            "учётная запись с этой почтой, один раз и в течение 7 дней.",
                            "We show the invitation link and mail it. Only the account with this e-mail can accept "
                            "it, once, within 7 days."),
    "members.until": ("до", "until"),
    "members.expired": ("срок истёк — пригласите снова", "expired — invite again"),
    "members.invite": ("Пригласить", "Invite"),
    "members.copy.link": ("Ссылка-приглашение (скопируйте и отправьте, например, в VK):",
                          "The invitation link (copy it and send it, e.g. in VK):"),
    "members.invitation_ready": ("Приглашение для {email} готово: ссылка ниже, письмо отправлено.",
                                 "The invitation for {email} is ready: the link is below, and it is mailed."),
    "members.too_many": ("За последний час вы отправили много приглашений. Следующее можно отправить через {wait}.",
                         "You sent many invitations in the last hour. You can send the next one in {wait}."),
    "members.bad_email": ("Это не похоже на адрес почты.", "This does not look like an e-mail address."),
    "members.removed": ("{email} больше не соорганизатор.", "{email} is no longer a co-organizer."),
    "members.mail_subject": ("Приглашение: {title}", "Invitation: {title}"),
    "members.mail_body": ("{who} приглашает вас соорганизатором турнира «{title}» в sheets-sync.\n"
                          "Откройте ссылку и войдите с почтой {email} (или зарегистрируйтесь с ней):\n{link}\n"
                          "Приглашение действует до {until}.\n",
                          "{who} invites you to co-organize «{title}» on sheets-sync.\n"
                          "Open the link and sign in with {email} (or sign up with it):\n{link}\n"
                          "The invitation is valid until {until}.\n"),
    "members.unregister": ("Убрать турнир с сервера", "Unregister the tournament"),
    "members.unregister.help": ("Сервис перестанет обновлять таблицу и удалит свой сайт турнира. Сама "
                                "Google-таблица останется как есть.",
                                "The service stops syncing the sheet and drops its site. The Google sheet "
                                "itself stays as it is."),
    "members.unregister.confirm": ("Убрать турнир с сервера? Таблица останется как есть.",
                                   "Unregister the tournament? The sheet stays as it is."),
    "members.unregistered": ("Турнир «{title}» убран с сервера; таблица не тронута.",
                             "«{title}» is unregistered; the sheet is untouched."),
    "invite.title": ("Приглашение", "Invitation"),
    "invite.text": ("Вас приглашают соорганизатором турнира", "You are invited to co-organize"),
    "invite.as": ("Вы станете соорганизатором как", "You will join as"),
    "invite.accept": ("Принять", "Accept"),
    "invite.used": ("Это приглашение уже использовано или отменено. Попросите владельца турнира прислать новое.",
                    "This invitation is used or cancelled. Ask the tournament's owner for a new one."),
    "invite.for": ("Приглашение для", "The invitation is for"),
    "invite.until": ("Действует до", "Valid until"),
    "invite.expired": ("Срок этого приглашения истёк", "This invitation expired on"),
    "invite.expired.ask": ("Попросите владельца турнира прислать новое.", "Ask the tournament's owner for a new one."),
    "invite.someone.else": ("Это приглашение не для вашей учётной записи: вы вошли как",
                            "This invitation is not for your account: you are signed in as"),
    "invite.sign.in.as": ("Чтобы принять его, войдите как", "To accept it, sign in as"),
    "invite.switch": ("Выйти и войти с другой почтой", "Sign out and sign in with another e-mail"),
    "invite.signed.out": ("Чтобы принять приглашение, войдите с почтой", "To accept it, sign in with"),
    "invite.come.back": ("Если учётной записи ещё нет, зарегистрируйтесь с этой почтой. После входа или "
                         "регистрации вы вернётесь на эту страницу.",
                         "No account yet? Sign up with this e-mail. Either way you come back to this page."),
    "invite.accepted": ("Вы соорганизатор турнира «{title}».", "You co-organize «{title}»."),
}
