"""The database: engines from configuration, SQLite tuned for durability, Alembic on start."""

from __future__ import annotations

import re
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.util import CommandError
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, OperationalError, SQLAlchemyError

from .cache import BUDGET
from .store import Store

MIGRATIONS = Path(__file__).parent / "migrations"


class Unusable(Exception):
    """The database cannot be used: one sentence saying why and what to do. The error it came
    from is its ``__cause__``."""


def database_url(value: str) -> str:
    """A SQLAlchemy URL from a URL or a plain file path."""
    if "://" in value:
        return value
    return f"sqlite:///{Path(value).expanduser().resolve()}"


SYNCHRONOUS = ("NORMAL", "FULL")


def open_store(url: str, synchronous: str = "NORMAL", cache_bytes: int = BUDGET) -> Store:
    """A store on ``url`` with its schema upgraded to the newest migration.

    ``synchronous`` is SQLite's: in WAL mode, ``NORMAL`` (the default) makes every
    acknowledged action survive the server being killed or crashing at any moment (the WAL is
    written before the commit returns); ``FULL`` also survives a power cut or an operating
    system crash, at an fsync per action (about ten times the cost of a play under load).

    ``cache_bytes`` bounds the replayed pieces of games kept in memory (:mod:`webapp.store.cache`).

    Raises :class:`Unusable`, saying what to do, if the database cannot be used.
    """
    try:
        reader = make_engine(url, synchronous=synchronous)
        upgrade(reader)
        if reader.dialect.name != "sqlite":
            return Store(reader, cache_bytes=cache_bytes)
        writer = make_engine(url, immediate=True, synchronous=synchronous)
        store = Store(reader, writer, cache_bytes)
        try:
            store.ready()  # a folder that cannot be written: now, not at the first play
        except OSError:
            store.close()
            raise
        return store
    except (SQLAlchemyError, OSError, ValueError, ImportError, CommandError) as error:
        raise Unusable(why_unusable(url, error)) from error


def why_unusable(url: str, error: BaseException) -> str:
    """One sentence on why the database at ``url`` cannot be used, and what to do."""
    text = str(getattr(error, "orig", None) or error).lower()
    if isinstance(error, ValueError) and "synchronous" in text:
        return f"ALLFIVES_SQLITE_SYNCHRONOUS must be one of {', '.join(SYNCHRONOUS)}"
    if isinstance(error, (NoSuchModuleError, ArgumentError)):
        return (
            f"{url!r} is not a database URL: give a SQLite file path or a URL such as "
            "postgresql+psycopg://user@host/allfives"
        )
    if isinstance(error, ImportError):
        return "the database driver is not installed: pip install 'allfives[postgres]'"
    sqlite = url.startswith("sqlite")
    where = url.removeprefix("sqlite:///") if sqlite else _without_password(url)
    if not sqlite and _bad_port(url):
        return (
            f"the port in {where} is not a port: give a number from 1 to 65535 after the host, "
            "as in postgresql+psycopg://user@host:5432/allfives"
        )
    if isinstance(error, CommandError) and "can't locate revision" in text:
        return (
            f"the database {where} was last used by a newer version of All Fives: run that "
            "version (or a later one), or set ALLFIVES_DATABASE (or --db) to another database"
        )
    if sqlite and isinstance(error, OSError) and error.filename:
        return (
            f"cannot write to {Path(error.filename).parent}: the database's folder must be "
            "writable by this user (its lock file goes beside it), or set ALLFIVES_DATABASE "
            "(or --db) to a file in a folder you can write"
        )
    if "already exists" in text:
        return (
            f"the database {where} has tables but no migration history (it was made before "
            "migrations): move it aside to start a new one, or set ALLFIVES_DATABASE to another"
        )
    if sqlite and ("not a database" in text or "malformed" in text):
        return (
            f"{where} is not an All Fives database, or it is damaged: restore it from a backup "
            "(allfives backup), or set ALLFIVES_DATABASE (or --db) to a new file"
        )
    if sqlite and (isinstance(error, OSError) or "unable to open" in text or "readonly" in text):
        return (
            f"cannot write to {where}: make sure its folder exists and can be written, or set "
            "ALLFIVES_DATABASE (or --db) to a file you can write"
        )
    if sqlite and "disk" in text:
        return f"cannot write to {where}: the disk is full or failing; free space and retry"
    if isinstance(error, OperationalError) and not sqlite:
        return (
            f"cannot connect to the database at {where}: check that the database server is "
            "running and that ALLFIVES_DATABASE (or --db) is right"
        )
    return (
        f"the database {where} could not be opened or upgraded: check it, or set "
        "ALLFIVES_DATABASE (or --db) to another"
    )


def _without_password(url: str) -> str:
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):  # not a URL, or a port that is not a number
        return _PASSWORD.sub(r"\1***@", url)


_PASSWORD = re.compile(r"(://[^:/@]*:)[^@]*@")


def _bad_port(url: str) -> bool:
    try:
        port = make_url(url).port
    except ValueError:  # not a number
        return True
    except ArgumentError:
        return False
    return port is not None and not 0 < port < 65536


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
