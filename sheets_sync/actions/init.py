"""``init``: a new tournament workbook, kept apart from argument parsing so tests can call it.

``init`` plans the qualifying format from the players and ``--games``/``--rounds``/``--tables``
(the preset's numbers by default); when they do not fit it refuses with the nearest formats
that do, each as the exact command to run.  Whatever differs from the preset is written on
the Tournament tab (``отбор.туров``, ``отбор.столов``), where ``draw`` finds it again.
``--preset my-cup.toml`` is written there as a path from the workbook's folder, a shipped
scheme (``--preset club-season``, or its file in a clone) as its id.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from scoring.draw.formats import DrawFormatError, Format, Teams, plan_format
from scoring.model import Player, PlayerStatus, SeatingEntry
from sheets_sync.backends import check_workbook_ref, open_backend
from sheets_sync.backends.base import Backend, BackendError, Patch
from sheets_sync.actions.sync import print_report
from sheets_sync.actions.draw import (
    CommandRefused,
    draw_teams,
    format_refusal,
    format_settings,
    playing_players,
    seating_from_draw,
)
from sheets_sync.messages import fail, text
from sheets_sync.presets import is_preset_file, load_preset, shipped_id
from sheets_sync.refs import is_google_ref, workbook_folder
from sheets_sync.loop.sync import sync_once
from sheets_sync.workbook.tournament_setup import read_players_csv, title_from_file_name, workbook_patch

__all__ = ["init_workbook", "QualifyingRequest", "is_new_spreadsheet_ref"]


@dataclass(frozen=True, kw_only=True, slots=True)
class QualifyingRequest:
    """The organizer's numbers for the qualifying stage (None: the preset's)."""

    games: int | None = None  # games each player plays
    rounds: int | None = None
    tables: int | None = None
    # the exact init command for another format (the CLI knows what was typed); None: no commands
    command: Callable[[Format, str], str] | None = None


def _preset_reference(ref: str, workbook: str) -> str:
    """What the Tournament tab names for ``--preset ref``: a shipped id as is, and a shipped
    file typed as a path (``config/examples/club-season.toml`` in a clone) as its id; one's own
    file as its path from the workbook's folder (where the sync looks: the two move together),
    never from the current folder — for a Google spreadsheet, which has no folder, its full path."""
    if not is_preset_file(ref):
        return ref.strip().lower()
    target = Path(ref.strip()).expanduser().resolve()
    known = shipped_id(target)
    if known is not None:
        return known
    folder = workbook_folder(workbook)
    if folder is None:
        return str(target)
    try:
        return Path(os.path.relpath(target, folder)).as_posix()
    except ValueError:  # another drive (Windows)
        return str(target)


def _with_reserves(players: list[Player], needed: int, language: str) -> tuple[list[Player], list[str]]:
    """``players`` with placeholder reserves added until ``needed`` are registered; and their names."""
    have = sum(1 for p in players if p.status is PlayerStatus.RESERVE)
    taken = {p.nickname for p in players}
    added: list[str] = []
    n = 0
    while have + len(added) < needed:
        n += 1
        name = f"{'Запасной' if language == 'ru' else 'Reserve'} {n}"
        if name not in taken:
            added.append(name)
    return players + [Player(nickname=a, status=PlayerStatus.RESERVE) for a in added], added


def _plan_qualifying(players: Sequence[Player], stage_games: int, stage_tables: int, request: QualifyingRequest,
                     language: str) -> Format:
    playing = len(playing_players(players))
    rounds = request.rounds if request.rounds is not None or request.games is not None else stage_games
    try:
        return plan_format(playing, tables=request.tables or stage_tables or None, rounds=rounds, games=request.games)
    except DrawFormatError as exc:
        if request.command is None:
            raise
        raise format_refusal(exc, "format.nearest", request.command, language) from None


def init_workbook(ref: str, *, players_csv: Path | None, preset_ref: str, name: str | None, language: str, date: str = "",
                  seed: int = 1, force: bool = False, credentials: str | None = None,
                  share_with: Sequence[str] = (), console: Console | None = None,
                  qualifying: QualifyingRequest = QualifyingRequest(), organizers: Sequence[str] = (),
                  season: bool = False, protect_password: str | None = None, http_client: Any = None,
                  registration: bool = False, places: int | None = None) -> Backend:
    """Create the tournament in a new .xlsx, a new Google spreadsheet (``gsheet:new``, shared
    with ``share_with`` as editors) or an empty existing one (``gsheet:ID`` / URL).
    ``organizers`` go to the Tournament tab's «Организаторы»: with the sync, the only editors of
    its tabs in a Google Sheet (a new spreadsheet is shared with them too).  ``protect_password``:
    an .xlsx's sheet-protection password for the tabs the sync writes.  ``http_client``: the
    transport to Google (a gspread ``HTTPClient``) — the server passes its budgeted one, so creating,
    sharing, filling and the first sync are counted against the service account's minute; None
    (the command line): one is built from ``credentials``.

    ``season``: a club season instead (Tournament with «Формат: сезон», Players, Penalties): no
    draw, no seating, no protocol tabs; each evening's tab is added later (``evening``).

    ``registration`` (issue 45): the players apply (``players_csv`` optional: rows the organizer
    types himself): the Tournament tab gets the rows «Мест» (``places``), «Регистрация до»,
    «Начало», «Жеребьёвка», «Часовой пояс», the Players tab «Заявка», «Подана», «Прибыл»; no seating
    yet — ``draw`` seats those taking part when registration is over."""
    google = is_google_ref(ref)
    if share_with and not google:
        raise fail(BackendError, "init.share_with_file", language=language)
    if not is_new_spreadsheet_ref(ref):
        check_workbook_ref(ref, language=language, must_exist=False)
    if not google:
        path = Path(ref)
        if path.exists() and not force:  # before anything else: never a half-done init
            raise fail(BackendError, "init.exists", language=language, path=path)
    preset, _ = load_preset(preset_ref)  # an unknown preset is refused with the nearest id
    if players_csv is None and not registration:
        raise fail(BackendError, "init.players_or_registration", language=language)
    players = read_players_csv(players_csv, language=language) if players_csv is not None else []
    title = name or (title_from_file_name(Path(ref).stem) if not google else ("Клуб" if language == "ru" else "Club"))
    organizers = tuple(dict.fromkeys(e.strip().lower() for e in organizers if e.strip()))
    share = tuple(dict.fromkeys([*share_with, *organizers]))
    if season:
        patch = workbook_patch(name=title, preset=preset, language=language, players=players, seating=(), date=date,
                               preset_ref=_preset_reference(preset_ref, ref), season=True, organizers=organizers)
        return _create(ref, patch, title=title, language=language, credentials=credentials, share_with=share,
                       force=force, console=console, protect_password=protect_password, http_client=http_client,
                       created=lambda source: text("init.season_created", language, source=source,
                                                   players=len(players), preset=_preset_reference(preset_ref, ref)))
    if registration:
        if name is None and google:
            title = "Турнир" if language == "ru" else "Tournament"
        reference = _preset_reference(preset_ref, ref)
        patch = workbook_patch(name=title, preset=preset, language=language, players=players, seating=(), date=date,
                               preset_ref=reference, organizers=organizers, registration={"places": places})
        return _create(ref, patch, title=title, language=language, credentials=credentials, share_with=share,
                       force=force, console=console, protect_password=protect_password, http_client=http_client,
                       created=lambda source: text("init.registration_created", language, source=source,
                                                   players=len(players), places=places or "—", preset=reference))
    first = preset.stages[0]
    fmt = _plan_qualifying(players, first.games, first.tables, qualifying, language)
    players, added = _with_reserves(players, fmt.reserves, language)
    field = playing_players(players) + [p.nickname for p in players if p.status is PlayerStatus.RESERVE][:fmt.reserves]
    clubs = {p.nickname: p.club for p in players if p.nickname in set(field) and p.club}
    teams = draw_teams(preset.teams, {p.nickname: p.team for p in players if p.nickname in set(field) and p.team})
    try:
        seating = _first_seating(field, first.key, fmt.rounds, seed, clubs, tables=fmt.tables, teams=teams)
    except DrawFormatError as exc:  # one member of each team per game cannot hold in this field
        raise CommandRefused(str(exc), ru=exc.message("ru"), language=language) from None
    if name is None and google:
        title = "Турнир" if language == "ru" else "Tournament"
    reference = _preset_reference(preset_ref, ref)
    patch = workbook_patch(name=title, preset=preset, language=language, players=players, seating=seating, date=date,
                           preset_ref=reference, settings=format_settings(fmt, first, language), organizers=organizers)

    def created(source: str) -> str:
        lines = [text("init.created", language, source=source, players=len(playing_players(players)),
                      tabs=len(seating), preset=reference), fmt.describe(language)]
        return "\n".join(lines + ([text("init.reserves_added", language, names=", ".join(added))] if added else []))

    return _create(ref, patch, title=title, language=language, credentials=credentials, share_with=share,
                   force=force, console=console, created=created, protect_password=protect_password,
                   http_client=http_client,
                   preset_note=text("init.preset_ref", language, ref=reference) if is_preset_file(reference) else "")


def _create(ref: str, patch: Patch, *, title: str, language: str, credentials: str | None, share_with: Sequence[str],
            force: bool, console: Console | None, created: Callable[[str], str], preset_note: str = "",
            protect_password: str | None = None, http_client: Any = None) -> Backend:
    """Write ``patch`` into the new workbook (or the Google spreadsheet ``init`` fills), sync once, report."""
    if is_google_ref(ref):
        backend, patch = _google_target(ref, title=title, language=language, credentials=credentials,
                                        share_with=share_with, force=force, patch=patch, console=console,
                                        http_client=http_client)
    else:
        if Path(ref).exists():
            Path(ref).unlink()
        backend = open_backend(ref, credentials=credentials, must_exist=False, protect_password=protect_password)
    backend.apply(patch, base=None)
    report = sync_once(backend, out_dir=None)
    if console is not None:
        console.print(created(backend.source))
        if preset_note:
            console.print(preset_note)
        print_report(report, console, language=language)
    return backend


def is_new_spreadsheet_ref(ref: str) -> bool:
    return ref.strip().lower() in ("gsheet:new", "gsheet:")


def _google_target(ref: str, *, title: str, language: str, credentials: str | None, share_with: Sequence[str],
                   force: bool, patch: Patch, console: Console | None, http_client: Any = None) -> tuple[Backend, Patch]:
    """The Google spreadsheet ``init`` fills, with the patch to write into it.

    ``gsheet:new``: create one, share it with ``share_with`` as editors, and drop its
    default empty tab.  An existing spreadsheet must be empty (every tab blank; its blank
    tabs are replaced) unless ``force``: then tabs named like the tournament's are
    replaced and the others kept.
    """
    from sheets_sync.backends.google import GoogleBackend

    locale = "ru_RU" if language == "ru" else "en_GB"
    written = {w.title for w in patch.writes}
    if is_new_spreadsheet_ref(ref):
        backend = GoogleBackend.create_spreadsheet(title, credentials=credentials, locale=locale,
                                                   share_with=tuple(share_with), http_client=http_client)
        blank = backend.read().order  # the new spreadsheet's default tab ("Sheet1", "Лист1")
        if console is not None:
            who = ", ".join(share_with)
            console.print(text("init.new_spreadsheet", language, source=backend.source)
                          + (text("init.shared", language, who=who) if who else ""))
            if not share_with and backend.account_email:
                console.print(f"[yellow]{escape(text('init.owner_note', language, email=backend.account_email))}"
                              "[/yellow]")
        return backend, replace(patch, delete_tabs=tuple(t for t in blank if t not in written))
    backend = GoogleBackend(ref, credentials=credentials, http_client=http_client)
    snapshot = backend.read()
    filled = [t for t in snapshot.order if any(any(v not in (None, "") for v in row) for row in snapshot.tabs[t])]
    if filled and not force:
        raise fail(BackendError, "init.not_empty", language=language, source=backend.source,
                   tabs=", ".join(filled[:5]) + (" …" if len(filled) > 5 else ""))
    if share_with:
        backend.share(tuple(share_with))
    blank = [t for t in snapshot.order if t not in filled]
    # blank tabs go (a fresh spreadsheet's "Лист1"); with --force, same-named tabs are recreated
    replaced = [t for t in filled if t in written]
    return backend, replace(patch, delete_tabs=tuple(blank) + tuple(replaced))


def _first_seating(players: Sequence[str], stage: str, rounds: int, seed: int,
                   clubs: Mapping[str, str] | None = None, *, tables: int | None = None,
                   teams: Teams | None = None) -> list[SeatingEntry]:
    """The qualifying seating ``init`` pre-fills: the balanced draw of ``players``, club mates
    apart (``draw`` can redo it with another seed or a time limit)."""
    from scoring.draw import draw_qualifying  # the search loads only when init draws

    return seating_from_draw(draw_qualifying(players, rounds=rounds, tables=tables, seed=seed, clubs=clubs,
                                             teams=teams), stage)
