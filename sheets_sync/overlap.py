"""Two slow steps of a sync at once: the public files are rendered in a forked process while
this one saves the workbook.

openpyxl's save and the site's rendering are both pure Python (one core each); on a machine
with two cores they overlap almost completely.  :func:`in_child` forks where the platform can
(POSIX ``fork``, and only in a process without other threads, which a fork would leave
half-copied); the child runs the function, sends its pickled result (or its exception) back
through a pipe and exits.  Elsewhere the function simply runs when its result is asked for.
"""

from __future__ import annotations

import os
import pickle
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["Pending", "in_child"]

T = TypeVar("T")


class Pending(Generic[T]):
    """A result being computed (in a child process, or later here)."""

    def __init__(self, fn: Callable[[], T], pid: int | None = None, fd: int | None = None):
        self._fn, self._pid, self._fd = fn, pid, fd

    @property
    def forked(self) -> bool:
        return self._pid is not None

    def result(self) -> T:
        if self._pid is None:
            return self._fn()
        chunks = []
        with os.fdopen(self._fd, "rb") as fh:
            while chunk := fh.read(1 << 20):
                chunks.append(chunk)
        _, status = os.waitpid(self._pid, 0)
        self._pid = None
        data = b"".join(chunks)
        if not data:  # the child died without a word (killed): do the work here
            return self._fn()
        ok, value = pickle.loads(data)
        if not ok:
            raise value
        return value


def in_child(fn: Callable[[], T], *, enabled: bool = True) -> Pending[T]:
    """Start ``fn`` in a forked child when that is possible and safe; its result is
    :meth:`Pending.result` (which runs ``fn`` here when no child was started)."""
    if not enabled or not hasattr(os, "fork") or threading.active_count() > 1:
        return Pending(fn)
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: run, answer, leave without running the parent's exit handlers
        code = 0
        try:
            os.close(read_fd)
            try:
                payload = pickle.dumps((True, fn()))
            except BaseException as exc:  # noqa: BLE001 - every failure goes back to the parent
                try:
                    payload = pickle.dumps((False, exc))
                except Exception:  # noqa: BLE001 - an exception that cannot be pickled
                    payload = pickle.dumps((False, RuntimeError(f"{type(exc).__name__}: {exc}")))
            with os.fdopen(write_fd, "wb") as fh:
                fh.write(payload)
        except BaseException:  # noqa: BLE001
            code = 1
        finally:
            os._exit(code)
    os.close(write_fd)
    return Pending(fn, pid, read_fd)
