"""A form's refusals of what was typed, key -> (ru, en) (joined in :mod:`sheets_sync.web.words`).

Django's own field messages are English only (``USE_I18N`` is off: the pages take their words
from these dictionaries); :func:`sheets_sync.web.forms_said.speak` puts these in their place, for
each field of a form. ``%(limit_value)s`` and ``%(show_value)s`` are filled in by Django."""

WORDS: dict[str, tuple[str, str]] = {
    "form.required": ("Заполните это поле.", "Fill in this field."),
    "form.max_length": ("Не длиннее %(limit_value)s знаков (сейчас %(show_value)s).",
                        "At most %(limit_value)s characters (this has %(show_value)s)."),
    "form.min_length": ("Не короче %(limit_value)s знаков (сейчас %(show_value)s).",
                        "At least %(limit_value)s characters (this has %(show_value)s)."),
    "form.min_value": ("Не меньше %(limit_value)s.", "At least %(limit_value)s."),
    "form.max_value": ("Не больше %(limit_value)s.", "At most %(limit_value)s."),
    "form.step_size": ("Нужно число с шагом %(limit_value)s.", "A number in steps of %(limit_value)s is needed."),
    "form.invalid_choice": ("Выберите один из вариантов списка.", "Choose one of the list's options."),
    "form.invalid": ("Это значение не подходит.", "This value does not fit."),
    "form.invalid.email": ("Нужен адрес электронной почты, например anna@club.ru.",
                           "An e-mail address is needed, e.g. anna@club.ru."),
    "form.invalid.integer": ("Нужно целое число.", "A whole number is needed."),
    "form.invalid.number": ("Нужно число.", "A number is needed."),
    "form.invalid.date": ("Нужна дата, например 2026-12-05.", "A date is needed, e.g. 2026-12-05."),
    "form.invalid.file": ("Это не файл: выберите файл ещё раз.", "That is no file: choose the file again."),
    "form.empty": ("Файл пустой.", "The file is empty."),
    "form.missing": ("Файл не дошёл: выберите его ещё раз.", "The file did not arrive: choose it again."),
    "form.contradiction": ("Либо выберите файл, либо снимите отметку «очистить».",
                           "Either choose a file or untick «clear»."),
}
