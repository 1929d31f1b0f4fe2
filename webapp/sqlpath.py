"""Every statement on the rows of games, events and snapshots, sent to the driver itself.

SQLAlchemy Core costs about 100 µs a statement here (building, caching and processing), the
driver about 10 µs, and a play is five statements: so the statements on those rows are written
once as SQL (``SQL``) and run on connections from the engines' own pools, by a :class:`Driver`
for reads and a :class:`Writer` for every transaction that changes a game (it owns SQLite's
writers' queue and the group commit of plays). SQLAlchemy keeps the engines and the schema
(``models.py``, the migrations).

The SQL is written with ``:name`` parameters and rewritten once for the driver's own style
(:class:`Statement`, the one place that knows them); JSON and timestamps are converted here
the way SQLAlchemy stores them, so rows written by earlier versions read back the same.
"""

from __future__ import annotations

import json
import os
import re
import threading
import weakref
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import Engine

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: writers queue within each process only
    fcntl = None  # type: ignore[assignment]

_NAME = re.compile(r"(?<!:):([a-z_]+)")


class GameRow(NamedTuple):
    id: str
    view_id: str
    options: dict[str, Any]
    seq: int
    created_at: datetime
    updated_at: datetime


class Statement:
    """One SQL statement in the driver's parameter style."""

    def __init__(self, sql: str, paramstyle: str) -> None:
        names = _NAME.findall(sql)
        self.names = names
        if paramstyle == "named":
            self.sql, self.positional = sql, False
        elif paramstyle == "pyformat":
            self.sql, self.positional = _NAME.sub(r"%(\1)s", sql), False
        elif paramstyle == "qmark":
            self.sql, self.positional = _NAME.sub("?", sql), True
        elif paramstyle == "format":
            self.sql, self.positional = _NAME.sub("%s", sql), True
        elif paramstyle == "numeric":
            numbers = iter(range(1, len(names) + 1))
            self.sql = _NAME.sub(lambda _m: f":{next(numbers)}", sql)
            self.positional = True
        else:  # pragma: no cover - PEP 249 has no other style
            raise ValueError(f"unknown parameter style {paramstyle!r}")

    def params(self, values: Mapping[str, Any]) -> Any:
        if self.positional:
            return tuple(values[name] for name in self.names)
        return values


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

    @contextmanager
    def turn(self) -> Iterator[None]:
        with self._thread:
            if self.path is None:
                yield
                return
            if self._fd is None:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            fcntl.flock(self._fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(self._fd, fcntl.LOCK_UN)


_QUEUES: weakref.WeakSet[WriterQueue] = weakref.WeakSet()


_GROUPS: weakref.WeakSet[GroupCommit] = weakref.WeakSet()


def _after_fork() -> None:
    for queue in list(_QUEUES):
        if queue._fd is not None:
            os.close(queue._fd)  # the parent's lock stays held until the parent releases it
        queue._forked()
    for group in list(_GROUPS):
        group._forked()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)


@dataclass(eq=False)
class _Append:
    """One play waiting to be written: event ``seq`` of ``game_id``, if the game is at seq - 1."""

    game_id: str
    seq: int
    action: str
    when: Any
    mark: dict[str, Any] | None  # the snapshot this event makes (the start of a hand), if any
    wake: threading.Event = field(default_factory=threading.Event)
    finished: bool = False
    moved: bool = False
    error: BaseException | None = None


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
        self, game_id: str, seq: int, action: str, when: Any, mark: dict[str, Any] | None
    ) -> bool:
        mine = _Append(game_id, seq, action, when, mark)
        with self._mutex:
            self._pending.append(mine)
            lead = not self._leading
            self._leading = True
        if not lead:
            mine.wake.wait()
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
                        self._pending[0].wake.set()  # the next leader
                    else:
                        self._leading = False
                for each in batch:
                    if each is not mine:
                        each.wake.set()
        if mine.error is not None:  # (the leader has raised it already)
            # Each thread raises its own error, so tracebacks are not tangled between them.
            raise BatchFailed("the transaction holding this play failed") from mine.error
        return mine.moved

    def _write(self, batch: list[_Append]) -> None:
        """One transaction for the batch: which games are where, then every move that holds."""
        driver = self.writer.driver
        with self.writer.transaction() as cursor:
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
                    values.update(action=each.action, created_at=each.when, updated_at=each.when)
                    moves.append(driver.move.params(values))
                    events.append(driver.insert.params(values))
                    if each.mark is not None:
                        snapshot = _snapshot(each.game_id, each.seq, each.mark)
                        marks.append(driver.snapshot.params(snapshot))
            if moves:  # the same statements as one play's write (``Cursor.append``)
                cursor.raw.executemany(driver.move.sql, moves)
                cursor.raw.executemany(driver.insert.sql, events)
            if marks:
                cursor.raw.executemany(driver.snapshot.sql, marks)


#: Every statement on the rows of games, events and snapshots, written once with ``:name``
#: parameters (``Statement`` puts them in the driver's style).
SQL = {
    "by_id": "SELECT id, view_id, options, seq, created_at, updated_at FROM games WHERE id = :key",
    "by_view": (
        "SELECT id, view_id, options, seq, created_at, updated_at FROM games WHERE view_id = :key"
    ),
    "seq": "SELECT seq FROM games WHERE id = :key",
    "tail": (
        "SELECT seq, action, created_at FROM events "
        "WHERE game_id = :game_id AND seq > :after AND seq <= :upto ORDER BY seq"
    ),
    "new_game": (
        "INSERT INTO games (id, view_id, options, seq, created_at, updated_at) "
        "VALUES (:id, :view_id, :options, :seq, :created_at, :updated_at)"
    ),
    "options": "UPDATE games SET options = :options WHERE id = :key",
    "insert": (
        "INSERT INTO events (game_id, seq, action, created_at) "
        "VALUES (:game_id, :seq, :action, :created_at)"
    ),
    "move": (
        "UPDATE games SET seq = :seq, updated_at = :updated_at WHERE id = :game_id AND seq = :was"
    ),
    "snapshot": (
        "INSERT INTO snapshots (game_id, seq, version, hand, state) "
        "VALUES (:game_id, :seq, :version, :hand, :state)"
    ),
    "unsnapshot": "DELETE FROM snapshots WHERE game_id = :game_id AND seq = :seq",
    "mark": (
        "SELECT seq, state FROM snapshots WHERE game_id = :game_id AND seq < :below "
        "AND version = :version AND hand <= :reach ORDER BY seq DESC LIMIT 1"
    ),
}


class Driver:
    """The statements of :class:`~webapp.store.Store` on one engine, and its cursors."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        dialect = engine.dialect
        self.sqlite = dialect.name == "sqlite"
        self.integrity_error: type[Exception] = dialect.loaded_dbapi.IntegrityError
        self.database_error: type[Exception] = dialect.loaded_dbapi.Error
        for name, sql in SQL.items():
            setattr(self, name, Statement(sql, dialect.paramstyle))
        # A writer on another database waits on the game's row (``Cursor.game``'s lock).
        lock = "" if self.sqlite else " FOR UPDATE"
        self.lock = Statement(SQL["by_id"] + lock, dialect.paramstyle)
        self.time: Callable[[datetime], Any] = _sqlite_time if self.sqlite else _same

    lock: Statement
    by_id: Statement
    by_view: Statement
    seq: Statement
    tail: Statement
    new_game: Statement
    options: Statement
    insert: Statement
    move: Statement
    snapshot: Statement
    unsnapshot: Statement
    mark: Statement

    @contextmanager
    def cursor(self, begin: str | None = None) -> Iterator[Cursor]:
        """A cursor on a pooled connection; with ``begin`` (the statement that opens a write,
        see :class:`Writer`), inside one committed transaction.

        A read is a statement or two with no transaction of its own: the log is append-only and
        a game's ``seq`` moves in the same commit as its new event, so a game row read first
        never names an event that cannot be read after it.
        """
        connection = self.engine.raw_connection()
        write = begin is not None
        try:
            raw = connection.cursor()
            cursor = Cursor(self, raw)
            if begin:
                raw.execute(begin)
            try:
                yield cursor
                if write:
                    connection.commit() if not self.sqlite else raw.execute("COMMIT")
            except BaseException:
                if self.sqlite:
                    if write:
                        raw.execute("ROLLBACK")
                else:
                    connection.rollback()
                raise
            finally:
                raw.close()
        finally:
            connection.close()  # back to the pool (which ends any transaction a read began)


class Writer:
    """Every transaction that changes a game, on the writers' engine: with SQLite, each takes
    its turn in the writers' queue (across processes), and plays are committed in groups."""

    def __init__(self, engine: Engine, immediate: bool = False) -> None:
        self.driver = Driver(engine)
        sqlite = self.driver.sqlite
        self.begin = ("BEGIN IMMEDIATE" if immediate else "BEGIN") if sqlite else ""
        self.queue = WriterQueue(engine.url.database) if sqlite and immediate else None
        self.group = GroupCommit(self) if self.queue is not None else None

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
    ) -> bool:
        """Add event ``seq`` and move the game to it from ``seq - 1``, committed; False if the
        game had moved (nothing written). ``mark`` (``version``, ``hand``, ``state``) is the
        snapshot of the state the event makes, written in the same transaction."""
        if self.group is not None:
            when = self.driver.time(now)
            return self.group.append(game_id, seq, json.dumps(action), when, mark)
        with self.transaction() as cursor:
            return cursor.append(game_id, seq, action, now, mark)

    @contextmanager
    def transaction(self) -> Iterator[Cursor]:
        """A cursor inside one committed write transaction, once it is this writer's turn."""
        with self.turn(), self.driver.cursor(self.begin) as cursor:
            yield cursor

    def turn(self) -> AbstractContextManager[None]:
        """Wait for this writer's turn (SQLite); other databases queue writers on row locks."""
        return self.queue.turn() if self.queue is not None else nullcontext()

    def close(self) -> None:
        if self.queue is not None:
            self.queue.close()


class Cursor:
    def __init__(self, driver: Driver, raw: Any) -> None:
        self.driver = driver
        self.raw = raw

    def run(self, statement: Statement, **values: Any) -> Any:
        self.raw.execute(statement.sql, statement.params(values))
        return self.raw

    def game(self, key: str, by_view: bool = False) -> GameRow | None:
        """The game row by its id (or view id)."""
        return self._game(self.driver.by_view if by_view else self.driver.by_id, key)

    def game_to_change(self, game_id: str) -> GameRow | None:
        """The game row, held until the transaction ends (SQLite's writers hold the whole
        database already)."""
        return self._game(self.driver.lock, game_id)

    def _game(self, statement: Statement, key: str) -> GameRow | None:
        row = self.run(statement, key=key).fetchone()
        if row is None:
            return None
        game_id, view_id, options, seq, created, updated = row
        return GameRow(game_id, view_id, _json(options), int(seq), _when(created), _when(updated))

    def seq(self, game_id: str) -> int | None:
        row = self.run(self.driver.seq, key=game_id).fetchone()
        return None if row is None else int(row[0])

    def tail(self, game_id: str, after: int, upto: int) -> list[tuple[int, dict[str, Any]]]:
        """Events ``after < seq <= upto``: bounded by the revision of the game row read, since a
        read has no snapshot of its own and later events may be committed meanwhile."""
        return [(seq, action) for seq, action, _ in self.events(game_id, after, upto)]

    def events(
        self, game_id: str, after: int, upto: int
    ) -> list[tuple[int, dict[str, Any], datetime]]:
        """``tail`` with the time each event was stored."""
        rows = self.run(self.driver.tail, game_id=game_id, after=after, upto=upto).fetchall()
        return [(int(seq), _json(action), _when(when)) for seq, action, when in rows]

    def mark(
        self, game_id: str, below: int, version: str, reach: int | None
    ) -> tuple[int, dict[str, Any]] | None:
        """The latest snapshot of ``version`` before event ``below`` (at hand ``reach`` or
        before): ``(seq, state)``."""
        values = {"game_id": game_id, "below": below, "version": version}
        reach = 2**31 - 1 if reach is None else reach
        row = self.run(self.driver.mark, **values, reach=reach).fetchone()
        return None if row is None else (int(row[0]), _json(row[1]))

    def new_game(self, game: GameRow, actions: list[dict[str, Any]]) -> None:
        """Insert ``game`` and its first ``actions`` (an import's), stored at its creation."""
        when = self.driver.time(game.created_at)
        values = game._asdict() | {"options": json.dumps(game.options)}
        self.run(self.driver.new_game, **values | {"created_at": when, "updated_at": when})
        insert = self.driver.insert
        events = [
            insert.params(
                {"game_id": game.id, "seq": seq, "action": json.dumps(action), "created_at": when}
            )
            for seq, action in enumerate(actions, start=1)
        ]
        if events:
            self.raw.executemany(insert.sql, events)

    def set_options(self, game_id: str, options: dict[str, Any]) -> None:
        self.run(self.driver.options, key=game_id, options=json.dumps(options))

    def snapshot(self, game_id: str, seq: int, mark: dict[str, Any]) -> None:
        """Keep ``mark`` as the snapshot of event ``seq``, in place of any other of it."""
        self.run(self.driver.unsnapshot, game_id=game_id, seq=seq)
        self.run(self.driver.snapshot, **_snapshot(game_id, seq, mark))

    def append(
        self,
        game_id: str,
        seq: int,
        action: dict[str, Any],
        now: datetime,
        mark: dict[str, Any] | None = None,
    ) -> bool:
        """Move the game to ``seq`` from ``seq - 1`` and add event ``seq`` (and its snapshot,
        ``mark``); False, with nothing written, if it had moved. (The move first: a second
        writer then waits on the row and finds it moved, rather than on the event's unique
        key.)"""
        when = self.driver.time(now)
        moved = self.run(self.driver.move, seq=seq, updated_at=when, game_id=game_id, was=seq - 1)
        if moved.rowcount != 1:
            return False
        self.run(
            self.driver.insert,
            game_id=game_id,
            seq=seq,
            action=json.dumps(action),
            created_at=when,
        )
        if mark is not None:
            self.run(self.driver.snapshot, **_snapshot(game_id, seq, mark))
        return True


def _snapshot(game_id: str, seq: int, mark: dict[str, Any]) -> dict[str, Any]:
    """A snapshot row's values: ``mark`` (``version``, ``hand``, ``state``) for event ``seq``."""
    return {"game_id": game_id, "seq": seq, **mark, "state": json.dumps(mark["state"])}


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


def _when(value: Any) -> datetime:
    return datetime.fromisoformat(value) if isinstance(value, str) else value


def _sqlite_time(value: datetime) -> str:
    """As SQLAlchemy's SQLite dialect stores a DateTime, microseconds always written."""
    return value.strftime("%Y-%m-%d %H:%M:%S.%f")


def _same(value: datetime) -> datetime:
    return value
