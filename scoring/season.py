"""A club season's ratings: the evenings' games summed, averaged and ranked, per evening and per player.

A club plays every week; whoever comes plays.  The season (a Tournament tab with «Формат:
сезон») is the standings of every counted game (:func:`scoring.standings.compute`: the
points of each game come from the point items and the club's preset, typed penalties
included), ranked by the preset's ``season.ranking`` — the total or the average per game —
with the preset's tiebreak chain through the one placing loop (:func:`scoring.standings.rank`).
A player needs ``season.min_games`` games to be ranked; below it he is ranked *provisionally*
by the same key, his places following the ranked players' (one order from the first evening:
while nobody has the minimum, everyone who played is provisional), with the games he still
needs; a player without a game this season is listed last, by name.  The table after each
evening (:attr:`Season.race`) is worked out again from the games of the evenings up to it, and
gives every player's movement since the last evening.  Each evening says where it stands: its
games typed, counted, waiting for a correction (an error in it) or not finished.  Beside it: the standings of each evening (by total), each player's
history (date, game, seat, role, result, points) and his role statistics (games and win rate
per role, best move accuracy).

Only the Players tab's players are in a season: a name typed into a protocol that is not on
the Players tab is an error at its cell (the game does not count), never a new player.
Nothing depends on the order of the evenings or of the games in a tab: evenings are sorted
by date, games by (date, tab, game, table), equal places are shared and listed by nickname.

With the preset's ``[rating]`` the season carries the player rating (:mod:`scoring.rating.club`)
and may be ranked by it (``season.ranking = "rating"``): equal ratings share a place (no
tiebreak chain, as a rating table does), the minimum of games is the larger of the season's and
the scheme's (so a ranked player always shows his rating), the provisional are placed by their
rating after the ranked, and the table after each evening ranks by the ratings after it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from typing import Any

from scoring.collation import name_key
from scoring.items import GameLine, blacks_named, may_name_best_move
from scoring.memo import last_answer
from scoring.model import Protocol, Role, SeatRecord, Team
from scoring.numbers import quantize
from scoring.preset import Preset
from scoring.problems import Severity
from scoring.rating.club import WorkbookRating, workbook_rating
from scoring.standings import Results, Standing, rank
from scoring.stats import PlayerStats, player_stats

__all__ = ["SeasonStanding", "Evening", "HistoryLine", "RoleRecord", "PlayerSeason", "Season", "season",
           "AVERAGE_QUANTUM", "EveningPlaces", "season_table"]

AVERAGE_QUANTUM = Decimal("0.01")  # an average per game is shown to hundredths (ranked exactly)
_ROLE_ORDER = (Role.SHERIFF, Role.CIVILIAN, Role.DON, Role.MAFIA)


def _average(stats: PlayerStats) -> Fraction:
    return stats.exact_total / stats.games if stats.games else Fraction(0)


@dataclass(frozen=True, kw_only=True, slots=True)
class SeasonStanding:
    """A player of the season table: his place (provisional below the minimum), total and average."""

    standing: Standing  # place and tiebreak (provisional below the minimum; 0 and "" without a game)
    ranked: bool
    games_needed: int  # games still needed to be ranked (0 when ranked)
    evenings: int = 0  # evenings he played a counted game at
    last_evening: str = ""  # the date of the last of them (ISO)
    previous_place: int | None = None  # his place in the table after the evening before the last one
    new: bool = False  # in the table now, not after the evening before the last one (his first games)

    @property
    def provisional(self) -> bool:
        """Placed below the minimum of games: his place is provisional."""
        return not self.ranked and self.stats.games > 0

    @property
    def movement(self) -> int | None:
        """Places gained since the evening before the last one (negative: lost); None when new or unplaced."""
        if self.previous_place is None or not self.standing.place:
            return None
        return self.previous_place - self.standing.place

    @property
    def stats(self) -> PlayerStats:
        return self.standing.stats

    @property
    def player(self) -> str:
        return self.standing.stats.player

    @property
    def average(self) -> Decimal:
        """Points per game, rounded to hundredths for display (ranked by the exact value)."""
        return quantize(_average(self.stats), AVERAGE_QUANTUM)

    @property
    def exact_average(self) -> Fraction:
        return _average(self.stats)


@dataclass(frozen=True, kw_only=True, slots=True)
class Evening:
    """One evening: its date, its counted games, its standings by total, and the games that wait."""

    date: str  # ISO, "2026-12-05" ("" gathers the games without a date)
    games: tuple[Protocol, ...]  # counted
    standings: tuple[Standing, ...]
    typed: int = 0  # games typed in (a player or a winner in the block), counted or not
    with_errors: int = 0  # typed, not counted: an error points into it
    unfinished: int = 0  # typed, not counted: no winner yet, no error
    waiting_games: tuple[tuple[Protocol, bool], ...] = ()  # (game, an error in it) of those not counted, in order

    @property
    def waiting(self) -> int:
        """Games of the evening typed in and not counted yet."""
        return self.with_errors + self.unfinished


@dataclass(frozen=True, kw_only=True, slots=True)
class EveningPlaces:
    """The season table as it stood after one evening: every placed player's place and its text."""

    date: str
    places: Mapping[str, int]
    shown: Mapping[str, str]  # "5", "5–6"
    provisional: frozenset[str]  # below the minimum then


@dataclass(frozen=True, kw_only=True, slots=True)
class HistoryLine:
    """One game of a player's season."""

    date: str
    sheet: str
    game: int  # the game's number that evening (its protocol's round)
    table: int
    seat: int
    role: Role
    won: bool
    points: Decimal


@dataclass(frozen=True, kw_only=True, slots=True)
class RoleRecord:
    role: Role
    games: int
    wins: int

    @property
    def win_rate(self) -> Fraction | None:
        return Fraction(self.wins, self.games) if self.games else None


@dataclass(frozen=True, kw_only=True, slots=True)
class PlayerSeason:
    """A player's page: every game, the points after each evening, his roles and best moves."""

    player: str
    history: tuple[HistoryLine, ...]  # by date, then game
    after_evening: tuple[tuple[str, Decimal], ...]  # (date, season total after it) for the dates he played
    roles: tuple[RoleRecord, ...]  # in _ROLE_ORDER
    best_moves: int  # best moves left (three seats named, by a player who may leave one)
    blacks_named: int  # blacks named in them

    @property
    def best_move_accuracy(self) -> Fraction | None:
        """Blacks named out of the seats named (three a best move); None without a best move."""
        return Fraction(self.blacks_named, 3 * self.best_moves) if self.best_moves else None


@dataclass(frozen=True, kw_only=True, slots=True)
class Season:
    ranking: str  # "total", "average" or "rating": the main table's order
    min_games: int  # games needed to be ranked (by rating: the larger of the season's and the scheme's minimum)
    standings: tuple[SeasonStanding, ...]  # the ranked players in place order
    # below the minimum in (provisional) place order, then the players without a game by name
    below_minimum: tuple[SeasonStanding, ...]
    evenings: tuple[Evening, ...]  # by date
    players: Mapping[str, PlayerSeason]
    race: tuple[EveningPlaces, ...] = ()  # the table after each evening with a counted game, by date
    rating: WorkbookRating | None = None  # the player rating of the preset's [rating] (None without one)

    @property
    def games(self) -> int:
        return sum(len(e.games) for e in self.evenings)

    @property
    def table(self) -> tuple[SeasonStanding, ...]:
        """The one order every output shows: the ranked, the provisional, the players without a game."""
        return self.standings + self.below_minimum

    @property
    def waiting(self) -> int:
        """Games typed in and not counted yet, of every evening."""
        return sum(e.waiting for e in self.evenings)

    def evening(self, date: str) -> Evening | None:
        return next((e for e in self.evenings if e.date == date), None)


@last_answer  # the Standings tab, the site, standings.json and the VK post all ask for it
def season(results: Results) -> Season:
    """The season of a club's results (any results: a tournament's games all carry the date "")."""
    preset = results.preset
    rule = preset.season
    rating = workbook_rating(results)
    needed = _needed(preset, rating)
    ranked, provisional, unplayed = season_table([st.stats for st in results.overall], preset,
                                                 _ranking_ratings(preset, rating, None))
    dated = _dated_lines(results)
    evenings = _evenings(results, dated)
    after = _race(results, evenings, dated, (ranked, provisional), rating)
    before = after[-2] if len(after) > 1 else None

    def entry(st: Standing, is_ranked: bool) -> SeasonStanding:
        days = sorted({_day(p) for p, _ in dated.get(st.stats.player, ())})
        placed_before = before.places.get(st.stats.player) if before is not None else None
        return SeasonStanding(standing=st, ranked=is_ranked, games_needed=max(0, needed - st.stats.games),
                              evenings=len(days), last_evening=days[-1] if days else "",
                              previous_place=placed_before,
                              new=before is not None and placed_before is None and st.stats.games > 0)

    return Season(
        ranking=rule.ranking,
        min_games=needed if rule.ranking == "rating" else rule.min_games,
        standings=tuple(entry(st, True) for st in ranked),
        below_minimum=tuple(entry(st, False) for st in (*provisional,
                                                        *(Standing(place=0, places="", stats=s) for s in unplayed))),
        evenings=evenings,
        players={st.stats.player: _player_season(st.stats, dated, results) for st in results.overall},
        race=after,
        rating=rating,
    )


def _needed(preset: Preset, rating: WorkbookRating | None) -> int:
    """Games a player needs to be ranked: ``season.min_games``; ranked by rating, also the scheme's
    minimum before a rating is listed (a ranked player always shows his rating)."""
    if preset.season.ranking == "rating" and rating is not None:
        return max(1, preset.season.min_games, rating.scheme.min_games)
    return max(1, preset.season.min_games)


def _ranking_ratings(preset: Preset, rating: WorkbookRating | None, day: str | None) -> Mapping[str, float] | None:
    """What a season ranked by rating ranks by: every player's rating after the evening ``day``
    (None: now); None when the season is ranked otherwise."""
    if preset.season.ranking != "rating" or rating is None:
        return None
    if day is None:
        return {name: line.overall for name, line in rating.lines.items()}
    return rating.after(day)


def season_table(everyone: Sequence[PlayerStats], preset: Preset, ratings: Mapping[str, float] | None = None
                 ) -> tuple[list[Standing], list[Standing], list[PlayerStats]]:
    """The ranked (``season.min_games`` games or more), the provisional (fewer, placed after the
    ranked by the same key and chain) and the players without a game (by name).  Ranked by rating
    (``ratings``: player -> overall rating now), equal ratings share a place: no tiebreak chain,
    as a rating table shares them (the minimum: :func:`_needed`)."""
    by_rating = preset.season.ranking == "rating"
    needed = max(1, preset.season.min_games)
    if by_rating:
        if ratings is None:
            raise ValueError("a season ranked by rating needs the preset's [rating] scheme resolved by the loader")
        needed = max(needed, preset.rating.resolved.min_games)  # type: ignore[union-attr]
    by = _average if preset.season.ranking == "average" else None
    chain = preset.tiebreaks
    if by_rating:
        chain, by = (), lambda s: ratings.get(s.player, 0.0)  # type: ignore[union-attr]
    ranked = rank([s for s in everyone if s.games >= needed], chain, by=by)
    provisional = rank([s for s in everyone if 0 < s.games < needed], chain, by=by, start=len(ranked) + 1)
    return ranked, provisional, sorted((s for s in everyone if not s.games), key=lambda s: name_key(s.player))


def _race(results: Results, evenings: Sequence[Evening], dated: Mapping[str, Sequence[tuple[Protocol, GameLine]]],
          now: tuple[Sequence[Standing], Sequence[Standing]],
          rating: WorkbookRating | None = None) -> tuple[EveningPlaces, ...]:
    """The table after each evening with a counted game, from the games of the evenings up to it:
    each evening, only that evening's players get new statistics — the evening's own (its
    standings') added to theirs so far, or, where Ci makes a total that is not a plain sum, made
    again from all their lines; the last point is the table now (the Penalties tab's penalties,
    which carry no date, count from it)."""
    preset = results.preset
    players = {p.nickname: p for p in results.tournament.players if p.ranked}
    so_far = {name: [(_day(p), ln) for p, ln in games] for name, games in dated.items()}
    played = [e for e in evenings if e.games]
    stats: dict[str, PlayerStats] = {}
    points = []
    for i, evening in enumerate(played):
        for st in evening.standings:
            name, before = st.stats.player, stats.get(st.stats.player)
            if before is None or (before.ci_exact or st.stats.ci_exact):
                upto = [ln for day, ln in so_far[name] if day <= evening.date]
                stats[name] = player_stats(players[name], upto, (), preset.stage_keys,
                                           max_missed_rounds=preset.max_missed_rounds,
                                           disqualified_eligible=preset.disqualified_eligible)
            else:
                stats[name] = _plus(before, st.stats)
        ranked, provisional = now if i == len(played) - 1 else season_table(
            list(stats.values()), preset, _ranking_ratings(preset, rating, evening.date))[:2]
        placed = [*ranked, *provisional]
        points.append(EveningPlaces(date=evening.date, places={st.stats.player: st.place for st in placed},
                                    shown={st.stats.player: st.places for st in placed},
                                    provisional=frozenset(st.stats.player for st in provisional)))
    return tuple(points)


def _plus(a: PlayerStats, b: PlayerStats) -> PlayerStats:
    """A player's statistics over the games of ``a`` and then of ``b`` (no Ci, no tournament penalty:
    every figure is a plain sum)."""
    def merged(x: Mapping[str, Any], y: Mapping[str, Any]) -> dict[str, Any]:
        return {k: x.get(k, 0) + y.get(k, 0) for k in (*x, *(k for k in y if k not in x))}

    return replace(a, total=a.total + b.total, stage_points=merged(a.stage_points, b.stage_points),
                   games=a.games + b.games, wins=a.wins + b.wins, wins_as=merged(a.wins_as, b.wins_as),
                   games_as=merged(a.games_as, b.games_as), extra_points=a.extra_points + b.extra_points,
                   recognised_best=a.recognised_best + b.recognised_best,
                   best_move_points=a.best_move_points + b.best_move_points, penalties=a.penalties + b.penalties,
                   shot_first=a.shot_first + b.shot_first, lines=a.lines + b.lines)


def _day(p: Protocol) -> str:
    """The evening of a game as ISO text ("2026-12-05"; "" for a game without a date)."""
    return p.date.isoformat() if p.date is not None else ""


def _game_key(p: Protocol) -> tuple[str, str, int, int]:
    return (_day(p), p.sheet, p.round, p.table)


def _dated_lines(results: Results) -> dict[str, list[tuple[Protocol, GameLine]]]:
    """Each player's counted games with their protocols, by date, tab, game and table."""
    protocols = {(p.sheet, p.stage, p.round, p.table): p for p in results.counted}
    found: dict[str, list[tuple[Protocol, GameLine]]] = defaultdict(list)
    for ln in results.lines:
        protocol = protocols.get((ln.sheet, ln.stage, ln.round, ln.table))
        if protocol is not None and not ln.substitute:
            found[ln.player].append((protocol, ln))
    for games in found.values():
        games.sort(key=lambda pl: _game_key(pl[0]))
    return found


def _evenings(results: Results, dated: Mapping[str, Sequence[tuple[Protocol, GameLine]]]) -> tuple[Evening, ...]:
    players = {p.nickname: p for p in results.tournament.players if p.ranked}
    by_date: dict[str, list[GameLine]] = defaultdict(list)
    for name, games in dated.items():
        if name in players:
            for protocol, ln in games:
                by_date[_day(protocol)].append(ln)
    counted = {p.game_id for p in results.counted}
    typed = [p for p in results.tournament.protocols if p.game_id in counted or _typed(p)]
    errors = [pr.location for pr in results.problems if pr.severity is Severity.ERROR and pr.location is not None]
    of_day: dict[str, list[Protocol]] = defaultdict(list)
    for p in typed:
        of_day[_day(p)].append(p)
    evenings = []
    for date in sorted(of_day):
        lines_of: dict[str, list[GameLine]] = defaultdict(list)
        for ln in by_date[date]:
            lines_of[ln.player].append(ln)
        stats = [player_stats(players[name], lines, (), results.preset.stage_keys,
                              max_missed_rounds=results.preset.max_missed_rounds,
                              disqualified_eligible=results.preset.disqualified_eligible)
                 for name, lines in lines_of.items()]
        games = tuple(sorted((p for p in of_day[date] if p.game_id in counted), key=_game_key))
        waiting = [p for p in of_day[date] if p.game_id not in counted]
        flagged = tuple((p, any(p.holds(loc) for loc in errors)) for p in sorted(waiting, key=_game_key))
        broken = sum(1 for _, error in flagged if error)
        evenings.append(Evening(date=date, games=games, standings=tuple(rank(stats, results.preset.tiebreaks)),
                                typed=len(games) + len(waiting), with_errors=broken, unfinished=len(waiting) - broken,
                                waiting_games=flagged))
    return tuple(evenings)


def _typed(p: Protocol) -> bool:
    """Something typed into the game's block: a player or a winner (an empty block is no game yet)."""
    return p.finished or bool(p.winner_text) or any(s.player for s in p.seats)


def _player_season(stats: PlayerStats, dated: Mapping[str, Sequence[tuple[Protocol, GameLine]]],
                   results: Results) -> PlayerSeason:
    games = dated.get(stats.player, ())
    history = tuple(HistoryLine(date=_day(p), sheet=p.sheet, game=p.round, table=p.table, seat=ln.seat, role=ln.role,
                                won=ln.won, points=ln.total) for p, ln in games)
    running: dict[str, Decimal] = {}
    total = Decimal(0)
    for line in history:
        total += line.points
        running[line.date] = total
    roles = tuple(RoleRecord(role=r, games=sum(1 for h in history if h.role is r),
                             wins=sum(1 for h in history if h.role is r and h.won)) for r in _ROLE_ORDER)
    moves = [(p, rec) for p, ln in games if (rec := _best_move_of(p, ln, results.preset.best_move_by)) is not None]
    return PlayerSeason(player=stats.player, history=history, after_evening=tuple(running.items()), roles=roles,
                        best_moves=len(moves), blacks_named=sum(blacks_named(p, rec) for p, rec in moves))


def _best_move_of(protocol: Protocol, line: GameLine, authors: Sequence[str]) -> SeatRecord | None:
    """The seat of ``line`` when it left a best move: a red player who may leave one, three other seats named."""
    record = next((s for s in protocol.seats if s.seat == line.seat), None)
    if record is None or line.role.team is not Team.RED or not may_name_best_move(record, authors):
        return None
    named = set(record.best_move)
    return record if len(named) == 3 and record.seat not in named else None
