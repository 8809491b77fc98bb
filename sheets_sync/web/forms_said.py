"""Every form's refusals in the page's language: Django's field messages replaced by ours.

Django writes "This field is required." and "Ensure this value has at most 150 characters" in
English (the server runs without Django's translations: the pages have their own dictionaries).
:func:`speak` gives every field of a form the words of :mod:`sheets_sync.web.wording.forms` for
each error code a field or its validators raise, in ``lang``."""

from __future__ import annotations

from django import forms

from sheets_sync.web.words import word

__all__ = ["speak", "CODES"]

CODES = ("required", "max_length", "min_length", "min_value", "max_value", "step_size", "invalid_choice", "empty",
         "missing", "contradiction")
_INVALID = ((forms.EmailField, "form.invalid.email"), (forms.IntegerField, "form.invalid.integer"),
            (forms.FloatField, "form.invalid.number"), (forms.DecimalField, "form.invalid.number"),
            (forms.DateField, "form.invalid.date"), (forms.FileField, "form.invalid.file"))


def speak(form: forms.BaseForm, lang: str) -> forms.BaseForm:
    """``form`` with each field's error messages in ``lang`` (the validators' ones too: Django
    takes a field's message for a validator's code)."""
    for field in form.fields.values():
        invalid = next((key for kind, key in _INVALID if isinstance(field, kind)), "form.invalid")
        field.error_messages = {**field.error_messages, **{code: word(f"form.{code}", lang) for code in CODES},
                                "invalid": word(invalid, lang)}
    return form
