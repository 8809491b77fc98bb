"""Commands that publish results people read: `export site`, `export vk`, `print-protocols`.

They read the workbook and compute the standings like `sync`, but write nothing into it.
"""

from __future__ import annotations

from pathlib import Path

import click

from sheets_sync.backends import open_backend
from sheets_sync.cli.common import console, credentials_option, out_dir_for, workbook_argument

__all__ = ["export", "print_protocols"]


def _outcome(workbook: str, credentials: str | None):
    from sheets_sync.sync import compute

    backend = open_backend(workbook, credentials=credentials)
    snapshot = backend.read()
    source = str(backend.source)
    base_dir = Path(source).parent if not source.startswith(("http", "gsheet:")) else None
    return compute(snapshot, base_dir=base_dir)


@click.group()
def export() -> None:
    """Write the results for people: the HTML site or the VK post."""


@export.command("site")
@workbook_argument
@click.option("--out", default=None, help="Folder of the site (default: site/ beside the workbook).")
@credentials_option
def export_site(workbook: str, out: str | None, credentials: str | None) -> None:
    """Static HTML site: standings, stages, players, games, statistics (prints on A4)."""
    from sheets_sync.render.site import write_site
    from sheets_sync.sync import public_view

    outcome = _outcome(workbook, credentials)
    results, problems = public_view(outcome)
    folder = Path(out) if out else out_dir_for(workbook, None) / "site"
    written = write_site(results, problems, folder, language=outcome.language)
    console.print(f"site: {folder / 'index.html'} ({len(written)} files changed)")


@export.command("vk")
@workbook_argument
@click.option("--out", default=None, help="Folder for vk-post.txt and vk-post.png (default: beside the workbook).")
@click.option("--link", default=None, help="Link to the full results, put into the post.")
@credentials_option
def export_vk(workbook: str, out: str | None, link: str | None, credentials: str | None) -> None:
    """A VK post: plain text ready to paste (vk-post.txt) and a picture of the final table (vk-post.png)."""
    from sheets_sync.render.vk import write_vk
    from sheets_sync.sync import public_view

    outcome = _outcome(workbook, credentials)
    results, _ = public_view(outcome)
    folder = out_dir_for(workbook, out)
    write_vk(results, folder, language=outcome.language, link=link)
    console.print(f"post: {folder / 'vk-post.txt'}")
    console.print(f"picture: {folder / 'vk-post.png'}")


@click.command("print-protocols")
@workbook_argument
@click.option("--round", "round_no", type=int, required=True, help="Round (game) number.")
@click.option("--stage", default=None, help="Stage key or name (default: the latest stage seated for the round).")
@click.option("--out", default=None, help="Folder for the blanks (default: protocols/ beside the workbook).")
@click.option("--pdf/--no-pdf", default=True, show_default=True, help="Also print a PDF with headless Chromium if installed.")
@credentials_option
def print_protocols(workbook: str, round_no: int, stage: str | None, out: str | None, pdf: bool,
                    credentials: str | None) -> None:
    """Protocol blanks for a round: one A4 page per table, players already filled in from the Seating tab."""
    from sheets_sync.render.protocols import blanks_filename, blanks_html, find_chromium, html_to_pdf, stage_for
    from sheets_sync.sync import write_text_atomic

    outcome = _outcome(workbook, credentials)
    t = outcome.results.tournament
    stage_key = stage_for(t, outcome.preset, round_no, stage)
    html = blanks_html(t, outcome.preset, round_no=round_no, stage=stage_key, language=outcome.language)
    folder = Path(out) if out else out_dir_for(workbook, None) / "protocols"
    path = folder / blanks_filename(stage_key, round_no)
    write_text_atomic(path, html)
    console.print(f"blanks: {path} ({outcome.preset.stage(stage_key).name(outcome.language)}, round {round_no})")
    if pdf:
        if find_chromium() is None:
            console.print("no Chromium found: open the HTML in a browser and print it (A4) — or install `chromium`")
        elif html_to_pdf(path, path.with_suffix(".pdf")):
            console.print(f"pdf: {path.with_suffix('.pdf')}")
        else:
            console.print("[yellow]Chromium could not print the PDF; print the HTML from a browser[/yellow]")
