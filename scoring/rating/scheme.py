"""Rating schemes: the numbers of a player rating, loaded from data and checked.

A scheme is a TOML file in ``config/ratings/`` (read by the edges, :mod:`sheets_sync.league.ratings`)
turned into a frozen :class:`RatingScheme` by :meth:`RatingScheme.from_dict`.  Two kinds:

- ``elo-sides`` — the mafiaratings.com rating since its 2025 rework: a red and a black side
  rating besides the overall one; the chance of the reds is an Elo expectation of the mean side
  ratings, and the winners gain K·(what they were not expected to win) — K per game kind
  (club, tournament, elite), scaled below a full table;
- ``stepped`` — a club's fixed steps by rating band (andrsj's MMR: +9 / −6 up to 1600, smaller
  gains and larger losses above), the band looked up by the player's overall rating.

Loading collects every problem of the file at once and names the file and key
(``mafiaratings.toml: elo.k.club.win: missing``); an unknown key is a problem too, so a
misspelt setting is never silently ignored.  Every number of a formula lives in the file.
Ratings are floats, as the reference computes them (docs/decisions.md); rounding is for display.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from scoring.errors import SheetsSyncError

__all__ = ["RatingSchemeError", "KFactors", "Band", "RatingScheme", "Reader", "KINDS", "ELO_SIDES", "STEPPED"]

ELO_SIDES, STEPPED = "elo-sides", "stepped"
KINDS = (ELO_SIDES, STEPPED)


class RatingSchemeError(SheetsSyncError, ValueError):
    """A rating scheme file is invalid; ``errors`` lists every problem found."""

    def __init__(self, source: str, errors: Sequence[str]):
        self.source = source
        self.errors = tuple(errors)
        super().__init__("\n".join(f"{source}: {e}" for e in self.errors))


@dataclass(frozen=True, slots=True)
class KFactors:
    """What a win gives (K_win) and a loss takes (K_loss) in one kind of game, at a full table."""

    win: float
    loss: float


@dataclass(frozen=True, slots=True)
class Band:
    """A stepped scheme's band: from ``low`` (a rating, inclusive; None for the first band) a
    win adds ``win`` and a loss adds ``loss`` (≤ 0)."""

    low: float | None
    win: float
    loss: float


@dataclass(frozen=True, kw_only=True, slots=True)
class RatingScheme:
    id: str
    name: str
    source: str
    kind: str  # ELO_SIDES or STEPPED
    # every player's rating before his first game (internal units), unless typed in for him
    start_overall: float
    start_red: float
    start_black: float
    # display: a rating is shown as offset + rating, rounded half up to `decimals`
    offset: float
    decimals: int
    change_decimals: int
    min_games: int  # rated games before a player's rating is listed
    # elo-sides: p_red = 1 / (1 + base ^ ((mean black − mean red) / scale))
    base: float = 10.0
    scale: float = 400.0
    k: Mapping[str, KFactors]  # game kind ("club", "tournament", "elite") -> K at a full table
    full_field: int = 10  # a game with fewer players has its K multiplied by small_field_factor
    small_field_factor: float = 1.0
    # stepped
    bands: tuple[Band, ...] = ()

    @property
    def game_kinds(self) -> tuple[str, ...]:
        """The game kinds the scheme knows (empty: a stepped scheme takes any kind)."""
        return tuple(self.k)

    def k_for(self, kind: str, players: int) -> KFactors:
        """K_win and K_loss of a game of ``kind`` with ``players`` players (floats, exact halves)."""
        full = self.k[kind]
        if players >= self.full_field:
            return full
        return KFactors(full.win * self.small_field_factor, full.loss * self.small_field_factor)

    def band_for(self, rating: float) -> Band:
        """The band of a stepped scheme a player with ``rating`` is in: the last whose ``low``
        is at most ``rating``."""
        return self.bands[bisect_right([b.low for b in self.bands[1:]], rating)]

    def shown(self, rating: float) -> Decimal:
        """A rating as people read it: offset + rating (in float, as the reference adds it),
        rounded half up to the scheme's decimals."""
        return _rounded(self.offset + rating, self.decimals)

    def shown_change(self, change: float) -> Decimal:
        return _rounded(change, self.change_decimals)

    def internal(self, shown: Decimal | int | float) -> float:
        """The internal rating of a value typed as shown (a club's existing rating)."""
        return float(shown) - self.offset

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, source: str = "rating scheme") -> "RatingScheme":
        r = Reader()
        fields = _read(r, data)
        if r.errors:
            raise RatingSchemeError(source, r.errors)
        return cls(**fields)


def _rounded(value: float, decimals: int) -> Decimal:
    # Decimal(float) is the float's exact binary value: rounding it never rounds twice
    return Decimal(value).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP) + 0


# ---------------------------------------------------------------------------------------------
# Strict reader: each getter records a problem and returns a placeholder, so that one load
# reports every problem of the file.

_TOP = {"id", "name", "source", "kind", "start", "display", "listing", "elo", "bands"}
_START = {"overall", "red", "black"}
_DISPLAY = {"offset", "decimals", "change_decimals"}
_LISTING = {"min_games"}
_ELO = {"base", "scale", "full_field", "small_field_factor", "k"}
_K = {"win", "loss"}
_BAND = {"from", "win", "loss"}


class Reader:
    def __init__(self) -> None:
        self.errors: list[str] = []

    def err(self, path: str, message: str) -> None:
        self.errors.append(f"{path}: {message}")

    def table(self, parent: Mapping[str, Any], key: str, where: str, allowed: set[str] | None,
              *, required: bool = True) -> Mapping[str, Any]:
        value = parent.get(key)
        if value is None:
            if required:
                self.err(where, "missing")
            return {}
        if not isinstance(value, Mapping):
            self.err(where, "must be a table")
            return {}
        if allowed is not None:
            self.unknown(value, allowed, f"{where}.")
        return value

    def unknown(self, table: Mapping[str, Any], allowed: set[str], prefix: str) -> None:
        for key in table:
            if key not in allowed:
                self.err(f"{prefix}{key}", "unknown key")

    def text(self, table: Mapping[str, Any], key: str, where: str, default: str | None = None) -> str:
        value = table.get(key, default)
        if not isinstance(value, str) or not value.strip():
            self.err(where, "missing" if value is None else f"must be a text, not {value!r}")
            return ""
        return value

    def number(self, table: Mapping[str, Any], key: str, where: str, default: float | None = None, *,
               low: float | None = None, high: float | None = None, above: float | None = None) -> float:
        value = table.get(key)
        if value is None:
            if default is None:
                self.err(where, "missing")
                return 0.0
            return default
        if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)):
            self.err(where, f"must be a number, not {value!r}")
            return 0.0
        number = float(value)
        if number != number or number in (float("inf"), float("-inf")):
            self.err(where, f"must be a finite number, not {value!r}")
            return 0.0
        if low is not None and number < low:
            self.err(where, f"{value} is below the minimum {low:g}")
        if high is not None and number > high:
            self.err(where, f"{value} is above the maximum {high:g}")
        if above is not None and number <= above:
            self.err(where, f"{value} must be more than {above:g}")
        return number

    def integer(self, table: Mapping[str, Any], key: str, where: str, default: int, *, low: int = 0) -> int:
        value = table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, Decimal)) or value != int(value):
            self.err(where, f"must be a whole number, not {value!r}")
            return default
        if value < low:
            self.err(where, f"{value} is below the minimum {low}")
        return int(value)


def _read(r: Reader, data: Mapping[str, Any]) -> dict[str, Any]:
    r.unknown(data, _TOP, "")
    kind = r.text(data, "kind", "kind")
    if kind and kind not in KINDS:
        r.err("kind", f"{kind!r} is not a kind of rating scheme (one of: {', '.join(KINDS)})")
    start = r.table(data, "start", "start", _START, required=False)
    display = r.table(data, "display", "display", _DISPLAY, required=False)
    listing = r.table(data, "listing", "listing", _LISTING, required=False)
    fields: dict[str, Any] = dict(
        id=r.text(data, "id", "id"), name=r.text(data, "name", "name"), source=r.text(data, "source", "source"),
        kind=kind,
        start_overall=r.number(start, "overall", "start.overall", 0.0),
        start_red=r.number(start, "red", "start.red", 0.0),
        start_black=r.number(start, "black", "start.black", 0.0),
        offset=r.number(display, "offset", "display.offset", 0.0),
        decimals=r.integer(display, "decimals", "display.decimals", 0),
        change_decimals=r.integer(display, "change_decimals", "display.change_decimals", 2),
        min_games=r.integer(listing, "min_games", "listing.min_games", 1),
        k={},
    )
    if kind == ELO_SIDES:
        fields.update(_read_elo(r, data))
        if "bands" in data:
            r.err("bands", "belongs to a stepped scheme, not to an elo-sides one")
    elif kind == STEPPED:
        fields["bands"] = _read_bands(r, data)
        if "elo" in data:
            r.err("elo", "belongs to an elo-sides scheme, not to a stepped one")
    return fields


def _read_elo(r: Reader, data: Mapping[str, Any]) -> dict[str, Any]:
    elo = r.table(data, "elo", "elo", _ELO)
    k_table = r.table(elo, "k", "elo.k", None)
    if elo and not k_table and "k" in elo:
        r.err("elo.k", "needs at least one game kind ([elo.k.club], [elo.k.tournament], …)")
    k: dict[str, KFactors] = {}
    for game_kind in k_table:
        where = f"elo.k.{game_kind}"
        row = r.table(k_table, game_kind, where, _K)
        if row:
            k[game_kind] = KFactors(r.number(row, "win", f"{where}.win", low=0.0),
                                    r.number(row, "loss", f"{where}.loss", low=0.0))
    return dict(
        base=r.number(elo, "base", "elo.base", 10.0, above=1.0),
        scale=r.number(elo, "scale", "elo.scale", 400.0, above=0.0),
        full_field=r.integer(elo, "full_field", "elo.full_field", 10, low=1),
        small_field_factor=r.number(elo, "small_field_factor", "elo.small_field_factor", 1.0, low=0.0),
        k=k,
    )


def _read_bands(r: Reader, data: Mapping[str, Any]) -> tuple[Band, ...]:
    raw = data.get("bands")
    if not isinstance(raw, (list, tuple)) or not raw:
        r.err("bands", "a stepped scheme needs [[bands]]: the first without `from`, then each from a rating up")
        return (Band(None, 0.0, 0.0),)
    bands: list[Band] = []
    for i, item in enumerate(raw):
        where = f"bands[{i}]"
        if not isinstance(item, Mapping):
            r.err(where, "must be a table")
            continue
        r.unknown(item, _BAND, f"{where}.")
        if i == 0 and "from" in item:
            r.err(f"{where}.from", "the first band covers every rating below the second: leave `from` out")
        low = None if i == 0 else r.number(item, "from", f"{where}.from")
        previous = bands[-1].low if bands else None
        if low is not None and previous is not None and low <= previous:
            r.err(f"{where}.from", f"{low:g} must be above the previous band's {previous:g}")
        bands.append(Band(low, r.number(item, "win", f"{where}.win", low=0.0),
                          r.number(item, "loss", f"{where}.loss", high=0.0)))
    return tuple(bands) or (Band(None, 0.0, 0.0),)
