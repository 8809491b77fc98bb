// The paper protocol as a form: its cells (the texts a judge types into the protocol tab, keys
// "<seat>:<column>" and ":judge"/":winner"), the page's words in Russian and English, and the
// checks the phone can make with no network (two dons, a fifth foul, too many of a role). The
// server's rules are the authority; these only say the obvious before the answer comes.

export const SEAT_COLUMNS = ["player", "role", "fouls", "killed_night", "voted_day", "removal", "best_move",
  "extra_points"];
export const SEATS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
export const FORM_KEYS = [":judge", ":winner"].concat(
  ...SEATS.map((s) => SEAT_COLUMNS.map((c) => `${s}:${c}`)));
export const MAX_FOULS = 4; // the fourth removes the player: there is no fifth

const WORDS = {
  games: ["Игры", "Games"],
  back: ["← Игры", "← Games"],
  seat: ["Место", "Seat"],
  judge: ["Судья", "Judge"],
  judge_hint: ["Имя запомнится на этом телефоне", "Remembered on this phone"],
  winner: ["Победа", "Winner"],
  fouls: ["Фолы", "Fouls"],
  foul_minus: ["Снять фол", "Take a foul back"],
  foul_plus: ["+1 фол", "+1 foul"],
  skips_speech: ["пропускает речь", "skips the next speech"],
  removed_by_fouls: ["удалён", "removed"],
  no_fifth: ["Пятого фола не бывает: на четвёртом игрок удалён", "There is no fifth foul: the fourth removes the player"],
  left: ["Покинул игру", "Left the game"],
  left_none: ["в игре до конца", "played to the end"],
  left_voted: ["заголосован, день", "voted out on day"],
  left_shot: ["убит, ночь", "shot on night"],
  left_removed: ["удалён, день", "removed on day"],
  left_ppk: ["ППК, день", "team defeat on day"],
  number: ["№", "No."],
  best_move: ["Лучший ход", "Best move"],
  best_move_who: ["Кто называет", "Named by"],
  best_move_seats: ["Три места", "Three seats"],
  extra: ["Доп. баллы", "Extra points"],
  substitute: ["Замена", "Substitute"],
  search: ["Найти игрока", "Find a player"],
  cancel: ["Отмена", "Cancel"],
  send: ["Отправить", "Submit"],
  sent: ["Игра отправлена", "The game is submitted"],
  has_errors: ["В протоколе ошибки: игра не засчитана, пока их не исправят", "The protocol has errors: the game does not count until they are fixed"],
  live: ["Вести игру вживую", "Run the game live"],
  live_missing: ["Живой режим недоступен на этой странице", "The live mode is not available here"],
  form_mode: ["← К протоколу", "← To the protocol"],
  in_sheet: ["в таблице", "in the sheet"],
  yours: ["у вас", "yours"],
  keep_mine: ["Оставить моё", "Keep mine"],
  take_sheet: ["Взять из таблицы", "Take the sheet's"],
  conflict: ["Ячейку изменили в таблице", "The cell was changed in the sheet"],
  problems: ["Проверьте перед отправкой", "Check before submitting"],
  on_phone: ["(проверено на телефоне)", "(checked on the phone)"],
  saved: ["сохранено в таблице", "saved in the sheet"],
  read: ["прочитано из таблицы", "read from the sheet"],
  not_saved: ["ещё не сохранялась", "not saved yet"],
  waiting_sheet: ["ждёт записи в таблицу", "waiting to be written to the sheet"],
  waiting_net: ["ждёт сети", "waiting for the network"],
  sending: ["отправляется…", "sending…"],
  keeping: ["записывается на телефон…", "being kept on the phone…"],
  error: ["ошибка", "error"],
  loading: ["Загружается…", "Loading…"],
  offline_first: ["Нет сети, а страница ещё ни разу не открывалась на этом телефоне",
    "No network, and this page has never been opened on this phone"],
  insecure: ["Адрес без https: без сети страница не откроется заново, но всё введённое хранится на телефоне и уйдёт, когда сеть вернётся.",
    "The address is not https: the page cannot reopen without the network, but everything entered is kept on this phone and is sent when the network returns."],
  empty_seat: ["(пусто)", "(empty)"],
  no_games: ["Игр по этой ссылке пока нет", "No games on this link yet"],
  two_dons: ["Два дона — дон в игре один", "Two dons: a game has one don"],
  two_sheriffs: ["Два шерифа — шериф в игре один", "Two sheriffs: a game has one sheriff"],
  many_mafia: ["Мафии больше двух (без дона)", "More than two mafia (besides the don)"],
  many_black: ["Чёрных больше трёх", "More than three black players"],
  fifth_foul: ["Фолов больше четырёх", "More than four fouls"],
  best_move_three: ["Лучший ход — три разных места от 1 до 10", "A best move is three different seats 1 to 10"],
  status_not_started: ["не начата", "not started"],
  status_in_play: ["идёт", "in play"],
  status_waiting: ["ждёт записи", "being written"],
  status_submitted: ["отправлена", "submitted"],
  status_problems: ["есть ошибки", "has problems"],
  status_confirmed: ["проверена", "confirmed"],
};

export function word(key, language) {
  const pair = WORDS[key];
  return pair ? pair[language === "en" ? 1 : 0] : key;
}

// «3 изменения», «5 изменений», «1 изменение»; "1 change", "3 changes"
export function changes(n, language) {
  if (language === "en") return `${n} ${n === 1 ? "change" : "changes"}`;
  const tens = n % 100, ones = n % 10;
  const form = tens >= 11 && tens <= 14 ? "изменений" : ones === 1 ? "изменение"
    : ones >= 2 && ones <= 4 ? "изменения" : "изменений";
  return `${n} ${form}`;
}

// "0.5", "0,5", " 1 " → the text the tab holds in this language ("0,5" / "0.5"); "" for zero or nothing;
// null for a text that is no number
export function extraText(typed, language) {
  const text = String(typed ?? "").trim().replace(",", ".");
  if (!text) return "";
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(text)) return null;
  const value = Math.round(Number(text) * 1000) / 1000;
  if (!value) return "";
  const plain = String(value);
  return language === "en" ? plain : plain.replace(".", ",");
}

export function extraValue(text) {
  const value = Number(String(text || "0").replace(",", "."));
  return Number.isFinite(value) ? value : 0;
}

// How a player left, from the seat's cells: {how: ""|"voted"|"shot"|"removed"|"ppk", number}
export function exitOf(cells, seat, removals) {
  const voted = cells[`${seat}:voted_day`], shot = cells[`${seat}:killed_night`], removal = cells[`${seat}:removal`];
  if (shot) return { how: "shot", number: shot };
  if (voted) return { how: "voted", number: voted };
  if (removal) {
    // «да 3», «ППК 2», "team defeat 2": the word (which may have a space) and the day
    const text = removal.trim(), lower = text.toLowerCase();
    const ppk = removals[1] && lower.startsWith(removals[1].toLowerCase());
    const said = ppk ? removals[1] : lower.startsWith((removals[0] || "").toLowerCase()) ? removals[0] : "";
    const rest = text.slice(said.length).trim();
    return { how: ppk ? "ppk" : "removed", number: /^\d+$/.test(rest) ? rest : "" };
  }
  return { how: "", number: "" };
}

// The cells of a seat's exit: the other exit cells cleared, as a judge would on paper
export function exitCells(seat, how, number, removals) {
  const n = number ? String(number) : "";
  const out = { [`${seat}:voted_day`]: "", [`${seat}:killed_night`]: "", [`${seat}:removal`]: "" };
  if (how === "voted") out[`${seat}:voted_day`] = n;
  else if (how === "shot") out[`${seat}:killed_night`] = n;
  else if (how === "removed") out[`${seat}:removal`] = n ? `${removals[0]} ${n}` : removals[0];
  else if (how === "ppk") out[`${seat}:removal`] = n ? `${removals[1]} ${n}` : removals[1];
  return out;
}

// The checks the phone makes itself, in the server's problem shape (seat, column, severity, message)
export function localProblems(cells, roles, language) {
  const out = [];
  const [, sheriff, mafia, don] = roles.map((r) => r.toLowerCase());
  const seatsWith = (role) => SEATS.filter((s) => (cells[`${s}:role`] || "").trim().toLowerCase() === role);
  const each = (seats, key) => seats.forEach((s) => out.push(
    { seat: s, column: "role", rule: `local.${key}`, severity: "error", message: word(key, language), local: true }));
  const dons = seatsWith(don), sheriffs = seatsWith(sheriff), mafias = seatsWith(mafia);
  if (dons.length > 1) each(dons, "two_dons");
  if (sheriffs.length > 1) each(sheriffs, "two_sheriffs");
  if (mafias.length > 2) each(mafias, "many_mafia");
  else if (mafias.length + dons.length > 3) each(mafias.concat(dons), "many_black");
  for (const s of SEATS) {
    const fouls = Number(cells[`${s}:fouls`] || 0);
    if (fouls > MAX_FOULS) {
      out.push({ seat: s, column: "fouls", rule: "local.fifth_foul", severity: "error",
        message: word("fifth_foul", language), local: true });
    }
    const best = (cells[`${s}:best_move`] || "").trim();
    if (best) {
      const seats = best.split(/[\s,;]+/).map(Number);
      if (seats.length !== 3 || new Set(seats).size !== 3 || seats.some((n) => !(n >= 1 && n <= 10))) {
        out.push({ seat: s, column: "best_move", rule: "local.best_move_three", severity: "error",
          message: word("best_move_three", language), local: true });
      }
    }
  }
  return out;
}

// "3:role" of a problem (seat null: ":judge")
export function problemKey(problem) {
  return `${problem.seat ?? ""}:${problem.column}`;
}

export function uuid() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  // an address without https has no randomUUID; getRandomValues is there in every context
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
