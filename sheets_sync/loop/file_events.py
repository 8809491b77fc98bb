"""Waiting for a local workbook to be saved: the operating system's file events.

`watchfiles <https://watchfiles.helpmanual.io>`_ (inotify on Linux, FSEvents on macOS,
ReadDirectoryChangesW on Windows) watches the workbook's folder in a thread of its own and
wakes ``watch`` as soon as the workbook is written or a new version is renamed over it.  A
save is usually several events (write, close, rename of a temporary file): watchfiles groups
those that come within ``settle`` seconds of each other, so one save wakes the watch once.
Without watchfiles, or where its watcher fails (no inotify watch left…), ``watch`` polls every
``--interval`` seconds.
"""

from __future__ import annotations

import threading
from pathlib import Path

__all__ = ["FileEvents", "file_events"]


class FileEvents:
    """The events of one file: :meth:`wait` returns True as soon as it was touched."""

    def __init__(self, path: Path, *, settle: float = 0.05):
        import watchfiles

        self.path = Path(path).resolve()
        self._touched = threading.Event()
        self._stop = threading.Event()
        self.failed: BaseException | None = None
        if not self.path.parent.is_dir():
            raise OSError(f"{self.path.parent}: no such folder")
        self._changes = watchfiles.watch(self.path.parent, watch_filter=self._about_the_workbook,
                                         step=max(1, round(settle * 1000)), stop_event=self._stop, recursive=False,
                                         raise_interrupt=False)
        self._thread = threading.Thread(target=self._listen, name="sheets-sync file events", daemon=True)
        self._thread.start()

    def _about_the_workbook(self, change: object, path: str) -> bool:
        return Path(path).name == self.path.name

    def _listen(self) -> None:
        try:
            for _ in self._changes:
                self._touched.set()
        except Exception as exc:  # noqa: BLE001 - a watcher that fails (no inotify left…) leaves watch to poll
            self.failed = exc

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the workbook to be saved (its events grouped);
        True when it was touched, False after the timeout (or at once when the watcher failed,
        after the timeout as a plain pause)."""
        touched = self._touched.wait(max(0.0, timeout))
        self._touched.clear()
        return touched and self.failed is None

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)


def file_events(path: Path | None) -> FileEvents | None:
    """Events for ``path`` where the platform gives them; None: poll instead."""
    if path is None:
        return None
    try:
        return FileEvents(Path(path))
    except (OSError, ImportError):
        return None
