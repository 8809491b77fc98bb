"""Every setting a preset file may hold, declared once.

Each :class:`Setting` names its dotted path (``points.win``, ``stages[].coefficient``,
``penalties.late[].first``), its kind, its range or allowed values, its default (or that it
is required), the Russian spellings the Tournament tab accepts for it, and one line saying
what it means.  Everything else is derived from :data:`SETTINGS`:

- the strict loader in :mod:`scoring.preset` reads every plain value through it (unknown
  keys, types, ranges, defaults); only the structured parts (the stage list, lateness
  tiers, Ci groups, nominations) and the checks across fields are code there;
- the Tournament-tab overrides: which keys may be set and the aliases ("победа",
  "полуфинал.игроков"), see :data:`OVERRIDE_ALIASES`;
- the settings table of ``docs/presets.md`` (:func:`settings_table`, spliced between
  markers by :func:`with_settings_table`; the file itself is written by the edges).

To add a setting, add one line to :data:`SETTINGS` and, when it belongs to a dataclass of
:mod:`scoring.preset`, the attribute of the same name there.  A number that only a point
item reads is declared with the item instead (``Item.values`` in :mod:`scoring.items`) and
listed here from :data:`scoring.items.ITEM_VALUES`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from enum import Enum
from typing import Any

from scoring.items import BEST_MOVE_AUTHORS, ITEM_VALUES, NOMINATION_COMPONENTS, Value
from scoring.metrics import METRICS
from scoring.team_metrics import TEAM_METRICS

__all__ = [
    "Kind",
    "Choices",
    "REQUIRED",
    "SameAs",
    "Described",
    "Setting",
    "SETTINGS",
    "setting",
    "children",
    "OVERRIDE_ALIASES",
    "OVERRIDE_PATHS",
    "STAGE_KEY_ALIASES",
    "STAGE_FIELD_ALIASES",
    "STAGE_OVERRIDE_FIELDS",
    "settings_table",
    "with_settings_table",
    "SEASON_RANKINGS",
    "RATING_COLUMNS",
    "TEAM_COUNTS",
]


class Kind(Enum):
    """What a value is; the text is what the documentation calls it."""

    DECIMAL = "decimal"
    INTEGER = "whole number"
    BOOLEAN = "true / false"
    TEXT = "text"
    TEXT_LIST = "list of text"
    STAGE_GROUPS = "list of lists of stage keys"
    TABLE = "table"
    TABLE_LIST = "list of tables"

    @property
    def plain(self) -> bool:
        """A single value read by a typed getter (and, in a section or a stage, settable from
        the Tournament tab); the other kinds are structures the loader walks in code."""
        return self not in (Kind.STAGE_GROUPS, Kind.TABLE, Kind.TABLE_LIST)


@dataclass(frozen=True, slots=True)
class Choices:
    """The values a text (or each text of a list) may take.  ``noun`` and ``listed`` shape
    the error: "unknown role 'x'" or "unknown tiebreak 'x' (known: a, b)"."""

    noun: str
    values: tuple[str, ...]
    listed: bool = True


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()  # the default of a setting a file must hold


@dataclass(frozen=True, slots=True)
class SameAs:
    """A default taken from another setting read before it (``team_defeat`` = ``removal``)."""

    path: str


@dataclass(frozen=True, slots=True)
class Described:
    """A default the loader derives from the rest of the file (``ci.short_stages``: the last
    stage); ``text`` is what the documentation says it is."""

    text: str


@dataclass(frozen=True, slots=True)
class Setting:
    path: str  # dotted; "[]" marks a list of tables: "stages[].games"
    kind: Kind
    doc: str
    default: Any = REQUIRED  # REQUIRED, a value, SameAs(path) or Described(text); tables and lists: REQUIRED or ()
    low: Decimal | int | None = None
    high: Decimal | int | None = None
    choices: Choices | None = None
    # Tournament-tab spellings, already normalised (see normalise_override_key): a whole key
    # for a section value ("победа"), the part after "<stage>." for a stage value ("игроков")
    aliases: tuple[str, ...] = ()

    @property
    def container(self) -> str:
        """Path of the table that holds it: "" for the top level, "stages[]" for a stage."""
        return self.path.rpartition(".")[0]

    @property
    def key(self) -> str:
        """Its key in that table, which is also the name of the attribute it fills (but for
        ``best_move_N``, gathered in ``Preset.best_move``; the point items' values, gathered in
        ``Preset.point_values``; and ``name.ru`` -> ``name_ru``)."""
        return self.path.rpartition(".")[2]

    @property
    def required(self) -> bool:
        return self.default is REQUIRED


_BIG = Decimal(10)  # no single point value of any regulation comes near 10
# the words of the point-item registry, sorted because the error lists them in this order
_NOMINATION_FORMULA = tuple(sorted(NOMINATION_COMPONENTS))
_ROLES = ("don", "sheriff", "mafia", "civilian")
SEASON_RANKINGS = ("total", "average", "rating")  # scoring.season ranks by one of them (rating: needs [rating])
# the season table's rating columns (with a [rating]): the rating as shown, its change on the last evening, the
# red and the black side ratings, the rated games; a preset that lists none of them gets all five after «movement»
RATING_COLUMNS = ("rating", "rating_change", "rating_red", "rating_black", "rated_games")
TEAM_COUNTS = ("sum", "best", "average")  # scoring.teams: how members' points make a team's
# the season table's columns a scheme may show after the place, the name and its main number (the
# total or the average): sheets_sync/render/season_text.py words and fills each
SEASON_COLUMNS = ("movement", "total", "average", "games", "evenings", "wins", "win_rate", "civilian", "sheriff",
                  "mafia", "don", "first_killed", "best_move", "extra", "penalties", "last_evening", "club", "tiebreak",
                  *RATING_COLUMNS)
DEFAULT_SEASON_COLUMNS = ("movement", "total", "average", "games", "evenings", "wins", "win_rate", "civilian",
                          "sheriff", "mafia", "don", "first_killed", "best_move", "extra", "penalties", "last_evening",
                          "tiebreak")


def _item_setting(value: Value) -> Setting:
    """The setting ``points.<key>`` of a number a point item reads (declared with the item)."""
    default = SameAs(f"points.{value.default}") if isinstance(value.default, str) else value.default
    return Setting(f"points.{value.key}", Kind.DECIMAL, value.doc, default=default, low=value.low, high=value.high,
                   aliases=value.aliases)


SETTINGS: tuple[Setting, ...] = (
    Setting("id", Kind.TEXT, "the preset's id: its file name without .toml"),
    Setting("name", Kind.TEXT, "name shown to organizers"),
    Setting("source", Kind.TEXT, "where the values come from", default=""),
    Setting("uncertain", Kind.TEXT_LIST, "values we could not confirm, to check before a real tournament", default=()),
    # -- points for one game
    Setting("points", Kind.TABLE, "points for one game"),
    Setting("points.win", Kind.DECIMAL, "every member of the winning team (the default of both teams)", low=Decimal(0),
            high=_BIG, aliases=("победа",)),
    *(_item_setting(v) for v in ITEM_VALUES),  # the values the point items read (scoring.items)
    Setting("points.extra_min", Kind.DECIMAL, "lowest extra points (ДБ) the judge may give", low=-_BIG, high=_BIG,
            aliases=("доп.мин",)),
    Setting("points.extra_max", Kind.DECIMAL, "highest extra points; ≥ extra_min", low=-_BIG, high=_BIG,
            aliases=("доп.макс",)),
    Setting("points.extra_step", Kind.DECIMAL, "extra points are a multiple of this", low=Decimal("0.001"), high=_BIG,
            aliases=("доп.шаг",)),
    Setting("points.best_move_3", Kind.DECIMAL, "best move naming 3 blacks", low=Decimal(0), high=_BIG,
            aliases=("лх.3",)),
    Setting("points.best_move_2", Kind.DECIMAL, "best move naming 2 blacks", low=Decimal(0), high=_BIG,
            aliases=("лх.2",)),
    Setting("points.best_move_1", Kind.DECIMAL, "best move naming 1 black", default=Decimal(0),
            low=Decimal(0), high=_BIG, aliases=("лх.1",)),
    Setting("points.best_move_by", Kind.TEXT_LIST, "who may leave a best move (a red player's earns points): the "
            "player shot on the first night, also a player voted out on the first day; at least one",
            default=("shot_first",), choices=Choices("best move author", tuple(BEST_MOVE_AUTHORS)), aliases=("лх.кто",)),
    Setting("points.removal", Kind.DECIMAL, "removal from the game (4 fouls, disqualification)",
            low=-_BIG, high=Decimal(0), aliases=("удаление",)),
    Setting("points.team_defeat", Kind.DECIMAL, "removal with team defeat (ППК)", default=SameAs("points.removal"),
            low=-_BIG, high=Decimal(0), aliases=("ппк",)),
    Setting("points.auto_extra", Kind.DECIMAL, "automatic extra points, every player and game unless taken away",
            default=Decimal(0), low=Decimal(0), high=_BIG, aliases=("автобаллы",)),
    # -- Ci, first-night compensation
    Setting("ci", Kind.TABLE, "first-night compensation (Ci)", default=()),
    Setting("ci.enabled", Kind.BOOLEAN, "Ci is counted", default=False, aliases=("ci",)),
    Setting("ci.coefficient", Kind.DECIMAL, "k in Ci = clamp(k·B / round(k′·N), 0, cap); above 0 when enabled",
            default=Decimal("0.4"), low=Decimal(0), high=Decimal(1)),
    Setting("ci.games_coefficient", Kind.DECIMAL, "k′ in the denominator round(k′·N), where it differs from k",
            default=SameAs("ci.coefficient"), low=Decimal("0.01"), high=Decimal(1)),
    Setting("ci.cap", Kind.DECIMAL, "highest Ci of one game", default=Decimal("0.4"), low=Decimal(0), high=Decimal(1)),
    Setting("ci.groups", Kind.STAGE_GROUPS, "stages whose games are counted together; a stage in no group is its own",
            default=()),
    Setting("ci.min_stage_games", Kind.INTEGER, "games of a stage of `ci.short_stages` with fewer games carry no Ci "
            "(still counted in B, N)", default=4, low=0, high=40),
    Setting("ci.short_stages", Kind.TEXT_LIST, "stage keys to which `ci.min_stage_games` applies",
            default=Described("the last stage (the final) when there are two or more; else none")),
    Setting("ci.win_fraction", Kind.DECIMAL, "share of Ci a red player shot first gets in a game his team won",
            default=Decimal(0), low=Decimal(0), high=Decimal(1), aliases=("ci.победа",)),
    Setting("ci.apply_coefficient", Kind.BOOLEAN, "Ci of a game is multiplied by the stage coefficient", default=True),
    # -- stages, in playing order
    Setting("stages", Kind.TABLE_LIST, "the stages in playing order; at least one"),
    Setting("stages[].key", Kind.TEXT, "the stage's key, unique"),
    Setting("stages[].name", Kind.TABLE, "the stage's name, `{ ru = \"…\", en = \"…\" }`"),
    Setting("stages[].name.ru", Kind.TEXT, "Russian name", default=SameAs("stages[].key")),
    Setting("stages[].name.en", Kind.TEXT, "English name", default=SameAs("stages[].key")),
    Setting("stages[].games", Kind.INTEGER, "rounds (games per player when nobody rests)", low=1, high=40,
            aliases=("игр", "игры", "туров", "rounds")),
    Setting("stages[].tables", Kind.INTEGER, "tables a round in the first stage: 0 (⌊players/10⌋), fewer (more rest), "
            "or one more (reserves fill the empty seats); later stages seat players/10", default=0, low=0, high=1000,
            aliases=("столов", "столы")),
    Setting("stages[].players", Kind.INTEGER, "players: 0 (everyone) in the first stage, then fewer, multiples of 10",
            default=0, low=0, high=10000, aliases=("игроков",)),
    Setting("stages[].coefficient", Kind.DECIMAL, "multiplies the points of the stage's games", low=Decimal("0.01"),
            high=_BIG, aliases=("коэффициент",)),
    # -- tournament penalties
    Setting("penalties", Kind.TABLE, "tournament penalties"),
    Setting("penalties.missed_round", Kind.DECIMAL, "a round missed", low=-_BIG, high=Decimal(0), aliases=("пропуск",)),
    Setting("penalties.excused_rounds", Kind.INTEGER, "rounds a player may miss without penalty", low=0, high=40,
            aliases=("пропуск.без.штрафа",)),
    Setting("penalties.late_stages", Kind.TEXT_LIST, "stage keys in which lateness is penalised", default=()),
    Setting("penalties.late", Kind.TABLE_LIST, "lateness tiers, each first = previous last + 1", default=()),
    Setting("penalties.late[].first", Kind.INTEGER, "minutes late, from (inclusive)", low=0, high=10000),
    Setting("penalties.late[].last", Kind.INTEGER, "minutes late, to (inclusive); none: no upper bound", default=None,
            low=0, high=10000),
    Setting("penalties.late[].points", Kind.DECIMAL, "penalty of the tier", low=-_BIG, high=Decimal(0)),
    # -- awards and ranking
    Setting("awards", Kind.TABLE, "who may receive awards"),
    Setting("awards.max_missed_rounds", Kind.INTEGER, "more missed rounds than this: no awards", low=0, high=100),
    Setting("awards.disqualified_eligible", Kind.BOOLEAN, "a disqualified player may receive awards", default=False),
    Setting("ranking", Kind.TABLE, "ranking"),
    Setting("ranking.tiebreaks", Kind.TEXT_LIST, "metric keys breaking equal totals, in order, each once", default=(),
            choices=Choices("tiebreak", tuple(METRICS)), aliases=("тайбрейки",)),
    Setting("ranking.finalists_first", Kind.BOOLEAN, "the overall table lists the last stage's players first",
            default=True),
    Setting("publish", Kind.TABLE, "public outputs", default=()),
    Setting("publish.hidden_final", Kind.BOOLEAN, "the final stays out of public outputs until released",
            default=False, aliases=("скрытый.финал",)),
    Setting("publish.confirmation", Kind.BOOLEAN,
            "a protocol counts in public outputs only when «Проверил» names a second judge (not «Судья»)",
            default=False, aliases=("подтверждениепротоколов", "protocolconfirmation")),
    Setting("publish.log_rows", Kind.INTEGER, "changes kept on the Log tab (the newest; log.jsonl keeps all)",
            default=500, low=10, high=100000, aliases=("журнал.строк",)),
    # -- registration (issue 45): who takes part, and until when a player may announce his excused round
    Setting("registration", Kind.TABLE, "registration before the tournament (the Players tab's «Заявка»)", default=()),
    Setting("registration.excuse_notice_hours", Kind.INTEGER, "a player may announce his excused round («Пропуск») "
            "until this many hours before the start (the Tournament tab's «Начало»); later it is a warning",
            default=24, low=0, high=1000, aliases=("пропуск.заранее", "регистрация.часовдопропуска")),
    Setting("registration.payment_required", Kind.BOOLEAN, "only a paid application («оплачена») takes part: "
            "a confirmed one holds its place but is not drawn until it is paid (a row with an empty «Заявка» "
            "always takes part)", default=False, aliases=("регистрация.оплата", "оплатаобязательна")),
    # -- a club season (the Tournament tab's «Формат: сезон»)
    Setting("season", Kind.TABLE, "a club season's ratings (read when the Tournament tab says «Формат: сезон»)",
            default=()),
    Setting("season.ranking", Kind.TEXT, "the season's main ranking: the total of every game's points, the "
            "average per game (the other one is shown beside it), or the player rating of `[rating]` (equal ratings "
            "share a place; the minimum of games is the larger of `season.min_games` and the scheme's)", default="total",
            choices=Choices("season ranking", SEASON_RANKINGS), aliases=("сезон.рейтинг", "рейтинг.по")),
    Setting("season.min_games", Kind.INTEGER, "games a player needs to be ranked in the season; below it he is "
            "placed provisionally after the ranked (by the same key, the place in parentheses) with the games "
            "still needed", default=0, low=0, high=10000,
            aliases=("сезон.минимум", "минимум.игр")),
    Setting("season.columns", Kind.TEXT_LIST, "the season table's columns after the place, the name and the main "
            "number (the ranking's total or average), in order: movement since the last evening (↑2 / ↓1 / new), "
            "total, average, games, evenings attended, wins, win rate, per role (civilian, sheriff, mafia, don: "
            "wins / games), first killed, best move points, extra points, penalties, the last evening played, "
            "club, why above the next; the Итоги tab and the site show them (the VK post: place, name, games, "
            "main number)", default=DEFAULT_SEASON_COLUMNS, choices=Choices("season column", SEASON_COLUMNS),
            aliases=("сезон.столбцы",)),
    # -- a player rating (issue 36 §1): the scheme is a file of config/ratings/ or beside the preset
    Setting("rating", Kind.TABLE, "a player rating shown beside the standings: in a season a column of the table (and "
            "maybe its ranking key), in a tournament each player's rating before and after it; absent: no rating",
            default=()),
    Setting("rating.scheme", Kind.TEXT, "the rating scheme: the id of a shipped one (`mafiaratings-2025`, `andrsj-mmr`) "
            "or a .toml path relative to the preset's folder (a club's own formula)", default="mafiaratings-2025",
            aliases=("рейтинг.схема",)),
    Setting("rating.kind", Kind.TEXT, "the kind of every game of the workbook, one the scheme declares (K by kind: "
            "`club`, `tournament`, `elite` in mafiaratings-2025; a stepped scheme takes any)", default="club",
            aliases=("рейтинг.вид",)),
    # -- teams (the Players tab's «Команда»)
    Setting("teams", Kind.TABLE, "team standings and the draw's teams (read when the Players tab has «Команда»)",
            default=()),
    Setting("teams.count", Kind.TEXT, "a team's points: the sum of every member's points, the sum of the best "
            "`teams.best` members', or the members' average (members with a counted game; shown to the "
            "hundredth, ranked exactly)", default="sum", choices=Choices("team count", TEAM_COUNTS),
            aliases=("команды.зачет", "командныйзачет")),
    Setting("teams.best", Kind.INTEGER, "with `count = \"best\"`: how many members' points count", default=0,
            low=0, high=100, aliases=("команды.лучших",)),
    Setting("teams.tiebreaks", Kind.TEXT_LIST, "team metric keys breaking equal team points, in order, each once "
            "(read over the counted members)", default=("best_member", "wins"),
            choices=Choices("team tiebreak", tuple(TEAM_METRICS))),
    Setting("teams.apart", Kind.BOOLEAN, "the draw keeps teammates apart as it keeps club mates apart (instead of "
            "clubs, when the Players tab has teams)", default=True, aliases=("команды.разводить",)),
    Setting("teams.one_per_game", Kind.BOOLEAN, "the team-championship format: every game seats at most one member "
            "of each team (a hard rule; init and draw refuse a field where it cannot hold)", default=False,
            aliases=("команды.одинзастолом", "одинигроккомандызастолом")),
    # -- nominations
    Setting("nominations", Kind.TABLE_LIST, "role nominations", default=()),
    Setting("nominations[].key", Kind.TEXT, "the nomination's key, unique"),
    Setting("nominations[].role", Kind.TEXT, "role of the games counted; none: any role (MVP)", default=None,
            choices=Choices("role", _ROLES, listed=False)),
    Setting("nominations[].min_games", Kind.INTEGER, "games in that role needed to take part", default=1, low=0,
            high=100),
    Setting("nominations[].formula", Kind.TEXT_LIST, "components summed over those games",
            default=("extra", "best_move", "penalties"), choices=Choices("component", _NOMINATION_FORMULA)),
    Setting("nominations[].name", Kind.TABLE, "the nomination's name, `{ ru = \"…\", en = \"…\" }`", default=()),
    Setting("nominations[].name.ru", Kind.TEXT, "Russian name", default=""),
    Setting("nominations[].name.en", Kind.TEXT, "English name", default=""),
)

_BY_PATH = {s.path: s for s in SETTINGS}


def setting(path: str) -> Setting:
    return _BY_PATH[path]


def children(container: str) -> Iterator[Setting]:
    """The settings of one table, in declaration order ("" is the top level)."""
    return (s for s in SETTINGS if s.container == container)


# -- Tournament-tab overrides -------------------------------------------------------------------
# Any plain value of a section table (points.win, ci.cap, …) and any plain value of a stage
# but its key may be set; a stage is named by its key or by one of these Russian words.
_SECTIONS = tuple(s.key for s in children("") if s.kind is Kind.TABLE)
OVERRIDE_PATHS: frozenset[str] = frozenset(
    s.path for section in _SECTIONS for s in children(section) if s.kind.plain)
OVERRIDE_ALIASES: dict[str, str] = {
    alias: s.path for s in SETTINGS if s.path in OVERRIDE_PATHS for alias in s.aliases}
STAGE_OVERRIDE_FIELDS: frozenset[str] = frozenset(s.key for s in children("stages[]") if s.kind.plain and s.key != "key")
STAGE_FIELD_ALIASES: dict[str, str] = {
    alias: s.key for s in children("stages[]") if s.key in STAGE_OVERRIDE_FIELDS for alias in s.aliases}
STAGE_KEY_ALIASES = {"отбор": "qualifying", "полуфинал": "semifinal", "финал": "final"}


# -- documentation ------------------------------------------------------------------------------
SETTINGS_BEGIN = "<!-- settings:begin (generated from scoring/preset_settings.py: python -m sheets_sync.presets) -->"
SETTINGS_END = "<!-- settings:end -->"


def _literal(value: object) -> str:
    """A default as TOML spells it."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, tuple):
        return "[" + ", ".join(f'"{v}"' for v in value) + "]"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def _allowed(s: Setting) -> str:
    if s.choices is not None:
        return ", ".join(f"`{v}`" for v in s.choices.values)
    if s.low is not None and s.high is not None:
        return f"{s.low} … {s.high}"
    return ""


def _default(s: Setting) -> str:
    if s.required:
        return "required"
    if isinstance(s.default, SameAs):
        return f"= `{s.default.path}`"
    if isinstance(s.default, Described):
        return s.default.text
    if s.kind in (Kind.TABLE, Kind.TABLE_LIST):
        return "optional"
    if s.default is None:
        return "none"
    return f"`{_literal(s.default)}`"


def _tournament_tab(s: Setting) -> str:
    if s.path in OVERRIDE_PATHS:
        return ", ".join(f"`{w}`" for w in (*s.aliases, s.path))
    if s.container == "stages[]" and s.key in STAGE_OVERRIDE_FIELDS:
        return ", ".join(f"`<stage>.{w}`" for w in (*s.aliases, s.key))
    return ""


def settings_table() -> str:
    """The Markdown table of every setting, as ``docs/presets.md`` shows it."""
    stage_words = ", ".join(f"`{ru}` (`{key}`)" for ru, key in STAGE_KEY_ALIASES.items())
    rows = [f"`<stage>` is one of {stage_words}; any stage is also reached as `stages.<key>.<setting>`.", "",
            "| setting | kind | allowed | default | Tournament tab | meaning |", "|---|---|---|---|---|---|"]
    for s in SETTINGS:
        rows.append(f"| `{s.path}` | {s.kind.value} | {_allowed(s)} | {_default(s)} | {_tournament_tab(s)} | {s.doc} |")
    return "\n".join(rows)


def with_settings_table(document: str) -> str:
    """``document`` with the text between the settings markers replaced by :func:`settings_table`."""
    head, found_begin, rest = document.partition(SETTINGS_BEGIN)
    _, found_end, tail = rest.partition(SETTINGS_END)
    if not found_begin or not found_end:
        raise ValueError(f"the document has no {SETTINGS_BEGIN!r} … {SETTINGS_END!r} markers")
    return f"{head}{SETTINGS_BEGIN}\n{settings_table()}\n{SETTINGS_END}{tail}"
