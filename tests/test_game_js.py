"""The phone's JavaScript port of the replay (templates/web/assets/judge/game.js) against the
Python core, exactly: the same logs replayed in both — every regulation case of
tests/test_game_rules.py (after each of its events), a few hundred seeded simulated games, logs
full of junk and undos, the same log resent and shuffled — must give the same whole state (as
:mod:`scoring.game.jsonform` writes it), the same ``allowed``, ``timer``, ``next_speaker``, every
refusal's id and words, and the same protocol cells in Russian and English.  Events are read by
the server (``from_dict``); the port replays them in the JSON form the log keeps.

One node process answers every case (tests/js/replay_cli.mjs reads them as JSON on stdin).
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from scoring.game import events as ev
from scoring.game.events import from_dict
from scoring.game.jsonform import live_view, rules_to_dict, state_to_dict
from scoring.game.protocol import protocol_cells, state_protocol
from scoring.game.replay import replay
from scoring.game.simulate import PLAYERS, simulate_events
from scoring.game.state import GameRules
from scoring.model import SeatingEntry
from tests.game_support import Game
from tests.test_game_rules import CASES, day1_vote, even_tie, ended_with_preset_range

ROOT = Path(__file__).resolve().parent.parent
CLI = ROOT / "tests" / "js" / "replay_cli.mjs"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

PRESET_RULES = GameRules(best_move_by=("shot_first", "voted_first_day"), extra_min=Decimal("0.1"),
                         extra_max=Decimal("0.7"), extra_step=Decimal("0.05"))
SEATING = SeatingEntry(stage="qualifying", round=1, table=1, players=PLAYERS)


def python_view(events: list[ev.Event], players: tuple[str | None, ...], rules: GameRules) -> dict[str, Any]:
    state = replay(events, players=players, rules=rules)
    seating = SeatingEntry(stage="qualifying", round=1, table=1, players=tuple(players))
    protocol = state_protocol(state, seating)
    cells = {lang: {f"{seat or ''}:{key}": text for (seat, key), text in protocol_cells(protocol, lang, state).items()}
             for lang in ("ru", "en")}
    return {"state": state_to_dict(state), **live_view(state), "cells_ru": cells["ru"], "cells_en": cells["en"]}


def junk_event(rng: random.Random, n: int, ids: list[str]) -> dict[str, Any]:
    """Any event the phone could send, read fine by ``from_dict``, that the game may well refuse."""
    seat = rng.randint(1, 10)
    others = rng.sample([s for s in range(1, 11)], rng.choice((0, 2, 3, 3, 4)))
    kind = rng.choice(list(ev.EVENT_TYPES))
    fields: dict[str, Any] = {
        "seat": {"seat": seat, "player": rng.choice((None, PLAYERS[seat - 1], "Новичок", PLAYERS[0]))},
        "deal": {"seat": seat, "role": rng.choice(("civilian", "sheriff", "mafia", "don"))},
        "judge": {"name": rng.choice(("Судья  Анна", "", "Bob"))},
        "night_zero": {"step": rng.choice(("agreement", "don", "sheriff"))},
        "speech_start": {"seat": seat}, "speech_end": {"seat": seat}, "nominate": {"by": rng.randint(1, 10), "seat": seat},
        "vote": {"counts": [[s, rng.randint(0, 5)] for s in others[:3] or [seat]]}, "raise_all": {"yes": rng.randint(0, 10)},
        "shot": {"seat": seat}, "miss": {}, "don_check": {"seat": rng.choice((None, seat))},
        "sheriff_check": {"seat": rng.choice((None, seat))}, "best_move": {"seat": seat, "seats": others},
        "foul": {"seat": seat}, "removal": {"seat": seat, "team_defeat": rng.random() < 0.2},
        "extra": {"seat": seat, "points": rng.choice(("0.3", "0.35", "0,5", "-0.2", "0.9", "0.10", "0", "1"))},
        "ruling": {"team": rng.choice(("red", "black"))},
        "undo": {"target": rng.choice(ids) if ids and rng.random() < 0.8 else f"e{rng.randint(1, n + 3)}"},
    }[kind]
    return {"kind": kind, "id": f"j{n}", "seq": n, **fields}


def messy_log(seed: int) -> list[dict[str, Any]]:
    """A simulated game with junk, undos of the last and of other events, resends and arrival out of order."""
    rng = random.Random(seed)
    events = [e.to_dict() for e in simulate_events(rng, undo=0.08, junk=0.1, limit=400)]
    out: list[dict[str, Any]] = []
    for event in events:
        out.append(event)
        r = rng.random()
        if r < 0.15:
            out.append(junk_event(rng, len(out) + 1, [e["id"] for e in out]))
        elif r < 0.22 and out:
            out.append({"kind": "undo", "id": f"u{len(out) + 1}", "seq": len(out) + 1, "target": out[-1]["id"]})
        elif r < 0.25:
            out.append(dict(rng.choice(out)))  # a resend: the same id again
    seqs = {}
    for i, event in enumerate(out):  # renumber what is not a resend, then shuffle the arrival
        event = dict(event)
        event["seq"] = seqs.setdefault(event["id"], len(seqs) + 1)
        out[i] = event
    rng.shuffle(out)
    return out


def everyone_tied() -> Game:
    """Day 1: each player nominates the next, and all ten tie twice: no vote to raise them all."""
    g = Game().speeches({s: s % 10 + 1 for s in range(1, 11)})
    order = tuple(s % 10 + 1 for s in range(1, 11))
    g.vote(*((s, 1) for s in order)).speeches().vote(*((s, 1) for s in order))
    g.add(ev.RaiseAll, yes=6)
    return g


def raise_too_many() -> Game:
    g = even_tie(day1_vote(Game(), 9).night(3).morning(), 1, 10, (2, 4))  # eight at the table on day 2
    g.add(ev.RaiseAll, yes=9)
    return g


def best_move_by_another() -> Game:
    g = Game().quiet_day().night(3)
    g.add(ev.SpeechStart, seat=3)
    g.add(ev.BestMove, seat=4, seats=(8, 9, 10))
    return g


def extra_off_step() -> Game:
    g = ended_with_preset_range()
    g.add(ev.Extra, seat=2, points=Decimal("0.33"))
    g.add(ev.Extra, seat=3, points=Decimal("0.45"))
    return g


# the refusals the regulation cases and the random walks rarely reach
MORE = {"everyone tied twice": everyone_tied, "more for raising than at the table": raise_too_many,
        "a best move by another seat": best_move_by_another, "extra points off the step": extra_off_step}


def cases() -> list[dict[str, Any]]:
    out = []
    for name, build in [*((c.name, c.build) for c in CASES), *MORE.items()]:
        case_name, g = name, build()
        events = [e.to_dict() for e in g.events]
        out.append({"name": f"rule: {case_name}", "events": events, "players": list(PLAYERS), "rules": g.rules,
                    "prefixes": list(range(len(events) + 1))})
    for seed in range(250):
        rules = PRESET_RULES if seed % 3 == 0 else GameRules()
        events = [e.to_dict() for e in simulate_events(random.Random(seed), rules=rules, undo=0.03, junk=0.05)]
        step = max(1, len(events) // 6)
        out.append({"name": f"simulated {seed}", "events": events, "players": list(PLAYERS), "rules": rules,
                    "prefixes": [*range(0, len(events), step), len(events)]})
    for seed in range(80):
        log = [from_dict(d).to_dict() for d in messy_log(1000 + seed)]  # as the server's log keeps them
        players = list(PLAYERS) if seed % 4 else [*PLAYERS[:7], None, "", PLAYERS[9]]  # empty seats: refused deals
        out.append({"name": f"messy {seed}", "events": log, "players": players,
                    "rules": PRESET_RULES if seed % 2 else GameRules(), "prefixes": [len(log) // 2, len(log)]})
    return out


@cache
def both() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Each case with node's answer (one node process for them all)."""
    all_cases = cases()
    payload = {"cases": [{**c, "rules": rules_to_dict(c["rules"])} for c in all_cases]}
    done = subprocess.run([NODE, str(CLI)], input=json.dumps(payload, ensure_ascii=False), capture_output=True,
                          text=True, check=True, cwd=ROOT)
    return list(zip(all_cases, json.loads(done.stdout), strict=True))


def events_of(dicts: list[dict[str, Any]]) -> list[ev.Event]:
    return [from_dict(d) for d in dicts]


@pytest.mark.parametrize("group", ["rule", "simulated", "messy"])
def test_the_port_replays_every_log_exactly_as_python(group: str):
    compared = 0
    for case, answer in both():
        if not case["name"].startswith(group):
            continue
        events = events_of(case["events"])
        for n, js in zip(case.get("prefixes", ()), answer["views"], strict=True):
            py = python_view(events[:n], tuple(case["players"]), case["rules"])
            for key in py:
                assert js[key] == py[key], f"{case['name']} after {n} events: {key} differs"
            compared += 1
    assert compared > (20 if group == "rule" else 100)


def test_the_logs_cover_every_refusal_and_step():
    """The comparison above means something only if the logs reach the rules: every step, most refusals."""
    rules_seen, steps_seen = set(), set()
    for case, _ in both():
        if case.get("events"):
            state = replay(events_of(case["events"]), players=tuple(case["players"]), rules=case["rules"])
            rules_seen |= {r.rule for _, r in state.refused}
            steps_seen.add(state.step.value)
            for n in case.get("prefixes", ()):
                steps_seen.add(replay(events_of(case["events"][:n]), players=tuple(case["players"])).step.value)
    assert len(steps_seen) == 13, steps_seen
    from scoring.game.refusals import REFUSALS
    # the server log's refusals are not replay's; a seat out of 1–10 never passes from_dict
    never = set(REFUSALS) - rules_seen - {"log.gap", "log.seq_taken", "log.conflict", "seat.range"}
    assert not never, never
