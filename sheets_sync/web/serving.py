"""The one serving core of ``sheets-sync server``, ``worker`` and ``app``: the environment and
Django set up, the database migrated, the service accounts loaded, the WSGI app on waitress and
Huey's consumer on threads — in the combinations each command needs.

* ``server``: waitress in a background thread, the consumer (worker threads and its scheduler,
  which runs the keeping minute, :func:`sheets_sync.web.keeping.keeping_minute`) in the main thread,
  where signal handlers work: Ctrl+C or SIGTERM stops both, running jobs given time to end;
  ``--no-worker``: the web app alone (the workers run elsewhere, ``sheets-sync worker``).
* ``worker``: the consumer only.
* ``app``: ``server`` on 127.0.0.1 for one organizer's folder (:mod:`sheets_sync.web.app_mode`).

Nothing here is a scheduler of our own: the queue, its retries and its periodic task are Huey's.
A consumer is also a registered worker with a heartbeat (:class:`sheets_sync.web.recovery.Heartbeat`):
its jobs' workbook leases live as long as it does, and what a dead worker left running is taken back.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sheets_sync.loop.guard import Limits, guarded_server, limits_for
from sheets_sync.loop.serve import stop_waitress

__all__ = ["prepare", "WebServer", "start_web", "make_consumer", "run_until_stopped", "SETTINGS"]

SETTINGS = "sheets_sync.web.settings"
APP_SETTINGS = "sheets_sync.web.app_settings"
log = logging.getLogger("sheets_sync.web.serving")
_THREADS = 8  # requests answered at once: pages are a few milliseconds of the database and templates
# the largest body the app takes: the new-tournament form's players CSV (a league's 5,000 players
# with clubs and ratings are ~0.3 MB); every other form is a few hundred bytes
MAX_BODY = 4 << 20


def prepare(data: Path | None, *, mode: str = "server", settings_module: str = SETTINGS,
            extra_env: dict[str, str] | None = None) -> None:
    """Set the environment (data folder, mode), set Django up, migrate the database and load the
    service accounts (where that part of the server exists). Call once, before anything Django."""
    if data is not None:
        data = Path(data).expanduser().resolve()
        data.mkdir(parents=True, exist_ok=True)
        os.environ["SHEETS_SYNC_DATA"] = str(data)
    os.environ["SHEETS_SYNC_MODE"] = mode
    os.environ.update(extra_env or {})
    os.environ["DJANGO_SETTINGS_MODULE"] = settings_module
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", interactive=False, verbosity=0)
    from sheets_sync.web.service_accounts import load_service_accounts  # the app's models are ready only now

    load_service_accounts()  # the keys folder's accounts into the database: e-mail and path, never the key


@dataclass
class WebServer:
    """The WSGI app on waitress, in a background thread; :meth:`close` stops it."""

    server: object
    sockets: dict
    thread: threading.Thread
    limits: Limits

    @property
    def port(self) -> int:
        return int(self.server.effective_port)

    @property
    def host(self) -> str:
        return str(self.server.effective_host)

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    def close(self) -> None:
        stop_waitress(self.server, self.sockets, self.thread)


def start_web(host: str, port: int) -> WebServer:
    """Serve the Django app on ``host:port`` (port 0: a free one) in a background thread, on the
    guarded waitress of ``watch --serve`` (:mod:`sheets_sync.loop.guard`: deadlines, a cap per
    address, the body limit, the open-file limit raised)."""
    from django.core.wsgi import get_wsgi_application

    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # a burst waiting milliseconds is not news
    sockets: dict = {}
    limits = limits_for(MAX_BODY)
    proxy = os.environ.get("SHEETS_SYNC_TRUSTED_PROXY")  # behind a proxy: the client's scheme and address
    behind = {"trusted_proxy": proxy, "trusted_proxy_headers": {"x-forwarded-proto", "x-forwarded-for"}} if proxy else {}
    server = guarded_server(get_wsgi_application(), map=sockets, host=host, port=port, limits=limits,
                            threads=_THREADS, ident="sheets-sync", expose_tracebacks=False,
                            clear_untrusted_proxy_headers=True, **behind)
    thread = threading.Thread(target=server.run, name="sheets-sync web", daemon=True)
    thread.start()
    return WebServer(server, sockets, thread, limits)


def make_consumer(workers: int):
    """Huey's consumer on ``workers`` threads with its scheduler (the minute's sweep); a running job
    gets 30 s to end when it is stopped.

    The tasks are imported first: a consumer knows only the tasks its process has imported, and a
    worker on a machine of its own imports no view (django's ``run_huey`` autodiscovers ``tasks``
    modules the same way)."""
    from huey.contrib.djhuey import HUEY

    from sheets_sync.web import tasks  # noqa: F401 - registers run_job_task, the sweep and the keeping minute
    from sheets_sync.web.workers import count_busy

    count_busy(HUEY)  # a long job may see whether it would take this process's last free thread
    return HUEY.create_consumer(workers=workers, worker_type="thread", periodic=True, shutdown_timeout=30,
                                check_worker_health=True)


def run_until_stopped(*, consumer=None, web: WebServer | None = None, say: Callable[[str], None] = print,
                      on_stop: Callable[[], None] | None = None, ready: Callable[[], None] | None = None) -> None:
    """Block the main thread until Ctrl+C or SIGTERM, then stop what was started. With a consumer
    its own loop runs here (its signal handlers need the main thread); else a plain wait.
    ``ready`` is called once the signals are handled (what a supervisor may wait for)."""
    try:
        if consumer is not None:
            _consume(consumer, ready)
        else:
            _wait_for_signal(ready)
    finally:
        if on_stop is not None:
            on_stop()
        if web is not None:
            web.close()
        say("stopped")


def _consume(consumer, ready: Callable[[], None] | None) -> None:
    """Huey's ``Consumer.run`` without its restart on SIGHUP (a re-exec would lose the web thread),
    saying ``ready`` once its signal handlers are set: SIGINT stops gracefully, SIGTERM at once."""
    from huey.consumer import ConsumerStopped

    from sheets_sync.web.recovery import Heartbeat

    heartbeat = Heartbeat(consumer.workers).start()  # registered before the first job is taken
    from sheets_sync.web.messaging.bot import BotThread

    bot = BotThread().start()  # the players' messages (issue 45 §4): a thread of its own, like the heartbeat
    try:
        consumer.start()
        if ready is not None:
            ready()
        checked = time.monotonic()
        while True:
            try:
                checked = consumer.loop(checked)
            except ConsumerStopped:
                break
        consumer.huey.notify_interrupted_tasks()
    finally:
        bot.stop()
        heartbeat.stop()  # what the stopped threads left running is taken back now


def _wait_for_signal(ready: Callable[[], None] | None) -> None:
    stop = threading.Event()

    def handler(signum, frame) -> None:  # noqa: ARG001 - signal's signature
        stop.set()

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    if ready is not None:
        ready()
    try:
        while not stop.wait(1.0):
            pass
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
