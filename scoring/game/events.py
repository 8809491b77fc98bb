"""The judge's game as events: small, typed, append-only, sent by the phone as JSON objects.

Every event carries the phone's ``id`` (unique, e.g. a UUID) and ``seq`` (1, 2, 3… within the
game) so that the phone can send again whatever it is not sure arrived: an event whose id the
log holds is the same event (:class:`~scoring.game.log.GameLog`).  ``to_dict`` / ``from_dict``
are the JSON form: plain numbers, strings, lists; extra points as a decimal string ("0.5").
``from_dict`` checks every field a phone could send wrong and raises :class:`EventError`
(Russian and English) instead of recording garbage.

An undo is an event too: it names the event it takes back (the last one in force), and the log
keeps both — the record of what the judge pressed stays whole.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from decimal import Decimal
from typing import Any, ClassVar

from scoring.errors import SheetsSyncError
from scoring.model import Role, Team
from scoring.values import read_decimal

__all__ = ["Event", "EventError", "SeatPlayer", "Deal", "JudgeName", "NightZero", "SpeechStart", "SpeechEnd",
           "Nominate", "Vote", "RaiseAll", "Shot", "Miss", "DonCheck", "SheriffCheck", "BestMove", "Foul", "Remove",
           "Extra", "Ruling", "Undo", "EVENT_TYPES", "from_dict"]

MAX_ID = 100  # characters of an event id: a UUID is 36
MAX_NAME = 200  # a nickname or the judge's name


class EventError(SheetsSyncError):
    """An event the phone sent that cannot be read (a missing field, a seat 11, an unknown kind)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Event:
    id: str  # the phone's id of the event (idempotent resend)
    seq: int  # the phone's sequence number within the game, from 1
    kind: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        return out


def _plain(value: object) -> object:
    if isinstance(value, (Role, Team)):
        return value.value
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True, kw_only=True, slots=True)
class SeatPlayer(Event):
    """Who sits at a seat (the seating's player, a substitute, or a spelling corrected)."""

    kind: ClassVar[str] = "seat"
    seat: int
    player: str | None


@dataclass(frozen=True, kw_only=True, slots=True)
class Deal(Event):
    kind: ClassVar[str] = "deal"
    seat: int
    role: Role


@dataclass(frozen=True, kw_only=True, slots=True)
class JudgeName(Event):
    kind: ClassVar[str] = "judge"
    name: str


@dataclass(frozen=True, kw_only=True, slots=True)
class NightZero(Event):
    """Night 0, step by step: the mafia's agreement, the don's and the sheriff's look at the town."""

    kind: ClassVar[str] = "night_zero"
    step: str  # "agreement" | "don" | "sheriff"


@dataclass(frozen=True, kw_only=True, slots=True)
class SpeechStart(Event):
    """A turn begins: a speech, a last word, a speech after a tie (the timer is the face's)."""

    kind: ClassVar[str] = "speech_start"
    seat: int


@dataclass(frozen=True, kw_only=True, slots=True)
class SpeechEnd(Event):
    kind: ClassVar[str] = "speech_end"
    seat: int


@dataclass(frozen=True, kw_only=True, slots=True)
class Nominate(Event):
    kind: ClassVar[str] = "nominate"
    by: int
    seat: int


@dataclass(frozen=True, kw_only=True, slots=True)
class Vote(Event):
    """One vote's count: (candidate, votes) in the order of nomination.  The last candidate may
    be left out: the votes not given go to him (FIIM)."""

    kind: ClassVar[str] = "vote"
    counts: tuple[tuple[int, int], ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class RaiseAll(Event):
    """The vote to raise every candidate of a repeated tie: how many were for it."""

    kind: ClassVar[str] = "raise_all"
    yes: int


@dataclass(frozen=True, kw_only=True, slots=True)
class Shot(Event):
    """The mafia's shot hit ``seat``; the victim leaves in the morning."""

    kind: ClassVar[str] = "shot"
    seat: int


@dataclass(frozen=True, kw_only=True, slots=True)
class Miss(Event):
    kind: ClassVar[str] = "miss"


@dataclass(frozen=True, kw_only=True, slots=True)
class DonCheck(Event):
    """The seat the don checked for the sheriff (None: he showed nobody)."""

    kind: ClassVar[str] = "don_check"
    seat: int | None


@dataclass(frozen=True, kw_only=True, slots=True)
class SheriffCheck(Event):
    kind: ClassVar[str] = "sheriff_check"
    seat: int | None


@dataclass(frozen=True, kw_only=True, slots=True)
class BestMove(Event):
    kind: ClassVar[str] = "best_move"
    seat: int
    seats: tuple[int, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class Foul(Event):
    """One more foul (замечание); the fourth removes the player."""

    kind: ClassVar[str] = "foul"
    seat: int


@dataclass(frozen=True, kw_only=True, slots=True)
class Remove(Event):
    """A removal by the judge: disqualification from the game, or with team defeat (ППК)."""

    kind: ClassVar[str] = "removal"
    seat: int
    team_defeat: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class Extra(Event):
    """A player's extra points (set, not added: the last one stands)."""

    kind: ClassVar[str] = "extra"
    seat: int
    points: Decimal


@dataclass(frozen=True, kw_only=True, slots=True)
class Ruling(Event):
    """The judge ends the game and names the winner (a disputed situation, a team defeat of a
    player who had already left)."""

    kind: ClassVar[str] = "ruling"
    team: Team


@dataclass(frozen=True, kw_only=True, slots=True)
class Undo(Event):
    kind: ClassVar[str] = "undo"
    target: str  # the id of the event taken back: the last one in force


EVENT_TYPES: dict[str, type[Event]] = {t.kind: t for t in (
    SeatPlayer, Deal, JudgeName, NightZero, SpeechStart, SpeechEnd, Nominate, Vote, RaiseAll, Shot, Miss, DonCheck,
    SheriffCheck, BestMove, Foul, Remove, Extra, Ruling, Undo)}


def _bad(field_name: str, value: object) -> EventError:
    shown = repr(value)[:60]
    return EventError(f"the event's '{field_name}' cannot be {shown}", ru=f"«{field_name}» события не может быть {shown}")


def _int(value: object, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _bad(name, value)
    return value


def _seat(value: object, name: str) -> int:
    return _int(value, name, 1, 10)


def _maybe_seat(value: object, name: str) -> int | None:
    return None if value is None else _seat(value, name)


def _text(value: object, name: str, limit: int = MAX_NAME) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise _bad(name, value)
    return " ".join(value.split())


def _player(value: object, name: str) -> str | None:
    return (_text(value, name) or None) if value is not None else None


def _enum(kind: type[Role] | type[Team]) -> Callable[[object, str], Any]:
    def read(value: object, name: str) -> Any:
        try:
            return kind(value)
        except ValueError:
            raise _bad(name, value) from None
    return read


def _step(value: object, name: str) -> str:
    if value not in ("agreement", "don", "sheriff"):
        raise _bad(name, value)
    return str(value)


def _counts(value: object, name: str) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, (list, tuple)) or not 1 <= len(value) <= 10:
        raise _bad(name, value)
    pairs = []
    for pair in value:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise _bad(name, value)
        pairs.append((_seat(pair[0], name), _int(pair[1], name, 0, 10)))
    return tuple(pairs)


def _seats(value: object, name: str) -> tuple[int, ...]:
    if not isinstance(value, (list, tuple)) or len(value) > 10:
        raise _bad(name, value)
    return tuple(_seat(v, name) for v in value)


def _points(value: object, name: str) -> Decimal:
    if isinstance(value, (bool, float)):
        raise _bad(name, value)  # a float is not exact: the phone sends "0.35"
    number, problem = read_decimal(value)
    if problem is not None or number is None or abs(number) > 100:
        raise _bad(name, value)
    return number


def _id(value: object, name: str) -> str:
    if not isinstance(value, str) or not 0 < len(value.strip()) <= MAX_ID:
        raise _bad(name, value)
    return value.strip()


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise _bad(name, value)
    return value


# one reader per field name (a field means the same in every event that has it)
_READERS: dict[str, Callable[[object, str], Any]] = {
    "id": lambda v, n: _id(v, n),
    "seq": lambda v, n: _int(v, n, 1, 10**6),
    "seat": _seat, "by": _seat, "player": _player, "role": _enum(Role), "name": _text, "step": _step,
    "counts": _counts, "yes": lambda v, n: _int(v, n, 0, 10), "seats": _seats, "team_defeat": _flag,
    "points": _points, "team": _enum(Team), "target": lambda v, n: _id(v, n),
}
_NULLABLE_SEAT = {"don_check", "sheriff_check"}
_OPTIONAL = {"team_defeat": False}


def from_dict(data: Mapping[str, Any]) -> Event:
    """The event of a JSON object as :meth:`Event.to_dict` writes it; :class:`EventError` when
    the object is not one."""
    if not isinstance(data, Mapping):
        raise _bad("event", data)
    kind = data.get("kind")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise _bad("kind", kind)
    values: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            if f.name in _OPTIONAL:
                continue
            raise EventError(f"the event has no '{f.name}'", ru=f"у события нет «{f.name}»")
        read = _maybe_seat if (f.name == "seat" and kind in _NULLABLE_SEAT) else _READERS[f.name]
        values[f.name] = read(data[f.name], f.name)
    return cls(**values)
