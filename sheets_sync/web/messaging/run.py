"""The server's Telegram bot in a process of its own (rather than in the server's worker):
``python -m sheets_sync.web.messaging.run --data DIR [--seconds N]``, with the bot's token in
``SHEETS_SYNC_TELEGRAM_TOKEN``. Nothing Django is imported before the data folder is prepared."""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path

__all__ = ["main"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m sheets_sync.web.messaging.run",
                                     description="The server's Telegram bot on its own: /start, /stop and the outbox.")
    parser.add_argument("--data", default="sheets-sync-data", help="the server's data folder")
    parser.add_argument("--seconds", type=float, default=0, help="stop after this many seconds (0: never)")
    args = parser.parse_args(argv)
    from sheets_sync.web import serving

    serving.prepare(Path(args.data))
    from sheets_sync.web.messaging.bot import BotLoop
    from sheets_sync.web.messaging.telegram import from_environment

    # SIGTERM (a service manager's stop) ends like Ctrl+C: the loop's lease is released on the way out
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    loop = BotLoop(from_environment())
    end = time.monotonic() + args.seconds if args.seconds else None
    print("the bot is running", flush=True)
    while end is None or time.monotonic() < end:
        left = 60.0 if end is None else max(0.0, end - time.monotonic())
        if not loop.run(min(60.0, left)):
            time.sleep(0.5)  # another loop holds the lease: try again when it may be free


if __name__ == "__main__":
    main()
