"""`--help` in Russian: the Russian texts of every command and option, and the click classes that print them.

The English help is what the decorators say (``help=``, the docstrings), printed by click as
usual.  In Russian — ``--language ru`` typed with ``--help``, else a Russian system (``LANG``,
``LC_ALL``… or a Russian Windows: :func:`sheets_sync.messages.system_language`) — the same
layout is printed from :data:`COMMANDS` and :data:`OPTIONS`, with click's own words (Usage,
Options, Commands, default, required) and the metavars (WORKBOOK, INTEGER, PATH) in Russian too.
Help is printed before any workbook is read, so the tournament's language cannot decide.

click's own usage errors («Missing argument 'WORKBOOK'», «No such option», «Invalid value»…)
speak the same language: the root group hands every :class:`click.ClickException` to
:func:`localized_error`, whose :meth:`LocalizedError.show` prints the usage line, the hint and
the message in Russian (:data:`_ERRORS`), the exit code kept (2 for a usage error).

A new option's Russian text goes into :data:`OPTIONS` (``"command --option"``, or ``"--option"``
for an option every command shares); ``tests/test_help.py`` walks every command and fails on
one left in English.
"""

from __future__ import annotations

import re

import click

from sheets_sync.messages import LANGUAGES, system_language

__all__ = ["Command", "Group", "COMMANDS", "OPTIONS", "help_language", "russian_option_help", "LocalizedError",
           "localized_error", "russian_error"]

# the command's path after «sheets-sync» ("" is the root group) -> its description in Russian
COMMANDS: dict[str, str] = {
    "": "Подсчёт итогов турнира по спортивной мафии (правила ФИИМ) прямо в вашей таблице.",
    "init": (
        "Создать таблицу турнира ТАБЛИЦА: вкладки Турнир, Игроки, Рассадка, Штрафы и по вкладке протокола на каждую "
        "игру отбора.\n\n"
        "ТАБЛИЦА — путь к новому файлу .xlsx, gsheet:new (новая Google-таблица) или gsheet:ИДЕНТИФИКАТОР / адрес пустой "
        "Google-таблицы, к которой открыт доступ сервисному аккаунту. Если игроки, --games и --tables не сходятся "
        "(каждый должен сыграть одинаковое число игр), init перечисляет ближайшие форматы, которые получаются, — "
        "каждый готовой командой."),
    "sync": (
        "Прочитать все протоколы, проверить, посчитать баллы и места; записать вкладки итогов и standings.json.\n\n"
        "Таблицу, открытую в Excel или LibreOffice, всё равно читаем и записываем сайт, standings.json и пост ВК; её "
        "вкладки будут записаны, когда файл закроют (запустите sync ещё раз или watch) — код выхода 75.\n\n"
        "Коды выхода: 0 — готово (ошибки могут остаться: с --strict это 1), 2 — ошибка, которую надо исправить, "
        "75 — таблица открыта в Excel, 70 — ошибка программы."),
    "watch": (
        "Держать итоги свежими, пока идут игры (Ctrl-C — остановить).\n\n"
        "Пока таблица открыта в Excel или LibreOffice, сайт и файлы всё равно обновляются, а запись её вкладок "
        "повторяется, пока файл не закроют. Если таблицы нет при запуске, слежение заканчивается. С --serve сайт "
        "открыт в локальной сети (экран зала: /screen.html)."),
    "draw": (
        "Жеребьёвка отбора: соперники поровну, места, игроки одного клуба врозь; заполнить Рассадку и вкладки "
        "протоколов.\n\n"
        "Формат — регламента с поправками вкладки Турнир (отбор.игр / отбор.туров — туры, отбор.столов — столы); "
        "вкладки протоколов, которых нет в новой рассадке, удаляются, если пустые, и остаются, если в них что-то "
        "вписано."),
    "advance": "Рассадить следующий этап (полуфинал, финал) по итогам и добавить его вкладки протоколов.",
    "replace": "Заменить ИГРОКА (например, опоздавшего на полуфинал) следующим по итогам.",
    "evening": "Добавить вкладку вечера клубного сезона: столько пустых протоколов, сколько --games, друг под другом, с "
               "датой в названии.",
    "export": "Выгрузить итоги: сайт (HTML), пост ВК или игры для рейтинга MWT / ФИИМ.",
    "export site": "Сайт из HTML-страниц: итоги, этапы, игроки, игры, статистика (печатается на A4).",
    "export vk": (
        "Пост ВК: текст, готовый к вставке (vk-post.txt), и картинка итогов (vk-post.png); с --seating N — "
        "вместо итогов рассадка тура."),
    "export mwt": "По файлу JSON на каждую засчитанную игру в формате MWT, который читает рейтинг ФИИМ "
                  "(docs/export-mwt.md).",
    "print-protocols": "Бланки протоколов тура: по странице A4 на стол, игроки уже вписаны по вкладке Рассадка.",
    "print-seating": "Рассадка тура на A4: страница со всеми столами, затем по листу на каждый стол с его десятью "
                     "местами.",
    "league": "Лига: рейтинг по всем турнирам и сезонам из ФАЙЛА (league.toml или таблица с вкладкой «Лига») — "
              "league.json, сайт лиги и вкладка «Рейтинг» таблицы вывода.",
    "server": ("Веб-сервер для организаторов: все подключённые таблицы синхронизируются сами, у каждого турнира — "
               "страница с кнопками и публичный сайт.\n\n"
               "Обработчик задач работает в том же процессе, если не указан --no-worker (Ctrl+C останавливает всё)."),
    "worker": "Выполнять задачи веб-сервера (синхронизации, кнопки) — на других машинах, с DATABASE_URL и "
              "SHEETS_SYNC_REDIS_URL.",
    "app": ("Страницы организатора для таблиц .xlsx из ПАПКИ — только на этом компьютере, в браузере.\n\n"
            "Каждый .xlsx в ПАПКЕ — турнир; после сохранения файла итоги и страница для игроков обновляются сами."),
}

_LANGUAGE = "Язык сообщений (по умолчанию — язык турнира, иначе системы)."
_OUT_FILES = "Папка для standings.json, сайта и поста ВК"

# "command --option" (or "--option" for every command) -> the option's help in Russian
OPTIONS: dict[str, str] = {
    # shared
    "--help": "Показать эту справку и выйти.",
    "--version": "Показать версию и выйти.",
    "--language": _LANGUAGE,
    "league --out": "Папка для league.json, сайта лиги и кэша (по умолчанию — league/ рядом с ФАЙЛОМ).",
    "league --init": "Вместо расчёта создать пустой ФАЙЛ: таблицу с вкладкой «Лига» или league.toml.",
    "--credentials": "JSON-ключ сервисного аккаунта Google (по умолчанию — $GOOGLE_APPLICATION_CREDENTIALS).",
    "--backups": "Хранить столько прежних версий .xlsx в папке sheets-sync-backups/ рядом с ним (по умолчанию 5; "
                 "0 — не хранить).",
    "--output": "Записать вкладки итогов в этот отдельный .xlsx, а не в таблицу (чтобы не трогать таблицу судей "
                "или пока она открыта в Excel).",
    "--protect-password": "Для .xlsx: пароль защиты вкладок, которые пишет sync (по умолчанию — без пароля; судью "
                          "защита останавливает и так). Хранится как хеш Excel, не открытым текстом; вкладки, "
                          "защищённые раньше, сохраняют свой (по умолчанию — $SHEETS_SYNC_PROTECT_PASSWORD).",
    "--stage": "Ключ или название этапа (по умолчанию — последний этап, рассаженный на этот тур).",
    "--round": "Номер тура (игры).",
    "--pdf": "Ещё и напечатать PDF через Chromium без окна, если он установлен.",
    # init
    "init --players": "CSV со столбцами вкладки Игроки (Игрок, Клуб, Город, Статус, Пропуск); "
                      "с --registration необязателен.",
    "init --registration": "Игроки подают заявки: на вкладке Игроки столбцы «Заявка», «Подана», «Прибыл», на вкладке "
                           "Турнир — число мест, срок регистрации, начало, время жеребьёвки и часовой пояс; рассадки "
                           "нет до `sheets-sync draw`.",
    "init --places": "С --registration: число мест.",
    "init --preset": "Встроенный регламент (gmo-2016, fiim-2019, fiim-2023) или путь к файлу .toml (на вкладку "
                     "Турнир записывается путь от папки таблицы: держите файл рядом с таблицей).",
    "init --games": "Сколько игр отбора играет каждый (по умолчанию — туров по регламенту).",
    "init --rounds": "Туров отбора (столько же, сколько --games, когда никто не отдыхает).",
    "init --tables": "Столов в туре (по умолчанию — игроков/10; меньше — больше игроков отдыхает в каждом туре; на "
                     "один больше — пустые места займут запасные).",
    "init --name": "Название турнира.",
    "init --language": "Язык турнира: его вкладок, выгрузок и этих сообщений.",
    "init --date": "Дата (даты) турнира — на сайте и в посте ВК.",
    "init --seed": "Зерно жеребьёвки рассадки.",
    "init --force": "Заменить существующий файл таблицы (Google: заменить вкладки турнира в непустой таблице).",
    "init --share-with": "Google: создать новую таблицу (или ТАБЛИЦА gsheet:new) и дать ПОЧТЕ право редактировать; "
                         "можно несколько раз.",
    "init --organizer": "Google: ПОЧТА может править вкладки, которые пишет sync (кроме самой программы — больше "
                        "никто); записывается в «Организаторы» на вкладке Турнир и получает доступ, как с "
                        "--share-with; можно несколько раз.",
    "init --season": "Клубный сезон вместо турнира: вкладки Турнир («Формат: сезон»), Игроки, Штрафы; без "
                     "жеребьёвки и рассадки. Каждый вечер добавляет `sheets-sync evening`; строка, вписанная потом "
                     "на вкладку Игроки, — новый игрок.",
    # sync, watch
    "sync --out": _OUT_FILES + " (по умолчанию — своя папка таблицы: cup.sheets-sync/ рядом с cup.xlsx).",
    "sync --strict": "Код выхода 1, пока на вкладке «Проверка» остаются ошибки (для скриптов).",
    "sync --dry-run": "Посчитать и показать, ничего не записывать.",
    "watch --interval": "Секунд между проверками таблицы.",
    "watch --out": _OUT_FILES + ".",
    "watch --cycles": "Остановиться после стольких проверок (для тестов).",
    "watch --serve": "Ещё и открыть сайт (только для чтения) на этом порту, пока идёт слежение: ПОРТ/screen.html — "
                     "экран зала.",
    "watch --bind": "Адрес, на котором слушает --serve (0.0.0.0 — все сети этого компьютера, например для "
                    "телевизора в зале).",
    # draw, advance, replace, evening
    "draw --seed": "То же зерно — та же жеребьёвка.",
    "draw --time-limit": "Перестать улучшать рассадку через столько секунд.",
    "draw --force": "Провести жеребьёвку заново, хотя протоколы уже заполняются.",
    "draw --language": "Язык отчёта и сообщений (по умолчанию — язык турнира).",
    "advance --stage": "Ключ этапа, который рассадить (по умолчанию — следующий ещё не рассаженный).",
    "advance --seed": "Зерно жеребьёвки рассадки.",
    "advance --force": "Рассадить, хотя в прошлом этапе есть несыгранные или ошибочные игры.",
    "replace --stage": "Ключ этапа (по умолчанию — последний этап, в который игрок рассажен).",
    "evening --date": "Дата вечера.",
    "evening --games": "Сколько протоколов добавить.",
    "evening --tables": "Столов, играющих одновременно: протоколы идут по ним по очереди (игра 1 за столами 1, 2, "
                        "потом игра 2 …).",
    # export, print
    "export site --out": "Папка сайта (по умолчанию — site/ в своей папке таблицы, cup.sheets-sync/).",
    "export vk --out": "Папка для vk-post.txt и vk-post.png (по умолчанию — своя папка таблицы, cup.sheets-sync/).",
    "export vk --link": "Ссылка на полные итоги — её вставим в пост.",
    "export vk --seating": "Вместо итогов — рассадка тура (игры) N: файлы vk-seating-<этап>-N.txt и .png.",
    "export vk --stage": "С --seating: ключ или название этапа (по умолчанию — последний этап, рассаженный на N).",
    "export mwt --out": "Папка для файлов игр (по умолчанию — mwt/ в своей папке таблицы).",
    "print-protocols --out": "Папка для бланков (по умолчанию — protocols/ в своей папке таблицы).",
    "print-seating --out": "Папка для рассадки (по умолчанию — protocols/ в своей папке таблицы).",
    # server, worker, app
    "server --data": "Папка данных сервера: база, очередь, опубликованные сайты, секретный ключ.",
    "server --host": "Адрес, на котором слушать (0.0.0.0 — все сети этого компьютера).",
    "server --port": "Порт (0 — любой свободный).",
    "server --no-worker": "Только страницы; задачи выполняет `sheets-sync worker`.",
    "server --workers": "Сколько задач (синхронизаций, кнопок) выполнять одновременно в этом процессе.",
    "worker --data": "Папка данных (та же, что у сервера, или общая).",
    "worker --workers": "Сколько задач выполнять одновременно.",
    "app --port": "Порт (0 — любой свободный).",
    "app --no-browser": "Не открывать браузер.",
    "app --lan": "Слушать и сеть этого компьютера (вайфай зала): телефоны судей открывают свои ссылки. "
                 "Страницы организатора остаются только для этого компьютера.",
}

# click's own words, and the metavars it prints
_WORDS = {"usage": "Использование:", "options": "Параметры", "commands": "Команды", "default": "по умолчанию",
          "required": "обязательный", "envvar": "переменная окружения"}
_METAVARS = {"[OPTIONS]": "[ПАРАМЕТРЫ]", "COMMAND [ARGS]...": "КОМАНДА [АРГУМЕНТЫ]...", "WORKBOOK": "ТАБЛИЦА",
             "PLAYER": "ИГРОК", "INTEGER RANGE": "ЧИСЛО", "FLOAT RANGE": "ЧИСЛО", "INTEGER": "ЧИСЛО", "FLOAT": "ЧИСЛО",
             "TEXT": "ТЕКСТ", "FILE": "ФАЙЛ", "PATH": "ПУТЬ", "PORT": "ПОРТ", "EMAIL": "ПОЧТА", "PASSWORD": "ПАРОЛЬ",
             "YYYY-MM-DD": "ГГГГ-ММ-ДД", "FOLDER": "ПАПКА", "DIRECTORY": "ПАПКА"}
_METAVAR = re.compile("|".join(re.escape(k) for k in sorted(_METAVARS, key=len, reverse=True)))

# click's error messages (click 8.x, English) -> Russian, applied in turn: «Invalid value for '--x': …»
# has its prefix and then the type's own sentence translated
_PATHS = {"File": "такого файла", "Directory": "такой папки", "Path": "такого пути"}
_ERRORS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), r) for p, r in (
    (r"^Missing argument", "Не указан аргумент"),
    (r"^Missing (option|parameter)", "Не указан параметр"),
    (r"^Missing command\.", "Не указана команда."),
    (r"Choose from:", "Выберите из:"),
    (r"^No such option(:?) ", r"Нет такого параметра\1 "),
    (r"^No such command ", "Нет такой команды "),
    (r"\(Did you mean one of: (.*)\?\)", r"(может быть, одно из: \1?)"),
    (r"Did you mean (.*)\?", r"Может быть, \1?"),
    (r"^Got unexpected extra arguments \((.*)\)", r"Лишние аргументы: \1"),
    (r"^Got unexpected extra argument \((.*)\)", r"Лишний аргумент: \1"),
    (r"^Option ('[^']*') requires an argument\.", r"Параметру \1 нужно значение."),
    (r"^Option ('[^']*') requires (\d+) arguments\.", r"Параметру \1 нужно значений: \2."),
    (r"^Option ('[^']*') does not take a value\.", r"Параметр \1 не принимает значения."),
    (r"^Invalid value for (.+?): ", r"Неверное значение \1: "),
    (r"^Invalid value: ", "Неверное значение: "),
    (r"(\S+) is not a valid integer\.", r"\1 — не целое число."),
    (r"(\S+) is not a valid float\.", r"\1 — не число."),
    (r"(\S+) is not a valid boolean\. Recognized values: ", r"\1 — не да/нет; можно: "),
    (r"(\S+) is not in the range (.+)\.", r"\1 — вне диапазона \2."),
    (r"(\S+) is not one of (.+)\.", r"\1 — не одно из: \2."),
    (r"\b(File|Directory|Path) ('.*') does not exist\.", "_exists"),
    (r"\b(?:File|Directory|Path) ('.*') is a directory\.", r"\1 — папка, а нужен файл."),
    (r"\b(?:File|Directory|Path) ('.*') is a file\.", r"\1 — файл, а нужна папка."),
    (r"\b(?:File|Directory|Path) ('.*') is not readable\.", r"\1: нет доступа на чтение."),
    (r"\b(?:File|Directory|Path) ('.*') is not writable\.", r"\1: нет доступа на запись."),
    (r"^Could not open file ('.*'): ", r"Не удалось открыть файл \1: "),
    (r"('[^']*') is not ('[^']*')\.", r"\1 — не \2."),  # a choice of one
))
_QUOTED_METAVAR = re.compile(r"'([A-Z][A-Z-]*)'")

_META_KEY = "sheets_sync.help_language"


def _russian_words(text: str) -> str:
    return _METAVAR.sub(lambda m: _METAVARS[m.group(0)], text)


def _peek_language(args: list[str]) -> str | None:
    """The ``--language`` typed anywhere before ``--`` (help is printed before it is parsed)."""
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--language" and i + 1 < len(args) and args[i + 1] in LANGUAGES:
            return args[i + 1]
        if arg.startswith("--language=") and arg.split("=", 1)[1] in LANGUAGES:
            return arg.split("=", 1)[1]
    return None


def help_language(ctx: click.Context) -> str:
    """The language of ``ctx``'s help: ``--language`` when typed, else the system's."""
    return ctx.meta.get(_META_KEY) or system_language()


def _path(ctx: click.Context) -> str:
    """The command's path after the program's name: "", "sync", "export site"."""
    names = []
    while ctx.parent is not None:
        names.append(ctx.info_name or ctx.command.name or "")
        ctx = ctx.parent
    return " ".join(reversed(names))


def russian_option_help(path: str, param: click.Parameter, ctx: click.Context) -> str | None:
    """The Russian help of ``param`` of the command at ``path`` (None: none written yet)."""
    if isinstance(param, click.Argument):
        return None
    names = [*param.opts, *param.secondary_opts]
    if set(names) & set(ctx.help_option_names):
        return OPTIONS["--help"]
    longest = max(param.opts, key=len)
    return OPTIONS.get(f"{path} {longest}".strip()) or OPTIONS.get(longest)


def _extras(param: click.Option, ctx: click.Context) -> str:
    """click's «[default: x; required]», in Russian."""
    if not hasattr(param, "get_help_extra"):  # click before 8.2: its English brackets are left off
        return ""
    extra = param.get_help_extra(ctx)
    items = []
    if "envvars" in extra:
        items.append(f"{_WORDS['envvar']}: {', '.join(extra['envvars'])}")
    if "default" in extra:
        items.append(f"{_WORDS['default']}: {extra['default']}")
    if "range" in extra:
        items.append(extra["range"])
    if "required" in extra:
        items.append(_WORDS["required"])
    return f"  [{'; '.join(items)}]" if items else ""


def _short(text: str, limit: int) -> str:
    """The first sentence of ``text``, cut to ``limit`` characters (a group's list of commands)."""
    first = text.split("\n\n", 1)[0]
    first = re.split(r"(?<=[.!?])\s", first, maxsplit=1)[0]
    return first if len(first) <= limit else first[: max(1, limit - 1)].rstrip() + "…"


class _Localized:
    """Mixin for click's Command and Group: help in Russian when its language is Russian."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        typed = _peek_language(args)
        if typed:
            ctx.meta[_META_KEY] = typed
        return super().parse_args(ctx, args)  # type: ignore[misc]

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The usage line (of the help and of a usage error) in the help's language."""
        if help_language(ctx) != "ru":
            super().format_usage(ctx, formatter)  # type: ignore[misc]
            return
        pieces = self.collect_usage_pieces(ctx)  # type: ignore[attr-defined]
        formatter.write_usage(ctx.command_path, _russian_words(" ".join(pieces)), prefix=_WORDS["usage"] + " ")

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if help_language(ctx) != "ru":
            super().format_help(ctx, formatter)  # type: ignore[misc]
            return
        path = _path(ctx)
        self.format_usage(ctx, formatter)
        text = COMMANDS.get(path) or (self.help or "")  # type: ignore[attr-defined]
        if text:
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(text)
        rows = []
        for param in self.get_params(ctx):  # type: ignore[attr-defined]
            record = param.get_help_record(ctx)
            if record is None or isinstance(param, click.Argument):
                continue
            words = russian_option_help(path, param, ctx) or record[1]
            rows.append((_russian_words(record[0]), words + _extras(param, ctx)))
        if rows:
            with formatter.section(_WORDS["options"]):
                formatter.write_dl(rows)
        if isinstance(self, click.Group):
            self._russian_commands(ctx, formatter, path)

    def _russian_commands(self, ctx: click.Context, formatter: click.HelpFormatter, path: str) -> None:
        commands = [(name, cmd) for name in self.list_commands(ctx)  # type: ignore[attr-defined]
                    if (cmd := self.get_command(ctx, name)) is not None and not cmd.hidden]  # type: ignore[attr-defined]
        if not commands:
            return
        limit = formatter.width - 6 - max(len(name) for name, _ in commands)
        rows = []
        for name, cmd in commands:
            text = COMMANDS.get(f"{path} {name}".strip())
            rows.append((name, _short(text, limit) if text else cmd.get_short_help_str(limit)))
        with formatter.section(_WORDS["commands"]):
            formatter.write_dl(rows)


class Command(_Localized, click.Command):
    """A command whose ``--help`` speaks Russian in Russian."""


class Group(_Localized, click.Group):
    """A group whose ``--help`` (and list of commands) speaks Russian in Russian."""

    command_class = Command  # its ``@group.command()`` are localized too


def russian_error(message: str) -> str:
    """click's error ``message`` in Russian (a sentence it does not know stays as it is)."""
    for pattern, russian in _ERRORS:
        if russian == "_exists":
            message = pattern.sub(lambda m: f"Нет {_PATHS[m.group(1)]}: {m.group(2)}.", message)
        else:
            message = pattern.sub(russian, message)
    return _QUOTED_METAVAR.sub(lambda m: f"'{_METAVARS.get(m.group(1), m.group(1))}'", message)


class LocalizedError(click.ClickException):
    """A click error shown in ``language``: in Russian, the usage line, the hint and the message are;
    in English, click's own words.  The exit code is the original's (2 for a usage error)."""

    def __init__(self, original: click.ClickException, language: str) -> None:
        super().__init__(original.format_message())
        self.original, self.language = original, language
        self.exit_code = original.exit_code

    def show(self, file=None) -> None:
        if self.language != "ru":
            self.original.show(file)
            return
        ctx = getattr(self.original, "ctx", None)
        color = ctx.color if ctx is not None else None
        if ctx is not None:
            hint = ""
            if ctx.command.get_help_option(ctx) is not None:
                names = ctx.command.get_help_option_names(ctx)
                hint = f"Справка: {ctx.command_path} {max(names, key=len)}\n"
            click.echo(f"{ctx.get_usage()}\n{hint}", file=file, err=file is None, color=color)
        click.echo(f"Ошибка: {russian_error(self.original.format_message())}", file=file, err=file is None,
                   color=color)


def localized_error(exc: click.ClickException, ctx: click.Context | None) -> click.ClickException:
    """``exc`` to raise instead: shown in the help's language (``--language`` typed, else the system's).
    «No arguments: the help» is click's own help, already in that language: left as it is."""
    if isinstance(exc, (LocalizedError, click.exceptions.NoArgsIsHelpError)):
        return exc
    where = getattr(exc, "ctx", None) or ctx
    return LocalizedError(exc, help_language(where) if where is not None else system_language())
