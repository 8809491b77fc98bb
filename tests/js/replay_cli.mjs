// Replays the logs of tests/test_game_js.py with the phone's port (game.js): reads
// {"cases": [{"name", "events", "players", "rules", "prefixes"?}]} on stdin, writes for each case
// the state, allowed, timer, next_speaker and protocol cells (ru, en) — at the end and after every
// prefix length listed — as JSON on stdout. One process for every case.
import { readFileSync } from "node:fs";
import { allowed, nextSpeaker, protocolCells, replay, timer } from "../../templates/web/assets/judge/game.js";

function view(events, c) {
  const state = replay(events, { players: c.players, rules: c.rules });
  return { state, allowed: allowed(state), timer: timer(state), next_speaker: nextSpeaker(state),
    cells_ru: protocolCells(state, "ru"), cells_en: protocolCells(state, "en") };
}

const input = JSON.parse(readFileSync(0, "utf8"));
const out = input.cases.map((c) => ({
  name: c.name,
  views: (c.prefixes || [c.events.length]).map((n) => view(c.events.slice(0, n), c)),
}));
process.stdout.write(JSON.stringify(out));
