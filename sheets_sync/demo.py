"""`make demo`: sync the bundled example tournament and say where the results are.

Two copies: the finished tournament (``out/demo/``, its outputs in ``out/demo/<name>.sheets-sync/``
as ``sheets-sync sync`` writes them) and the same tournament in the middle of qualifying
(``out/demo/mid/``: after round 3 of 7), so both the final and the provisional
outputs can be looked at; plus the printable seating and the VK seating post of the next round.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from rich.console import Console

from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.actions.sync import print_report
from sheets_sync.example import EXAMPLE_PATH, build_example, example_mid_qualifying
from sheets_sync.actions.export import write_workbook_seating_post, write_workbook_seating_print
from sheets_sync.files import output_folder
from sheets_sync.messages import system_language, text
from sheets_sync.loop.sync import sync_once


def main() -> None:
    language = system_language()  # until the example's own (Russian) is read
    parser = argparse.ArgumentParser(description=text("demo.about", language))
    parser.add_argument("--regenerate", action="store_true", help=text("demo.regenerate_help", language))
    parser.add_argument("--out", default="out/demo", help=text("demo.out_help", language))
    args = parser.parse_args()
    console = Console(highlight=False, emoji=False, soft_wrap=True)  # a path is never broken
    if args.regenerate or not EXAMPLE_PATH.exists():
        build_example()
        console.print(text("demo.regenerated", language, path=EXAMPLE_PATH), markup=False)
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    workbook = out / EXAMPLE_PATH.name
    shutil.copyfile(EXAMPLE_PATH, workbook)  # the bundled file stays pristine
    outputs = output_folder(str(workbook))  # where `sheets-sync sync` puts them: the workbook's own folder
    report = sync_once(ExcelBackend(workbook), out_dir=outputs)
    print_report(report, console)
    # the example's language (Russian), as the report above speaks it
    language = report.outcome.language if report.outcome is not None else language
    console.print("\n" + text("demo.results", language, path=workbook), markup=False)
    console.print(f"         {outputs / 'standings.json'}")
    for extra in ("site/index.html", "vk-post.txt", "vk-post.png"):
        if (outputs / extra).exists():
            console.print(f"         {outputs / extra}")

    mid = example_mid_qualifying(out / "mid" / f"{EXAMPLE_PATH.stem}-mid.xlsx")
    mid_outputs = output_folder(str(mid))
    sync_once(ExcelBackend(mid), out_dir=mid_outputs)
    console.print("\n" + text("demo.mid", language, path=mid), markup=False)
    for extra in ("site/index.html", "site/seating.html", "vk-post.txt", "vk-post.png"):
        console.print(f"         {mid_outputs / extra}")
    printed = write_workbook_seating_print(str(mid), round_no=4, stage=None, out=None)
    posted = write_workbook_seating_post(str(mid), round_no=4, stage=None, out=None)
    for path in printed.paths + posted.paths:
        console.print(f"         {path}")


if __name__ == "__main__":
    main()
