"""The connections a SQLite file is read with: each thread's own, made on its first read and
kept. Taking a connection from SQLAlchemy's pool and giving it back costs as much as the read
itself; and SQLite in WAL mode holds nothing between two reads (each statement, its cursor
closed, is a transaction of its own), so a connection kept idle holds nothing back.

A connection made before a fork is its parent's: a child process never uses it, nor closes it
(SQLite closing it in the child could remove the write-ahead log the parent still writes to),
so the child keeps it, unused, in :data:`INHERITED`.
"""

from __future__ import annotations

import os
import threading
import weakref
from typing import Any

from sqlalchemy import Engine

#: The connections a forked child inherited from its parent: kept, never used nor closed.
INHERITED: list[Any] = []


class Readers:
    """Each thread's own connection to read ``engine``'s SQLite file with."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._mine = threading.local()
        # Every thread's, to close them all (one whose thread ended is closed as it goes).
        self._kept: weakref.WeakSet[Any] = weakref.WeakSet()
        self._spare: list[Any] = []  # made for threads to come (``ready``)
        self._lock = threading.Lock()
        _READERS.add(self)

    def ready(self, count: int) -> None:
        """Make connections for ``count`` threads to come, so that their first read (a new
        server's first requests) does not wait for one."""
        with self._lock:
            wanted = count - len(self._spare)
        made = [self._made() for _ in range(wanted)]
        with self._lock:
            self._spare.extend(made)

    def connection(self) -> Any:
        """This thread's connection: a ready one or one made now, if it has none yet."""
        mine = self._mine
        connection = getattr(mine, "connection", None)
        if connection is None:
            with self._lock:
                spare = self._spare.pop() if self._spare else None
            connection = mine.connection = spare if spare is not None else self._made()
        return connection

    def _made(self) -> Any:
        connection = self.engine.raw_connection()
        connection.detach()  # this thread's, not the pool's: the pool's room stays free
        with self._lock:
            self._kept.add(connection)
        return connection

    def drop(self, connection: Any) -> None:
        """Close this thread's ``connection`` (it failed): its next read makes another."""
        with self._lock:
            self._kept.discard(connection)
        if getattr(self._mine, "connection", None) is connection:
            del self._mine.connection
        connection.close()

    def close(self) -> None:
        """Close every thread's connection (a thread reading later makes another)."""
        with self._lock:
            kept, self._kept = list(self._kept), weakref.WeakSet()
            self._mine, self._spare = threading.local(), []
        for connection in kept:
            connection.close()

    def _forked(self) -> None:
        """In a forked child: every connection so far is the parent's."""
        INHERITED.extend(self._kept)
        self._kept = weakref.WeakSet()
        self._mine, self._spare = threading.local(), []
        self._lock = threading.Lock()


_READERS: weakref.WeakSet[Readers] = weakref.WeakSet()


def _after_fork() -> None:
    for readers in list(_READERS):
        readers._forked()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)
