// The live mode of the judge's page: the game phase by phase on a phone held in one hand. A press
// sends one event (ctx.send; the page's outbox numbers it and calls ctx.onChange with the log). The
// buttons are game.js's allowed(state); a press the game refuses shows the rule's words and sends
// nothing. Roles show only while «показать роли» is held.
import * as G from "./game.js";

const W = {
  undo: ["↶ Отменить", "↶ Undo"], nothing: ["нечего отменять", "nothing to undo"], last: ["последнее", "last"],
  roles: ["Показать роли (удерживать)", "Show roles (hold)"], start: ["Старт", "Start"], pause: ["Пауза", "Pause"],
  reset: ["Сначала", "Restart"], give: ["Слово месту", "Floor to seat"], stop: ["Конец речи", "End of speech"],
  speaks: ["Говорит", "Speaking"], next: ["Далее", "Next"], nominate: ["Выставить", "Nominate"],
  nominated: ["Выставлены", "Nominated"], by: ["от", "by"], vote: ["Голосование, круг", "The vote, round"],
  table: ["за столом", "at the table"], rest: ["остальные голоса", "the votes left"], thanks: ["Спасибо", "Thank you"],
  save: ["Записать", "Record"], raise: ["За подъём всех", "For raising all"], shot: ["Выстрел", "The shot"],
  miss: ["Промах", "Miss"], nobody: ["Никого", "Nobody"], don_check: ["Дон проверяет", "The don checks"],
  sheriff_check: ["Шериф проверяет", "The sheriff checks"], done: ["Готово", "Done"],
  agreement: ["Договорка окончена — ночь 0", "Agreement over — night 0"], look: ["смотрит на город", "looks at the town"],
  deal: ["Раздача: выберите роль, затем место", "Deal: pick a role, then the seat"], name: ["Имя", "Name"],
  best: ["Лучший ход", "Best move"], pick3: ["три места", "three seats"], foul: ["Фол +1", "Foul +1"],
  removal: ["Удалить", "Remove"], ppk: ["ППК", "Team defeat"], close: ["Закрыть", "Close"], players: ["Игроки", "Players"],
  winner: ["Победа", "Win"], red: ["Мирные", "Red"], black: ["Мафия", "Black"], extra: ["Доп. баллы", "Extra points"],
  judge: ["Судья", "Judge"], shot_out: ["убит ночью", "shot on night"], voted: ["заголосован днём", "voted out on day"],
  removed: ["удалён", "removed"], team_defeat: ["ППК", "team defeat"], ruling: ["Победа решением судьи", "Win by ruling"],
  sure: ["Нажмите ещё раз, чтобы подтвердить", "Press again to confirm"],
  // the clock's kinds (game.js timer)
  speech: ["Речь", "Speech"], lost: ["Без речи (3-й фол)", "No speech (3rd foul)"], tie: ["Речь при равенстве", "Tie speech"],
  short: ["30 с (3-й фол, 3–4 за столом)", "30 s (3rd foul, 3–4 at the table)"], last_word: ["Последнее слово", "Last word"],
  check: ["Проверка", "Check"],
};
W.agreement_clock = ["Договорка мафии", "Mafia's agreement"];
W.night0 = ["Ночь 0", "Night 0"];
const SEATS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
const tidy = (text) => text.split(/\s+/).filter(Boolean).join(" "); // as the server keeps a name

// An element's handlers live in its `on` map, called through one listener a kind: a redraw that
// keeps the element (patch) hands it the new handlers without re-adding listeners.
function listen(e, kind, fn) {
  if (!e.on) e.on = {};
  if (!e.on[kind]) e.addEventListener(kind, (ev) => e.on[kind](ev));
  e.on[kind] = fn;
}
function h(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) listen(e, k.slice(2), v);
    else if (v !== false && v != null) e.setAttribute(k, v === true ? "" : v);
  }
  e.append(...kids.flat().filter((k) => k != null && k !== false).map((k) => (k.nodeType ? k : String(k))));
  return e;
}

// A redraw changes the screen in place: a node that is the same (its tag and the attributes that
// name what it is for) is kept and updated, only what differs is replaced. A button the judge is
// pressing is not swapped for a copy under his thumb by a redraw he did not ask for (the server's
// answer, a clock's tick): a tap begun on it would be lost (issue 44, «element is not attached»).
const NAMES = ["data-act", "data-seat", "data-tile", "data-role", "data-best", "data-plus", "data-minus",
  "data-window", "data-field", "data-ruling", "data-why"];
const same = (a, b) => a.nodeType === b.nodeType && a.nodeName === b.nodeName
  && (a.nodeType !== 1 || NAMES.every((n) => a.getAttribute(n) === b.getAttribute(n)));
function patch(old, fresh) {
  if (old.nodeType !== 1) {
    if (old.data !== fresh.data) old.data = fresh.data;
    return;
  }
  for (const { name } of [...old.attributes]) if (!fresh.hasAttribute(name)) old.removeAttribute(name);
  for (const { name, value } of fresh.attributes) if (old.getAttribute(name) !== value) old.setAttribute(name, value);
  for (const [kind, fn] of Object.entries(fresh.on || {})) listen(old, kind, fn);
  patchChildren(old, [...fresh.childNodes]);
  // what a new field would show (the typed text goes, as when the field was made anew)
  if (old.nodeName === "INPUT" && old.value !== (fresh.getAttribute("value") || "")) old.value = fresh.getAttribute("value") || "";
  if (old.nodeName === "SELECT" && old.value !== fresh.value) old.value = fresh.value;
}
function patchChildren(parent, kids) {
  kids.forEach((kid, i) => {
    const old = parent.childNodes[i];
    if (!old) parent.append(kid);
    else if (same(old, kid)) patch(old, kid);
    else parent.replaceChild(kid, old);
  });
  while (parent.childNodes.length > kids.length) parent.lastChild.remove();
}
const toNode = (k) => (k.nodeType ? k : document.createTextNode(String(k)));

export function mount(element, ctx) {
  const lang = ctx.language === "en" ? 1 : 0, language = lang ? "en" : "ru", t = (k) => W[k][lang];
  const players = ctx.game.seats || [], rules = ctx.rules || {};
  let events = ctx.game.events || [], state, note = "", draft = {}, sheet = null, armed = null, dealRole = "don";
  const clock = { key: null, total: 0, left: 0, run: false, at: 0, buzz: [] };
  // the clock survives a reload: kept on the phone per game, it goes on from where it stood (the
  // wall clock's \`at\`, so the seconds a reload took are counted) when the game is still at that turn
  const clockKey = `judge-clock:${ctx.game.gid || ""}`;
  let keptClock = null;
  try { keptClock = JSON.parse(localStorage.getItem(clockKey)); } catch { keptClock = null; }
  const keepClock = () => { try { localStorage.setItem(clockKey, JSON.stringify(clock)); } catch { /* private mode */ } };
  const root = h("div", { class: "live" });
  element.replaceChildren(root);

  const name = (n) => state.seats[n - 1].player || "—";
  const seatLabel = (n) => `${n} · ${name(n)}`;
  const button = (act, label, onclick, cls = "") => h("button", { class: cls, "data-act": act, onclick }, label);
  const big = (act, label, ev, cls = "") => button(act, label, () => send(ev), `big ${cls}`);

  // one press, one event; refused here already, in the words the server would say
  function send(ev) {
    const why = ev.kind !== "undo" && G.check(state, { id: "x", seq: 1, ...ev });
    if (why) return say(G.refusalText(why, language));
    note = ""; sheet = armed = null;
    keptClock = null; // the game moves on from this phone: a clock kept before the reload is no longer of it
    const full = ctx.send(ev);
    // the press shows at once, not when the outbox has kept it: a second tap meanwhile meets the
    // next screen, not this press again
    if (full && full.id && !events.some((e) => e.id === full.id)) take([...events, full]);
  }
  const say = (words) => { note = words; render(); };
  // a removal, a team defeat and a ruling ask a second press
  const confirm = (key, ev) => (armed === key ? send(ev) : ((armed = key), say(t("sure"))));

  // ten seats; those the rule does not allow now are dimmed (a press says why)
  function grid(kind, pick, attr = "data-seat", on = []) {
    const ok = kind ? G.allowed(state)[kind] || [] : SEATS;
    return h("div", { class: "grid" }, SEATS.map((n) => h("button", { class: `seat${ok.includes(n) ? "" : " off"}${on.includes(n) ? " on" : ""}`,
      [attr]: n, onclick: () => pick(n) }, h("b", {}, n), h("span", {}, name(n)))));
  }

  function header() {
    const last = G.lastInForce(events, state), title = G.stepName(state)[language];
    const hold = h("button", { class: "hold", "data-act": "roles", onpointerdown: () => root.classList.add("show-roles"),
      onpointerleave: hide, onpointercancel: hide, oncontextmenu: (e) => e.preventDefault() }, t("roles"));
    const undo = h("button", { class: "undo ghost", "data-act": "undo", disabled: !last, onclick: () => send({ kind: "undo", target: last.id }) },
      t("undo"), h("small", {}, last ? `${t("last")}: ${G.EVENT_NAMES[last.kind][lang]} ${last.seat || ""}` : t("nothing")));
    return h("div", { class: "bar" }, h("h2", {}, title[0].toUpperCase() + title.slice(1)), h("div", { class: "row" }, undo, hold),
      note && h("p", { class: "note", role: "alert" }, note));
  }
  // the roles hide when the finger lifts anywhere (no re-render under it)
  const hide = () => root.classList.remove("show-roles");
  addEventListener("pointerup", hide);

  // the clock: runs from the floor given; start/pause; a vibration at 10 s and at 0
  function timerBox() {
    const tm = G.timer(state);
    if (!tm || tm.kind === "vote") return "";
    const key = `${state.step}${state.number}:${state.speaking}:${G.nextSpeaker(state)}:${tm.kind}`;
    if (clock.key !== key) {
      if (keptClock && keptClock.key === key) {
        Object.assign(clock, keptClock);
        keptClock = null; // taken once
      } else Object.assign(clock, { key, total: tm.seconds, left: tm.seconds, run: state.speaking !== null && tm.seconds > 0, at: Date.now(), buzz: [] });
      keepClock();
    }
    const again = () => { Object.assign(clock, { left: clock.total, run: false, buzz: [] }); keepClock(); render(); };
    return h("div", { class: "clock" }, h("span", {}, W[{ agreement: "agreement_clock", look: "night0" }[tm.kind] || tm.kind][lang]),
      h("output", { class: "time" }, fmt(remaining())),
      tm.seconds ? h("div", { class: "row" }, button("clock", clock.run ? t("pause") : t("start"), () => {
        if (clock.run) clock.left = remaining(); else clock.at = Date.now();
        clock.run = !clock.run;
        keepClock();
        render();
      }), button("", t("reset"), again, "ghost")) : "");
  }
  const remaining = () => (clock.run ? Math.max(0, clock.left - (Date.now() - clock.at) / 1000) : clock.left);
  const fmt = (s) => { const c = Math.ceil(s); return `${Math.floor(c / 60)}:${String(c % 60).padStart(2, "0")}`; };
  const tick = setInterval(() => {
    const out = root.querySelector(".clock .time");
    if (!clock.run || !out) return;
    const left = remaining();
    for (const at of [10, 0]) {
      if (left <= at && clock.total > at && !clock.buzz.includes(at)) { clock.buzz.push(at); keepClock(); navigator.vibrate?.(at ? 200 : [300, 100, 300]); }
    }
    out.textContent = fmt(left);
    out.parentNode.classList.toggle("low", left <= 10);
    if (left <= 0) { clock.run = false; clock.left = 0; keepClock(); render(); }
  }, 200);

  // the deal (a role, then the seat; a seat's name) and night 0's looks
  function dealScreen() {
    const has = (r) => state.seats.filter((x) => x.role === r).length;
    const full = (r) => G.WANT[r] < 6 && has(r) >= G.WANT[r];
    if (full(dealRole)) dealRole = ["don", "mafia", "sheriff"].find((r) => !full(r)) || dealRole; // the next card to deal
    const pick = (n) => {
      if (dealRole !== "name") return send({ kind: "deal", seat: n, role: dealRole });
      const typed = window.prompt(`${t("name")} · ${n}`, state.seats[n - 1].player || "");
      if (typed !== null) send({ kind: "seat", seat: n, player: tidy(typed) || null });
    };
    return [h("p", {}, t("deal")),
      h("div", { class: "row roles" }, ["don", "mafia", "sheriff", "civilian", "name"].map((r) => h("button", {
        class: r === dealRole ? "on" : "ghost", "data-role": r, onclick: () => { dealRole = r; render(); } },
        r === "name" ? "✎ " + t("name") : G.ROLE_WORDS[r][language]))),
      h("div", { class: "grid" }, SEATS.map((n) => h("button", { class: "seat", "data-seat": n, onclick: () => pick(n) },
        h("b", {}, n), h("span", {}, name(n)), h("i", {}, state.seats[n - 1].role ? G.ROLE_WORDS[state.seats[n - 1].role][language] : "")))),
      h("p", { class: "muted" }, ["don", "mafia", "sheriff"].map((r) => `${G.ROLE_WORDS[r][language]} ${has(r)}/${G.WANT[r]}`).join(" · ")),
      big("night_zero", t("agreement"), { kind: "night_zero", step: "agreement" })];
  }
  function lookScreen() {
    const who = state.step === "don_look" ? "don" : "sheriff";
    return [h("p", { class: "lead" }, `${G.ROLE_WORDS[who][language]} ${t("look")}`), big("night_zero", t("done"), { kind: "night_zero", step: who })];
  }

  // speeches, last words, a tie's speeches: the floor in turn, nominations, the best move
  function turnScreen() {
    const s = state, speaker = s.speaking, up = G.nextSpeaker(s), out = [];
    if (speaker === null && up !== null) out.push(big("speech_start", `▶ ${t("give")} ${seatLabel(up)}`, { kind: "speech_start", seat: up }));
    if (speaker !== null) {
      out.push(h("p", { class: "lead" }, `${t("speaks")}: ${seatLabel(speaker)}`));
      if (s.step === "speeches") out.push(h("p", { class: "muted" }, `${t("nominate")}:`), grid("nominate", (n) => send({ kind: "nominate", by: speaker, seat: n })));
      if (s.best_move_by.includes(speaker)) out.push(bestMove(speaker));
      out.push(big("speech_end", `■ ${t("stop")}`, { kind: "speech_end", seat: speaker }, "stop"));
    }
    const queue = s.turns.slice(speaker === null ? 1 : 0);
    if (queue.length) out.push(h("p", { class: "muted" }, `${t("next")}: ${queue.join(", ")}`));
    const noms = s.step === "speeches" ? s.days[s.days.length - 1].nominations : [];
    if (noms.length) out.push(h("p", { class: "noms" }, `${t("nominated")}: ${noms.map(([by, n]) => `${n} (${t("by")} ${by})`).join(", ")}`));
    return out;
  }
  function bestMove(author) {
    const picked = draft.best || [];
    const toggle = (n) => { draft.best = picked.includes(n) ? picked.filter((x) => x !== n) : [...picked, n].slice(-3); render(); };
    return h("div", { class: "best" }, h("p", {}, `${t("best")} (${seatLabel(author)}): ${t("pick3")} — ${picked.join(" ") || "…"}`),
      grid("", toggle, "data-best", picked), big("best_move", `${t("save")}: ${t("best").toLowerCase()}`, { kind: "best_move", seat: author, seats: picked }));
  }

  // the vote: counts by candidate in the order of nomination, each after its 2-second window; the
  // last candidate gets the votes left (FIIM)
  function voteScreen() {
    const c = state.candidates, total = G.count(state), counts = draft.counts || (draft.counts = {});
    const given = c.slice(0, -1).reduce((a, n) => a + (counts[n] || 0), 0);
    const rows = c.map((n, i) => {
      const v = i === c.length - 1 ? total - given : counts[n] || 0;
      const step = (d) => { counts[n] = Math.max(0, Math.min(total, v + d)); render(); };
      return h("div", { class: "cand" }, h("span", { class: "who" }, seatLabel(n)), i === c.length - 1 ? h("span", { class: "muted" }, t("rest"))
        : h("span", { class: "row" }, h("button", { class: "ghost", "data-window": n, onclick: (e) => windowFor(e.currentTarget) }, lang ? "2 s" : "2 с"),
          stepper(n, step)), h("output", { class: "n" }, v));
    });
    return [h("p", { class: "lead" }, `${t("vote")} ${state.vote_round} · ${total} ${t("table")}`), ...rows,
      big("vote", t("save"), { kind: "vote", counts: c.slice(0, -1).map((n) => [n, counts[n] || 0]) })];
  }
  const stepper = (key, step) => [h("button", { class: "ghost", "data-minus": key, onclick: () => step(-1) }, "−"),
    h("button", { class: "ghost", "data-plus": key, onclick: () => step(1) }, "+")];
  // «на голосование после объявления кандидатуры отводится 2 секунды», then «Спасибо»
  function windowFor(b) {
    let left = 2;
    b.textContent = "2";
    const run = setInterval(() => {
      b.textContent = --left > 0 ? left : t("thanks");
      if (left <= 0) { clearInterval(run); navigator.vibrate?.(150); b.classList.add("thanks"); }
    }, 1000);
  }
  function raiseScreen() {
    const yes = draft.yes || 0, total = G.count(state);
    return [h("p", { class: "lead" }, `${t("raise")}: ${state.candidates.join(", ")}`),
      h("div", { class: "cand" }, h("span", { class: "row who" }, stepper("yes", (d) => { draft.yes = Math.max(0, Math.min(total, yes + d)); render(); })),
        h("output", { class: "n" }, `${yes} / ${total}`)), big("raise_all", t("save"), { kind: "raise_all", yes })];
  }

  // the night: the shot or a miss, the don's and the sheriff's checks (or nobody)
  function nightScreen() {
    const kind = state.step, day = state.days[state.days.length - 1];
    if (kind !== "shot") return [h("p", { class: "lead" }, t(kind)), grid(kind, (n) => send({ kind, seat: n })), big("nobody", t("nobody"), { kind, seat: null }, "ghost")];
    // a repeated tie that ended without the vote to raise all says why
    const why = day && day.number === state.number && day.no_raise && G.refusal(day.no_raise === "four" ? "raise.four" : "raise.everyone");
    return [why && h("p", { class: "noms", "data-why": why.rule }, G.refusalText(why, language)), h("p", { class: "lead" }, t("shot")),
      grid("shot", (n) => send({ kind: "shot", seat: n })), big("miss", t("miss"), { kind: "miss" }, "ghost")];
  }

  // the end: the winner, a best move still owed, extra points, the judge's name
  function endScreen() {
    const s = state, field = (f) => root.querySelector(`[data-field=${f}]`).value;
    const extra = () => { draft.extra = field("extra"); send({ kind: "extra", seat: +field("extra-seat"), points: draft.extra.trim().replace(",", ".") || "0" }); };
    return [h("p", { class: "lead win" }, `${t("winner")}: ${t(s.winner)}`), h("p", { class: "muted" }, s.reason ? s.reason[language] : ""),
      s.best_move_by.map(bestMove),
      h("label", {}, t("extra")), h("div", { class: "row" },
        h("select", { "data-field": "extra-seat", onchange: (e) => { draft.seat = +e.target.value; } },
          SEATS.map((n) => h("option", { value: n, selected: n === (draft.seat || 1) }, seatLabel(n)))),
        h("input", { "data-field": "extra", inputmode: "decimal", size: 4, value: draft.extra || "" }), button("extra", t("save"), extra)),
      h("label", {}, t("judge")), h("div", { class: "row" }, h("input", { "data-field": "judge", value: s.judge }),
        button("judge", t("save"), () => send({ kind: "judge", name: tidy(field("judge")) })))];
  }

  // the table: each seat's fouls and how it left; a tap opens +1 foul, removal, team defeat
  function table() {
    const tiles = state.seats.map((x) => {
      const how = x.out && x.out.how, gone = how && `${t(how === "shot" ? "shot_out" : how)} ${how === "shot" || how === "voted" ? x.out.number : ""}`;
      return h("button", { class: `tile${how ? " gone" : ""}${x.seat === state.speaking ? " now" : ""}`, "data-tile": x.seat,
        onclick: () => { sheet = sheet === x.seat ? null : x.seat; armed = null; say(""); } },
        h("b", {}, x.seat), h("span", { class: "who" }, x.player || "—"), x.role && h("i", { class: `role ${x.role}` }, G.ROLE_WORDS[x.role][language]),
        h("span", { class: "fouls" }, "●".repeat(x.fouls)), gone && h("small", {}, gone));
    });
    const n = sheet, off = (kind) => ((G.allowed(state)[kind] || []).includes(n) ? "" : " off");
    return h("section", {}, h("h3", {}, t("players")), h("div", { class: "tiles" }, tiles),
      n && h("div", { class: "sheet" }, h("p", { class: "lead" }, seatLabel(n)),
        button("foul", t("foul"), () => send({ kind: "foul", seat: n }), off("foul")),
        ...["removal", "ppk"].map((a) => button(a, t(a), () => confirm(a + n, { kind: "removal", seat: n, team_defeat: a === "ppk" }), "warn" + off("removal"))),
        button("", t("close"), () => { sheet = null; render(); }, "ghost")),
      state.step !== "end" && h("details", { class: "ruling", open: armed === "red" || armed === "black" }, h("summary", {}, t("ruling")),
        h("div", { class: "row" }, ["red", "black"].map((team) => h("button", { class: "warn", "data-ruling": team, onclick: () => confirm(team, { kind: "ruling", team }) }, t(team))))));
  }

  const SCREENS = { deal: dealScreen, don_look: lookScreen, sheriff_look: lookScreen, vote: voteScreen, raise: raiseScreen, end: endScreen };
  function render() {
    state = G.replay(events, { players, rules });
    const screen = SCREENS[state.step] || (G.phase(state.step) === "night" ? nightScreen : turnScreen);
    root.dataset.step = state.step; // after the end the roles are no secret: the tiles show them
    patchChildren(root, [header(), timerBox(), h("section", { class: "main" }, screen()), state.step === "deal" ? "" : table()].map(toNode));
  }

  // the log after a change: a press the server (or the page) refused says why
  // the same log again (the outbox kept it, then the server's answer): nothing to redraw, and the
  // counts, the best move's seats a judge is picking stay
  const mark = (list) => list.map((e) => `${e.id}:${e.seq}`).join(",");
  ctx.onChange((log) => { if (mark(log || []) !== mark(events)) take(log || []); });
  function take(log) {
    const grew = log.length > events.length;
    events = log;
    draft = {};
    const last = grew && events.reduce((a, e) => (e.seq > a.seq ? e : a));
    const why = last && G.replay(events, { players, rules }).refused.find(([id]) => id === last.id);
    note = why ? G.refusalText(why[1], language) : note;
    render();
  }
  render();
  return { state: () => state, unmount: () => { clearInterval(tick); removeEventListener("pointerup", hide); root.remove(); } };
}
