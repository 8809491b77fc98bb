"""`server`, `worker` and `app`: the web face of sheets-sync (:mod:`sheets_sync.web`), all three on
one serving core (:mod:`sheets_sync.web.serving`).

* ``server --data DIR``: the web app and its background worker in one process on SQLite — a
  club's own computer, or the web container of compose.yaml (``--no-worker``);
* ``worker --data DIR``: more workers (PostgreSQL through ``DATABASE_URL``, the queue on Redis
  through ``SHEETS_SYNC_REDIS_URL``);
* ``app FOLDER``: the same pages for one organizer's .xlsx workbooks on 127.0.0.1, no account.
"""

from __future__ import annotations

from pathlib import Path

import click

from sheets_sync.cli.common import console, language_option, speaking
from sheets_sync.cli.localized import Command
from sheets_sync.messages import text

__all__ = ["server", "worker", "app"]


def _say(line: str) -> None:
    console.print(line, markup=False, highlight=False, soft_wrap=True)


def _say_phone_address(port: int, language: str) -> None:
    """Listening on the network: the address a phone on the same Wi-Fi opens, and its QR code."""
    from sheets_sync.web.addresses import phone_url, terminal_qr

    url = phone_url(port)
    if url:
        _say(text("server.phone", language, url=url))
        _say(terminal_qr(url))


@click.command(cls=Command)
@click.option("--data", type=click.Path(file_okay=False, path_type=Path), default=Path("sheets-sync-data"),
              show_default=True, help="The server's data folder: database, queue, published sites, secret key.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0: every network of this computer).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port (0: a free one).")
@click.option("--no-worker", is_flag=True, help="Serve the pages only; the jobs run in `sheets-sync worker`.")
@click.option("--workers", type=click.IntRange(1, 32), default=3, show_default=True,
              help="Worker threads running syncs and buttons in this process.")
@language_option()
def server(data: Path, host: str, port: int, no_worker: bool, workers: int) -> None:
    """Serve the organizers' web app: every registered sheet kept synced, a page per tournament, its public site.

    Runs the background worker in the same process unless --no-worker (Ctrl+C stops both)."""
    from sheets_sync.web import serving
    from sheets_sync.web.addresses import listen_env, this_computer_url

    serving.prepare(data, extra_env=listen_env(host))  # on the network: this computer's addresses allowed
    web = serving.start_web(host, port)
    language = speaking(None)
    consumer = None if no_worker else serving.make_consumer(workers)

    def ready() -> None:
        _say(text("server.url", language, url=this_computer_url(host, web.port), data=data.resolve()))
        _say_phone_address(web.port, language)
        if consumer is None:
            _say(text("server.no_worker", language))

    serving.run_until_stopped(consumer=consumer, web=web, ready=ready,
                              say=lambda _: _say(text("server.stopped", language)))


@click.command(cls=Command)
@click.option("--data", type=click.Path(file_okay=False, path_type=Path), default=Path("sheets-sync-data"),
              show_default=True, help="The server's data folder (the same as the server's, or a shared one).")
@click.option("--workers", type=click.IntRange(1, 32), default=3, show_default=True,
              help="Jobs run at once (threads).")
@language_option()
def worker(data: Path, workers: int) -> None:
    """Run jobs (syncs, buttons) for the web app: on more machines, with DATABASE_URL and SHEETS_SYNC_REDIS_URL."""
    from sheets_sync.web import serving

    serving.prepare(data)
    language = speaking(None)
    serving.run_until_stopped(consumer=serving.make_consumer(workers),
                              ready=lambda: _say(text("worker.started", language, workers=workers)),
                              say=lambda _: _say(text("server.stopped", language)))


@click.command(cls=Command)
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True, help="Port (0: a free one).")
@click.option("--no-browser", is_flag=True, help="Do not open the browser.")
@click.option("--lan", is_flag=True,
              help="Also listen on this computer's network (the venue's Wi-Fi): the judges' phones open their links. "
                   "The organizer's pages stay this computer's only.")
@language_option()
def app(folder: Path, port: int, no_browser: bool, lan: bool) -> None:
    """The organizer's pages for the .xlsx workbooks in FOLDER, on this computer only, in the browser.

    Every .xlsx in FOLDER is a tournament; saving it updates the standings and the players' page."""
    from sheets_sync.web import serving
    from sheets_sync.web.addresses import listen_env

    folder = folder.resolve()
    extra = {"SHEETS_SYNC_APP_FOLDER": str(folder)}
    if lan:  # this computer's addresses are answered; the judges' links carry its LAN address (addresses.phone_base)
        extra.update(listen_env("0.0.0.0"))
    serving.prepare(folder / ".sheets-sync", mode="app", settings_module=serving.APP_SETTINGS, extra_env=extra)
    from sheets_sync.web import app_mode  # its models need Django set up

    # app mode signs the local organizer in only for a request from 127.0.0.1 / ::1 (app_mode.LocalOrganizer):
    # listening on the network too lets the phones in, never a phone as the organizer
    web = serving.start_web("0.0.0.0" if lan else "127.0.0.1", port)
    consumer = serving.make_consumer(3)
    tournaments = app_mode.register_folder(folder)
    watch = app_mode.FolderWatch(tournaments)
    local = f"http://127.0.0.1:{web.port}/"
    start = f"{local}o/{tournaments[0].slug}/" if len(tournaments) == 1 else f"{local}app/"
    language = speaking(None)

    def ready() -> None:
        _say(text("app.url", language, url=start, n=len(tournaments), folder=folder))
        if lan:
            _say_phone_address(web.port, language)
        if not no_browser:
            import webbrowser

            webbrowser.open(start)

    serving.run_until_stopped(consumer=consumer, web=web, on_stop=watch.close, ready=ready,
                              say=lambda _: _say(text("server.stopped", language)))
