"""What the last sync saw and wrote, so that the next one can stop early or write less.

A sync that wrote its files into an output folder records, in ``<out>/.sheets-sync/last-sync.json``:

* its **key**: the workbook's fingerprint as it stands after the sync (the SHA-256 of an
  .xlsx file's bytes; the values of every tab of a Google spreadsheet), the content of the
  preset file it used, and the versions of the shipped templates, presets and package;
* a **summary** for the printed report (games counted and planned, errors, warnings) and for the
  next sync: which games counted and whether there was a seating (:func:`last_sync`: what is gone
  since is named, :mod:`scoring.vanished`);
* the **outputs**: SHA-256 and size of every file written (or found up to date) under ``<out>``.

The next sync whose key is the same and whose outputs are all still there with their sizes
has nothing to do: it asks the backend for the workbook's fingerprint (an .xlsx: a hash of its
bytes, no read of its values), sees that, and stops (:func:`sheets_sync.loop.sync.sync_once`).
Nothing here knows which outputs exist: every file written through
:func:`sheets_sync.files.write_bytes_atomic` inside :meth:`SyncMemory.recording` is listed,
whatever renderer produced it; the same list lets the writer skip a file whose content hash
did not change without reading it back.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from scoring.vanished import CountedGame, LastSync
from sheets_sync.files import OutputLog, legacy_output_folder, not_written, output_folder, output_log, write_text_atomic
from sheets_sync.refs import is_google_ref, spreadsheet_id

__all__ = ["SyncKey", "SyncMemory", "static_versions", "file_version", "skipped_line", "RECORD", "MovedOutputs",
           "move_old_outputs", "last_sync"]

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

    return {"package": __version__, "templates": _tree_hash(shipped("templates")), "presets": _tree_hash(shipped("config"))}


def file_version(path: Path | None) -> str:
    """SHA-256 of a file (a tournament's own preset); "" when there is none."""
    if path is None:
        return ""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "missing"


@dataclass(frozen=True, kw_only=True, slots=True)
class SyncKey:
    """Everything a sync's outputs depend on: equal keys give byte-identical outputs."""

    source: str
    workbook: str  # the workbook's fingerprint
    preset_file: str = ""  # the tournament's preset file, as a path
    preset_version: str = ""  # SHA-256 of that file
    versions: Mapping[str, str] = field(default_factory=lambda: static_versions())

    def as_dict(self) -> dict:
        return {"source": self.source, "workbook": self.workbook, "preset_file": self.preset_file,
                "preset_version": self.preset_version, "versions": dict(self.versions)}


class SyncMemory:
    """The record of the last sync into ``out_dir``: read once, and written."""

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

    def inputs(self) -> dict[str, str]:
        """The key of each file's inputs at the last sync (:mod:`sheets_sync.render.page_keys`)."""
        record = self.record() or {}
        return {rel: key for rel, key in (record.get("inputs") or {}).items() if isinstance(key, str)}

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

    @contextlib.contextmanager
    def recording(self) -> Iterator[OutputLog]:
        """Files written inside are skipped when their hash is the last sync's, and listed; a
        renderer may keep a file made from the same inputs without rendering it."""
        with output_log(self.out_dir, self.outputs(), self.inputs()) as log:
            yield log

    def save(self, key: SyncKey | None, log: OutputLog, summary: Mapping[str, object]) -> None:
        """Remember this sync; without a key (the workbook's state after our write is not
        known) the next sync runs in full and records one."""
        outputs = {rel: list(v) for rel, v in sorted(log.current.items()) if (self.out_dir / rel).exists()}
        inputs = {rel: k for rel, k in sorted(log.inputs.items()) if rel in outputs}
        record = {"format": FORMAT, "key": key.as_dict() if key is not None else None, "summary": dict(summary),
                  "outputs": outputs, "inputs": inputs}
        write_text_atomic(self.path, json.dumps(record, ensure_ascii=False, sort_keys=True), durable=False)
        self._record, self._loaded = record, True

    def forget(self) -> None:
        with contextlib.suppress(OSError):
            os.unlink(self.path)
        self._record, self._loaded = None, True


@dataclass(frozen=True, slots=True)
class MovedOutputs:
    """The outputs :func:`move_old_outputs` moved: from the folder they shared, into the workbook's own."""

    folder: Path
    files: int


def _same_workbook(source: object, ref: str) -> bool:
    """The record's ``source`` is WORKBOOK: the same spreadsheet, or a file of the same name (a
    record of the old layout lies beside its own workbook; its path may be relative)."""
    if not isinstance(source, str) or not source:
        return False
    if is_google_ref(ref) or is_google_ref(source):
        try:
            return spreadsheet_id(source) == spreadsheet_id(ref)
        except ValueError:
            return False
    return Path(source).name == Path(ref).expanduser().resolve().name


def move_old_outputs(ref: str) -> MovedOutputs | None:
    """Move the outputs of the layout before each workbook had its own folder — site/,
    standings.json, the VK post, ``log.jsonl`` and the record of the last sync, beside the
    workbook (a Google spreadsheet's: in ``sheets-sync-output/``) — into the workbook's own
    folder (:func:`sheets_sync.files.output_folder`), once: only when the record there is this
    workbook's and its own folder holds no record yet (an export may have made the folder), and
    only the files that record lists (so another workbook's files and a person's stay where they
    are).  None when nothing moved."""
    old, new = legacy_output_folder(ref), output_folder(ref)
    if (new / RECORD).exists() or not (old / RECORD).is_file():
        return None
    memory = SyncMemory(old)
    record = memory.record()
    if record is None or not _same_workbook((record.get("key") or {}).get("source"), ref):
        return None
    moved = 0
    for rel in [*memory.outputs(), "log.jsonl", RECORD.as_posix()]:
        if Path(rel).is_absolute() or ".." in Path(rel).parts:  # a hand-edited record: nothing outside
            continue
        source, target = old / rel, new / rel
        if not source.is_file():
            continue
        try:
            os.renames(source, target)  # also removes the folders it empties (site/, .sheets-sync/)
        except OSError as exc:
            raise (not_written(exc, target) or exc) from exc
        moved += 1
    return MovedOutputs(folder=new, files=moved - 1)


def skipped_line(summary: dict, language: str | None = None) -> str:
    """The one line a sync with nothing to do says: the last sync's games, errors and warnings,
    in ``language`` (else the tournament's)."""
    from sheets_sync.messages import text

    return text("report.skipped", language or str(summary.get("language") or "ru"), games=summary.get("games", 0),
                errors=summary.get("errors", 0), warnings=summary.get("warnings", 0))


def last_sync(record: Mapping | None) -> LastSync | None:
    """What the record's summary says the workbook had: the games counted (with their tabs), a
    seating, the games planned; None without a record (a first sync names nothing gone)."""
    summary = (record or {}).get("summary")
    if not isinstance(summary, Mapping):
        return None
    games = []
    for entry in summary.get("counted") or ():
        try:
            tab, stage, round_no, table = entry
            games.append(CountedGame(str(tab), str(stage), int(round_no), int(table)))
        except (TypeError, ValueError):  # a hand-edited record: what cannot be read was not counted
            continue
    try:
        planned = int(summary.get("planned") or 0)
    except (TypeError, ValueError):
        planned = 0
    return LastSync(games=tuple(games), seating=bool(summary.get("seating")), planned=planned)
