// The judge's game on the phone, offline: a port of scoring/game (state.py, flow.py, handlers.py,
// replay.py, refusals.py, protocol_cells of protocol.py) on events in their JSON form (Event.to_dict).
// Same rules, same state fields (as scoring/game/jsonform.py writes them), same refusals; checked
// against Python log by log (tests/test_game_js.py). Every rule returns a new state, none mutates:
// an undo is the state before the event. The server stays the authority.

// -- state.py --
export const WANT = { don: 1, mafia: 2, sheriff: 1, civilian: 6 };
const DAY = ["morning", "speeches", "vote", "tie", "raise", "farewell"];
const PHASES = { deal: "setup", don_look: "night_zero", sheriff_look: "night_zero", shot: "night", don_check: "night",
  sheriff_check: "night", end: "ended" };
for (const d of DAY) PHASES[d] = "day";
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
const T = (ru, en) => ({ ru, en }); // a text in both languages (scoring.problems.Text)
export const stepName = (s) => T(...STEP_NAMES[s.step].map((w) => w.replace("{n}", s.number)));
const teamOf = (role) => (role === "don" || role === "mafia" ? "black" : "red"); // undealt: a civilian
const last = (a) => a[a.length - 1];
export const seatOf = (s, n) => s.seats[n - 1];
const isIn = (s, n) => s.seats[n - 1].out === null;
export const count = (s, team) => s.seats.filter((x) => x.out === null && (!team || teamOf(x.role) === team)).length;
export const holder = (s, role) => s.seats.find((x) => x.role === role) || null;
const atTableHolder = (s, role) => { const h = holder(s, role); return h && h.out === null; };
const ended = (s) => s.step === "end";
const SEATS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

// decimals as Python's str(Decimal) writes them ("0.50" stays, "5." is "5"); compared as scaled integers
function decimal(v) {
  if (v === null || v === undefined) return null;
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(String(v).trim().replace(",", "."));
  if (!m || !(m[2] || m[3])) return null;
  return (m[1] === "-" ? "-" : "") + (m[2].replace(/^0+/, "") || "0") + (m[3] ? "." + m[3] : "");
}
function scaled(...xs) {
  const k = Math.max(...xs.map((x) => (x.split(".")[1] || "").length));
  return xs.map((x) => { const [i, f = ""] = x.replace("-", "").split("."); const n = BigInt(i + f.padEnd(k, "0")); return x[0] === "-" ? -n : n; });
}
const cmp = (a, b) => { const [x, y] = scaled(a, b); return x < y ? -1 : x > y ? 1 : 0; };
const isZero = (a) => /^-?0(\.0*)?$/.test(a);

export const readRules = (r = {}) => ({ best_move_by: [...(r.best_move_by || ["shot_first"])],
  extra_min: decimal(r.extra_min), extra_max: decimal(r.extra_max), extra_step: decimal(r.extra_step) });

export function newGame(players = [], rules = {}) {
  return { step: "deal", number: 0, judge: "", turns: [], speaking: null, first_speaker: 1, candidates: [], vote_round: 0,
    seats: SEATS.map((n) => ({ seat: n, player: players[n - 1] || null, role: null, fouls: 0, out: null, silenced_day: null,
      best_move: [], extra: "0" })),
    no_vote: false, best_move_by: [], quiet: 0, cycle_count: 10, days: [], nights: [], winner: null, reason: null,
    rules: readRules(rules), refused: [], undone: [] };
}

// -- refusals.py: one entry a rule, the regulation's words quoted where it says it --
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
};

// a parameter as Refusal._said says it: a text in the language, a list joined by ", "
const sayParam = (v, en) => (Array.isArray(v) ? v.map((x) => sayParam(x, en)).join(", ")
  : v && typeof v === "object" ? (en ? v.en : v.ru) : v == null ? "None" : String(v));

// a refusal as Refusal.to_dict: {rule, ru, en} — a server's receipt reads the same
export function refusal(rule, params = {}) {
  const [ru, en] = REFUSALS[rule].map((w, i) => w.replace(/\{(\w+)\}/g, (_, k) => sayParam(params[k], i)));
  return { rule, ru, en };
}
export const refusalText = (r, language) => (r ? (language === "en" ? r.en : r.ru) || r.rule : "");

// -- flow.py: how a game moves on by itself --
const TURN_STEPS = ["morning", "speeches", "tie", "farewell"];
const OTHER = { red: "black", black: "red" };
const put = (s, c) => ({ ...s, ...c });
const setSeat = (s, n, c) => put(s, { seats: s.seats.map((x) => (x.seat === n ? { ...x, ...c } : x)) });
const today = (s) => last(s.days);
const updateDay = (s, c) => put(s, { days: [...s.days.slice(0, -1), { ...today(s), ...c }] });
const round = (from) => SEATS.map((i) => ((from - 2 + i) % 10) + 1); // from `from` round the table

// the seats at the table in speaking order, from `first`
const dayOrder = (s, first) => round(first).filter((n) => isIn(s, n));
// who opens the next day: the first seat at the table after today's first speaker
const nextFirst = (s) => round(s.first_speaker + 1).find((n) => isIn(s, n)) || s.first_speaker;
const leave = (s, n, how) => setSeat(s, n, { out: { how, number: s.number } });
const end = (s, team, reason) => put(s, { step: "end", winner: team, reason, turns: [], speaking: null, candidates: [] });

// red wins when every black is out, black when blacks are at least as many as reds
function settle(s) {
  const black = count(s, "black"), red = count(s, "red");
  if (ended(s)) return s;
  if (!black) return end(s, "red", T("все чёрные выбыли", "every black player is out"));
  if (black >= red) {
    return end(s, "black", T(`чёрных (${black}) не меньше, чем красных (${red})`, `blacks (${black}) are at least as many as reds (${red})`));
  }
  return s;
}

// night 0's next step: the don's look, the sheriff's (each while he is at the table), then day 1
function afterLook(s, done) {
  const order = ["deal", "don_look", "sheriff_look"];
  for (const step of order.slice(order.indexOf(done) + 1)) if (atTableHolder(s, step === "don_look" ? "don" : "sheriff")) return put(s, { step });
  return beginDay(s, 1, 1, null);
}

function beginDay(s, number, first, shot) {
  first = dayOrder(s, first)[0] || first; // seat 1 removed on night 0: seat 2 opens day 1
  s = put(s, { number, first_speaker: first, candidates: [], vote_round: 0, no_vote: false, cycle_count: count(s), speaking: null,
    days: [...s.days, { number, nominations: [], votes: [], raise_yes: null, no_raise: "", voted_out: [] }] });
  if (shot === null) return put(s, { step: "speeches", turns: dayOrder(s, first) });
  const firstNight = number === 2 && s.rules.best_move_by.includes("shot_first"); // shot on night 1
  return put(s, { step: "morning", turns: [shot], best_move_by: firstNight ? [shot] : [] });
}
const beginNight = (s) => put(s, { step: "shot", turns: [], speaking: null, candidates: [], best_move_by: [] });

// night n is over: its shot takes effect; the game may end — naturally, or «когда на протяжении трёх
// ночей за столом остаётся неизменное количество игроков … победа мирных» — else day n + 1
function morning(s) {
  const night = last(s.nights), victim = night.shot !== null && isIn(s, night.shot) ? night.shot : null;
  if (victim !== null) s = leave(s, victim, "shot");
  s = settle(s);
  if (ended(s)) { // «при сломе стола … убитый в первую ночь всё равно имеет право назвать тройку»
    return victim !== null && night.number === 1 && s.rules.best_move_by.includes("shot_first") ? put(s, { best_move_by: [victim] }) : s;
  }
  s = put(s, { quiet: count(s) === s.cycle_count ? s.quiet + 1 : 0 });
  const n = night.number;
  if (s.quiet >= 3) return end(s, "red", T(`три ночи подряд без выбывших (ночи ${n - 2}–${n})`, `three nights in a row with nobody leaving (nights ${n - 2}–${n})`));
  return beginDay(s, n + 1, nextFirst(s), victim);
}

// nobody speaks now: with nobody left to speak in this step, the step is over
function finishTurn(s) {
  if (s.speaking !== null || s.turns.length || !TURN_STEPS.includes(s.step)) return s;
  if (s.step === "morning") return put(s, { step: "speeches", turns: dayOrder(s, s.first_speaker), best_move_by: [] });
  if (s.step === "speeches") return closeSpeeches(s);
  if (s.step === "tie") return put(s, { step: "vote", vote_round: s.vote_round + 1 });
  return beginNight(s); // the last words are said
}

// FIIM: day 1 with a single nominee has no vote; later a single nominee leaves without one
function closeSpeeches(s) {
  const nominees = s.candidates.filter((n) => isIn(s, n));
  if (s.no_vote || !nominees.length || (s.number === 1 && nominees.length === 1)) return beginNight(s);
  return nominees.length === 1 ? voteOut(s, nominees) : put(s, { step: "vote", candidates: nominees, vote_round: 1 });
}

// the vote removes `seats`; the game may end, else they say their last words
function voteOut(s, seats) {
  for (const n of seats) s = leave(s, n, "voted");
  const best = s.number === 1 && s.rules.best_move_by.includes("voted_first_day") ? seats : [];
  s = settle(updateDay(put(s, { best_move_by: best }), { voted_out: seats }));
  return ended(s) ? s : put(s, { step: "farewell", turns: seats, speaking: null });
}

function recordNight(s, c) {
  const night = last(s.nights);
  if (night && night.number === s.number) return put(s, { nights: [...s.nights.slice(0, -1), { ...night, ...c }] });
  return put(s, { nights: [...s.nights, { number: s.number, shot: null, don_check: null, sheriff_check: null, ...c }] });
}

// the night's next step: the don's check, the sheriff's (while at the table — tonight's victim still is), the morning
function afterShotStep(s, done) {
  const order = ["shot", "don_check", "sheriff_check"];
  for (const step of order.slice(order.indexOf(done) + 1)) if (atTableHolder(s, step === "don_check" ? "don" : "sheriff")) return put(s, { step });
  return morning(s);
}

// -- handlers.py: what each kind checks (a refusal or null) and does --
const ALL = Object.keys(PHASES), PLAYING = ALL.filter((x) => x !== "deal" && x !== "end");
export const WHEN = { seat: ALL, judge: ALL, best_move: ALL, deal: ["deal"], night_zero: ["deal", "don_look", "sheriff_look"],
  speech_start: TURN_STEPS, speech_end: TURN_STEPS, nominate: ["speeches"], vote: ["vote"], raise_all: ["raise"], shot: ["shot"],
  miss: ["shot"], don_check: ["don_check"], sheriff_check: ["sheriff_check"], foul: PLAYING, removal: PLAYING, ruling: PLAYING,
  extra: ["end"], undo: ALL };
export const EVENT_NAMES = {
  seat: ["игрок на месте", "a player at a seat"], deal: ["роль", "a role"], judge: ["судья", "the judge"],
  night_zero: ["ночь 0", "night 0"], speech_start: ["начало речи", "a speech's start"], speech_end: ["конец речи", "a speech's end"],
  nominate: ["выставление", "a nomination"], vote: ["голосование", "a vote"], raise_all: ["подъём всех", "the vote to raise all"],
  shot: ["выстрел", "a shot"], miss: ["промах", "a miss"], don_check: ["проверка дона", "the don's check"],
  sheriff_check: ["проверка шерифа", "the sheriff's check"], best_move: ["лучший ход", "a best move"], foul: ["фол", "a foul"],
  removal: ["удаление", "a removal"], extra: ["доп. баллы", "extra points"], ruling: ["победа решением судьи", "a win by the judge's ruling"],
  undo: ["отмена", "an undo"],
};
const NIGHT_ZERO = { deal: "agreement", don_look: "don", sheriff_look: "sheriff" };
export const ROLE_WORDS = { don: T("дон", "don"), mafia: T("мафия", "mafia"), sheriff: T("шериф", "sheriff"), civilian: T("мирный", "civilian") };

// why `ev` cannot be recorded now, or null
export function check(s, ev) {
  for (const k of ["seat", "by"]) if (typeof ev[k] === "number" && (ev[k] < 1 || ev[k] > 10)) return refusal("seat.range", { seat: ev[k] });
  return WHEN[ev.kind].includes(s.step) ? HANDLERS[ev.kind][0](s, ev) : notNow(s, ev);
}
export const act = (s, ev) => HANDLERS[ev.kind][1](s, ev);

function notNow(s, ev) {
  if (ended(s)) return refusal("game.ended", { reason: s.reason || "" });
  if (s.step === "deal" && ["foul", "removal", "ruling"].includes(ev.kind)) return refusal("game.not_started");
  if (ev.kind === "extra") return refusal("extra.not_ended");
  const day = s.days.length && today(s).number === s.number ? today(s) : null; // today, or tonight's day
  if (ev.kind === "raise_all" && day && day.no_raise) return refusal(day.no_raise === "four" ? "raise.four" : "raise.everyone");
  return refusal("step.wrong", { step: stepName(s), event: T(...EVENT_NAMES[ev.kind]) });
}
const outOf = (s, n) => (n != null && !isIn(s, n) ? refusal("seat.out", { seat: n }) : null);
const nothing = () => null;

// before the game: a player sits at one seat; a game has 1 don, 2 mafia, 1 sheriff, 6 civilians
function checkSeat(s, ev) {
  const other = s.seats.find((x) => ev.player && x.player === ev.player && x.seat !== ev.seat);
  return other ? refusal("player.twice", { player: ev.player, other: other.seat }) : null;
}
function checkDeal(s, ev) {
  const dealt = s.seats.filter((x) => x.role === ev.role && x.seat !== ev.seat).length;
  return dealt >= WANT[ev.role] ? refusal("deal.too_many", { role: ROLE_WORDS[ev.role], count: dealt }) : null;
}
// night 0 step by step; it begins with every seat taken and the black cards and the sheriff's dealt
function checkNightZero(s, ev) {
  if (ev.step !== NIGHT_ZERO[s.step]) return notNow(s, ev);
  if (s.step !== "deal") return null;
  const empty = s.seats.find((x) => !x.player);
  if (empty) return refusal("seat.empty", { seat: empty.seat });
  const missing = ["don", "mafia", "sheriff"].filter((r) => s.seats.filter((x) => x.role === r).length < WANT[r]);
  return missing.length ? refusal("deal.incomplete", { missing: missing.map((r) => ROLE_WORDS[r]) }) : null;
}
// the deal is over: every seat not dealt a card is a civilian
const nightZero = (s) => afterLook(s.step === "deal" ? put(s, { seats: s.seats.map((x) => ({ ...x, role: x.role || "civilian" })) }) : s, s.step);

// speeches: in turn, one at a time
function checkStart(s, ev) {
  if (s.speaking !== null) return refusal("speech.busy", { speaking: s.speaking });
  return ev.seat !== s.turns[0] ? refusal("speech.turn", { next: s.turns.length ? s.turns[0] : "—", seat: ev.seat }) : null;
}
const checkEnd = (s, ev) => (s.speaking !== ev.seat ? refusal("speech.not_speaking", { seat: ev.seat }) : null);
const endSpeech = (s, ev) => finishTurn(put(s, { speaking: null, best_move_by: s.best_move_by.filter((n) => n !== ev.seat || s.step !== "farewell") }));

// nominations: by the speaker; «принимается первая»; «не разрешается отзывать»; none after a removal
function checkNominate(s, ev) {
  if (s.speaking === null) return refusal("nominate.nobody_speaks");
  if (ev.by !== s.speaking) return refusal("nominate.speaker", { speaking: s.speaking });
  if (s.no_vote) return refusal("nominate.no_vote");
  const noms = today(s).nominations, first = noms.find(([by]) => by === ev.by), already = noms.find(([, n]) => n === ev.seat);
  if (first) return refusal("nominate.second", { by: ev.by, first: first[1] });
  return already ? refusal("nominate.already", { seat: ev.seat, by: already[0] }) : outOf(s, ev.seat);
}
const nominate = (s, ev) => put(updateDay(s, { nominations: [...today(s).nominations, [ev.by, ev.seat]] }), { candidates: [...s.candidates, ev.seat] });

// the vote: counts of the candidates in order; the last may be left out — the votes not given go to him (FIIM)
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
function checkVote(s, ev) {
  const seats = ev.counts.map(([n]) => n), total = ev.counts.reduce((a, [, n]) => a + n, 0);
  if (!same(seats, s.candidates) && !same(seats, s.candidates.slice(0, -1))) return refusal("vote.candidates", { candidates: s.candidates });
  return total > count(s) ? refusal("vote.total", { total, count: count(s) }) : null;
}
function vote(s, ev) {
  const given = new Map(ev.counts), lastOne = last(s.candidates);
  given.set(lastOne, (given.get(lastOne) || 0) + count(s) - ev.counts.reduce((a, [, n]) => a + n, 0));
  const counts = s.candidates.map((n) => [n, given.get(n)]), top = Math.max(...counts.map(([, n]) => n));
  const leaders = counts.filter(([, n]) => n === top).map(([n]) => n);
  s = updateDay(s, { votes: [...today(s).votes, counts] });
  if (leaders.length === 1) return voteOut(s, leaders);
  if (s.vote_round >= 2 && same(leaders, s.candidates)) return toRaise(s);
  return put(s, { step: "tie", turns: leaders, candidates: leaders });
}
// the same tie again: the vote to raise all — not «когда за столом остаётся четыре игрока», nor of everyone
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
const checkBy = (role) => (s, ev) => {
  const h = holder(s, role);
  return ev.seat !== null && h && ev.seat === h.seat ? refusal("check.self", { who: ROLE_WORDS[role] }) : outOf(s, ev.seat);
};
const night = (step, field) => (s, ev) => afterShotStep(recordNight(s, { [field]: ev.seat === undefined ? null : ev.seat }), step);

// the best move: three different seats, not his own, by who may name one now; «если в первую ночь был
// промах, игрок, убитый во вторую ночь, не имеет права назвать тройку»
function checkBestMove(s, ev) {
  if (s.best_move_by.includes(ev.seat)) {
    const k = ev.seats;
    return k.length !== 3 || new Set(k).size !== 3 || k.includes(ev.seat) ? refusal("best_move.seats", { seats: k.join(" ") || "—" }) : null;
  }
  const out = seatOf(s, ev.seat).out;
  if (s.nights.length && s.nights[0].shot === null && out && out.how === "shot") return refusal("best_move.after_miss");
  return s.best_move_by.length ? refusal("best_move.author", { seats: s.best_move_by }) : refusal("best_move.nobody");
}
const bestMove = (s, ev) => put(setSeat(s, ev.seat, { best_move: [...ev.seats] }), { best_move_by: s.best_move_by.filter((n) => n !== ev.seat) });

// fouls: +1 at any time; the third takes a speech, the fourth removes
function foul(s, ev) {
  const fouls = seatOf(s, ev.seat).fouls + 1;
  s = setSeat(s, ev.seat, fouls === 3 ? { fouls, silenced_day: silencedDay(s, ev.seat) } : { fouls });
  return fouls === 4 ? remove(s, ev.seat, "removed") : s;
}
// «3-е замечание … лишается речи на данном кругу (если до речи) или на следующем (на своей речи или после нее)»
function silencedDay(s, n) {
  const p = phase(s.step);
  if (p === "setup" || p === "night_zero") return 1;
  if (p === "night") return s.number + 1;
  return s.step === "morning" || (s.step === "speeches" && s.turns.includes(n)) ? s.number : s.number + 1;
}

// a removal: ППК, or one «когда за столом остаётся 3 или 4 игрока», gives the other team the win;
// else the game may end, or the day loses its vote
function remove(s, n, how) {
  const before = count(s), team = OTHER[teamOf(seatOf(s, n).role)];
  s = leave(s, n, how);
  s = put(s, { turns: s.turns.filter((x) => x !== n), speaking: s.speaking === n ? null : s.speaking });
  if (how === "team_defeat") return end(s, team, T(`ППК игроку на месте ${n}`, `team defeat of seat ${n}`));
  if (before === 3 || before === 4) return end(s, team, T(`удаление на месте ${n} при ${before} игроках за столом`, `seat ${n} removed with ${before} players at the table`));
  s = settle(s);
  return ended(s) ? s : afterRemoval(s);
}
// «если игрок удаляется до голосования или во время голосования, дальнейшего голосования не происходит»;
// a night (or night 0) waits only for players still at the table
function afterRemoval(s) {
  const step = s.step;
  if (step === "morning" || step === "speeches") return finishTurn(put(s, { no_vote: true }));
  if (step === "vote" || step === "tie" || step === "raise") return beginNight(put(s, { no_vote: true }));
  const role = { don_check: "don", don_look: "don", sheriff_check: "sheriff", sheriff_look: "sheriff" }[step];
  if (role && holder(s, role) && !atTableHolder(s, role)) return phase(step) === "night" ? afterShotStep(s, step) : afterLook(s, step);
  return finishTurn(s);
}

// after the end: extra points within the preset's range and step
function checkExtra(s, ev) {
  const r = s.rules, v = decimal(ev.points) || "0";
  if (isZero(v) || r.extra_min === null || r.extra_max === null) return null;
  if (cmp(v, r.extra_min) < 0 || cmp(v, r.extra_max) > 0) return refusal("extra.range", { value: v, low: r.extra_min, high: r.extra_max });
  if (!r.extra_step || isZero(r.extra_step)) return null;
  const [x, low, step] = scaled(v, r.extra_min, r.extra_step);
  return (x - low) % step ? refusal("extra.step", { value: v, step: r.extra_step }) : null;
}

const atTable = (s, ev) => outOf(s, ev.seat);
export const HANDLERS = {
  seat: [checkSeat, (s, ev) => setSeat(s, ev.seat, { player: ev.player })], judge: [nothing, (s, ev) => put(s, { judge: ev.name })],
  deal: [checkDeal, (s, ev) => setSeat(s, ev.seat, { role: ev.role })], night_zero: [checkNightZero, nightZero],
  speech_start: [checkStart, (s, ev) => put(s, { speaking: ev.seat, turns: s.turns.slice(1) })], speech_end: [checkEnd, endSpeech],
  nominate: [checkNominate, nominate], vote: [checkVote, vote], raise_all: [checkRaise, raiseAll],
  shot: [atTable, night("shot", "shot")], miss: [nothing, night("shot", "shot")], don_check: [checkBy("don"), night("don_check", "don_check")],
  sheriff_check: [checkBy("sheriff"), night("sheriff_check", "sheriff_check")], best_move: [checkBestMove, bestMove],
  foul: [atTable, foul], removal: [atTable, (s, ev) => remove(s, ev.seat, ev.team_defeat ? "team_defeat" : "removed")],
  ruling: [nothing, (s, ev) => end(s, ev.team, T("решение судьи", "the judge's ruling"))],
  extra: [checkExtra, (s, ev) => setSeat(s, ev.seat, { extra: decimal(ev.points) || "0" })],
};

// -- replay.py --
// seconds on the clock: 15 s a check at night (regulation), 30 s for a lost speech with 3 or 4 at the
// table, 2 s a vote; FIIM: a minute a speech and a last word, 30 s after a tie, a minute of agreement
export const TIMERS = { speech: 60, short: 30, lost: 0, tie: 30, last_word: 60, agreement: 60, look: 15, check: 15, vote: 2 };

// the events by the phone's sequence, each id once (the first copy)
export function inOrder(events) {
  const seen = new Set();
  return events.filter((e) => !seen.has(e.id) && seen.add(e.id)).sort((a, b) => a.seq - b.seq);
}

// the state after `events`; never throws: a refused event is listed with its reason in `refused`;
// an undo takes back the last event in force, and only that one
export function replay(events, { players = [], rules = {} } = {}) {
  let s = newGame(players, rules);
  const kinds = new Map(), history = [], refused = [], undone = [];
  for (const ev of inOrder(events)) {
    kinds.set(ev.id, ev.kind);
    let why = null;
    if (ev.kind !== "undo") {
      why = check(s, ev);
      if (!why) { history.push([ev.id, s]); s = act(s, ev); }
    } else if (kinds.get(ev.target) === "undo") why = refusal("undo.undo");
    else if (!history.length) why = refusal("undo.nothing");
    else if (last(history)[0] !== ev.target) why = refusal("undo.not_last", { last: last(history)[0] });
    else { const [id, before] = history.pop(); undone.push(id); s = before; }
    if (why) refused.push([ev.id, why]);
  }
  return put(s, { refused, undone });
}

// the last event in force of a log (what an undo names), given its replayed state; null when none
export function lastInForce(events, s) {
  const refused = new Set(s.refused.map(([id]) => id)), stack = [];
  for (const ev of inOrder(events)) if (!refused.has(ev.id)) ev.kind === "undo" ? stack.pop() : stack.push(ev);
  return stack.length ? last(stack) : null;
}

// a stand-in event of `kind` at `seat` that only its kind and seat can make refused
const probe = (s, kind, seat) => ({ kind, id: "probe", seq: 1, seat, ...{
  seat: { player: null }, judge: { name: "" }, deal: { seat: seat || 1, role: "civilian" }, night_zero: { step: NIGHT_ZERO[s.step] || "agreement" },
  nominate: { by: s.speaking || 1 }, vote: { counts: s.candidates.slice(0, -1).map((n) => [n, 0]) }, raise_all: { yes: 0 },
  best_move: { seats: SEATS.filter((n) => n !== seat).slice(0, 3) }, removal: { team_defeat: false }, ruling: { team: "red" },
  extra: { points: "0" } }[kind] });
const SEAT_KINDS = ["seat", "foul", "removal", "shot", "don_check", "sheriff_check", "speech_start", "speech_end", "nominate", "best_move", "extra"];

// what the judge may record now: each kind with the seats it may name ([] for a kind naming none)
export function allowed(s) {
  const out = {};
  for (const [kind, steps] of Object.entries(WHEN)) {
    if (kind === "undo" || !steps.includes(s.step)) continue;
    if (!SEAT_KINDS.includes(kind)) { if (!check(s, probe(s, kind, null))) out[kind] = []; continue; }
    const seats = SEATS.filter((n) => !check(s, probe(s, kind, n)));
    if (seats.length) out[kind] = seats;
  }
  return out;
}

// who speaks now, else who speaks next in this step
export const nextSpeaker = (s) => (s.speaking !== null ? s.speaking : s.turns.length ? s.turns[0] : null);

// a day's speech: the minute; 30 s for a player who lost it with 3 or 4 at the table; none otherwise
export const turnKind = (s, n) => (seatOf(s, n).silenced_day !== s.number ? "speech" : count(s) === 3 || count(s) === 4 ? "short" : "lost");

const STEP_TIMERS = { don_look: "look", sheriff_look: "look", morning: "last_word", farewell: "last_word", tie: "tie", vote: "vote",
  raise: "vote", don_check: "check", sheriff_check: "check" };

// the clock for what happens now (null: the deal, the shot, the end)
export function timer(s) {
  let kind = STEP_TIMERS[s.step] || null;
  if (s.step === "speeches" && nextSpeaker(s) !== null) kind = turnKind(s, nextSpeaker(s));
  if (s.step === "deal" && !check(s, probe(s, "night_zero", null))) kind = "agreement";
  return kind ? { kind, seconds: TIMERS[kind] } : null;
}

// -- protocol.py: the texts a judge types into the protocol tab --
const WORDS = { civilian: ["мирный", "civilian"], sheriff: ["шериф", "sheriff"], mafia: ["мафия", "mafia"], don: ["дон", "don"],
  red: ["Мирные", "Red"], black: ["Мафия", "Black"], yes: ["да", "yes"], team_defeat: ["ППК", "team defeat"] };
const word = (key, language) => WORDS[key][language === "en" ? 1 : 0];
// 0,5 in Russian, 0.5 in English, trailing zeros dropped, nothing for zero
const pointsText = (v, language) => (isZero(v) ? "" : (v.includes(".") ? v.replace(/\.?0+$/, "") : v).replace(".", language === "ru" ? "," : "."));
const numbers = (list, test, get) => list.filter(test).map(get).join(" ");

// every cell the game owns, "" for an empty one: "<seat>:<column>", ":judge", ":winner"
export function protocolCells(s, language) {
  const cells = { ":judge": s.judge, ":winner": ended(s) && s.winner ? word(s.winner, language) : "" };
  for (const x of s.seats) {
    const how = x.out ? x.out.how : "", at = x.out ? String(x.out.number) : "";
    Object.entries({
      player: x.player || "", role: x.role ? word(x.role, language) : "", fouls: x.fouls ? String(x.fouls) : "",
      killed_night: how === "shot" ? at : "", voted_day: how === "voted" ? at : "",
      removal: how === "removed" || how === "team_defeat" ? `${word(how === "removed" ? "yes" : how, language)} ${at}` : "",
      best_move: x.best_move.join(" "), extra_points: pointsText(x.extra, language),
      // the paper protocol's optional columns: the days he was nominated, the nights he was checked
      nominated: numbers(s.days, (d) => d.nominations.some(([, n]) => n === x.seat), (d) => d.number),
      sheriff_check: numbers(s.nights, (nt) => nt.sheriff_check === x.seat, (nt) => nt.number),
      don_check: numbers(s.nights, (nt) => nt.don_check === x.seat, (nt) => nt.number),
    }).forEach(([k, v]) => { cells[`${x.seat}:${k}`] = v; });
  }
  return cells;
}
