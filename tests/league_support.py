"""Small tournament workbooks for the league's tests: ten players, games with the roles and
winners a test chooses, saved as real .xlsx files through the sync's own writer."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from scoring.model import Player, Protocol, Role, SeatingEntry, SeatRecord, Team
from sheets_sync.backends.base import Patch, TabWrite
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.workbook.layout import protocol_title
from sheets_sync.presets import load_preset
from sheets_sync.workbook.tournament_setup import workbook_patch

PLAYERS = [f"Игрок {i}" for i in range(10)]


def game(blacks: Sequence[int], winner: str, *, don: int | None = None, sheriff: int | None = None) -> tuple:
    """A game: the seats (0–9) of the three blacks, the winner ("red"/"black")."""
    return tuple(blacks), winner, don, sheriff


def _protocol(preset, stage: str, round_no: int, names: Sequence[str], spec: tuple) -> Protocol:
    blacks, winner, don, sheriff = spec
    don = blacks[0] if don is None else don
    sheriff = next(i for i in range(10) if i not in blacks) if sheriff is None else sheriff
    seats = []
    for i, name in enumerate(names):
        role = (Role.DON if i == don else Role.MAFIA) if i in blacks else (Role.SHERIFF if i == sheriff else Role.CIVILIAN)
        seats.append(SeatRecord(seat=i + 1, player=name, role=role))
    return Protocol(sheet=protocol_title(preset, stage, round_no, 1, "ru"), stage=stage, round=round_no, table=1,
                    judge="Судья", winner=Team.RED if winner == "red" else Team.BLACK, seats=tuple(seats))


def write_tournament(path: Path, games: Sequence[tuple], *, name: str, date: str,
                     names: Sequence[str] = PLAYERS) -> Path:
    """A gmo-2016 workbook at ``path`` with ``games`` played in rounds 1, 2, … of its first stage."""
    preset, _ = load_preset("gmo-2016")
    stage = preset.stage_keys[0]
    seating = [SeatingEntry(stage=stage, round=r, table=1, players=tuple(names)) for r in range(1, len(games) + 1)]
    protocols = [_protocol(preset, stage, r, names, spec) for r, spec in enumerate(games, 1)]
    patch = workbook_patch(name=name, preset=preset, language="ru", players=[Player(nickname=n) for n in names],
                           seating=seating, protocols=protocols, date=date)
    if path.exists():
        path.unlink()
    ExcelBackend(path, backups=0).apply(patch, base=None)
    return path


def type_starts(path: Path, starts: dict[int, tuple]) -> None:
    """Type starting ratings into the Players tab's columns F–H («Рейтинг», «Рейтинг красных»,
    «Рейтинг чёрных») for the players of rows 2… (``starts``: player index -> three values)."""
    rows = [(None,) * 5 + ("Рейтинг", "Рейтинг красных", "Рейтинг чёрных")]
    for i in range(len(PLAYERS)):
        rows.append((None,) * 5 + tuple(starts.get(i, (None, None, None))))
    ExcelBackend(path, backups=0).apply(Patch(writes=(TabWrite(title="Игроки", rows=tuple(rows), owned=False),)),
                                        base=None)
