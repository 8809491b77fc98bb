"""openpyxl's part of a sync in a forked process, started before the rest of the program loads.

A first ``sync`` of an .xlsx is two slow openpyxl steps (the load, the save) with our work in
between (imports, reading, scoring, the patch).  The worker takes the openpyxl steps off the
critical path: the command line forks it as soon as it knows the workbook, with the file's bytes;
the worker imports openpyxl, loads the workbook and reads its values while this process imports
everything else, reads the same values with :mod:`~sheets_sync.backends.xlsx_values` (a few
times faster) and computes.  The worker then applies the patch and saves into the temporary file
:class:`~sheets_sync.backends.excel.ExcelBackend` chose; every check and the rename stay here.

Safety: the values the worker read with openpyxl are the ones a sync without the worker uses;
:meth:`ExcelBackend.settle` compares them cell by cell (types too) with the quick reading before
anything is written, and a difference makes the sync compute again from openpyxl's.  A worker
that cannot start, dies or fails to load leaves the read to this process, as before.

One message each way through a pipe, pickled: ``values`` (or the load's exception) from the
worker; then ``(patch, temporary file)`` or nothing to it (a closed pipe: it exits); then ``saved``
(or the save's exception) from it.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import pickle
import signal
import threading
from pathlib import Path

__all__ = ["WorkbookWorker", "WorkerFailed"]


class WorkerFailed(Exception):
    """The worker died or could not load the workbook: read it here instead."""


class WorkbookWorker:
    """A forked process holding openpyxl's workbook of ``data`` (the bytes of ``path`` as read,
    with their ``stat``)."""

    def __init__(self, path: Path, data: bytes, stat: os.stat_result, pid: int, to_worker: int, from_worker: int):
        self.path, self.data, self.stat = path, data, stat
        self._pid: int | None = pid
        self._to = os.fdopen(to_worker, "wb")
        self._from = os.fdopen(from_worker, "rb")
        self._values = None

    @classmethod
    def start(cls, path: Path) -> WorkbookWorker | None:
        """Read ``path`` and fork the worker; None where that cannot be done (no fork, threads
        running, an unreadable file): the backend then reads as usual."""
        if not hasattr(os, "fork") or threading.active_count() > 1:
            return None
        try:
            data = path.read_bytes()
            stat = path.stat()
        except OSError:
            return None
        if stat.st_size != len(data):  # saved while we read it
            return None
        down_r, down_w = os.pipe()
        up_r, up_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the worker
            code = 0
            try:
                os.close(down_w)
                os.close(up_r)
                _serve(data, os.fdopen(down_r, "rb"), os.fdopen(up_w, "wb"))
            except BaseException:  # noqa: BLE001 - whatever happens, leave without the parent's exit handlers
                code = 1
            finally:
                os._exit(code)
        os.close(down_r)
        os.close(up_w)
        return cls(path, data, stat, pid, down_w, up_r)

    def same_file(self) -> bool:
        """The file is still the one the worker loaded (size, modification time, inode)."""
        try:
            st = self.path.stat()
        except OSError:
            return False
        return (st.st_size, st.st_mtime_ns, st.st_ino) == (self.stat.st_size, self.stat.st_mtime_ns, self.stat.st_ino)

    def values(self) -> tuple[tuple[str, ...], dict]:
        """(tab order, values of every tab) as openpyxl read them (waits for the load)."""
        if self._values is None:
            ok, answer = self._receive()
            if not ok:
                self.close()
                raise WorkerFailed(str(answer))
            self._values = answer
        return self._values

    def ready(self) -> bool:
        """Whether :meth:`values` would answer without waiting (the load is done, or failed)."""
        if self._values is not None or self._pid is None:
            return True
        import select

        try:
            return bool(select.select([self._from], [], [], 0)[0])
        except (OSError, ValueError):
            return True  # a closed pipe: values() says so at once

    def save(self, apply: str, patch, target: Path) -> None:
        """``apply(workbook, patch)`` in the worker, then save the workbook into ``target`` (written
        and fsynced by the worker); the save's own exception is raised here.  ``apply`` is the
        function's name, ``"module:function"``: neither this module nor the process that asks need
        import it (or openpyxl)."""
        self.begin_save(apply, patch, target)
        self.finish_save()

    def begin_save(self, apply: str, patch, target: Path) -> None:
        """The first half of :meth:`save`: the worker starts, this process goes on."""
        self.values()  # the load succeeded (else: WorkerFailed)
        try:
            pickle.dump((apply, patch, str(target)), self._to, protocol=pickle.HIGHEST_PROTOCOL)
            self._to.flush()
        except (OSError, ValueError) as exc:  # a broken pipe, or one closed when it died before
            self.close()
            raise WorkerFailed(f"the worker is gone ({exc})") from exc

    def finish_save(self) -> None:
        """The second half of :meth:`save`: wait until the file is written."""
        ok, answer = self._receive()
        self._reap()
        if not ok:
            raise answer

    def close(self) -> None:
        """Stop the worker (it may still be loading) and reap it."""
        if self._pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._pid, signal.SIGKILL)
            self._reap()
        for fh in (self._to, self._from):
            with contextlib.suppress(OSError):
                fh.close()

    def _receive(self):
        try:
            return pickle.load(self._from)
        except (EOFError, OSError, pickle.UnpicklingError) as exc:
            self.close()
            return False, WorkerFailed(f"the worker ended without an answer ({type(exc).__name__})")

    def _reap(self) -> None:
        if self._pid is not None:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self._pid, 0)
            self._pid = None

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()


def _serve(data: bytes, down, up) -> None:
    """The worker: load, answer the values, then apply and save a patch if one comes."""
    import gc

    gc.disable()  # a short-lived process full of small objects, none of them garbage
    try:
        from sheets_sync.backends.xlsx_values import openpyxl_reading

        wb, order, tabs = openpyxl_reading(data)
        values = (order, tabs)
        answer = (True, values)
    except Exception as exc:  # noqa: BLE001 - the parent reads the workbook itself and reports
        answer, wb = (False, f"{type(exc).__name__}: {exc}"), None
    _send(up, answer)
    if wb is None:
        return
    try:
        apply, patch, target = pickle.load(down)
    except EOFError:  # nothing to write
        return
    try:
        module, _, name = apply.partition(":")
        getattr(importlib.import_module(module), name)(wb, patch)
        with open(target, "wb") as fh:
            wb.save(fh)
            fh.flush()
            os.fsync(fh.fileno())
        answer = (True, None)
    except Exception as exc:  # noqa: BLE001 - raised again in the parent
        answer = (False, exc)
    _send(up, answer)


def _send(up, answer) -> None:
    try:
        payload = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:  # noqa: BLE001 - an exception that cannot be pickled
        payload = pickle.dumps((False, RuntimeError(f"{type(answer[1]).__name__}: {answer[1]}")))
        del exc
    up.write(payload)
    up.flush()
