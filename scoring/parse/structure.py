"""The tabs the reading cannot do without, and which present tab looks like a missing one.

Without the Tournament tab the sync knows neither the preset nor the language, and without the
Players tab every typed name is unknown: what it would compute from such a workbook is an empty
tournament, not this one (issue 42 §5).  :func:`missing_tabs` says which of them is gone and,
for each, the present tab that looks like it — a tab renamed by a copy («Турнир (копия)», «Copy of
Players»), a typo («Игрки»), a number added («Tournament1»), or a tab of another name that holds
the same content (the Tournament tab's labels, the Players tab's header row).  Only tabs the
reading does not know already are candidates; each is named for one missing tab at most.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from scoring import labels as L
from scoring.model import Location
from scoring.names import fold, nearest
from scoring.problems import Problem, Severity, Text, problem
from scoring.parse.grid import Grid, _find_header_row, find_tab
from scoring.parse.kinds import is_protocol_grid
from scoring.parse.settings import read_settings

__all__ = ["REQUIRED_TABS", "MissingTab", "missing_tabs", "workbook_language"]

# the tabs without which the reading would make up another tournament
REQUIRED_TABS = ("tournament", "players")
# what a missing tab costs, said after its name (the sync then stops)
_WITHOUT = {
    "tournament": Text("без неё синхронизация не знает ни регламента, ни языка турнира",
                       "without it the sync knows neither the preset nor the language of the tournament"),
    "players": Text("без неё ни одно имя в протоколах не узнать", "without it no name in the protocols can be known"),
}


@dataclass(frozen=True, slots=True)
class MissingTab:
    """A tab the reading needs (``key`` of :data:`scoring.labels.TABS`) that is not there, and the
    present tab that looks like it (None when none does)."""

    key: str
    lookalike: str | None = None

    def problem(self) -> Problem:
        ru, en = L.TABS[self.key]
        tab = Text(ru, en)
        if self.lookalike is None:
            return problem("read.required_tab", Severity.ERROR, None, tab=tab, without=_WITHOUT[self.key])
        return problem("read.tab_renamed", Severity.ERROR, Location(self.lookalike, "A1"), tab=tab,
                       lookalike=self.lookalike)


def missing_tabs(tabs: Mapping[str, Grid], order: Sequence[str], owned: Collection[str]) -> tuple[MissingTab, ...]:
    """The tabs of :data:`REQUIRED_TABS` the workbook lacks, each with its look-alike (``owned``:
    normalised titles of the tabs the sync writes, never a look-alike)."""
    wanted = [key for key in REQUIRED_TABS if find_tab(tabs, key) is None]
    if not wanted:
        return ()
    candidates = _unknown_tabs(tabs, order, owned)
    found: list[MissingTab] = []
    for key in wanted:
        lookalike = _lookalike(key, tabs, candidates)
        if lookalike is not None:
            candidates.remove(lookalike)
        found.append(MissingTab(key, lookalike))
    return tuple(found)


def _unknown_tabs(tabs: Mapping[str, Grid], order: Sequence[str], owned: Collection[str]) -> list[str]:
    """Tabs the reading knows nothing of: not one of :data:`scoring.labels.TABS` by title, not
    owned by the sync, not a protocol tab."""
    known = {L.norm(t) for titles in L.TABS.values() for t in titles} | set(owned)
    return [title for title in order if title in tabs and L.norm(title) not in known
            and not is_protocol_grid(tabs[title], title)]


def _lookalike(key: str, tabs: Mapping[str, Grid], candidates: Sequence[str]) -> str | None:
    """The candidate most like tab ``key``: one holding its content and named like it, then one
    holding its content, then one named like it (the first in the workbook's order)."""
    holding = [title for title in candidates if _holds(key, tabs[title])]
    named = [title for title in candidates if _named_like(key, title)]
    for group in ([t for t in holding if t in named], holding, named):
        if group:
            return group[0]
    return None


def _named_like(key: str, title: str) -> bool:
    """«Турнир (копия)», «Копия Турнир», «Tournament1» (the name inside it) or «Игрки» (a typo:
    the edit distance :func:`scoring.names.nearest` allows a typed player's name)."""
    names = L.TABS[key]
    probe = fold(title)
    return any(fold(name) in probe for name in names) or bool(nearest(title, names, limit=1))


def _holds(key: str, grid: Grid) -> bool:
    """The grid holds what tab ``key`` holds: two of the Tournament tab's labels down its first
    column, or the Players tab's header row (with «Игрок» and none of the Penalties tab's own)."""
    if key == "tournament":
        labels = {L.norm(w): k for k, words in L.TOURNAMENT_LABELS.items() for w in words}
        return len({labels[L.norm(row[0])] for row in grid if row and L.norm(row[0]) in labels}) >= 2
    if key == "players":
        return _find_header_row(grid, L.PLAYER_COLUMNS, ("player",)) is not None \
            and _find_header_row(grid, L.PENALTY_COLUMNS, ("player", "reason")) is None
    return False


def workbook_language(tabs: Mapping[str, Grid], settings_tab: str | None) -> str:
    """The workbook's language while its Tournament tab is missing: the «Язык» of the tab that
    looks like it (``settings_tab``), else the language the sync's own tabs are titled in, else ru."""
    if settings_tab is not None:
        return read_settings({L.TABS["tournament"][0]: tabs[settings_tab]}).language
    titles = {L.norm(t) for t in tabs}
    english = sum(L.norm(en) in titles for key, (ru, en) in L.TABS.items() if key in L.OWNED_TABS)
    russian = sum(L.norm(ru) in titles for key, (ru, en) in L.TABS.items() if key in L.OWNED_TABS)
    return "en" if english > russian else "ru"
