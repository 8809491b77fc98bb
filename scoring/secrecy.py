"""What of a game in play may be shown outside the workbook: nothing secret until the winner is typed.

The regulation gives the team a defeat for «сознательное подглядывание для получения информации,
иные неигровые способы получения информации» (german-mafia-open-2016, «Присуждение поражения
команде»).  A judge often types the roles (or the sheriff's and the don's checks, the best move)
into the protocol tab while the game runs; a public page, JSON or the hall's screen showing them
would be exactly that other way of getting information.  So a game *in play* — a protocol with no
winner read yet (a blank pre-filled tab has nothing to hide either way) — shows in every public
output only what the judge announces at the table: the players, fouls, penalties, who left when
and how, who was nominated.  Its roles, best move, extra points (and the automatic ones taken),
the judge's comment and the optional check columns are left out: :func:`public_protocol`.

Problems of such a game still name their cell (the judges see the sheet), but never quote a secret:
what the public sees of them is what the rules find in the game as it may be shown — the same as if
the secret cells were empty (:func:`public_problems`).  Once the winner is typed, the game is shown
as typed.  The workbook's Problems tab, which whoever opens the workbook reads, lists such a problem
at its cell without its words (:func:`discreet_problems`); the note on the cell keeps them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from scoring.model import GameIndex, Location, Protocol, SeatRecord, Tournament
from scoring.preset import Preset
from scoring.problems import Problem
from scoring.rules import game_problems

__all__ = ["SECRET_COLUMNS", "in_play", "public_protocol", "public_tournament", "secret_cells", "public_problems",
           "discreet_problems", "Secrets", "secrets"]

# the protocol's columns whose cells are secret while the game is played (scoring.labels.PROTOCOL_COLUMNS)
SECRET_COLUMNS = ("role", "best_move", "extra_points", "auto_extra_taken", "comment", "sheriff_check", "don_check")
# found only because roles are typed, but telling none: the Problems tab says them as they are
_SAID_ANYWAY = frozenset({"protocol.not_finished"})
# a block's closing line «ПУ 5 ЛХ 2 3 4»: its conflict with the seat rows quotes the ЛХ typed
_SECRET_SUMMARY_LABEL = "ЛХ"


def in_play(protocol: Protocol) -> bool:
    """Typed, but no winner read yet: the game is (for the outputs) still being played.  A winner
    typed but not understood keeps it in play — its error names the winner cell, not the roles."""
    return not protocol.finished and not protocol.blank


def _public_seat(seat: SeatRecord) -> SeatRecord:
    if (seat.role is None and not seat.role_unread and not seat.best_move and not seat.extra_points
            and not seat.auto_extra_taken and not seat.comment):
        return seat
    return replace(seat, role=None, role_unread=False, best_move=(), extra_points=Decimal(0),
                   auto_extra_taken=False, comment="")


def public_protocol(protocol: Protocol) -> Protocol:
    """``protocol`` as a public output may show it: a finished game as typed; a game in play
    without its roles, best move, extra points and comments (the check columns are not read into
    the protocol at all).  The same object when there is nothing to leave out."""
    if not in_play(protocol):
        return protocol
    seats = tuple(_public_seat(s) for s in protocol.seats)
    if all(a is b for a, b in zip(seats, protocol.seats)):
        return protocol
    return replace(protocol, seats=seats)


def public_tournament(tournament: Tournament) -> Tournament:
    """The tournament with every game in play as :func:`public_protocol` shows it (the same object
    when no game in play has anything to leave out)."""
    protocols = tuple(public_protocol(p) for p in tournament.protocols)
    if all(a is b for a, b in zip(protocols, tournament.protocols)):
        return tournament
    return replace(tournament, protocols=protocols)


def secret_cells(protocol: Protocol) -> frozenset[Location]:
    """The cells of a game in play whose values are secret (none for a finished game)."""
    if not in_play(protocol):
        return frozenset()
    return frozenset(loc for seat in protocol.seats for column in SECRET_COLUMNS
                     if (loc := seat.cells.get(column)) is not None)


def _quotes_secret(pr: Problem, secret: frozenset[Location], games: GameIndex) -> bool:
    if any(loc in secret for loc in pr.locations):
        return True
    return pr.params.get("label") == _SECRET_SUMMARY_LABEL and games.game_at(pr.location) is not None


def _without(problems: Iterable[Problem], gone: Sequence[Problem]) -> list[Problem]:
    """``problems`` less one occurrence of each of ``gone`` (a Problem holds a dict: no set of them)."""
    left = list(gone)
    kept = []
    for pr in problems:
        if pr in left:
            left.remove(pr)
        else:
            kept.append(pr)
    return kept


@dataclass(frozen=True, slots=True)
class Secrets:
    """What :func:`public_problems` and :func:`discreet_problems` need to know of a tournament's games
    in play, worked out once: the tournament as shown, the secret cells, and the per-game rules'
    problems found only in the games as typed (``told``) and only as shown (``instead``)."""

    shown: Tournament
    cells: frozenset[Location]
    games: GameIndex
    told: tuple[Problem, ...]
    instead: tuple[Problem, ...]


def secrets(tournament: Tournament, preset: Preset) -> Secrets | None:
    """The secrets of ``tournament``'s games in play; None when no game is in play."""
    playing = [p for p in tournament.protocols if in_play(p)]
    if not playing:
        return None
    shown = public_tournament(tournament)
    changed = [(p, q) for p, q in zip(tournament.protocols, shown.protocols) if q is not p]
    as_typed = game_problems(tournament, preset, [p for p, _ in changed]) if changed else []
    as_shown = game_problems(shown, preset, [q for _, q in changed]) if changed else []
    return Secrets(shown=shown, cells=frozenset().union(*(secret_cells(p) for p in playing)), games=GameIndex(playing),
                   told=tuple(_without(as_typed, as_shown)), instead=tuple(_without(as_shown, as_typed)))


def _told(known: Secrets, problems: Sequence[Problem]) -> list[bool]:
    """For each of ``problems``: would it tell a secret (found only in a game as typed, or at or
    quoting a secret cell)?"""
    left = list(known.told)
    told = []
    for pr in problems:
        if left and pr in left:
            left.remove(pr)
            told.append(True)
        else:
            told.append(_quotes_secret(pr, known.cells, known.games))
    return told


def public_problems(tournament: Tournament, preset: Preset, problems: Sequence[Problem],
                    known: Secrets | None = None) -> tuple[Problem, ...]:
    """``problems`` as the public may read them: a game in play's problems are those the rules find
    in :func:`public_protocol` of it, and the reader's at its public cells; nothing that sits in, or
    quotes, a secret cell.  Other games' problems are kept as they are, in their order.  ``known``:
    :func:`secrets` of the tournament, when the caller has it."""
    known = known or secrets(tournament, preset)
    if known is None:
        return tuple(problems)
    told = _told(known, problems)
    if not any(told) and not known.instead:
        return tuple(problems)
    return (*(pr for pr, secret in zip(problems, told) if not secret), *known.instead)


def discreet_problems(tournament: Tournament, preset: Preset, problems: Sequence[Problem]) -> tuple[Problem, ...]:
    """``problems`` for a list anybody who opens the workbook may read (its Problems tab): each one
    kept at its cell and severity, but one that would tell a secret of a game in play says only that
    the cell's note has it (``game.secret``).  The notes on the protocol's own cells keep every word:
    they sit beside what was typed."""
    known = secrets(tournament, preset)
    if known is None:
        return tuple(problems)
    told = _told(known, problems)
    if not any(secret and pr.rule not in _SAID_ANYWAY for pr, secret in zip(problems, told)):
        return tuple(problems)
    return tuple(replace(pr, rule="game.secret", params={"rule": pr.rule}) if secret and pr.rule not in _SAID_ANYWAY
                 else pr for pr, secret in zip(problems, told))
