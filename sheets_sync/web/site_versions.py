"""The hosted site of a tournament changes all at once: the sync writes, then the server switches.

A sync writes the site into its own folder, ``DATA/sites/<pk>/site/``, file by file and only what
changed (:mod:`sheets_sync.files`: unchanged pages are not even rendered). That folder is never
served: a sync that stops half-way — a full disk, a killed worker — would leave it half old, half
new. After a sync that finished, :func:`switch_site` makes a version of it, ``versions/<n>/``, of
hard links (a file written by the sync is always a new file renamed into place, so a link keeps
the old page as it was; a version costs directory entries, not data), then writes the pointer
``current`` (one atomic rename) naming it. ``/t/<slug>/`` serves :func:`served_site`, the version
the pointer names. Versions older than the one before are removed (a request may still be reading
the one before). A disk too full even for the links leaves the pointer where it was:
:class:`~sheets_sync.files.OutputNotWritten`, as a sync that could not write.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
from pathlib import Path

from sheets_sync.files import TEMP_MARK, not_written, write_text_atomic

__all__ = ["served_site", "switch_site", "SITE", "VERSIONS", "POINTER"]

SITE, VERSIONS, POINTER = "site", "versions", "current"
_FULL = {errno.ENOSPC, errno.EDQUOT}


def _current(out: Path) -> str | None:
    try:
        name = (out / POINTER).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return name if name.isdigit() and (out / VERSIONS / name).is_dir() else None


def served_site(out: Path) -> Path:
    """The site ``/t/<slug>/`` serves for the output folder ``out``: the version ``current`` names;
    before the first switch (a server upgraded from before versions), the sync's own folder."""
    name = _current(out)
    return out / VERSIONS / name if name is not None else out / SITE


def switch_site(out: Path, *, changed: bool = True) -> Path | None:
    """Serve what the sync wrote into ``out/site``: a new version and the pointer switched to it
    (``changed`` False and a version already served: nothing to do). The version served, or None
    when no sync wrote a site yet."""
    site = out / SITE
    if not (site / "index.html").is_file():
        return None
    if not changed and _current(out) is not None:
        return served_site(out)
    versions = out / VERSIONS
    versions.mkdir(exist_ok=True)
    number = 1 + max((int(p.name) for p in versions.iterdir() if p.name.isdigit()), default=0)
    part, version = versions / f"{number}.part", versions / str(number)
    try:
        _link_tree(site, part)
        os.rename(part, version)
        write_text_atomic(out / POINTER, f"{number}\n")
    except OSError as exc:  # the pointer still names the version before: it stays served, whole
        shutil.rmtree(part, ignore_errors=True)
        if _current(out) != str(number):
            shutil.rmtree(version, ignore_errors=True)
        raise (not_written(exc, out / POINTER) or exc) from exc
    _drop_old(versions, keep={str(number), str(number - 1)})
    return version


def _link_tree(source: Path, target: Path) -> None:
    """``target`` as a tree of hard links to ``source``'s files (copies where links are refused);
    the sync's temporary files are left out."""
    for folder, _dirs, names in os.walk(source):
        here = target / Path(folder).relative_to(source)
        here.mkdir(parents=True, exist_ok=True)
        for name in names:
            if name.endswith(TEMP_MARK):
                continue
            try:
                os.link(Path(folder) / name, here / name)
            except OSError as exc:
                if exc.errno in _FULL:
                    raise
                shutil.copy2(Path(folder) / name, here / name)  # a file system without hard links


def _drop_old(versions: Path, keep: set[str]) -> None:
    for path in versions.iterdir():
        if path.name not in keep:
            with contextlib.suppress(OSError):  # a file still open (Windows): removed after the next sync
                shutil.rmtree(path)

