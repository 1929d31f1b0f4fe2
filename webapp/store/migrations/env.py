"""Alembic environment: runs on the connection the app hands it (see webapp.db.upgrade)."""

from alembic import context
from sqlalchemy import create_engine

from webapp.store.schema import Base

config = context.config
target_metadata = Base.metadata


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        url = config.get_main_option("sqlalchemy.url")
        if not url:
            raise RuntimeError("no database: set sqlalchemy.url or hand over a connection")
        engine = create_engine(url)
        with engine.begin() as connection:
            _migrate(connection)
        return
    _migrate(connection)


def _migrate(connection) -> None:  # type: ignore[no-untyped-def]
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


run()
