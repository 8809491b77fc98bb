// The live mode of the judge's page: the game phase by phase on a phone held in one hand. Every
// button sends one event (ctx.send); the page's outbox gives it an id and a number and calls
// ctx.onChange with the log. What the buttons offer is game.js's allowed(state); a press the game
// refuses shows the rule's words instead. Roles are hidden unless «показать роли» is held.
import * as G from "./game.js";

const W = {
  undo: ["↶ Отменить", "↶ Undo"], nothing: ["нечего отменять", "nothing to undo"], roles: ["Показать роли (удерживать)", "Show roles (hold)"],
  start: ["Старт", "Start"], pause: ["Пауза", "Pause"], reset: ["Сначала", "Restart"], give: ["Слово месту", "Floor to seat"],
  stop: ["Конец речи", "End of speech"], speaks: ["Говорит", "Speaking"], next: ["Далее", "Next"], nominate: ["Выставить", "Nominate"],
  nominated: ["Выставлены", "Nominated"], by: ["от", "by"], vote: ["Голосование", "The vote"], round: ["круг", "round"],
  rest: ["остальные голоса", "the votes left"], thanks: ["Спасибо", "Thank you"], save: ["Записать", "Record"],
  raise: ["За подъём всех", "For raising all"], shot: ["Выстрел", "The shot"], miss: ["Промах", "Miss"],
  nobody: ["Никого", "Nobody"], donCheck: ["Дон проверяет", "The don checks"], sheriffCheck: ["Шериф проверяет", "The sheriff checks"],
  done: ["Готово", "Done"], agreement: ["Договорка окончена — ночь 0", "Agreement over — night 0"],
  deal: ["Раздача: выберите роль, затем место", "Deal: pick a role, then the seat"], name: ["Имя", "Name"],
  look: ["смотрит на город", "looks at the town"], best: ["Лучший ход", "Best move"], pick3: ["три места", "three seats"],
  foul: ["Фол +1", "Foul +1"], remove: ["Удалить", "Remove"], ppk: ["ППК", "Team defeat"], close: ["Закрыть", "Close"],
  players: ["Игроки", "Players"], winner: ["Победа", "Win"], red: ["Мирные", "Red"], black: ["Мафия", "Black"],
  extra: ["Доп. баллы", "Extra points"], judge: ["Судья", "Judge"], fouls: ["фолы", "fouls"], lost: ["Без речи (3-й фол)", "No speech (3rd foul)"],
  short: ["30 с (3-й фол, 3–4 за столом)", "30 s (3rd foul, 3–4 at the table)"], killed: ["убит ночью", "shot on night"],
  voted: ["заголосован днём", "voted out on day"], removed: ["удалён", "removed"], team_defeat: ["ППК", "team defeat"],
  sure: ["Нажмите ещё раз, чтобы подтвердить", "Press again to confirm"], ruling: ["Победа решением судьи", "Win by ruling"],
  last: ["последнее", "last"],
};
const KIND_WORDS = { speech: ["Речь", "Speech"], short: W.short, lost: W.lost, tie: ["Речь при равенстве", "Tie speech"],
  last_word: ["Последнее слово", "Last word"], agreement: ["Договорка мафии", "Mafia's agreement"],
  look: ["Ночь 0", "Night 0"], check: ["Проверка", "Check"] };
const SEATS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

const tidy = (text) => text.split(/\s+/).filter(Boolean).join(" "); // as the server keeps a name

function h(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== false && v != null) e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids.flat()) if (k != null && k !== false) e.append(k.nodeType ? k : String(k));
  return e;
}

export function mount(element, ctx) {
  const lang = ctx.language === "en" ? 1 : 0, language = lang ? "en" : "ru";
  const t = (k) => W[k][lang];
  const players = ctx.game.seats || [];
  let events = ctx.game.events || [], state, note = "", draft = {}, sheet = null, armed = null, dealRole = "don";
  const clock = { key: null, total: 0, left: 0, run: false, at: 0, buzz: new Set() };
  const root = h("div", { class: "live" });
  element.replaceChildren(root);

  const name = (n) => state.seats[n - 1].player || "—";
  const seatLabel = (n) => `${n} · ${name(n)}`;
  const ok = (kind, n) => (G.allowed(state)[kind] || []).includes(n);

  // one press, one event; the game refuses it here already (the server would, with the same words)
  function send(ev) {
    if (ev.kind !== "undo") {
      const why = G.check(state, { id: "x", seq: 1, ...ev });
      if (why) { note = G.refusalText(why, language); return render(); }
    }
    note = ""; sheet = null; armed = null;
    ctx.send(ev);
  }
  // a press that ends the game or removes a player asks once more
  function confirm(key, ev) {
    if (armed === key) return send(ev);
    armed = key; note = t("sure"); render();
  }

  function seatGrid(kind, pick, extra = {}) {
    const allowed = G.allowed(state)[kind] || [];
    return h("div", { class: "grid" }, SEATS.map((n) => h("button", {
      class: `seat${allowed.includes(n) ? "" : " off"}${(extra.on || []).includes(n) ? " on" : ""}`,
      "data-seat": n, onclick: () => pick(n) }, h("b", {}, n), h("span", {}, name(n)))));
  }

  function header() {
    const last = G.lastInForce(events, state);
    const title = G.stepName(state)[language];
    return h("div", { class: "bar" },
      h("h2", {}, title[0].toUpperCase() + title.slice(1)),
      h("div", { class: "row" },
        h("button", { class: "undo ghost", disabled: !last, "data-act": "undo",
          onclick: () => last && send({ kind: "undo", target: last.id }) },
          t("undo"), h("small", {}, last ? `${t("last")}: ${G.EVENT_NAMES[last.kind][lang]}${last.seat ? " " + last.seat : ""}` : t("nothing"))),
        h("button", { class: "hold", "data-act": "roles", onpointerdown: () => root.classList.add("show-roles"),
          onpointerup: hide, onpointerleave: hide, onpointercancel: hide, oncontextmenu: (e) => e.preventDefault() }, t("roles"))),
      note ? h("p", { class: "note", role: "alert" }, note) : null);
  }
  // the roles show while the button is held, on no re-render (a finger's pointer stays where it went down)
  function hide() { root.classList.remove("show-roles"); }
  addEventListener("pointerup", hide);

  // the clock: a countdown with start/pause; a vibration at 10 s and at 0
  function timerBox() {
    const tm = G.timer(state);
    if (!tm || tm.kind === "vote") return null;
    const key = `${state.step}${state.number}:${state.speaking}:${G.nextSpeaker(state)}:${tm.kind}`;
    if (clock.key !== key) Object.assign(clock, { key, total: tm.seconds, left: tm.seconds, run: state.speaking !== null && tm.seconds > 0, at: Date.now(), buzz: new Set() });
    return h("div", { class: `clock ${tm.kind}` }, h("span", { class: "what" }, KIND_WORDS[tm.kind][lang]),
      h("output", { class: "time" }, fmt(clock.left)),
      tm.seconds ? h("div", { class: "row" },
        h("button", { "data-act": "clock", onclick: () => { toggle(); render(); } }, clock.run ? t("pause") : t("start")),
        h("button", { class: "ghost", onclick: () => { Object.assign(clock, { left: clock.total, run: false, buzz: new Set() }); render(); } }, t("reset"))) : null);
  }
  function toggle() {
    if (clock.run) clock.left = remaining(); else clock.at = Date.now();
    clock.run = !clock.run;
  }
  const remaining = () => (clock.run ? Math.max(0, clock.left - (Date.now() - clock.at) / 1000) : clock.left);
  const fmt = (s) => { const c = Math.ceil(s); return `${Math.floor(c / 60)}:${String(c % 60).padStart(2, "0")}`; };
  const tick = setInterval(() => {
    if (!root.isConnected) return clearInterval(tick);
    const out = root.querySelector(".clock .time");
    if (!clock.run || !out) return;
    const left = remaining();
    for (const at of [10, 0]) {
      if (left <= at && clock.total > at && !clock.buzz.has(at)) { clock.buzz.add(at); navigator.vibrate?.(at ? 200 : [300, 100, 300]); }
    }
    out.textContent = fmt(left);
    root.querySelector(".clock").classList.toggle("low", left <= 10);
    if (left <= 0) { clock.run = false; clock.left = 0; render(); }
  }, 200);

  // the deal and night 0
  function dealScreen() {
    const full = (r) => r !== "name" && r !== "civilian" && state.seats.filter((x) => x.role === r).length >= G.WANT[r];
    if (full(dealRole)) dealRole = ["don", "mafia", "sheriff"].find((r) => !full(r)) || dealRole; // the next card to deal
    const role = dealRole;
    const counts = ["don", "mafia", "sheriff"].map((r) => `${G.ROLE_WORDS[r][language]} ${state.seats.filter((x) => x.role === r).length}/${G.WANT[r]}`);
    return [h("p", {}, t("deal")),
      h("div", { class: "row roles" }, ["don", "mafia", "sheriff", "civilian", "name"].map((r) => h("button", {
        class: r === role ? "on" : "ghost", "data-role": r, onclick: () => { dealRole = r; render(); } },
        r === "name" ? "✎ " + t("name") : G.ROLE_WORDS[r][language]))),
      h("div", { class: "grid" }, SEATS.map((n) => h("button", { class: "seat", "data-seat": n, onclick: () => {
        if (role !== "name") return send({ kind: "deal", seat: n, role });
        const p = window.prompt(`${t("name")} · ${n}`, state.seats[n - 1].player || "");
        if (p !== null) send({ kind: "seat", seat: n, player: tidy(p) || null });
      } }, h("b", {}, n), h("span", {}, name(n)), h("i", {}, state.seats[n - 1].role ? G.ROLE_WORDS[state.seats[n - 1].role][language] : "")))),
      h("p", { class: "muted" }, counts.join(" · ")),
      h("button", { class: "big", "data-act": "night_zero", onclick: () => send({ kind: "night_zero", step: "agreement" }) }, t("agreement"))];
  }
  function lookScreen() {
    const who = state.step === "don_look" ? "don" : "sheriff";
    return [h("p", { class: "lead" }, `${G.ROLE_WORDS[who][language]} ${t("look")}`),
      h("button", { class: "big", "data-act": "night_zero", onclick: () => send({ kind: "night_zero", step: who }) }, t("done"))];
  }

  // speeches, last words, a tie's speeches: the floor in turn, nominations, the best move
  function turnScreen() {
    const s = state, speaker = s.speaking, nextUp = G.nextSpeaker(s);
    const out = [];
    if (speaker === null && nextUp !== null) {
      out.push(h("button", { class: "big", "data-act": "speech_start", onclick: () => send({ kind: "speech_start", seat: nextUp }) }, `▶ ${t("give")} ${seatLabel(nextUp)}`));
    } else if (speaker !== null) {
      out.push(h("p", { class: "lead" }, `${t("speaks")}: ${seatLabel(speaker)}`));
      if (s.step === "speeches") out.push(h("p", { class: "muted" }, `${t("nominate")}:`), seatGrid("nominate", (n) => send({ kind: "nominate", by: speaker, seat: n })));
      if (s.best_move_by.includes(speaker)) out.push(bestMove(speaker));
      out.push(h("button", { class: "big stop", "data-act": "speech_end", onclick: () => send({ kind: "speech_end", seat: speaker }) }, `■ ${t("stop")}`));
    }
    if (s.turns.length > (speaker === null ? 1 : 0)) out.push(h("p", { class: "muted" }, `${t("next")}: ${s.turns.slice(speaker === null ? 1 : 0).join(", ")}`));
    const noms = s.days.length ? s.days[s.days.length - 1].nominations : [];
    if (noms.length && s.step === "speeches") out.push(h("p", { class: "noms" }, `${t("nominated")}: ${noms.map(([by, n]) => `${n} (${t("by")} ${by})`).join(", ")}`));
    return out;
  }
  function bestMove(author) {
    const picked = draft.best || [];
    const toggle = (n) => { draft.best = picked.includes(n) ? picked.filter((x) => x !== n) : [...picked, n].slice(-3); render(); };
    return h("div", { class: "best" }, h("p", {}, `${t("best")} (${seatLabel(author)}): ${t("pick3")} — ${picked.join(" ") || "…"}`),
      h("div", { class: "grid" }, SEATS.map((n) => h("button", { class: `seat${picked.includes(n) ? " on" : ""}${n === author ? " off" : ""}`,
        "data-best": n, onclick: () => toggle(n) }, h("b", {}, n)))),
      h("button", { class: "big", "data-act": "best_move", onclick: () => send({ kind: "best_move", seat: author, seats: picked }) }, `${t("save")}: ${t("best").toLowerCase()}`));
  }

  // the vote: counts by candidate in the order of nomination, each after its 2-second window;
  // the last candidate gets the votes left (FIIM)
  function voteScreen() {
    const c = state.candidates, total = G.count(state);
    const counts = draft.counts || (draft.counts = {});
    const given = c.slice(0, -1).reduce((a, n) => a + (counts[n] || 0), 0);
    const rows = c.map((n, i) => {
      const last = i === c.length - 1, v = last ? total - given : counts[n] || 0;
      const step = (d) => { counts[n] = Math.max(0, Math.min(total, v + d)); render(); };
      return h("div", { class: "cand", "data-cand": n }, h("span", { class: "who" }, seatLabel(n)),
        last ? h("span", { class: "muted" }, t("rest")) : h("span", { class: "row" },
          h("button", { class: "ghost", "data-window": n, onclick: (e) => windowFor(e.currentTarget) }, lang ? "2 s" : "2 с"),
          h("button", { class: "ghost", "data-minus": n, onclick: () => step(-1) }, "−"),
          h("button", { class: "ghost", "data-plus": n, onclick: () => step(1) }, "+")),
        h("output", { class: "n" }, v));
    });
    return [h("p", { class: "lead" }, `${t("vote")}, ${t("round")} ${state.vote_round} · ${total} ${lang ? "at the table" : "за столом"}`), ...rows,
      h("button", { class: "big", "data-act": "vote", onclick: () => send({ kind: "vote", counts: c.slice(0, -1).map((n) => [n, counts[n] || 0]) }) }, t("save"))];
  }
  // «на голосование после объявления кандидатуры отводится 2 секунды», then «Спасибо»
  function windowFor(button) {
    let left = 2;
    button.textContent = "2";
    const run = setInterval(() => {
      left -= 1;
      button.textContent = left > 0 ? String(left) : t("thanks");
      if (left <= 0) { clearInterval(run); navigator.vibrate?.(150); button.classList.add("thanks"); }
    }, 1000);
  }
  function raiseScreen() {
    const yes = draft.yes || 0, total = G.count(state);
    const set = (v) => { draft.yes = Math.max(0, Math.min(total, v)); render(); };
    return [h("p", { class: "lead" }, `${t("raise")}: ${state.candidates.join(", ")}`),
      h("div", { class: "cand" }, h("span", { class: "row" }, h("button", { class: "ghost", "data-minus": "yes", onclick: () => set(yes - 1) }, "−"),
        h("button", { class: "ghost", "data-plus": "yes", onclick: () => set(yes + 1) }, "+")), h("output", { class: "n" }, `${yes} / ${total}`)),
      h("button", { class: "big", "data-act": "raise_all", onclick: () => send({ kind: "raise_all", yes }) }, t("save"))];
  }

  // the night: the shot or a miss; the don's and the sheriff's checks (or nobody shown)
  function nightScreen() {
    if (state.step === "shot") {
      const day = state.days[state.days.length - 1]; // a repeated tie ended without the vote to raise all: say why
      const why = day && day.number === state.number && day.no_raise ? G.refusal(day.no_raise === "four" ? "raise.four" : "raise.everyone") : null;
      return [why ? h("p", { class: "noms", "data-why": why.rule }, G.refusalText(why, language)) : null, h("p", { class: "lead" }, t("shot")), seatGrid("shot", (n) => send({ kind: "shot", seat: n })),
        h("button", { class: "big ghost", "data-act": "miss", onclick: () => send({ kind: "miss" }) }, t("miss"))];
    }
    const kind = state.step;
    return [h("p", { class: "lead" }, t(kind === "don_check" ? "donCheck" : "sheriffCheck")),
      seatGrid(kind, (n) => send({ kind, seat: n })),
      h("button", { class: "big ghost", "data-act": "nobody", onclick: () => send({ kind, seat: null }) }, t("nobody"))];
  }

  // the end: the winner, a best move still owed, extra points, the judge's name
  function endScreen() {
    const s = state, out = [h("p", { class: "lead win" }, `${t("winner")}: ${t(s.winner)}`), h("p", { class: "muted" }, s.reason ? s.reason[language] : "")];
    for (const n of s.best_move_by) out.push(bestMove(n));
    const seat = draft.extraSeat || 1;
    out.push(h("div", { class: "form" }, h("label", {}, t("extra")),
      h("span", { class: "row" }, h("select", { "data-field": "extra-seat", onchange: (e) => { draft.extraSeat = +e.target.value; } },
        SEATS.map((n) => h("option", { value: n, selected: n === seat }, seatLabel(n)))),
      h("input", { "data-field": "extra", inputmode: "decimal", size: 4, value: draft.extra || "" }),
      h("button", { "data-act": "extra", onclick: () => {
        const v = root.querySelector("[data-field=extra]").value.trim();
        draft.extra = v;
        send({ kind: "extra", seat: +root.querySelector("[data-field=extra-seat]").value, points: v.replace(",", ".") || "0" });
      } }, t("save")))),
      h("div", { class: "form" }, h("label", {}, t("judge")), h("span", { class: "row" },
        h("input", { "data-field": "judge", value: s.judge }),
        h("button", { "data-act": "judge", onclick: () => send({ kind: "judge", name: tidy(root.querySelector("[data-field=judge]").value) }) }, t("save")))));
    return out;
  }

  // the table: every seat, its fouls and how it left; a tap opens foul / removal / team defeat
  function table() {
    const rows = state.seats.map((x) => {
      const out = x.out ? `${t(x.out.how === "shot" ? "killed" : x.out.how === "voted" ? "voted" : x.out.how)} ${x.out.how === "removed" || x.out.how === "team_defeat" ? "" : x.out.number}` : "";
      return h("button", { class: `tile${x.out ? " gone" : ""}${x.seat === state.speaking ? " now" : ""}`, "data-tile": x.seat,
        onclick: () => { sheet = sheet === x.seat ? null : x.seat; armed = null; note = ""; render(); } },
        h("b", {}, x.seat), h("span", { class: "who" }, x.player || "—"),
        x.role ? h("i", { class: `role ${x.role}` }, G.ROLE_WORDS[x.role][language]) : null,
        h("span", { class: "fouls", title: t("fouls") }, "●".repeat(x.fouls)), out ? h("small", {}, out) : null);
    });
    const box = [h("h3", {}, t("players")), h("div", { class: "tiles" }, rows)];
    if (sheet) {
      const n = sheet;
      box.push(h("div", { class: "sheet", "data-sheet": n }, h("p", { class: "lead" }, seatLabel(n)),
        h("button", { "data-act": "foul", class: ok("foul", n) ? "" : "off", onclick: () => send({ kind: "foul", seat: n }) }, t("foul")),
        h("button", { "data-act": "removal", class: `warn${ok("removal", n) ? "" : " off"}`, onclick: () => confirm(`r${n}`, { kind: "removal", seat: n, team_defeat: false }) }, t("remove")),
        h("button", { "data-act": "ppk", class: `warn${ok("removal", n) ? "" : " off"}`, onclick: () => confirm(`p${n}`, { kind: "removal", seat: n, team_defeat: true }) }, t("ppk")),
        h("button", { class: "ghost", onclick: () => { sheet = null; render(); } }, t("close"))));
    }
    if (G.phase(state.step) !== "ended" && state.step !== "deal") {
      box.push(h("details", { class: "ruling", open: armed === "red" || armed === "black" }, h("summary", {}, t("ruling")), h("div", { class: "row" }, ["red", "black"].map((team) =>
        h("button", { class: "warn", "data-ruling": team, onclick: () => confirm(team, { kind: "ruling", team }) }, t(team))))));
    }
    return h("section", { class: "table" }, box);
  }

  const SCREENS = { deal: dealScreen, don_look: lookScreen, sheriff_look: lookScreen, morning: turnScreen, speeches: turnScreen,
    tie: turnScreen, farewell: turnScreen, vote: voteScreen, raise: raiseScreen, shot: nightScreen, don_check: nightScreen,
    sheriff_check: nightScreen, end: endScreen };

  function render() {
    state = G.replay(events, { players, rules: ctx.rules || {} });
    root.dataset.step = state.step;
    root.replaceChildren(header(), timerBox() || "", h("section", { class: "main" }, SCREENS[state.step]()), state.step === "deal" ? "" : table());
  }

  ctx.onChange((log) => {
    const before = events.length;
    events = log || [];
    draft = {};
    const last = events.length > before ? events.reduce((a, e) => (e.seq > a.seq ? e : a)) : null;
    const why = last && (state = G.replay(events, { players, rules: ctx.rules || {} })).refused.find(([id]) => id === last.id);
    if (why) note = G.refusalText(why[1], language);
    render();
  });
  render();
  return { state: () => state, unmount: () => { clearInterval(tick); root.remove(); } };
}
