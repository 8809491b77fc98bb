// The judge's game on the phone, offline: a port of scoring/game (state.py, flow.py, handlers.py,
// replay.py, refusals.py, the events' JSON of events.py, protocol_cells of protocol.py).
// Same rules, same state fields (snake_case, as the Python dataclasses' JSON form in
// scoring/game/jsonform.py), same refusal ids and words; tests/test_game_js.py replays the same
// logs in both and compares everything. The server stays the authority: this shows the step,
// the timer, the buttons and the refusals without a network. Plain data, no mutation: every
// rule returns a new state, so an undo is the state before the event.

// -- state.py -------------------------------------------------------------------------------------
export const WANT = { don: 1, mafia: 2, sheriff: 1, civilian: 6 };
const PHASES = { deal: "setup", don_look: "night_zero", sheriff_look: "night_zero", shot: "night", don_check: "night",
  sheriff_check: "night", end: "ended", morning: "day", speeches: "day", vote: "day", tie: "day", raise: "day",
  farewell: "day" };
export const phase = (step) => PHASES[step];
export const STEP_NAMES = {
  deal: ["рассадка, раздача ролей, договорка мафии", "seating, dealing the roles, the mafia's agreement"],
  don_look: ["ночь 0, дон смотрит на город", "night 0, the don looks at the town"],
  sheriff_look: ["ночь 0, шериф смотрит на город", "night 0, the sheriff looks at the town"],
  morning: ["день {n}, последнее слово убитого", "day {n}, the last word of the player shot"],
  speeches: ["день {n}, речи", "day {n}, speeches"],
  vote: ["день {n}, голосование", "day {n}, the vote"],
  tie: ["день {n}, речи при равенстве голосов", "day {n}, the speeches of a tie"],
  raise: ["день {n}, голосование за подъём всех", "day {n}, the vote to raise all"],
  farewell: ["день {n}, последнее слово заголосованных", "day {n}, the last words of the players voted out"],
  shot: ["ночь {n}, стрельба", "night {n}, the shot"],
  don_check: ["ночь {n}, проверка дона", "night {n}, the don's check"],
  sheriff_check: ["ночь {n}, проверка шерифа", "night {n}, the sheriff's check"],
  end: ["игра окончена", "the game is over"],
};
const text = (ru, en) => ({ ru, en });
const said = (t, language) => (language === "en" ? t.en : t.ru);
export const stepName = (s) => text(...STEP_NAMES[s.step].map((w) => w.replace("{n}", s.number)));
const teamOfRole = (role) => (role === "don" || role === "mafia" ? "black" : "red"); // undealt: a civilian
export const seatOf = (s, n) => s.seats[n - 1];
export const atTable = (s) => s.seats.filter((x) => x.out === null).map((x) => x.seat);
export const count = (s, team = null) =>
  s.seats.filter((x) => x.out === null && (team === null || teamOfRole(x.role) === team)).length;
export const holder = (s, role) => s.seats.find((x) => x.role === role) || null;
const isIn = (s, n) => seatOf(s, n).out === null;
const ended = (s) => s.step === "end";

// a decimal as Python's str(Decimal) writes it ("0.50" stays, "5." is "5"), or null
function decimal(value) {
  if (value === null || value === undefined) return null;
  let raw = String(value).replace(/[\s\u00a0]/g, "").replace(/[\u2212\u2013\u2014]/g, "-");
  if ((raw.match(/,/g) || []).length === 1 && !raw.includes(".")) raw = raw.replace(",", ".");
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(raw);
  if (!m || (!m[2] && !m[3])) return null;
  return (m[1] === "-" ? "-" : "") + (m[2].replace(/^0+/, "") || "0") + (m[3] ? "." + m[3] : "");
}
// decimals compared and divided as scaled integers: no float ever touches a point
function scaled(...values) {
  const scale = Math.max(...values.map((x) => (x.split(".")[1] || "").length));
  return values.map((x) => {
    const [i, f = ""] = x.replace("-", "").split(".");
    const n = BigInt(i + f.padEnd(scale, "0"));
    return x.startsWith("-") ? -n : n;
  });
}
const cmp = (a, b) => { const [x, y] = scaled(a, b); return x < y ? -1 : x > y ? 1 : 0; };
const isZero = (a) => /^-?0(\.0*)?$/.test(a);

export function readRules(rules = {}) {
  return { best_move_by: [...(rules.best_move_by || ["shot_first"])], extra_min: decimal(rules.extra_min),
    extra_max: decimal(rules.extra_max), extra_step: decimal(rules.extra_step) };
}

export function newGame(players = [], rules = {}) {
  const seats = [];
  for (let i = 0; i < 10; i++) {
    seats.push({ seat: i + 1, player: players[i] || null, role: null, fouls: 0, out: null, silenced_day: null,
      best_move: [], extra: "0" });
  }
  return { step: "deal", number: 0, seats, judge: "", turns: [], speaking: null, first_speaker: 1, candidates: [],
    vote_round: 0, no_vote: false, best_move_by: [], quiet: 0, cycle_count: 10, days: [], nights: [], winner: null,
    reason: null, rules: readRules(rules), refused: [], undone: [] };
}

// -- refusals.py ----------------------------------------------------------------------------------
const FOUR = ["регламент: «когда за столом остаётся четыре игрока, не разрешается поднимать двоих»",
  "the regulation: with four players at the table, two are not raised"];
const FIRST = ["регламент: «при выставлении нескольких кандидатур на голосование принимается первая»",
  "the regulation: when a player nominates several, the first one stands"];
const NO_WITHDRAW = ["регламент: «не разрешается отзывать выставленную кандидатуру»",
  "the regulation: a nomination cannot be withdrawn"];
const REMOVED_NO_VOTE = ["регламент: «если игрок удаляется до голосования или во время голосования, дальнейшего " +
  "голосования не происходит»", "the regulation: after a removal before or during the vote, no further vote takes place"];
const MISS = ["регламент: «если в первую ночь был промах, игрок, убитый во вторую ночь, не имеет права назвать тройку " +
  "чёрных»", "the regulation: after a first-night miss, the player shot on the second night names no three"];
export const REFUSALS = {
  "game.ended": ["Игра окончена ({reason}): теперь записываются только доп. баллы, судья и имена",
    "The game is over ({reason}): only extra points, the judge and names are recorded now"],
  "game.not_started": ["Игра ещё не началась: сначала игроки и роли", "The game has not started: players and roles first"],
  "step.wrong": ["Сейчас {step}: «{event}» сейчас не записывается", "Now: {step}; '{event}' is not recorded now"],
  "seat.range": ["Место {seat}: места 1–10", "Seat {seat}: seats are 1–10"],
  "seat.empty": ["Место {seat}: нет игрока — посадите игрока перед раздачей", "Seat {seat}: no player — seat one before the deal"],
  "seat.out": ["Место {seat}: игрок уже не за столом", "Seat {seat}: the player is no longer at the table"],
  "player.twice": ["«{player}» уже сидит на месте {other}", "'{player}' already sits at seat {other}"],
  "deal.too_many": ["Роль «{role}» уже у {count}: в игре 1 дон, 2 мафии, 1 шериф, 6 мирных",
    "'{role}' is dealt {count} times already: a game has 1 don, 2 mafia, 1 sheriff, 6 civilians"],
  "deal.incomplete": ["Роли розданы не все: {missing}", "Not every role is dealt: {missing}"],
  "speech.turn": ["Сейчас слово у места {next}, не у места {seat}", "It is seat {next}'s turn, not seat {seat}'s"],
  "speech.busy": ["Ещё говорит место {speaking}: сначала конец его речи", "Seat {speaking} is still speaking: end that speech first"],
  "speech.not_speaking": ["Место {seat} сейчас не говорит", "Seat {seat} is not speaking now"],
  "nominate.speaker": ["Выставляет говорящий игрок (сейчас место {speaking})", "The speaking player nominates (now seat {speaking})"],
  "nominate.nobody_speaks": ["Выставляют во время своей речи: сейчас никто не говорит",
    "A player nominates during his speech: nobody is speaking now"],
  "nominate.second": ["Место {by} уже выставило место {first}; " + FIRST[0], "Seat {by} already nominated seat {first}; " + FIRST[1]],
  "nominate.already": ["Место {seat} уже выставлено (местом {by}); " + NO_WITHDRAW[0],
    "Seat {seat} is already nominated (by seat {by}); " + NO_WITHDRAW[1]],
  "nominate.no_vote": ["Голосования сегодня не будет: " + REMOVED_NO_VOTE[0], "There is no vote today: " + REMOVED_NO_VOTE[1]],
  "vote.candidates": ["Голоса записываются за {candidates}, по порядку выставления",
    "Votes are recorded for {candidates}, in the order of nomination"],
  "vote.total": ["Голосов {total}, а за столом {count} игроков", "{total} votes, but {count} players are at the table"],
  "raise.four": ["Подъёма всех не будет: " + FOUR[0], "No vote to raise all: " + FOUR[1]],
  "raise.everyone": ["Подъёма всех не будет: кандидаты — все, кто за столом",
    "No vote to raise all: the candidates are everyone at the table"],
  "raise.total": ["За подъём {yes}, а за столом {count} игроков", "{yes} for raising all, but {count} players are at the table"],
  "check.self": ["{who} не проверяет сам себя", "The {who} does not check himself"],
  "best_move.author": ["Лучший ход сейчас называет место {seats}", "Now seat {seats} names the best move"],
  "best_move.after_miss": ["В первую ночь был промах: " + MISS[0], "The first night was a miss: " + MISS[1]],
  "best_move.nobody": ["Сейчас лучший ход не называют: его называет убитый в первую ночь во время последнего слова",
    "No best move now: the player shot on the first night names it during his last word"],
  "best_move.seats": ["Лучший ход — три разных места 1–10, кроме своего (названо: {seats})",
    "A best move is three different seats 1–10, not his own (named: {seats})"],
  "extra.not_ended": ["Доп. баллы ставятся после окончания игры", "Extra points are given after the game"],
  "extra.range": ["Доп. баллы {value}: допустимо от {low} до {high}", "Extra points {value}: allowed from {low} to {high}"],
  "extra.step": ["Доп. баллы {value}: шаг {step}", "Extra points {value}: the step is {step}"],
  "undo.nothing": ["Отменять нечего", "There is nothing to undo"],
  "undo.not_last": ["Отменить можно только последнее событие ({last})", "Only the last event can be undone ({last})"],
  "undo.undo": ["Отмену не отменяют: запишите событие заново", "An undo is not undone: record the event again"],
  "log.gap": ["Пропущены события с номера {expected}: пришлите их по порядку", "Events from number {expected} are missing: send them in order"],
  "log.seq_taken": ["Номер {seq} уже занят другим событием", "Number {seq} is taken by another event"],
  "log.conflict": ["Событие {id} уже записано, но с другим содержимым", "Event {id} is recorded already, with other content"],
};

// a parameter as Refusal._said says it: a text in the language, a list joined by ", "
function sayParam(value, language) {
  if (Array.isArray(value)) return value.map((v) => sayParam(v, language)).join(", ");
  if (value && typeof value === "object") return said(value, language);
  return value === null || value === undefined ? "None" : String(value);
}

// a refusal: {rule, ru, en} — the shape of Refusal.to_dict, so a server's receipt reads the same
export function refusal(rule, params = {}) {
  const words = REFUSALS[rule];
  if (!words) throw new Error(`no message for refusal ${rule}`);
  const [ru, en] = words.map((w, i) =>
    w.replace(/\{(\w+)\}/g, (_, k) => sayParam(params[k], i ? "en" : "ru")));
  return { rule, ru, en };
}

export const refusalText = (r, language) => (r ? (language === "en" ? r.en : r.ru) || r.ru || r.rule : "");

// -- events.py: reading an event the page makes or the server sends -------------------------------
export const EVENT_FIELDS = {
  seat: ["seat", "player"], deal: ["seat", "role"], judge: ["name"], night_zero: ["step"], speech_start: ["seat"],
  speech_end: ["seat"], nominate: ["by", "seat"], vote: ["counts"], raise_all: ["yes"], shot: ["seat"], miss: [],
  don_check: ["seat"], sheriff_check: ["seat"], best_move: ["seat", "seats"], foul: ["seat"],
  removal: ["seat", "team_defeat"], extra: ["seat", "points"], ruling: ["team"], undo: ["target"],
};
export class EventError extends Error {
  constructor(name, value) {
    const shown = JSON.stringify(value === undefined ? null : value).slice(0, 60);
    super(`the event's '${name}' cannot be ${shown}`);
    this.ru = `«${name}» события не может быть ${shown}`;
    this.en = this.message;
  }
}
const int = (lo, hi) => (v, n) => {
  if (!Number.isInteger(v) || v < lo || v > hi) throw new EventError(n, v);
  return v;
};
const seatNo = int(1, 10);
const words = (v, n, limit = 200) => {
  if (typeof v !== "string" || v.length > limit) throw new EventError(n, v);
  return v.split(/\s+/).filter(Boolean).join(" ");
};
const oneOf = (...values) => (v, n) => { if (!values.includes(v)) throw new EventError(n, v); return v; };
const READERS = {
  id: (v, n) => { if (typeof v !== "string" || !v.trim() || v.trim().length > 100) throw new EventError(n, v); return v.trim(); },
  seq: int(1, 10 ** 6), seat: seatNo, by: seatNo, player: (v, n) => (v === null ? null : words(v, n) || null),
  role: oneOf("civilian", "sheriff", "mafia", "don"), name: words, step: oneOf("agreement", "don", "sheriff"),
  counts: (v, n) => {
    if (!Array.isArray(v) || v.length < 1 || v.length > 10) throw new EventError(n, v);
    return v.map((p) => {
      if (!Array.isArray(p) || p.length !== 2) throw new EventError(n, v);
      return [seatNo(p[0], n), int(0, 10)(p[1], n)];
    });
  },
  yes: int(0, 10), seats: (v, n) => {
    if (!Array.isArray(v) || v.length > 10) throw new EventError(n, v);
    return v.map((x) => seatNo(x, n));
  },
  team_defeat: (v, n) => { if (typeof v !== "boolean") throw new EventError(n, v); return v; },
  points: (v, n) => {
    const d = typeof v === "number" && !Number.isInteger(v) ? null : decimal(v); // a float is not exact
    if (d === null || cmp(d.replace("-", ""), "100") > 0) throw new EventError(n, v);
    return d;
  },
  team: oneOf("red", "black"), target: (v, n) => READERS.id(v, n),
};

// the event of a JSON object as Event.to_dict writes it (fields checked, texts tidied); throws EventError
export function readEvent(data) {
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new EventError("event", data);
  const fields = EVENT_FIELDS[data.kind];
  if (!fields) throw new EventError("kind", data.kind);
  const event = { kind: data.kind };
  for (const name of ["id", "seq", ...fields]) {
    if (!(name in data)) {
      if (name === "team_defeat") { event[name] = false; continue; }
      const e = new EventError(name, null);
      e.en = e.message = `the event has no '${name}'`;
      e.ru = `у события нет «${name}»`;
      throw e;
    }
    const nullableSeat = name === "seat" && (data.kind === "don_check" || data.kind === "sheriff_check");
    event[name] = nullableSeat && data[name] === null ? null : READERS[name](data[name], name);
  }
  return event;
}

// -- flow.py: how a game moves on by itself -------------------------------------------------------
const TURN_STEPS = ["morning", "speeches", "tie", "farewell"];
const OTHER = { red: "black", black: "red" };
const put = (s, changes) => ({ ...s, ...changes });
function setSeat(s, n, changes) {
  const seats = s.seats.slice();
  seats[n - 1] = { ...seats[n - 1], ...changes };
  return put(s, { seats });
}
const updateDay = (s, changes) => put(s, { days: [...s.days.slice(0, -1), { ...s.days[s.days.length - 1], ...changes }] });

// the seats at the table in speaking order, from `first` round the table
function dayOrder(s, first) {
  const order = [];
  for (let i = 0; i < 10; i++) order.push(((first - 1 + i) % 10) + 1);
  return order.filter((n) => isIn(s, n));
}

// who opens the next day: the first seat at the table after today's first speaker
function nextFirst(s) {
  for (let i = 1; i <= 10; i++) {
    const n = ((s.first_speaker - 1 + i) % 10) + 1;
    if (isIn(s, n)) return n;
  }
  return s.first_speaker;
}

const leave = (s, n, how) => setSeat(s, n, { out: { how, number: s.number } });

// the game is over; a best move still owed by the player shot first may be named
const end = (s, team, reason) => put(s, { step: "end", winner: team, reason, turns: [], speaking: null, candidates: [] });

// the natural end: red wins when every black is out, black when blacks are at least as many as reds
function settle(s) {
  if (ended(s)) return s;
  const black = count(s, "black"), red = count(s, "red");
  if (black === 0) return end(s, "red", text("все чёрные выбыли", "every black player is out"));
  if (black >= red) {
    return end(s, "black", text(`чёрных (${black}) не меньше, чем красных (${red})`,
      `blacks (${black}) are at least as many as reds (${red})`));
  }
  return s;
}

// night 0 begins: every seat not dealt a black card or the sheriff's is a civilian
const dealDone = (s) => put(s, { seats: s.seats.map((x) => ({ ...x, role: x.role || "civilian" })) });

// night 0's next step after `done`: the don's look, the sheriff's (each only while he is at the table), day 1
function afterLook(s, done) {
  const order = ["deal", "don_look", "sheriff_look"];
  for (const step of order.slice(order.indexOf(done) + 1)) {
    const h = holder(s, step === "don_look" ? "don" : "sheriff");
    if (h && h.out === null) return put(s, { step });
  }
  return beginDay(s, 1, 1, null);
}

function beginDay(s, number, first, shot) {
  first = (dayOrder(s, first)[0]) || first; // seat 1 removed on night 0: seat 2 opens day 1
  s = put(s, { number, first_speaker: first, candidates: [], vote_round: 0, no_vote: false, cycle_count: count(s),
    days: [...s.days, { number, nominations: [], votes: [], raise_yes: null, no_raise: "", voted_out: [] }],
    speaking: null });
  if (shot !== null) {
    const firstNight = number === 2 && s.rules.best_move_by.includes("shot_first"); // shot on night 1
    return put(s, { step: "morning", turns: [shot], best_move_by: firstNight ? [shot] : [] });
  }
  return put(s, { step: "speeches", turns: dayOrder(s, first) });
}

const beginNight = (s) => put(s, { step: "shot", turns: [], speaking: null, candidates: [], best_move_by: [] });

// night n is over: its shot takes effect; the game may end (naturally, or three quiet days and nights)
function morning(s) {
  const night = s.nights[s.nights.length - 1];
  const victim = night.shot !== null && isIn(s, night.shot) ? night.shot : null;
  if (victim !== null) s = leave(s, victim, "shot");
  s = settle(s);
  if (ended(s)) {
    // «при сломе стола … убитый в первую ночь всё равно имеет право назвать тройку»
    if (victim !== null && night.number === 1 && s.rules.best_move_by.includes("shot_first")) s = put(s, { best_move_by: [victim] });
    return s;
  }
  const quiet = count(s) === s.cycle_count ? s.quiet + 1 : 0;
  s = put(s, { quiet });
  if (quiet >= 3) { // «три ночи … неизменное количество игроков … объявляется победа мирных»
    const n = night.number;
    return end(s, "red", text(`три ночи подряд без выбывших (ночи ${n - 2}–${n})`,
      `three nights in a row with nobody leaving (nights ${n - 2}–${n})`));
  }
  return beginDay(s, night.number + 1, nextFirst(s), victim);
}

// nobody speaks now: when nobody is left to speak in this step, the step is over
function finishTurn(s) {
  if (s.speaking !== null || s.turns.length || !TURN_STEPS.includes(s.step)) return s;
  if (s.step === "morning") return put(s, { step: "speeches", turns: dayOrder(s, s.first_speaker), best_move_by: [] });
  if (s.step === "speeches") return closeSpeeches(s);
  if (s.step === "tie") return put(s, { step: "vote", vote_round: s.vote_round + 1 });
  return beginNight(s); // the last words are said
}

// FIIM: day 1 with a single nominee has no vote; later, a single nominee leaves without one
function closeSpeeches(s) {
  const nominees = s.candidates.filter((n) => isIn(s, n));
  if (s.no_vote || !nominees.length || (s.number === 1 && nominees.length === 1)) return beginNight(s);
  if (nominees.length === 1) return voteOut(s, nominees);
  return put(s, { step: "vote", candidates: nominees, vote_round: 1 });
}

// the vote removes `seats`; the game may end, else they say their last words
function voteOut(s, seats) {
  for (const n of seats) s = leave(s, n, "voted");
  const best = s.number === 1 && s.rules.best_move_by.includes("voted_first_day") ? seats : [];
  s = settle(updateDay(put(s, { best_move_by: best }), { voted_out: seats }));
  return ended(s) ? s : put(s, { step: "farewell", turns: seats, speaking: null });
}

function recordNight(s, changes) {
  const last = s.nights[s.nights.length - 1];
  if (last && last.number === s.number) return put(s, { nights: [...s.nights.slice(0, -1), { ...last, ...changes }] });
  return put(s, { nights: [...s.nights, { number: s.number, shot: null, don_check: null, sheriff_check: null, ...changes }] });
}

// the night's next step: the don's check, the sheriff's (while at the table — tonight's victim still is), the morning
function afterShotStep(s, done) {
  const order = ["shot", "don_check", "sheriff_check"];
  for (const step of order.slice(order.indexOf(done) + 1)) {
    const h = holder(s, step === "don_check" ? "don" : "sheriff");
    if (h && h.out === null) return put(s, { step });
  }
  return morning(s);
}

// -- handlers.py: what each kind checks and does --------------------------------------------------
const ALL = Object.keys(PHASES);
const PLAYING = ALL.filter((x) => x !== "deal" && x !== "end");
export const WHEN = {
  seat: ALL, judge: ALL, best_move: ALL, deal: ["deal"], night_zero: ["deal", "don_look", "sheriff_look"],
  speech_start: TURN_STEPS, speech_end: TURN_STEPS, nominate: ["speeches"], vote: ["vote"], raise_all: ["raise"],
  shot: ["shot"], miss: ["shot"], don_check: ["don_check"], sheriff_check: ["sheriff_check"], foul: PLAYING,
  removal: PLAYING, ruling: PLAYING, extra: ["end"], undo: ALL,
};
export const EVENT_NAMES = {
  seat: ["игрок на месте", "a player at a seat"], deal: ["роль", "a role"], judge: ["судья", "the judge"],
  night_zero: ["ночь 0", "night 0"], speech_start: ["начало речи", "a speech's start"],
  speech_end: ["конец речи", "a speech's end"], nominate: ["выставление", "a nomination"],
  vote: ["голосование", "a vote"], raise_all: ["подъём всех", "the vote to raise all"],
  shot: ["выстрел", "a shot"], miss: ["промах", "a miss"], don_check: ["проверка дона", "the don's check"],
  sheriff_check: ["проверка шерифа", "the sheriff's check"], best_move: ["лучший ход", "a best move"],
  foul: ["фол", "a foul"], removal: ["удаление", "a removal"], extra: ["доп. баллы", "extra points"],
  ruling: ["победа решением судьи", "a win by the judge's ruling"], undo: ["отмена", "an undo"],
};
const NIGHT_ZERO = { deal: "agreement", don_look: "don", sheriff_look: "sheriff" };
export const ROLE_WORDS = { don: text("дон", "don"), mafia: text("мафия", "mafia"), sheriff: text("шериф", "sheriff"),
  civilian: text("мирный", "civilian") };

// why `event` cannot be recorded now, or null
export function check(s, ev) {
  for (const name of ["seat", "by"]) {
    const v = ev[name];
    if (typeof v === "number" && (v < 1 || v > 10)) return refusal("seat.range", { seat: v });
  }
  if (!WHEN[ev.kind].includes(s.step)) return notNow(s, ev);
  return HANDLERS[ev.kind][0](s, ev);
}
export const act = (s, ev) => HANDLERS[ev.kind][1](s, ev);

function notNow(s, ev) {
  if (ended(s)) return refusal("game.ended", { reason: s.reason || "" });
  if (s.step === "deal" && ["foul", "removal", "ruling"].includes(ev.kind)) return refusal("game.not_started");
  if (ev.kind === "extra") return refusal("extra.not_ended");
  const last = s.days[s.days.length - 1];
  const day = last && last.number === s.number ? last : null; // today, or tonight's day
  if (ev.kind === "raise_all" && day && day.no_raise) return refusal(day.no_raise === "four" ? "raise.four" : "raise.everyone");
  return refusal("step.wrong", { step: stepName(s), event: text(...EVENT_NAMES[ev.kind]) });
}
const outRefusal = (s, n) => (n !== null && n !== undefined && !isIn(s, n) ? refusal("seat.out", { seat: n }) : null);
const nothing = () => null;

// before the game: a player sits at one seat only; the cards of a game (1 don, 2 mafia, 1 sheriff)
function checkSeat(s, ev) {
  const other = s.seats.find((x) => ev.player && x.player === ev.player && x.seat !== ev.seat);
  return other ? refusal("player.twice", { player: ev.player, other: other.seat }) : null;
}
function checkDeal(s, ev) {
  const dealt = s.seats.filter((x) => x.role === ev.role && x.seat !== ev.seat).length;
  return dealt >= WANT[ev.role] ? refusal("deal.too_many", { role: ROLE_WORDS[ev.role], count: dealt }) : null;
}
// night 0, step by step; it begins only with every seat taken and every black card and the sheriff's dealt
function checkNightZero(s, ev) {
  if (ev.step !== NIGHT_ZERO[s.step]) return notNow(s, ev);
  if (s.step !== "deal") return null;
  const empty = s.seats.find((x) => !x.player);
  if (empty) return refusal("seat.empty", { seat: empty.seat });
  const missing = ["don", "mafia", "sheriff"].filter((r) => s.seats.filter((x) => x.role === r).length < WANT[r])
    .map((r) => ROLE_WORDS[r]);
  return missing.length ? refusal("deal.incomplete", { missing }) : null;
}
const nightZero = (s) => afterLook(s.step === "deal" ? dealDone(s) : s, s.step);

// speeches: in turn, one at a time
function checkStart(s, ev) {
  if (s.speaking !== null) return refusal("speech.busy", { speaking: s.speaking });
  if (!s.turns.length || ev.seat !== s.turns[0]) return refusal("speech.turn", { next: s.turns.length ? s.turns[0] : "—", seat: ev.seat });
  return null;
}
const start = (s, ev) => put(s, { speaking: ev.seat, turns: s.turns.slice(1) });
const checkEnd = (s, ev) => (s.speaking !== ev.seat ? refusal("speech.not_speaking", { seat: ev.seat }) : null);
function endSpeech(s, ev) {
  const keep = s.best_move_by.filter((n) => n !== ev.seat || s.step !== "farewell");
  return finishTurn(put(s, { speaking: null, best_move_by: keep }));
}

// nominations: by the speaker; «принимается первая»; «не разрешается отзывать»; none after a removal
function checkNominate(s, ev) {
  if (s.speaking === null) return refusal("nominate.nobody_speaks");
  if (ev.by !== s.speaking) return refusal("nominate.speaker", { speaking: s.speaking });
  if (s.no_vote) return refusal("nominate.no_vote");
  const nominations = s.days[s.days.length - 1].nominations;
  const first = nominations.find(([by]) => by === ev.by);
  if (first) return refusal("nominate.second", { by: ev.by, first: first[1] });
  const already = nominations.find(([, n]) => n === ev.seat);
  if (already) return refusal("nominate.already", { seat: ev.seat, by: already[0] });
  return outRefusal(s, ev.seat);
}
function nominate(s, ev) {
  s = updateDay(s, { nominations: [...s.days[s.days.length - 1].nominations, [ev.by, ev.seat]] });
  return put(s, { candidates: [...s.candidates, ev.seat] });
}

// the vote: counts for the candidates in order (the last may be left out: the votes not given go to him)
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
function checkVote(s, ev) {
  const seats = ev.counts.map(([n]) => n);
  if (!same(seats, s.candidates) && !same(seats, s.candidates.slice(0, -1))) return refusal("vote.candidates", { candidates: s.candidates });
  const total = ev.counts.reduce((a, [, n]) => a + n, 0);
  return total > count(s) ? refusal("vote.total", { total, count: count(s) }) : null;
}
function vote(s, ev) {
  const given = new Map(ev.counts);
  const last = s.candidates[s.candidates.length - 1];
  const sum = [...given.values()].reduce((a, n) => a + n, 0);
  given.set(last, (given.get(last) || 0) + count(s) - sum); // the votes not given (FIIM)
  const counts = s.candidates.map((n) => [n, given.get(n)]);
  s = updateDay(s, { votes: [...s.days[s.days.length - 1].votes, counts] });
  const top = Math.max(...counts.map(([, n]) => n));
  const leaders = counts.filter(([, n]) => n === top).map(([n]) => n);
  if (leaders.length === 1) return voteOut(s, leaders);
  if (s.vote_round >= 2 && same(leaders, s.candidates)) return toRaise(s);
  return put(s, { step: "tie", turns: leaders, candidates: leaders });
}
// the same players tie again: the vote to raise them all — «когда за столом остаётся четыре игрока,
// не разрешается поднимать двоих», nor when the candidates are everyone at the table
function toRaise(s) {
  if (count(s) === 4) return beginNight(updateDay(s, { no_raise: "four" }));
  if (s.candidates.length === count(s)) return beginNight(updateDay(s, { no_raise: "everyone" }));
  return put(s, { step: "raise" });
}
const checkRaise = (s, ev) => (ev.yes > count(s) ? refusal("raise.total", { yes: ev.yes, count: count(s) }) : null);
function raiseAll(s, ev) {
  s = updateDay(s, { raise_yes: ev.yes });
  return 2 * ev.yes > count(s) ? voteOut(s, s.candidates) : beginNight(s); // more than half of the table
}

// the night: the shot takes effect in the morning; the don and the sheriff do not check themselves
const checkShot = (s, ev) => outRefusal(s, ev.seat);
const shot = (s, ev) => afterShotStep(recordNight(s, { shot: ev.seat }), "shot");
const miss = (s) => afterShotStep(recordNight(s, { shot: null }), "shot");
const checkBy = (role) => (s, ev) => {
  const h = holder(s, role);
  if (ev.seat !== null && h && ev.seat === h.seat) return refusal("check.self", { who: ROLE_WORDS[role] });
  return outRefusal(s, ev.seat);
};
const donCheck = (s, ev) => afterShotStep(recordNight(s, { don_check: ev.seat }), "don_check");
const sheriffCheck = (s, ev) => afterShotStep(recordNight(s, { sheriff_check: ev.seat }), "sheriff_check");

// the best move: three different seats, not his own, by the player who may name one now
function checkBestMove(s, ev) {
  if (!s.best_move_by.includes(ev.seat)) return notAuthor(s, ev.seat);
  const seats = ev.seats;
  if (seats.length !== 3 || new Set(seats).size !== 3 || seats.includes(ev.seat)) {
    return refusal("best_move.seats", { seats: seats.join(" ") || "—" });
  }
  return null;
}
// «если в первую ночь был промах, игрок, убитый во вторую ночь, не имеет права назвать тройку»
function notAuthor(s, n) {
  const firstNight = s.nights[0] || null;
  const out = seatOf(s, n).out;
  if (firstNight && firstNight.shot === null && out && out.how === "shot") return refusal("best_move.after_miss");
  if (s.best_move_by.length) return refusal("best_move.author", { seats: s.best_move_by });
  return refusal("best_move.nobody");
}
function bestMove(s, ev) {
  s = setSeat(s, ev.seat, { best_move: [...ev.seats] });
  return put(s, { best_move_by: s.best_move_by.filter((n) => n !== ev.seat) });
}

// fouls: +1 at any time; the third takes a speech, the fourth removes
const checkAtTable = (s, ev) => outRefusal(s, ev.seat);
function foul(s, ev) {
  const fouls = seatOf(s, ev.seat).fouls + 1;
  s = setSeat(s, ev.seat, { fouls });
  if (fouls === 3) s = setSeat(s, ev.seat, { silenced_day: silencedDay(s, ev.seat) });
  return fouls === 4 ? remove(s, ev.seat, "removed") : s;
}
// «3-е замечание … лишается речи на данном кругу (если до речи) или на следующем (на своей речи или после нее)»
function silencedDay(s, n) {
  const p = phase(s.step);
  if (p === "setup" || p === "night_zero") return 1;
  if (p === "night") return s.number + 1;
  const beforeHisSpeech = s.step === "morning" || (s.step === "speeches" && s.turns.includes(n));
  return beforeHisSpeech ? s.number : s.number + 1;
}
const removal = (s, ev) => remove(s, ev.seat, ev.team_defeat ? "team_defeat" : "removed");

// a removal: ППК or «когда за столом остаётся 3 или 4 игрока» gives the other team the win;
// else the game may end, or the day loses its vote
export function remove(s, n, how) {
  const before = count(s), team = teamOfRole(seatOf(s, n).role);
  s = leave(s, n, how);
  s = put(s, { turns: s.turns.filter((t) => t !== n), speaking: s.speaking === n ? null : s.speaking });
  if (how === "team_defeat") return end(s, OTHER[team], text(`ППК игроку на месте ${n}`, `team defeat of seat ${n}`));
  if (before === 3 || before === 4) {
    return end(s, OTHER[team], text(`удаление на месте ${n} при ${before} игроках за столом`,
      `seat ${n} removed with ${before} players at the table`));
  }
  s = settle(s);
  return ended(s) ? s : afterRemoval(s);
}
// «если игрок удаляется до голосования или во время голосования, дальнейшего голосования не
// происходит»; a night or night 0 waits only for players still at the table
function afterRemoval(s) {
  const step = s.step;
  if (step === "morning" || step === "speeches") return finishTurn(put(s, { no_vote: true }));
  if (step === "vote" || step === "tie" || step === "raise") return beginNight(put(s, { no_vote: true }));
  if (["don_check", "sheriff_check", "don_look", "sheriff_look"].includes(step)) {
    const h = holder(s, step === "don_check" || step === "don_look" ? "don" : "sheriff");
    if (h && h.out !== null) return phase(step) === "night" ? afterShotStep(s, step) : afterLook(s, step);
  }
  return finishTurn(s);
}

// the end and after it: a ruling; extra points within the preset's range and step
const ruling = (s, ev) => end(s, ev.team, text("решение судьи", "the judge's ruling"));
function checkExtra(s, ev) {
  const r = s.rules, value = decimal(ev.points) || "0";
  if (isZero(value) || r.extra_min === null || r.extra_max === null) return null;
  if (cmp(value, r.extra_min) < 0 || cmp(value, r.extra_max) > 0) {
    return refusal("extra.range", { value, low: r.extra_min, high: r.extra_max });
  }
  if (r.extra_step && !isZero(r.extra_step)) {
    const [v, low, step] = scaled(value, r.extra_min, r.extra_step);
    if ((v - low) % step !== 0n) return refusal("extra.step", { value, step: r.extra_step });
  }
  return null;
}

export const HANDLERS = {
  seat: [checkSeat, (s, ev) => setSeat(s, ev.seat, { player: ev.player })], judge: [nothing, (s, ev) => put(s, { judge: ev.name })],
  deal: [checkDeal, (s, ev) => setSeat(s, ev.seat, { role: ev.role })], night_zero: [checkNightZero, nightZero],
  speech_start: [checkStart, start], speech_end: [checkEnd, endSpeech], nominate: [checkNominate, nominate],
  vote: [checkVote, vote], raise_all: [checkRaise, raiseAll], shot: [checkShot, shot], miss: [nothing, miss],
  don_check: [checkBy("don"), donCheck], sheriff_check: [checkBy("sheriff"), sheriffCheck],
  best_move: [checkBestMove, bestMove], foul: [checkAtTable, foul], removal: [checkAtTable, removal],
  ruling: [nothing, ruling], extra: [checkExtra, (s, ev) => setSeat(s, ev.seat, { extra: decimal(ev.points) || "0" })],
};

// -- replay.py ------------------------------------------------------------------------------------
// seconds on the clock: 15 s a check at night (regulation), 30 s for a lost speech with 3 or 4 at the
// table, 2 s for a vote; FIIM: a minute a speech and a last word, 30 s after a tie, a minute of agreement
export const TIMERS = { speech: 60, short: 30, lost: 0, tie: 30, last_word: 60, agreement: 60, look: 15, check: 15, vote: 2 };

// the events by the phone's sequence, each id once (the first copy)
export function inOrder(events) {
  const seen = new Set();
  const unique = events.filter((e) => !seen.has(e.id) && seen.add(e.id));
  return unique.sort((a, b) => a.seq - b.seq);
}

export function apply(s, ev) {
  const why = check(s, ev);
  return why || act(s, ev);
}

// the state after `events`; never throws: a refused event is listed in `refused` with its reason,
// an undo takes back the last event in force (and only that one)
export function replay(events, { players = [], rules = {} } = {}) {
  let s = newGame(players, rules);
  const kinds = new Map(), history = [], refused = [], undone = [];
  for (const ev of inOrder(events)) {
    kinds.set(ev.id, ev.kind);
    let why;
    if (ev.kind === "undo") {
      why = undoRefusal(history, kinds, ev);
      if (!why) { const [id, before] = history.pop(); undone.push(id); s = before; }
    } else {
      why = check(s, ev);
      if (!why) { history.push([ev.id, s]); s = act(s, ev); }
    }
    if (why) refused.push([ev.id, why]);
  }
  return put(s, { refused, undone });
}

function undoRefusal(history, kinds, ev) {
  if (kinds.get(ev.target) === "undo") return refusal("undo.undo");
  if (!history.length) return refusal("undo.nothing");
  const last = history[history.length - 1][0];
  return last !== ev.target ? refusal("undo.not_last", { last }) : null;
}

// the last event in force (what an undo names) of a log and its replayed state: null when none
export function lastInForce(events, s) {
  const refused = new Set(s.refused.map(([id]) => id)), stack = [];
  for (const ev of inOrder(events)) {
    if (refused.has(ev.id)) continue;
    if (ev.kind === "undo") stack.pop(); else stack.push(ev);
  }
  return stack.length ? stack[stack.length - 1] : null;
}

const SEAT_KINDS = ["seat", "foul", "removal", "shot", "don_check", "sheriff_check", "speech_start", "speech_end",
  "nominate", "best_move", "extra"];

// a stand-in event of `kind` (at `seat`) that only its kind and seat can make refused
function probe(s, kind, seat) {
  const others = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].filter((n) => n !== seat).slice(0, 3);
  const fields = {
    seat: { seat, player: null }, judge: { name: "" }, deal: { seat: seat || 1, role: "civilian" },
    night_zero: { step: NIGHT_ZERO[s.step] || "agreement" }, speech_start: { seat }, speech_end: { seat },
    nominate: { by: s.speaking || 1, seat }, vote: { counts: s.candidates.slice(0, -1).map((n) => [n, 0]) },
    raise_all: { yes: 0 }, shot: { seat }, miss: {}, don_check: { seat }, sheriff_check: { seat },
    best_move: { seat, seats: others }, foul: { seat }, removal: { seat, team_defeat: false }, ruling: { team: "red" },
    extra: { seat, points: "0" },
  }[kind];
  return { kind, id: "probe", seq: 1, ...fields };
}

// what the judge may record now: each kind with the seats it may name ([] for a kind naming none)
export function allowed(s) {
  const out = {};
  for (const [kind, steps] of Object.entries(WHEN)) {
    if (kind === "undo" || !steps.includes(s.step)) continue;
    if (SEAT_KINDS.includes(kind)) {
      const seats = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].filter((n) => check(s, probe(s, kind, n)) === null);
      if (seats.length) out[kind] = seats;
    } else if (check(s, probe(s, kind, null)) === null) {
      out[kind] = [];
    }
  }
  return out;
}

// who speaks now, else who speaks next in this step
export const nextSpeaker = (s) => (s.speaking !== null ? s.speaking : s.turns.length ? s.turns[0] : null);

// a day's speech: the minute; 30 s for a player who lost it with 3 or 4 at the table; none otherwise
export function turnKind(s, n) {
  if (seatOf(s, n).silenced_day === s.number) return count(s) === 3 || count(s) === 4 ? "short" : "lost";
  return "speech";
}

const STEP_TIMERS = { don_look: "look", sheriff_look: "look", morning: "last_word", farewell: "last_word", tie: "tie",
  vote: "vote", raise: "vote", don_check: "check", sheriff_check: "check" };

// the clock for what happens now (null: the deal, the shot, the end)
export function timer(s) {
  let kind = STEP_TIMERS[s.step] || null;
  if (s.step === "speeches" && nextSpeaker(s) !== null) kind = turnKind(s, nextSpeaker(s));
  if (s.step === "deal" && check(s, probe(s, "night_zero", null)) === null) kind = "agreement";
  return kind ? { kind, seconds: TIMERS[kind] } : null;
}

// -- protocol.py: the texts a judge types into the protocol tab ------------------------------------
const WORDS = { civilian: ["мирный", "civilian"], sheriff: ["шериф", "sheriff"], mafia: ["мафия", "mafia"],
  don: ["дон", "don"], red: ["Мирные", "Red"], black: ["Мафия", "Black"], yes: ["да", "yes"],
  team_defeat: ["ППК", "team defeat"] };
const word = (key, language) => WORDS[key][language === "en" ? 1 : 0];

// 0,5 in Russian, 0.5 in English; trailing zeros dropped; nothing for zero
function pointsText(value, language) {
  if (isZero(value)) return "";
  let t = value.includes(".") ? value.replace(/0+$/, "").replace(/\.$/, "") : value;
  if (t === "-0") t = "0";
  return language === "ru" ? t.replace(".", ",") : t;
}

// every cell the game owns, "" for an empty one: "<seat>:<column>", ":judge", ":winner"
export function protocolCells(s, language) {
  const cells = { ":judge": s.judge, ":winner": ended(s) && s.winner ? word(s.winner, language) : "" };
  for (const x of s.seats) {
    const how = x.out ? x.out.how : "";
    const removed = how === "removed" || how === "team_defeat";
    const values = {
      player: x.player || "", role: x.role ? word(x.role, language) : "", fouls: x.fouls ? String(x.fouls) : "",
      killed_night: how === "shot" ? String(x.out.number) : "", voted_day: how === "voted" ? String(x.out.number) : "",
      removal: removed ? `${word(how === "team_defeat" ? "team_defeat" : "yes", language)} ${x.out.number}` : "",
      best_move: x.best_move.join(" "), extra_points: pointsText(x.extra, language),
      // the paper protocol's optional columns: the days he was nominated, the nights he was checked
      nominated: s.days.filter((d) => d.nominations.some(([, n]) => n === x.seat)).map((d) => d.number).join(" "),
      sheriff_check: s.nights.filter((nt) => nt.sheriff_check === x.seat).map((nt) => nt.number).join(" "),
      don_check: s.nights.filter((nt) => nt.don_check === x.seat).map((nt) => nt.number).join(" "),
    };
    for (const [k, v] of Object.entries(values)) cells[`${x.seat}:${k}`] = v;
  }
  return cells;
}
