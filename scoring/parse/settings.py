"""The Tournament tab (:class:`Settings`) and the stage names a tab may use."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from scoring import labels as L
from scoring.cells import a1
from scoring.model import Location
from scoring.preset import Preset
from scoring.problems import Problem, Text, problem
from scoring.values import is_blank, read_datetime, read_int, shown, text
from scoring.parse.grid import E, Grid, W, find_tab


# -- the Tournament tab ------------------------------------------------------------------------
# the one-time code a server shows an organizer to prove a sheet is theirs (``SS-7KQ2-9XMD``:
# letters and digits that cannot be mistaken for one another); typed into a free cell of this
# tab it is no setting, and an organizer who forgets to delete it gets no warning for it
CLAIM_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CLAIM_CODE = re.compile(r"SS-[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}", re.IGNORECASE)


def is_claim_code(value: object) -> bool:
    return isinstance(value, str) and CLAIM_CODE.fullmatch(value.strip()) is not None


@dataclass(frozen=True, kw_only=True, slots=True)
class Settings:
    name: str = ""
    preset_id: str = ""
    language: str = "ru"
    chief_judge: str = ""
    date: str = ""
    season: bool = False  # «Формат: сезон»: a club season
    confirmed: frozenset[str] = frozenset()  # stage names/keys the chief judge confirmed
    released: frozenset[str] = frozenset()
    link: str = ""  # «Ссылка»: the full results' address, put into every VK post
    mwt_tournament_id: int | None = None  # «ID турнира MWT»: the tournament in the world tour (export mwt)
    organizers: tuple[str, ...] = ()  # «Организаторы»: e-mails that may edit the sync's tabs (Google)
    chief_judges: tuple[str, ...] = ()  # «Главные судьи»: e-mails that may write «Проверил» (Google)
    # registration (issue 45): the Tournament tab's «Мест», «Регистрация до», «Начало», «Жеребьёвка»
    # (naive, in ``time_zone``: «Часовой пояс», "" = the server's)
    places: int | None = None
    registration_until: datetime | None = None
    starts_at: datetime | None = None
    draw_at: datetime | None = None
    time_zone: str = ""
    overrides: tuple[tuple[str, object, Location], ...] = ()
    problems: tuple[Problem, ...] = ()
    tab: str | None = None


def read_settings(tabs: Mapping[str, Grid]) -> Settings:
    title = find_tab(tabs, "tournament")
    if title is None:
        return Settings(problems=(problem("read.tab_missing", E, None, tab="Турнир / Tournament"),))
    grid = tabs[title]
    known = {L.norm(w): key for key, words in L.TOURNAMENT_LABELS.items() for w in words}
    values: dict[str, str] = {}
    raw: dict[str, object] = {}  # the cells as read: a date cell is a datetime, a Google one a serial number
    rows: dict[str, int] = {}
    overrides: list[tuple[str, object, Location]] = []
    problems: list[Problem] = []
    for r, row in enumerate(grid):
        if not row or is_blank(row[0]):
            continue
        key = known.get(L.norm(row[0]))
        value = row[1] if len(row) > 1 else None
        if key is not None:
            if key not in values:
                values[key] = text(value)
                raw[key] = value
                rows[key] = r
            continue
        label_text = text(row[0])
        if is_claim_code(row[0]):
            continue
        if "." in label_text or "=" in label_text or "".join(L.norm(label_text).split()) in _override_words():
            if "=" in label_text and is_blank(value):  # "полуфинал.игроков = 20" typed in one cell
                label_text, _, value = label_text.partition("=")
            overrides.append((label_text.strip(), value if not isinstance(value, str) else value.strip(), Location(title, a1(r, 0))))
        elif r > 0 or L.norm(row[0]) not in {L.norm(t) for t in ("Параметр", "Setting", "Турнир", "Tournament")}:
            problems.append(problem("read.unknown_setting", W, Location(title, a1(r, 0)), key=label_text))
    language = L.norm(values.get("language", "ru")) or "ru"
    if language in {"русский", "рус", "ru-ru"}:
        language = "ru"
    if language in {"english", "англ", "английский", "en-us", "en-gb"}:
        language = "en"
    if language not in {"ru", "en"}:
        problems.append(problem("read.bad_setting", W, None, key="Язык / Language", reason=f"{language!r}: ru | en"))
        language = "ru"

    def _flags(key: str) -> frozenset[str]:
        return frozenset(L.norm(v) for v in re.split(r"[,;]", values.get(key, "")) if v.strip())

    mwt_id = None
    if values.get("mwt_tournament_id", "").strip():
        mwt_id = read_mwt_id(values["mwt_tournament_id"])
        if mwt_id is None:
            problems.append(problem("read.mwt_id", W, Location(title, a1(rows["mwt_tournament_id"], 1)),
                                    value=values["mwt_tournament_id"]))

    season = L.norm(values.get("format", "")) in {L.norm(w) for w in L.SEASON_WORDS}
    if not season and L.norm(values.get("format", "")) not in {"", *(L.norm(w) for w in L.TOURNAMENT_FORMAT_WORDS)}:
        problems.append(problem("read.bad_setting", W, Location(title, a1(rows["format"], 1)), key="Формат / Format",
                                reason=f"{values['format']!r}: {L.SEASON_WORDS[0]} | {L.TOURNAMENT_FORMAT_WORDS[0]}"))
    organizers, chief_judges = (_emails(values, rows, key, title, problems) for key in ("organizers", "chief_judges"))

    registration = _registration(values, raw, rows, title, problems)
    return Settings(
        name=values.get("name", ""),
        preset_id=values.get("preset", "").strip(),  # a file path keeps its case; a shipped id is matched ignoring case (sheets_sync.presets)
        language=language,
        chief_judge=values.get("chief_judge", ""),
        date=values.get("date", ""),
        link=values.get("link", "").strip(),
        season=season,
        confirmed=_flags("confirmed"),
        released=_flags("released"),
        mwt_tournament_id=mwt_id,
        organizers=organizers,
        chief_judges=chief_judges,
        **registration,
        overrides=tuple(overrides),
        problems=tuple(problems),
        tab=title,
    )


def _registration(values: Mapping[str, str], raw: Mapping[str, object], rows: Mapping[str, int], title: str,
                  problems: list[Problem]) -> dict[str, object]:
    """The registration's settings (issue 45): places, the deadline, the start, the draw's time, the
    time zone; what cannot be read is a warning at its cell and left unset."""
    def label(key: str) -> str:
        words = L.TOURNAMENT_LABELS[key]
        return f"{words[0]} / {words[1]}"

    def moment(key: str) -> datetime | None:
        if is_blank(raw.get(key)):
            return None
        found = read_datetime(raw[key])
        if found is None:
            problems.append(problem("read.bad_setting", W, Location(title, a1(rows[key], 1)), key=label(key),
                                    reason=Text(f"«{shown(raw[key])}» — не дата и время (20.12.2026 18:00)",
                                                f"'{shown(raw[key])}' is not a date and time (20.12.2026 18:00)")))
        return found

    places = None
    if not is_blank(raw.get("places")):
        places, rule = read_int(raw["places"])
        if rule or places is None or places < 1:
            typed = shown(raw["places"])
            problems.append(problem("read.bad_setting", W, Location(title, a1(rows["places"], 1)), key=label("places"),
                                    reason=Text(f"«{typed}» — не число мест", f"'{typed}' is not a number of places")))
            places = None
    return {"places": places, "registration_until": moment("registration_until"), "starts_at": moment("starts_at"),
            "draw_at": moment("draw_at"), "time_zone": values.get("time_zone", "").strip()}


_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


def _emails(values: Mapping[str, str], rows: Mapping[str, int], key: str, title: str,
            problems: list[Problem]) -> tuple[str, ...]:
    """The e-mails of a setting (separated by commas, semicolons or spaces), lower case, each once;
    what is not an e-mail is a warning at the cell and left out."""
    found: dict[str, None] = {}
    for word in re.split(r"[,;\s]+", values.get(key, "")):
        if not word:
            continue
        if _EMAIL.fullmatch(word):
            found[word.lower()] = None
        else:
            words = L.TOURNAMENT_LABELS[key]
            problems.append(problem("read.bad_setting", W, Location(title, a1(rows[key], 1)),
                                    key=f"{words[0]} / {words[1]}",
                                    reason=Text(f"«{word}» — не адрес электронной почты", f"'{word}' is not an e-mail address")))
    return tuple(found)


def read_mwt_id(value: object) -> int | None:
    """An MWT id typed into a cell (``123``, ``"123"``, ``123.0``), or None when it is not one."""
    if is_blank(value):
        return None
    number, rule = read_int(value)
    return number if rule is None and number is not None and number > 0 else None


def _override_words() -> set[str]:
    from scoring.preset import OVERRIDE_ALIASES

    return set(OVERRIDE_ALIASES)


# -- stage names -----------------------------------------------------------------------------
def stage_lookup(preset: Preset) -> dict[str, str]:
    """Normalised stage spelling -> stage key (names in both languages, the key, ПФ/SF)."""
    lookup: dict[str, str] = {}
    for s in preset.stages:
        for spelling in (s.key, s.name_ru, s.name_en):
            lookup[L.norm(spelling)] = s.key
    keys = preset.stage_keys
    if "semifinal" in keys:
        for spelling in ("пф", "sf", "полуфинальный", "1/2"):
            lookup.setdefault(spelling, "semifinal")
    if keys:
        for spelling in ("отборочный", "отборочный тур", "отборочные", "qualification", "квалификация"):
            lookup.setdefault(spelling, keys[0])
    return lookup
