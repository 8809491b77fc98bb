"""A tiny tournament workbook for rule tests: one protocol tab typed cell by cell.

Layout of the protocol tab (as `init` writes it): header values in B2 (stage), B3 (round),
B4 (table), B6 (winner); seat table header in row 9, seat s in row 9 + s; columns
A №, B Игрок, C Роль, D Фолы, E Убит ночью, F Заголосован днём, G Удалён, H ЛХ, I Доп. баллы.
"""

from __future__ import annotations

from collections.abc import Mapping

from scoring.cells import parse_a1
from sheets_sync.backends.memory import MemoryBackend
from scoring.parse import parse_tournament, read_settings
from scoring.problems import Problem
from scoring.rules import validate
from sheets_sync.presets import load_preset

NAMES = ["Алхимик", "Бармен", "Вольт", "Гроза", "Дюна", "Ёж", "Жасмин", "Зодчий", "Искра", "Лиса"]
OTHERS = ["Мираж", "Нептун", "Оникс", "Пилот", "Рубин", "Сапфир", "Тайфун", "Ураган", "Феникс", "Цезарь"]
RESERVE = "Запасной"
TAB = "Тур 1 Стол 1"
COL = {"player": "B", "role": "C", "fouls": "D", "killed": "E", "voted": "F", "removal": "G", "best": "H", "extra": "I"}

# a valid game won by red: 1 civ shot night 1 (best move 2 6 8), 2 mafia voted day 2, 4 sheriff shot
# night 2, 6 don voted day 3, 3 civ shot night 3, 8 mafia voted day 4 -> no blacks left
ROLES = ["мирный", "мафия", "мирный", "шериф", "мирный", "дон", "мирный", "мафия", "мирный", "мирный"]
RED_GAME = {"E10": 1, "H10": "2 6 8", "F11": 2, "E13": 2, "F15": 3, "E12": 3, "F17": 4, "I16": 0.3}


def cell(seat: int, column: str) -> str:
    return f"{COL[column]}{9 + seat}"


def protocol_grid(names=NAMES, roles=ROLES, *, stage="Отбор", round_no=1, table=1, winner="Мирные") -> list[list]:
    rows: list[list] = [
        ["Протокол игры"],
        ["Этап", stage],
        ["Тур", round_no],
        ["Стол", table],
        ["Судья", "Судья Анна"],
        ["Победа", winner],
        ["Проверил"],
        [],
        ["№", "Игрок", "Роль", "Фолы", "Убит ночью", "Заголосован днём", "Удалён", "ЛХ", "Доп. баллы", "Комментарий"],
    ]
    for s in range(1, 11):
        rows.append([s, names[s - 1], roles[s - 1]])
    return rows


def workbook(edits: Mapping[str, object] | None = None, *, base: Mapping[str, object] = RED_GAME,
             extra_tabs: Mapping[str, list[list]] | None = None, winner: str = "Мирные", seating: bool = True) -> MemoryBackend:
    tabs: dict[str, list[list]] = {
        "Турнир": [["Название", "Тест"], ["Регламент", "gmo-2016"], ["Язык", "ru"]],
        "Игроки": [["Игрок", "Клуб", "Город", "Статус", "Пропуск"]]
        + [[n, "", "", "", None] for n in NAMES + OTHERS] + [[RESERVE, "", "", "запасной", None]],
        "Рассадка": [["Этап", "Тур", "Стол", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]]
        + ([["Отбор", 1, 1, *NAMES], ["Отбор", 1, 2, *OTHERS]] if seating else []),
        "Штрафы": [["Игрок", "Этап", "Тур", "Причина", "Опоздание, мин", "Баллы"]],
        TAB: protocol_grid(winner=winner),
    }
    tabs.update(extra_tabs or {})
    backend = MemoryBackend(tabs)
    for ref, value in {**base, **(edits or {})}.items():
        sheet, _, a1 = ref.rpartition("!")
        backend.set(sheet or TAB, a1, value)
    return backend


def run(backend: MemoryBackend) -> list[Problem]:
    """Every reading and rule problem of the workbook (what the sync computes, minus the standings)."""
    snapshot = backend.read()
    settings = read_settings(snapshot.tabs)
    preset, _ = load_preset(settings.preset_id or "gmo-2016")
    parsed = parse_tournament(snapshot.tabs, snapshot.order, preset, settings)
    return list(parsed.problems) + validate(parsed.tournament, preset, parsed.unplaced)


def parse(backend_or_tabs):
    """The protocol of the tab ``TAB`` under GMO 2016 and its reading problems as (rule, severity, cell)."""
    snapshot = backend_or_tabs.read() if hasattr(backend_or_tabs, "read") else MemoryBackend(backend_or_tabs).read()
    settings = read_settings(snapshot.tabs)
    parsed = parse_tournament(snapshot.tabs, snapshot.order, load_preset("gmo-2016")[0], settings)
    protocol = next((p for p in parsed.tournament.protocols if p.sheet == TAB), None)
    return protocol, [(p.rule, p.severity.value, p.cell) for p in parsed.problems if p.sheet == TAB]


def problems_in(problems: list[Problem], tab: str = TAB) -> list[tuple[str, str, str, str, str]]:
    """(rule, severity, cell, english, russian) of every problem pointing into ``tab``, in cell order."""
    return sorted(((p.rule, p.severity.value, p.cell, p.message("en"), p.message("ru"))
                   for p in problems if p.sheet == tab), key=lambda x: (parse_a1(x[2]), x[0]))

# a valid game won by black: 1 shot night 1, 3 voted day 2, 4 shot night 2, 5 voted day 3 -> 3 red, 3 black
BLACK_GAME = {"E10": 1, "H10": "2 6 8", "F12": 2, "E13": 2, "F14": 3}
# a game still going at four players (4 sheriff, 8 mafia, 9 and 10 civilians) at the start of day 5
BASE4 = {"E10": 1, "F11": 2, "E12": 2, "F15": 3, "E14": 3, "F16": 4}
