"""How ``allfives serve`` runs the app: waitress in one process, or gunicorn's master keeping
N waitress workers alive.

Measured with a real process and idle TCP connections on loopback (README, "Running it"):
waitress as shipped waits with ``select()``, which cannot watch file descriptors above 1023,
so about 1,030 idle connections made it exit; waitress told to ``poll()`` held 3,000 and
answered a normal request in 20 ms. Gunicorn's threaded workers alone did not: each new
connection holds one of the 8 threads while it waits for data, so 1,100 idle sockets left a
normal request unanswered after 20 s. So every process serves with waitress on ``poll()``,
and with ``--workers N`` gunicorn's master only forks, watches and replaces them.

Waitress's ``connection_limit`` counts every client together, so one address holding 4,100
half-sent requests left nobody else an answer: each process lets one address hold at most
``PER_ADDRESS`` connections (:class:`AddressCap`). Behind a trusted proxy every connection
comes from the proxy, so there the proxy is the one to limit each client.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import shutil
import socket
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from waitress.server import BaseWSGIServer, create_server

from ..config import SERVER_BODY_LIMIT
from .held import HeldChannel
from .loop import Loop

if TYPE_CHECKING:
    from flask import Flask

# A club night is hundreds of phones, each keeping its connection open between taps; the
# body limit is the largest a route takes (an import), enforced before a byte is spooled.
WAITRESS: dict[str, Any] = {
    "ident": "allfives",
    "connection_limit": 4000,
    "backlog": 2048,
    "channel_timeout": 120,
    "max_request_body_size": SERVER_BODY_LIMIT,
    "asyncore_use_poll": hasattr(select, "poll"),
    # X-Forwarded-* reach the app untouched, which believes them only from as many proxies
    # as ALLFIVES_TRUSTED_PROXIES says (Werkzeug's ProxyFix, webapp/web/security.py): waitress
    # would otherwise delete them all before the app saw them.
    "clear_untrusted_proxy_headers": False,
}
# A phone's browser holds up to 6 connections to a site, so this is a few dozen phones behind
# one router; an address holding more is answered 503 and closed at once.
PER_ADDRESS = 100
_SAID = b"Too many connections from this address.\n"
BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nConnection: close\r\n"
    b"Content-Type: text/plain\r\nContent-Length: %d\r\n\r\n%s" % (len(_SAID), _SAID)
)


class AddressCap:
    """How many connections each client address holds in this process; one more than
    ``most`` is refused as it is accepted."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.held: Counter[str] = Counter()
        self.lock = threading.Lock()

    def channel(
        self, server: Any, sock: socket.socket, addr: Any, adj: Any, map: Any = None
    ) -> Any:
        """Waitress's ``channel_class``, called for each connection accepted."""
        address = str(addr[0] if isinstance(addr, tuple) else addr)
        with self.lock:
            refused = self.held[address] >= self.most
            if not refused:
                self.held[address] += 1
        if refused:
            with contextlib.suppress(OSError):
                sock.send(BUSY)  # a fresh socket's buffer takes it whole, without waiting
            sock.close()
            return None
        try:
            return _Counted(self, address, server, sock, addr, adj, map)
        except BaseException:
            self.release(address)
            raise

    def release(self, address: str) -> None:
        with self.lock:
            self.held[address] -= 1
            if self.held[address] <= 0:
                del self.held[address]


class _Counted(HeldChannel):
    """A connection that gives its address's place back when it closes."""

    def __init__(self, cap: AddressCap, address: str, *args: Any) -> None:
        self.cap, self.address, self.counted = cap, address, True
        super().__init__(*args)

    def del_channel(self, map: Any = None) -> None:
        super().del_channel(map)
        if self.counted:  # closing may come twice
            self.counted = False
            self.cap.release(self.address)


def make_server(app: Flask, threads: int, **where: Any) -> Any:
    """Waitress serving ``app`` on ``host`` and ``port``, or on ``sockets``; each address
    may hold ``PER_ADDRESS`` connections, unless a trusted proxy holds them all. A game
    screen's stream is held by waitress's loop, not by a thread (:mod:`.held`), and the loop
    asks only the connections that may have changed (:mod:`.loop`)."""
    quieted(logging.getLogger("waitress.queue"), QUEUE_SAID_EVERY)
    servers: dict[int, Any] = {}
    server = create_server(app, map=servers, threads=threads, **WAITRESS, **where)
    channel: Callable[..., Any] = HeldChannel
    if not app.config.get("TRUSTED_PROXIES"):
        channel = AddressCap(PER_ADDRESS).channel
    loop = Loop()
    server.asyncore = loop
    for each in list(servers.values()):
        if isinstance(each, BaseWSGIServer):
            each.channel_class = channel
            each.held_loop = loop
    return server


#: Waitress warns of its task queue's depth on every request that finds all threads busy: in a
#: rush, a line per request, which costs CPU when it matters most and buries every other line.
QUEUE_SAID_EVERY = 10.0


class Seldom(logging.Filter):
    """Lets a logger's line through at most once every ``every`` seconds; the next one let
    through says how many were held back in between."""

    def __init__(self, every: float) -> None:
        super().__init__()
        self.every = every
        self.due = 0.0
        self.held = 0
        self.lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        now = time.monotonic()
        with self.lock:
            if now < self.due:
                self.held += 1
                return False
            self.due = now + self.every
            held, self.held = self.held, 0
        if held:
            record.msg = f"{record.msg} ({held} such lines held back before this one)"
        return True


def quieted(logger: logging.Logger, every: float) -> None:
    """``logger``'s lines at most once every ``every`` seconds (:class:`Seldom`), once."""
    if not any(isinstance(each, Seldom) for each in logger.filters):
        logger.addFilter(Seldom(every))


def enough_files() -> None:
    """Let this process hold every connection it may take: the usual soft limit of 1,024
    open files would refuse connections long before ``connection_limit``."""
    try:
        import resource
    except ImportError:  # not on Windows, where there is no such limit to raise
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = WAITRESS["connection_limit"] + 1000
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def serve_one(
    app: Flask, host: str, port: int, threads: int, ready: Callable[[], None] = lambda: None
) -> None:
    """One process, one port: works wherever Python does. ``ready`` is called once the port
    is bound (a port in use is an OSError before it)."""
    # Waitress's own warnings to stderr, as its serve() would; the app's lines have their own
    # handler (Flask's), so they are not written twice through the root logger.
    waitress = logging.getLogger("waitress")
    if not waitress.handlers:
        waitress.addHandler(logging.StreamHandler())
    enough_files()
    server = make_server(app, threads, host=host, port=port)
    ready()
    server.run()


def _in_memory() -> str | None:
    """A folder kept in memory (Linux's ``/dev/shm``), where the workers share what they render:
    a file written and renamed there costs 25-30 µs of CPU, on a disk's file system 140-150 µs
    and 0.4-0.6 ms of waiting. None (the usual temporary folder) where there is none."""
    shm = "/dev/shm"
    return shm if os.path.isdir(shm) and os.access(shm, os.W_OK | os.X_OK) else None


def serve_workers(
    make_app: Callable[[], Flask],
    host: str,
    port: int,
    threads: int,
    workers: int,
    ready: Callable[[], None] = lambda: None,
) -> None:
    """``workers`` processes on one port under gunicorn's master, which starts a new worker
    whenever one dies. ``make_app`` is called in each worker, after the fork. The workers
    share a folder of the master's, where a change to a followed game is rendered once for
    all of them (:mod:`webapp.web.rendered`)."""
    from gunicorn.app.base import BaseApplication

    enough_files()  # inherited by the workers
    # Bound here, so that a port in use is the caller's OSError rather than gunicorn's retries.
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.create_server((host, port), family=family, backlog=WAITRESS["backlog"])
    listener.set_inheritable(True)
    ready()
    master = os.getpid()
    # This user's, named by the master's process (what a leftover belongs to is then plain).
    rendered = tempfile.mkdtemp(prefix=f"allfives-rendered-{master}-", dir=_in_memory())

    class Master(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            settings = {
                "bind": [f"fd://{listener.fileno()}"],
                "workers": workers,
                "threads": threads,
                "worker_class": "webapp.serve.worker.WaitressWorker",
                "backlog": WAITRESS["backlog"],
                "proc_name": "allfives",
                "graceful_timeout": 10,
            }
            if "control_socket_disable" in self.cfg.settings:
                settings["control_socket_disable"] = True  # no socket in the user's home
            for name, value in settings.items():
                self.cfg.set(name, value)

        def load(self) -> Any:
            app = make_app()
            app.config["RENDERED_FOLDER"] = rendered
            return app

    try:
        Master().run()
    finally:  # the master's end, not a worker's (each leaves through here too, forked)
        if os.getpid() == master:
            shutil.rmtree(rendered, ignore_errors=True)
