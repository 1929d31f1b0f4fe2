"""The writers of one database: their turns, and plays committed in groups.

SQLite lets one writer in at a time. :class:`WriterQueue` makes writers of every thread and
process take turns on a lock file beside the database, and :class:`GroupCommit` writes the plays
waiting at once in one transaction; :class:`Writer` is every transaction that changes a game.
The statements themselves are :mod:`webapp.store.sql`'s.
"""

from __future__ import annotations

import json
import os
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Engine

from .feed import ChangeFeed
from .readers import INHERITED
from .sql import Cursor, Driver, snapshot_values

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: writers queue within each process only
    fcntl = None  # type: ignore[assignment]


class WriterQueue:
    """Writers to one SQLite file take turns here, across threads and processes.

    SQLite lets one writer in at a time and makes the others wait in its busy handler, which
    sleeps 1, 2, 5, 10… ms between tries, so a writer often slept long after the lock was free:
    at a few hundred plays a second, that was most of the latency. Here a writer waits on a
    thread lock and an exclusive ``flock`` on a file beside the database, and the next one
    wakes the moment the lock is released. Where ``flock`` is missing the thread lock alone
    still spares threads of one process the busy handler.
    """

    _fd: int | None

    def __init__(self, database: str | None) -> None:
        in_memory = not database or database == ":memory:" or database.startswith("file::memory")
        self.path = None if in_memory or fcntl is None else f"{database}-writers"
        self._forked()
        _QUEUES.add(self)

    def _forked(self) -> None:
        """A fresh thread lock and descriptor, as in each forked worker: sharing the parent's
        open file would make the two processes hold one lock between them."""
        self._thread = threading.Lock()
        self._fd = None

    def close(self) -> None:
        with self._thread:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None

    def turn(self) -> WriterQueue:
        """The writers' turn, to enter (``with queue.turn():``): the queue itself, a context
        manager of its own rather than a generator's (one fewer object and exception a play)."""
        return self

    def __enter__(self) -> None:
        self._thread.acquire()
        if self.path is None:
            return
        try:
            if self._fd is None:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            fcntl.flock(self._fd, fcntl.LOCK_EX)
        except BaseException:
            self._thread.release()
            raise

    def __exit__(self, *_exc: object) -> None:
        try:
            if self.path is not None and self._fd is not None:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
        finally:
            self._thread.release()


_QUEUES: weakref.WeakSet[WriterQueue] = weakref.WeakSet()


_GROUPS: weakref.WeakSet[GroupCommit] = weakref.WeakSet()
_WRITERS: weakref.WeakSet[Writer] = weakref.WeakSet()


def _after_fork() -> None:
    for queue in list(_QUEUES):
        if queue._fd is not None:
            os.close(queue._fd)  # the parent's lock stays held until the parent releases it
        queue._forked()
    for group in list(_GROUPS):
        group._forked()
    for writer in list(_WRITERS):
        if writer._held is not None:  # the parent's connection: never used nor closed here
            INHERITED.append(writer._held)
            writer._held = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)


@dataclass(eq=False)
class _Append:
    """One play waiting to be written: event ``seq`` of ``game_id``, if the game is at seq - 1."""

    game_id: str
    seq: int
    action: dict[str, Any]
    when: datetime
    mark: dict[str, Any] | None  # the snapshot this event makes (the start of a hand), if any
    # What a play waiting for the leader waits on; none for the leader itself, which waits on
    # nothing (the play alone on a quiet server: an event is a condition and two locks made).
    wake: threading.Event | None = None
    finished: bool = False
    moved: bool = False
    error: BaseException | None = None


def _wake(waiting: _Append) -> None:
    assert waiting.wake is not None  # it arrived while a leader wrote, so it waits
    waiting.wake.set()


class BatchFailed(Exception):
    """The shared transaction that would have written this play failed: nothing was written."""


class GroupCommit:
    """The plays of every thread of a process, written to SQLite a batch per transaction.

    SQLite has one writer at a time, and under load a transaction's cost is mostly around its
    statements: the turn between processes, BEGIN, COMMIT, and winning Python's lock back after
    each call into SQLite while other threads render pages. So the first thread to arrive leads:
    it takes every play waiting, writes them in one transaction with one statement of each
    kind, and wakes their threads once the commit returns; plays that arrive meanwhile wait
    for the next leader, the first of them. Each play still moves its game from the revision
    its rules were asked at or not at all, and none is acknowledged before its commit.
    """

    _pending: list[_Append]

    def __init__(self, writer: Writer) -> None:
        self.writer = writer
        self._forked()
        _GROUPS.add(self)

    def _forked(self) -> None:
        """Nothing waiting and no leader, as in each forked worker."""
        self._mutex = threading.Lock()
        self._pending = []
        self._leading = False

    def append(
        self,
        game_id: str,
        seq: int,
        action: dict[str, Any],
        when: datetime,
        mark: dict[str, Any] | None,
    ) -> bool:
        mine = _Append(game_id, seq, action, when, mark)
        with self._mutex:
            self._pending.append(mine)
            lead = not self._leading
            self._leading = True
            if not lead:  # (made before the leader can see it: every play waiting has one)
                mine.wake = wake = threading.Event()
        if not lead:
            wake.wait()
        if not mine.finished:  # leading: this batch takes every play waiting, this one first
            with self._mutex:
                batch, self._pending = self._pending, []
            try:
                self._write(batch)
            except BaseException as error:
                for each in batch:
                    each.error = error
                raise
            finally:
                for each in batch:
                    each.finished = True
                with self._mutex:
                    if self._pending:
                        _wake(self._pending[0])  # the next leader
                    else:
                        self._leading = False
                for each in batch:
                    if each is not mine:
                        _wake(each)
        if mine.error is not None:  # (the leader has raised it already)
            # Each thread raises its own error, so tracebacks are not tangled between them.
            raise BatchFailed("the transaction holding this play failed") from mine.error
        return mine.moved

    def _write(self, batch: list[_Append]) -> None:
        """One transaction for the batch: which games are where, then every move that holds (a
        play alone: its move, which holds or not, then its event, as any write of one play)."""
        driver = self.writer.driver
        with self.writer.transaction() as cursor:
            if len(batch) == 1:
                one = batch[0]
                one.moved = cursor.append(one.game_id, one.seq, one.action, one.when, one.mark)
                return
            at = {}
            for game_id in sorted({each.game_id for each in batch}):
                seq = cursor.seq(game_id)
                if seq is not None:
                    at[game_id] = seq
            moves, events, marks = [], [], []
            for each in batch:  # in arrival order: of two plays at one revision, the first wins
                if at.get(each.game_id) == each.seq - 1:
                    at[each.game_id] = each.seq
                    each.moved = True
                    values = {"game_id": each.game_id, "seq": each.seq, "was": each.seq - 1}
                    when = driver.time(each.when)
                    values.update(action=json.dumps(each.action), created_at=when, updated_at=when)
                    moves.append(driver.move.params(values))
                    events.append(driver.insert.params(values))
                    if each.mark is not None:
                        snapshot = snapshot_values(each.game_id, each.seq, each.mark)
                        marks.append(driver.snapshot.params(snapshot))
            if moves:  # the same statements as one play's write (``Cursor.append``)
                cursor.raw.executemany(driver.move.sql, moves)
                cursor.raw.executemany(driver.insert.sql, events)
            if marks:
                cursor.raw.executemany(driver.snapshot.sql, marks)


class Writer:
    """Every transaction that changes a game, on the writers' engine: with SQLite, each takes
    its turn in the writers' queue (across processes), and plays are committed in groups."""

    def __init__(self, engine: Engine, immediate: bool = False) -> None:
        self.driver = Driver(engine)
        sqlite = self.driver.sqlite
        self.begin = ("BEGIN IMMEDIATE" if immediate else "BEGIN") if sqlite else ""
        self.queue = WriterQueue(engine.url.database) if sqlite and immediate else None
        self.group = GroupCommit(self) if self.queue is not None else None
        self.feed = ChangeFeed(engine)
        # With SQLite's writers' queue, one writer of the process at a time: it keeps its
        # connection from one turn to the next rather than taking it from the pool and giving
        # it back each time (about 60 calls into SQLAlchemy's pool per transaction).
        self._held: Any = None
        _WRITERS.add(self)

    @property
    def integrity_error(self) -> type[Exception]:
        return self.driver.integrity_error

    @property
    def database_error(self) -> type[Exception]:
        return self.driver.database_error

    def append(
        self,
        game_id: str,
        seq: int,
        action: dict[str, Any],
        now: datetime,
        mark: dict[str, Any] | None = None,
        also: Callable[[Connection], None] | None = None,
    ) -> bool:
        """Add event ``seq`` and move the game to it from ``seq - 1``, committed; False if the
        game had moved (nothing written). ``mark`` (``version``, ``hand``, ``state``) is the
        snapshot of the state the event makes, written in the same transaction; so is what
        ``also`` writes once the event is (a circle's seat that a rename moves), and if it
        fails, nothing is written at all."""
        if also is not None:
            moved = self._append_with(game_id, seq, action, now, mark, also)
        elif self.group is not None:
            moved = self.group.append(game_id, seq, action, now, mark)
        else:
            with self.transaction() as cursor:
                moved = cursor.append(game_id, seq, action, now, mark)
        if moved:
            self.feed.announce(game_id, seq)
        return moved

    def _append_with(
        self,
        game_id: str,
        seq: int,
        action: dict[str, Any],
        now: datetime,
        mark: dict[str, Any] | None,
        also: Callable[[Connection], None],
    ) -> bool:
        """The event and ``also``'s writes in one transaction, on one connection: the event's
        statements through its DB-API cursor, ``also``'s through SQLAlchemy."""
        with self.turn(), self.driver.engine.begin() as db:
            raw = db.connection.cursor()
            try:
                moved = Cursor(self.driver, raw).append(game_id, seq, action, now, mark)
            finally:
                raw.close()
            if moved:
                also(db)
        return moved

    @contextmanager
    def transaction(self) -> Iterator[Cursor]:
        """A cursor inside one committed write transaction, once it is this writer's turn."""
        with self.turn():
            if self.queue is None:
                with self.driver.cursor(self.begin) as cursor:
                    yield cursor
                return
            if self._held is None:
                self._held = self.driver.engine.raw_connection()
            try:
                with self.driver.cursor(self.begin, self._held) as cursor:
                    yield cursor
            except BaseException:
                # Rolled back; the connection goes back to the pool, which resets it, and the
                # next turn takes one afresh (this one may be the reason it failed).
                held, self._held = self._held, None
                held.close()
                raise

    def ready(self) -> None:
        """Take the writers' turn once, and make the connection kept from turn to turn."""
        with self.turn():
            if self.queue is not None and self._held is None:
                self._held = self.driver.engine.raw_connection()

    def turn(self) -> AbstractContextManager[None]:
        """Wait for this writer's turn (SQLite); other databases queue writers on row locks."""
        return self.queue.turn() if self.queue is not None else nullcontext()

    def close(self) -> None:
        self.feed.stop()
        if self.queue is not None:
            with self.queue.turn():
                held, self._held = self._held, None
                if held is not None:
                    held.close()
            self.queue.close()
