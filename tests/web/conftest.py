"""Fixtures of the page tests (the app, the client and ``table`` are in ``tests/conftest.py``)."""

from __future__ import annotations

import pytest

from tests.tables import Table


@pytest.fixture
def playing(table: Table) -> Table:
    """Ana, Ben and Cy, Ana to lead hand 1."""
    table.create("Ana", "Ben", "Cy")
    table.start(leader="0")
    return table
