"""Commands that publish what people read: `export site`, `export vk`, `export mwt`, `print-protocols`,
`print-seating`.

They read the workbook and compute the standings like `sync`, but write nothing into it.
"""

from __future__ import annotations

import click

from sheets_sync.cli.common import (
    console,
    credentials_option,
    escape,
    language_option,
    speaking,
    workbook_argument,
)
from sheets_sync.cli.localized import Command, Group
from sheets_sync.messages import text

__all__ = ["export", "print_protocols", "print_seating"]


@click.group(cls=Group)
def export() -> None:
    """Write the results: the HTML site, the VK post, or the games for the MWT / FIIM rating."""


@export.command("site")
@workbook_argument
@click.option("--out", default=None, help="Folder of the site (default: site/ in the workbook's own folder, cup.sheets-sync/).")
@credentials_option
@language_option()
def export_site(workbook: str, out: str | None, credentials: str | None) -> None:
    """Static HTML site: standings, stages, players, games, statistics (prints on A4)."""
    from sheets_sync.actions.export import write_workbook_site

    site = write_workbook_site(workbook, out=out, credentials=credentials)
    console.print(escape(text("export.site", speaking(site.language), path=site.folder / "index.html",
                              n=len(site.changed))))


@export.command("vk")
@workbook_argument
@click.option("--out", default=None, help="Folder for vk-post.txt and vk-post.png (default: the workbook's own folder, cup.sheets-sync/).")
@click.option("--link", default=None, help="Link to the full results, put into the post.")
@click.option("--seating", "seating_round", type=int, default=None, metavar="N",
              help="Instead of the standings: the seating of round (game) N, as vk-seating-<stage>-N.txt and .png.")
@click.option("--stage", default=None, help="With --seating: stage key or name (default: the latest stage seated for N).")
@credentials_option
@language_option()
def export_vk(workbook: str, out: str | None, link: str | None, seating_round: int | None, stage: str | None,
              credentials: str | None) -> None:
    """A VK post: plain text ready to paste (vk-post.txt) and a picture of the standings (vk-post.png);
    with --seating N the seating of a round instead."""
    from sheets_sync.actions.export import (
        write_workbook_post,
        write_workbook_seating_post,
    )

    if seating_round is not None:
        seating = write_workbook_seating_post(workbook, round_no=seating_round, stage=stage, out=out,
                                              credentials=credentials)
        language = speaking(seating.language)
        console.print(escape(text("export.post", language, path=seating.paths[0])))
        console.print(escape(text("export.picture", language, path=seating.paths[1])))
        return
    post = write_workbook_post(workbook, out=out, link=link, credentials=credentials)
    language = speaking(post.language)
    console.print(escape(text("export.post", language, path=post.folder / "vk-post.txt")))
    console.print(escape(text("export.picture", language, path=post.folder / "vk-post.png")))


@export.command("mwt")
@workbook_argument
@click.option("--out", default=None, help="Folder for the game files (default: mwt/ in the workbook's own folder).")
@credentials_option
@language_option()
def export_mwt(workbook: str, out: str | None, credentials: str | None) -> None:
    """One JSON per counted game in the Mafia World Tour format the FIIM rating reads (docs/export-mwt.md)."""
    from sheets_sync.actions.export import mwt_warning_lines, write_workbook_mwt

    export = write_workbook_mwt(workbook, out=out, credentials=credentials)
    language = speaking(export.language)
    console.print(escape(text("mwt.written", language, path=export.folder, n=len(export.games),
                              removed=len(export.removed))))
    for line in mwt_warning_lines(export, language):
        console.print(f"[yellow]{escape(line)}[/yellow]")


def _print_pdf(path, language: str) -> None:
    """The printed HTML beside it as a PDF, with headless Chromium where it is installed."""
    from sheets_sync.render.protocols import find_chromium, html_to_pdf

    if find_chromium() is None:
        console.print(escape(text("blanks.no_chromium", language)))
    elif html_to_pdf(path, path.with_suffix(".pdf")):
        console.print(escape(text("blanks.pdf", language, path=path.with_suffix(".pdf"))))
    else:
        console.print(f"[yellow]{escape(text('blanks.pdf_failed', language))}[/yellow]")


@click.command("print-protocols", cls=Command)
@workbook_argument
@click.option("--round", "round_no", type=int, required=True, help="Round (game) number.")
@click.option("--stage", default=None, help="Stage key or name (default: the latest stage seated for the round).")
@click.option("--out", default=None, help="Folder for the blanks (default: protocols/ in the workbook's own folder).")
@click.option("--pdf/--no-pdf", default=True, show_default=True, help="Also print a PDF with headless Chromium if installed.")
@credentials_option
@language_option()
def print_protocols(workbook: str, round_no: int, stage: str | None, out: str | None, pdf: bool,
                    credentials: str | None) -> None:
    """Protocol blanks for a round: one A4 page per table, players already filled in from the Seating tab."""
    from sheets_sync.actions.export import write_workbook_blanks

    blanks = write_workbook_blanks(workbook, round_no=round_no, stage=stage, out=out, credentials=credentials)
    path = blanks.path
    language = speaking(blanks.language)
    console.print(escape(text("blanks.written", language, path=path, stage=blanks.stage_name, round=round_no)))
    if pdf:
        _print_pdf(path, language)


@click.command("print-seating", cls=Command)
@workbook_argument
@click.option("--round", "round_no", type=int, required=True, help="Round (game) number.")
@click.option("--stage", default=None, help="Stage key or name (default: the latest stage seated for the round).")
@click.option("--out", default=None, help="Folder for the seating (default: protocols/ in the workbook's own folder).")
@click.option("--pdf/--no-pdf", default=True, show_default=True, help="Also print a PDF with headless Chromium if installed.")
@credentials_option
@language_option()
def print_seating(workbook: str, round_no: int, stage: str | None, out: str | None, pdf: bool,
                  credentials: str | None) -> None:
    """The seating of a round on A4: one page with every table, then a poster per table with its ten seats."""
    from sheets_sync.actions.export import write_workbook_seating_print

    seating = write_workbook_seating_print(workbook, round_no=round_no, stage=stage, out=out, credentials=credentials)
    path = seating.paths[0]
    language = speaking(seating.language)
    console.print(escape(text("seating.written", language, path=path, title=seating.title, tables=seating.tables)))
    if pdf:
        _print_pdf(path, language)
