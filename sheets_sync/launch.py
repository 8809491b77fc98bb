"""The ``sheets-sync`` program's entry point (the console script, ``python -m sheets_sync.cli``).

It runs the command line (:func:`sheets_sync.cli.main`) in a process of its own, with one shortcut:
``sheets-sync sync BOOK.xlsx`` (with at most ``--out DIR`` and ``--backups N``) whose workbook and
everything else are exactly as the last sync into that folder left them answers its one line
before the command line itself loads (click and our command modules are a third of such a
process).  Anything else — another command or option, a Google spreadsheet, a changed workbook,
an error of any kind in the shortcut — goes the usual way, which checks the same record again.
"""

from __future__ import annotations

import gc
import sys

__all__ = ["run"]

_VALUE_OPTIONS = ("--out", "--backups")


def run() -> None:
    try:
        if not _unchanged_sync(sys.argv[1:]):
            from sheets_sync.cli import main

            main()  # standalone: leaves through SystemExit, whatever happened
    finally:
        # What the command built (at 1000 players, millions of objects) is left out of the garbage
        # collection Python runs as it shuts down: freed all the same, but never scanned — 0.8 s
        # of a 1000-player sync.  Not in `main`, which the tests call inside their own process.
        gc.freeze()


def _unchanged_sync(args: list[str]) -> bool:
    """Whether ``args`` ask for a sync the last one already did; if so its line was printed."""
    if not args or args[0] != "sync":
        return False
    workbook, options = None, {}
    rest = iter(args[1:])
    for arg in rest:
        if arg in _VALUE_OPTIONS:
            value = next(rest, None)
            if value is None or arg in options:
                return False
            options[arg] = value
        elif arg.startswith("-") or workbook is not None:
            return False  # an option the shortcut does not know (--dry-run, --output, --help…)
        else:
            workbook = arg
    if workbook is None or ("--backups" in options and not options["--backups"].isdigit()):
        return False
    try:
        from pathlib import Path

        from sheets_sync.refs import is_google_ref, workbook_folder

        if is_google_ref(workbook) or not Path(workbook).is_file():
            return False
        from sheets_sync.last_sync import skipped_line, unchanged_file

        out_dir = Path(options["--out"]) if "--out" in options else workbook_folder(workbook)
        summary = unchanged_file(Path(workbook), out_dir)
        if summary is None:
            return False
        line = skipped_line(summary)
    except Exception:  # noqa: BLE001 - the usual way tells whatever went wrong
        return False
    print(line, flush=True)
    return True
