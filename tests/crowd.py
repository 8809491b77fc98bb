"""A crowd of slow and idle clients for the servers' connection tests and bench/connections.py.

Real sockets from loopback addresses other than 127.0.0.1 (Linux answers on all of 127.0.0.0/8,
so a client may bind any of them as its source): the server sees many clients, and the ordinary
GETs a test makes from 127.0.0.1 are a client of their own.  Half the crowd trickles a request's
headers — one byte every few seconds, the classic slowloris — and half connects and says nothing.
"""

from __future__ import annotations

import http.client
import select
import socket
import threading
import time
from dataclasses import dataclass, field

__all__ = ["Crowd", "source_addresses", "connect_from", "closed_by_server", "wait_closed", "settle", "get", "trickle"]

REQUEST_START = b"GET / HTTP/1.1\r\nHost: crowd\r\nX-Slow: "


def source_addresses(first: int, count: int) -> list[str]:
    """``count`` loopback addresses 127.0.<first>.1, .2, … (never 127.0.0.1)."""
    return [f"127.0.{first + i // 250}.{1 + i % 250}" for i in range(count)]


def connect_from(source: str, port: int, timeout: float = 10.0) -> socket.socket:
    conn = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    conn.settimeout(timeout)
    conn.bind((source, 0))
    conn.connect(("127.0.0.1", port))
    return conn


def _readable(conn: socket.socket, wait: float) -> bool:
    """poll(), not select(): a crowd's descriptors go past select's 1024."""
    watch = select.poll()
    watch.register(conn, select.POLLIN | select.POLLPRI | select.POLLHUP | select.POLLERR)
    return bool(watch.poll(wait * 1000))


def closed_by_server(conn: socket.socket) -> bool:
    """Whether the server has closed ``conn`` (an end of stream or a reset waiting to be read), now."""
    if not _readable(conn, 0):
        return False
    try:
        return conn.recv(1, socket.MSG_PEEK) == b""
    except BlockingIOError:
        return False
    except OSError:  # a reset, or a socket that never connected
        return True


def wait_closed(conn: socket.socket, within: float) -> bool:
    """Whether the server closes ``conn`` within ``within`` seconds (a liveness bound, not a timing);
    what the server still sends meanwhile (the rest of an answer) is read and dropped."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        if _readable(conn, min(0.5, max(0.0, end - time.monotonic()))):
            try:
                if conn.recv(65536) == b"":
                    return True
            except BlockingIOError:
                continue
            except OSError:
                return True
    return False


def settle(conns: list[socket.socket], at_most: int, within: float = 20.0) -> int:
    """How many of ``conns`` the server keeps, once it has dealt with them all: waits (up to
    ``within`` s, a bound for a busy machine) until no more than ``at_most`` are open."""
    end = time.monotonic() + within
    while True:
        still_open = sum(not closed_by_server(c) for c in conns)
        if still_open <= at_most or time.monotonic() > end:
            return still_open
        time.sleep(0.2)


def trickle(conn: socket.socket) -> bool:
    """One more byte of an endless header; False when the server has closed the connection."""
    try:
        conn.send(b"a")
        return not closed_by_server(conn)
    except OSError:
        return False


def get(port: int, path: str = "/", *, source: str = "127.0.0.1", timeout: float = 30.0,
        host: str = "localhost") -> tuple[int, bytes]:
    """An ordinary GET (status, body) from ``source``; raises TimeoutError when not answered in ``timeout``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        conn.request("GET", path, headers={"Host": host})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


@dataclass
class Crowd:
    """``size`` connections to ``port`` from ``per_address`` a source address, a ``slow`` share of
    them (every other one by default) trickling its headers one byte each ``every`` seconds (in a
    thread), the rest idle.  With ``reconnect`` a connection the server closes is opened again, so
    the crowd stays held."""

    port: int
    size: int = 1000
    per_address: int = 25
    every: float = 3.0
    slow: float = 0.5
    first_subnet: int = 1
    reconnect: bool = False
    tricklers: list[socket.socket] = field(default_factory=list)
    idle: list[socket.socket] = field(default_factory=list)
    refused: int = 0
    reopened: int = 0
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    _sources: dict[int, str] = field(default_factory=dict)

    def __enter__(self) -> Crowd:
        sources = source_addresses(self.first_subnet, -(-self.size // self.per_address))
        for i in range(self.size):
            source = sources[i // self.per_address]
            trickling = i % 100 < self.slow * 100
            conn = self._open(source, trickling=trickling)
            if conn is None:
                continue
            (self.tricklers if trickling else self.idle).append(conn)
            self._sources[id(conn)] = source
        self._thread = threading.Thread(target=self._trickle, name="crowd", daemon=True)
        self._thread.start()
        return self

    def _open(self, source: str, *, trickling: bool) -> socket.socket | None:
        try:
            conn = connect_from(source, self.port)
            if trickling:
                conn.sendall(REQUEST_START)
            return conn
        except OSError:
            self.refused += 1
            return None

    def _trickle(self) -> None:
        while not self._stop.wait(self.every):
            for group, trickling in ((self.tricklers, True), (self.idle, False)):
                for i, conn in enumerate(group):
                    alive = trickle(conn) if trickling else not closed_by_server(conn)
                    if not alive and self.reconnect and not self._stop.is_set():
                        group[i] = self._replace(conn, trickling)

    def _replace(self, conn: socket.socket, trickling: bool) -> socket.socket:
        source = self._sources.pop(id(conn))
        conn.close()
        fresh = self._open(source, trickling=trickling)
        if fresh is None:  # refused this time: the same closed socket is tried again next turn
            fresh = socket.socket()
        self._sources[id(fresh)] = source
        self.reopened += 1
        return fresh

    def open_count(self) -> int:
        return sum(not closed_by_server(c) for c in self.tricklers + self.idle if c.fileno() >= 0)

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
        for conn in self.tricklers + self.idle:
            conn.close()
