"""Files for people: which folder they go to (each workbook's own), and how they are written.

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
import errno
import hashlib
import os
import re
import tempfile
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

from scoring.errors import SheetsSyncError
from sheets_sync.messages import fail
from sheets_sync.refs import spreadsheet_id, workbook_folder

__all__ = ["out_dir_for", "output_folder", "legacy_output_folder", "OUTPUT_SUFFIX", "new_file_mode", "write_bytes_atomic", "write_text_atomic", "reuse_output",
           "GOOGLE_OUTPUT_FOLDER", "OutputLog", "output_log", "OutputNotWritten", "not_written",
           "remove_stale_temps", "TEMP_MARK"]

OUTPUT_SUFFIX = ".sheets-sync"  # cup.xlsx → cup.sheets-sync/: a workbook's outputs, in a folder of its own
GOOGLE_OUTPUT_FOLDER = "sheets-sync-output"  # where a Google spreadsheet's outputs went before (the current folder's)

# os.umask can only be read by setting it: read it once, before any thread could be writing files
_UMASK = os.umask(0)
os.umask(_UMASK)


def new_file_mode() -> int:
    """Permission bits of a new file as ``open()`` would create it (0666 minus the umask)."""
    return 0o666 & ~_UMASK


def out_dir_for(ref: str, out: str | None) -> Path:
    """Where standings.json, the site, the VK post and log.jsonl go: ``--out``, else the
    workbook's own folder (:func:`output_folder`)."""
    if out:
        return Path(out)
    return output_folder(ref)


def output_folder(ref: str) -> Path:
    """A workbook's own output folder, named after it: ``cup.sheets-sync/`` beside ``cup.xlsx``;
    a Google spreadsheet's ``<ID>.sheets-sync/`` in the current folder (its ID: a title can be
    renamed).  Two workbooks in one folder — a cup and a club season — never write over each
    other's site, standings.json, VK post or log (docs/decisions.md, 2026-12-03)."""
    folder = workbook_folder(ref)
    if folder is None:
        return Path.cwd() / f"{spreadsheet_id(ref)}{OUTPUT_SUFFIX}"
    return folder / f"{Path(ref).expanduser().resolve().stem}{OUTPUT_SUFFIX}"


def legacy_output_folder(ref: str) -> Path:
    """Where the outputs went before each workbook had its own folder: beside the workbook, or
    ``sheets-sync-output/`` in the current folder (:func:`sheets_sync.loop.sync_memory.move_old_outputs`)."""
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


class OutputNotWritten(SheetsSyncError):
    """A file for people could not be written for a reason a person fixes (a read-only folder,
    a full disk): the message says which and what to do; exit 2, not a bug."""


_READ_ONLY = {errno.EACCES, errno.EPERM, errno.EROFS}
_FULL = {errno.ENOSPC, errno.EDQUOT}


def not_written(exc: OSError, path: Path) -> OutputNotWritten | None:
    """The error to say for ``exc`` raised writing ``path``; None for an OSError that is a bug."""
    reason = exc.strerror or str(exc)
    if exc.errno in _FULL:
        return fail(OutputNotWritten, "output.disk_full", path=path)
    if exc.errno in _READ_ONLY:
        return fail(OutputNotWritten, "output.read_only", path=path, reason=reason, folder=path.parent)
    if exc.errno in (errno.EIO, errno.ENAMETOOLONG, errno.ENOTDIR, errno.EISDIR):
        return fail(OutputNotWritten, "output.failed", path=path, reason=reason)
    return None


# our temporary files: ".<name>.<pid>.<random>" + this mark, so that a sync killed mid-write
# leaves nothing the next one cannot tell apart from a person's own file (:func:`remove_stale_temps`)
TEMP_MARK = ".sheets-sync-part"
_OLD_TEMP = re.compile(r"^\.(?P<name>.+)\.[a-z0-9_]{8}$")  # before the mark: mkstemp's 8 characters
_OLD_TEMP_AGE = 600  # seconds: such a file of a sync still writing is younger (it has no pid to ask)


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a temp file's writer: a dead one's files may go)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # there, but not ours to signal
        return True
    return True


def _stale(entry: os.DirEntry, names: set[str], now: float, older_form: bool) -> bool:
    name = entry.name
    if name.endswith(TEMP_MARK):
        pid = name[:-len(TEMP_MARK)].rsplit(".", 2)[-2] if name.count(".") >= 4 else ""
        return pid.isdigit() and not pid_alive(int(pid))
    old = _OLD_TEMP.match(name) if older_form else None  # only beside the very file it was written for
    return bool(old and old.group("name") in names and now - entry.stat().st_mtime > _OLD_TEMP_AGE)


def remove_stale_temps(folder: Path, *, tree: bool = False) -> int:
    """Remove the temporary files a killed sync left in ``folder`` (``tree``: and every folder
    under it — the site, which is all ours) — only ours: by their mark, when the process that
    wrote one is gone; in a ``tree`` also those of the form before the mark, named after a file
    beside them and old.  Never a person's file.  How many were removed."""
    import time

    removed, now = 0, time.time()
    walk = os.walk(folder) if tree else [(str(folder), [], [])]
    for current, _dirs, _files in walk:
        entries = _scan(current)
        names = {e.name for e in entries}
        for entry in entries:
            if not entry.name.startswith("."):
                continue
            with contextlib.suppress(OSError):
                if entry.is_file(follow_symlinks=False) and _stale(entry, names, now, tree):
                    os.unlink(entry.path)
                    removed += 1
    return removed


def _scan(folder: str) -> list[os.DirEntry]:
    try:
        return list(os.scandir(folder))
    except OSError:
        return []


def write_bytes_atomic(path: Path, data: bytes, *, durable: bool = True, inputs: str | None = None) -> bool:
    """Write ``data`` to ``path`` atomically (temporary file + rename) with the usual
    permissions; return False when the content was already there.  ``durable`` fsyncs
    before the rename (skipped for the many pages of the site, which are regenerated anyway);
    ``inputs``: the key of what the content was made from (see :func:`reuse_output`).
    A read-only folder or a full disk is :class:`OutputNotWritten`, the temporary file removed."""
    if inputs is not None:
        log = _LOG.get()
        rel = log.relative(path) if log is not None else None
        if rel is not None:
            log.inputs[rel] = inputs
    if _unchanged(path, data):
        return False
    try:
        _write_new(path, data, durable)
    except OSError as exc:
        error = not_written(exc, path)
        if error is None:
            raise
        raise error from exc
    return True


def _write_new(path: Path, data: bytes, durable: bool) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=TEMP_MARK, dir=path.parent)
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


def write_text_atomic(path: Path, text: str, *, durable: bool = True, inputs: str | None = None) -> bool:
    """Write ``text`` (UTF-8) to ``path`` atomically; return False when it was already there."""
    return write_bytes_atomic(path, text.encode("utf-8"), durable=durable, inputs=inputs)
