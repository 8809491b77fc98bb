"""Tolerant readers of single cell values: numbers, whole numbers, text.

A judge types `0,5`, `0.5`, `½`, ` 1 `; a spreadsheet may hand back a float, an int,
a date it guessed, or a formula.  Each reader returns ``(value, problem_rule, shown)``:
a value, or the rule id of a clear problem and the text to quote in its message.
Nothing is ever read as a silent zero.

Two things a spreadsheet does to what a judge typed are recognised here: a date it guessed
(Excel hands back a ``datetime``; Google, read with ``SERIAL_NUMBER`` dates, a day number —
:func:`guessed_date`), and a lone dash a judge writes for "nothing" (:func:`is_dash`).
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from decimal import Decimal, InvalidOperation

__all__ = ["MAX_TEXT", "is_blank", "is_dash", "text", "read_decimal", "read_int", "shown", "serial_date", "guessed_date", "read_datetime",
           "DATE_SERIALS"]

MAX_TEXT = 1000  # longer cell text is refused: nobody's nickname or comment is that long

_FRACTIONS = {"½": "0.5", "¼": "0.25", "¾": "0.75", "⅓": None, "⅔": None}
_MINUS = ("\u2212", "\u2013", "\u2014")  # minus sign, en dash, em dash typed for "-"
# control characters a cell cannot hold in .xlsx (openpyxl refuses them): shown as "\ufffd"
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def is_blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def is_dash(value: object) -> bool:
    """A lone dash (``-``, ``–``, ``—``, ``−``): what judges write on paper for "nothing"."""
    return isinstance(value, str) and value.strip() in ("-", *_MINUS)


_EPOCH = date(1899, 12, 30)  # day 0 of spreadsheet serial dates (Excel and Google Sheets)
# Day numbers a date typed into a protocol becomes: 2000-01-01 (a two-digit year such as "8.9.10")
# to 2099-12-31.  No whole number a protocol cell legitimately holds is that large (a run of
# three seats is at most four digits), and a date typed without a year lands in the current year.
DATE_SERIALS = range(36526, 73051)


def serial_date(number: int) -> date:
    """The date of a spreadsheet day number (1 = 31 Dec 1899 in Google Sheets, 1 Jan 1900 in
    Excel; they agree from 1 Mar 1900 on)."""
    return _EPOCH + timedelta(days=number)


def guessed_date(value: object) -> date | None:
    """The date a spreadsheet made of what was typed into a cell meant for a small number or
    seats: a date or datetime value (Excel), or a whole number in :data:`DATE_SERIALS` (Google
    Sheets read with ``dateTimeRenderOption=SERIAL_NUMBER``).  None for anything else."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    return serial_date(int(value)) if int(value) in DATE_SERIALS else None


_DATETIME_FORMATS = ("%d.%m.%Y %H:%M", "%d.%m.%Y %H:%M:%S", "%d.%m.%y %H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S",
                     "%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%d.%m.%Y", "%d.%m.%y", "%Y-%m-%d", "%d/%m/%Y %H:%M", "%d/%m/%Y")


def read_datetime(value: object) -> datetime | None:
    """A moment typed into a cell (the registration's deadline, the start, the draw): a date or
    datetime value (Excel), a spreadsheet serial number with its fraction of a day (Google), or
    text as people type it («20.12.2026 18:00», «2026-12-20 18:00»; a bare date is its midnight).
    None when it is none of these."""
    if isinstance(value, datetime):
        return value.replace(tzinfo=None, microsecond=0)
    if isinstance(value, date):
        return datetime.combine(value, time(0))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if int(value) not in DATE_SERIALS:
            return None
        whole = int(value)
        seconds = round((float(value) - whole) * 86400)
        return datetime.combine(serial_date(whole), time(0)) + timedelta(seconds=seconds)
    typed = " ".join(text(value).split())
    for fmt in _DATETIME_FORMATS:
        try:
            return datetime.strptime(typed, fmt)
        except ValueError:
            continue
    return None


def shown(value: object, limit: int = 40) -> str:
    """The value as a person would recognise it in a message (shortened)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, datetime):
        text_ = value.strftime("%d.%m.%Y %H:%M") if value.time() != time(0) else value.strftime("%d.%m.%Y")
    elif isinstance(value, date):
        text_ = value.strftime("%d.%m.%Y")
    else:
        text_ = str(value)
    text_ = _CONTROL.sub("\ufffd", " ".join(text_.split()))
    return text_ if len(text_) <= limit else text_[: limit - 1] + "…"


def text(value: object) -> str:
    """Cell text: trimmed, inner whitespace collapsed; numbers without a trailing `.0`."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, (datetime, date)):
        return shown(value)
    if type(value) is str and value.isprintable() and "  " not in value and value[:1] != " " != value[-1:]:
        return value  # already what the rest makes of it: no control character, tab, newline or NBSP (not printable), no run of spaces
    return _CONTROL.sub("\ufffd", " ".join(str(value).replace("\u00a0", " ").split()))


def read_decimal(value: object) -> tuple[Decimal | None, str | None]:
    """Return (number, None) or (None, rule).  Blank gives (None, None)."""
    if is_blank(value):
        return None, None
    if isinstance(value, bool):
        return None, "read.number"
    if isinstance(value, (datetime, date)):
        return None, "read.date_guessed"
    if isinstance(value, int):
        return Decimal(value), None
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return None, "read.number"
        # repr gives the shortest text that round-trips: 0.35 stays 0.35, not 0.34999…
        return Decimal(repr(value)), None
    if isinstance(value, Decimal):
        return (value, None) if value.is_finite() else (None, "read.number")
    raw = str(value).strip().replace("\u00a0", "").replace(" ", "")
    if raw.startswith("="):
        return None, "read.formula"
    for dash in _MINUS:
        raw = raw.replace(dash, "-")
    if raw in _FRACTIONS or (raw[:1] in "+-" and raw[1:] in _FRACTIONS):
        sign, body = (raw[0], raw[1:]) if raw[:1] in "+-" else ("", raw)
        if _FRACTIONS[body] is None:
            return None, "read.number"
        raw = sign + _FRACTIONS[body]
    elif raw[-1:] in _FRACTIONS and raw[:-1].lstrip("+-").isdigit():  # "1½"
        if _FRACTIONS[raw[-1]] is None:
            return None, "read.number"
        whole = Decimal(raw[:-1])
        frac = Decimal(_FRACTIONS[raw[-1]])
        return (whole - frac if whole < 0 or raw.startswith("-") else whole + frac), None
    if raw.count(",") == 1 and "." not in raw:
        raw = raw.replace(",", ".")
    if not raw or any(c not in "0123456789.+-" for c in raw):
        return None, "read.number"
    try:
        number = Decimal(raw)
    except InvalidOperation:
        return None, "read.number"
    if not number.is_finite():
        return None, "read.number"
    return number, None


def read_int(value: object) -> tuple[int | None, str | None]:
    """Return (whole number, None) or (None, rule).  Blank gives (None, None)."""
    number, rule = read_decimal(value)
    if rule is not None:
        return None, rule
    if number is None:
        return None, None
    if number != number.to_integral_value():
        return None, "read.integer"
    if abs(number) > 10**9:
        return None, "read.integer"
    return int(number), None
