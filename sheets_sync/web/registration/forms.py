"""The registration form: what a player types on /apply/<slug>/, checked before anything is stored.

Each field is no longer than its column (:class:`sheets_sync.web.models.Application`): a 5,000-letter
nickname is refused with a message, never cut. A formula (``=…``) or HTML is kept as text: the
writers never make a formula of a string (a Google write of a string value is not parsed, an .xlsx
cell is written as text) and the pages escape what they show. Line breaks and control characters are
refused (a cell of one line), and a nickname needs a letter or a digit."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from django import forms

from sheets_sync.web.forms_said import speak
from sheets_sync.web.models import Application
from sheets_sync.web.words import word

__all__ = ["ApplyForm", "CheckinForm", "one_line"]

_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]")
_TELEGRAM = re.compile(r"@?[A-Za-z][A-Za-z0-9_]{4,31}")
_PHONE = re.compile(r"\+?[0-9 ()\-]{5,40}")


def _length(name: str) -> int:
    return Application._meta.get_field(name).max_length


def one_line(value: str, lang: str) -> str:
    """``value`` trimmed, single spaces; refused with a line break or a control character."""
    if _CONTROL.search(value or ""):
        raise forms.ValidationError(word("reg.bad_text", lang))
    return " ".join((value or "").split())


class ApplyForm(forms.Form):
    nickname = forms.CharField(max_length=_length("nickname"))
    club = forms.CharField(max_length=_length("club"), required=False)
    city = forms.CharField(max_length=_length("city"), required=False)
    telegram = forms.CharField(max_length=_length("telegram"), required=False)
    vk = forms.CharField(max_length=_length("vk"), required=False)
    email = forms.EmailField(max_length=_length("email"), required=False)
    phone = forms.CharField(max_length=_length("phone"), required=False)
    mwt_id = forms.IntegerField(min_value=1, max_value=2_000_000_000, required=False)
    rating = forms.CharField(max_length=_length("rating"), required=False)

    def __init__(self, *args, lang: str = "ru", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lang = lang
        for name, field in self.fields.items():
            field.label = word(f"reg.{name}", lang)
        speak(self, lang)

    def _line(self, name: str) -> str:
        return one_line(self.cleaned_data.get(name, ""), self.lang)

    def clean_nickname(self) -> str:
        nickname = self._line("nickname")
        if not any(ch.isalnum() for ch in nickname):
            raise forms.ValidationError(word("reg.bad_nickname", self.lang))
        return nickname

    def clean_club(self) -> str:
        return self._line("club")

    def clean_city(self) -> str:
        return self._line("city")

    def clean_vk(self) -> str:
        return self._line("vk")

    def clean_telegram(self) -> str:
        value = self._line("telegram").removeprefix("https://t.me/").removeprefix("t.me/")
        if value and not _TELEGRAM.fullmatch(value):
            raise forms.ValidationError(word("reg.bad_telegram", self.lang))
        return ("@" + value.lstrip("@")) if value else ""

    def clean_phone(self) -> str:
        value = self._line("phone")
        if value and not _PHONE.fullmatch(value):
            raise forms.ValidationError(word("reg.bad_phone", self.lang))
        return value

    def clean_rating(self) -> str:
        value = self._line("rating")
        if value:
            try:
                Decimal(value.replace(",", "."))
            except InvalidOperation:
                raise forms.ValidationError(word("reg.bad_rating", self.lang)) from None
        return value

    def clean(self) -> dict:
        data = super().clean()
        if not self.errors and not any(data.get(k) for k in ("telegram", "vk", "email", "phone")):
            raise forms.ValidationError(word("reg.no_contact", self.lang))
        return data


class CheckinForm(forms.Form):
    nickname = forms.CharField(max_length=_length("nickname"))
    code = forms.CharField(max_length=12)

    def __init__(self, *args, lang: str = "ru", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["nickname"].label = word("reg.nickname", lang)
        self.fields["code"].label = word("checkin.code", lang)
        speak(self, lang)
