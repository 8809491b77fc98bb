"""Waiting for a local workbook to be saved: file-system events where the platform has them.

On Linux the kernel's inotify (through ``ctypes``, no extra package) wakes ``watch`` as soon
as a program closes the workbook after writing or renames a new version over it; elsewhere,
and whenever inotify cannot be set up, :func:`file_events` returns None and ``watch`` polls
every ``--interval`` seconds as before.  A save is usually several events (write, close,
rename of a temporary file): :meth:`FileEvents.wait` returns once they have been quiet for
``settle`` seconds, so one save wakes the watch once.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import select
import struct
import sys
import time
from pathlib import Path

__all__ = ["FileEvents", "file_events"]

_IN_MODIFY = 0x002
_IN_CLOSE_WRITE = 0x008
_IN_MOVED_TO = 0x080
_IN_CREATE = 0x100
_IN_DELETE = 0x200
_IN_NONBLOCK = os.O_NONBLOCK
_IN_CLOEXEC = 0o2000000
_EVENT = struct.Struct("iIII")


class FileEvents:
    """inotify on the workbook's folder, reporting events about the workbook's name only."""

    def __init__(self, path: Path, *, settle: float = 0.05):
        self.path = path
        self.settle = settle
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        fd = libc.inotify_init1(_IN_NONBLOCK | _IN_CLOEXEC)
        if fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")
        mask = _IN_CLOSE_WRITE | _IN_MOVED_TO | _IN_CREATE | _IN_DELETE | _IN_MODIFY
        folder = os.fsencode(str(path.parent.resolve()))
        if libc.inotify_add_watch(fd, folder, mask) < 0:
            err = ctypes.get_errno()
            os.close(fd)
            raise OSError(err, "inotify_add_watch")
        self.fd = fd
        self.name = os.fsencode(path.name)

    def _drain(self) -> bool:
        """Read every pending event; True if one was about the workbook."""
        hit = False
        while True:
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                return hit
            if not data:
                return hit
            offset = 0
            while offset + _EVENT.size <= len(data):
                _, _, _, length = _EVENT.unpack_from(data, offset)
                name = data[offset + _EVENT.size: offset + _EVENT.size + length].rstrip(b"\0")
                offset += _EVENT.size + length
                if name == self.name:
                    hit = True

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the workbook to be saved, then until its events
        have been quiet for ``settle`` seconds; True when it was touched."""
        deadline = time.monotonic() + max(0.0, timeout)
        touched = False
        while True:
            left = deadline - time.monotonic()
            if touched:
                left = self.settle
            elif left <= 0:
                return False
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                if touched:
                    return True
                continue
            if self._drain():
                touched = True

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.fd)


def file_events(path: Path | None) -> FileEvents | None:
    """Events for ``path`` where the platform has them (Linux inotify); None: poll instead."""
    if path is None or not sys.platform.startswith("linux"):
        return None
    try:
        return FileEvents(Path(path))
    except (OSError, AttributeError):
        return None
