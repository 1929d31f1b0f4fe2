"""Fixtures shared by the web, API, server and browser tests, and Hypothesis's profiles.

Tests run on a fresh SQLite file each. With ``ALLFIVES_TEST_POSTGRES`` set to a PostgreSQL
URL that may create databases (``postgresql+psycopg://postgres@127.0.0.1:55432/postgres``),
every test that uses ``database_url`` gets a fresh PostgreSQL database instead.

Every property test runs under one Hypothesis profile, chosen here: ``HYPOTHESIS_PROFILE``
names it (``thorough`` before changing the rules engine); otherwise ``ci`` when ``CI`` is set,
else ``default``. A test says only what is its own: a share of the profile's examples
(:func:`examples`), with the reason beside it.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, settings

from tests.tables import ApiTable, Table, device
from webapp import create_app

POSTGRES = os.environ.get("ALLFIVES_TEST_POSTGRES")

# --- Hypothesis ---------------------------------------------------------------------------------
#
# No deadline and no "too slow" check in any profile: an example that plays a whole game takes
# what it takes on a busy two-core machine (a browser and a server may share it), and a test
# that fails for the machine's load says nothing about the app. How fast things are is measured
# by tests/bench, against references taken in the same run.
settings.register_profile(
    "default",  # a run on a developer's machine: failures kept in .hypothesis/, tried first
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",  # the same examples as a local run, so CI takes no longer; a failure is printed with
    # the @reproduce_failure blob that replays it, as a throwaway machine keeps no database
    parent=settings.get_profile("default"),
    database=None,
    print_blob=True,
)
settings.register_profile(
    "thorough",  # by hand: HYPOTHESIS_PROFILE=thorough python3 -m pytest tests/rules tests/web
    parent=settings.get_profile("default"),
    max_examples=1_000,
)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "default")
)


def examples(share: float) -> int:
    """``share`` of the loaded profile's examples per test (at least one): a test whose every
    example costs a whole game runs fewer, one that only does arithmetic more, and each keeps
    its proportion under every profile."""
    return max(1, round(settings.default.max_examples * share))


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    if not POSTGRES:
        yield f"sqlite:///{tmp_path / 'games.sqlite3'}"
        return
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"allfives_test_{secrets.token_hex(6)}"
    # Pinged before use: a test may stop and start the server (tests/server/test_outage.py).
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT", pool_pre_ping=True)
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    yield make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


AppMaker = Callable[..., Flask]


@pytest.fixture
def make_app(database_url: str) -> Iterator[AppMaker]:
    """Makes apps on the test's database, each as a new process would start (nothing cached),
    with any setting changed by keyword; every one is closed when the test ends."""
    made: list[Flask] = []

    def make(**config: Any) -> Flask:
        base = {"TESTING": True, "DATABASE": database_url, "SECRET_KEY": "test"}
        created = create_app({**base, **config})
        made.append(created)
        return created

    yield make
    for created in made:
        created.extensions["allfives_store"].close()


@pytest.fixture
def app(make_app: AppMaker) -> Flask:
    return make_app()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A device whose session holds the CSRF token ``CSRF_TOKEN``, as a page load would set."""
    return device(app)


@pytest.fixture
def table(app: Flask, client: FlaskClient) -> Table:
    """A game entered through the forms (no game yet: ``table.create(...)`` makes it)."""
    return Table(app, client)


@pytest.fixture
def api_table(client: FlaskClient) -> ApiTable:
    """A new game of Ana, Ben and Cy through the JSON API, its first hand not started."""
    return ApiTable(client, ["Ana", "Ben", "Cy"])
