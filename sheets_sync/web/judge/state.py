"""A game as a judge's page gets it (the contract's game JSON): the last sync's cells of the
protocol tab, with the saves still waiting laid over them, the live log, the conflicts of the
last write, the problems and the status."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from django.db import transaction

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


def pending_cells(tournament: Tournament, gid: str) -> tuple[dict[str, str], int]:
    """The cells of the saves not yet in the workbook, the latest last, and how many saves wait."""
    cells: dict[str, str] = {}
    saves = list(JudgeSave.objects.filter(tournament=tournament, gid=gid, written_at__isnull=True).order_by("pk")
                 .values_list("cells", flat=True))
    for save in saves:
        cells.update(save)
    return cells, len(saves)


def game_json(tournament: Tournament, games: Mapping, game: Mapping) -> dict:
    from sheets_sync.web.judge.check import form_check

    kept = JudgeGame.objects.filter(tournament=tournament, gid=game["gid"]).first()
    waiting, pending = pending_cells(tournament, game["gid"])
    cells = {**game["cells"], **{k: v for k, v in waiting.items() if k in game["where"]}}
    language = games.get("language", "ru")
    problems = game["problems"]
    if pending and game.get("tab"):
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
