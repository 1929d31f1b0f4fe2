"""The gunicorn worker of ``allfives serve --workers N`` (see :mod:`webapp.serve.serving`)."""

from __future__ import annotations

import os
import threading
import time

from gunicorn.workers.base import Worker

from .serving import make_server


class WaitressWorker(Worker):  # type: ignore[misc]
    """A gunicorn worker that serves its share of the listening sockets with waitress.

    Waitress runs in a thread; the worker's main thread tells the master it is alive once a
    second, and stops (so the master starts another) if waitress stops or the master goes."""

    def run(self) -> None:
        sockets = [listener.sock for listener in self.sockets]
        server = make_server(self.wsgi, self.cfg.threads, sockets=sockets)
        loop = threading.Thread(target=server.run, name="waitress", daemon=True)
        loop.start()
        while self.alive and loop.is_alive() and self.ppid == os.getppid():
            self.notify()
            time.sleep(1)
        server.task_dispatcher.shutdown(cancel_pending=False, timeout=5)
