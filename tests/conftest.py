"""Fixtures shared by the web, API, server and browser tests.

Tests run on a fresh SQLite file each. With ``ALLFIVES_TEST_POSTGRES`` set to a PostgreSQL
URL that may create databases (``postgresql+psycopg://postgres@127.0.0.1:55432/postgres``),
every test that uses ``database_url`` gets a fresh PostgreSQL database instead.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from webapp import create_app

POSTGRES = os.environ.get("ALLFIVES_TEST_POSTGRES")
CSRF_TOKEN = "csrf-token-of-the-test-device"


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    if not POSTGRES:
        yield f"sqlite:///{tmp_path / 'games.sqlite3'}"
        return
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"allfives_test_{secrets.token_hex(6)}"
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    yield make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture
def app(database_url: str) -> Iterator[Flask]:
    created = create_app({"TESTING": True, "DATABASE": database_url, "SECRET_KEY": "test"})
    yield created
    created.extensions["allfives_store"].close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A device whose session holds the CSRF token ``CSRF_TOKEN``, as a page load would set."""
    device = app.test_client()
    with device.session_transaction() as session:
        session["csrf_token"] = CSRF_TOKEN
    return device
