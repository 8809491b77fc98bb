"""`make demo`: sync the bundled example tournament and say where the results are."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from rich.console import Console

from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.commands import print_report
from sheets_sync.example import EXAMPLE_PATH, build_example
from sheets_sync.sync import sync_once


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--regenerate", action="store_true", help="replay the example tournament and rewrite the bundled workbook")
    parser.add_argument("--out", default="out/demo", help="folder for the synced copy and its outputs")
    args = parser.parse_args()
    console = Console(highlight=False)
    if args.regenerate or not EXAMPLE_PATH.exists():
        build_example()
        console.print(f"regenerated {EXAMPLE_PATH}")
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    workbook = out / EXAMPLE_PATH.name
    shutil.copyfile(EXAMPLE_PATH, workbook)  # the bundled file stays pristine
    report = sync_once(ExcelBackend(workbook), out_dir=out)
    print_report(report, console)
    console.print(f"\nResults: {workbook} (tabs Итоги, Отбор, Полуфинал, Финал, Проверка)")
    console.print(f"         {out / 'standings.json'}")
    for extra in ("site/index.html", "vk-post.txt", "vk-post.png"):
        if (out / extra).exists():
            console.print(f"         {out / extra}")


if __name__ == "__main__":
    main()
