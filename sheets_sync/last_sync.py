"""The record of the last sync into an output folder, read: is a sync needed at all?

The part of :mod:`sheets_sync.sync_memory` that a sync with nothing changed needs — the record,
the versions of what ships with the program, the fingerprint of a file — kept apart from the
writing side (dataclasses, atomic writes, output logs), whose imports would be a third of such
a process (:mod:`sheets_sync.launch`).
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

__all__ = ["RECORD", "FORMAT", "LastSync", "static_versions", "file_version", "unchanged_file", "skipped_line"]

RECORD = Path(".sheets-sync") / "last-sync.json"
FORMAT = 1


def _tree_hash(folder: Path) -> str:
    h = hashlib.sha256()
    if folder.is_dir():
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            h.update(path.relative_to(folder).as_posix().encode() + b"\x00" + path.read_bytes() + b"\x00")
    return h.hexdigest()


@functools.cache
def static_versions() -> dict[str, str]:
    """Versions of what ships with the program: its package version, templates and presets
    (hashed, so that an edited template in a checkout counts as a new version)."""
    from sheets_sync import __version__
    from sheets_sync.resources import shipped

    # the version the package says, not importlib.metadata's (whose import is a tenth of a sync
    # that finds nothing changed); pyproject.toml takes its version from the same line
    return {"package": __version__, "templates": _tree_hash(shipped("templates")), "presets": _tree_hash(shipped("config"))}


def file_version(path: Path | None) -> str:
    """SHA-256 of a file (a tournament's own preset); "" when there is none."""
    if path is None:
        return ""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "missing"


class LastSync:
    """The record of the last sync into ``out_dir``, as it was written (read once)."""

    def __init__(self, out_dir: Path):
        self.out_dir = out_dir
        self.path = out_dir / RECORD
        self._record: dict | None = None
        self._loaded = False

    def record(self) -> dict | None:
        if not self._loaded:
            self._loaded = True
            try:
                data = json.loads(self.path.read_text(encoding="utf-8"))
                self._record = data if isinstance(data, dict) and data.get("format") == FORMAT else None
            except (OSError, ValueError):
                self._record = None
        return self._record

    def outputs(self) -> dict[str, tuple[str, int]]:
        """The files of the last sync: ``{path under out: (sha256, size)}``."""
        record = self.record() or {}
        return {rel: (str(v[0]), int(v[1])) for rel, v in (record.get("outputs") or {}).items()
                if isinstance(v, list) and len(v) == 2}

    def unchanged(self, source: str, workbook: str | None) -> dict | None:
        """The summary of the last sync when ``workbook`` (a fingerprint) and every version are
        the same as then and every file it wrote is still there; else None (sync in full)."""
        record = self.record()
        if record is None or workbook is None:
            return None
        key = record.get("key") or {}
        if key.get("source") != source or key.get("workbook") != workbook:
            return None
        if key.get("versions") != static_versions():
            return None
        preset_file = key.get("preset_file") or ""
        if preset_file and file_version(Path(preset_file)) != key.get("preset_version"):
            return None
        for rel, (_, size) in self.outputs().items():
            try:
                if (self.out_dir / rel).stat().st_size != size:
                    return None
            except OSError:
                return None
        return record.get("summary") or {}

    def inputs(self) -> dict[str, str]:
        """The key of each file's inputs at the last sync (:mod:`sheets_sync.render.page_keys`)."""
        record = self.record() or {}
        return {rel: key for rel, key in (record.get("inputs") or {}).items() if isinstance(key, str)}


def unchanged_file(workbook: Path, out_dir: Path) -> dict | None:
    """The last sync's summary when the .xlsx ``workbook`` and everything else is as that
    sync into ``out_dir`` left it: ``sync`` then stops before it imports openpyxl and the
    scoring (a whole process in about the time Python takes to start)."""
    return LastSync(out_dir).unchanged(str(workbook), file_version(workbook) if workbook.is_file() else None)


def skipped_line(summary: dict, language: str | None = None) -> str:
    """The one line a sync with nothing to do says: the last sync's games, errors and warnings,
    in ``language`` (else the tournament's)."""
    from sheets_sync.messages import text

    return text("report.skipped", language or str(summary.get("language") or "ru"), games=summary.get("games", 0),
                errors=summary.get("errors", 0), warnings=summary.get("warnings", 0))
