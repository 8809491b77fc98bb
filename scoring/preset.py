"""Regulation presets: every number of a scoring scheme, loaded from data and checked.

A preset is a TOML file in ``config/`` (read by the edges, parsed with
``parse_float=Decimal``) turned into a frozen :class:`Preset` by :meth:`Preset.from_dict`.
Loading collects every problem of the file at once and names the file and key
(``gmo-2016.toml: points.extra_max: must be ≥ points.extra_min``).  The Tournament tab
may override single values; :func:`apply_overrides` edits the raw dict before the strict
load, so an override is checked exactly like a value of the file.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from scoring.errors import SheetsSyncError
from scoring.metrics import METRICS

__all__ = [
    "PresetError",
    "StageRule",
    "LatenessTier",
    "CiRule",
    "NominationRule",
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


@dataclass(frozen=True, kw_only=True, slots=True)
class StageRule:
    key: str
    name_ru: str
    name_en: str
    games: int  # rounds (games per player) in the stage
    players: int  # 0 = every registered player
    coefficient: Decimal

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

    enabled: bool = False
    coefficient: Decimal = Decimal("0.4")
    cap: Decimal = Decimal("0.4")
    # stage groups in which B and N are counted; a stage in no group is a group of its own
    groups: tuple[tuple[str, ...], ...] = ()
    min_stage_games: int = 4  # games of stages with fewer games (rounds) carry no Ci
    apply_coefficient: bool = True  # Ci of a game is multiplied by the stage coefficient

    def group_of(self, stage: str) -> tuple[str, ...]:
        for group in self.groups:
            if stage in group:
                return group
        return (stage,)


@dataclass(frozen=True, kw_only=True, slots=True)
class NominationRule:
    key: str  # "don", "sheriff", "mafia", "civilian", "mvp"
    role: str | None  # None = any role (MVP)
    min_games: int  # games in that role (any role for MVP)
    formula: tuple[str, ...]  # components summed: "extra", "best_move", "penalties", "win", "total", "ci", "auto_extra"
    name_ru: str = ""
    name_en: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class Preset:
    id: str
    name: str
    source: str = ""
    uncertain: tuple[str, ...] = ()
    # points for one game
    win: Decimal
    extra_min: Decimal
    extra_max: Decimal
    extra_step: Decimal
    best_move: Mapping[int, Decimal]  # blacks named (0..3) -> points
    removal: Decimal
    team_defeat: Decimal
    auto_extra: Decimal = Decimal(0)
    ci: CiRule = CiRule()
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
    finalists_first: bool = True
    hidden_final: bool = False
    nominations: tuple[NominationRule, ...] = ()

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

    def lateness_points(self, minutes: int) -> Decimal | None:
        """Penalty points (≤ 0) for being ``minutes`` late, None when no tier applies."""
        for tier in self.late_tiers:
            if minutes >= tier.first and (tier.last is None or minutes <= tier.last):
                return tier.points
        return None

    # -- loading ----------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, source: str = "preset") -> "Preset":
        r = _Reader(data, source)
        preset = r.build()
        if r.errors:
            raise PresetError(source, r.errors)
        assert preset is not None
        return preset


# ---------------------------------------------------------------------------------------------
# Strict reader: every accessor records an error and returns a placeholder instead of raising,
# so one load reports every problem of the file.

_TOP_KEYS = {"id", "name", "source", "uncertain", "points", "ci", "stages", "penalties", "awards", "ranking", "publish", "nominations"}
_POINT_KEYS = {"win", "extra_min", "extra_max", "extra_step", "best_move_3", "best_move_2", "best_move_1", "removal", "team_defeat", "auto_extra"}
_CI_KEYS = {"enabled", "coefficient", "cap", "groups", "min_stage_games", "apply_coefficient"}
_STAGE_KEYS = {"key", "name", "games", "players", "coefficient"}
_PENALTY_KEYS = {"missed_round", "excused_rounds", "late", "late_stages"}
_LATE_KEYS = {"first", "last", "points"}
_AWARD_KEYS = {"max_missed_rounds", "disqualified_eligible"}
_RANKING_KEYS = {"tiebreaks", "finalists_first"}
_PUBLISH_KEYS = {"hidden_final"}
_NOMINATION_KEYS = {"key", "role", "min_games", "formula", "name"}
_NOMINATION_FORMULA = {"extra", "best_move", "penalties", "win", "total", "ci", "auto_extra"}
_ROLES = {"don", "sheriff", "mafia", "civilian"}


class _Reader:
    def __init__(self, data: Mapping[str, Any], source: str):
        self.data = data
        self.source = source
        self.errors: list[str] = []

    # typed getters --------------------------------------------------------------------------
    def err(self, path: str, message: str) -> None:
        self.errors.append(f"{path}: {message}")

    def unknown(self, table: Mapping[str, Any], allowed: set[str], prefix: str) -> None:
        for key in table:
            if key not in allowed:
                self.err(f"{prefix}{key}", "unknown key")

    def table(self, parent: Mapping[str, Any], key: str, path: str, required: bool = True) -> Mapping[str, Any]:
        value = parent.get(key)
        if value is None:
            if required:
                self.err(path, "missing")
            return {}
        if not isinstance(value, Mapping):
            self.err(path, "must be a table")
            return {}
        return value

    def decimal(self, table: Mapping[str, Any], key: str, path: str, *, low: Decimal | None = None,
                high: Decimal | None = None, default: Decimal | None = None) -> Decimal:
        value = table.get(key)
        if value is None:
            if default is not None:
                return default
            self.err(path, "missing")
            return Decimal(0)
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
        if low is not None and number < low:
            self.err(path, f"{number} is below the minimum {low}")
        if high is not None and number > high:
            self.err(path, f"{number} is above the maximum {high}")
        return number

    def integer(self, table: Mapping[str, Any], key: str, path: str, *, low: int | None = None,
                high: int | None = None, default: int | None = None) -> int:
        value = table.get(key)
        if value is None:
            if default is not None:
                return default
            self.err(path, "missing")
            return 0
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
        if low is not None and result < low:
            self.err(path, f"{result} is below the minimum {low}")
        if high is not None and result > high:
            self.err(path, f"{result} is above the maximum {high}")
        return result

    def boolean(self, table: Mapping[str, Any], key: str, path: str, default: bool) -> bool:
        value = table.get(key, default)
        if isinstance(value, str) and value.strip().lower() in {"true", "yes", "да", "1"}:
            return True
        if isinstance(value, str) and value.strip().lower() in {"false", "no", "нет", "0"}:
            return False
        if not isinstance(value, bool):
            self.err(path, f"must be true or false, not {value!r}")
            return default
        return value

    def string(self, table: Mapping[str, Any], key: str, path: str, default: str | None = None) -> str:
        value = table.get(key)
        if value is None:
            if default is not None:
                return default
            self.err(path, "missing")
            return ""
        if not isinstance(value, str):
            self.err(path, f"must be text, not {value!r}")
            return ""
        return value

    def strings(self, table: Mapping[str, Any], key: str, path: str, default: Sequence[str] = ()) -> tuple[str, ...]:
        value = table.get(key)
        if value is None:
            return tuple(default)
        if isinstance(value, str):  # an override typed into a cell: "a, b, c"
            value = [v.strip() for v in value.replace(";", ",").split(",") if v.strip()]
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            self.err(path, "must be a list of text values")
            return tuple(default)
        return tuple(value)

    # the whole preset -----------------------------------------------------------------------
    def build(self) -> Preset | None:
        d = self.data
        if not isinstance(d, Mapping):
            self.err("(file)", "must be a table")
            return None
        self.unknown(d, _TOP_KEYS, "")
        preset_id = self.string(d, "id", "id")
        name = self.string(d, "name", "name")
        source = self.string(d, "source", "source", default="")
        uncertain = self.strings(d, "uncertain", "uncertain")

        pts = self.table(d, "points", "points")
        self.unknown(pts, _POINT_KEYS, "points.")
        big = Decimal(10)
        win = self.decimal(pts, "win", "points.win", low=Decimal(0), high=big)
        extra_min = self.decimal(pts, "extra_min", "points.extra_min", low=-big, high=big)
        extra_max = self.decimal(pts, "extra_max", "points.extra_max", low=-big, high=big)
        if extra_max < extra_min:
            self.err("points.extra_max", f"{extra_max} must be ≥ points.extra_min ({extra_min})")
        extra_step = self.decimal(pts, "extra_step", "points.extra_step", low=Decimal("0.001"), high=big)
        best_move = {
            3: self.decimal(pts, "best_move_3", "points.best_move_3", low=Decimal(0), high=big),
            2: self.decimal(pts, "best_move_2", "points.best_move_2", low=Decimal(0), high=big),
            1: self.decimal(pts, "best_move_1", "points.best_move_1", low=Decimal(0), high=big, default=Decimal(0)),
            0: Decimal(0),
        }
        removal = self.decimal(pts, "removal", "points.removal", low=-big, high=Decimal(0))
        team_defeat = self.decimal(pts, "team_defeat", "points.team_defeat", low=-big, high=Decimal(0), default=removal)
        auto_extra = self.decimal(pts, "auto_extra", "points.auto_extra", low=Decimal(0), high=big, default=Decimal(0))

        stages_raw = d.get("stages")
        stages: list[StageRule] = []
        if not isinstance(stages_raw, (list, tuple)) or not stages_raw:
            self.err("stages", "must be a non-empty list of stages")
            stages_raw = []
        for i, raw in enumerate(stages_raw):
            path = f"stages[{i}]"
            if not isinstance(raw, Mapping):
                self.err(path, "must be a table")
                continue
            self.unknown(raw, _STAGE_KEYS, f"{path}.")
            key = self.string(raw, "key", f"{path}.key")
            names = self.table(raw, "name", f"{path}.name")
            stages.append(
                StageRule(
                    key=key,
                    name_ru=self.string(names, "ru", f"{path}.name.ru", default=key),
                    name_en=self.string(names, "en", f"{path}.name.en", default=key),
                    games=self.integer(raw, "games", f"{path}.games", low=1, high=40),
                    players=self.integer(raw, "players", f"{path}.players", low=0, high=10000, default=0),
                    coefficient=self.decimal(raw, "coefficient", f"{path}.coefficient", low=Decimal("0.01"), high=big),
                )
            )
        keys = [s.key for s in stages]
        for key in sorted({k for k in keys if keys.count(k) > 1}):
            self.err("stages", f"stage key {key!r} is used twice")
        for i, s in enumerate(stages):
            if i > 0 and s.players % 10:
                self.err(f"stages[{i}].players", f"{s.players} is not a multiple of 10 (tables of ten)")
            if i > 0 and s.players == 0:
                self.err(f"stages[{i}].players", "a later stage needs a number of players")
            if i > 1 and stages[i - 1].players and s.players > stages[i - 1].players:
                self.err(f"stages[{i}].players", f"{s.players} is more than the previous stage's {stages[i - 1].players}")
        if stages and stages[0].players != 0:
            self.err("stages[0].players", "the first stage is played by everyone: use 0")

        ci_raw = self.table(d, "ci", "ci", required=False)
        self.unknown(ci_raw, _CI_KEYS, "ci.")
        groups_raw = ci_raw.get("groups", [])
        groups: list[tuple[str, ...]] = []
        if not isinstance(groups_raw, (list, tuple)):
            self.err("ci.groups", "must be a list of lists of stage keys")
            groups_raw = []
        for gi, group in enumerate(groups_raw):
            if not isinstance(group, (list, tuple)) or not all(isinstance(k, str) for k in group):
                self.err(f"ci.groups[{gi}]", "must be a list of stage keys")
                continue
            for k in group:
                if k not in keys:
                    self.err(f"ci.groups[{gi}]", f"unknown stage {k!r}")
            groups.append(tuple(group))
        grouped = [k for g in groups for k in g]
        for k in sorted({k for k in grouped if grouped.count(k) > 1}):
            self.err("ci.groups", f"stage {k!r} is in more than one group")
        ci = CiRule(
            enabled=self.boolean(ci_raw, "enabled", "ci.enabled", False),
            coefficient=self.decimal(ci_raw, "coefficient", "ci.coefficient", low=Decimal(0), high=Decimal(1), default=Decimal("0.4")),
            cap=self.decimal(ci_raw, "cap", "ci.cap", low=Decimal(0), high=Decimal(1), default=Decimal("0.4")),
            groups=tuple(groups),
            min_stage_games=self.integer(ci_raw, "min_stage_games", "ci.min_stage_games", low=0, high=40, default=4),
            apply_coefficient=self.boolean(ci_raw, "apply_coefficient", "ci.apply_coefficient", True),
        )
        if ci.coefficient == 0 and ci.enabled:
            self.err("ci.coefficient", "must be above 0 when ci.enabled is true")

        pen = self.table(d, "penalties", "penalties")
        self.unknown(pen, _PENALTY_KEYS, "penalties.")
        missed_round = self.decimal(pen, "missed_round", "penalties.missed_round", low=-big, high=Decimal(0))
        excused = self.integer(pen, "excused_rounds", "penalties.excused_rounds", low=0, high=40)
        late_stages = self.strings(pen, "late_stages", "penalties.late_stages")
        for k in late_stages:
            if k not in keys:
                self.err("penalties.late_stages", f"unknown stage {k!r}")
        tiers: list[LatenessTier] = []
        late_raw = pen.get("late", [])
        if not isinstance(late_raw, (list, tuple)):
            self.err("penalties.late", "must be a list of tiers")
            late_raw = []
        for i, raw in enumerate(late_raw):
            path = f"penalties.late[{i}]"
            if not isinstance(raw, Mapping):
                self.err(path, "must be a table")
                continue
            self.unknown(raw, _LATE_KEYS, f"{path}.")
            last = raw.get("last")
            tiers.append(
                LatenessTier(
                    first=self.integer(raw, "first", f"{path}.first", low=0, high=10000),
                    last=None if last is None else self.integer(raw, "last", f"{path}.last", low=0, high=10000),
                    points=self.decimal(raw, "points", f"{path}.points", low=-big, high=Decimal(0)),
                )
            )
        for i in range(1, len(tiers)):
            prev = tiers[i - 1]
            if prev.last is None or tiers[i].first != prev.last + 1:
                self.err(f"penalties.late[{i}].first", "tiers must follow each other without gaps or overlaps (first = previous last + 1)")

        awards = self.table(d, "awards", "awards")
        self.unknown(awards, _AWARD_KEYS, "awards.")
        ranking = self.table(d, "ranking", "ranking")
        self.unknown(ranking, _RANKING_KEYS, "ranking.")
        tiebreaks = self.strings(ranking, "tiebreaks", "ranking.tiebreaks")
        for key in tiebreaks:
            if key not in METRICS:
                self.err("ranking.tiebreaks", f"unknown tiebreak {key!r} (known: {', '.join(METRICS)})")
        for key in sorted({k for k in tiebreaks if tiebreaks.count(k) > 1}):
            self.err("ranking.tiebreaks", f"tiebreak {key!r} is listed twice")
        publish = self.table(d, "publish", "publish", required=False)
        self.unknown(publish, _PUBLISH_KEYS, "publish.")

        nominations: list[NominationRule] = []
        nom_raw = d.get("nominations", [])
        if not isinstance(nom_raw, (list, tuple)):
            self.err("nominations", "must be a list")
            nom_raw = []
        for i, raw in enumerate(nom_raw):
            path = f"nominations[{i}]"
            if not isinstance(raw, Mapping):
                self.err(path, "must be a table")
                continue
            self.unknown(raw, _NOMINATION_KEYS, f"{path}.")
            role = raw.get("role")
            if role is not None and role not in _ROLES:
                self.err(f"{path}.role", f"unknown role {role!r}")
            formula = self.strings(raw, "formula", f"{path}.formula", default=("extra", "best_move", "penalties"))
            for part in formula:
                if part not in _NOMINATION_FORMULA:
                    self.err(f"{path}.formula", f"unknown component {part!r} (known: {', '.join(sorted(_NOMINATION_FORMULA))})")
            names = self.table(raw, "name", f"{path}.name", required=False)
            nominations.append(
                NominationRule(
                    key=self.string(raw, "key", f"{path}.key"),
                    role=role,
                    min_games=self.integer(raw, "min_games", f"{path}.min_games", low=0, high=100, default=1),
                    formula=formula,
                    name_ru=self.string(names, "ru", f"{path}.name.ru", default=""),
                    name_en=self.string(names, "en", f"{path}.name.en", default=""),
                )
            )
        nkeys = [n.key for n in nominations]
        for k in sorted({k for k in nkeys if nkeys.count(k) > 1}):
            self.err("nominations", f"nomination key {k!r} is used twice")

        return Preset(
            id=preset_id,
            name=name,
            source=source,
            uncertain=uncertain,
            win=win,
            extra_min=extra_min,
            extra_max=extra_max,
            extra_step=extra_step,
            best_move=best_move,
            removal=removal,
            team_defeat=team_defeat,
            auto_extra=auto_extra,
            ci=ci,
            stages=tuple(stages),
            missed_round=missed_round,
            excused_rounds=excused,
            late_tiers=tuple(tiers),
            late_stages=late_stages,
            max_missed_rounds=self.integer(awards, "max_missed_rounds", "awards.max_missed_rounds", low=0, high=100),
            disqualified_eligible=self.boolean(awards, "disqualified_eligible", "awards.disqualified_eligible", False),
            tiebreaks=tiebreaks,
            finalists_first=self.boolean(ranking, "finalists_first", "ranking.finalists_first", True),
            hidden_final=self.boolean(publish, "hidden_final", "publish.hidden_final", False),
            nominations=tuple(nominations),
        )


# ---------------------------------------------------------------------------------------------
# Overrides typed on the Tournament tab: "полуфинал.игроков = 20", "points.win = 1".

_STAGE_ALIASES = {"отбор": "qualifying", "полуфинал": "semifinal", "финал": "final"}
_STAGE_FIELD_ALIASES = {"игр": "games", "игры": "games", "туров": "games", "игроков": "players", "коэффициент": "coefficient"}
OVERRIDE_ALIASES: dict[str, str] = {
    "победа": "points.win",
    "доп.мин": "points.extra_min",
    "доп.макс": "points.extra_max",
    "доп.шаг": "points.extra_step",
    "лх.3": "points.best_move_3",
    "лх.2": "points.best_move_2",
    "удаление": "points.removal",
    "ппк": "points.team_defeat",
    "автобаллы": "points.auto_extra",
    "пропуск": "penalties.missed_round",
    "пропуск.без.штрафа": "penalties.excused_rounds",
    "скрытый.финал": "publish.hidden_final",
    "ci": "ci.enabled",
    "тайбрейки": "ranking.tiebreaks",
}


def normalise_override_key(key: str) -> str:
    k = "".join(key.split()).lower().replace("ё", "е")
    if k in OVERRIDE_ALIASES:
        return OVERRIDE_ALIASES[k]
    parts = k.split(".")
    if len(parts) == 2 and (parts[0] in _STAGE_ALIASES or parts[0] in _STAGE_ALIASES.values()):
        stage = _STAGE_ALIASES.get(parts[0], parts[0])
        field = _STAGE_FIELD_ALIASES.get(parts[1], parts[1])
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
            if stage is None or path[2] not in _STAGE_KEYS - {"key", "name"}:
                rejected.append((raw_key, "unknown stage setting"))
                continue
            stage[path[2]] = value
            continue
        allowed = {"points": _POINT_KEYS, "penalties": _PENALTY_KEYS - {"late"}, "awards": _AWARD_KEYS,
                   "ranking": _RANKING_KEYS, "publish": _PUBLISH_KEYS, "ci": _CI_KEYS - {"groups"}}
        if len(path) != 2 or path[0] not in allowed or path[1] not in allowed[path[0]]:
            rejected.append((raw_key, "unknown setting"))
            continue
        result.setdefault(path[0], {})[path[1]] = value
    return result, rejected
