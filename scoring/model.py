"""Typed, frozen objects of a tournament: players, seating, protocols, penalties.

Everything here is built by :mod:`scoring.parse` from raw cells and carries the
location (tab and cell) it came from, so that every later problem can point a judge
at the exact cell to fix.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal

from scoring.cells import a1, parse_a1

__all__ = [
    "Dispute",
    "DisputeStatus",
    "Team",
    "Role",
    "PlayerStatus",
    "ApplicationState",
    "Application",
    "Removal",
    "Location",
    "Player",
    "Judge",
    "SeatingEntry",
    "SeatRecord",
    "Protocol",
    "GameIndex",
    "PenaltyReason",
    "PenaltyEntry",
    "Tournament",
]


class Team(enum.Enum):
    RED = "red"
    BLACK = "black"


class Role(enum.Enum):
    CIVILIAN = "civilian"
    SHERIFF = "sheriff"
    MAFIA = "mafia"
    DON = "don"

    @property
    def team(self) -> Team:
        return Team.BLACK if self in (Role.MAFIA, Role.DON) else Team.RED


class PlayerStatus(enum.Enum):
    PLAYING = "playing"
    WITHDRAWN = "withdrawn"
    DISQUALIFIED = "disqualified"
    RESERVE = "reserve"  # may substitute; never ranked; his games earn nobody points


class ApplicationState(enum.Enum):
    """A registration's state on the Players tab's «Заявка» (issue 45): who is in the tournament
    (``confirmed``, ``paid``) and who is not yet or no more (the rest)."""

    SUBMITTED = "submitted"  # подана: waits for the organizer's confirmation
    CONFIRMED = "confirmed"  # подтверждена
    PAID = "paid"  # оплачена
    WAITING = "waiting"  # лист ожидания: past the places, in the order applied
    WITHDRAWN = "withdrawn"  # снялась

    @property
    def takes_part(self) -> bool:
        """Whether a row in this state is a player of the tournament (seated, ranked)."""
        return self in (ApplicationState.CONFIRMED, ApplicationState.PAID)

    @property
    def holds_place(self) -> bool:
        """Whether the application counts against the places (a submitted one keeps its place
        until the organizer decides; the waiting and withdrawn do not)."""
        return self in (ApplicationState.SUBMITTED, ApplicationState.CONFIRMED, ApplicationState.PAID)


class Removal(enum.Enum):
    REMOVED = "removed"  # 4 fouls or disqualification from the game
    TEAM_DEFEAT = "team_defeat"  # ППК: removal and the other team is declared the winner


@dataclass(frozen=True, slots=True, order=True)
class Location:
    """Where a value was typed: tab title and A1 cell."""

    sheet: str
    cell: str

    def __str__(self) -> str:
        return f"'{self.sheet}'!{self.cell}"


class RowCells(Mapping[str, Location]):
    """The cells of one seat row by column key (``"player"``, ``"fouls"``…), each
    :class:`Location` made when asked for: a tournament's protocols hold 150,000 seat cells, and
    only the few with a problem are ever named."""

    __slots__ = ("sheet", "row", "columns")

    def __init__(self, sheet: str, row: int, columns: Mapping[str, int]) -> None:
        self.sheet, self.row, self.columns = sheet, row, columns  # row and columns 0-based

    def __getitem__(self, key: str) -> Location:
        return Location(self.sheet, a1(self.row, self.columns[key]))

    def __contains__(self, key: object) -> bool:
        return key in self.columns

    def __iter__(self) -> Iterator[str]:
        return iter(self.columns)

    def __len__(self) -> int:
        return len(self.columns)

    def __repr__(self) -> str:
        return f"RowCells({self.sheet!r}, row={self.row + 1}, {sorted(self.columns)})"


@dataclass(frozen=True, kw_only=True, slots=True)
class Player:
    nickname: str
    club: str = ""
    city: str = ""
    status: PlayerStatus = PlayerStatus.PLAYING
    excused_rounds: frozenset[int] = frozenset()
    mwt_id: int | None = None  # the player's id in the world tour (Players tab, «ID MWT»)
    location: Location | None = None
    team: str = ""  # the Players tab's «Команда» (team standings, the draw keeps teammates apart)
    # the Players tab's «Зачёт»: side classifications (women, juniors…), each spelled as first typed
    classifications: tuple[str, ...] = ()
    team_location: Location | None = None  # the «Команда» cell, when the column exists
    arrived: bool = False  # the Players tab's «Прибыл» ticked: checked in on the day (issue 45 §3)
    excused_location: Location | None = None  # the «Пропуск» cell, when the column exists (issue 45 §2)

    @property
    def ranked(self) -> bool:
        return self.status is not PlayerStatus.RESERVE


@dataclass(frozen=True, kw_only=True, slots=True)
class Application:
    """A Players-tab row with a «Заявка» state (issue 45): every such row, whether or not it is a
    player yet (``state.takes_part``); ``location`` is its nickname's cell, ``state_location`` the
    «Заявка» cell (where the organizer, the server and the sync read and write the state)."""

    nickname: str
    state: ApplicationState
    club: str = ""
    city: str = ""
    applied_at: datetime | None = None  # «Подана»: the waiting list's order (then the row's)
    arrived: bool = False  # «Прибыл»
    excused_rounds: frozenset[int] = frozenset()
    row: int = 0  # 0-based row of the Players tab
    location: Location | None = None
    state_location: Location | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class Judge:
    """A Players-tab row with the status «судья»: a judge listed for his MWT id, never a player."""

    nickname: str
    mwt_id: int | None = None
    location: Location | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class SeatingEntry:
    """One game of the Seating tab: who sits where at a table in a round of a stage."""

    stage: str  # preset stage key
    round: int
    table: int
    players: tuple[str | None, ...]  # seat 1..10; None = empty seat
    location: Location | None = None  # the row's round cell
    seat_locations: tuple[Location | None, ...] = ()  # the cell of each seat, when read from a sheet

    def seat_location(self, index: int) -> Location | None:
        """The cell of seat `index` (0-based), else the row's round cell."""
        if index < len(self.seat_locations) and self.seat_locations[index] is not None:
            return self.seat_locations[index]
        return self.location


@dataclass(frozen=True, kw_only=True, slots=True)
class SeatRecord:
    """One row of a protocol: a seat and what happened to the player sitting there."""

    seat: int
    player: str | None
    role: Role | None
    fouls: int = 0
    killed_night: int | None = None
    voted_day: int | None = None
    removal: Removal | None = None
    removal_day: int | None = None
    best_move: tuple[int, ...] = ()
    extra_points: Decimal = Decimal(0)
    auto_extra_taken: bool = False  # the judge took away automatic extra points (later editions)
    penalty: Decimal = Decimal(0)  # a penalty of any value the judge gave in this game (≤ 0; «Штраф» column)
    penalty_reason: str = ""  # what it was for («Причина штрафа»)
    comment: str = ""
    role_unread: bool = False  # something is typed in the role cell, and it is no role (its own error says so)
    cells: Mapping[str, Location] = field(default_factory=dict, compare=False, hash=False)

    @property
    def left_game(self) -> bool:
        return self.killed_night is not None or self.voted_day is not None or self.removal is not None


@dataclass(frozen=True, kw_only=True, slots=True)
class Protocol:
    """The judge's record of one game, as typed into a protocol tab or a block of one.

    A tab may hold several protocols stacked (an evening of a club season, a round's tables):
    each is a *block*, named by its tab and ``anchor`` (the cell of its first header label).
    A tab's only protocol has no anchor and is the whole tab, so its identity
    (:attr:`game_id`) is the tab title, as before blocks existed."""

    sheet: str
    anchor: str = ""  # A1 of the block's first header label; "" = the tab's only protocol
    rows: tuple[int, int] | None = None  # 0-based first and last row of the block; None = the whole tab
    date: date | None = None  # the evening's date (a protocol of an evening tab), else None
    stage: str
    round: int
    table: int
    judge: str = ""
    checked_by: str = ""
    winner: Team | None = None  # None = game not finished, or winner_text not understood
    winner_text: str = ""  # what the winner cell holds (kept so an unreadable winner is not "not finished")
    seats: tuple[SeatRecord, ...] = ()
    cells: dict[str, Location] = field(default_factory=dict, compare=False, hash=False)
    # a blank tab (docs/workbook.md): nothing but the pre-filled header and players — not a game yet
    blank: bool = False

    @property
    def key(self) -> tuple[str, int, int]:
        return (self.stage, self.round, self.table)

    @property
    def game_id(self) -> str:
        """The game's identity in every keyed output (trust, states, disputes): the tab title
        for a tab's only protocol, ``'title'!A12`` for a block of a tab that holds several."""
        return f"{self.sheet}!{self.anchor}" if self.anchor else self.sheet

    def holds(self, location: Location | None) -> bool:
        """The cell is in this protocol's tab and (for a block) between its first and last row."""
        if location is None or location.sheet != self.sheet:
            return False
        if self.rows is None:
            return True
        return self.rows[0] <= parse_a1(location.cell)[0] <= self.rows[1]

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def seat_of(self, nickname: str) -> SeatRecord | None:
        for record in self.seats:
            if record.player == nickname:
                return record
        return None

    @property
    def first_shot(self) -> SeatRecord | None:
        """The player shot on the first shooting night, or None after a miss."""
        for record in self.seats:
            if record.killed_night == 1:
                return record
        return None


class GameIndex:
    """Which protocol a cell belongs to: problems, marks and edits are per game, and a tab may
    hold several games.  Built once per list of protocols (a lookup is one tab's few blocks)."""

    def __init__(self, protocols: Iterable[Protocol]):
        self._by_sheet: dict[str, list[Protocol]] = {}
        for p in protocols:
            self._by_sheet.setdefault(p.sheet, []).append(p)

    def game_at(self, location: Location | None) -> str | None:
        """The :attr:`Protocol.game_id` of the protocol holding ``location``, or None."""
        if location is None:
            return None
        for p in self._by_sheet.get(location.sheet, ()):
            if p.holds(location):
                return p.game_id
        return None


class DisputeStatus(enum.Enum):
    OPEN = "open"  # the game is marked disputed everywhere
    ACCEPTED = "accepted"  # the game is cancelled: it does not count, its seats are not missed rounds
    REJECTED = "rejected"  # only listed


@dataclass(frozen=True, kw_only=True, slots=True)
class Dispute:
    """A row of the Disputes tab: a protest against one game (its protocol tab)."""

    game: str  # the protocol tab's title as typed
    filed_by: str = ""
    reason: str = ""
    status: DisputeStatus = DisputeStatus.OPEN
    location: Location | None = None  # the game cell


class PenaltyReason(enum.Enum):
    MISSED_ROUND = "missed_round"
    LATE = "late"
    OTHER = "other"


@dataclass(frozen=True, kw_only=True, slots=True)
class PenaltyEntry:
    """A row of the Penalties tab, or a penalty the sync derived (location None)."""

    player: str
    stage: str
    round: int | None
    reason: PenaltyReason
    minutes_late: int | None = None
    points: Decimal | None = None  # None = computed from the reason by the preset
    location: Location | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class Tournament:
    name: str
    preset_id: str
    language: str
    chief_judge: str = ""
    date: str = ""
    link: str = ""  # the Tournament tab's «Ссылка»: where the full results are (every VK post ends with it)
    season: bool = False  # a club season (the Tournament tab's «Формат: сезон»): evenings, no stages, no draw
    players: tuple[Player, ...] = ()
    seating: tuple[SeatingEntry, ...] = ()
    protocols: tuple[Protocol, ...] = ()
    penalties: tuple[PenaltyEntry, ...] = ()
    overrides: tuple[tuple[str, str, Location | None], ...] = ()  # (key, raw value, where)
    released: frozenset[str] = frozenset()  # stage keys confirmed/released by the chief judge
    confirmed_stages: frozenset[str] = frozenset()  # stage keys the chief judge confirmed («Этап подтверждён»)
    judges: tuple[Judge, ...] = ()  # Players-tab rows with the status «судья»
    mwt_id: int | None = None  # the tournament's id in the world tour (Tournament tab, «ID турнира MWT»)
    disputes: tuple[Dispute, ...] = ()
    # protocol tabs that need a second judge's confirmation and do not have it (or were edited after it)
    unconfirmed: frozenset[str] = frozenset()
    # protocol tabs edited after a confirmation (now, or before they were confirmed again)
    edited_after_confirmation: frozenset[str] = frozenset()
    # ratings a club already has, typed on the Players tab (read when the preset has [rating]):
    # (nickname, overall, red, black) as shown (1023.4), None where a column is blank
    rating_starts: tuple[tuple[str, Decimal | None, Decimal | None, Decimal | None], ...] = ()
    # registration (issue 45): every row with a «Заявка» state, in the tab's order (the rows whose
    # state does not take part are not in ``players``), and the Tournament tab's registration
    # settings; the times are naive, in ``time_zone`` ("" = the server's own)
    applications: tuple[Application, ...] = ()
    places: int | None = None
    registration_until: datetime | None = None
    starts_at: datetime | None = None
    draw_at: datetime | None = None
    time_zone: str = ""
    _by_nickname: dict[str, Player] = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)
    _reserves: frozenset[str] = field(default=frozenset(), init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        # a dict for lookups by nickname: validation and rendering ask once per seat and per player
        by_nickname: dict[str, Player] = {}
        for p in self.players:
            by_nickname.setdefault(p.nickname, p)
        object.__setattr__(self, "_by_nickname", by_nickname)
        # once: the tally asks for every protocol it scores (5,500 times in a race of 1000 players)
        object.__setattr__(self, "_reserves", frozenset(p.nickname for p in self.players if not p.ranked))

    def player(self, nickname: str) -> Player | None:
        return self._by_nickname.get(nickname)

    @property
    def reserves(self) -> frozenset[str]:
        """The nicknames of the reserve players (a reserve's seat earns nobody points)."""
        return self._reserves

    def mwt_id_of(self, name: str) -> int | None:
        """The MWT id of a judge or player named ``name`` (a judge's row first), or None."""
        for judge in self.judges:
            if judge.nickname == name:
                return judge.mwt_id
        player = self._by_nickname.get(name)
        return player.mwt_id if player is not None else None
