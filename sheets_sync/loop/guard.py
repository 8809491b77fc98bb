"""The one web server every face of sheets-sync listens with — `watch --serve` (the site,
:mod:`sheets_sync.loop.serve`), `server` and `app` (the Django app, :mod:`sheets_sync.web.serving`) —
made so that no client can stop it (issue 42 §1).

It is waitress (pure Python, one thread answering the sockets and a small pool running *complete*
requests, so a slow client never holds a thread).  On its own waitress closes only connections
that send nothing (a byte every few seconds keeps one open for ever), stops accepting at its
connection limit (500 slow clients filled it and every other client waited in the listen queue),
has no cap per client, and reads up to 1 GB of a body.  Its server and channel are subclassed here
through the hooks its source has for it (``channel_class``, ``parser_class``, ``handle_accept``,
``maintenance``, ``received``; waitress 3.0, pinned below 4 in pyproject.toml):

* **deadlines** (:meth:`GuardedChannel.overdue`): a request's headers within ``header_seconds`` of
  its first byte — a connection's first request, of the connection's opening, so a connection that
  never speaks goes too; its body at ``body_rate`` bytes a second on average once ``body_grace``
  has passed, however the client trickles; between requests a keep-alive connection stays
  ``idle_seconds``.  Checked every second by the loop, which closes what is overdue.
* **a cap per client address** (:class:`Crowd`): ``per_address`` connections (an IPv6 client: its
  /64, which one subscriber holds).  At the cap a new connection first takes the place of that
  address's oldest *idle* one (between requests: a browser reopens it without a word), else it is
  closed at once — so a hall behind one NAT is limited by its requests in progress, not by its
  phones.  A trusted proxy's address (``SHEETS_SYNC_TRUSTED_PROXY``) carries many people and is not
  capped (the proxy caps and buffers its own clients; the deadlines and the total still apply).
* **the body limit**: a Content-Length over ``max_body`` is answered 413 (in the reader's language)
  from its headers, before a byte of the body is read.
* **room** (:func:`room`): the process's open-file limit raised to its hard limit at start, and a
  total of connections far above a thousand held ones; ``poll()``, not ``select()``, which stops at
  1,024 descriptors.  Connections are accepted in bursts, not one a turn of the loop.

``SHEETS_SYNC_REQUEST_SECONDS`` shortens (or lengthens) the deadline: the tests' few seconds.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import sys
import time
from dataclasses import dataclass

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher
from waitress.utilities import RequestEntityTooLarge

from sheets_sync.messages import text

__all__ = ["Limits", "limits_for", "room", "raise_open_files", "guarded_server", "GuardedServer", "GuardedChannel",
           "Crowd", "client_of"]

HEADER_SECONDS = 10.0  # a phone on a bad network sends a request's headers (~1 KB) in well under a second
BODY_RATE = 2048  # bytes a second on average: 2G mobile data uploads faster; a trickle of a byte a second does not
IDLE_SECONDS = 30.0  # a keep-alive connection between requests (the screen's reload reuses it)
# a browser opens at most 6 connections to a server; 32 is five browsers loading at the same instant
# from one address — and only connections in progress count at the cap (idle ones give way)
PER_ADDRESS = 32
# the loop walks every open connection each turn: a GET waits a few ms more for each 1,000 held
# (bench/connections.py: a median of ~40 ms with 5,000 idle) — ten times a thousand, a page still in time
MOST_CONNECTIONS = 10_000
RESERVE_FILES = 256  # the rest of the process: database, queue, templates, workbooks, logs
WINDOWS_CONNECTIONS = 500  # select() on Windows stops at 512 sockets; poll() does not exist there
_ACCEPTS_A_TURN = 128
_SAY_EVERY = 60.0  # a refused address is said at most once a minute: the log is for people
log = logging.getLogger("waitress")  # the server's own logger, which serve.py turns into the console's lines


@dataclass(frozen=True)
class Limits:
    """What one client may take of the server (see the module's docstring)."""

    max_body: int
    header_seconds: float = HEADER_SECONDS
    body_grace: float = HEADER_SECONDS
    body_rate: float = BODY_RATE
    idle_seconds: float = IDLE_SECONDS
    per_address: int = PER_ADDRESS
    total: int = WINDOWS_CONNECTIONS


def limits_for(max_body: int) -> Limits:
    """The limits of a server taking bodies under ``max_body`` bytes, with the room this process has
    (its open-file limit raised first) and the deadline of ``SHEETS_SYNC_REQUEST_SECONDS`` when set."""
    seconds = _positive(os.environ.get("SHEETS_SYNC_REQUEST_SECONDS"), HEADER_SECONDS)
    return Limits(max_body=max_body, header_seconds=seconds, body_grace=seconds, total=room())


def _positive(value: str | None, default: float) -> float:
    try:
        number = float(value) if value else default
    except ValueError:
        return default
    return number if number > 0 else default


def room() -> int:
    """How many connections this process may hold open: its open-file limit (raised to the hard
    limit) less what the rest of the process opens, at most :data:`MOST_CONNECTIONS`."""
    if sys.platform == "win32":
        return WINDOWS_CONNECTIONS
    return max(64, min(MOST_CONNECTIONS, raise_open_files() - RESERVE_FILES))


def raise_open_files() -> int:
    """Raise the soft limit of open files to the hard one (a desktop's soft limit is often 1,024, its
    hard limit far more); return the soft limit in force.  On macOS an unlimited hard limit is not
    settable as such: the kernel's per-process maximum is tried below it."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = [hard] if hard != resource.RLIM_INFINITY else []
    for target in [*wanted, 65536, 10240]:
        if soft < target and (hard == resource.RLIM_INFINITY or target <= hard):
            try:
                resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
                return target
            except (ValueError, OSError):
                continue
    return soft if soft != resource.RLIM_INFINITY else MOST_CONNECTIONS + RESERVE_FILES


def client_of(host: str) -> str:
    """The client a connection's address stands for: the address, or an IPv6 address's /64."""
    try:
        address = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return host
    if address.version == 6:
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def _size(limit: int, language: str) -> str:
    kb, mb = ("KB", "MB") if language == "en" else ("КБ", "МБ")
    return f"{limit >> 20} {mb}" if limit >= 1 << 20 else f"{limit >> 10} {kb}"


class _TooLarge(RequestEntityTooLarge):
    """waitress's 413, said in the reader's language (``Accept-Language``, as the web pages choose)."""

    def __init__(self, limit: int, accepted: str):
        language = "en" if accepted.strip().lower().startswith("en") else "ru"
        super().__init__(text("serve.too_large", language, size=_size(limit, language)))

    def to_response(self, ident=None):
        return f"{self.code} {self.reason}", [("Content-Type", "text/plain; charset=utf-8")], f"{self.body}\n".encode()


class _Parser(HTTPRequestParser):
    def received(self, data):
        consumed = super().received(data)
        if isinstance(self.error, RequestEntityTooLarge) and not isinstance(self.error, _TooLarge):
            self.error = _TooLarge(self.adj.max_request_body_size, self.headers.get("ACCEPT_LANGUAGE", ""))
        return consumed


class GuardedChannel(HTTPChannel):
    """One client connection, with the times its deadlines run from (monotonic seconds):
    ``waiting_since`` — the request being read began (the first request: the connection opened;
    None between requests), ``body_since`` — its body began."""

    parser_class = _Parser

    def __init__(self, server, sock, addr, adj, map=None):
        self.waiting_since: float | None = time.monotonic()
        self.body_since: float | None = None
        self.client = server.crowd.key(addr)  # before waitress's __init__, which registers the channel
        super().__init__(server, sock, addr, adj, map)

    def add_channel(self, map=None):
        super().add_channel(map)
        self.server.crowd.join(self)

    def del_channel(self, map=None):
        super().del_channel(map)
        self.server.crowd.leave(self)

    def received(self, data):
        before = self.request
        done = super().received(data)
        request, now = self.request, time.monotonic()
        if request is None:  # nothing partly read: answered, or between requests
            self.waiting_since = self.body_since = None
        elif request is not before:
            if before is not None or self.waiting_since is None:  # the first request keeps the opening's time
                self.waiting_since = now
            self.body_since = now if request.headers_finished else None
        elif request.headers_finished and self.body_since is None:
            self.body_since = now
        return done

    def idle(self) -> bool:
        """Between requests, nothing to send: closing it loses nothing (a browser opens another)."""
        return not (self.requests or self.request is not None or self.total_outbufs_len
                    or self.will_close or self.close_when_flushed)

    def overdue(self, now: float, wall: float, limits: Limits) -> bool:
        """Whether the client has had its time (``now`` monotonic, ``wall`` waitress's time.time())."""
        if self.requests:  # one being answered: the server's time, not the client's
            return False
        if self.waiting_since is None:
            return self.last_activity < wall - limits.idle_seconds
        request = self.request
        if request is None or not request.headers_finished:
            return now - self.waiting_since > limits.header_seconds
        late = now - self.body_since - limits.body_grace
        return late > 0 and request.body_bytes_received < limits.body_rate * late


class Crowd:
    """The connections open per client, shared by the listening sockets of one server (the loop's
    thread alone touches it)."""

    def __init__(self, limits: Limits, trusted_proxy: str | None):
        self.limits = limits
        self.trusted_proxy = trusted_proxy  # '*': every peer is a proxy, none is capped
        self.held: dict[str, list[GuardedChannel]] = {}
        self._said = -_SAY_EVERY

    def key(self, addr) -> str | None:
        host = addr[0] if isinstance(addr, tuple) else str(addr)
        if self.trusted_proxy is not None and self.trusted_proxy in ("*", host):
            return None
        return client_of(host)

    def admits(self, addr) -> bool:
        """Whether a new connection from ``addr`` may stay: under the cap, or in place of the
        client's oldest idle connection (closed by the loop at its next turn)."""
        client = self.key(addr)
        held = self.held.get(client, []) if client is not None else []
        if len(held) < self.limits.per_address:
            return True
        idle = [c for c in held if c.idle()]
        if idle:
            oldest = min(idle, key=lambda c: c.last_activity)
            oldest.will_close = True
            self.leave(oldest)
            return True
        if time.monotonic() - self._said >= _SAY_EVERY:
            self._said = time.monotonic()
            log.warning("per-address cap: %s has %d connections in progress; new ones closed", client, len(held))
        return False

    def join(self, channel: GuardedChannel) -> None:
        if channel.client is not None:
            self.held.setdefault(channel.client, []).append(channel)

    def leave(self, channel: GuardedChannel) -> None:
        held = self.held.get(channel.client)
        if held and channel in held:
            held.remove(channel)
            if not held:
                del self.held[channel.client]


class GuardedServer(TcpWSGIServer):
    """waitress's TCP server with :class:`GuardedChannel` connections, the :class:`Crowd`'s cap at
    the door and the deadlines in its maintenance."""

    channel_class = GuardedChannel

    def __init__(self, application, map, *, crowd: Crowd, **kw):
        self.crowd = crowd
        self.limits = crowd.limits
        super().__init__(application, map, **kw)

    def handle_accept(self):
        for _ in range(_ACCEPTS_A_TURN):  # a burst in one turn: a turn walks every open connection
            if len(self._map) >= self.adj.connection_limit:
                return
            try:
                pair = self.accept()
                if pair is None:
                    return
                conn, addr = pair
                if not self.crowd.admits(addr):
                    conn.close()
                    continue
                self.set_socket_options(conn)
            except OSError:  # out of descriptors, or a client gone before it was accepted
                return
            self.channel_class(self, conn, addr, self.adj, map=self._map)

    def maintenance(self, now):
        clock = time.monotonic()
        for channel in list(self.active_channels.values()):
            if not channel.will_close and channel.overdue(clock, now, self.limits):
                channel.will_close = True  # the loop closes it at once (writable → handle_close)


def guarded_server(application, *, map: dict, host: str, port: int, limits: Limits, threads: int, **adjustments):
    """waitress's ``create_server`` for TCP with :class:`GuardedServer`: one server, or one per
    address when ``host`` names several (``localhost``: IPv4 and IPv6); ``effective_host`` and
    ``effective_port`` are its first address either way."""
    adj = Adjustments(host=host, port=port, threads=threads, connection_limit=limits.total,
                      max_request_body_size=limits.max_body, channel_timeout=int(limits.idle_seconds),
                      cleanup_interval=1, asyncore_use_poll=True, **adjustments)
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    crowd, servers = Crowd(limits, adj.trusted_proxy), []
    try:
        for sockinfo in adj.listen:
            servers.append(GuardedServer(application, map, crowd=crowd, dispatcher=dispatcher, adj=adj,
                                         sockinfo=sockinfo))
    except BaseException:
        for server in servers:
            server.close()
        dispatcher.shutdown(timeout=1)
        raise
    if len(servers) == 1:
        return servers[0]
    listening = [(s.effective_host, s.effective_port) for s in servers]
    multi = MultiSocketServer(map, adj, listening, dispatcher, servers[0].log_info)
    multi.effective_host, multi.effective_port = listening[0]
    multi.limits = limits
    return multi
