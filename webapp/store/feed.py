"""The change feed: which games moved, and to which revision, for the pages that follow them.

A play made in this process is announced the moment its commit returns (:meth:`ChangeFeed.
announce`). A play made in another worker process or on another app server reaches this one
through the database, with one watcher thread per process (never one per follower):

- **PostgreSQL**: the play's own transaction sends ``NOTIFY allfives_games, '<id> <seq>'``
  (``Cursor.append``), delivered by PostgreSQL at its commit to every connection listening;
  the watcher holds one such connection. Notifications sent while it was cut off are lost, so
  after every (re)connection it asks the revision of each followed game once.
- **SQLite**: ``PRAGMA data_version`` on the watcher's own connection changes whenever another
  connection commits; it is read every ``SQLITE_EVERY`` seconds (a few microseconds), and only
  when it changed are the followed games' revisions read, in one statement; of those, only the
  ones that moved since the last look are announced (under load the database changes at every
  look, and announcing all 1,000 followed games of a worker each time, 6,600 a second, cost
  the followers' thread more than the changes it had to write).

Listeners receive ``(game_id, seq, here)``, ``here`` False for a change heard from the
database (made in another process, or announced here too), and may hear a revision twice or
out of order (the announcement and the database both say it): they keep the highest.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable, Collection
from typing import Any

from sqlalchemy import Engine

CHANNEL = "allfives_games"
SQLITE_EVERY = 0.15  # seconds between two looks at PRAGMA data_version
RETRY = 2.0  # seconds before a watcher cut off from its database tries again
GONE = -1  # the revision announced of a game deleted: its followers are told to look again
ASKED_AT_ONCE = 500  # game ids per revision query

Listener = Callable[[str, int, bool], None]
log = logging.getLogger(__name__)


class ChangeFeed:
    """Plays announced in this process, and heard from the others through the database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._listeners: list[Listener] = []
        self._followed: Callable[[], Collection[str]] = tuple
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None
        self._lock = threading.Lock()

    def listen(self, listener: Listener, followed: Callable[[], Collection[str]]) -> None:
        """Call ``listener(game_id, seq, here)`` for every change heard; ``followed`` names the
        games worth asking the database about. Starts this process's watcher, once."""
        with self._lock:
            self._listeners.append(listener)
            self._followed = followed
            if self._in_memory() or (self._watcher is not None and self._watcher.is_alive()):
                return
            self._stop.clear()
            watch = self._watch_sqlite if self.engine.dialect.name == "sqlite" else self._watch_pg
            self._watcher = threading.Thread(target=watch, name="allfives-feed", daemon=True)
            self._watcher.start()

    def _in_memory(self) -> bool:
        """An in-memory SQLite database has no other process to hear from."""
        database = self.engine.url.database or ""
        return self.engine.dialect.name == "sqlite" and database in ("", ":memory:")

    def announce(self, game_id: str, seq: int, here: bool = True) -> None:
        """A play of this process, committed (``here``; else one heard from the database):
        tell every listener now."""
        for listener in list(self._listeners):
            try:
                listener(game_id, seq, here)
            except Exception:  # a listener's fault never fails the play that was saved
                log.exception("a change listener failed")

    def stop(self) -> None:
        self._stop.set()

    # --- the database's side ---------------------------------------------------------------

    def _tell(self, revisions: Collection[tuple[str, int]]) -> None:
        for game_id, seq in revisions:
            self.announce(game_id, seq, here=False)

    def _watch_sqlite(self) -> None:
        database = self.engine.url.database or ""
        connection: sqlite3.Connection | None = None
        seen = None
        told: dict[str, int] = {}  # each followed game's revision at the last look
        while not self._stop.wait(SQLITE_EVERY):
            try:
                if connection is None:
                    connection = sqlite3.connect(database, timeout=5, check_same_thread=False)
                    connection.isolation_level = None
                version = connection.execute("PRAGMA data_version").fetchone()[0]
                if version != seen:
                    seen = version
                    now = _revisions(connection, "?", sorted(self._followed()))
                    self._tell([(game, seq) for game, seq in now if told.get(game) != seq])
                    told = dict(now)
            except sqlite3.Error as error:
                log.warning("change feed: SQLite unreadable for now (%s)", error)
                if connection is not None:
                    connection.close()
                connection, seen, told = None, None, {}
                self._stop.wait(RETRY)
        if connection is not None:
            connection.close()

    def _watch_pg(self) -> None:
        import psycopg

        url = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        while not self._stop.is_set():
            try:
                with psycopg.connect(url, autocommit=True, connect_timeout=5) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    # What was sent while nobody listened here: each followed game's revision.
                    self._tell(_revisions(connection, "%s", sorted(self._followed())))
                    while not self._stop.is_set():
                        for note in connection.notifies(timeout=1.0):
                            game_id, _, seq = note.payload.partition(" ")
                            if seq.isdigit() or seq == str(GONE):
                                self.announce(game_id, int(seq), here=False)
            except psycopg.Error as error:
                log.warning("change feed: PostgreSQL out of reach for now (%s)", error)
                self._stop.wait(RETRY)


def _revisions(connection: Any, mark: str, game_ids: list[str]) -> list[tuple[str, int]]:
    """The revision of each of ``game_ids`` that exists (``GONE`` for a deleted one), asked
    ``ASKED_AT_ONCE`` at a time."""
    found: list[tuple[str, int]] = []
    for start in range(0, len(game_ids), ASKED_AT_ONCE):
        some = game_ids[start : start + ASKED_AT_ONCE]
        marks = ", ".join([mark] * len(some))
        rows = connection.execute(
            f"SELECT id, CASE WHEN deleted_at IS NULL THEN seq ELSE {GONE} END FROM games "
            f"WHERE id IN ({marks})",
            some,
        )
        found.extend((str(game_id), int(seq)) for game_id, seq in rows.fetchall())
    return found
