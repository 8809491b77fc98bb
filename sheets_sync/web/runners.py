"""The tournament page's buttons as job runners: each calls the same click-free action as the
command line (:mod:`sheets_sync.actions`) and returns what the CLI would print, as JSON the job
page shows.

Every runner opens the workbook through :func:`sheets_sync.web.workbooks.open_tournament_backend`
and hands the action that backend, so each Google request is counted against the service
account's budget (the exports too: the action never builds a client of its own from the key
file). Commands that write into the workbook (draw, advance, replace, evening) then ask for a
sync, so the standings, the site and the post follow.  Exports that make files (the VK post, the MWT files, the
printable protocols and seating) write into ``jobs.out_dir(t)/exports/<kind>/``; the page offers
them through a view that finds the tournament by its members (never a static address).  A refused
command raises :class:`scoring.errors.SheetsSyncError`: the job fails with the message in both
languages (:func:`sheets_sync.web.jobs.run_job`).
"""

from __future__ import annotations

import shutil
import zipfile
from datetime import date
from pathlib import Path

from scoring.collation import name_key
from scoring.errors import SheetsSyncError
from sheets_sync.web import jobs
from sheets_sync.web.models import Tournament
from sheets_sync.web.workbooks import open_tournament_backend, workbook_ref

__all__ = ["DRAW", "ADVANCE", "REPLACE", "EVENING", "VK", "MWT", "PROTOCOLS", "SEATING", "WRITING", "EXPORTS",
           "exports_dir", "DRAW_TIME_LIMIT"]

DRAW, ADVANCE, REPLACE, EVENING = "draw", "advance", "replace", "evening"
VK, MWT, PROTOCOLS, SEATING = "vk", "mwt", "protocols", "seating"
WRITING = (DRAW, ADVANCE, REPLACE, EVENING)  # they change the workbook: a sync follows
EXPORTS = (VK, MWT, PROTOCOLS, SEATING)  # they make files to download
DRAW_TIME_LIMIT = 60.0  # seconds a draw searches when the organizer names no limit: a worker is not held for long


class BadParameter(SheetsSyncError):
    """A button's field the organizer filled wrongly (the page's form checks most of them first)."""


def exports_dir(tournament: Tournament, kind: str) -> Path:
    """Where an export of ``kind`` is written: emptied first, so the folder holds this export only."""
    folder = jobs.out_dir(tournament) / "exports" / kind
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    return folder


def _relative(tournament: Tournament, path: Path) -> str:
    """A file's address under the tournament's output folder (what the download view takes)."""
    return path.resolve().relative_to(jobs.out_dir(tournament).resolve()).as_posix()


def _int(params: dict, key: str, default: int | None = None, *, low: int = 0) -> int | None:
    value = params.get(key)
    if value in (None, ""):
        return default
    try:
        number = int(value)
    except (TypeError, ValueError):
        number = None
    if number is None or number < low:
        raise BadParameter(f"{key}: a whole number from {low} is needed, not {value!r}",
                           ru=f"{key}: нужно целое число от {low}, а не «{value}»")
    return number


def _blocks(rows: list[list[str]]) -> list[list[list[str]]]:
    """The report's sheet rows cut at their blank rows: its figures, the meetings' histogram, the
    schedule's problems (when there are any), the players."""
    blocks: list[list[list[str]]] = [[]]
    for row in rows:
        if row:
            blocks[-1].append(row)
        elif blocks[-1]:
            blocks.append([])
    return [b for b in blocks if b]


def report_tables(report, language: str) -> dict:
    """The fairness report as the page's tables (issue 43 §6: a table, not the CLI's text): the
    figures as label → value, the histogram and the players each with their header row, the
    problems as lines. Cut from :meth:`~scoring.draw.report.FairnessReport.rows`, whose blocks the
    report's own fields say."""
    blocks = _blocks([[str(v) for v in row] for row in report.rows(language)])
    figures, histogram, *rest = blocks
    problems = [row[-1] for row in rest[0]] if report.problems else []
    players = rest[-1]
    return {"figures": figures, "histogram": {"head": histogram[0], "rows": histogram[1:]},
            "problems": problems, "players": {"head": players[0], "rows": players[1:]}}


def _draw_result(outcome, language: str) -> dict:
    """The draw's fairness report as the CLI prints it (lines), as the sheet's rows, and as the
    page's tables (``report``)."""
    report = outcome.draw.report
    return {"stage": outcome.stage, "games": len(outcome.entries),
            "format": outcome.format.describe(language) if outcome.format is not None else "",
            "lines": {lang: report.text_lines(lang) for lang in ("ru", "en")},
            "rows": {lang: [[str(v) for v in row] for row in report.rows(lang)] for lang in ("ru", "en")},
            "report": {lang: report_tables(report, lang) for lang in ("ru", "en")},
            "removed": list(outcome.removed), "kept": list(outcome.kept)}


# a draw writes all at once and refuses over typed games: safe to run again after a crash, unless forced
@jobs.runner(DRAW, leased=True, long=True, again=lambda params: not params.get("force"))
def run_draw(tournament: Tournament, params: dict) -> dict:
    from sheets_sync.actions.draw import draw_workbook

    limit = params.get("time_limit")
    outcome = draw_workbook(open_tournament_backend(tournament), seed=_int(params, "seed", 1),
                            time_limit=float(limit) if limit not in (None, "") else DRAW_TIME_LIMIT,
                            force=bool(params.get("force")), keep_seating=bool(params.get("timed")))
    jobs.request_sync(tournament, DRAW)
    return _draw_result(outcome, outcome.language)


def _seated(outcome) -> list[str]:
    return sorted({n for e in outcome.entries for n in e.players if n}, key=name_key)


@jobs.runner(ADVANCE, leased=True, long=True)
def run_advance(tournament: Tournament, params: dict) -> dict:
    from sheets_sync.actions.draw import advance_workbook

    outcome = advance_workbook(open_tournament_backend(tournament), seed=_int(params, "seed", 1),
                               force=bool(params.get("force")), stage=params.get("stage") or None)
    jobs.request_sync(tournament, ADVANCE)
    # a team rule the field broke is shown as the page's warning (never silently)
    warnings = {lang: [outcome.notice.said(lang)] if outcome.notice else [] for lang in ("ru", "en")}
    return {**_draw_result(outcome, outcome.language), "players": _seated(outcome), "warnings": warnings}


@jobs.runner(REPLACE, leased=True, long=True)
def run_replace(tournament: Tournament, params: dict) -> dict:
    from sheets_sync.actions.draw import replace_player

    player = str(params.get("player") or "").strip()
    if not player:
        raise BadParameter("name the player to replace", ru="укажите, кого заменить")
    newcomer, outcome = replace_player(open_tournament_backend(tournament), player=player,
                                       stage=params.get("stage") or None)
    jobs.request_sync(tournament, REPLACE)
    warnings = {lang: [outcome.notice.said(lang)] if outcome.notice else [] for lang in ("ru", "en")}
    return {"stage": outcome.stage, "old": player, "new": newcomer, "games": len(outcome.entries), "warnings": warnings}


@jobs.runner(EVENING, leased=True)
def run_evening(tournament: Tournament, params: dict) -> dict:
    from sheets_sync.actions.evening import add_evening

    try:
        day = date.fromisoformat(str(params.get("date") or date.today().isoformat()))
    except ValueError:
        raise BadParameter(f"date: YYYY-MM-DD, not {params.get('date')!r}",
                           ru=f"дата: ГГГГ-ММ-ДД, а не «{params.get('date')}»") from None
    added = add_evening(open_tournament_backend(tournament), day=day, games=_int(params, "games", 1, low=1),
                        tables=_int(params, "tables", None, low=1))
    jobs.request_sync(tournament, EVENING)
    return {"title": added.title, "games": len(added.games), "rounds": added.rounds, "tables": added.tables}


@jobs.runner(VK, long=True, again=True)
def run_vk(tournament: Tournament, params: dict) -> dict:
    from sheets_sync.actions.export import write_workbook_post

    folder = exports_dir(tournament, VK)
    write_workbook_post(workbook_ref(tournament), out=str(folder), link=jobs.public_link(tournament),
                        backend=open_tournament_backend(tournament))
    text_file = folder / "vk-post.txt"
    pictures = sorted(p for p in folder.iterdir() if p.suffix == ".png")
    return {"text": text_file.read_text(encoding="utf-8") if text_file.exists() else "",
            "files": [_relative(tournament, p) for p in pictures]}


@jobs.runner(MWT, long=True, again=True)
def run_mwt(tournament: Tournament, params: dict) -> dict:
    from sheets_sync.actions.export import mwt_warning_lines, write_workbook_mwt

    folder = exports_dir(tournament, MWT)
    export = write_workbook_mwt(workbook_ref(tournament), out=str(folder / "games"),
                                backend=open_tournament_backend(tournament))
    archive = folder / "mwt.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for game in export.games:
            zf.write(export.folder / game.filename, arcname=game.filename)
    return {"games": len(export.games), "files": [_relative(tournament, archive)],
            "warnings": {lang: mwt_warning_lines(export, lang) for lang in ("ru", "en")}, "missing": mwt_missing(export)}


def mwt_missing(export) -> dict:
    """What the MWT files lack, as the page says it (issue 43 §6: no ``null``, no line per player):
    whether the tournament's MWT id is missing, and who has no MWT id — judges and players, once
    each, in the table's order."""
    people: dict[str, list[str]] = {"judge_id": [], "player_id": []}
    for w in (w for g in export.games for w in g.warnings):
        names = people.setdefault(w.kind, [])
        if w.name and w.name not in names:
            names.append(w.name)
    return {"tournament_id": any(w.kind == "tournament_id" for w in export.warnings),
            "judges": sorted(people["judge_id"], key=name_key), "players": sorted(people["player_id"], key=name_key)}


@jobs.runner(PROTOCOLS, long=True, again=True)
def run_protocols(tournament: Tournament, params: dict) -> dict:
    from sheets_sync.actions.export import write_workbook_blanks
    from sheets_sync.web.judge.links import printed_links

    blanks = write_workbook_blanks(workbook_ref(tournament), round_no=_int(params, "round", 1, low=1),
                                   stage=params.get("stage") or None, out=str(exports_dir(tournament, PROTOCOLS)),
                                   backend=open_tournament_backend(tournament),
                                   links=lambda stage: printed_links(tournament, stage))  # the judges' QR codes
    return {"stage": blanks.stage_name, "files": [_relative(tournament, blanks.path)]}


@jobs.runner(SEATING, long=True, again=True)
def run_seating(tournament: Tournament, params: dict) -> dict:
    from sheets_sync.actions.export import write_workbook_seating_print
    from sheets_sync.web.judge.links import printed_links

    printed: dict[int, str] = {}

    def links(stage: str) -> dict[int, str]:  # the judges' QR codes on the tables' posters: opt-in
        printed.update(printed_links(tournament, stage))
        return printed

    seating = write_workbook_seating_print(workbook_ref(tournament), round_no=_int(params, "round", 1, low=1),
                                           stage=params.get("stage") or None,
                                           out=str(exports_dir(tournament, SEATING)),
                                           backend=open_tournament_backend(tournament),
                                           links=links if params.get("judge_qr") else None)
    result = {"title": seating.title, "tables": seating.tables,
              "files": [_relative(tournament, p) for p in seating.paths]}
    if params.get("judge_qr") and not printed:  # asked for the codes, and the stage has no links to print
        result["no_judge_links"] = True
    return result
