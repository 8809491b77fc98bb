"""Names typed into protocols, the seating and penalties, read against the Players tab."""

from __future__ import annotations

from dataclasses import replace

from scoring.model import Location, PenaltyEntry, Protocol, SeatingEntry
from scoring.names import Match, NameIndex
from scoring.problems import Problem, problem
from scoring.parse.grid import E, W


# -- names typed into protocols, the seating and penalties -----------------------------------------
class _Names:
    """Reads every typed name against the Players tab (:mod:`scoring.names`): a name registered
    under another spelling of the same fold is read as that player, with a warning at its cell;
    a fold several players share is an error there.  An unknown name is left as typed (the
    rules report it, with the nearest players)."""

    def __init__(self, index: NameIndex, problems: list[Problem]):
        self.index = index
        self.problems = problems

    def read(self, typed: str | None, where: Location | None) -> str | None:
        if not typed:
            return typed
        found = self.index.resolve(typed)
        if found.match is Match.FOLDED:
            self.problems.append(problem("player.folded", W, where, typed=typed, player=found.name))
        elif found.match is Match.AMBIGUOUS:
            self.problems.append(problem("player.ambiguous", E, where, typed=typed,
                                         players=", ".join(f"«{n}»" for n in found.candidates)))
        return found.name

    def protocol(self, p: Protocol) -> Protocol:
        names = [self.read(rec.player, rec.cells.get("player")) for rec in p.seats]
        if all(name == rec.player for name, rec in zip(names, p.seats)):
            return p  # the usual case: every name as registered (nothing copied)
        return replace(p, seats=tuple(rec if name == rec.player else replace(rec, player=name)
                                      for name, rec in zip(names, p.seats)))

    def seating(self, e: SeatingEntry) -> SeatingEntry:
        players = tuple(self.read(name, e.seat_location(i)) for i, name in enumerate(e.players))
        return e if players == e.players else replace(e, players=players)

    def penalty(self, e: PenaltyEntry) -> PenaltyEntry:
        player = self.read(e.player, e.location)
        return e if player == e.player else replace(e, player=player)
