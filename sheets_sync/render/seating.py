"""Where everybody sits: the seating of each round by table and seat, and each player's schedule.

Shared by the site (a seating page, the schedule on a player's page), the printable seating
(``print-seating``: :func:`seating_html`, portrait A4) and the VK seating post.  A round is *played* when every table of it
has a counted game; the rounds still to play come first (the current one on top), then the
played ones, latest first.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from scoring.errors import SheetsSyncError
from scoring.standings import Results
from sheets_sync.render.templates import environment, slug
from sheets_sync.render.words import ui

__all__ = ["Table", "Round", "Appointment", "SeatingViews", "NoSeating", "seating_html", "seating_filename"]


class NoSeating(SheetsSyncError, ValueError):
    """The round asked for has no seating."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Table:
    table: int
    seats: tuple[str, ...]  # seat 1..10, "" for an empty seat
    counted: bool  # its game is counted


@dataclass(frozen=True, kw_only=True, slots=True)
class Round:
    stage: str
    stage_name: str
    round: int
    title: str  # «Отбор, тур 3» / «Финал, игра 2»
    tables: tuple[Table, ...]

    @property
    def played(self) -> bool:
        return all(t.counted for t in self.tables)

    @property
    def key(self) -> str:
        return f"{self.stage}-{self.round}"


@dataclass(frozen=True, kw_only=True, slots=True)
class Appointment:
    """One game of a player's schedule."""

    stage: str
    round: int
    title: str
    table: int
    seat: int
    counted: bool


class SeatingViews:
    """The seating of ``results`` (public results: a hidden final's seating is already left out)."""

    def __init__(self, results: Results, language: str, *, hidden: Collection[str] = ()):
        preset = self._preset = results.preset
        keys = [k for k in preset.stage_keys if k not in hidden]
        counted = {p.key for p in results.counted}
        by_round: dict[tuple[str, int], list[Table]] = {}
        for e in results.tournament.seating:
            if e.stage not in keys:
                continue
            by_round.setdefault((e.stage, e.round), []).append(
                Table(table=e.table, seats=tuple(p or "" for p in e.players), counted=(e.stage, e.round, e.table) in counted))
        rounds = []
        for (stage, rnd), tables in sorted(by_round.items(), key=lambda kv: (keys.index(kv[0][0]), kv[0][1])):
            name = preset.stage(stage).name(language)
            word = ui("round" if stage == preset.stage_keys[0] else "game", language).lower()
            rounds.append(Round(stage=stage, stage_name=name, round=rnd, title=f"{name}, {word} {rnd}",
                                tables=tuple(sorted(tables, key=lambda t: t.table))))
        self.in_order: tuple[Round, ...] = tuple(rounds)
        to_play = [r for r in rounds if not r.played]
        self.rounds: tuple[Round, ...] = tuple(to_play + [r for r in reversed(rounds) if r.played])
        self.current: Round | None = to_play[0] if to_play else None
        self._schedules: dict[str, list[Appointment]] | None = None

    def round(self, number: int, stage: str | None = None) -> Round:
        """Round ``number`` of ``stage`` (by default the latest stage seated for that round)."""
        found = [r for r in self.in_order if r.round == number and (stage is None or stage in (r.stage, r.stage_name))]
        if not found:
            named = next((s for s in self._preset.stages if stage in (s.key, s.name_ru, s.name_en)), None)
            if named is None:
                raise NoSeating(f"no seating for round {number}" + (f" of {stage}" if stage else ""),
                                ru=f"в туре {number} никто не рассажен" + (f" (этап «{stage}»)" if stage else ""))
            raise NoSeating(f"no seating for {named.name('en') or named.key}, round {number} (the Seating tab)",
                            ru=f"{named.name('ru') or named.key}, тур {number}: никто не рассажен (вкладка «Рассадка»)")
        return found[-1]

    def schedule(self, nickname: str) -> list[Appointment]:
        """Every game ``nickname`` is seated at, in order."""
        if self._schedules is None:  # every player's at once: one pass over the seating, not one per player
            self._schedules = {}
            for r in self.in_order:
                for t in r.tables:
                    for seat, name in enumerate(t.seats, start=1):
                        if name and seat == t.seats.index(name) + 1:  # a name seated twice: its first seat
                            self._schedules.setdefault(name, []).append(Appointment(
                                stage=r.stage, round=r.round, title=r.title, table=t.table, seat=seat,
                                counted=t.counted))
        return list(self._schedules.get(nickname, ()))


# -- printed --------------------------------------------------------------------------------------------
def seating_filename(rnd: Round) -> str:
    return f"seating-{slug(rnd.stage, limit=24)}-{rnd.round}.html"


def seating_html(rnd: Round, *, tournament: str, date: str, language: str, status: str = "",
                 qr: Mapping[int, str] | None = None) -> str:
    """One round on paper: an A4 page with every table, then an A4 poster per table. ``qr``: table → its
    judge's QR code (SVG markup), in the corner of that table's poster only (the overview hangs where
    the players stand, and the link is the key to the table's protocol)."""
    tables = [{"table": t.table, "seats": [*t.seats, *([""] * (10 - len(t.seats)))][:10],
               "qr": (qr or {}).get(t.table, "")} for t in rnd.tables]
    words = {"seating": ui("seating", language), "table": ui("table", language),
             "judge_qr": ui("judge_qr", language)}
    return environment().get_template("seating/print.html").render(
        lang=language, words=words, tournament=tournament, date=date, round_title=rnd.title, tables=tables,
        status=status)
