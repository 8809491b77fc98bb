"""Finding and reading rating scheme files (the pure checks live in :mod:`scoring.rating`).

A reference is the id of a shipped scheme (``mafiaratings-2025``: ``config/ratings/
mafiaratings-2025.toml``) or the path of a ``.toml`` file (a club's own formula).  The shipped
series table (``mwt-series``) is read the same way by :func:`load_series_scheme`.
"""

from __future__ import annotations

import tomllib
from decimal import Decimal
from pathlib import Path
from typing import Any

from scoring.rating.scheme import RatingScheme, RatingSchemeError
from scoring.rating.series import SeriesScheme
from sheets_sync.resources import shipped

__all__ = ["RATINGS_DIR", "DEFAULT_RATING", "DEFAULT_SERIES", "known_schemes", "read_scheme_dict",
           "load_rating_scheme", "load_series_scheme"]

RATINGS_DIR = shipped("config") / "ratings"
DEFAULT_RATING = "mafiaratings-2025"
DEFAULT_SERIES = "mwt-series"


def known_schemes() -> list[str]:
    return sorted(p.stem for p in RATINGS_DIR.glob("*.toml"))


def _path(ref: str, base_dir: Path | None) -> Path:
    if ref.strip().lower().endswith(".toml") or "/" in ref or "\\" in ref:
        path = Path(ref).expanduser()
        if not path.is_absolute() and base_dir is not None:
            path = base_dir / path
    else:
        path = RATINGS_DIR / f"{ref.strip().lower()}.toml"
    if not path.is_file():
        raise RatingSchemeError(ref, [f"no such rating scheme file ({path}); shipped: {', '.join(known_schemes())}"])
    return path


def read_scheme_dict(ref: str, *, base_dir: Path | None = None) -> tuple[dict[str, Any], str]:
    """The raw dict of scheme ``ref`` and its file name."""
    path = _path(ref, base_dir)
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh, parse_float=Decimal), path.name
    except tomllib.TOMLDecodeError as exc:
        raise RatingSchemeError(path.name, [f"not valid TOML: {exc}"]) from exc


def load_rating_scheme(ref: str = DEFAULT_RATING, *, base_dir: Path | None = None) -> RatingScheme:
    data, name = read_scheme_dict(ref, base_dir=base_dir)
    return RatingScheme.from_dict(data, source=name)


def load_series_scheme(ref: str = DEFAULT_SERIES, *, base_dir: Path | None = None) -> SeriesScheme:
    data, name = read_scheme_dict(ref, base_dir=base_dir)
    return SeriesScheme.from_dict(data, source=name)
