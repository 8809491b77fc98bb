"""Regulation presets: every number of a scoring scheme, loaded from data and checked.

A preset is a TOML file in ``config/`` (read by the edges, parsed with
``parse_float=Decimal``) turned into a frozen :class:`Preset` by :meth:`Preset.from_dict`.
What each key may hold (kind, range, default, Tournament-tab spellings) is declared once in
:mod:`scoring.preset_settings`; this module reads values through that declaration, walks
the structured parts (stages, lateness tiers, Ci groups, nominations) and checks what
spans fields.  Loading collects every problem of the file at once and names the file and key
(``gmo-2016.toml: points.extra_max: must be ≥ points.extra_min``).  The Tournament tab
may override single values; :func:`apply_overrides` edits the raw dict before the strict
load, so an override is checked exactly like a value of the file.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from scoring.errors import SheetsSyncError
from scoring.items import ITEM_VALUES
from scoring.numbers import CI_QUANTUM
from scoring.rating.scheme import RatingScheme
from scoring.preset_settings import (
    OVERRIDE_ALIASES,
    OVERRIDE_PATHS,
    REQUIRED,
    STAGE_FIELD_ALIASES,
    STAGE_KEY_ALIASES,
    STAGE_OVERRIDE_FIELDS,
    Choices,
    Described,
    Kind,
    SameAs,
    Setting,
    children,
    setting,
)

__all__ = [
    "PresetError",
    "StageRule",
    "LatenessTier",
    "CiRule",
    "NominationRule",
    "SeasonRule",
    "TeamRule",
    "RatingRule",
    "RegistrationRule",
    "Preset",
    "apply_overrides",
    "OVERRIDE_ALIASES",
]


class PresetError(SheetsSyncError, ValueError):
    """A preset file (or an override) is invalid; ``errors`` lists every problem found."""

    def __init__(self, source: str, errors: Sequence[str]):
        self.source = source
        self.errors = tuple(errors)
        super().__init__("\n".join(f"{source}: {e}" for e in self.errors))


# The dataclasses below hold what the loader read; their attributes are named like the keys
# of scoring.preset_settings, where ranges, defaults and meanings are declared.  Build them
# with Preset.from_dict, which fills every attribute.

@dataclass(frozen=True, kw_only=True, slots=True)
class StageRule:
    key: str
    name_ru: str
    name_en: str
    games: int  # rounds in the stage (games per player when nobody rests)
    players: int  # 0 = every registered player
    coefficient: Decimal
    tables: int = 0  # tables a round (first stage); 0 = as many as the players fill

    def name(self, language: str) -> str:
        return self.name_en if language == "en" else self.name_ru


@dataclass(frozen=True, kw_only=True, slots=True)
class LatenessTier:
    first: int  # minutes late, inclusive: the tier covers first ≤ m ≤ last
    last: int | None  # None = no upper bound
    points: Decimal


@dataclass(frozen=True, kw_only=True, slots=True)
class CiRule:
    """Compensation for red players shot on the first night (later FIIM editions)."""

    enabled: bool
    coefficient: Decimal  # k, in the numerator: k·B
    games_coefficient: Decimal  # k′, in the denominator: round(k′·N); = k unless the preset says otherwise
    cap: Decimal
    # stage groups in which B and N are counted; a stage in no group is a group of its own
    groups: tuple[tuple[str, ...], ...]
    min_stage_games: int  # games of a short stage with fewer games (rounds) carry no Ci
    short_stages: tuple[str, ...]  # the stages min_stage_games applies to (the final)
    apply_coefficient: bool  # Ci of a game is multiplied by the stage coefficient
    win_fraction: Decimal  # share of Ci in a game the player's team won (FIIM: 0)

    def group_of(self, stage: str) -> tuple[str, ...]:
        for group in self.groups:
            if stage in group:
                return group
        return (stage,)


@dataclass(frozen=True, kw_only=True, slots=True)
class SeasonRule:
    """A club season's ratings (:mod:`scoring.season`)."""

    ranking: str  # "total", "average" or "rating" (scoring.preset_settings.SEASON_RANKINGS)
    min_games: int  # games needed to be ranked; fewer: placed provisionally after the ranked
    # the season table's columns after place, name and the main number (scoring.preset_settings.SEASON_COLUMNS)
    columns: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True, slots=True)
class TeamRule:
    """Team standings and the draw's teams (:mod:`scoring.teams`); used when players have a team."""

    count: str = "sum"  # "sum", "best" or "average" (scoring.preset_settings.TEAM_COUNTS)
    best: int = 0  # with count "best": the members counted
    tiebreaks: tuple[str, ...] = ("best_member", "wins")  # scoring.team_metrics keys
    apart: bool = True  # the draw separates teammates
    one_per_game: bool = False  # at most one member of a team per game (a hard rule)


@dataclass(frozen=True, kw_only=True, slots=True)
class RegistrationRule:
    """Registration before the tournament (issue 45; :mod:`scoring.registration`)."""

    excuse_notice_hours: int = 24  # the excused round is announced at least this long before the start
    payment_required: bool = False  # only «оплачена» takes part (a confirmed row holds its place, unpaid)


@dataclass(frozen=True, kw_only=True, slots=True)
class RatingRule:
    """A player rating beside the standings (``[rating]``; :mod:`scoring.rating.club`).  The
    scheme is a file, so the edges that load the preset resolve ``scheme`` into ``resolved``
    (:func:`sheets_sync.presets.load_preset`); the pure core never opens it."""

    scheme: str  # a shipped scheme's id or a .toml path relative to the preset's folder
    kind: str  # the kind of every game of the workbook ("club", "tournament", "elite")
    resolved: RatingScheme | None = field(default=None, compare=False)


@dataclass(frozen=True, kw_only=True, slots=True)
class NominationRule:
    key: str  # "don", "sheriff", "mafia", "civilian", "mvp"
    role: str | None  # None = any role (MVP)
    min_games: int  # games in that role (any role for MVP)
    formula: tuple[str, ...]  # components summed over those games
    name_ru: str = ""
    name_en: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class Preset:
    id: str
    name: str
    source: str
    uncertain: tuple[str, ...]
    # points for one game
    win: Decimal
    point_values: Mapping[str, Decimal]  # the point items' values (scoring.items.Value): win_red, role_loss_don…
    extra_min: Decimal
    extra_max: Decimal
    extra_step: Decimal
    best_move: Mapping[int, Decimal]  # blacks named (0..3) -> points
    best_move_by: tuple[str, ...]  # who may leave a best move (scoring.items.BEST_MOVE_AUTHORS)
    removal: Decimal
    team_defeat: Decimal
    auto_extra: Decimal
    ci: CiRule
    # stages
    stages: tuple[StageRule, ...]
    # tournament penalties
    missed_round: Decimal
    excused_rounds: int
    late_tiers: tuple[LatenessTier, ...]
    late_stages: tuple[str, ...]
    # awards and ranking
    max_missed_rounds: int  # more missed rounds than this: not eligible for awards
    disqualified_eligible: bool
    tiebreaks: tuple[str, ...]
    finalists_first: bool
    hidden_final: bool
    confirmation: bool
    log_rows: int
    nominations: tuple[NominationRule, ...]
    season: SeasonRule
    teams: TeamRule = TeamRule()
    rating: RatingRule | None = None  # no [rating]: no rating anywhere, every output as without it
    registration: RegistrationRule = RegistrationRule()

    # -- lookups ---------------------------------------------------------------------------
    def stage(self, key: str) -> StageRule:
        for s in self.stages:
            if s.key == key:
                return s
        raise KeyError(key)

    @property
    def stage_keys(self) -> tuple[str, ...]:
        return tuple(s.key for s in self.stages)

    def best_move_points(self, blacks_named: int) -> Decimal:
        return self.best_move.get(blacks_named, Decimal(0))

    def points_places(self, stage: str | None = None) -> int:
        """The decimals a column of points needs (issue 43 §8: 13.475 beside 3.38): those of the finest
        value a game of ``stage`` adds — each point value of the preset times the stage's coefficient
        (a semifinal's 0.25 × 1.5 is 0.375) —, for the total (None) those of every stage and of the
        tournament's penalties; three where Ci is counted (shown to 0.001), at least two."""
        rules = self.stages if stage is None else (self.stage(stage),)
        game = (self.win, *self.point_values.values(), self.extra_min, self.extra_max, self.extra_step,
                *self.best_move.values(), self.removal, self.team_defeat, self.auto_extra)
        values = [v * rule.coefficient for rule in rules for v in game]
        if stage is None:
            values += [self.missed_round, *(t.points for t in self.late_tiers)]
        places = max((-Decimal(v).normalize().as_tuple().exponent for v in values if v), default=0)
        return max(2, places, -CI_QUANTUM.as_tuple().exponent if self.ci.enabled else 0)

    def point(self, key: str) -> Decimal:
        """A value a point item reads: ``points.<key>`` (declared with the item in scoring.items)."""
        return self.point_values[key]

    def lateness_points(self, minutes: int) -> Decimal | None:
        """Penalty points (≤ 0) for being ``minutes`` late, None when no tier applies."""
        for tier in self.late_tiers:
            if minutes >= tier.first and (tier.last is None or minutes <= tier.last):
                return tier.points
        return None

    # -- loading ----------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, source: str = "preset") -> "Preset":
        r = _Reader()
        preset = _build(r, data)
        if r.errors:
            raise PresetError(source, r.errors)
        assert preset is not None
        return preset


# ---------------------------------------------------------------------------------------------
# Strict reader: every getter records an error and returns a placeholder instead of raising,
# so one load reports every problem of the file.  What a key may hold comes from
# scoring.preset_settings; the functions below walk the structure and check across fields.

class _Reader:
    def __init__(self) -> None:
        self.errors: list[str] = []

    def err(self, path: str, message: str) -> None:
        self.errors.append(f"{path}: {message}")

    def unknown(self, table: Mapping[str, Any], container: str, prefix: str) -> None:
        allowed = {s.key for s in children(container)}
        for key in table:
            if key not in allowed:
                self.err(f"{prefix}{key}", "unknown key")

    # structure ------------------------------------------------------------------------------
    def table(self, parent: Mapping[str, Any], path: str, where: str) -> Mapping[str, Any]:
        """The table declared at ``path``, found at ``where`` in the file ({} when absent)."""
        value = parent.get(setting(path).key)
        if value is None:
            if setting(path).required:
                self.err(where, "missing")
            return {}
        if not isinstance(value, Mapping):
            self.err(where, "must be a table")
            return {}
        return value

    def section(self, data: Mapping[str, Any], name: str) -> tuple[Mapping[str, Any], dict[str, Any]]:
        """A top-level table and its plain values, by key."""
        table = self.table(data, name, name)
        self.unknown(table, name, f"{name}.")
        return table, self.values(table, name, f"{name}.")

    def items(self, parent: Mapping[str, Any], path: str, not_a_list: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
        """(where, table) for each table of the list declared at ``path``; a required list
        needs at least one."""
        declared = setting(path)
        raw = parent.get(declared.key, None if declared.required else [])
        if not isinstance(raw, (list, tuple)) or (declared.required and not raw):
            self.err(path, not_a_list)
            raw = []
        for i, item in enumerate(raw):
            where = f"{path}[{i}]"
            if not isinstance(item, Mapping):
                self.err(where, "must be a table")
                continue
            self.unknown(item, f"{path}[]", f"{where}.")
            yield where, item

    def values(self, table: Mapping[str, Any], container: str, prefix: str,
               read_before: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Every plain value declared in ``container``, read from ``table`` in declaration
        order; ``read_before`` (path -> value) serves defaults taken from other settings."""
        read = dict(read_before or {})
        result: dict[str, Any] = {}
        for s in children(container):
            if s.kind.plain:
                value = self.value(table, s, f"{prefix}{s.key}", read)
                read[s.path] = result[s.key] = value
        return result

    # typed getters --------------------------------------------------------------------------
    _GETTERS = {Kind.DECIMAL: "decimal", Kind.INTEGER: "integer", Kind.BOOLEAN: "boolean", Kind.TEXT: "string",
                Kind.TEXT_LIST: "strings"}

    def value(self, table: Mapping[str, Any], s: Setting, path: str, read: Mapping[str, Any]) -> Any:
        default = read[s.default.path] if isinstance(s.default, SameAs) else s.default
        return getattr(self, self._GETTERS[s.kind])(table, s, path, default)

    def missing(self, path: str, default: Any, placeholder: Any) -> Any:
        if default is REQUIRED:
            self.err(path, "missing")
            return placeholder
        return default

    def decimal(self, table: Mapping[str, Any], s: Setting, path: str, default: Any) -> Decimal:
        value = table.get(s.key)
        if value is None:
            return self.missing(path, default, Decimal(0))
        if isinstance(value, bool):
            self.err(path, f"must be a number, not {value!r}")
            return Decimal(0)
        try:
            number = value if isinstance(value, Decimal) else Decimal(str(value).replace(",", "."))
        except InvalidOperation:
            self.err(path, f"must be a number, not {value!r}")
            return Decimal(0)
        if not number.is_finite():
            self.err(path, f"must be a finite number, not {value!r}")
            return Decimal(0)
        self.check_range(path, number, s)
        return number

    def integer(self, table: Mapping[str, Any], s: Setting, path: str, default: Any) -> int:
        value = table.get(s.key)
        if value is None:
            return self.missing(path, default, 0)
        if isinstance(value, bool) or not isinstance(value, (int, Decimal, str)):
            self.err(path, f"must be a whole number, not {value!r}")
            return 0
        try:
            number = Decimal(str(value))
        except InvalidOperation:
            self.err(path, f"must be a whole number, not {value!r}")
            return 0
        if number != number.to_integral_value():
            self.err(path, f"must be a whole number, not {value!r}")
            return 0
        result = int(number)
        self.check_range(path, result, s)
        return result

    def check_range(self, path: str, number: Decimal | int, s: Setting) -> None:
        if s.low is not None and number < s.low:
            self.err(path, f"{number} is below the minimum {s.low}")
        if s.high is not None and number > s.high:
            self.err(path, f"{number} is above the maximum {s.high}")

    def boolean(self, table: Mapping[str, Any], s: Setting, path: str, default: Any) -> bool:
        if s.key not in table:
            return self.missing(path, default, False)
        value = table[s.key]  # present but None (an empty override cell) is an error, not the default
        if isinstance(value, str) and value.strip().lower() in {"true", "yes", "да", "1"}:
            return True
        if isinstance(value, str) and value.strip().lower() in {"false", "no", "нет", "0"}:
            return False
        if not isinstance(value, bool):
            self.err(path, f"must be true or false, not {value!r}")
            return False if default is REQUIRED else default
        return value

    def string(self, table: Mapping[str, Any], s: Setting, path: str, default: Any) -> str:
        value = table.get(s.key)
        if value is None:
            return self.missing(path, default, "")
        if s.choices is not None and not self.known(path, value, s.choices):
            return value
        if not isinstance(value, str):
            self.err(path, f"must be text, not {value!r}")
            return ""
        return value

    def strings(self, table: Mapping[str, Any], s: Setting, path: str, default: Any) -> tuple[str, ...]:
        value = table.get(s.key)
        if value is None:
            return self.missing(path, default, ())
        if isinstance(value, str):  # an override typed into a cell: "a, b, c"
            value = [v.strip() for v in value.replace(";", ",").split(",") if v.strip()]
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            self.err(path, "must be a list of text values")
            return () if default is REQUIRED else tuple(default)
        if s.choices is not None:
            for v in value:
                self.known(path, v, s.choices)
        return tuple(value)

    def known(self, path: str, value: Any, choices: Choices) -> bool:
        if isinstance(value, str) and value in choices.values:
            return True
        known = f" (known: {', '.join(choices.values)})" if choices.listed else ""
        self.err(path, f"unknown {choices.noun} {value!r}{known}")
        return False


def _repeated(keys: Sequence[str]) -> list[str]:
    return sorted({k for k in keys if keys.count(k) > 1})


# the whole preset ---------------------------------------------------------------------------
def _build(r: _Reader, data: Mapping[str, Any]) -> Preset | None:
    if not isinstance(data, Mapping):
        r.err("(file)", "must be a table")
        return None
    r.unknown(data, "", "")
    header = r.values(data, "", "")
    points = _points(r, data)
    stages = _stages(r, data)
    stage_keys = tuple(s.key for s in stages)
    ci = _ci(r, data, stage_keys)
    penalties = _penalties(r, data, stage_keys)
    _, awards = r.section(data, "awards")
    ranking = _ranking(r, data)
    _, publish = r.section(data, "publish")
    nominations = _nominations(r, data)
    _, season = r.section(data, "season")
    _, registration = r.section(data, "registration")
    rating = _rating(r, data)
    if season["ranking"] == "rating" and rating is None:
        r.err("season.ranking", "\"rating\" ranks by the player rating: add a [rating] table naming its scheme")
    return Preset(**header, **points, ci=ci, stages=stages, **penalties, **awards, **ranking, **publish,
                  nominations=nominations, season=SeasonRule(**season), teams=_teams(r, data), rating=rating,
                  registration=RegistrationRule(**registration))


def _rating(r: _Reader, data: Mapping[str, Any]) -> RatingRule | None:
    """The ``[rating]`` table, or None without one (the scheme file is checked by the edges)."""
    if "rating" not in data:
        return None
    _, rating = r.section(data, "rating")
    if not rating["scheme"].strip():
        r.err("rating.scheme", "names no scheme (a shipped id such as mafiaratings-2025, or a .toml path)")
    return RatingRule(**rating)


def _teams(r: _Reader, data: Mapping[str, Any]) -> TeamRule:
    _, teams = r.section(data, "teams")
    for key in _repeated(teams["tiebreaks"]):
        r.err("teams.tiebreaks", f"team tiebreak {key!r} is listed twice")
    if teams["count"] == "best" and teams["best"] < 1:
        r.err("teams.best", "count = \"best\" needs best = k, the members counted (1 or more)")
    if teams["count"] != "best" and teams["best"]:
        r.err("teams.best", f"best = {teams['best']} is only read with count = \"best\"")
    return TeamRule(**teams)


def _points(r: _Reader, data: Mapping[str, Any]) -> dict[str, Any]:
    _, points = r.section(data, "points")
    if points["extra_max"] < points["extra_min"]:
        r.err("points.extra_max", f"{points['extra_max']} must be ≥ points.extra_min ({points['extra_min']})")
    if not points["best_move_by"]:
        r.err("points.best_move_by", "must name at least one (set the best move points to 0 to score none)")
    best_move = {n: points.pop(f"best_move_{n}") for n in (3, 2, 1)}
    point_values = {v.key: points.pop(v.key) for v in ITEM_VALUES}
    return points | {"best_move": best_move | {0: Decimal(0)}, "point_values": point_values}


def _stages(r: _Reader, data: Mapping[str, Any]) -> tuple[StageRule, ...]:
    stages: list[StageRule] = []
    for where, raw in r.items(data, "stages", "must be a non-empty list of stages"):
        fields = r.values(raw, "stages[]", f"{where}.")
        names = r.values(r.table(raw, "stages[].name", f"{where}.name"), "stages[].name", f"{where}.name.",
                         read_before={"stages[].key": fields["key"]})
        stages.append(StageRule(**fields, name_ru=names["ru"], name_en=names["en"]))
    for key in _repeated([s.key for s in stages]):
        r.err("stages", f"stage key {key!r} is used twice")
    for i, s in enumerate(stages):
        if i > 0 and s.players % 10:
            r.err(f"stages[{i}].players", f"{s.players} is not a multiple of 10 (tables of ten)")
        if i > 0 and s.players == 0:
            r.err(f"stages[{i}].players", "a later stage needs a number of players")
        if i > 0 and s.tables not in (0, s.players // 10):
            r.err(f"stages[{i}].tables", f"a later stage seats its players at {s.players // 10} tables: use 0")
        if i > 1 and stages[i - 1].players and s.players > stages[i - 1].players:
            r.err(f"stages[{i}].players", f"{s.players} is more than the previous stage's {stages[i - 1].players}")
    if stages and stages[0].players != 0:
        r.err("stages[0].players", "the first stage is played by everyone: use 0")
    return tuple(stages)


def _ci(r: _Reader, data: Mapping[str, Any], stage_keys: Sequence[str]) -> CiRule:
    table, fields = r.section(data, "ci")
    if isinstance(fields["short_stages"], Described):  # not in the file: the final, when there is one
        fields["short_stages"] = tuple(stage_keys[-1:]) if len(stage_keys) > 1 else ()
    for k in fields["short_stages"]:
        if k not in stage_keys:
            r.err("ci.short_stages", f"unknown stage {k!r}")
    rule = CiRule(**fields, groups=_stage_groups(r, table.get("groups", []), stage_keys))
    if rule.coefficient == 0 and rule.enabled:
        r.err("ci.coefficient", "must be above 0 when ci.enabled is true")
    return rule


def _stage_groups(r: _Reader, raw: Any, stage_keys: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    groups: list[tuple[str, ...]] = []
    if not isinstance(raw, (list, tuple)):
        r.err("ci.groups", "must be a list of lists of stage keys")
        raw = []
    for gi, group in enumerate(raw):
        if not isinstance(group, (list, tuple)) or not all(isinstance(k, str) for k in group):
            r.err(f"ci.groups[{gi}]", "must be a list of stage keys")
            continue
        for k in group:
            if k not in stage_keys:
                r.err(f"ci.groups[{gi}]", f"unknown stage {k!r}")
        groups.append(tuple(group))
    for k in _repeated([k for g in groups for k in g]):
        r.err("ci.groups", f"stage {k!r} is in more than one group")
    return tuple(groups)


def _penalties(r: _Reader, data: Mapping[str, Any], stage_keys: Sequence[str]) -> dict[str, Any]:
    table, penalties = r.section(data, "penalties")
    for k in penalties["late_stages"]:
        if k not in stage_keys:
            r.err("penalties.late_stages", f"unknown stage {k!r}")
    tiers = tuple(LatenessTier(**r.values(raw, "penalties.late[]", f"{where}."))
                  for where, raw in r.items(table, "penalties.late", "must be a list of tiers"))
    for i in range(1, len(tiers)):
        prev = tiers[i - 1]
        if prev.last is None or tiers[i].first != prev.last + 1:
            r.err(f"penalties.late[{i}].first", "tiers must follow each other without gaps or overlaps (first = previous last + 1)")
    return penalties | {"late_tiers": tiers}


def _ranking(r: _Reader, data: Mapping[str, Any]) -> dict[str, Any]:
    _, ranking = r.section(data, "ranking")
    for key in _repeated(ranking["tiebreaks"]):
        r.err("ranking.tiebreaks", f"tiebreak {key!r} is listed twice")
    return ranking


def _nominations(r: _Reader, data: Mapping[str, Any]) -> tuple[NominationRule, ...]:
    nominations: list[NominationRule] = []
    for where, raw in r.items(data, "nominations", "must be a list"):
        fields = r.values(raw, "nominations[]", f"{where}.")
        names = r.values(r.table(raw, "nominations[].name", f"{where}.name"), "nominations[].name", f"{where}.name.")
        nominations.append(NominationRule(**fields, name_ru=names["ru"], name_en=names["en"]))
    for k in _repeated([n.key for n in nominations]):
        r.err("nominations", f"nomination key {k!r} is used twice")
    return tuple(nominations)


# ---------------------------------------------------------------------------------------------
# Overrides typed on the Tournament tab: "полуфинал.игроков = 20", "points.win = 1".

def normalise_override_key(key: str) -> str:
    k = "".join(key.split()).lower().replace("ё", "е")
    if k in OVERRIDE_ALIASES:
        return OVERRIDE_ALIASES[k]
    parts = k.split(".")
    if len(parts) == 2 and (parts[0] in STAGE_KEY_ALIASES or parts[0] in STAGE_KEY_ALIASES.values()):
        stage = STAGE_KEY_ALIASES.get(parts[0], parts[0])
        field = STAGE_FIELD_ALIASES.get(parts[1], parts[1])
        return f"stages.{stage}.{field}"
    return k


def apply_overrides(data: Mapping[str, Any], overrides: Sequence[tuple[str, Any]]) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """Return a copy of ``data`` with ``overrides`` applied, plus (key, reason) for each
    override that names no known setting.  Values are checked later by the strict load."""
    result = copy.deepcopy(dict(data))
    rejected: list[tuple[str, str]] = []
    for raw_key, value in overrides:
        path = normalise_override_key(raw_key).split(".")
        if path[0] == "stages" and len(path) == 3:
            stage = next((s for s in result.get("stages", []) if s.get("key") == path[1]), None)
            if stage is None or path[2] not in STAGE_OVERRIDE_FIELDS:
                rejected.append((raw_key, "unknown stage setting"))
                continue
            stage[path[2]] = value
            continue
        if len(path) != 2 or ".".join(path) not in OVERRIDE_PATHS:
            rejected.append((raw_key, "unknown setting"))
            continue
        result.setdefault(path[0], {})[path[1]] = value
    return result, rejected
