"""The database: engines from configuration, SQLite tuned for durability, Alembic on start."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event

from .store import Store

MIGRATIONS = Path(__file__).parent / "migrations"


def database_url(value: str) -> str:
    """A SQLAlchemy URL from a URL or a plain file path."""
    if "://" in value:
        return value
    return f"sqlite:///{Path(value).expanduser().resolve()}"


SYNCHRONOUS = ("NORMAL", "FULL")


def open_store(url: str, synchronous: str = "NORMAL") -> Store:
    """A store on ``url`` with its schema upgraded to the newest migration.

    ``synchronous`` is SQLite's: in WAL mode, ``NORMAL`` (the default) makes every
    acknowledged action survive the server being killed or crashing at any moment (the WAL is
    written before the commit returns); ``FULL`` also survives a power cut or an operating
    system crash, at an fsync per action (about ten times the cost of a play under load).
    """
    reader = make_engine(url, synchronous=synchronous)
    upgrade(reader)
    if reader.dialect.name != "sqlite":
        return Store(reader)
    return Store(reader, make_engine(url, immediate=True, synchronous=synchronous))


def make_engine(url: str, immediate: bool = False, synchronous: str = "NORMAL") -> Engine:
    """An engine for ``url``; for SQLite, ``immediate`` makes it a writers' engine.

    A deferred SQLite transaction that reads and then writes fails at once when another writer
    committed in between; ``BEGIN IMMEDIATE`` makes writers queue instead (up to the busy
    timeout). Other databases lock the game row with ``SELECT … FOR UPDATE``.
    """
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True)
    if synchronous.upper() not in SYNCHRONOUS:
        raise ValueError(f"synchronous must be one of {SYNCHRONOUS}, not {synchronous!r}")
    pragma = f"PRAGMA synchronous={synchronous.upper()}"
    engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})
    event.listen(engine, "connect", _tune_sqlite)
    event.listen(engine, "connect", lambda conn, _record: conn.execute(pragma))
    event.listen(engine, "connect", _driver_autocommit)
    # Every transaction, reads included, sees one consistent snapshot of the database.
    begin = "BEGIN IMMEDIATE" if immediate else "BEGIN"
    event.listen(engine, "begin", lambda conn: conn.exec_driver_sql(begin))
    return engine


def _tune_sqlite(connection, _record) -> None:  # type: ignore[no-untyped-def]
    # WAL lets readers go on while one writer commits (synchronous: see open_store).
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def _driver_autocommit(connection, _record) -> None:  # type: ignore[no-untyped-def]
    # Let SQLAlchemy, not the sqlite3 module, decide when a transaction begins.
    connection.isolation_level = None


def upgrade(engine: Engine) -> None:
    """Create or upgrade the schema to the newest migration."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
