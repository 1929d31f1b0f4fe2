"""Fixtures shared by the web, API and browser tests."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from webapp import create_app


@pytest.fixture
def app(tmp_path) -> Flask:
    return create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "games.sqlite3"), "SECRET_KEY": "test"}
    )


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
