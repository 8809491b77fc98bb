"""Generated tournaments of N players for benchmarks and stress tests.

`generate_patch(players=500, rounds=10)` builds the tabs people type into (Tournament,
Players, Seating, Penalties, one protocol tab per game) with every qualifying game played
by the seeded simulator; `generate_workbook(path, ...)` saves them as an .xlsx.  The
seating is the plain rotating one (the balanced draw is not what is being measured).

    python -m bench.generate out/t500.xlsx --players 500 --rounds 10
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from scoring.model import Player
from scoring.simulate import simulate_game
from sheets_sync.backends.base import Patch
from sheets_sync.workbook.layout import protocol_title
from sheets_sync.presets import load_preset
from sheets_sync.workbook.tournament_setup import simple_seating, workbook_patch

__all__ = ["generate_patch", "generate_workbook", "player_names"]

_SYLLABLES = ["ка", "ро", "ми", "та", "ле", "зу", "ви", "но", "да", "ши", "ку", "ре", "са", "мо", "ти", "ля"]


def player_names(n: int, seed: int = 1) -> list[str]:
    """``n`` distinct invented nicknames."""
    rng = random.Random(seed)
    names: list[str] = []
    seen: set[str] = set()
    while len(names) < n:
        name = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))).capitalize()
        if name in seen:
            name = f"{name} {len(names)}"
        seen.add(name)
        names.append(name)
    return names


def generate_patch(*, players: int = 100, rounds: int = 10, seed: int = 1, preset_id: str = "gmo-2016",
                   names: Sequence[str] | None = None, clubs: Sequence[str] | None = None,
                   comments: Sequence[str] | None = None, name: str | None = None, language: str = "ru") -> Patch:
    """Every input tab of a tournament whose ``rounds`` qualifying rounds are all played."""
    if players % 10:
        raise ValueError("players must be a multiple of 10 (ten per table)")
    preset, _ = load_preset(preset_id, [("stages.qualifying.games", rounds)])
    nicknames = list(names) if names is not None else player_names(players, seed)
    if len(nicknames) < players:
        raise ValueError("not enough names")
    nicknames = nicknames[:players]
    club_list = list(clubs) if clubs else ["Клуб А", "Клуб Б", "Клуб В", "Без клуба"]
    roster = [Player(nickname=n, club=club_list[i % len(club_list)], city="") for i, n in enumerate(nicknames)]
    stage = preset.stage_keys[0]
    seating = simple_seating(nicknames, stage, rounds)
    rng = random.Random(seed)
    protocols = []
    for e in seating:
        title = protocol_title(preset, e.stage, e.round, e.table, language)
        p = simulate_game(list(e.players), stage=stage, round_no=e.round, table=e.table, sheet=title, preset=preset,
                          rng=rng, judge=f"Судья {e.table}")
        if comments:
            seats = tuple(replace(s, comment=comments[(e.round * 10 + i) % len(comments)]) for i, s in enumerate(p.seats))
            p = replace(p, seats=seats)
        protocols.append(p)
    patch = workbook_patch(name=name or f"Сгенерированный турнир: {players} игроков, {rounds} туров", preset=preset,
                           language=language, players=roster, seating=seating, protocols=protocols, date="2024")
    # the number of rounds differs from the preset: say so on the Tournament tab, as an organizer would
    writes = []
    for w in patch.writes:
        if w.title in ("Турнир", "Tournament") and rounds != load_preset(preset_id)[0].stage(stage).games:
            w = replace(w, rows=w.rows + (("stages.qualifying.games", rounds),))
        writes.append(w)
    return replace(patch, writes=tuple(writes))


def generate_workbook(path: str | Path, **kw) -> Path:
    """Save :func:`generate_patch` as an .xlsx at ``path`` (replacing it)."""
    from sheets_sync.backends.excel import ExcelBackend

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        path.unlink()
    ExcelBackend(path, backups=0).apply(generate_patch(**kw), base=None)
    return path


def main() -> None:  # pragma: no cover
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path")
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(generate_workbook(args.path, players=args.players, rounds=args.rounds, seed=args.seed))


if __name__ == "__main__":  # pragma: no cover
    main()
