"""Files beside the workbook: which folder they go to, and how they are written.

Every file sheets-sync writes for people (standings.json, the site, the VK post, printable
blanks) is written atomically — a temporary file in the same folder, then a rename — so a
web server or a browser sees the old file or the new one, never half of one.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from sheets_sync.refs import workbook_folder

__all__ = ["out_dir_for", "new_file_mode", "write_bytes_atomic", "write_text_atomic",
           "GOOGLE_OUTPUT_FOLDER"]

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


def write_bytes_atomic(path: Path, data: bytes, *, durable: bool = True) -> bool:
    """Write ``data`` to ``path`` atomically (temporary file + rename) with the usual
    permissions; return False when the content was already there.  ``durable`` fsyncs
    before the rename (skipped for the many pages of the site, which are regenerated anyway)."""
    if path.exists() and path.read_bytes() == data:
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


def write_text_atomic(path: Path, text: str, *, durable: bool = True) -> bool:
    """Write ``text`` (UTF-8) to ``path`` atomically; return False when it was already there."""
    return write_bytes_atomic(path, text.encode("utf-8"), durable=durable)
