"""A club season's ratings: the evenings' games summed, averaged and ranked, per evening and per player.

A club plays every week; whoever comes plays.  The season (a Tournament tab with «Формат:
сезон») is the standings of every counted game (:func:`scoring.standings.compute`: the
points of each game come from the point items and the club's preset, typed penalties
included), ranked by the preset's ``season.ranking`` — the total or the average per game —
with the preset's tiebreak chain through the one placing loop (:func:`scoring.standings.rank`).
A player needs ``season.min_games`` games to be ranked; below it he is listed apart with the
games he still needs.  Beside it: the standings of each evening (by total), each player's
history (date, game, seat, role, result, points) and his role statistics (games and win rate
per role, best move accuracy).

Only the Players tab's players are in a season: a name typed into a protocol that is not on
the Players tab is an error at its cell (the game does not count), never a new player.
Nothing depends on the order of the evenings or of the games in a tab: evenings are sorted
by date, games by (date, tab, game, table), equal places are shared and listed by nickname.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from scoring.collation import name_key
from scoring.items import GameLine, blacks_named, may_name_best_move
from scoring.memo import last_answer
from scoring.model import Protocol, Role, SeatRecord, Team
from scoring.numbers import quantize
from scoring.standings import Results, Standing, rank
from scoring.stats import PlayerStats, player_stats

__all__ = ["SeasonStanding", "Evening", "HistoryLine", "RoleRecord", "PlayerSeason", "Season", "season",
           "AVERAGE_QUANTUM"]

AVERAGE_QUANTUM = Decimal("0.01")  # an average per game is shown to hundredths (ranked exactly)
_ROLE_ORDER = (Role.SHERIFF, Role.CIVILIAN, Role.DON, Role.MAFIA)


def _average(stats: PlayerStats) -> Fraction:
    return stats.exact_total / stats.games if stats.games else Fraction(0)


@dataclass(frozen=True, kw_only=True, slots=True)
class SeasonStanding:
    """A player of the season table: his place (None below the minimum), total and average."""

    standing: Standing  # place and tiebreak (among the ranked), the player's statistics
    ranked: bool
    games_needed: int  # games still needed to be ranked (0 when ranked)

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
    """One evening: its date, its counted games and its standings by total."""

    date: str  # ISO, "2026-12-05" ("" gathers the games without a date)
    games: tuple[Protocol, ...]
    standings: tuple[Standing, ...]


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
    ranking: str  # "total" or "average": the main table's order
    min_games: int
    standings: tuple[SeasonStanding, ...]  # the ranked players in place order
    below_minimum: tuple[SeasonStanding, ...]  # fewest games still needed first, then by nickname
    evenings: tuple[Evening, ...]  # by date
    players: Mapping[str, PlayerSeason]

    @property
    def games(self) -> int:
        return sum(len(e.games) for e in self.evenings)

    def evening(self, date: str) -> Evening | None:
        return next((e for e in self.evenings if e.date == date), None)


@last_answer  # the Standings tab, the site, standings.json and the VK post all ask for it
def season(results: Results) -> Season:
    """The season of a club's results (any results: a tournament's games all carry the date "")."""
    preset = results.preset
    rule = preset.season
    needed = max(1, rule.min_games)
    everyone = [st.stats for st in results.overall]
    ranked = rank([s for s in everyone if s.games >= needed], preset.tiebreaks,
                  by=_average if rule.ranking == "average" else None)
    below = sorted((s for s in everyone if s.games < needed), key=lambda s: (needed - s.games, name_key(s.player)))
    dated = _dated_lines(results)
    return Season(
        ranking=rule.ranking,
        min_games=rule.min_games,
        standings=tuple(SeasonStanding(standing=st, ranked=True, games_needed=0) for st in ranked),
        below_minimum=tuple(SeasonStanding(standing=Standing(place=0, places="", stats=s), ranked=False,
                                           games_needed=needed - s.games) for s in below),
        evenings=_evenings(results, dated),
        players={s.player: _player_season(s, dated, results) for s in everyone},
    )


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
    evenings = []
    for date in sorted({_day(p) for p in results.counted}):
        lines_of: dict[str, list[GameLine]] = defaultdict(list)
        for ln in by_date[date]:
            lines_of[ln.player].append(ln)
        stats = [player_stats(players[name], lines, (), results.preset.stage_keys,
                              max_missed_rounds=results.preset.max_missed_rounds,
                              disqualified_eligible=results.preset.disqualified_eligible)
                 for name, lines in lines_of.items()]
        games = tuple(sorted((p for p in results.counted if _day(p) == date), key=_game_key))
        evenings.append(Evening(date=date, games=games, standings=tuple(rank(stats, results.preset.tiebreaks))))
    return tuple(evenings)


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
