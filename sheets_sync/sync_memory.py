"""What the last sync saw and wrote, so that the next one can stop early or write less.

A sync that wrote its files beside the workbook records, in ``<out>/.sheets-sync/last-sync.json``:

* its **key**: the workbook's fingerprint as it stands after the sync (the SHA-256 of an
  .xlsx file's bytes; the values of every tab of a Google spreadsheet), the content of the
  preset file it used, and the versions of the shipped templates, presets and package;
* a **summary** for the printed report (games counted, errors, warnings);
* the **outputs**: SHA-256 and size of every file written (or found up to date) under ``<out>``.

The next sync whose key is the same and whose outputs are all still there with their sizes
has nothing to do: it reads (an .xlsx: only its bytes, never openpyxl), sees that, and stops
(:func:`sheets_sync.sync.sync_once`).  Nothing here knows which outputs exist: every file
written through :func:`sheets_sync.files.write_bytes_atomic` inside :func:`recording` is
listed, whatever renderer produced it; the same list lets the writer skip a file whose
content hash did not change without reading it back.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from sheets_sync.files import OutputLog, output_log, write_text_atomic
from sheets_sync.last_sync import FORMAT, RECORD, LastSync, file_version, static_versions, unchanged_file

__all__ = ["SyncKey", "SyncMemory", "static_versions", "file_version", "unchanged_file", "RECORD"]


@dataclass(frozen=True, kw_only=True, slots=True)
class SyncKey:
    """Everything a sync's outputs depend on: equal keys give byte-identical outputs."""

    source: str
    workbook: str  # the workbook's fingerprint
    preset_file: str = ""  # the tournament's preset file, as a path
    preset_version: str = ""  # SHA-256 of that file
    versions: Mapping[str, str] = field(default_factory=static_versions)

    def as_dict(self) -> dict:
        return {"source": self.source, "workbook": self.workbook, "preset_file": self.preset_file,
                "preset_version": self.preset_version, "versions": dict(self.versions)}


class SyncMemory(LastSync):
    """The record of the last sync into one output folder: read (:class:`LastSync`), and written."""

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
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(self.path, json.dumps(record, ensure_ascii=False, sort_keys=True), durable=False)
        self._record, self._loaded = record, True

    def forget(self) -> None:
        with contextlib.suppress(OSError):
            os.unlink(self.path)
        self._record, self._loaded = None, True
