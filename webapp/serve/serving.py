"""How ``allfives serve`` runs the app: waitress in one process, or gunicorn's master keeping
N waitress workers alive.

Measured with a real process and idle TCP connections on loopback (README, "Running it"):
waitress as shipped waits with ``select()``, which cannot watch file descriptors above 1023,
so about 1,030 idle connections made it exit; waitress told to ``poll()`` held 3,000 and
answered a normal request in 20 ms. Gunicorn's threaded workers alone did not: each new
connection holds one of the 8 threads while it waits for data, so 1,100 idle sockets left a
normal request unanswered after 20 s. So every process serves with waitress on ``poll()``,
and with ``--workers N`` gunicorn's master only forks, watches and replaces them.
"""

from __future__ import annotations

import logging
import select
import socket
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..config import SERVER_BODY_LIMIT

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
}


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
    from waitress.server import create_server

    logging.basicConfig()  # waitress's own warnings to stderr, as its serve() would
    enough_files()
    server = create_server(app, host=host, port=port, threads=threads, **WAITRESS)
    ready()
    server.run()


def serve_workers(
    make_app: Callable[[], Flask],
    host: str,
    port: int,
    threads: int,
    workers: int,
    ready: Callable[[], None] = lambda: None,
) -> None:
    """``workers`` processes on one port under gunicorn's master, which starts a new worker
    whenever one dies. ``make_app`` is called in each worker, after the fork."""
    from gunicorn.app.base import BaseApplication

    enough_files()  # inherited by the workers
    # Bound here, so that a port in use is the caller's OSError rather than gunicorn's retries.
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.create_server((host, port), family=family, backlog=WAITRESS["backlog"])
    listener.set_inheritable(True)
    ready()

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
            return make_app()

    Master().run()
