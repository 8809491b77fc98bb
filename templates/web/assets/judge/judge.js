// The judge's page: the link's games in order, each as the paper protocol as a form. Every tap
// is an entry in the phone's outbox (outbox.js) before it goes to the server; the form's state is
// kept in IndexedDB so that a reload (offline too, through sw.js) finds it as it was; the
// server's answer brings its problems, the sheet's conflicts and where the game stands.

import { html, render } from "./vendor/htm-preact.js";
import { Outbox, load, save } from "./outbox.js";
import * as F from "./form.js";

const root = document.getElementById("judge");
const { api, token, language: LANG } = root.dataset;
const w = (key) => F.word(key, LANG);
const POLL_MS = 10_000; // a second phone's entries appear within this while the page is visible
const RETRY_MS = 5_000;

const S = {
  list: null, // the link's answer: {link, choices, rules, games}
  games: {}, // gid → the game's latest JSON
  forms: {}, // gid → {cells, base, problems, checked, conflicts, chosen, seq}
  etags: {},
  view: null, // the open game's gid, or null for the list
  live: null, // the gid shown in the live mode
  liveHandle: null, // what live.js's mount returned
  formChosen: new Set(), // the gids whose live mode the judge left for the form
  notice: {}, // field key → a word said at the field (a fifth foul tapped)
  refusal: {}, // gid → the server's last refusal in the judge's language
  picker: null, // {seat, query} while a substitute is being chosen
  bestWho: {}, // gid → the seat naming the best move, before it has named any
  typing: {}, // "gid|key" → the text of a field being typed in
  exitHow: {}, // "gid:seat" → how the player left, chosen before the number of the day or night
  entering: {}, // gid → taps being written to the outbox this moment
  unreachable: false,
};
const listeners = new Set(); // the live mode's onChange callbacks

const outbox = new Outbox({
  api, token,
  prepare: (entry) => ({ id: entry.id, cells: entry.cells, base: pick(formOf(entry.gid).base, Object.keys(entry.cells)),
    submit: entry.submit, choose: entry.choose }),
  answered: async (batch, answer) => {
    const gid = batch[0].gid;
    delete S.refusal[gid];
    if (batch[0].kind === "form") {
      const entry = batch[0], form = formOf(gid);
      const conflicts = new Set(((answer.game && answer.game.conflicts) || []).map((c) => c.key));
      for (const [key, text] of Object.entries(entry.cells)) if (!conflicts.has(key)) form.base[key] = text;
      for (const key of Object.keys(entry.choose || {})) delete form.chosen[key];
      form.problems = answer.problems || [];
      form.checked = { ...entry.cells };
    } else {
      const why = (answer.receipts || []).map((r) => r.why).filter(Boolean).pop();
      if ((answer.receipts || []).some((r) => r.status === "rejected") && why) S.refusal[gid] = why[LANG] || why.ru;
    }
    if (answer.game) mergeGame(answer.game, { saved: true });
    else await keep(gid);
    tellLive(gid);
  },
  refused: async (batch, error) => {
    S.refusal[batch[0].gid] = error[LANG] || error.ru;
  },
  changed: () => draw(),
});

function pick(object, keys) {
  const out = {};
  for (const key of keys) out[key] = object[key] ?? "";
  return out;
}

const formKey = (gid) => `form:${token}:${gid}`;
const keep = (gid) => save(formKey(gid), S.forms[gid]);

function formOf(gid) {
  if (S.forms[gid]) return S.forms[gid];
  const game = S.games[gid] || { cells: {}, seats: [] };
  const base = pick(game.cells || {}, F.FORM_KEYS);
  const cells = { ...base };
  F.SEATS.forEach((s) => {
    if (!cells[`${s}:player`] && game.seats && game.seats[s - 1]) cells[`${s}:player`] = game.seats[s - 1];
  });
  S.forms[gid] = { cells, base, problems: game.problems || [], checked: { ...(game.cells || {}) },
    conflicts: game.conflicts || [], chosen: {}, seq: 0 };
  return S.forms[gid];
}

// The judge's name, remembered on the phone, in a game opened with none (sent with its next save)
function prefillJudge(gid) {
  const judge = localStorage.getItem("judge-name");
  if (!S.games[gid] || !judge) return;
  const form = formOf(gid);
  if (!form.cells[":judge"]) form.cells[":judge"] = judge;
}

// A game's JSON from the server: its problems, its conflicts, and the sheet's values of every
// field this phone has not changed (another phone's entries, a person's typing in the sheet)
function mergeGame(game, { saved = false } = {}) {
  const gid = game.gid, before = S.games[gid];
  const older = before && before.read_at && game.read_at && Date.parse(game.read_at) < Date.parse(before.read_at);
  if (older) return; // a cached answer older than what the page holds
  S.games[gid] = game;
  if (S.list) S.list.games = S.list.games.map((g) => (g.gid === gid ? game : g));
  const form = formOf(gid);
  if (!saved) {
    form.problems = game.problems || [];
    form.checked = { ...(game.cells || {}) };
  }
  form.conflicts = (game.conflicts || []).filter((c) => !(c.key in form.chosen));
  // a cell the judge never touched (his value is the one he had read) that a person changed in the
  // sheet is the sheet's: nothing to ask, the form takes it (and tells the server so)
  const untouched = form.conflicts.filter((c) => c.mine === c.base && (form.cells[c.key] ?? "") === c.mine);
  if (untouched.length) {
    const updates = {}, taken = {};
    for (const c of untouched) {
      updates[c.key] = form.base[c.key] = c.sheet;
      taken[c.key] = form.chosen[c.key] = "sheet";
    }
    form.conflicts = form.conflicts.filter((c) => !untouched.includes(c));
    change(gid, updates, { choose: taken });
  }
  const inConflict = new Set(form.conflicts.map((c) => c.key));
  const settled = outbox.count(gid) === 0 && !game.pending
    && (!game.saved_at || !game.read_at || Date.parse(game.read_at) >= Date.parse(game.saved_at));
  if (settled) {
    for (const key of F.FORM_KEYS) {
      const sheet = (game.cells || {})[key];
      if (sheet === undefined || inConflict.has(key)) continue;
      if (form.cells[key] === form.base[key] && sheet !== form.cells[key]) form.cells[key] = sheet;
      if (form.cells[key] === sheet) form.base[key] = sheet;
    }
  }
  keep(gid);
  draw();
}

async function change(gid, updates, { submit = false, choose = {} } = {}) {
  const form = formOf(gid);
  Object.assign(form.cells, updates);
  for (const key of Object.keys(updates)) delete S.notice[key];
  S.entering[gid] = (S.entering[gid] || 0) + 1; // the status line says so from the tap on
  draw();
  try {
    await keep(gid);
    await outbox.add({ kind: "form", gid, id: F.uuid(), cells: pick(form.cells, F.FORM_KEYS), submit, choose });
  } finally {
    S.entering[gid] -= 1;
    draw();
  }
}

function choose(gid, conflict, choice) {
  const form = formOf(gid);
  form.chosen[conflict.key] = choice;
  form.conflicts = form.conflicts.filter((c) => c.key !== conflict.key);
  const updates = {};
  if (choice === "sheet") {
    updates[conflict.key] = conflict.sheet;
    form.base[conflict.key] = conflict.sheet;
  }
  change(gid, updates, { choose: { [conflict.key]: choice } });
}

// ---- the network ----------------------------------------------------------------------------

async function fetchList() {
  try {
    const response = await fetch(api, { cache: "no-store" });
    if (!response.ok) {
      const answer = await response.json().catch(() => null);
      S.unreachable = answer && answer.error ? answer.error[LANG] || answer.error.ru : `${response.status}`;
      draw();
      return;
    }
    const answer = await response.json();
    S.unreachable = false;
    const games = answer.games;
    S.list = { ...answer, games: games.map((g) => S.games[g.gid] || g) };
    for (const game of games) mergeGame(game);
    S.list.games = games.map((g) => S.games[g.gid]);
    await save(`list:${token}`, S.list);
  } catch {
    // no network: the page goes on with what it keeps
  }
  draw();
}

async function fetchGame(gid) {
  try {
    const headers = S.etags[gid] ? { "If-None-Match": S.etags[gid] } : {};
    const response = await fetch(`${api}games/${encodeURIComponent(gid)}/`, { headers, cache: "no-store" });
    if (response.status === 304 || !response.ok) return;
    const etag = response.headers.get("ETag");
    if (etag) S.etags[gid] = etag;
    mergeGame(await response.json());
    if (S.list) save(`list:${token}`, S.list);
    resumeLive(gid);
  } catch {
    // offline: the next poll tries again
  }
}

function poll() {
  if (document.visibilityState !== "visible") return;
  if (outbox.entries.length) outbox.flush();
  if (S.view) fetchGame(S.view);
  else fetchList();
}

// ---- the live mode --------------------------------------------------------------------------

function eventsOf(gid) {
  const game = S.games[gid] || {};
  const known = new Map((game.events || []).map((e) => [e.id, e]));
  for (const entry of outbox.entries) if (entry.gid === gid && entry.kind === "events") known.set(entry.event.id, entry.event);
  return [...known.values()].sort((a, b) => a.seq - b.seq);
}

function tellLive(gid) {
  if (S.live !== gid) return;
  const events = eventsOf(gid);
  listeners.forEach((fn) => fn(events));
}

// a game begun live reopens live, where it stands, unless the judge went back to the form from it
function resumeLive(gid) {
  if (S.view === gid && !S.live && !S.formChosen.has(gid) && eventsOf(gid).length) openLive(gid);
}

async function openLive(gid) {
  const place = document.getElementById("live");
  let live;
  try {
    live = await import("./live.js");
  } catch {
    S.notice[`${gid}:live`] = w("live_missing");
    draw();
    return;
  }
  S.live = gid;
  listeners.clear();
  if (!document.getElementById("live-css")) { // the live mode's look, loaded with it
    const style = Object.assign(document.createElement("link"), { rel: "stylesheet", id: "live-css",
      href: new URL("./live.css", import.meta.url).pathname });
    document.head.append(style);
  }
  place.textContent = "";
  place.hidden = false;
  root.hidden = true;
  const back = document.createElement("button");
  back.className = "back wide";
  back.textContent = w("form_mode");
  back.addEventListener("click", () => { S.formChosen.add(S.live); closeLive(); });
  const said = Object.assign(document.createElement("p"), { id: "live-status", role: "status" });
  const screen = document.createElement("div");
  place.append(back, said, screen);
  draw();
  const form = formOf(gid);
  S.liveHandle = live.mount(screen, {
    game: S.games[gid], rules: S.list.rules, language: LANG,
    send: (event) => {
      const seq = Math.max(form.seq || 0, ...eventsOf(gid).map((e) => e.seq || 0)) + 1;
      form.seq = seq;
      const full = { ...event, id: F.uuid(), seq };
      keep(gid);
      outbox.add({ kind: "events", gid, event: full }).then(() => tellLive(gid));
      return full;
    },
    onChange: (fn) => listeners.add(fn),
  });
}

function closeLive() {
  if (S.liveHandle && typeof S.liveHandle.unmount === "function") S.liveHandle.unmount(); // its timers stop
  S.live = null;
  S.liveHandle = null;
  listeners.clear();
  const place = document.getElementById("live");
  place.hidden = true;
  place.textContent = "";
  root.hidden = false;
  if (S.view) fetchGame(S.view);
  draw();
}

// ---- the screens ----------------------------------------------------------------------------

function hhmm(iso) {
  return new Date(iso).toLocaleTimeString(LANG === "en" ? "en-GB" : "ru-RU", { hour: "2-digit", minute: "2-digit" });
}

function statusText(gid) {
  // a tap counts as waiting once its entry is in IndexedDB, not from the tap on: «ждёт сети: 3» said
  // while the third was still being written was lost by a reload at that moment
  const game = S.games[gid] || {}, waiting = outbox.kept(gid);
  const writing = (S.entering[gid] || 0) + outbox.count(gid) - waiting;
  if ((waiting || writing) && (outbox.sending || writing) && !outbox.offline) return w("sending");
  if (waiting && outbox.error) return `${w("error")}: ${outbox.error[LANG] || outbox.error.ru}`;
  if (waiting) return `${w("waiting_net")}: ${F.changes(waiting, LANG)}`;
  if (writing) return w("keeping");
  if (S.refusal[gid]) return `${w("error")}: ${S.refusal[gid]}`;
  if (game.pending) return w("waiting_sheet");
  if (game.saved_at) return `${w("saved")} ${hhmm(game.saved_at)}`;
  if (game.read_at) return `${w("read")} ${hhmm(game.read_at)}`;
  return w("not_saved");
}

function statusClass(gid) {
  const waiting = outbox.count(gid) + (S.entering[gid] || 0);
  if ((waiting && outbox.error) || S.refusal[gid]) return "status bad";
  return waiting || (S.games[gid] || {}).pending ? "status wait" : "status ok";
}

// A text field being typed in keeps what is typed through every redraw until it is left
const typing = (gid, key) => S.typing[`${gid}|${key}`] ?? formOf(gid).cells[key];
const typed = (gid, key, event) => { S.typing[`${gid}|${key}`] = event.target.value; };

const fieldKey = (field) => `${field[0] ?? ""}:${field[1]}`;

// The server's problems still true of what the form holds (a field changed since leaves its
// problem to the next answer), and the phone's own checks where the server says nothing
function problemsOf(gid) {
  const form = formOf(gid), checked = form.checked || {};
  const same = (key) => checked[key] === undefined || form.cells[key] === undefined || checked[key] === form.cells[key];
  const server = (form.problems || []).filter((p) => [F.problemKey(p), ...(p.related || []).map(fieldKey)].every(same));
  const said = new Set(server.map(F.problemKey));
  const roles = (S.list && S.list.choices.roles) || [];
  const local = F.localProblems(form.cells, roles, LANG).filter((p) => !said.has(F.problemKey(p)));
  return server.concat(local);
}

function Notes({ gid, keys, problems }) {
  const form = formOf(gid);
  const here = problems.filter((p) => keys.includes(F.problemKey(p)));
  const conflicts = form.conflicts.filter((c) => keys.includes(c.key));
  const notices = keys.filter((k) => S.notice[k]);
  if (!here.length && !conflicts.length && !notices.length) return null;
  const shown = (text) => (text ? text : w("empty_seat"));
  return html`<div class="notes">
    ${here.map((p) => html`<p class=${`problem ${p.severity}`} data-key=${F.problemKey(p)} data-rule=${p.rule}>
      ${p.message}${p.local ? html` <span class="quiet">${w("on_phone")}</span>` : ""}</p>`)}
    ${notices.map((k) => html`<p class="problem error" data-key=${k}>${S.notice[k]}</p>`)}
    ${conflicts.map((c) => html`<div class="conflict" data-key=${c.key}>
      <p><strong>${w("conflict")}</strong></p>
      <p class="both"><span class="sheet">${w("in_sheet")}: <b>${shown(c.sheet)}</b></span>
        <span class="mine">${w("yours")}: <b>${shown(c.mine)}</b></span></p>
      <div class="two">
        <button type="button" class="keep-mine" onClick=${() => choose(gid, c, "mine")}>${w("keep_mine")}</button>
        <button type="button" class="take-sheet" onClick=${() => choose(gid, c, "sheet")}>${w("take_sheet")}</button>
      </div></div>`)}
  </div>`;
}

function Seat({ gid, seat, problems }) {
  const form = formOf(gid), cells = form.cells, choices = S.list.choices;
  const key = (column) => `${seat}:${column}`;
  const player = cells[key("player")];
  const role = (cells[key("role")] || "").trim().toLowerCase();
  const fouls = Number(cells[key("fouls")] || 0);
  const written = F.exitOf(cells, seat, choices.removals);
  // «убит, ночь» chosen before its number: nothing to write yet, but the choice stays on the screen
  const exit = written.how ? written : { how: S.exitHow[`${gid}:${seat}`] || "", number: "" };
  const step = Number((S.list.rules || {}).extra_step) || 0.5;
  const setFouls = (n) => {
    const updates = { [key("fouls")]: n ? String(n) : "" };
    if (n === F.MAX_FOULS && !exit.how) Object.assign(updates, F.exitCells(seat, "removed", "", choices.removals));
    change(gid, updates);
  };
  const plusFoul = () => {
    if (fouls >= F.MAX_FOULS) {
      S.notice[key("fouls")] = w("no_fifth");
      draw();
      return;
    }
    setFouls(fouls + 1);
  };
  const setExit = (how, number) => {
    S.exitHow[`${gid}:${seat}`] = how;
    change(gid, F.exitCells(seat, how, number, choices.removals));
  };
  const setExtra = (text) => {
    const normal = F.extraText(text, LANG);
    change(gid, { [key("extra_points")]: normal === null ? String(text).trim() : normal });
  };
  const bumpExtra = (by) => setExtra(String(F.extraValue(cells[key("extra_points")]) + by));
  const foulNote = fouls >= F.MAX_FOULS ? w("removed_by_fouls") : fouls === 3 ? w("skips_speech") : "";
  const numbers = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  return html`<section class=${exit.how ? "seat out" : "seat"} id=${`seat-${seat}`} data-seat=${seat}>
    <div class="seat-head">
      <span class="num" aria-label=${`${w("seat")} ${seat}`}>${seat}</span>
      <button type="button" class="player name" onClick=${() => { S.picker = { seat, query: "" }; draw(); }}>
        ${player || html`<span class="quiet">${w("empty_seat")}</span>`}</button>
    </div>
    <${Notes} gid=${gid} keys=${[key("player")]} problems=${problems} />
    <div class="roles" role="group">
      ${choices.roles.map((r) => html`<button type="button" class=${`role role-${choices.roles.indexOf(r)}`}
        aria-pressed=${role === r.toLowerCase() ? "true" : "false"}
        onClick=${() => change(gid, { [key("role")]: role === r.toLowerCase() ? "" : r })}>${r}</button>`)}
    </div>
    <${Notes} gid=${gid} keys=${[key("role")]} problems=${problems} />
    <div class="row fouls">
      <span class="label">${w("fouls")}</span>
      <button type="button" class="minus" aria-label=${w("foul_minus")} disabled=${!fouls}
        onClick=${() => setFouls(Math.max(0, Math.min(fouls, F.MAX_FOULS + 1) - 1))}>−</button>
      <output class="count">${cells[key("fouls")] || "0"}</output>
      <button type="button" class="plus" onClick=${plusFoul}>${w("foul_plus")}</button>
      ${foulNote ? html`<span class=${`foul-note f${Math.min(fouls, 4)}`}>${foulNote}</span>` : ""}
    </div>
    <${Notes} gid=${gid} keys=${[key("fouls")]} problems=${problems} />
    <div class="row exit">
      <select class="how" aria-label=${w("left")} value=${exit.how}
        onChange=${(e) => setExit(e.target.value, e.target.value ? exit.number : "")}>
        <option value="">${w("left_none")}</option>
        <option value="voted">${w("left_voted")}</option>
        <option value="shot">${w("left_shot")}</option>
        <option value="removed">${w("left_removed")}</option>
        <option value="ppk">${w("left_ppk")}</option>
      </select>
      ${exit.how ? html`<select class="when" aria-label=${w("number")} value=${exit.number}
        onChange=${(e) => setExit(exit.how, e.target.value)}>
        <option value="">—</option>
        ${numbers.map((n) => html`<option value=${String(n)}>${n}</option>`)}
      </select>` : ""}
    </div>
    <${Notes} gid=${gid} keys=${[key("voted_day"), key("killed_night"), key("removal")]} problems=${problems} />
    <div class="row extra">
      <span class="label">${w("extra")}</span>
      <button type="button" class="minus" onClick=${() => bumpExtra(-step)}>−${F.extraText(step, LANG)}</button>
      <input class="points" inputmode="decimal" autocomplete="off" aria-label=${w("extra")}
        value=${typing(gid, key("extra_points"))} onInput=${(e) => typed(gid, key("extra_points"), e)}
        onChange=${(e) => { delete S.typing[`${gid}|${key("extra_points")}`]; setExtra(e.target.value); }} />
      <button type="button" class="plus" onClick=${() => bumpExtra(step)}>+${F.extraText(step, LANG)}</button>
    </div>
    <${Notes} gid=${gid} keys=${[key("extra_points"), key("best_move")]} problems=${problems} />
  </section>`;
}

function BestMove({ gid, problems }) {
  const form = formOf(gid), cells = form.cells, removals = S.list.choices.removals;
  const named = F.SEATS.find((s) => (cells[`${s}:best_move`] || "").trim());
  const firstShot = F.SEATS.find((s) => F.exitOf(cells, s, removals).how === "shot"
    && F.exitOf(cells, s, removals).number === "1");
  const who = named || S.bestWho[gid] || firstShot || "";
  const seats = who ? (cells[`${who}:best_move`] || "").trim().split(/[\s,;]+/).filter(Boolean) : [];
  const setWho = (value) => {
    const next = Number(value) || "";
    if (named && next !== named) {
      const moved = { [`${named}:best_move`]: "" };
      if (next) moved[`${next}:best_move`] = cells[`${named}:best_move`];
      change(gid, moved);
    }
    S.bestWho[gid] = next;
    draw();
  };
  const setSeat = (i, value) => {
    const next = [seats[0] || "", seats[1] || "", seats[2] || ""];
    next[i] = value;
    change(gid, { [`${who}:best_move`]: next.filter(Boolean).join(" ") });
  };
  const numbers = F.SEATS;
  return html`<section class="block best-move">
    <h2>${w("best_move")}</h2>
    <label class="row"><span class="label">${w("best_move_who")}</span>
      <select class="who" value=${String(who)} onChange=${(e) => setWho(e.target.value)}>
        <option value="">—</option>
        ${numbers.map((n) => html`<option value=${String(n)}>${n}</option>`)}
      </select></label>
    <div class="row three" aria-label=${w("best_move_seats")}>
      ${[0, 1, 2].map((i) => html`<select class=${`bm bm-${i}`} disabled=${!who} value=${seats[i] || ""}
        aria-label=${`${w("best_move_seats")} ${i + 1}`} onChange=${(e) => setSeat(i, e.target.value)}>
        <option value="">—</option>
        ${numbers.map((n) => html`<option value=${String(n)}>${n}</option>`)}
      </select>`)}
    </div>
    ${who ? html`<${Notes} gid=${gid} keys=${[`${who}:best_move`]} problems=${problems} />` : ""}
  </section>`;
}

function Picker({ gid }) {
  const { seat, query } = S.picker;
  const seated = (S.games[gid].seats || [])[seat - 1];
  const q = query.trim().toLowerCase();
  const names = (S.list.choices.players || []).filter((n) => !q || n.toLowerCase().includes(q)).slice(0, 60);
  const take = (name) => {
    S.picker = null;
    change(gid, { [`${seat}:player`]: name });
  };
  return html`<div class="picker" role="dialog" aria-label=${w("substitute")}>
    <div class="picker-head">
      <h2>${w("substitute")} · ${w("seat")} ${seat}</h2>
      <input type="search" class="search" placeholder=${w("search")} aria-label=${w("search")} value=${query}
        onInput=${(e) => { S.picker = { seat, query: e.target.value }; draw(); }} />
    </div>
    <ul class="names">
      ${seated && !q ? html`<li><button type="button" class="name seated" onClick=${() => take(seated)}>${seated}</button></li>` : ""}
      ${names.filter((n) => q || n !== seated).map((n) => html`<li>
        <button type="button" class="name" onClick=${() => take(n)}>${n}</button></li>`)}
    </ul>
    <button type="button" class="wide cancel" onClick=${() => { S.picker = null; draw(); }}>${w("cancel")}</button>
  </div>`;
}

function Game({ gid }) {
  const game = S.games[gid];
  if (!game) return html`<p>${w("loading")}</p>`;
  const form = formOf(gid), cells = form.cells, choices = S.list.choices;
  const problems = problemsOf(gid);
  const winner = (cells[":winner"] || "").trim().toLowerCase();
  const jump = (p) => {
    const place = document.getElementById(p.seat ? `seat-${p.seat}` : `field-${p.column}`);
    if (place) place.scrollIntoView({ block: "start" });
  };
  const submitted = game.status === "submitted" || game.status === "confirmed";
  return html`<div class="game">
    <header class="bar">
      <a class="back" href="#">${w("back")}</a>
      <h1 class="name">${game.title}</h1>
      <p class=${statusClass(gid)} role="status" id="status">${statusText(gid)}</p>
    </header>
    ${submitted && !outbox.count(gid) ? html`<p class="done">${w("sent")}</p>` : ""}
    ${game.status === "problems" && !outbox.count(gid) ? html`<p class="not-done">${w("has_errors")}</p>` : ""}
    ${problems.length ? html`<section class="block summary" id="problems">
      <h2>${w("problems")}</h2>
      <ul>${problems.map((p) => html`<li><button type="button" class=${`jump ${p.severity}`} onClick=${() => jump(p)}>
        ${p.seat ? `${w("seat")} ${p.seat} · ` : ""}${p.message}</button></li>`)}</ul>
    </section>` : ""}
    ${F.SEATS.map((s) => html`<${Seat} gid=${gid} seat=${s} problems=${problems} key=${s} />`)}
    <${BestMove} gid=${gid} problems=${problems} />
    <section class="block" id="field-winner">
      <h2>${w("winner")}</h2>
      <div class="two winners" role="group">
        ${choices.winners.map((t, i) => html`<button type="button" class=${`winner team-${i}`}
          aria-pressed=${winner === t.toLowerCase() ? "true" : "false"}
          onClick=${() => change(gid, { ":winner": winner === t.toLowerCase() ? "" : t })}>${t}</button>`)}
      </div>
      <${Notes} gid=${gid} keys=${[":winner"]} problems=${problems} />
    </section>
    <section class="block" id="field-judge">
      <label><h2>${w("judge")}</h2>
        <input class="judge-name" autocomplete="name" value=${typing(gid, ":judge")}
          onInput=${(e) => typed(gid, ":judge", e)}
          onChange=${(e) => {
            delete S.typing[`${gid}|:judge`];
            const name = e.target.value.trim();
            if (name) localStorage.setItem("judge-name", name);
            change(gid, { ":judge": name });
          }} /></label>
      <p class="quiet">${w("judge_hint")}</p>
      <${Notes} gid=${gid} keys=${[":judge"]} problems=${problems} />
    </section>
    <${Notes} gid=${gid} keys=${[":game", ":table", ":stage", ":round", ":checked_by"]} problems=${problems} />
    <button type="button" class="wide send" onClick=${() => change(gid, {}, { submit: true })}>${w("send")}</button>
    <button type="button" class="wide live" onClick=${() => openLive(gid)}>${w("live")}</button>
    <${Notes} gid=${gid} keys=${[`${gid}:live`]} problems=${[]} />
    ${S.picker ? html`<${Picker} gid=${gid} />` : ""}
  </div>`;
}

function List() {
  const games = S.list.games;
  return html`<div class="list">
    <header class="bar">
      <p class="quiet name">${S.list.link.tournament}</p>
      <h1 class="name">${S.list.link.title}</h1>
    </header>
    ${games.length ? "" : html`<p>${w("no_games")}</p>`}
    <ol class="games">
      ${games.map((g) => html`<li><a class="game-link" href=${`#g=${encodeURIComponent(g.gid)}`} data-gid=${g.gid}>
        <span class="name">${g.title}</span>
        <span class=${`badge ${g.status}`}>${w(`status_${g.status}`)}</span>
        <span class=${statusClass(g.gid)}>${statusText(g.gid)}</span>
      </a></li>`)}
    </ol>
  </div>`;
}

function App() {
  if (!S.list) {
    return html`<p class="loading">${S.unreachable ? `${w("error")}: ${S.unreachable}`
      : navigator.onLine ? w("loading") : w("offline_first")}</p>`;
  }
  return html`${S.view && S.games[S.view] ? html`<${Game} gid=${S.view} />` : html`<${List} />`}
    ${window.isSecureContext ? "" : html`<p class="quiet insecure">${w("insecure")}</p>`}`;
}

let drawing = false;
function draw() {
  if (drawing) return;
  drawing = true;
  queueMicrotask(() => {
    drawing = false;
    render(html`<${App} />`, root);
    const said = S.live && document.getElementById("live-status");
    if (said) { // the live mode's screens are live.js's; where the game stands is the page's to say
      said.textContent = statusText(S.live);
      said.className = statusClass(S.live);
    }
  });
}

function route() {
  const match = /^#g=(.+)$/.exec(location.hash);
  const gid = match ? decodeURIComponent(match[1]) : null;
  if (gid !== S.view) {
    S.view = gid;
    S.picker = null;
    if (S.live) closeLive();
    window.scrollTo(0, 0);
    if (gid) fetchGame(gid);
    if (gid) resumeLive(gid);
  }
  if (gid) prefillJudge(gid);
  draw();
}

async function start() {
  root.textContent = "";
  await outbox.open();
  const kept = await load(`list:${token}`);
  if (kept) {
    S.list = kept;
    for (const game of kept.games) {
      S.games[game.gid] = game;
      const form = await load(formKey(game.gid));
      if (form) S.forms[game.gid] = form;
    }
  }
  route();
  window.addEventListener("hashchange", route);
  window.addEventListener("online", () => { outbox.flush(); poll(); });
  window.addEventListener("offline", () => { outbox.offline = true; draw(); });
  document.addEventListener("visibilitychange", poll);
  setInterval(poll, POLL_MS);
  setInterval(() => { if (outbox.entries.length && navigator.onLine) outbox.flush(); }, RETRY_MS);
  await fetchList();
  if (S.view) {
    prefillJudge(S.view);
    fetchGame(S.view);
  }
  outbox.flush();
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/j/sw.js", { scope: "/j/" }).then(() => navigator.serviceWorker.ready)
      .then(() => caches.open("judge-pages")).then((cache) => cache.add(location.pathname)).catch(() => {});
  }
}

start();
