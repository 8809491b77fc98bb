"""The tournament page's buttons: which exist, what each asks (a Django form that checks it), and
which the tournament's kind shows (a club season adds evenings; a tournament draws and advances)."""

from __future__ import annotations

from dataclasses import dataclass

from django import forms

from sheets_sync.web import runners
from sheets_sync.web.jobs import SYNC
from sheets_sync.web.models import Tournament

__all__ = ["Button", "BUTTONS", "buttons_for", "form_for"]


class _NoFields(forms.Form):
    """A button that asks nothing (sync now, the VK post, the MWT export)."""


class DrawForm(forms.Form):
    seed = forms.IntegerField(min_value=0, required=False, initial=1)
    time_limit = forms.FloatField(min_value=1, max_value=600, required=False)
    force = forms.BooleanField(required=False)


class AdvanceForm(forms.Form):
    stage = forms.CharField(max_length=80, required=False)
    seed = forms.IntegerField(min_value=0, required=False, initial=1)
    force = forms.BooleanField(required=False)


class ReplaceForm(forms.Form):
    player = forms.CharField(max_length=200)
    stage = forms.CharField(max_length=80, required=False)


class EveningForm(forms.Form):
    date = forms.DateField(required=False)
    games = forms.IntegerField(min_value=1, max_value=60, initial=4)
    tables = forms.IntegerField(min_value=1, max_value=20, required=False)


class RoundForm(forms.Form):
    round = forms.IntegerField(min_value=1, max_value=99, initial=1)
    stage = forms.CharField(max_length=80, required=False)


@dataclass(frozen=True)
class Button:
    action: str
    form: type[forms.Form]
    kinds: tuple[str, ...] = (Tournament.TOURNAMENT, Tournament.SEASON)
    writes: bool = False  # changes the workbook (asks to be sure on the page)


BUTTONS: dict[str, Button] = {b.action: b for b in (
    Button(SYNC, _NoFields),
    Button(runners.DRAW, DrawForm, (Tournament.TOURNAMENT,), writes=True),
    Button(runners.ADVANCE, AdvanceForm, (Tournament.TOURNAMENT,), writes=True),
    Button(runners.REPLACE, ReplaceForm, (Tournament.TOURNAMENT,), writes=True),
    Button(runners.EVENING, EveningForm, (Tournament.SEASON,), writes=True),
    Button(runners.VK, _NoFields),
    Button(runners.MWT, _NoFields, (Tournament.TOURNAMENT,)),
    Button(runners.PROTOCOLS, RoundForm, (Tournament.TOURNAMENT,)),
    Button(runners.SEATING, RoundForm, (Tournament.TOURNAMENT,)),
)}


def buttons_for(tournament: Tournament) -> list[Button]:
    return [b for b in BUTTONS.values() if tournament.kind in b.kinds]


def form_for(button: Button, data) -> forms.Form:
    return button.form(data)


def params_of(form: forms.Form) -> dict:
    """The form's cleaned values as the runner's JSON parameters (a date as YYYY-MM-DD; blanks left out)."""
    params = {}
    for key, value in form.cleaned_data.items():
        if value in (None, "") or value is False:
            continue
        params[key] = value.isoformat() if hasattr(value, "isoformat") else value
    return params
