"""Finding and reading preset files (the pure checks live in :mod:`scoring.preset`)."""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

from scoring.preset import Preset, PresetError, apply_overrides

__all__ = ["CONFIG_DIR", "known_presets", "read_preset_dict", "load_preset", "PresetError"]

CONFIG_DIR = Path(__file__).resolve().parent.parent / "config"


def known_presets() -> list[str]:
    return sorted(p.stem for p in CONFIG_DIR.glob("*.toml"))


def _path(ref: str, base_dir: Path | None) -> Path:
    if ref.endswith(".toml"):
        path = Path(ref)
        if not path.is_absolute() and base_dir is not None:
            path = base_dir / path
        return path
    return CONFIG_DIR / f"{ref}.toml"


def read_preset_dict(ref: str, *, base_dir: Path | None = None) -> tuple[dict[str, Any], str]:
    """The raw dict of preset ``ref`` (an id in config/ or a path to a .toml) and its file name."""
    path = _path(ref, base_dir)
    if not path.exists():
        raise PresetError(path.name, [f"no such preset (known: {', '.join(known_presets())})"])
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh, parse_float=Decimal), path.name
    except tomllib.TOMLDecodeError as exc:
        raise PresetError(path.name, [f"not valid TOML: {exc}"]) from exc


def load_preset(ref: str, overrides: Sequence[tuple[str, Any]] = (), *, base_dir: Path | None = None) -> tuple[Preset, list[tuple[str, str]]]:
    """Load and check a preset with Tournament-tab overrides applied.

    Returns the preset and the overrides that name no setting; raises PresetError
    (naming file and key) when a value is out of range."""
    data, name = read_preset_dict(ref, base_dir=base_dir)
    data, rejected = apply_overrides(data, overrides)
    return Preset.from_dict(data, source=name), rejected
