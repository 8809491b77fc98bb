"""A league (issue 36 §2): many workbooks, one rating — the click-free action behind
``sheets-sync league FILE``.

The league file (TOML) names the rating scheme, an optional series scheme and its best N, and
the events (``[[event]]``: ``workbook`` — an .xlsx path relative to the file or a Google
reference —, ``kind`` club / tournament / elite, ``stars`` for the series, an optional
``name``).  Every mistake of the file is reported at once, naming the key (``event[2].kind``).

Each workbook is read through :func:`sheets_sync.backends.open_backend` and computed as the
sync computes it; what the league needs of it (its counted games, its players' lines) is
remembered in ``OUT/.league-cache/`` with the workbook's fingerprint, so a workbook that did
not change is never computed again (an .xlsx whose size and modification time are unchanged is
not even opened; a Google sheet, which has no cheap fingerprint, costs one read of its values).  The rating is then replayed over every game from the start:
replay is fast (100,000 games in well under a second, bench/rating.py), so a game that moved
weeks later is handled by replaying everything — the same as replaying from that game on.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from pathlib import Path
from typing import Any

from scoring.errors import SheetsSyncError
from scoring.ranking import Placed
from scoring.rating import (EventResult, RatedGame, Ratings, RatingScheme, Seat, SeriesEntry, SeriesEvent,
                            SeriesScheme, StartRating, replay, series_standings)
from scoring.rating.league import (EVENT_KINDS, EventLine, event_date, event_lines, first_starts, one_spelling,
                                   rated_games, typed_starts)
from sheets_sync.league.ratings import DEFAULT_RATING, load_rating_scheme, load_series_scheme
from sheets_sync.refs import is_google_ref

__all__ = ["FileProblem", "LeagueFileError", "LeagueEvent", "LeagueFile", "EventData", "League", "load_league", "read_event",
           "build_league", "CACHE_DIR", "CACHE_VERSION"]

CACHE_DIR = ".league-cache"
CACHE_VERSION = 2
_TOP_KEYS = {"name", "language", "rating", "series", "best_n", "output", "event"}
_EVENT_KEYS = {"workbook", "kind", "stars", "name"}


@dataclass(frozen=True, slots=True)
class FileProblem:
    """One mistake of a league file: the key it is about (``event[2].kind``; "" for the file as a
    whole) and what is wrong, in English and Russian — a workbook league names the cell instead."""

    key: str
    en: str
    ru: str

    def line(self, language: str = "en") -> str:
        said = self.ru if language == "ru" else self.en
        return f"{self.key}: {said}" if self.key else said


class LeagueFileError(SheetsSyncError, ValueError):
    """A league file that cannot be used; every problem found, each naming its key (or cell)."""

    def __init__(self, source: str, errors: Sequence[str], *, ru: Sequence[str] | None = None,
                 problems: Sequence[FileProblem] = (), language: str | None = None):
        self.source, self.errors, self.problems = source, tuple(errors), tuple(problems)
        super().__init__("\n".join(f"{source}: {e}" for e in self.errors),
                         ru=None if ru is None else "\n".join(f"{source}: {e}" for e in ru), language=language)

    @classmethod
    def of(cls, source: str, problems: Sequence[FileProblem], language: str | None = None) -> LeagueFileError:
        return cls(source, [p.line("en") for p in problems], ru=[p.line("ru") for p in problems], problems=problems,
                   language=language)


@dataclass(frozen=True, slots=True)
class LeagueEvent:
    workbook: str  # as written in the file: the event's id in game ids and the cache
    kind: str
    stars: int | None = None
    name: str = ""


@dataclass(frozen=True, slots=True)
class LeagueFile:
    name: str
    language: str
    rating: str
    events: tuple[LeagueEvent, ...]
    base_dir: Path
    source: str = "league.toml"  # the file's name, for messages
    series: str | None = None
    best_n: int = 0
    output: str | None = None
    # where each key was written when that is not the key itself: a «Лига» workbook's cells
    # («Лига»!A9 for ``event[2].workbook``), so that later errors name the cell too
    places: Mapping[str, str] = field(default_factory=dict)

    def place(self, key: str) -> str:
        return self.places.get(key, key)

    def ref(self, event: LeagueEvent) -> str:
        """The workbook reference to open: a relative .xlsx path is relative to the league file."""
        if is_google_ref(event.workbook) or Path(event.workbook).is_absolute():
            return event.workbook
        return str(self.base_dir / event.workbook)


def _whole(value: Any, low: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= low


def _event(raw: Any, i: int, errors: list[FileProblem]) -> LeagueEvent | None:
    where = f"event[{i}]"
    if not isinstance(raw, Mapping):
        errors.append(FileProblem(where, "must be a table ([[event]])", "должно быть таблицей ([[event]])"))
        return None
    known = ", ".join(sorted(_EVENT_KEYS))
    errors += [FileProblem(f"{where}.{k}", f"unknown key (one of: {known})", f"неизвестный ключ (допустимы: {known})")
               for k in raw if k not in _EVENT_KEYS]
    workbook, kind, stars, name = raw.get("workbook"), raw.get("kind", "tournament"), raw.get("stars"), raw.get("name", "")
    if not isinstance(workbook, str) or not workbook.strip():
        errors.append(FileProblem(f"{where}.workbook", "missing (an .xlsx path or a Google Sheets link)",
                               "не указан (путь к .xlsx или ссылка на Google-таблицу)"))
    if kind not in EVENT_KINDS:
        kinds = ", ".join(EVENT_KINDS)
        errors.append(FileProblem(f"{where}.kind", f"{kind!r} is not one of {kinds}", f"«{kind}» — не один из видов: {kinds}"))
    if stars is not None and not _whole(stars, 1):
        errors.append(FileProblem(f"{where}.stars", "must be a whole number from 1", "должно быть целым числом от 1"))
    if not isinstance(name, str):
        errors.append(FileProblem(f"{where}.name", "must be text", "должно быть текстом"))
    if not isinstance(workbook, str) or not workbook.strip():
        return None
    return LeagueEvent(workbook.strip(), str(kind), stars if isinstance(stars, int) else None, str(name))


def _top_problems(data: Mapping[str, Any]) -> list[FileProblem]:
    known = ", ".join(sorted(_TOP_KEYS))
    errors = [FileProblem(k, f"unknown key (one of: {known})", f"неизвестный ключ (допустимы: {known})")
              for k in data if k not in _TOP_KEYS]
    errors += [FileProblem(key, "must be text", "должно быть текстом")
               for key in ("name", "language", "rating", "series", "output") if key in data and not isinstance(data[key], str)]
    language = data.get("language", "ru")
    if language not in ("ru", "en"):
        errors.append(FileProblem("language", f"{language!r} is not ru or en", f"«{language}» — не ru и не en"))
    if not _whole(data.get("best_n", 0), 0):
        errors.append(FileProblem("best_n", "must be a whole number (0 = every event)",
                               "должно быть целым числом (0 — все турниры)"))
    return errors


def _event_problems(data: Mapping[str, Any], events: Sequence[LeagueEvent]) -> list[FileProblem]:
    errors, seen = [], set()
    for i, e in enumerate(events, 1):
        if e.workbook in seen:
            errors.append(FileProblem(f"event[{i}].workbook", f"{e.workbook} is listed twice", f"{e.workbook} указан дважды"))
        seen.add(e.workbook)
    if data.get("series"):
        errors += [FileProblem(f"event[{i}].stars", "missing (the series needs each event's stars)",
                            "не указано (серии нужны звёзды каждого турнира)")
                   for i, e in enumerate(events, 1) if e.stars is None]
    return errors


def parse_league(data: Mapping[str, Any], *, source: str, base_dir: Path) -> LeagueFile:
    """The league file's dict checked: every problem at once (:class:`LeagueFileError`, each
    :class:`FileProblem` naming its key).  The one validator of both readers: the TOML file and
    the «Лига» workbook (:mod:`sheets_sync.league.book`)."""
    errors = _top_problems(data)
    raw_events = data.get("event", [])
    if not isinstance(raw_events, list) or not raw_events:
        errors.append(FileProblem("event", "at least one [[event]] with a workbook", "нужен хотя бы один турнир ([[event]])"))
        raw_events = []
    events = [e for i, raw in enumerate(raw_events, 1) if (e := _event(raw, i, errors))]
    errors += _event_problems(data, events)
    if errors:  # in the league's own language where the file names a valid one (issue 43 §9)
        raise LeagueFileError.of(source, errors, language=data.get("language") if data.get("language") in ("ru", "en")
                                 else None)
    return LeagueFile(name=str(data.get("name", "")), language=str(data.get("language", "ru")),
                      rating=str(data.get("rating", DEFAULT_RATING)), events=tuple(events), base_dir=base_dir,
                      source=source, series=data.get("series") or None, best_n=int(data.get("best_n", 0)),
                      output=data.get("output") or None)


def load_league(path: Path) -> LeagueFile:
    try:
        with Path(path).open("rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise LeagueFileError(str(path), [f"cannot be read: {exc.strerror or exc}"]) from exc
    except tomllib.TOMLDecodeError as exc:
        raise LeagueFileError(Path(path).name, [f"not valid TOML: {exc}"]) from exc
    return parse_league(data, source=Path(path).name, base_dir=Path(path).resolve().parent)


# -- one event's data, and its cache -----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class EventData:
    """What the league needs of one workbook (kept in the cache as JSON)."""

    id: str  # the workbook as written in the league file
    name: str
    date: str  # ISO or ""
    games: tuple[RatedGame, ...]
    lines: tuple[EventLine, ...]
    fingerprint: str | None = None
    starts: Mapping[str, StartRating] = field(default_factory=dict)  # typed on its Players tab

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "date": self.date, "fingerprint": self.fingerprint,
                "games": [{"id": g.id, "order": g.order, "winner": g.winner,
                           "seats": [[s.player, s.side] for s in g.seats]} for g in self.games],
                "lines": [[ln.player, ln.place, ln.places, str(ln.points), ln.games, ln.wins, ln.red_games, ln.red_wins,
                           ln.black_games, ln.black_wins, ln.best_moves] for ln in self.lines],
                "starts": {p: [None if v is None else str(v) for v in (st.overall, st.red, st.black)]
                           for p, st in self.starts.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], kind: str) -> EventData:
        games = tuple(RatedGame(id=g["id"], order=g["order"], kind=kind, winner=g["winner"], event=data["id"],
                                seats=tuple(Seat(p, s) for p, s in g["seats"])) for g in data["games"])
        lines = tuple(EventLine(r[0], r[1], r[2], Decimal(r[3]), *r[4:]) for r in data["lines"])
        starts = {p: StartRating(*(None if v is None else Decimal(v) for v in values))
                  for p, values in data.get("starts", {}).items()}
        return cls(data["id"], data["name"], data["date"], games, lines, data.get("fingerprint"), starts)

    def renamed(self, spelling: Mapping[str, str]) -> EventData:
        """The same event with every player spelt the league's way (``spelling``: as typed -> one)."""
        if all(spelling.get(p, p) == p for p in spelling):
            return self
        games = tuple(RatedGame(id=g.id, order=g.order, kind=g.kind, winner=g.winner, event=g.event,
                                seats=tuple(Seat(spelling.get(s.player, s.player), s.side) for s in g.seats))
                      for g in self.games)
        lines = tuple(replace(ln, player=spelling.get(ln.player, ln.player)) for ln in self.lines)
        starts = {spelling.get(p, p): st for p, st in self.starts.items()}
        return EventData(self.id, self.name, self.date, games, lines, self.fingerprint, starts)

    def with_kind(self, kind: str) -> EventData:
        games = tuple(RatedGame(id=g.id, order=g.order, kind=kind, seats=g.seats, winner=g.winner, event=g.event)
                      for g in self.games)
        return EventData(self.id, self.name, self.date, games, self.lines, self.fingerprint, self.starts)


def _cache_file(cache: Path, event: LeagueEvent) -> Path:
    return cache / f"{hashlib.sha256(event.workbook.encode()).hexdigest()[:24]}.json"


def _file_stamp(ref: str) -> list[int] | None:
    if is_google_ref(ref):
        return None
    try:
        stat = Path(ref).stat()
    except OSError:
        return None
    return [stat.st_size, stat.st_mtime_ns]


def _cached(cache: Path | None, event: LeagueEvent) -> dict[str, Any] | None:
    if cache is None:
        return None
    try:
        data = json.loads(_cache_file(cache, event).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if data.get("version") == CACHE_VERSION else None


def _computed(event: LeagueEvent, snapshot: Any) -> EventData:
    from sheets_sync.loop.outcome import compute
    from sheets_sync.refs import workbook_folder

    outcome = compute(snapshot, base_dir=workbook_folder(snapshot.source))
    day = event_date(outcome.results.tournament.date)
    return EventData(event.workbook, event.name or outcome.results.tournament.name, day,
                     rated_games(outcome.results, workbook=event.workbook, kind=event.kind, fallback_date=day),
                     event_lines(outcome.results), snapshot.fingerprint, typed_starts(snapshot.tabs))


def _fresh(event: LeagueEvent, backend: Any, remembered: dict[str, Any] | None) -> tuple[EventData, bool]:
    """The event's data from its workbook, or from the cache when the workbook is as remembered:
    the backend's cheap fingerprint when it has one (an .xlsx), else one read of the values (a
    Google sheet: Drive cannot tell cheaply) compared before anything is computed."""
    from sheets_sync.loop.outcome import read_workbook

    known = remembered["data"].get("fingerprint") if remembered is not None else None
    cheap = backend.fingerprint()
    if known is not None and cheap is not None and cheap == known:
        return EventData.from_json(remembered["data"], event.kind), False  # type: ignore[index]
    snapshot = read_workbook(backend)
    if known is not None and snapshot.fingerprint is not None and snapshot.fingerprint == known:
        return EventData.from_json(remembered["data"], event.kind), False  # type: ignore[index]
    return _computed(event, snapshot), True


def read_event(league: LeagueFile, event: LeagueEvent, cache: Path | None, *,
               credentials: str | None = None, opener: Callable[..., Any] | None = None) -> tuple[EventData, bool]:
    """The event's data and whether its workbook was computed again (False: the cache had it)."""
    ref = league.ref(event)
    remembered = _cached(cache, event)
    stamp = _file_stamp(ref)
    if remembered is not None and stamp is not None and remembered.get("stamp") == stamp:
        return EventData.from_json(remembered["data"], event.kind), False
    if opener is None:
        from sheets_sync.backends import open_backend as opener
    data, read_again = _fresh(event, opener(ref, credentials=credentials), remembered)
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        _cache_file(cache, event).write_text(json.dumps({"version": CACHE_VERSION, "ref": event.workbook, "stamp": stamp,
                                                         "data": data.to_json()}, ensure_ascii=False), encoding="utf-8")
    return data.with_kind(event.kind), read_again


# -- the league -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class League:
    file: LeagueFile
    scheme: RatingScheme
    events: tuple[tuple[LeagueEvent, EventData], ...]  # by date, then id
    ratings: Ratings
    series: tuple[Placed[SeriesEntry], ...] | None = None
    series_scheme: SeriesScheme | None = None
    read_again: tuple[str, ...] = field(default=())  # the workbooks read (not taken from the cache)
    starts: Mapping[str, StartRating] = field(default_factory=dict)  # the ratings typed in, as shown


def series_of(file: LeagueFile, scheme: SeriesScheme,
              events: Sequence[tuple[LeagueEvent, EventData]]) -> list[Placed[SeriesEntry]]:
    """The series table over the events' places (each event's field: its ranked players)."""
    series_events = [SeriesEvent(data.id, event.stars or 1, len(data.lines),
                                 tuple(EventResult(ln.player, ln.place, ln.games, ln.wins) for ln in data.lines))
                     for event, data in events]
    return series_standings(series_events, file.best_n or scheme.best_n, scheme.tiebreaks, scheme.table)


def build_league(file: LeagueFile, *, cache: Path | None, credentials: str | None = None,
                 opener: Callable[..., Any] | None = None) -> League:
    """Read every event (the cache keeps what did not change), replay the rating, and the series."""
    scheme = load_rating_scheme(file.rating, base_dir=file.base_dir)
    read: list[str] = []
    events = []
    for i, event in enumerate(file.events, 1):
        try:
            data, again = read_event(file, event, cache, credentials=credentials, opener=opener)
        except SheetsSyncError as exc:
            where = f"{file.place(f'event[{i}].workbook')} ({event.workbook})"
            raise LeagueFileError(file.source, [f"{where}: {exc}"], ru=[f"{where}: {exc.message('ru')}"],
                                  language=file.language) from exc
        events.append((event, data))
        if again:
            read.append(event.workbook)
    events.sort(key=lambda e: (e[1].date, e[0].workbook))
    ordered = sorted((g for _, data in events for g in data.games), key=lambda g: (g.order, g.id))
    spelling = one_spelling([s.player for g in ordered for s in g.seats]
                            + [p for _, data in events for p in (*(ln.player for ln in data.lines), *data.starts)])
    events = [(event, data.renamed(spelling)) for event, data in events]
    starts = first_starts(data.starts for _, data in events)
    ratings = replay([g for _, data in events for g in data.games], scheme, starts)
    series_scheme = load_series_scheme(file.series, base_dir=file.base_dir) if file.series else None
    table = tuple(series_of(file, series_scheme, events)) if series_scheme else None
    return League(file, scheme, tuple(events), ratings, table, series_scheme, tuple(read), starts)
