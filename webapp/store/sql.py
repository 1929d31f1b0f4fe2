"""Every statement on the rows of games, events and snapshots, sent to the driver itself.

SQLAlchemy Core costs about 100 µs a statement here (building, caching and processing), the
driver about 10 µs, and a play is five statements: so the statements on those rows are written
once as SQL (``SQL``) and run on connections from the engines' own pools, by a :class:`Driver`
for reads and by :mod:`webapp.store.writer` for every transaction that changes a game (SQLite's
writers' queue and the group commit of plays). SQLAlchemy keeps the engines and the schema
(``schema.py``, the migrations).

The SQL is written with ``:name`` parameters and rewritten once for the driver's own style
(:class:`Statement`, the one place that knows them); JSON and timestamps are converted here
the way SQLAlchemy stores them, so rows written by earlier versions read back the same.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime
from typing import Any, NamedTuple

import orjson
from sqlalchemy import Engine
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.pool import QueuePool

from .feed import GONE
from .readers import Readers

_NAME = re.compile(r"(?<!:):([a-z_]+)")


class GameRow(NamedTuple):
    id: str
    view_id: str
    options: dict[str, Any]
    seq: int
    created_at: datetime
    updated_at: datetime
    deleted_at: datetime | None = None  # deleted by its table: a tombstone, kept


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


#: Every statement on the rows of games, events and snapshots, written once with ``:name``
#: parameters (``Statement`` puts them in the driver's style).
SQL = {
    "by_id": (
        "SELECT id, view_id, options, seq, created_at, updated_at, deleted_at FROM games "
        "WHERE id = :key"
    ),
    "by_view": (
        "SELECT id, view_id, options, seq, created_at, updated_at, deleted_at FROM games "
        "WHERE view_id = :key"
    ),
    "seq": "SELECT seq FROM games WHERE id = :key",
    "live_seq": "SELECT seq FROM games WHERE id = :key AND deleted_at IS NULL",
    "live_seq_by_view": "SELECT seq FROM games WHERE view_id = :key AND deleted_at IS NULL",
    "tail": (
        "SELECT seq, action, created_at FROM events "
        "WHERE game_id = :game_id AND seq > :after AND seq <= :upto ORDER BY seq"
    ),
    "new_game": (
        "INSERT INTO games (id, view_id, options, seq, created_at, updated_at) "
        "VALUES (:id, :view_id, :options, :seq, :created_at, :updated_at)"
    ),
    "options": "UPDATE games SET options = :options WHERE id = :key",
    "deleted": "UPDATE games SET deleted_at = :deleted_at WHERE id = :key",
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
    # PostgreSQL delivers it at the commit of the play that sends it (``webapp.store.feed``).
    "notify": "SELECT pg_notify('allfives_games', :payload)",
    "unsnapshot": "DELETE FROM snapshots WHERE game_id = :game_id AND seq = :seq",
    "mark": (
        "SELECT seq, state FROM snapshots WHERE game_id = :game_id AND seq < :below "
        "AND version = :version AND hand <= :reach ORDER BY seq DESC LIMIT 1"
    ),
    "starts": (
        "SELECT seq, hand FROM snapshots WHERE game_id = :game_id AND seq <= :upto "
        "AND version = :version ORDER BY seq"
    ),
    "mark_at": (
        "SELECT state FROM snapshots WHERE game_id = :game_id AND seq = :seq AND version = :version"
    ),
}


def out_of_reach(engine: Engine, error: BaseException) -> bool:
    """Whether ``error``, or one it came from, is the database of ``engine`` out of reach for
    a moment (a server gone or restarting, a connection cut, a file locked, unreadable or on a
    full disk), not a fault of the request: the same request may be sent again once it is back.
    Raised by the driver itself or by SQLAlchemy's pool, which wraps the driver's."""
    dbapi = engine.dialect.loaded_dbapi
    kinds = (OperationalError, InterfaceError, dbapi.OperationalError, dbapi.InterfaceError)
    seen: BaseException | None = error
    for _ in range(10):  # the error, then what it came from (a ROLLBACK failing after a COMMIT)
        if seen is None:
            return False
        if isinstance(seen, kinds):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


class Driver:
    """The statements of :class:`~webapp.store.Store` on one engine, and its cursors."""

    def __init__(self, engine: Engine, reads: bool = False) -> None:
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
        # A SQLite file's reads: on each thread's own connection.
        file = self.sqlite and isinstance(engine.pool, QueuePool)
        self._readers = Readers(engine) if reads and file else None

    lock: Statement
    by_id: Statement
    by_view: Statement
    seq: Statement
    live_seq: Statement
    live_seq_by_view: Statement
    tail: Statement
    new_game: Statement
    options: Statement
    deleted: Statement
    insert: Statement
    move: Statement
    starts: Statement
    mark_at: Statement
    snapshot: Statement
    unsnapshot: Statement
    mark: Statement
    notify: Statement

    @contextmanager
    def cursor(self, begin: str | None = None, held: Any = None) -> Iterator[Cursor]:
        """A cursor on a pooled connection (a SQLite file's read: on the thread's own,
        ``readers.py``; or on ``held``, one its caller keeps and gives back itself); with
        ``begin`` (the statement that opens a write, see :class:`Writer`), inside one
        committed transaction.

        A read is a statement or two with no transaction of its own: the log is append-only and
        a game's ``seq`` moves in the same commit as its new event, so a game row read first
        never names an event that cannot be read after it.
        """
        write = begin is not None
        readers = self._readers if held is None and not write else None
        if held is not None:
            connection = held
        elif readers is not None:
            connection = readers.connection()
        else:
            connection = self.engine.raw_connection()
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
        except self.database_error:
            if readers is not None:  # (a thread's own that failed is not used again)
                readers.drop(connection)
            raise
        finally:
            if held is None and readers is None:
                connection.close()  # back to the pool (which ends any transaction a read began)

    def ready(self, readers: int) -> None:
        """Make ``readers`` connections to read a SQLite file with, for threads to come."""
        if self._readers is not None:
            self._readers.ready(readers)

    def close(self) -> None:
        """Close every connection of the engine's pool, and the threads' own."""
        if self._readers is not None:
            self._readers.close()
        self.engine.dispose()


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
        game_id, view_id, options, seq, created, updated, deleted = row
        gone = None if deleted is None else _when(deleted)
        return GameRow(
            game_id, view_id, _options(options), int(seq), _when(created), _when(updated), gone
        )

    def seq(self, key: str, live: bool = False, by_view: bool = False) -> int | None:
        """The game's revision by its id (or view id); ``live``: None for a deleted game too."""
        if live:
            statement = self.driver.live_seq_by_view if by_view else self.driver.live_seq
        else:
            statement = self.driver.seq
        row = self.run(statement, key=key).fetchone()
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

    def starts(self, game_id: str, upto: int, version: str) -> list[tuple[int, int]]:
        """Every snapshot of ``version`` up to event ``upto``, without its state: ``(seq,
        hand)``, in order."""
        rows = self.run(self.driver.starts, game_id=game_id, upto=upto, version=version)
        return [(int(seq), int(hand)) for seq, hand in rows.fetchall()]

    def mark_at(self, game_id: str, seq: int, version: str) -> dict[str, Any] | None:
        """The state of the snapshot of event ``seq``, if one of ``version`` is kept."""
        row = self.run(self.driver.mark_at, game_id=game_id, seq=seq, version=version).fetchone()
        return None if row is None else _json(row[0])

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

    def set_deleted(self, game_id: str, when: datetime | None) -> None:
        """Mark the game deleted at ``when`` (its tombstone), or restored (``None``)."""
        at = None if when is None else self.driver.time(when)
        self.run(self.driver.deleted, key=game_id, deleted_at=at)
        if not self.driver.sqlite and when is not None:  # heard at the commit (feed.py)
            self.run(self.driver.notify, payload=f"{game_id} {GONE}")

    def snapshot(self, game_id: str, seq: int, mark: dict[str, Any]) -> None:
        """Keep ``mark`` as the snapshot of event ``seq``, in place of any other of it."""
        self.run(self.driver.unsnapshot, game_id=game_id, seq=seq)
        self.run(self.driver.snapshot, **snapshot_values(game_id, seq, mark))

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
            self.run(self.driver.snapshot, **snapshot_values(game_id, seq, mark))
        if not self.driver.sqlite:  # followers on other app servers hear of it at the commit
            self.run(self.driver.notify, payload=f"{game_id} {seq}")
        return True


def snapshot_values(game_id: str, seq: int, mark: dict[str, Any]) -> dict[str, Any]:
    """A snapshot row's values: ``mark`` (``version``, ``hand``, ``state``) for event ``seq``."""
    return {"game_id": game_id, "seq": seq, **mark, "state": json.dumps(mark["state"])}


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


def _options(value: Any) -> Any:
    """A game row's options, read with every request about the game: by orjson (a fifth of the
    time ``json`` takes), and by ``json`` what orjson refuses (text ``json`` may write that is
    not strict JSON: NaN, a lone surrogate), so every row reads as it always did. (Options hold
    no integer beyond 64 bits, which orjson would read as a float: the rules bound each one.)"""
    if not isinstance(value, str | bytes):
        return value  # (PostgreSQL's driver gives it decoded)
    try:
        return orjson.loads(value)
    except orjson.JSONDecodeError:
        return json.loads(value)


def _when(value: Any) -> datetime:
    return datetime.fromisoformat(value) if isinstance(value, str) else value


def _sqlite_time(value: datetime) -> str:
    """As SQLAlchemy's SQLite dialect stores a DateTime (``%Y-%m-%d %H:%M:%S.%f``, microseconds
    always written) of the naive UTC times the store keeps (``schema.utcnow``)."""
    return value.isoformat(" ", "microseconds")


def _same(value: datetime) -> datetime:
    return value
