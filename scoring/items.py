"""Point items: everything a player can get from one game, each declared once.

An :class:`Item` says its key, its name in both languages, how it is computed for one
seat of a counted protocol, the numbers of the preset it reads (its :class:`Value` s: each
one ``points.<key>`` in a preset file), the word a nomination formula uses for it, and
whether it has a column of its own on the Standings tab.  :data:`ITEMS` lists them in
display order; the game lines, the site's tables, the Standings tab, the nominations and the
preset loader (which declares each item's values as settings: checked, typed on the
Tournament tab, documented) all read it, so a new kind of point is one more entry here.

A :class:`GameLine` is what one player got from one game: the items before the stage
coefficient, and Ci apart.  Ci (:mod:`scoring.ci`) is the one item that is not a finite
decimal (0.4·1/3): it is kept as an exact :class:`~fractions.Fraction` (``GameLine.ci``),
set after all games are scored because it depends on the player's whole stage group.
``GameLine.item("ci")`` and ``GameLine.total`` show it rounded for display;
``GameLine.exact_total`` is the exact value that sums and rankings use.

The items read the preset through :class:`PointValues`, so this module imports no preset
and the preset loader can take the nomination vocabulary (:data:`NOMINATION_COMPONENTS`)
and the items' values (:data:`ITEM_VALUES`) from here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Protocol as Interface  # a plain Protocol here is a game's protocol

from scoring.model import Protocol, Removal, Role, SeatRecord, Team
from scoring.numbers import quantize

__all__ = ["PointValues", "Seat", "Column", "Value", "Item", "ITEMS", "ITEM", "ITEM_VALUES", "CI", "TOTAL",
           "NOMINATION_COMPONENTS", "GameLine", "breakdown_items", "blacks_named", "best_move_seats", "BestMoveAuthor", "BEST_MOVE_AUTHORS",
           "may_name_best_move"]

ZERO = Decimal(0)
CI = "ci"  # the exact item: kept on GameLine.ci, never in GameLine.items
TOTAL = "total"  # the nomination component that sums every item of a game


class Switch(Interface):
    """A rule a preset turns on or off (``Preset.ci``)."""

    @property
    def enabled(self) -> bool: ...


class PointValues(Interface):
    """What the items read from a preset (:class:`scoring.preset.Preset` has all of it)."""

    @property
    def auto_extra(self) -> Decimal: ...
    @property
    def removal(self) -> Decimal: ...
    @property
    def team_defeat(self) -> Decimal: ...
    @property
    def ci(self) -> Switch: ...
    @property
    def best_move_by(self) -> tuple[str, ...]: ...
    def best_move_points(self, blacks_named: int) -> Decimal: ...
    def point(self, key: str) -> Decimal: ...  # an item's value: ``points.<key>`` (see Value)


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of a counted protocol, as an item sees it."""

    protocol: Protocol
    record: SeatRecord
    won: bool
    preset: PointValues


@dataclass(frozen=True, slots=True)
class Column:
    """An item's own column on the Standings tab: header and width."""

    name_ru: str
    name_en: str
    width: int

    def name(self, language: str) -> str:
        return self.name_en if language == "en" else self.name_ru


@dataclass(frozen=True, kw_only=True, slots=True)
class Value:
    """A number of the preset that an item reads, declared with the item: ``points.<key>`` in a
    preset file, read by ``preset.point(key)``.  The loader turns it into a setting (a decimal
    in low … high, checked, typed on the Tournament tab as one of ``aliases``, documented)."""

    key: str
    doc: str
    default: Decimal | str = Decimal(0)  # a number, or the key of the points value it defaults to ("win")
    low: Decimal = Decimal(-10)
    high: Decimal = Decimal(10)
    aliases: tuple[str, ...] = ()  # Tournament-tab spellings, normalised (lower case, е for ё, no spaces)


@dataclass(frozen=True, kw_only=True, slots=True)
class Item:
    """One point item.  A new item is one more entry in :data:`ITEMS`: the game lines, the
    site's breakdown tables, the nominations, the preset loader's formula check and the
    settings of its ``values`` follow; give it a ``column`` when the Standings tab should show
    its sum while a preset scores it."""

    key: str
    name_ru: str  # short, for the breakdown tables of the site
    name_en: str
    # the item's points for one seat before the coefficient; None: it does not occur in that game.
    # An item without `score` is the exact Ci, which scoring.ci sets once all games are known.
    score: Callable[[Seat], Decimal | None] | None
    nomination: str | None  # the word a nomination formula uses for it; None: not a component
    shown_at_zero: bool = False  # a breakdown column even when every game scored 0 (a loss is worth 0)
    # a column of its own on the Standings tab (the fixed columns there cover the other items)
    column: Column | None = None
    scored_by: Callable[[PointValues], bool] = lambda preset: True  # whether a preset scores it at all
    values: tuple[Value, ...] = ()  # the numbers of the preset it reads beyond the core ones (points.win, …)

    def name(self, language: str) -> str:
        return self.name_en if language == "en" else self.name_ru


# -- how each item is computed ------------------------------------------------------------------
def best_move_seats(record: SeatRecord) -> frozenset[int] | None:
    """The seats a best move is scored by: the distinct seats named other than the author's own.
    A judge's «5 7 10» in the row of seat 10, or a best move of one or two seats, is scored by
    the blacks among the other seats named (the clubs' practice); None when it cannot be scored
    at all (a seat outside 1–10, or more than three other seats)."""
    named = frozenset(record.best_move) - {record.seat}
    return named if len(named) <= 3 and named <= _SEATS else None


_SEATS = frozenset(range(1, 11))


def blacks_named(protocol: Protocol, record: SeatRecord) -> int:
    """The blacks among the seats a best move is scored by (none when it cannot be scored)."""
    roles = {s.seat: s.role for s in protocol.seats}
    return sum(1 for seat in best_move_seats(record) or () if roles.get(seat) in (Role.MAFIA, Role.DON))


@dataclass(frozen=True, slots=True)
class BestMoveAuthor:
    """Who may leave a best move (``points.best_move_by`` lists their keys)."""

    key: str
    name_ru: str  # as a message names him: "только {name}"
    name_en: str
    leaves: Callable[[SeatRecord], bool]


# the FIIM rule (the player shot on the first shooting night) and the one some leagues add (the
# player voted out on the first day: day 1 of the protocol, which those leagues call day 0)
BEST_MOVE_AUTHORS: Mapping[str, BestMoveAuthor] = {a.key: a for a in (
    BestMoveAuthor("shot_first", "убитый в первую ночь", "the player shot on the first night",
                   lambda record: record.killed_night == 1),
    BestMoveAuthor("voted_first_day", "заголосованный в первый день", "a player voted out on the first day",
                   lambda record: record.voted_day == 1),
)}


def may_name_best_move(record: SeatRecord, authors: Iterable[str]) -> bool:
    """The player of ``record`` is one of the ``authors`` (keys of :data:`BEST_MOVE_AUTHORS`)."""
    return any(BEST_MOVE_AUTHORS[a].leaves(record) for a in authors)


def _best_move(seat: Seat) -> Decimal:
    """Only a red player who may leave one (shot first; voted out on the first day where the
    preset allows it), by the blacks among the other seats named (:func:`best_move_seats`)."""
    record = seat.record
    if (record.role is None or record.role.team is not Team.RED
            or not may_name_best_move(record, seat.preset.best_move_by)):
        return ZERO
    if not best_move_seats(record):
        return ZERO
    return seat.preset.best_move_points(blacks_named(seat.protocol, record))


def _auto_extra(seat: Seat) -> Decimal | None:
    """Every player, every game, unless the judge took them away."""
    if seat.preset.auto_extra and not seat.record.auto_extra_taken:
        return seat.preset.auto_extra
    return None


_TEAMS = {Team.RED: "красные", Team.BLACK: "черные"}
_ROLES = {Role.DON: "дон", Role.SHERIFF: "шериф", Role.MAFIA: "мафия", Role.CIVILIAN: "мирный"}
_RESULT = {True: ("win", "победа"), False: ("loss", "поражение")}


def _team_key(team: Team, won: bool) -> str:
    return f"{_RESULT[won][0]}_{team.value}"  # win_red, loss_black


def _role_key(role: Role, won: bool) -> str:
    return f"role_{_RESULT[won][0]}_{role.value}"  # role_win_don, role_loss_sheriff


def _win(seat: Seat) -> Decimal:
    """Every member of the winning team: the team's win points (a loss is worth 0 here)."""
    return seat.preset.point(_team_key(seat.record.role.team, True)) if seat.won else ZERO


def _loss(seat: Seat) -> Decimal | None:
    """Every member of the losing team: the team's loss points; it occurs only where they are not 0."""
    if seat.won:
        return None
    return seat.preset.point(_team_key(seat.record.role.team, False)) or None


def _role(seat: Seat) -> Decimal | None:
    """The bonus (or penalty) of the player's role for his team's win or loss; it occurs only
    where the preset gives one (don and sheriff ±0.5 in some leagues)."""
    return seat.preset.point(_role_key(seat.record.role, seat.won)) or None


def _scores_loss(preset: PointValues) -> bool:
    return any(preset.point(_team_key(team, False)) for team in Team)


def _scores_role(preset: PointValues) -> bool:
    return any(preset.point(_role_key(role, won)) for role in Role for won in (True, False))


def _removal(seat: Seat) -> Decimal | None:
    if seat.record.removal is Removal.REMOVED:
        return seat.preset.removal
    if seat.record.removal is Removal.TEAM_DEFEAT:
        return seat.preset.team_defeat
    return None


# -- the registry, in display order -------------------------------------------------------------
ITEMS: tuple[Item, ...] = (
    Item(key="win", name_ru="Победа", name_en="Win", score=_win, nomination="win", shown_at_zero=True,
         values=tuple(Value(key=_team_key(team, True), doc=f"every member of the winning {team.value} team",
                            default="win", low=Decimal(0), aliases=(f"победа.{ru}",)) for team, ru in _TEAMS.items())),
    Item(key="loss", name_ru="Поражение", name_en="Loss", score=_loss, nomination="loss",
         column=Column("За поражения", "Loss points", 9), scored_by=_scores_loss,
         values=tuple(Value(key=_team_key(team, False), doc=f"every member of the losing {team.value} team",
                            aliases=(f"поражение.{ru}",)) for team, ru in _TEAMS.items())),
    Item(key="role", name_ru="За роль", name_en="Role bonus", score=_role, nomination="role",
         column=Column("За роль", "Role bonus", 9), scored_by=_scores_role,
         values=tuple(Value(key=_role_key(role, won), doc=f"added to a {role.value}'s points when his team "
                            f"{'won' if won else 'lost'}", aliases=(f"роль.{_RESULT[won][1]}.{ru}",))
                      for won in (True, False) for role, ru in _ROLES.items())),
    Item(key="extra", name_ru="ДБ", name_en="Extra", score=lambda s: s.record.extra_points, nomination="extra"),
    Item(key="auto_extra", name_ru="Авто-ДБ", name_en="Auto extra", score=_auto_extra, nomination="auto_extra",
         column=Column("Автобаллы", "Auto extra", 9), scored_by=lambda preset: bool(preset.auto_extra)),
    Item(key="best_move", name_ru="ЛХ", name_en="Best move", score=_best_move, nomination="best_move"),
    # in a nomination "penalties" are the removals of those games (for MVP also the tournament penalties)
    Item(key="removal", name_ru="Удаление", name_en="Removal", score=_removal, nomination="penalties"),
    # a penalty of any value the judge typed in the seat's row («Штраф», with its reason): club protocols
    Item(key="penalty", name_ru="Штраф", name_en="Penalty", score=lambda s: s.record.penalty or None,
         nomination="seat_penalties"),
    Item(key=CI, name_ru="Ci", name_en="Ci", score=None, nomination="ci",
         column=Column("Ci", "Ci", 8), scored_by=lambda preset: preset.ci.enabled),
)
ITEM: Mapping[str, Item] = {item.key: item for item in ITEMS}
# every item's values in display order (the preset loader declares each as points.<key>)
ITEM_VALUES: tuple[Value, ...] = tuple(v for item in ITEMS for v in item.values)
# the components a nomination formula may name (the preset loader checks formulas against them)
NOMINATION_COMPONENTS: frozenset[str] = frozenset({i.nomination for i in ITEMS if i.nomination} | {TOTAL})


# -- what one player got from one game ----------------------------------------------------------
@dataclass(frozen=True, kw_only=True, slots=True)
class GameLine:
    """What one player got from one game."""

    sheet: str
    stage: str
    round: int
    table: int
    seat: int
    player: str
    role: Role
    won: bool
    shot_first: bool
    recognised_best: bool  # judge's extra points > 0
    items: Mapping[str, Decimal] = field(default_factory=dict)  # before the coefficient; never "ci"
    coefficient: Decimal = Decimal(1)
    substitute: bool = False  # a reserve player's seat: earns nobody points
    ci: Fraction = Fraction(0)  # exact Ci this game carries now, before any coefficient
    ci_coefficient: Decimal = Decimal(1)  # what Ci is multiplied by (the stage coefficient, or 1)

    @property
    def raw(self) -> Decimal:
        """Decimal items before the coefficient (Ci excluded: it is not a finite decimal)."""
        return sum(self.items.values(), ZERO)

    @property
    def ci_points(self) -> Fraction:
        """Ci as it counts, exact (× the coefficient when the preset says so)."""
        return self.ci * Fraction(self.ci_coefficient) if self.ci else Fraction(0)

    @property
    def exact_total(self) -> Fraction:
        return Fraction(self.raw * self.coefficient) + self.ci_points

    @property
    def total(self) -> Decimal:
        """The game's points for display: exact unless Ci is involved, then Ci rounded half up."""
        base = self.raw * self.coefficient
        if not self.ci:
            return base
        return base + quantize(self.ci_points)

    def has(self, key: str) -> bool:
        """The item occurs in this game (Ci: when it is not 0)."""
        return bool(self.ci) if key == CI else key in self.items

    def breakdown(self) -> dict[str, Decimal]:
        """Every item of this game × coefficient, Ci included (rounded for display), in ITEMS order."""
        return {i.key: self.item(i.key) for i in ITEMS if self.has(i.key)}

    def item(self, key: str) -> Decimal:
        """One item × coefficient, for display (Ci rounded half up)."""
        if key == CI:
            return quantize(self.ci_points) if self.ci else ZERO
        return self.items.get(key, ZERO) * self.coefficient

    def before_coefficient(self, key: str) -> Fraction:
        """One item before the coefficient, exact (what nominations sum)."""
        return self.ci if key == CI else Fraction(self.items.get(key, ZERO))


def breakdown_items(lines: Iterable[GameLine]) -> tuple[Item, ...]:
    """The items a table of these games shows, in display order: those worth points in some
    game, and those shown even at 0 when they occur at all."""
    lines = tuple(lines)
    return tuple(i for i in ITEMS
                 if any(ln.has(i.key) and (i.shown_at_zero or ln.before_coefficient(i.key)) for ln in lines))
