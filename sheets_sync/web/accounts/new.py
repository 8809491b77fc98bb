"""A new tournament or club season from the browser: the CLI's ``init`` into a Google sheet the
service account creates and shares with the organizer, or into an empty sheet they shared (proved
by the same one-time code as adding a sheet, typed into its first tab)."""

from __future__ import annotations

import base64
import csv
import functools
import io
import tempfile
from pathlib import Path

from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from scoring import labels as L
from scoring.draw.formats import Format
from scoring.errors import SheetsSyncError
from sheets_sync.actions.init import QualifyingRequest, init_workbook
from sheets_sync.presets import known_presets, load_preset
from sheets_sync.refs import WorkbookRefError, spreadsheet_id
from sheets_sync.web import jobs, workbooks
from sheets_sync.web.accounts.sheets import refused
from sheets_sync.web.claims import ClaimRefused, claim_for
from sheets_sync.web.forms_said import speak
from sheets_sync.web.models import Claim, Tournament
from sheets_sync.web.service_accounts import NoServiceAccount, pick_account
from sheets_sync.web.words import request_language, word

__all__ = ["NewTournamentForm", "new_tournament", "NEW", "init_sheet", "init_in_folder"]


DEFAULT_PRESET = "gmo-2016"  # the command line's default (init --preset)
SEASON_PRESET = "club-season"


SEASON_STAGES = frozenset({"season", "evening"})  # a club's scheme: one stage of evenings, no cut


@functools.lru_cache(maxsize=4)  # the shipped presets do not change while the server runs
def preset_choices(lang: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """The shipped presets by their names, grouped as a tournament's or a club season's (issue 43 §6:
    not ids like ``team-asymmetric``); a preset that does not load is left out, not shown broken."""
    groups: dict[str, list[tuple[str, str]]] = {Tournament.TOURNAMENT: [], Tournament.SEASON: []}
    for preset_id in known_presets():
        try:
            preset, _ = load_preset(preset_id)
        except SheetsSyncError:
            continue
        kind = Tournament.SEASON if set(preset.stage_keys) <= SEASON_STAGES else Tournament.TOURNAMENT
        groups[kind].append((preset_id, preset.name or preset_id))
    return [(word(f"new.group.{kind}", lang), sorted(choices, key=lambda c: c[1].casefold()))
            for kind, choices in groups.items() if choices]  # a list the form's field takes as its own


class NewTournamentForm(forms.Form):
    name = forms.CharField(max_length=200)
    kind = forms.ChoiceField(choices=[(Tournament.TOURNAMENT, ""), (Tournament.SEASON, "")])
    preset = forms.ChoiceField(choices=())
    players = forms.CharField(widget=forms.Textarea(attrs={"rows": 8}), required=False)
    players_csv = forms.FileField(required=False)
    registration = forms.BooleanField(required=False)  # issue 45: the players apply, no list yet
    places = forms.IntegerField(min_value=1, max_value=10000, required=False)
    games = forms.IntegerField(min_value=1, max_value=50, required=False)
    tables = forms.IntegerField(min_value=1, max_value=100, required=False)
    language = forms.ChoiceField(choices=[("ru", "Русский"), ("en", "English")])
    into = forms.CharField(required=False, max_length=500)  # an empty sheet's link; without one, a new sheet

    def __init__(self, *args, lang: str = "ru", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lang = lang
        if settings.MODE == "app":
            self.fields.pop("into")  # no Google sheet in the app: the workbook is made in its folder
        self.fields["preset"].choices = preset_choices(lang)
        self.fields["kind"].choices = [(Tournament.TOURNAMENT, word("new.kind_tournament", lang)),
                                       (Tournament.SEASON, word("new.kind_season", lang))]
        self.initial.setdefault("language", lang)
        self.initial.setdefault("preset", DEFAULT_PRESET)
        for name, field in self.fields.items():
            field.label = word(f"new.{name}", lang)
        speak(self, lang)

    def clean(self) -> dict:
        data = super().clean()
        if not (data.get("players") or "").strip() and not data.get("players_csv") and not _registration(data):
            self.add_error("players", word("new.no_players", self.lang))
        if (data.get("into") or "").strip():
            try:
                data["into_id"] = spreadsheet_id(data["into"], language=self.lang)
            except WorkbookRefError:
                self.add_error("into", word("add.bad_link", self.lang))
        return data

    def players_file(self, folder: Path) -> Path | None:
        """The players as the CSV ``init --players`` takes (the upload as it is, else one per line);
        None when the players will apply (no list typed)."""
        path = folder / "players.csv"
        upload = self.cleaned_data.get("players_csv")
        if not upload and not (self.cleaned_data.get("players") or "").strip():
            return None
        if upload:
            path.write_bytes(upload.read())
            return path
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow([L.PLAYER_COLUMNS["player"][0]])
        for line in self.cleaned_data["players"].splitlines():
            if line.strip():
                writer.writerow([line.strip()])
        path.write_text(out.getvalue(), encoding="utf-8")
        return path


def _format_fields(fmt: Format, lang: str) -> str:
    """A format that works, as the form's own fields spell it (what to type instead)."""
    return word("new.format.option", lang, games=fmt.games, tables=fmt.tables)


def _registration(data: dict) -> bool:
    """A tournament whose players apply (a season has no registration: whoever comes plays)."""
    return bool(data.get("registration")) and data.get("kind") != Tournament.SEASON


def init_in_folder(form: NewTournamentForm, folder: Path) -> Path:
    """App mode: ``init`` as the CLI runs it into ``FOLDER/<name>.xlsx`` (a name of its own beside an
    existing file); the path written."""
    from sheets_sync.web.app_mode import new_workbook_path

    data = form.cleaned_data
    path = new_workbook_path(folder, data["name"])
    with tempfile.TemporaryDirectory(prefix="sheets-sync-new-") as scratch:
        init_workbook(str(path), players_csv=form.players_file(Path(scratch)), preset_ref=data["preset"],
                      name=data["name"], language=data["language"], season=data["kind"] == Tournament.SEASON,
                      registration=_registration(data), places=data.get("places"),
                      qualifying=QualifyingRequest(games=data.get("games"), tables=data.get("tables"),
                                                   command=_format_fields))
    return path


def init_sheet(form: NewTournamentForm, user, account, target: str):
    """``init`` as the CLI runs it. A refused format or players file is a :class:`SheetsSyncError`
    carrying both languages (shown in the page's); both are refused before any Google request."""
    data = form.cleaned_data
    with tempfile.TemporaryDirectory(prefix="sheets-sync-new-") as folder:
        return init_workbook(target, players_csv=form.players_file(Path(folder)), preset_ref=data["preset"],
                             name=data["name"], language=data["language"], http_client=workbooks.account_http(account),
                             share_with=[user.email], organizers=[user.email], season=data["kind"] == Tournament.SEASON,
                             force=target != "gsheet:new", registration=_registration(data), places=data.get("places"),
                             qualifying=QualifyingRequest(games=data.get("games"), tables=data.get("tables"),
                                                          command=_format_fields))


def _empty_sheet_claim(request: HttpRequest, form: NewTournamentForm, account) -> Claim:
    """The organizer's code for the empty sheet; shown until they say it is typed into its first
    tab (the job checks it there)."""
    claim = claim_for(request.user, form.cleaned_data["into_id"], account)
    if request.POST.get("code_typed") != claim.code:
        raise _ShowCode(claim)
    return claim


NEW = "new"  # the job creating the sheet (sheets_sync.web.accounts.pending)
CSV_KEPT = 512 * 1024  # bytes of an uploaded players file a job keeps (a few thousand players)


def job_params(request: HttpRequest, form: NewTournamentForm, account, claim: Claim | None) -> dict:
    """What the job needs to fill the form in again and run ``init``: the fields as posted, the
    uploaded file's bytes, who asked, the account and the proved empty sheet's claim."""
    upload = form.cleaned_data.get("players_csv")
    data = {name: request.POST.get(name, "") for name in form.fields if name != "players_csv"}
    return {"data": data, "csv": base64.b64encode(upload.read()).decode() if upload else "",
            "user": request.user.pk, "account": account.pk if account else None, "claim": claim.pk if claim else None,
            "name": form.cleaned_data["name"], "language": form.lang}


class _ShowCode(Exception):
    def __init__(self, claim: Claim) -> None:
        super().__init__(claim.code)
        self.claim = claim


@login_required
@require_http_methods(["GET", "POST"])
def new_tournament(request: HttpRequest) -> HttpResponse:
    lang = request_language(request)
    try:
        account = None if settings.MODE == "app" else pick_account()  # the app writes into its folder
    except NoServiceAccount:
        return render(request, "accounts/no_account.html", status=503)
    form = NewTournamentForm(request.POST or None, request.FILES or None, lang=lang)
    context = {"form": form, "account": account, "default_preset": DEFAULT_PRESET, "season_preset": SEASON_PRESET}
    if request.method != "POST" or not form.is_valid():
        return render(request, "accounts/new.html", context)
    upload = form.cleaned_data.get("players_csv")
    if upload and upload.size > CSV_KEPT:
        context["error"] = word("organizer.job.csvtoobig", lang, kb=CSV_KEPT // 1024)
        return render(request, "accounts/new.html", context)
    claim = None
    if account is None:
        job = jobs.enqueue(None, NEW, params=job_params(request, form, None, None), user=request.user)
        return redirect("account_job", job.pk)
    try:
        if form.cleaned_data.get("into_id"):
            claim = _empty_sheet_claim(request, form, account)
            account = claim.account
    except _ShowCode as shown:
        context["claim"] = shown.claim
        return render(request, "accounts/new.html", context)
    except ClaimRefused as exc:
        context["error"] = refused(request, exc)
        return render(request, "accounts/new.html", context)
    # creating the sheet may wait for the account's budget: a job, which the next page follows
    job = jobs.enqueue(None, NEW, params=job_params(request, form, account, claim), user=request.user)
    return redirect("account_job", job.pk)
