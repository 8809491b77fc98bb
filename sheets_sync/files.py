"""Files beside the workbook: which folder they go to, and how they are written.

Every file sheets-sync writes for people (standings.json, the site, the VK post, printable
blanks) is written atomically — a temporary file in the same folder, then a rename — so a
web server or a browser sees the old file or the new one, never half of one.

Inside :func:`output_log` every write under its folder is listed with its SHA-256, and a
file whose hash and size are those the last sync wrote is left alone without reading it
back: a sync writes only what changed, whichever renderer produced the file.  A renderer that
can name a file's inputs by a key (:mod:`sheets_sync.render.page_keys`) asks
:func:`reuse_output` first, and does not even render a file the last sync made from the same
inputs.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

from sheets_sync.refs import workbook_folder

__all__ = ["out_dir_for", "new_file_mode", "write_bytes_atomic", "write_text_atomic", "reuse_output",
           "GOOGLE_OUTPUT_FOLDER", "OutputLog", "output_log"]

GOOGLE_OUTPUT_FOLDER = "sheets-sync-output"  # in the current folder: a Google spreadsheet has no folder of its own

# os.umask can only be read by setting it: read it once, before any thread could be writing files
_UMASK = os.umask(0)
os.umask(_UMASK)


def new_file_mode() -> int:
    """Permission bits of a new file as ``open()`` would create it (0666 minus the umask)."""
    return 0o666 & ~_UMASK


def out_dir_for(ref: str, out: str | None) -> Path:
    """Where standings.json, the site and the VK post go: ``--out``, else beside the workbook
    (a Google spreadsheet: ``sheets-sync-output/`` in the current folder)."""
    if out:
        return Path(out)
    return workbook_folder(ref) or Path.cwd() / GOOGLE_OUTPUT_FOLDER


@dataclass(kw_only=True)
class OutputLog:
    """The files written under ``root`` during one sync, and those of the sync before."""

    root: Path
    previous: dict[str, tuple[str, int]]  # path under root → (sha256, size) as the last sync wrote it
    current: dict[str, tuple[str, int]] = field(default_factory=dict)
    written: int = 0
    kept: int = 0
    previous_inputs: dict[str, str] = field(default_factory=dict)  # path → key of its inputs, last sync
    inputs: dict[str, str] = field(default_factory=dict)  # … and this one
    reused: int = 0  # files kept without rendering them (their inputs were the same)

    def relative(self, path: Path) -> str | None:
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return None


_LOG: ContextVar[OutputLog | None] = ContextVar("sheets_sync_output_log", default=None)


@contextlib.contextmanager
def output_log(root: Path, previous: dict[str, tuple[str, int]],
               previous_inputs: dict[str, str] | None = None) -> Iterator[OutputLog]:
    """List every file written under ``root`` inside; skip those unchanged since ``previous``
    (and, asked by :func:`reuse_output`, those made from the same inputs as ``previous_inputs``)."""
    log = OutputLog(root=root, previous=previous, previous_inputs=dict(previous_inputs or {}))
    token = _LOG.set(log)
    try:
        yield log
    finally:
        _LOG.reset(token)


def _unchanged(path: Path, data: bytes) -> bool:
    """The file already holds ``data``: by the last sync's hash when there is one (no read
    back), else by comparing the bytes."""
    log = _LOG.get()
    rel = log.relative(path) if log is not None else None
    if log is None or rel is None:
        return path.exists() and path.read_bytes() == data
    entry = (hashlib.sha256(data).hexdigest(), len(data))
    log.current[rel] = entry
    before = log.previous.get(rel)
    if before is not None:
        try:
            same = before == entry and path.stat().st_size == entry[1]
        except OSError:
            same = False
    else:
        same = path.exists() and path.read_bytes() == data
    if same:
        log.kept += 1
    else:
        log.written += 1
    return same


def reuse_output(path: Path, inputs: str | None) -> bool:
    """True when the last sync made ``path`` from the same inputs (their key ``inputs``) and the
    file is still there at the size it wrote: it is kept as it is, and need not be rendered."""
    log = _LOG.get()
    rel = log.relative(path) if log is not None else None
    if log is None or rel is None or inputs is None:
        return False
    before = log.previous.get(rel)
    if before is None or log.previous_inputs.get(rel) != inputs:
        return False
    try:
        if path.stat().st_size != before[1]:
            return False
    except OSError:
        return False
    log.current[rel] = before
    log.inputs[rel] = inputs
    log.kept += 1
    log.reused += 1
    return True


def write_bytes_atomic(path: Path, data: bytes, *, durable: bool = True, inputs: str | None = None) -> bool:
    """Write ``data`` to ``path`` atomically (temporary file + rename) with the usual
    permissions; return False when the content was already there.  ``durable`` fsyncs
    before the rename (skipped for the many pages of the site, which are regenerated anyway);
    ``inputs``: the key of what the content was made from (see :func:`reuse_output`)."""
    if inputs is not None:
        log = _LOG.get()
        rel = log.relative(path) if log is not None else None
        if rel is not None:
            log.inputs[rel] = inputs
    if _unchanged(path, data):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.chmod(tmp, new_file_mode())  # mkstemp makes 0600; a web server must be able to read the site
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return True


def write_text_atomic(path: Path, text: str, *, durable: bool = True, inputs: str | None = None) -> bool:
    """Write ``text`` (UTF-8) to ``path`` atomically; return False when it was already there."""
    return write_bytes_atomic(path, text.encode("utf-8"), durable=durable, inputs=inputs)
