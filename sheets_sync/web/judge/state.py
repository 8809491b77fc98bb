"""A game as a judge's page gets it (the contract's game JSON): the last sync's cells of the
protocol tab, with the saves still waiting laid over them, the live log, the conflicts of the
last write, the problems and the status."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from pathlib import Path

from django.db import transaction
from django.db.models import Q

from sheets_sync.web.judge.games import WAITING, read_games, status_of
from sheets_sync.web.models import JudgeGame, JudgeSave, Tournament

__all__ = ["games_of", "game_json", "base_dir_of", "pending_cells", "title_of"]


def games_of(tournament: Tournament) -> dict | None:
    from sheets_sync.web.jobs import out_dir

    return read_games(out_dir(tournament))


def base_dir_of(tournament: Tournament) -> Path | None:
    """Where a preset file named by a relative path is looked for: the workbook's folder."""
    return Path(tournament.path).parent if tournament.source == Tournament.EXCEL and tournament.path else None


def title_of(games: Mapping, game: Mapping) -> str:
    words = {"ru": ("тур", "стол"), "en": ("round", "table")}[games.get("language") if games.get("language") == "en" else "ru"]
    return f"{game['stage_name']} · {words[0]} {game['round']} · {words[1]} {game['table']}"


def pending_cells(tournament: Tournament, gid: str, read_at: str | None = None) -> tuple[dict[str, str], int]:
    """The cells of the saves the last sync's read may not hold — those not yet in the workbook and
    those written since ``read_at`` (their written keys: the sync that reads them may still run) —
    the latest last; and how many saves wait to be written."""
    cells: dict[str, str] = {}
    since = _moment(read_at)
    saves = JudgeSave.objects.filter(tournament=tournament, gid=gid)
    saves = saves.filter(written_at__isnull=True) if since is None else saves.filter(
        Q(written_at__isnull=True) | Q(written_at__gte=since))
    waiting = 0
    for save in saves.order_by("pk"):
        if save.written_at is None:
            cells.update(save.cells)
            waiting += 1
        else:
            written = set((save.result or {}).get("written", ()))
            cells.update({k: v for k, v in save.cells.items() if k in written})
    return cells, waiting


def _moment(text: str | None) -> datetime | None:
    try:
        return datetime.fromisoformat(text) if text else None
    except ValueError:
        return None


def game_json(tournament: Tournament, games: Mapping, game: Mapping) -> dict:
    from sheets_sync.web.judge.check import form_check

    kept = JudgeGame.objects.filter(tournament=tournament, gid=game["gid"]).first()
    waiting, pending = pending_cells(tournament, game["gid"], games.get("read_at"))
    cells = {**game["cells"], **{k: v for k, v in waiting.items() if k in game["where"]}}
    language = games.get("language", "ru")
    problems = game["problems"]
    if waiting and game.get("tab"):
        problems = form_check(games, game, cells, language, base_dir=base_dir_of(tournament))
    status = status_of(cells, problems, confirmation=bool(games.get("confirmation")), pending=pending)
    if status == WAITING and not game.get("tab"):
        status = status_of(cells, problems, confirmation=bool(games.get("confirmation")))
    return {"gid": game["gid"], "title": title_of(games, game), "stage": game["stage"], "round": game["round"],
            "table": game["table"], "tab": game.get("tab"), "seats": game["seats"], "status": status, "cells": cells,
            "read_at": games.get("read_at"), "saved_at": kept.saved_at.isoformat() if kept and kept.saved_at else None,
            "pending": pending, "conflicts": list(kept.conflicts) if kept else [], "problems": problems,
            "events": list(kept.events) if kept else [], "mode": (kept.mode or None) if kept else None}


def kept_game(tournament: Tournament, gid: str) -> JudgeGame:
    with transaction.atomic():
        game, _ = JudgeGame.objects.get_or_create(tournament=tournament, gid=gid)
    return game
