"""Fixtures and helpers of the judge's page's tests (issue 44): a fresh tournament synced (its
games file written), its table links, and the API called as the page calls it."""

from __future__ import annotations

import json
import uuid

import openpyxl
import pytest

from sheets_sync.web import jobs
from sheets_sync.web.judge.links import make_chief_link, make_table_links
from sheets_sync.web.judge.state import games_of
from sheets_sync.web.models import Tournament

__all__ = ["synced", "table_links", "api_get", "api_post", "save_form", "cell", "type_into", "gid"]


def synced(tournament: Tournament) -> Tournament:
    job = jobs.request_sync(tournament, "test")
    assert job is not None and job.pk
    tournament.refresh_from_db()
    assert games_of(tournament) is not None, tournament.last_error
    return tournament


def table_links(tournament: Tournament) -> dict[int, str]:
    games = games_of(tournament)
    stage = games["current_stage"]
    tables = sorted({g["table"] for g in games["games"] if g["stage"] == stage})
    return {link.table: link.token for link in make_table_links(tournament, stage, tables)}


def chief_token(tournament: Tournament, name: str = "") -> str:
    return make_chief_link(tournament, name).token


def gid(round_no: int, table: int, stage: str = "qualifying") -> str:
    return f"{stage}-{round_no}-{table}"


def api_get(client, token: str, path: str = ""):
    return client.get(f"/j/{token}/api/{path}")


def api_post(client, token: str, path: str, body) -> object:
    data = body if isinstance(body, (bytes, str)) else json.dumps(body)
    return client.post(f"/j/{token}/api/{path}", data=data, content_type="application/json")


def save_form(client, token: str, game: str, cells: dict, *, base: dict | None = None, choose: dict | None = None,
              save_id: str | None = None, submit: bool = False):
    if base is None:
        base = {k: v for k, v in api_get(client, token, f"games/{game}/").json()["cells"].items() if k in cells}
    return api_post(client, token, f"games/{game}/form/", {"id": save_id or str(uuid.uuid4()), "cells": cells,
                                                           "base": base, "submit": submit, "choose": choose or {}})


def cell(path, tab: str, ref: str):
    return openpyxl.load_workbook(path, read_only=True)[tab][ref].value


def type_into(path, tab: str, ref: str, value) -> None:
    wb = openpyxl.load_workbook(path)
    wb[tab][ref] = value
    wb.save(path)


@pytest.fixture
def judged(fresh_tournament) -> Tournament:
    """The fresh tournament (20 players, qualifying seated, nothing typed), synced once."""
    return synced(fresh_tournament)


def whole_game(seats, seed: int = 1, language: str = "ru") -> dict[str, str]:
    """The form's cells of a whole random legal game at a table seated ``seats``, as a judge types them."""
    import random

    from scoring.game.protocol import protocol_cells, state_protocol
    from scoring.game.replay import replay
    from scoring.game.simulate import simulate_events
    from scoring.model import SeatingEntry

    players = tuple(seats)
    events = simulate_events(random.Random(seed), players=players, undo=0.0)
    state = replay(events, players=players)
    protocol = state_protocol(state, SeatingEntry(stage="qualifying", round=1, table=1, players=players))
    from sheets_sync.web.judge.games import cell_key

    return {cell_key(seat, column): text for (seat, column), text in protocol_cells(protocol, language).items()}


def confirmation_on(path) -> None:
    """«Подтверждение протоколов: да» on the Tournament tab (a new row under the last)."""
    wb = openpyxl.load_workbook(path)
    ws = wb["Турнир"]
    row = ws.max_row + 1
    ws.cell(row=row, column=1, value="Подтверждение протоколов")
    ws.cell(row=row, column=2, value="да")
    wb.save(path)
