// The phone's outbox: every entry the judge makes is written to IndexedDB first (idb-keyval), then
// sent to the server in the order it was made. An entry leaves the outbox only when the server has
// answered it: a phone that loses the network, or is reloaded, or is switched off, sends it later.
// A form save is the whole form; consecutive live events of one game go in one request.

import { createStore, get, set } from "./vendor/idb-keyval.js";

const store = createStore("sheets-sync-judge", "kv");

export const load = (key) => get(key, store);
export const save = (key, value) => set(key, value, store);

export class Outbox {
  // api: "/j/<token>/api/"; prepare(entry) → the request body of a form entry (the base is the
  // page's, as of the moment it is sent); answered(entries, answer) and refused(entries, error)
  // tell the page; changed() after every change of the outbox's state
  constructor({ api, token, prepare, answered, refused, changed }) {
    Object.assign(this, { api, prepare, answered, refused, changed });
    this.key = `outbox:${token}`;
    this.entries = [];
    this.sending = false;
    this.error = null; // the last failure's words: {ru, en} from the server, or null for no network
    this.offline = false;
    this.next = 1;
    this.unkept = new Set(); // the numbers of entries whose write to IndexedDB has not ended yet
  }

  async open() {
    this.entries = (await load(this.key)) || [];
    this.next = this.entries.reduce((n, e) => Math.max(n, e.n + 1), 1);
  }

  count(gid) {
    return this.entries.filter((e) => e.gid === gid).length;
  }

  // the entries of a game already on the phone: what a reload or a dead battery would not lose, the
  // only ones the status line may count as waiting
  kept(gid) {
    return this.entries.filter((e) => e.gid === gid && !this.unkept.has(e.n)).length;
  }

  async add(entry) {
    const stored = { ...entry, n: this.next++ };
    this.entries.push(stored);
    this.unkept.add(stored.n);
    try {
      await save(this.key, this.entries); // on the phone before anything goes out
    } finally {
      this.unkept.delete(stored.n);
    }
    this.changed();
    this.flush();
    return stored;
  }

  async flush() {
    if (this.sending) return;
    this.sending = true;
    if (navigator.onLine) this.offline = false; // try: the network may be back
    this.changed();
    try {
      while (this.entries.length) {
        const first = this.entries[0];
        let batch = [first];
        if (first.kind === "events") {
          batch = [];
          for (const e of this.entries) {
            if (e.kind !== "events" || e.gid !== first.gid) break;
            batch.push(e);
          }
        }
        const games = `${this.api}games/${encodeURIComponent(first.gid)}/`;
        const [url, body] = first.kind === "events"
          ? [`${games}events/`, { events: batch.map((e) => e.event) }]
          : [`${games}form/`, this.prepare(first)];
        let response;
        try {
          response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" },
            body: JSON.stringify(body), cache: "no-store" });
        } catch {
          this.offline = true; // no network: everything waits, in order
          break;
        }
        this.offline = false;
        let answer = null;
        try { answer = await response.json(); } catch { answer = null; }
        if (response.ok && answer) {
          this.error = null;
          await this.drop(batch);
          await this.answered(batch, answer);
        } else if (response.status >= 500 || response.status === 408 || response.status === 429 || !answer) {
          this.error = (answer && answer.error) || { ru: `сервер ответил ${response.status}`,
            en: `the server answered ${response.status}` };
          break; // the server's trouble: the entry stays and goes again later
        } else {
          // refused for good (a revoked link, a body the server cannot take): sending it again cannot help
          this.error = null;
          await this.drop(batch);
          await this.refused(batch, answer.error || { ru: String(response.status), en: String(response.status) });
        }
      }
    } finally {
      this.sending = false;
      this.changed();
    }
  }

  async drop(batch) {
    const gone = new Set(batch.map((e) => e.n));
    this.entries = this.entries.filter((e) => !gone.has(e.n));
    await save(this.key, this.entries);
  }
}
