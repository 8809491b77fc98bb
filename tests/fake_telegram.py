"""A fake Telegram Bot API server for the tests and the benchmark, on 127.0.0.1 (like
:mod:`tests.fake_sheets`): what the server's bot (:mod:`sheets_sync.web.messaging`) talks to when
``SHEETS_SYNC_TELEGRAM_API`` points here.

* ``POST /bot<token>/getMe``: the bot;
* ``getUpdates`` (``offset``, ``timeout``): a long poll over the updates a test put in with
  :meth:`FakeTelegram.say` (a player typing ``/start <code>``); updates below ``offset`` are
  forgotten, as Telegram does;
* ``sendMessage`` (``chat_id``, ``text``): recorded per chat with the moment it arrived
  (:attr:`FakeTelegram.sent`); a chat in :attr:`FakeTelegram.blocked` answers 403 as for a bot
  the user blocked;
* 429 with ``parameters.retry_after``: scripted (:meth:`FakeTelegram.flood`: the next n calls), and
  Telegram's own limits enforced when ``enforce`` is set (more than 30 messages in a second
  overall, or two to one chat within a second, are refused with 429 and counted in
  :attr:`FakeTelegram.refused`) — so a sender that breaks the limits is seen to.

Only the token the server was made with is answered (401 otherwise).
"""

from __future__ import annotations

import json
import threading
import time
from collections import defaultdict
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

__all__ = ["TOKEN", "Sent", "FakeTelegram"]

TOKEN = "123456:TEST-token-of-the-fake-bot"


@dataclass(frozen=True)
class Sent:
    chat_id: int
    text: str
    at: float  # time.monotonic() when it arrived


class FakeTelegram:
    def __init__(self, token: str = TOKEN, *, enforce: bool = False, delay: float = 0.0) -> None:
        self.token = token
        self.enforce = enforce
        self.delay = delay  # seconds each sendMessage takes before it is recorded (a slow network)
        self.sent: list[Sent] = []
        self.blocked: set[int] = set()
        self.refused = 0  # 429s for Telegram's own limits (enforce)
        self.calls: dict[str, int] = defaultdict(int)
        self._updates: list[dict] = []
        self._next_update = 1
        self._next_message = 1
        self._flood: list[int] = []  # retry_after of the next scripted 429s
        self._lock = threading.Condition()
        self._httpd: ThreadingHTTPServer | None = None
        self.port = 0

    # -- the test's side ---------------------------------------------------------------------------
    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def say(self, chat_id: int, text: str, *, first_name: str = "Игрок") -> int:
        """A user types ``text`` to the bot in a private chat: an update for getUpdates."""
        with self._lock:
            update_id = self._next_update
            self._next_update += 1
            self._updates.append({"update_id": update_id, "message": {
                "message_id": update_id, "date": int(time.time()), "text": text,
                "chat": {"id": chat_id, "type": "private", "first_name": first_name},
                "from": {"id": chat_id, "is_bot": False, "first_name": first_name}}})
            self._lock.notify_all()
        return update_id

    def flood(self, times: int = 1, retry_after: int = 1) -> None:
        """The next ``times`` sendMessage calls are answered 429 with ``retry_after``."""
        with self._lock:
            self._flood.extend([retry_after] * times)

    def to(self, chat_id: int) -> list[str]:
        """The texts chat ``chat_id`` received, in order."""
        with self._lock:
            return [m.text for m in self.sent if m.chat_id == chat_id]

    def counts(self) -> dict[tuple[int, str], int]:
        """How many times each (chat, text) arrived: a message delivered twice shows 2."""
        out: dict[tuple[int, str], int] = defaultdict(int)
        with self._lock:
            for m in self.sent:
                out[(m.chat_id, m.text)] += 1
        return dict(out)

    def wait_for(self, n: int, timeout: float = 10.0) -> bool:
        """Wait until ``n`` messages were received."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while len(self.sent) < n:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._lock.wait(left)
        return True

    # -- the API ---------------------------------------------------------------------------------------
    def call(self, method: str, params: dict) -> tuple[int, dict]:
        self.calls[method] += 1
        if method == "getMe":
            return 200, {"ok": True, "result": {"id": 123456, "is_bot": True, "first_name": "Турнир",
                                                "username": "sheets_sync_test_bot"}}
        if method == "getUpdates":
            return 200, {"ok": True, "result": self._get_updates(params)}
        if method == "sendMessage":
            return self._send(params)
        return 404, {"ok": False, "error_code": 404, "description": "Not Found: method not found"}

    def _get_updates(self, params: dict) -> list[dict]:
        offset = int(params.get("offset") or 0)
        timeout = min(float(params.get("timeout") or 0), 5.0)
        deadline = time.monotonic() + timeout
        with self._lock:
            if offset:
                self._updates = [u for u in self._updates if u["update_id"] >= offset]
            while not self._updates and time.monotonic() < deadline:
                self._lock.wait(deadline - time.monotonic())
            return list(self._updates)

    def _send(self, params: dict) -> tuple[int, dict]:
        chat_id, text = int(params["chat_id"]), str(params["text"])
        if self.delay:
            time.sleep(self.delay)
        with self._lock:
            if self._flood:
                return _too_many(self._flood.pop(0))
            now = time.monotonic()
            if self.enforce and self._over_limits(chat_id, now):
                self.refused += 1
                return _too_many(1)
            if chat_id in self.blocked:
                return 403, {"ok": False, "error_code": 403, "description": "Forbidden: bot was blocked by the user"}
            self.sent.append(Sent(chat_id, text, now))
            message_id = self._next_message
            self._next_message += 1
            self._lock.notify_all()
        return 200, {"ok": True, "result": {"message_id": message_id, "chat": {"id": chat_id}, "text": text}}

    def _over_limits(self, chat_id: int, now: float) -> bool:
        recent = [m for m in self.sent[-60:] if now - m.at < 1.0]
        # a little slack for the moments the two ends of a socket see differently
        return len(recent) >= 30 or any(m.chat_id == chat_id and now - m.at < 0.95 for m in recent)

    # -- serving -----------------------------------------------------------------------------------------
    def start(self) -> FakeTelegram:
        fake = self

        class Handler(_Handler):
            server_fake = fake

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self.port = self._httpd.server_address[1]
        threading.Thread(target=self._httpd.serve_forever, name="fake-telegram", daemon=True).start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> FakeTelegram:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def _too_many(retry_after: int) -> tuple[int, dict]:
    return 429, {"ok": False, "error_code": 429, "description": f"Too Many Requests: retry after {retry_after}",
                 "parameters": {"retry_after": retry_after}}


class _Handler(BaseHTTPRequestHandler):
    server_fake: FakeTelegram

    def log_message(self, format, *args) -> None:  # noqa: A002 - the base class's name
        pass

    def _answer(self) -> None:
        fake = self.server_fake
        path, _, query = self.path.partition("?")
        prefix = f"/bot{fake.token}/"
        if not path.startswith(prefix):
            return self._json(401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
        params = {k: v[-1] for k, v in parse_qs(query).items()}
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if body:
            kind = self.headers.get("Content-Type", "")
            params.update(json.loads(body) if "json" in kind else {k: v[-1] for k, v in parse_qs(body.decode()).items()})
        status, answer = fake.call(path[len(prefix):], params)
        self._json(status, answer)

    def _json(self, status: int, answer: dict) -> None:
        data = json.dumps(answer, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client was killed in the middle of its call: the message was recorded all the same

    do_GET = do_POST = _answer
