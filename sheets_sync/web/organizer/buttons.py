"""The tournament page's buttons: which exist, what each asks (a Django form that checks it), and
which the tournament's kind shows (a club season adds evenings; a tournament draws and advances)."""

from __future__ import annotations

from dataclasses import dataclass

from django import forms

from sheets_sync.web import runners
from sheets_sync.web.jobs import SYNC
from sheets_sync.web.models import Tournament

__all__ = ["Button", "BUTTONS", "Known", "buttons_for", "form_for"]


@dataclass(frozen=True)
class Known:
    """What the last sync saw that the forms offer as choices (``Tournament.last_sync``: no read of
    the sheet): the preset's stages by their names in the page's language, and the players seated
    in the latest seated stage after the first — the late player is one of them. ``late_players``
    is None while no sync has said (a summary older than the choices): then a name is typed."""

    stages: tuple[tuple[str, str], ...] = ()
    later: tuple[tuple[str, str], ...] = ()
    late_stage: tuple[str, str] | None = None
    late_players: tuple[str, ...] | None = None

    @classmethod
    def of(cls, tournament: Tournament, lang: str) -> "Known":
        summary = tournament.last_sync or {}
        stages = tuple((key, en if lang == "en" else ru) for key, ru, en in summary.get("stages") or ())
        seated = summary.get("seated")
        if not isinstance(seated, dict):
            return cls(stages=stages, later=stages[1:])
        last = next(((key, name) for key, name in reversed(stages[1:]) if seated.get(key)), None)
        return cls(stages=stages, later=stages[1:], late_stage=last,
                   late_players=tuple(seated[last[0]]) if last else ())


class _Form(forms.Form):
    """A button's form; ``known`` gives its choices."""

    def __init__(self, data=None, *, known: Known | None = None) -> None:
        super().__init__(data)
        self.offer(known or Known())

    def offer(self, known: Known) -> None:
        """Set the choices a field offers (a stage, a player) from what the last sync saw."""


class _NoFields(_Form):
    """A button that asks nothing (sync now, the VK post, the MWT export)."""


def _stage_field() -> forms.ChoiceField:
    return forms.ChoiceField(required=False, choices=())


class DrawForm(_Form):
    seed = forms.IntegerField(min_value=0, required=False, initial=1)
    time_limit = forms.FloatField(min_value=1, max_value=600, required=False)
    force = forms.BooleanField(required=False)


class AdvanceForm(_Form):
    stage = _stage_field()
    seed = forms.IntegerField(min_value=0, required=False, initial=1)
    force = forms.BooleanField(required=False)

    def offer(self, known: Known) -> None:  # blank: the next stage
        self.fields["stage"].choices = [("", ""), *known.later]


class ReplaceForm(_Form):
    player = forms.CharField(max_length=200)
    stage = _stage_field()

    def offer(self, known: Known) -> None:
        self.known = known
        self.fields["stage"].choices = [("", ""), *known.later]

    def clean(self) -> dict:
        data = super().clean()
        seated = self.known.late_players
        if seated is not None and data.get("player") is not None:  # one of the seated list, in its stage
            if data["player"] not in seated:
                self.add_error("player", "not seated")
            elif not data.get("stage") and self.known.late_stage:
                data["stage"] = self.known.late_stage[0]
        return data


class EveningForm(_Form):
    date = forms.DateField(required=False)
    games = forms.IntegerField(min_value=1, max_value=60, initial=4)
    tables = forms.IntegerField(min_value=1, max_value=20, required=False)


class RoundForm(_Form):
    round = forms.IntegerField(min_value=1, max_value=99, initial=1)
    stage = _stage_field()

    def offer(self, known: Known) -> None:  # blank: the stage seated last for the round
        self.fields["stage"].choices = [("", ""), *known.stages]


class SeatingForm(RoundForm):
    judge_qr = forms.BooleanField(required=False)  # each table's poster carries its judge's QR (opt-in)


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
    Button(runners.SEATING, SeatingForm, (Tournament.TOURNAMENT,)),
)}


def buttons_for(tournament: Tournament) -> list[Button]:
    return [b for b in BUTTONS.values() if tournament.kind in b.kinds]


def form_for(button: Button, data, tournament: Tournament, lang: str) -> forms.Form:
    """The button's form over ``data``, its choices the tournament's (its last sync's)."""
    return button.form(data, known=Known.of(tournament, lang))


def params_of(form: forms.Form) -> dict:
    """The form's cleaned values as the runner's JSON parameters (a date as YYYY-MM-DD; blanks left out)."""
    params = {}
    for key, value in form.cleaned_data.items():
        if value in (None, "") or value is False:
            continue
        params[key] = value.isoformat() if hasattr(value, "isoformat") else value
    return params
