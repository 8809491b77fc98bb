"""The Excel backend: an ``.xlsx`` file read and written with openpyxl.

One read loads the workbook once; the patch is applied to that same in-memory workbook
and saved to a temporary file beside the original, fsynced, and moved over it with
``os.replace`` only if the file has not changed since the read (size, mtime, content
hash).  A reader therefore sees either the old or the new workbook, never half of one,
and a judge's save between our read and our write is never overwritten.

The race window.  "Check, then replace" is two system calls, not one: a program that
saves the workbook *between* our last check and our ``rename(2)`` would be overwritten.
We keep that window as small as it can be and close it for everybody who cooperates:

* Excel and LibreOffice announce an open workbook with a lock file (``~$name.xlsx``,
  ``.~lock.name.xlsx#``); while one exists we write nothing (:class:`WorkbookLocked`,
  ``watch`` retries on its next poll).  A judge typing in Excel therefore never races us.
* Every slow step (openpyxl's save, fsync, the backup copy, hashing) happens before the
  final check.  The check itself is: lock files, then (size, mtime, inode) and the
  SHA-256 of the bytes, then one last ``stat`` immediately before ``os.replace``: the
  remaining window is a ``stat`` and a ``rename`` apart (microseconds).
* Cooperating writers (a second ``sheets-sync``, scripts, the tests' editor) take
  :func:`workbook_lock` — an exclusive ``flock`` on the workbook's folder — around their
  own check-and-replace; we hold it around ours, so for them the window is closed.
* The version we replace is copied first into ``<folder>/sheets-sync-backups/`` (the last
  ``backups`` versions are kept), so even a lost race or a bad sync can be undone by hand.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import io
import os
import re
import tempfile
import time as _time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from typing import TYPE_CHECKING

from sheets_sync.backends.base import (
    NOTE_AUTHOR,
    BackendError,
    Patch,
    PermissionDenied,
    Snapshot,
    UnsafeWorkbook,
    WorkbookChanged,
    WorkbookLocked,
    WorkbookNotFound,
)
from sheets_sync.backends.excel_worker import WorkbookWorker, WorkerFailed
from sheets_sync.backends.xlsx_values import openpyxl_reading, read_values, same_values
from sheets_sync.files import new_file_mode

if TYPE_CHECKING:
    from openpyxl.workbook.workbook import Workbook

# openpyxl is imported where it is used: a first sync through the worker (excel_worker) never
# loads it in this process, and its import is a tenth of a small tournament's sync

__all__ = ["ExcelBackend", "OutputWorkbookBackend", "Fingerprint", "lock_files", "workbook_lock", "backup_dir",
           "DEFAULT_BACKUPS", "unsafe_parts", "NOTE_AUTHOR"]
# what the worker calls to apply a patch to its workbook (by name: this process need not import it)
APPLY_PATCH = "sheets_sync.backends.excel_write:apply_patch"

DEFAULT_BACKUPS = 5
BACKUP_FOLDER = "sheets-sync-backups"
_TMP_SUFFIX = ".sheets-sync-tmp"

# zip members openpyxl cannot round-trip: saving would silently drop them
_UNSAFE_PARTS = {
    "xl/slicers/": "slicers",
    "xl/slicerCaches/": "slicers",
    "xl/timelines/": "timelines",
    "xl/timelineCaches/": "timelines",
    "xl/vbaProject.bin": "macros (VBA)",
    "xl/pivotTables/": "pivot tables",
    "xl/pivotCache/": "pivot tables",
    "xl/ctrlProps/": "form controls",
    "xl/activeX/": "ActiveX controls",
    "xl/embeddings/": "embedded objects (OLE)",
    "xl/threadedComments/": "threaded comments (Excel 365; only their plain-note copies would stay)",
    "xl/model/": "a data model (Power Pivot)",
    "xl/queryTables/": "query tables",
}
# worksheet <extLst> entries by uri (as openpyxl names them, in words an organizer knows)
_EXT_NAMES = {
    "{78C0D931-6437-407D-A8EE-F0AAD7539E65}": "Excel 2010+ conditional formatting (data bars, icon sets)",
    "{CCE6A557-97BC-4B89-ADB6-D9C93CAAB3DF}": "Excel 2010+ drop-down lists (data validation referring to other tabs)",
    "{05C60535-1F16-4FD2-B633-F4F36F0B64E0}": "sparklines",
    "{A8765BA9-456A-4DAB-B4F3-ACF838C121DE}": "slicers",
    "{3A4CF648-6AED-40F4-86FF-DC5316D8AED3}": "slicers",
    "{7E03D99C-DC04-49D9-9315-930204A7B6E9}": "timelines",
    "{FC87AEE6-9EDD-4A0A-B7FB-166176984837}": "Excel 2010+ protected ranges",
    "{F7C9EE02-42E1-4005-9D12-6889AFFD525C}": "web extensions (add-ins)",
}
_EXT_URI = re.compile(rb'<(?:\w+:)?ext\b[^>]*\buri="([^"]+)"')
_EXT_LST = re.compile(rb"<(?:\w+:)?extLst\b.*?</(?:\w+:)?extLst>", re.S)
# drawing elements openpyxl drops: shapes/text boxes (sp), groups, connectors, and
# Excel 2010+ alternate content (form controls, newer shapes)
_DRAWING_SHAPES = re.compile(rb"<(?:\w+:)?(?:sp|grpSp|cxnSp)[\s>/]|<mc:AlternateContent\b")


@dataclass(frozen=True, slots=True)
class Fingerprint:
    size: int
    mtime_ns: int
    sha256: str

    @classmethod
    def of(cls, path: Path) -> "Fingerprint":
        st = path.stat()
        return cls(st.st_size, st.st_mtime_ns, hashlib.sha256(path.read_bytes()).hexdigest())


@dataclass(slots=True)
class _Token:
    fingerprint: Fingerprint
    workbook: Workbook | WorkbookWorker | None  # loaded once at read (here or by the worker), reused by apply
    unsafe_parts: tuple[str, ...]
    data: bytes = b""  # the bytes read: the backup of the version we replace
    inode: int = 0
    settled: bool = True  # the values are openpyxl's (False: the quick reading, not yet compared)


@contextlib.contextmanager
def workbook_lock(path: str | os.PathLike[str], timeout: float = 10.0) -> Iterator[None]:
    """Exclusive advisory lock (``flock``) on the workbook's folder, for cooperating writers.

    Held by :class:`ExcelBackend` from its final check to its ``os.replace``; another
    program that saves the workbook atomically can hold it around its own read-check-replace
    so the two never overwrite each other.  Raises :class:`WorkbookLocked` after ``timeout``
    seconds.  A no-op where ``flock`` is unavailable (Windows, some network file systems).
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    folder = Path(path).resolve().parent
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        yield
        return
    try:
        deadline = _time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if _time.monotonic() > deadline:
                    raise WorkbookLocked(f"another program kept {Path(path).name} locked for {timeout:g} s; "
                                         "nothing written, will retry") from None
                _time.sleep(0.005)
            except OSError:  # flock unsupported here: carry on without it
                break
        try:
            yield
        finally:
            with contextlib.suppress(OSError):
                fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _file_mode(path: Path) -> int:
    """Permission bits for a new version of ``path``: the old file's, else 0666 minus umask."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        return new_file_mode()


def backup_dir(path: Path) -> Path:
    return path.parent / BACKUP_FOLDER


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists but not ours, or no permission to ask
        return True
    return True


def _remove_stale_temps(folder: Path, name: str) -> None:
    """Temp files of a sync that was killed mid-save (their pid is gone)."""
    prefix = f".{name}."
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if not (entry.name.startswith(prefix) and entry.name.endswith(_TMP_SUFFIX)):
            continue
        middle = entry.name[len(prefix):-len(_TMP_SUFFIX)]
        pid = middle.split(".", 1)[0]
        if pid.isdigit() and not _pid_alive(int(pid)):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)


def lock_files(path: Path) -> list[Path]:
    """Lock files that show Excel or LibreOffice holds ``path`` open."""
    candidates = [path.with_name(f"~${path.name}"), path.with_name(f".~lock.{path.name}#")]
    if len(path.name) > 2:  # Excel shortens long names: ~$ replaces the first two characters
        candidates.append(path.with_name(f"~${path.name[2:]}"))
    return [p for p in candidates if p.exists()]


def _locked(path: Path, lock: Path, *, during: bool) -> WorkbookLocked:
    """The error for ``path`` held open by Excel or LibreOffice (``lock``); it knows both files."""
    if during:
        en = (f"{path.name} was opened in Excel or LibreOffice during the sync ({lock.name}); nothing written — "
              "the sync will retry")
        ru = (f"{path.name} открыли в Excel или LibreOffice во время синхронизации ({lock.name}); ничего не записано "
              "— попробую ещё раз")
    else:
        en = (f"{path.name} is open in Excel or LibreOffice ({lock.name}); not writing now — close it and run the "
              "command again")
        ru = f"{path.name} открыта в Excel или LibreOffice ({lock.name}); запись невозможна — закройте файл и повторите"
    exc = WorkbookLocked(en, ru=ru)
    exc.path, exc.lock = path, lock
    return exc


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while openpyxl builds or writes its many small
    objects (none of them garbage yet): 7-20 % of a sync's time, 1-2 % more memory."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class ExcelBackend:
    account_email = None  # an .xlsx has no per-person rights

    def __init__(self, path: str | os.PathLike[str], *, check_locks: bool = True, allow_unsafe: bool = False,
                 backups: int = DEFAULT_BACKUPS, lock_timeout: float = 10.0, protect_password: str | None = None):
        self.path = Path(path)
        self.protect_password = protect_password  # the tabs the sync protects get it (Excel's hash of it)
        self.source = str(self.path)
        self.check_locks = check_locks
        self.allow_unsafe = allow_unsafe
        self.backups = max(0, int(backups))
        self.lock_timeout = lock_timeout
        # (size, mtime_ns) of the file as we last wrote it: `watch` uses it to tell our own
        # save from a judge's (taken from the temp file before the rename, so a save by
        # somebody else right after ours is never mistaken for ours)
        self.written_stat: tuple[int, int, int] | None = None  # (size, mtime_ns, inode)
        self.last_backup: Path | None = None
        self._last_backup_sha: str | None = None
        self.written_fingerprint: str | None = None  # SHA-256 of the bytes of our last save
        # a worker the command line forked with the file's bytes before it loaded the rest of the
        # program (sheets_sync.backends.excel_worker): the next read uses it
        self.prefetched: WorkbookWorker | None = None
        self._workers: list[WorkbookWorker] = []
        # a patch the worker is already saving (prepare): (patch, token, its temporary file)
        self._prepared: tuple[Patch, _Token, Path] | None = None

    def fingerprint(self) -> str | None:
        """SHA-256 of the file's bytes: the whole workbook, without openpyxl (milliseconds)."""
        try:
            return hashlib.sha256(self.path.read_bytes()).hexdigest()
        except OSError:
            return None

    def link_supported(self) -> bool:
        return True

    # -- read -------------------------------------------------------------------------------
    def read(self) -> Snapshot:
        worker, self.prefetched = self.prefetched, None
        if worker is not None:
            snapshot = self._read_with(worker)
            if snapshot is not None:
                return snapshot
            worker.close()
        if not self.path.exists():
            raise WorkbookNotFound(f"{self.path}: no such workbook")
        # a sync killed mid-save leaves its temp file; the next cycle tidies up even when it writes nothing
        _remove_stale_temps(self.path.parent, self.path.name)
        try:
            data = self.path.read_bytes()
        except PermissionError as exc:
            raise PermissionDenied(f"{self.path}: cannot read ({exc.strerror})") from exc
        st = self.path.stat()
        if st.st_size != len(data):  # saved while we read it: read again
            return self.read()
        fingerprint = Fingerprint(len(data), st.st_mtime_ns, hashlib.sha256(data).hexdigest())
        # the collector is off for the load and the read-out as one step (many small objects, none
        # of them garbage yet): switched back on between tabs, it walked them all again each time
        with gc_paused():
            try:
                unsafe = unsafe_parts(io.BytesIO(data))
                wb, order, tabs = openpyxl_reading(data)
            except (zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
                raise BackendError(f"{self.path}: not a readable .xlsx workbook ({exc})") from exc
        return Snapshot(tabs=tabs, order=order, source=self.source, token=_Token(fingerprint, wb, unsafe, data, st.st_ino), fingerprint=fingerprint.sha256)

    def _read_with(self, worker: WorkbookWorker) -> Snapshot | None:
        """The snapshot of the bytes the worker holds, by the quick reader (openpyxl's reading,
        from the worker, when the quick one gives up); None when the file changed since the
        worker read it or the worker failed (read here, as usual)."""
        if worker.path.resolve() != self.path.resolve() or not worker.same_file():
            return None
        _remove_stale_temps(self.path.parent, self.path.name)
        data, st = worker.data, worker.stat
        fingerprint = Fingerprint(len(data), st.st_mtime_ns, hashlib.sha256(data).hexdigest())
        try:
            unsafe = unsafe_parts(io.BytesIO(data))
        except (zipfile.BadZipFile, KeyError, ValueError, OSError):
            return None  # the usual read reports it
        quick = read_values(data)
        try:
            order, tabs = quick if quick is not None else worker.values()
        except WorkerFailed:
            return None
        self._workers.append(worker)
        return Snapshot(tabs=tabs, order=order, source=self.source,
                        token=_Token(fingerprint, worker, unsafe, data, st.st_ino, settled=quick is None),
                        fingerprint=fingerprint.sha256)

    def settle(self, snapshot: Snapshot) -> Snapshot:
        """``snapshot`` when its values are openpyxl's; else (the quick reading of a worker's
        read) compared cell by cell, types too, with openpyxl's: the same snapshot when they
        agree, a snapshot of openpyxl's values when they do not — the sync computes again from
        it.  Called before anything computed from the snapshot is written."""
        token = snapshot.token
        if not isinstance(token, _Token) or token.settled:
            return snapshot
        worker = token.workbook
        try:
            order, tabs = worker.values() if isinstance(worker, WorkbookWorker) else (None, None)
        except WorkerFailed:
            order, tabs = None, None
        if order is None:  # the worker is gone: openpyxl's reading here, and its workbook for the write
            with gc_paused():
                token.workbook, order, tabs = openpyxl_reading(token.data)
        token.settled = True
        if order == snapshot.order and same_values(tabs, snapshot.tabs):
            return snapshot
        import logging

        logging.getLogger(__name__).warning("%s: the quick reading differed from openpyxl's; computed again",
                                            self.path.name)
        return Snapshot(tabs=tabs, order=order, source=snapshot.source, token=token)

    def release(self) -> None:
        """Stop the workers of reads whose snapshot was not written (nothing to write, a dry run),
        and a prefetched one no read used (the sync saw that nothing changed)."""
        workers, self._workers = self._workers, []
        if self.prefetched is not None:
            workers.append(self.prefetched)
            self.prefetched = None
        for worker in workers:
            worker.close()
        prepared, self._prepared = self._prepared, None
        if prepared is not None:  # prepared, never applied: its worker is stopped (above), its file goes
            prepared[2].unlink(missing_ok=True)

    def settle_ready(self, snapshot: Snapshot) -> bool:
        """Whether :meth:`settle` would answer without waiting for the worker's load."""
        token = snapshot.token
        if not isinstance(token, _Token) or token.settled:
            return True
        return not isinstance(token.workbook, WorkbookWorker) or token.workbook.ready()

    def prepare(self, patch: Patch, *, base: Snapshot | None) -> None:
        """Start writing ``patch`` before :meth:`apply` is called: the worker holding the workbook
        applies it and saves into a temporary file beside the workbook while this process renders
        the files; :meth:`apply` then waits for it, checks that nobody saved the workbook meanwhile,
        and renames.  Nothing happens here unless the read's workbook is in a worker and the
        checks :meth:`apply` makes before writing pass (it then raises as usual)."""
        token = base.token if base is not None and isinstance(base.token, _Token) else None
        if (patch.empty or token is None or not isinstance(token.workbook, WorkbookWorker) or not token.settled
                or self._prepared is not None):
            return
        if (self.check_locks and lock_files(self.path)) or (token.unsafe_parts and not self.allow_unsafe):
            return
        try:
            for w in patch.writes:
                check_tab_title(w.title)
            tmp = self._new_temp()
        except (BackendError, OSError):
            return
        try:
            token.workbook.begin_save(APPLY_PATCH, patch, tmp)
        except WorkerFailed:  # apply() loads and saves here instead
            tmp.unlink(missing_ok=True)
            return
        self._prepared = (patch, token, tmp)

    def _new_temp(self) -> Path:
        """A new, empty temporary file beside the workbook, with the workbook's permissions."""
        _remove_stale_temps(self.path.parent, self.path.name)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{self.path.name}.{os.getpid()}.", suffix=_TMP_SUFFIX,
                                        dir=self.path.parent)
        os.close(fd)
        with contextlib.suppress(OSError):  # mkstemp makes 0600: keep the workbook's own permissions
            os.chmod(tmp_name, _file_mode(self.path))
        return Path(tmp_name)

    # -- write ------------------------------------------------------------------------------
    def apply(self, patch: Patch, *, base: Snapshot | None) -> str | None:
        """Write ``patch``; the SHA-256 of the bytes saved."""
        self._apply(patch, base=base)
        return self.written_fingerprint

    def _apply(self, patch: Patch, *, base: Snapshot | None) -> None:
        token = base.token if base is not None and isinstance(base.token, _Token) else None
        prepared, self._prepared = self._prepared, None
        if prepared is not None and (prepared[0] is not patch or prepared[1] is not token):
            self._prepared = prepared  # another patch: release() stops it
            prepared = None
        if prepared is not None:
            try:
                self._apply_prepared(patch, token, prepared[2])
            finally:
                prepared[2].unlink(missing_ok=True)  # renamed over the workbook, or not wanted
            return
        if patch.empty:
            return
        if self.check_locks:
            locks = lock_files(self.path)
            if locks:
                raise _locked(self.path, locks[0], during=False)
        backup = b""
        if token is not None and token.workbook is not None:
            wb = token.workbook
            token.workbook = None  # one save per load (openpyxl cannot save twice with images)
            unsafe = token.unsafe_parts
            backup = token.data
        elif self.path.exists():
            backup = self.path.read_bytes()
            wb = self._load(backup)
            unsafe = unsafe_parts(io.BytesIO(backup))
        else:
            import openpyxl

            wb = openpyxl.Workbook()
            wb.remove(wb.active)
            unsafe = ()
        if unsafe and not self.allow_unsafe:
            if isinstance(wb, WorkbookWorker):
                wb.close()
            raise UnsafeWorkbook(unsafe_message(self.path, unsafe))
        for w in patch.writes:
            check_tab_title(w.title)
        if isinstance(wb, WorkbookWorker):  # the worker applies the patch and saves; checks and rename here
            worker = wb

            def write(tmp: Path) -> None:
                try:
                    worker.save(APPLY_PATCH, patch, tmp)
                except WorkerFailed:
                    self._write_here(backup, patch, tmp)
        else:
            from sheets_sync.backends.excel_write import apply_patch

            apply_patch(wb, patch)

            def write(tmp: Path) -> None:
                self._write_workbook(wb, tmp)
        # with a base, the file must still be exactly what it was read from (else the
        # content on disk and `backup` may differ; the check below catches that too)
        self._save(write, token.fingerprint if token is not None else None, token.inode if token is not None else 0,
                   backup)

    def _apply_prepared(self, patch: Patch, token: _Token, tmp: Path) -> None:
        """:meth:`apply` of a patch :meth:`prepare` handed to the worker: the same checks, then
        wait for the worker's file (or, if it died, write it here) and rename it."""
        if self.check_locks:
            locks = lock_files(self.path)
            if locks:
                raise _locked(self.path, locks[0], during=False)
        worker, token.workbook = token.workbook, None  # one save per load
        backup = token.data

        def write(path: Path) -> None:
            try:
                worker.finish_save()
            except WorkerFailed:
                self._write_here(backup, patch, path)

        self._save(write, token.fingerprint, token.inode, backup, tmp=tmp)

    def _write_here(self, data: bytes, patch: Patch, tmp: Path) -> None:
        """The worker died: load ``data``, apply ``patch`` and save into ``tmp`` in this process."""
        from sheets_sync.backends.excel_write import apply_patch

        local = self._load(data)
        apply_patch(local, patch)
        self._write_workbook(local, tmp)

    def _load(self, data: bytes) -> Workbook:
        import openpyxl

        try:
            with gc_paused():
                return openpyxl.load_workbook(io.BytesIO(data))
        except (zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
            raise BackendError(f"{self.path}: not a readable .xlsx workbook ({exc}); nothing written") from exc

    @staticmethod
    def _write_workbook(wb: Workbook, tmp: Path) -> None:
        with open(tmp, "wb") as fh, gc_paused():
            wb.save(fh)
            fh.flush()
            os.fsync(fh.fileno())

    def _save(self, write, expected: Fingerprint | None, inode: int, backup: bytes, tmp: Path | None = None) -> None:
        """``write(path)`` the new workbook into a temporary file beside it (and fsync it), then
        check that nobody saved the workbook meanwhile and move the file over it.  With ``tmp``
        (a prepared save), that file is the one: ``write`` waits for it."""
        folder = self.path.parent
        mode = _file_mode(self.path)
        if tmp is None:
            tmp = self._new_temp()
        try:
            # the slow part, before any check: serialise, flush to disk, back up the old version
            write(tmp)
            st_tmp = tmp.stat()
            written_sha = hashlib.sha256(tmp.read_bytes()).hexdigest()
            if backup and self.backups:
                self._backup(backup, mode)
            with workbook_lock(self.path, self.lock_timeout):
                self._check_unchanged(expected, inode)
                if expected is not None:  # the last look, a stat away from the rename
                    try:
                        st = self.path.stat()
                    except FileNotFoundError:
                        st = None
                    if (st is None or (st.st_size, st.st_mtime_ns) != (expected.size, expected.mtime_ns)
                            or (inode and st.st_ino != inode)):
                        raise WorkbookChanged(f"{self.path.name} was saved by someone else during the sync; "
                                              "nothing written")
                os.replace(tmp, self.path)
            self.written_stat = (st_tmp.st_size, st_tmp.st_mtime_ns, st_tmp.st_ino)
            self.written_fingerprint = written_sha
            try:  # make the rename itself durable
                dfd = os.open(folder, os.O_RDONLY)
                try:
                    os.fsync(dfd)
                finally:
                    os.close(dfd)
            except OSError:
                pass
        finally:
            if tmp.exists():
                tmp.unlink()

    def _check_unchanged(self, expected: Fingerprint | None, inode: int) -> None:
        if self.check_locks:
            locks = lock_files(self.path)
            if locks:
                raise _locked(self.path, locks[0], during=True)
        if expected is None:
            return
        try:
            st = self.path.stat()
        except FileNotFoundError:
            raise WorkbookChanged(f"{self.path.name} was moved or deleted during the sync; nothing written") from None
        same = (st.st_size, st.st_mtime_ns) == (expected.size, expected.mtime_ns)
        if same and inode and st.st_ino != inode:
            same = False
        if same:
            same = hashlib.sha256(self.path.read_bytes()).hexdigest() == expected.sha256
        if not same:
            raise WorkbookChanged(f"{self.path.name} was saved by someone else during the sync; nothing written")

    def _backup(self, data: bytes, mode: int) -> None:
        """Keep the version we are about to replace; prune to the last ``self.backups``."""
        digest = hashlib.sha256(data).hexdigest()
        if digest == self._last_backup_sha and self.last_backup is not None and self.last_backup.exists():
            return  # the same version again (a retried write): one copy is enough
        folder = backup_dir(self.path)
        try:
            folder.mkdir(exist_ok=True)
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
            target = folder / f"{self.path.stem}.{stamp}{self.path.suffix}"
            n = 1
            while target.exists():
                target = folder / f"{self.path.stem}.{stamp}-{n}{self.path.suffix}"
                n += 1
            part = folder / f".{target.name}.{os.getpid()}{_TMP_SUFFIX}"
            fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.chmod(part, mode)  # as private as the workbook itself
            os.replace(part, target)
            self.last_backup = target
            self._last_backup_sha = digest
            self._prune_backups(folder)
        except OSError as exc:  # a backup that cannot be made must not stop the sync; say why
            import logging

            logging.getLogger(__name__).warning("could not keep a backup of %s in %s: %s", self.path.name, folder,
                                                exc.strerror or exc)

    def _prune_backups(self, folder: Path) -> None:
        pattern = re.compile(re.escape(self.path.stem) + r"\.\d{8}-\d{6}-\d{6}(-\d+)?" + re.escape(self.path.suffix) + "$")
        mine = sorted((p for p in folder.iterdir() if pattern.match(p.name)), key=lambda p: p.name)
        for old in mine[: max(0, len(mine) - self.backups)]:
            with contextlib.suppress(OSError):
                old.unlink()

    def backups_list(self) -> list[Path]:
        folder = backup_dir(self.path)
        if not folder.is_dir():
            return []
        pattern = re.compile(re.escape(self.path.stem) + r"\.\d{8}-\d{6}-\d{6}(-\d+)?" + re.escape(self.path.suffix) + "$")
        return sorted((p for p in folder.iterdir() if pattern.match(p.name)), key=lambda p: p.name)


class OutputWorkbookBackend:
    """Read the tournament from one workbook, write the owned tabs to another (``--output``).

    For a workbook that cannot be written safely (shapes, Excel 2010+ extensions…), or that
    the organizer prefers to keep untouched.  Marks in judges' cells need the input
    workbook, so they are not written; the Problems tab in the output lists every problem.
    """

    account_email = None  # an .xlsx has no per-person rights

    def __init__(self, source, output: str | os.PathLike[str], *, backups: int = DEFAULT_BACKUPS,
                 protect_password: str | None = None):
        self.input = source
        self.output = ExcelBackend(output, backups=backups)
        self.protect_password = protect_password
        self.source = source.source
        self.path = getattr(source, "path", None)  # what `watch` stats to notice a judge's save
        self.written_stat = None

    def link_supported(self) -> bool:
        return True  # links point at owned tabs, which live in the output workbook

    def fingerprint(self) -> str | None:
        """Both workbooks' fingerprints as one (None when the input's is unknown)."""
        source = self.input.fingerprint()
        if source is None:
            return None
        return hashlib.sha256(f"{source}\0{self.output.fingerprint() or ''}".encode()).hexdigest()

    def read(self) -> Snapshot:
        """The input workbook's tabs, with the output workbook's as ``results_workbook`` (empty
        before the first write): the sync takes the owned tabs from there, so it compares its
        results with what is really in the output."""
        snap = self.input.read()
        output = self.output.read() if self.output.path.exists() else Snapshot(tabs={}, order=())
        both = None
        if snap.fingerprint is not None:
            both = hashlib.sha256(f"{snap.fingerprint}\0{output.fingerprint or ''}".encode()).hexdigest()
        return replace(snap, results_workbook=output, fingerprint=both)

    def apply(self, patch: Patch, *, base: Snapshot | None) -> str | None:
        owned = tuple(w for w in patch.writes if w.owned)
        if owned:
            current = self.output.read() if self.output.path.exists() else None
            self.output.apply(Patch(writes=owned, protect=patch.protect, protect_password=patch.protect_password),
                              base=current)
        return self.fingerprint()


_BAD_TITLE_CHARS = set('[]:*?/\\')


def check_tab_title(title: str) -> None:
    """Excel's rules for a tab name, as a clear error instead of a file Excel refuses to open."""
    bad = sorted(set(title) & _BAD_TITLE_CHARS)
    if not title.strip():
        reason = "it is empty"
    elif len(title) > 31:
        reason = f"it has {len(title)} characters, Excel allows 31"
    elif bad:
        reason = "Excel does not allow " + " ".join(bad) + " in tab names"
    elif title.startswith("'") or title.endswith("'"):
        reason = "Excel does not allow ' at the start or end of a tab name"
    elif title.lower() == "history":
        reason = "Excel reserves the name History"
    else:
        return
    raise BackendError(f"cannot create the tab {title[:40]!r}{'…' if len(title) > 40 else ''}: {reason}; "
                       "nothing written")


def unsafe_message(path: Path, parts: tuple[str, ...]) -> str:
    return (
        f"{path.name} contains {', '.join(parts)}. openpyxl, which sheets-sync uses to write .xlsx files, "
        "cannot keep these: saving the workbook would silently delete them, so nothing was written. "
        f"Either write the results to a separate workbook (sheets-sync sync {path.name} --output results.xlsx; "
        "the judges keep typing into this one), or remove these objects from the workbook, or use a Google "
        "spreadsheet."
    )


def unsafe_parts(source) -> tuple[str, ...]:
    """What saving with openpyxl would drop, in words (empty: safe to write).

    ``source``: a path or a binary file object holding an .xlsx.
    """
    found: set[str] = set()
    try:
        with zipfile.ZipFile(source) as zf:
            names = zf.namelist()
            for n in names:
                for prefix, what in _UNSAFE_PARTS.items():
                    if n.startswith(prefix):
                        found.add(what)
                # notes live in xl/drawings/*.vml, which openpyxl rewrites; shapes and text boxes
                # live in drawingN.xml as <xdr:sp> and are dropped on save
                if n.startswith("xl/drawings/") and n.endswith(".xml") and "/_rels/" not in n:
                    if _DRAWING_SHAPES.search(zf.read(n)):
                        found.add("shapes or text boxes")
                elif n.startswith("xl/worksheets/") and n.endswith(".xml") and "/_rels/" not in n:
                    xml = zf.read(n)
                    if b"extLst" in xml:
                        for block in _EXT_LST.findall(xml):
                            uris = _EXT_URI.findall(block) or [b"?"]
                            for uri in uris:
                                found.add(_EXT_NAMES.get(uri.decode("ascii", "replace").upper(),
                                                         "Excel 2010+ extensions (extLst)"))
    except zipfile.BadZipFile:
        return ()
    return tuple(sorted(found))


_unsafe_parts = unsafe_parts  # the old private name
