"""The connections a SQLite file is read with: each thread's own, made on its first read and
kept. Taking a connection from SQLAlchemy's pool and giving it back is about 60 calls, as long
as the read itself; and SQLite in WAL mode holds nothing between two reads (each statement, its
cursor closed, is a transaction of its own), so a connection kept idle holds nothing back.
"""

from __future__ import annotations

import os
import threading
import weakref
from typing import Any

from sqlalchemy import Engine


class Readers:
    """Each thread's own connection to read ``engine``'s SQLite file with."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._mine = threading.local()
        # Every thread's, to close them all (one whose thread ended is closed as it goes).
        self._kept: weakref.WeakSet[Any] = weakref.WeakSet()
        self._lock = threading.Lock()

    def connection(self) -> Any:
        """This thread's connection, made now if it has none (or only its parent process's)."""
        mine = self._mine
        if getattr(mine, "pid", None) != os.getpid():
            connection = self.engine.raw_connection()
            connection.detach()  # this thread's, not the pool's: the pool's room stays free
            mine.connection, mine.pid = connection, os.getpid()
            with self._lock:
                self._kept.add(connection)
        return mine.connection

    def drop(self, connection: Any) -> None:
        """Close this thread's ``connection`` (it failed): its next read makes another."""
        with self._lock:
            self._kept.discard(connection)
        if getattr(self._mine, "connection", None) is connection:
            del self._mine.connection, self._mine.pid
        connection.close()

    def close(self) -> None:
        """Close every thread's connection (a thread reading later makes another)."""
        with self._lock:
            kept, self._kept = list(self._kept), weakref.WeakSet()
            self._mine = threading.local()
        for connection in kept:
            connection.close()
