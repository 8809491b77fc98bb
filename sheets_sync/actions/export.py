"""What `export site`, `export vk` (also `--seating N`), `export mwt`, `print-protocols` and
`print-seating` do, kept apart from argument parsing.

They read the workbook and compute the standings like `sync`, but write nothing into it.  Each
takes WORKBOOK as typed and, optionally, the workbook already opened (``backend=``): the server
passes its own, whose every Google request is counted against the service account's budget
(:mod:`sheets_sync.web.workbooks`); the command line passes none and the reference is opened here.
The site and the post show the public results (:class:`~sheets_sync.loop.publish.PublicResults`);
the protocol blanks and the seating (printed or posted) show the seating as it is.  The MWT files
are the published counted games too: a hidden final leaves the workbook only when it is released.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from sheets_sync import clock
from sheets_sync.backends import open_backend
from sheets_sync.backends.base import Backend
from sheets_sync.files import out_dir_for, write_text_atomic
from sheets_sync.render.mwt import MwtGame, MwtWarning, dumps as mwt_dumps, is_game_filename, mwt_games
from sheets_sync.loop.publish import PublicResults, write_public_site, write_vk_post
from sheets_sync.messages import text
from sheets_sync.refs import workbook_folder
from sheets_sync.render.protocols import blanks_filename, blanks_html, judge_qr, stage_for
from sheets_sync.render.seating import SeatingViews, seating_filename, seating_html
from sheets_sync.render.vk_seating import seating_post_names, write_seating_post
from sheets_sync.loop.outcome import Outcome, compute, read_workbook

__all__ = ["read_outcome", "write_workbook_site", "write_workbook_post", "write_workbook_blanks", "write_workbook_mwt",
           "mwt_warning_lines",
           "Blanks", "Written", "MwtExport", "SeatingWritten", "write_workbook_seating_print",
           "write_workbook_seating_post"]


def read_outcome(workbook: str, *, credentials: str | None = None, backend: Backend | None = None) -> Outcome:
    """Read WORKBOOK once and compute everything the sync knows about it (``backend``: WORKBOOK
    already opened; None: opened here with ``credentials``)."""
    if backend is None:
        backend = open_backend(workbook, credentials=credentials)
    return compute(read_workbook(backend), base_dir=workbook_folder(backend.source))


@dataclass(frozen=True, slots=True)
class Written:
    """Files written for people: their folder, the files that changed, the tournament's language."""

    folder: Path
    changed: tuple[Path, ...]
    language: str


def write_workbook_site(workbook: str, *, out: str | None, credentials: str | None = None,
                        backend: Backend | None = None) -> Written:
    """The site in ``out`` (default: ``site/`` in the workbook's output folder)."""
    outcome = read_outcome(workbook, credentials=credentials, backend=backend)
    folder = Path(out) if out else out_dir_for(workbook, None) / "site"
    public = PublicResults.of(outcome, updated=clock.now())
    return Written(folder, tuple(write_public_site(public, folder)), outcome.language)


def write_workbook_post(workbook: str, *, out: str | None, link: str | None, credentials: str | None = None,
                        backend: Backend | None = None) -> Written:
    """vk-post.txt and vk-post.png in ``out`` (default: in the workbook's output folder)."""
    outcome = read_outcome(workbook, credentials=credentials, backend=backend)
    folder = out_dir_for(workbook, out)
    write_vk_post(PublicResults.of(outcome, updated=clock.now()), folder, link=link)
    return Written(folder, (), outcome.language)


@dataclass(frozen=True, slots=True)
class Blanks:
    """Protocol blanks written for one round of one stage."""

    path: Path
    stage_name: str
    language: str = "ru"  # the tournament's


def write_workbook_blanks(workbook: str, *, round_no: int, stage: str | None, out: str | None,
                          credentials: str | None = None, backend: Backend | None = None,
                          links: Callable[[str], Mapping[int, str]] | None = None) -> Blanks:
    """The blanks of a round as HTML in ``out`` (default: ``protocols/`` in the workbook's output folder);
    ``stage`` by key or name, by default the latest stage seated for the round. ``links``: the judges'
    link of each table of a stage (the server's), printed as a QR code on the table's blank."""
    outcome = read_outcome(workbook, credentials=credentials, backend=backend)
    tournament, preset, language = outcome.results.tournament, outcome.preset, outcome.language
    stage_key = stage_for(tournament, preset, round_no, stage)
    html = blanks_html(tournament, preset, round_no=round_no, stage=stage_key, language=language,
                       links=links(stage_key) if links is not None else None)
    folder = Path(out) if out else out_dir_for(workbook, None) / "protocols"
    path = folder / blanks_filename(stage_key, round_no)
    write_text_atomic(path, html)
    return Blanks(path=path, stage_name=preset.stage(stage_key).name(language), language=language)


@dataclass(frozen=True, slots=True)
class MwtExport:
    """The MWT files of a workbook: their folder, every game written, the files removed
    (games that no longer count), the warnings of the whole export, the tournament's language."""

    folder: Path
    games: tuple[MwtGame, ...]
    removed: tuple[Path, ...]
    warnings: tuple[MwtWarning, ...]
    language: str


def write_workbook_mwt(workbook: str, *, out: str | None, credentials: str | None = None,
                       backend: Backend | None = None) -> MwtExport:
    """One JSON per counted (published) game in ``out`` (default: ``mwt/`` in the workbook's output folder).
    Files of an earlier export whose game no longer counts are removed, so the folder is what
    the federation may take."""
    outcome = read_outcome(workbook, credentials=credentials, backend=backend)
    public = PublicResults.of(outcome)
    games, warnings = mwt_games(public.results)
    folder = Path(out) if out else out_dir_for(workbook, None) / "mwt"
    folder.mkdir(parents=True, exist_ok=True)
    for game in games:
        write_text_atomic(folder / game.filename, mwt_dumps(game.document))
    current = {g.filename for g in games}
    removed = tuple(sorted(p for p in folder.iterdir() if is_game_filename(p.name) and p.name not in current))
    for path in removed:
        path.unlink()
    return MwtExport(folder=folder, games=games, removed=removed, warnings=warnings, language=outcome.language)


@dataclass(frozen=True, slots=True)
class SeatingWritten:
    """The seating of one round written for people (printed or posted)."""

    paths: tuple[Path, ...]
    title: str  # «Отбор, тур 4»
    language: str
    tables: int


def _seating_round(outcome: Outcome, round_no: int, stage: str | None):
    """The round's seating as seated on the Seating tab (a hidden final's too: where finalists
    sit is no secret, their points are)."""
    stage_key = stage_for(outcome.results.tournament, outcome.preset, round_no, stage)
    return SeatingViews(outcome.results, outcome.language).round(round_no, stage_key)


def write_workbook_seating_print(workbook: str, *, round_no: int, stage: str | None, out: str | None,
                                 credentials: str | None = None, backend: Backend | None = None,
                                 links: Callable[[str], Mapping[int, str]] | None = None) -> SeatingWritten:
    """The printable seating of a round as HTML in ``out`` (default: ``protocols/`` in the workbook's output folder).
    ``links``: the judges' link of each table of a stage (the server's, when the organizer asks), printed
    as a QR code on the table's poster, never on the overview with every table."""
    outcome = read_outcome(workbook, credentials=credentials, backend=backend)
    rnd = _seating_round(outcome, round_no, stage)
    t = outcome.results.tournament
    addresses = links(rnd.stage) if links is not None else {}
    html = seating_html(rnd, tournament=t.name, date=t.date, language=outcome.language,
                        qr={table: judge_qr(address) for table, address in addresses.items()})
    folder = Path(out) if out else out_dir_for(workbook, None) / "protocols"
    path = folder / seating_filename(rnd)
    write_text_atomic(path, html)
    return SeatingWritten(paths=(path,), title=rnd.title, language=outcome.language, tables=len(rnd.tables))


def write_workbook_seating_post(workbook: str, *, round_no: int, stage: str | None, out: str | None,
                                credentials: str | None = None, backend: Backend | None = None) -> SeatingWritten:
    """``vk-seating-<stage>-<round>.txt`` and ``.png`` in ``out`` (default: in the workbook's output folder)."""
    outcome = read_outcome(workbook, credentials=credentials, backend=backend)
    rnd = _seating_round(outcome, round_no, stage)
    folder = out_dir_for(workbook, out)
    write_seating_post(rnd, folder, tournament=outcome.results.tournament.name, language=outcome.language)
    return SeatingWritten(paths=tuple(folder / n for n in seating_post_names(rnd)), title=rnd.title,
                          language=outcome.language, tables=len(rnd.tables))


def mwt_warning_lines(export: MwtExport, language: str) -> list[str]:
    """What the federation will miss, in ``language``: one line per person, not per seat (a player
    without an id is missing from all his games), his games named (three at most)."""
    lines = [text("mwt.no_" + w.kind, language) for w in export.warnings]
    missing: dict[tuple[str, str], list[str]] = {}
    for w in (w for g in export.games for w in g.warnings):
        games = missing.setdefault((w.kind, w.name or "—"), [])
        if w.sheet not in games:
            games.append(w.sheet)
    for (kind, name), games in missing.items():
        shown = ", ".join(games[:3]) + (", …" if len(games) > 3 else "")
        lines.append(text("mwt.no_" + kind, language, name=name, n=len(games), sheets=shown))
    return lines
