"""What the players' messages say (in Russian, the workbook's language) and which a sync's seating
calls for: pure functions of the seating and the preset's stages, no database.

Each message comes with its key's tail (the outbox makes it unique with the tournament and the
application): ``seat:<stage>:<round>`` for a round's table and seat, ``through:<stage>`` for a
later stage reached (the last stage's says who sits at the final table and where the results are).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

__all__ = ["Planned", "state_text", "seat_plan", "seat_text", "linked_text", "STOPPED", "UNKNOWN_CODE", "HELP"]

STOPPED = "Сообщения о турнирах остановлены. Чтобы снова их получать, откройте ссылку из подтверждения заявки."
UNKNOWN_CODE = "Код не найден. Откройте ссылку из подтверждения заявки ещё раз."
HELP = ("Этот бот присылает стол и место на каждый тур. Чтобы связать его с заявкой, откройте ссылку из "
        "подтверждения заявки. /stop — больше не присылать сообщений.")


@dataclass(frozen=True)
class Planned:
    """A message a sync's seating calls for, to the player ``nickname``."""

    nickname: str
    kind: str  # seat / through / final
    key: str  # the key's tail: seat:<stage>:<round> / through:<stage>
    text: str
    params: dict = field(default_factory=dict)


def _title(title: str) -> str:
    return f"«{title}»" if title else "турнира"


def state_text(title: str, old: str, new: str) -> str | None:
    """The message of an application's new state (``ApplicationState`` values), None when none is due."""
    where = f"на турнир {_title(title)}"
    if old == "waiting" and new in ("submitted", "confirmed", "paid"):
        return f"Освободилось место: ваша заявка {where} вышла из листа ожидания и теперь в списке участников."
    return {
        "submitted": f"Ваша заявка {where} получена и ждёт подтверждения организатора.",
        "confirmed": f"Ваша заявка {where} подтверждена.",
        "paid": f"Оплата получена: вы зарегистрированы {where}.",
        "waiting": f"Мест {where} пока нет: вы в листе ожидания. Если место освободится, мы сразу напишем.",
        "withdrawn": f"Ваша заявка {where} снята.",
    }.get(new)


def seat_text(title: str, stage_name: str, several_stages: bool, round_no: int, table: int, seat: int, *,
              changed: bool = False) -> str:
    stage = f"{stage_name}, " if several_stages else ""
    head = "Рассадка изменилась. " if changed else ""
    name = f"«{title}»" if title else "Турнир"
    return f"{head}{name}: {stage}тур {round_no} — стол {table}, место {seat}."


def linked_text(title: str) -> str:
    return (f"Готово: сюда будут приходить стол и место на каждый тур турнира {_title(title)}. "
            "/stop — больше не присылать.")


def _through_text(title: str, stage_name: str, last: bool, table: tuple[str, ...], link: str | None) -> str:
    if not last:
        return f"Поздравляем: вы прошли в этап «{stage_name}» турнира {_title(title)}!"
    names = ", ".join(f"{n}. {p}" for n, p in enumerate(table, 1) if p)
    tail = f"\nРезультаты: {link}" if link else ""
    return f"Поздравляем: вы в этапе «{stage_name}» турнира {_title(title)}!\nСтол этапа: {names}.{tail}"


def _due_rounds(entries: list, played: set[tuple[str, int, int]]) -> set[tuple[str, int]]:
    """The rounds a player is told about now: a stage's first round as soon as it is seated, a
    later one when every game of the round before it is played — one message as his round comes,
    not the stage's seven at the draw."""
    tables: dict[tuple[str, int], set[tuple[str, int, int]]] = {}
    for e in entries:
        tables.setdefault((e.stage, e.round), set()).add((e.stage, e.round, e.table))
    due: set[tuple[str, int]] = set()
    for stage in {e.stage for e in entries}:
        rounds = sorted(r for s, r in tables if s == stage)
        due.add((stage, rounds[0]))
        due.update((stage, later) for before, later in zip(rounds, rounds[1:]) if tables[(stage, before)] <= played)
    return due


def seat_plan(title: str, seating: Iterable, stages: list[tuple[str, str]], *, played: set[tuple[str, int, int]],
              link: str | None = None) -> list[Planned]:
    """The messages a seating calls for: each seated player's table and seat in the rounds that
    are due and not yet played (``played``: (stage, round, table) of the finished games; see
    :func:`_due_rounds`), and for a later stage the news that he reached it (in the order of the
    stages, the news first).

    ``seating``: :class:`scoring.model.SeatingEntry` items; ``stages``: the preset's (key, name)."""
    order = {key: n for n, (key, _) in enumerate(stages)}
    names = dict(stages)
    several = len(stages) > 1
    entries = sorted((e for e in seating if e.stage in order), key=lambda e: (order[e.stage], e.round, e.table))
    due = _due_rounds(entries, played)
    plans: list[Planned] = []
    reached: set[tuple[str, str]] = set()
    for entry in entries:
        told = (entry.stage, entry.round) in due and (entry.stage, entry.round, entry.table) not in played
        for seat, nickname in enumerate(entry.players, 1):
            if not nickname:
                continue
            if order[entry.stage] > 0 and (nickname, entry.stage) not in reached:
                reached.add((nickname, entry.stage))
                last = order[entry.stage] == len(stages) - 1
                plans.append(Planned(nickname, "final" if last else "through", f"through:{entry.stage}",
                                     _through_text(title, names[entry.stage], last, entry.players, link)))
            if told:
                plans.append(Planned(nickname, "seat", f"seat:{entry.stage}:{entry.round}",
                                     seat_text(title, names[entry.stage], several, entry.round, entry.table, seat),
                                     {"table": entry.table, "seat": seat}))
    return plans
