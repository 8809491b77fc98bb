"""What the command line says, in Russian and English, and which of the two it speaks.

Every line the commands print and every error a person can fix that the actions raise take
their words from :data:`MESSAGES` (key → (ru, en)); :func:`fail` builds an error that carries
both texts (:class:`scoring.errors.SheetsSyncError` prints the one asked for).

Which language: ``--language`` when given; else the tournament's (the Язык / Language row
of the Tournament tab; ``init`` creates the tournament in its ``--language``, Russian by
default); else, before a workbook could be read (a missing file, a malformed reference),
the system's: Russian when the first of ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``
that is set names Russian (on Windows, the user's locale), English otherwise.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar

from scoring.errors import SheetsSyncError

__all__ = ["MESSAGES", "text", "fail", "Inner", "filled", "system_language", "shell_word", "LANGUAGES"]

LANGUAGES = ("ru", "en")

# key -> (ru, en); {names} are filled in by text()
MESSAGES: dict[str, tuple[str, str]] = {
    # how an error is introduced
    "error": ("ошибка", "error"),
    "refused.draw": ("жеребьёвка не проведена", "not drawn"),
    "refused.advance": ("следующий этап не рассажен", "not advanced"),
    "refused.replace": ("замена не сделана", "not replaced"),
    "refused.evening": ("вечер не добавлен", "evening not added"),
    "evening.added": ("добавлена вкладка «{tab}»: игр {games}, протокол на каждую", "tab '{tab}' added: {games} games, a protocol each"),
    # --games counts the games of all tables together (issue 34 §11): 6 at 2 tables are 3 rounds
    "evening.added_tables": ("добавлена вкладка «{tab}»: игр {games} — туров {rounds} за {tables} столами, протокол на каждую игру",
                             "tab '{tab}' added: {games} games — {rounds} rounds at {tables} tables, a protocol each"),
    "evening.exists": ("вечер {title} уже есть в таблице: вкладка «{tab}»; впишите игры туда или укажите другую --date",
                       "the evening of {title} is already in the workbook: tab {tab!r}; add its games there, or give "
                       "another --date"),
    "evening.bad_date": ("«{value}» — не дата: напишите ГГГГ-ММ-ДД, например 2026-12-05",
                         "'{value}' is not a date: write it as YYYY-MM-DD, e.g. 2026-12-05"),
    "stopped": ("остановлено", "stopped"),
    # what WORKBOOK is
    "ref.folder": ("{path} — это папка, а не файл таблицы: укажите файл .xlsx (например, {example})",
                   "{path} is a folder, not a workbook file: give an .xlsx file (e.g. {example})"),
    "ref.not_found": ("{path}: такой таблицы нет — проверьте путь или создайте её: sheets-sync init {path} --players "
                      "players.csv",
                      "{path}: no such workbook — check the path, or create it: sheets-sync init {path} --players "
                      "players.csv"),
    "ref.not_xlsx": ("{path}: sheets-sync работает с файлами .xlsx; сохраните таблицу как книгу Excel (.xlsx)",
                     "{path}: sheets-sync works with .xlsx files; save the workbook as an Excel workbook (.xlsx)"),
    "ref.bad_google": ("«{ref}» — не ссылка на Google-таблицу: нужен адрес вида "
                       "https://docs.google.com/spreadsheets/d/ИДЕНТИФИКАТОР/edit или gsheet:ИДЕНТИФИКАТОР "
                       "(идентификатор — длинная строка из букв, цифр, - и _ в адресе таблицы)",
                       "'{ref}' is not a Google spreadsheet: give its address, "
                       "https://docs.google.com/spreadsheets/d/ID/edit, or gsheet:ID (the ID is the long string "
                       "of letters, digits, - and _ in the spreadsheet's address)"),
    # the players CSV
    "csv.not_text": ("{file}: это не текст в UTF-8 или cp1251 — сохраните список как «CSV UTF-8»",
                     "{file}: not UTF-8 or cp1251 text — save the list as 'CSV UTF-8'"),
    "csv.empty": ("{file}: файл пустой", "{file}: empty file"),
    "csv.no_player_column": ("{file}: в первой строке нет столбца «Игрок» / «Player» (есть: {columns}); первая строка — "
                             "заголовки: Игрок;Клуб;Город;Статус;Пропуск",
                             "{file}: no 'Игрок' / 'Player' column in the first row ({columns}); the first row holds "
                             "the headers: Player,Club,City,Status,Excused round"),
    "csv.duplicates": ("{file}: ники повторяются (или различаются только регистром, пробелами, ё, похожими русскими "
                       "и латинскими буквами — в протоколе их не различить) — у каждого игрока должен быть свой: {names}",
                       "{file}: nicknames listed more than once (or differing only in case, spaces, ё, look-alike "
                       "Cyrillic and Latin letters — a protocol cannot tell them apart) — every player needs a nickname "
                       "of his own: {names}"),
    "csv.duplicate": ("{names} (строки {lines})", "{names} (lines {lines})"),
    "csv.bad_status": ("{file}, строка {line}: неизвестный статус «{status}» (пусто, снялся, дисквалифицирован, "
                       "запасной)",
                       "{file}, line {line}: unknown status '{status}' (empty, withdrawn, disqualified, reserve)"),
    "csv.no_players": ("{file}: ни одного игрока", "{file}: no players"),
    # presets
    "preset.unknown": ("неизвестный регламент «{ref}»{hint} (есть: {known}; или путь к своему файлу .toml)",
                       "unknown preset '{ref}'{hint} (known: {known}; or the path to a .toml file of your own)"),
    "preset.hint": (" — может быть, {near}?", " — did you mean {near}?"),
    "preset.file_missing": ("файл регламента {file} не найден{where} — верните его на место или укажите на вкладке "
                            "Турнир в строке Регламент встроенный регламент ({known})",
                            "preset file {file} not found{where} — put it back, or name a shipped preset ({known}) in "
                            "the Tournament tab's Preset row"),
    "preset.beside": (" рядом с таблицей ({folder})", " beside the workbook ({folder})"),
    "preset.not_published": ("Итоги не пересчитаны и не опубликованы.", "Nothing was computed or published."),
    # init
    "init.exists": ("{path} уже существует (чтобы заменить, добавьте --force)", "{path} already exists (use --force "
                    "to replace it)"),
    "init.share_with_file": ("--share-with — для Google-таблиц: укажите gsheet:new (или gsheet:ID) вместо файла",
                             "--share-with is for Google spreadsheets: use gsheet:new (or gsheet:ID) as the workbook"),
    "init.created": ("создано: {source} — игроков {players}, вкладок протоколов {tabs}; регламент {preset}",
                     "created {source}: {players} players, {tabs} protocol tabs; preset {preset}"),
    "init.season_created": ("создан клубный сезон: {source} — игроков {players}; регламент {preset}. Вечер добавляет "
                            "sheets-sync evening {source} --date ГГГГ-ММ-ДД --games N; нового игрока — строка на вкладке "
                            "Игроки",
                            "created the club season {source}: {players} players; preset {preset}. Add an evening with "
                            "sheets-sync evening {source} --date YYYY-MM-DD --games N, a new player as a row of the "
                            "Players tab"),
    "init.registration_created": ("создан турнир с регистрацией: {source} — игроков {players}, мест {places}; "
                                  "регламент {preset}. Заявки — строки вкладки Игроки («Заявка», «Подана»), прибывших "
                                  "отмечают в «Прибыл»; рассадку делает sheets-sync draw {source}",
                                  "created the tournament with registration {source}: {players} players, {places} places; "
                                  "preset {preset}. Applications are rows of the Players tab (Application, Applied at), "
                                  "arrivals are ticked in Arrived; sheets-sync draw {source} seats them"),
    "init.players_or_registration": ("укажите --players ФАЙЛ.csv или --registration (игроки придут заявками)",
                                     "give --players FILE.csv or --registration (the players will apply)"),
    "init.preset_ref": ("регламент из файла: на вкладке Турнир записано «{ref}» (путь от папки таблицы)",
                        "preset from a file: the Tournament tab names '{ref}' (a path from the workbook's folder)"),
    "init.reserves_added": ("добавлены запасные (статус «запасной»), они займут пустые места: {names} — чтобы вместо них "
                            "сели настоящие, добавьте их в список игроков со статусом «запасной» и запустите init ещё "
                            "раз",
                            "reserves added (status 'reserve') to fill the empty seats: {names} — to seat real ones, "
                            "add them to the players list with status 'reserve' and run init again"),
    "init.name_prompt": ("Название турнира или сезона (на сайте, в посте ВК и его хэштеге)",
                         "The tournament's or season's name (on the site, in the VK post and its hashtag)"),
    "init.name_default": ("название: «{name}» — из имени файла; другое — --name \"…\" или строка «Название» на "
                          "вкладке Турнир", "name: “{name}”, from the file's name; another: --name \"…\" or the "
                          "Tournament tab's “Name” row"),
    "init.new_spreadsheet": ("новая таблица {source}", "new spreadsheet {source}"),
    "init.shared": (", доступ на редактирование: {who}", ", shared with {who} (editor)"),
    "init.owner_note": ("таблица принадлежит сервисному аккаунту {email}; добавьте --share-with ВАШ_EMAIL, чтобы "
                        "открыть её в браузере",
                        "it belongs to the service account {email}; pass --share-with YOUR_EMAIL to open it in your "
                        "browser"),
    "init.not_empty": ("{source} не пуста (вкладки с данными: {tabs}); init заполняет новую или пустую таблицу — "
                       "укажите gsheet:new или добавьте --force, чтобы заменить вкладки турнира",
                       "{source} is not empty (tabs with data: {tabs}); init fills a new or empty spreadsheet — use "
                       "gsheet:new, or --force to replace the tournament's tabs"),
    # formats
    "format.reserves_missing": ("столов {tables}, мест {seats}: играют {players}, запасных на вкладке Игроки {have}, а "
                                "нужно {need} — добавьте запасных (статус «запасной») или уменьшите число столов "
                                "({key} на вкладке Турнир)",
                                "{tables} tables are {seats} seats: {players} play and the Players tab has {have} "
                                "reserves, {need} are needed — add reserves (status 'reserve') or use fewer tables "
                                "({key} on the Tournament tab)"),
    "format.nearest": ("Ближайшие форматы, которые получаются:", "The nearest formats that work:"),
    "format.nearest_tab": ("Ближайшие форматы, которые получаются (вкладка Турнир):",
                           "The nearest formats that work (the Tournament tab):"),
    # the sync's report
    "report.counted": ("засчитано игр: {games}; ошибок: {errors}, предупреждений: {warnings}",
                       "{games} games counted; {errors} errors, {warnings} warnings"),
    "report.not_started": ("{title}: {headline}; игроков в списке: {players}", "{title}: {headline}; {players} players "
                           "on the list"),
    "report.season_not_started": ("{title}: игр пока нет; игроков в списке: {players}",
                                  "{title}: no game yet; {players} players on the list"),
    "report.more": ("  … и ещё {n} — на вкладке Проверка", "  … and {n} more on the Problems tab"),
    "report.workbook": ("таблица {state}: вкладок {tabs}, отметок поставлено {set}, снято {cleared} ({timing})",
                        "workbook {state}: {tabs} tabs, {set} marks set, {cleared} cleared ({timing})"),
    "report.written": ("записана", "written"),
    "report.skipped": ("таблица, регламент и шаблоны не изменились с прошлой синхронизации — ничего не пересчитано и "
                       "не записано (засчитано игр: {games}; ошибок: {errors}, предупреждений: {warnings})",
                       "the workbook, preset and templates are as the last sync left them: nothing recomputed or "
                       "written ({games} games counted; {errors} errors, {warnings} warnings)"),
    "report.unchanged": ("не изменилась", "unchanged"),
    "report.not_written": ("не записана", "not written"),
    "report.wrote": ("записаны файлы: {files}", "wrote {files}"),
    "report.site_files": ("файлов сайта: {n}", "{n} site files"),
    "timing.read": ("чтение", "read"),
    "timing.compute": ("расчёт", "compute"),
    "timing.write": ("запись", "write"),
    "timing.files": ("файлы", "files"),
    "timing.ms": ("мс", "ms"),
    "report.locked": ("{name} открыта в Excel или LibreOffice ({lock}): сайт, standings.json и пост ВК записаны, а "
                      "вкладки таблицы будут записаны, когда файл закроют — закройте его и запустите sync ещё раз "
                      "(watch запишет сам), или запишите итоги в отдельную книгу: sheets-sync sync {ref} --output "
                      "{output}",
                      "{name} is open in Excel or LibreOffice ({lock}): the site, standings.json and the VK post are "
                      "written; the workbook's tabs will be written when the file is closed — close it and run sync "
                      "again (watch does it by itself), or write the results to a separate workbook: sheets-sync sync "
                      "{ref} --output {output}"),
    # draw, advance, replace
    "draw.written": ("рассадка записана: игр {games}", "seating written: {games} games"),
    # issue 45: the draw made on check-in
    "draw.absent": ("не отмечены в «Прибыл» и не посажены: {names}", "not ticked as arrived, not seated: {names}"),
    "draw.replaced": ("их места заняли из листа ожидания (их «Заявка» теперь «подтверждена»): {pairs}",
                      "their seats went to the waiting list (their application is now confirmed): {pairs}"),
    "draw.removed": ("удалены пустые вкладки протоколов, которых нет в новой рассадке: {tabs}",
                     "removed blank protocol tabs the new seating no longer has: {tabs}"),
    "draw.kept": ("оставлены вкладки, которых нет в новой рассадке, но в них уже что-то вписано: {tabs} — удалите их "
                  "вручную, если они не нужны",
                  "kept tabs the new seating no longer has, because something is typed in them: {tabs} — delete them "
                  "by hand if they are obsolete"),
    "draw.typed": ("протоколы уже заполняются ({tabs}); новая жеребьёвка пересадит игроков из их игр — добавьте "
                   "--force, только если так и нужно",
                   "protocols already typed ({tabs}); a new draw would move players away from their games — use "
                   "--force only if you mean it"),
    "draw.seated_already": ("{stage} уже рассажен: жеребьёвка по времени рассадку не переделывает — "
                            "проведите её заново кнопкой «Жеребьёвка», если так и нужно",
                            "{stage} is seated already: a timed draw does not redo a seating — draw again "
                            "with the button if you mean it"),
    "advance.seated": ("{stage}: игроков {players}, рассажено игр {games}: {names}",
                       "{stage}: {players} players, {games} games seated: {names}"),
    "advance.not_seated": ("{stage}: не рассажен — {reason}", "{stage}: not seated — {reason}"),
    "advance.auto_seated": ("{stage}: рассажено игроков: {players}", "{stage}: seated {players} players"),
    "replace.done": ("{stage}: {old} → {new}, игр: {games}", "{stage}: {old} → {new} in {games} games"),
    # league
    "league.done": ("лига: турниров и сезонов {events} (прочитано заново: {read}), игр {games}, игроков {players}",
                    "league: {events} events ({read} read again), {games} games, {players} players"),
    "league.site": ("сайт лиги: {path}; league.json: {json}", "league site: {path}; league.json: {json}"),
    "league.tabs": ("вкладки {tabs} в {workbook}", "tabs {tabs} in {workbook}"),
    "league.created": ("создан {file}: впишите настройки и турниры, затем `sheets-sync league {file}`",
                       "created {file}: type the settings and the events, then `sheets-sync league {file}`"),
    # export, print-protocols
    "export.site": ("сайт: {path} (изменено файлов: {n})", "site: {path} ({n} files changed)"),
    "export.post": ("пост: {path}", "post: {path}"),
    "export.picture": ("картинка: {path}", "picture: {path}"),
    "mwt.written": ("игры для MWT: {path} (файлов: {n}, удалено устаревших: {removed})",
                    "MWT games: {path} ({n} files, {removed} stale removed)"),
    "mwt.no_tournament_id": ("нет «ID турнира MWT» на вкладке «Турнир»: tournament_id = null во всех файлах",
                             "no 'MWT tournament ID' on the Tournament tab: tournament_id is null in every file"),
    "mwt.no_judge_id": ("у судьи «{name}» нет «ID MWT» на вкладке «Игроки» (статус «судья»): referee_user_id = null в играх ({n}): {sheets}",
                        "judge '{name}' has no 'MWT ID' on the Players tab (status 'judge'): referee_user_id is null in {n} games: {sheets}"),
    "mwt.no_player_id": ("у игрока «{name}» нет «ID MWT» на вкладке «Игроки»: null в играх ({n}): {sheets}",
                         "player '{name}' has no 'MWT ID' on the Players tab: null in {n} games: {sheets}"),
    "blanks.written": ("бланки: {path} ({stage}, тур {round})", "blanks: {path} ({stage}, round {round})"),
    "blanks.no_chromium": ("Chromium не найден: откройте HTML в браузере и напечатайте (A4) — или установите chromium",
                           "no Chromium found: open the HTML in a browser and print it (A4) — or install `chromium`"),
    "blanks.pdf": ("pdf: {path}", "pdf: {path}"),
    "seating.written": ("рассадка: {path} ({title}; страница со всеми столами и по странице на каждый из {tables} столов)",
                        "seating: {path} ({title}; a page with every table and a page for each of the {tables} tables)"),
    "blanks.pdf_failed": ("Chromium не смог напечатать PDF; напечатайте HTML из браузера",
                          "Chromium could not print the PDF; print the HTML from a browser"),
    # watch
    "watch.start": ("слежу за {source} каждые {interval} с (Ctrl-C — остановить)",
                    "watching {source} every {interval} s (Ctrl-C stops)"),
    "watch.retry": ("повторю:", "will retry:"),
    "watch.ok": ("снова всё в порядке", "ok again"),
    "watch.changed": ("изменены: {tabs}", "changed: {tabs}"),
    "watch.moved": ("переместились: {moves}", "moved: {moves}"),
    "watch.counted": ("засчитано игр: {n}", "{n} games counted"),
    "watch.errors": ("ошибок: {n}", "{n} errors"),
    "watch.written": ("записано", "written"),
    "watch.saving": ("жду, пока {name} сохранится…", "waiting for {name} to be saved…"),
    "watch.locked": ("{name} открыта в Excel или LibreOffice ({lock}): сайт и файлы обновлены, вкладки таблицы запишу, "
                     "когда файл закроют",
                     "{name} is open in Excel or LibreOffice ({lock}): the site and files are updated; the workbook's "
                     "tabs will be written when the file is closed"),
    "serve.url": ("сайт для зала: {url}screen.html (весь сайт: {url})",
                  "the hall's screen: {url}screen.html (the whole site: {url})"),
    "serve.cannot_listen": ("не могу открыть {address} для сайта: {reason}. Укажите другой порт (--serve) или адрес (--bind)",
                            "cannot listen on {address} for the site: {reason}. Give another port (--serve) or address "
                            "(--bind)"),
    "serve.bad_request": ("сайт: неверный адрес {path} от {client} — ответ 400", "site: a malformed address {path} from {client} — answered 400"),
    "serve.full": ("сайт: открыто соединений столько, сколько можно; новые подождут, пока освободятся старые",
                   "site: as many connections are open as allowed; new ones wait until old ones close"),
    "serve.note": ("сайт: {note}", "site: {note}"),
    "serve.address_full": ("сайт: у адреса {client} уже {n} незаконченных запросов — новые соединения с него закрываются",
                           "site: {client} already has {n} requests in progress — its new connections are closed"),
    "serve.too_large": ("Запрос слишком велик: больше {size}. Файл поменьше пройдёт.",
                        "The request is too large: over {size}. A smaller file will do."),
    # server, worker, app (the web face)
    "server.url": ("сервер работает: {url} (данные: {data}); Ctrl+C — остановить",
                   "the server is running: {url} (data: {data}); Ctrl+C stops it"),
    "server.phone": ("с телефона в той же сети (Wi-Fi) откройте {url} — или наведите камеру на код:",
                     "from a phone on the same network (Wi-Fi) open {url}, or point its camera at the code:"),
    "server.no_worker": ("задачи здесь не выполняются: запустите `sheets-sync worker` с теми же данными",
                         "no jobs run here: start `sheets-sync worker` with the same data"),
    "server.stopped": ("сервер остановлен", "the server stopped"),
    "worker.started": ("обработчик задач запущен ({workers} потока); Ctrl+C — остановить",
                       "the worker is running ({workers} threads); Ctrl+C stops it"),
    "app.url": ("турниров в папке {folder}: {n}; страница: {url} — откройте в браузере, если не открылась сама; "
                "Ctrl+C — остановить",
                "{n} tournament(s) in {folder}; the page: {url} (open it in the browser if it did not open); "
                "Ctrl+C stops it"),
    # make demo
    "demo.about": ("make demo: синхронизирует пример турнира и говорит, где итоги", "make demo: syncs the example "
                   "tournament and says where the results are"),
    "demo.regenerate_help": ("сыграть пример заново и переписать таблицу в examples/",
                             "replay the example tournament and rewrite the bundled workbook"),
    "demo.out_help": ("папка для копии таблицы и её итогов", "folder for the synced copy and its outputs"),
    "demo.regenerated": ("пример сыгран заново: {path}", "regenerated {path}"),
    "demo.results": ("Итоги: {path} (вкладки Итоги, Отбор, Полуфинал, Финал, Проверка)",
                     "Results: {path} (tabs Итоги, Отбор, Полуфинал, Финал, Проверка)"),
    "demo.mid": ("В середине турнира (после 3-го тура из 7): {path}", "Mid-tournament (after round 3 of 7): {path}"),
    "watch.problems_tab": ("не удалось обновить вкладку Проверка:", "the Problems tab could not be updated:"),
    # where the outputs go, and when they cannot be written (issue 34 §3, §7)
    "outputs.moved": ("файлы результатов {workbook} (сайт, standings.json, пост ВК, log.jsonl; файлов: {files}) "
                      "перенесены в {folder}: у каждой таблицы теперь своя папка, и две таблицы в одной папке "
                      "не перезаписывают друг друга",
                      "the outputs of {workbook} (the site, standings.json, the VK post, log.jsonl; {files} files) "
                      "moved to {folder}: each workbook now has a folder of its own, so two workbooks in one folder "
                      "no longer write over each other"),
    "output.read_only": ("не могу записать {path}: {reason}. В папку {folder} нельзя писать — разрешите запись в неё "
                         "или укажите другую папку: --out ПАПКА; таблица не пострадала",
                         "cannot write {path}: {reason}. The folder {folder} is read-only: allow writing to it or give "
                         "another folder with --out FOLDER; the workbook is unharmed"),
    "output.disk_full": ("не могу записать {path}: на диске закончилось место. Освободите место на диске (или укажите "
                         "папку на другом диске: --out ПАПКА) и запустите синхронизацию снова; таблица не пострадала, "
                         "недописанные файлы удалены",
                         "cannot write {path}: the disk is full. Free some space (or give a folder on another disk: "
                         "--out FOLDER) and sync again; the workbook is unharmed and no half-written file was left"),
    "output.failed": ("не могу записать {path}: {reason}; таблица не пострадала",
                      "cannot write {path}: {reason}; the workbook is unharmed"),
    # Google's answers (backends/google/errors.py)
    "google.sheet": ("таблица {id}", "spreadsheet {id}"),
    "google.sheet_to": ("таблице {id}", "spreadsheet {id}"),
    "google.any_sheet": ("Google Таблица", "Google Sheets"),
    "google.any_sheet_to": ("Google Таблицам", "Google Sheets"),
    "google.service_account": ("сервисному аккаунту {email}", "the service account {email}"),
    "google.your_account": ("аккаунту Google, с которым вы вошли", "the Google account you signed in with"),
    "google.api_disabled": ("в этом проекте Google не включён Google Sheets API: {message}",
                            "Google Sheets API is not enabled for this project: {message}"),
    "google.no_access": ("нет доступа к {what}: откройте её в Google Таблицах, нажмите «Настройки доступа» и дайте "
                         "{who} доступ «Редактор» (ответ Google: {message})",
                         "no access to {what}: open it in Google Sheets, press Share and give {who} Editor access "
                         "(Google said: {message})"),
    "google.not_found": ("{what} не найдена{hint} — проверьте ссылку или идентификатор",
                         "{what} does not exist{hint} (check the URL or id)"),
    "google.not_shared": (" или не открыта для {email}", " or not shared with {email}"),
    "google.credentials_rejected": ("Google отклонил наши учётные данные: {message}",
                                    "Google rejected our credentials: {message}"),
    "google.busy": ("Google Таблицы заняты или сбоят (HTTP {status}: {message}); повторные попытки исчерпаны",
                    "Google Sheets is busy or failing (HTTP {status}: {message}); retries exhausted"),
    "google.rejected": ("Google Таблицы отклонили запрос (HTTP {status}): {message}",
                        "Google Sheets rejected the request (HTTP {status}): {message}"),
    "google.signin_failed": ("служба входа Google не ответила, попробуйте позже ({reason})",
                             "Google's sign-in service failed, try again later ({reason})"),
    "google.key_refused": ("Google отклонил наши учётные данные ({reason}); проверьте, что файл ключа действующий, а "
                           "сервисный аккаунт не удалён и не отключён",
                           "Google refused our credentials ({reason}); check that the key file is current and the "
                           "service account is not deleted or disabled"),
    "google.unreachable": ("нет связи с Google Таблицами ({reason}); повторю позже",
                           "cannot reach Google Sheets ({reason}); will retry later"),
    "workbook.encrypted": ("{name} защищён паролем на открытие: sheets-sync не может его прочитать. Откройте файл в "
                           "Excel, снимите пароль (Файл → Сведения → Защитить книгу → Зашифровать с использованием "
                           "пароля → пустой пароль), сохраните и запустите команду снова",
                           "{name} is protected with a password to open: sheets-sync cannot read it. Open it in Excel, "
                           "remove the password (File → Info → Protect Workbook → Encrypt with Password → empty), "
                           "save it and run the command again"),
    "workbook.read_only": ("не могу сохранить {name}: {reason}. В папку {folder} нельзя писать — разрешите запись в неё "
                           "или запишите вкладки результатов в отдельный файл: --output ПАПКА/результаты.xlsx; таблица "
                           "не изменена",
                           "cannot save {name}: {reason}. The folder {folder} is read-only: allow writing to it, or "
                           "write the results tabs to a separate file with --output FOLDER/results.xlsx; the workbook "
                           "is unchanged"),
    "workbook.old_xls": ("{name} — файл старого формата Excel 97–2003 (.xls), хотя назван .xlsx: откройте его в Excel "
                         "или LibreOffice и сохраните как «Книга Excel (.xlsx)»",
                         "{name} is an old Excel 97–2003 file (.xls) named .xlsx: open it in Excel or LibreOffice and "
                         "save it as an Excel workbook (.xlsx)"),
    "report.strict": ("ошибок осталось: {errors} — исправьте отмеченные ячейки (вкладка Проверка); код выхода 1 (--strict)",
                      "{errors} errors left — fix the marked cells (the Problems tab); exit code 1 (--strict)"),
}


@dataclass(frozen=True)
class Inner:
    """A message filled into another one (``what=Inner("google.sheet", id=…)``), said in the same language."""

    key: str
    values: Mapping[str, object]

    def __init__(self, key: str, /, **values: object) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "values", values)


def filled(values: Mapping[str, object], language: str) -> dict[str, object]:
    """``values`` with every :class:`Inner` message said in ``language``."""
    return {k: text(v.key, language, **v.values) if isinstance(v, Inner) else v for k, v in values.items()}


def text(key: str, language: str, /, **values: object) -> str:
    """The message ``key`` in ``language`` ("ru", else English) with ``values`` filled in."""
    ru, en = MESSAGES[key]
    return (ru if language == "ru" else en).format(**filled(values, language))


E = TypeVar("E", bound=SheetsSyncError)


def fail(cls: type[E], key: str, /, *, language: str | None = None, **values: object) -> E:
    """An error of class ``cls`` saying message ``key`` in both languages (raise it); the key and
    the values stay on it, so the web pages can say the same in their own words (no flags)."""
    error = cls(text(key, "en", **values), ru=text(key, "ru", **values), language=language)
    error.key, error.values = key, dict(values)
    return error


def shell_word(arg: object) -> str:
    """``arg`` as sh, cmd and PowerShell all read it back as one word (for a command to copy)."""
    value = str(arg)
    return value if re.fullmatch(r"[\w@%+=:,./\\-]+", value) else '"' + value.replace('"', '\\"') + '"'


def _names_russian(value: str) -> bool:
    return value.strip().lower().startswith(("ru", "russian"))


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The language of the computer's user: "ru" when his locale is Russian, else "en"."""
    environ = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(var, "")
        if value:
            return "ru" if _names_russian(value) else "en"
    if os.name == "nt":  # Windows sets no LANG: ask for the user's locale ("Russian_Russia", "ru_RU")
        import locale

        try:
            name = locale.getlocale()[0] or ""
        except ValueError:
            name = ""
        return "ru" if _names_russian(name) else "en"
    return "en"
