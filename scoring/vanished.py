"""What the workbook lost since the last sync: a counted game's tab, the Seating tab.

A deleted protocol tab takes its game out of the standings, and a deleted Seating tab takes the
plan of the games (and with it the check that players sit at their tables, and the next draw):
read from the workbook alone, both look like a smaller tournament, not a damaged one — the
counts drop from «38 из 38» to «37 из 37» and nothing is said (issue 42 §5).  The last sync knew
which games counted and whether there was a seating (:class:`LastSync`, kept by the edges with
that sync's record); :func:`vanished` compares it with this read and names what is gone.

A game whose tab is gone is named as long as the seating still plans it (or the seating itself
is gone): the standings lack it until the tab is back.  A game nobody plans any more is named
once, in the first sync that misses it — a game deleted on purpose is not an error forever.
Pure.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from scoring.preset import Preset
from scoring.problems import Problem, Severity, Text, problem

__all__ = ["CountedGame", "LastSync", "Vanished", "vanished", "counted_games"]

Key = tuple[str, int, int]  # (stage, round, table), as Protocol.key


@dataclass(frozen=True, slots=True)
class CountedGame:
    """A game the last sync counted (or named as gone), and the tab it was read from."""

    tab: str
    stage: str
    round: int
    table: int

    @property
    def key(self) -> Key:
        return (self.stage, self.round, self.table)


@dataclass(frozen=True, slots=True, kw_only=True)
class LastSync:
    """What the last sync's record says the workbook had."""

    games: tuple[CountedGame, ...] = ()
    seating: bool = False  # a Seating tab was there (or was named as gone)
    planned: int = 0  # the games planned then (seated or played)


@dataclass(frozen=True, slots=True, kw_only=True)
class Vanished:
    """What is gone since the last sync, and what the next sync must still remember of it."""

    games: tuple[CountedGame, ...] = ()  # named now: the tab is gone and the game not counted elsewhere
    remembered: tuple[CountedGame, ...] = ()  # still to be named by the next sync
    seating: bool = False  # the Seating tab is gone since a sync that had one
    planned: int = 0  # the plan the last sync knew (what the counts keep while the seating is gone)

    def unplanned(self, planned: Collection[Key]) -> int:
        """Gone games this read does not plan any more (each still one game of the tournament)."""
        return sum(1 for g in self.games if g.key not in planned)


def vanished(last: LastSync | None, tabs: Collection[str], counted: Collection[Key], seated: Collection[Key],
             seating_tab: bool, preset: Preset) -> tuple[Vanished, list[Problem]]:
    """What is gone since ``last`` in a workbook of ``tabs`` (titles) whose ``counted`` and
    ``seated`` games are known, and the problems that name it (the Seating tab first)."""
    if last is None:
        return Vanished(), []
    seating_gone = last.seating and not seating_tab
    gone = tuple(g for g in dict.fromkeys(last.games) if g.tab not in tabs and g.key not in counted)
    kept = tuple(g for g in gone if seating_gone or g.key in seated)
    found: list[Problem] = []
    if seating_gone:
        found.append(problem("seating.tab_gone", Severity.WARNING, None, tab=Text("Рассадка", "Seating")))
    by_tab: dict[str, list[CountedGame]] = {}
    for g in gone:
        by_tab.setdefault(g.tab, []).append(g)
    found += [_tab_gone(tab, games, preset) for tab, games in by_tab.items()]
    return Vanished(games=gone, remembered=kept, seating=seating_gone, planned=last.planned), found


def _tab_gone(tab: str, games: list[CountedGame], preset: Preset) -> Problem:
    named = [_game_name(g, preset) for g in games]
    ru, en = ", ".join(n.ru for n in named), ", ".join(n.en for n in named)
    if len(games) == 1:
        what = Text(f"её игра {ru} при прошлой синхронизации была засчитана; теперь она не засчитана",
                    f"its game {en}, counted at the last sync, no longer counts")
        restore = Text("игру", "the game")
    else:
        what = Text(f"её игры ({ru}) при прошлой синхронизации были засчитаны; теперь они не засчитаны",
                    f"its games ({en}), counted at the last sync, no longer count")
        restore = Text("игры", "the games")
    return problem("game.tab_gone", Severity.ERROR, None, tab=tab, what=what, restore=restore)


def _game_name(g: CountedGame, preset: Preset) -> Text:
    ru, en = g.stage, g.stage
    if g.stage in preset.stage_keys:
        stage = preset.stage(g.stage)
        ru, en = stage.name_ru, stage.name_en
    return Text(f"{ru} тур {g.round} стол {g.table}", f"{en} round {g.round} table {g.table}")


def counted_games(protocols: Iterable) -> tuple[CountedGame, ...]:
    """The counted games as the record keeps them (``protocols``: :class:`~scoring.model.Protocol`)."""
    return tuple(CountedGame(p.sheet, p.stage, p.round, p.table) for p in protocols)
