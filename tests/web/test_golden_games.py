"""Undo, the game log, replay, the audit and rescore answer as they did on recorded games.

The answers were written to ``tests/data/golden_games.json`` by ``golden_games.py`` (see there
for the games and how to write the file again); each game's log is played again here through
the store, action by action, and every answer must be the same: with the game's pieces kept
in memory, and with nothing kept before each action (rebuilt from the snapshots and the log, as
a fresh process does).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import AppMaker
from tests.web.golden_games import GOLDEN, answers

GAMES: list[dict[str, Any]] = json.loads(GOLDEN.read_text())


def first_difference(found: Any, expected: Any, where: str = "") -> str | None:
    if isinstance(expected, dict) and isinstance(found, dict):
        for key in expected.keys() | found.keys():
            missing = first_difference(found.get(key), expected.get(key), f"{where}.{key}")
            if missing:
                return missing
        return None
    if isinstance(expected, list) and isinstance(found, list) and len(found) == len(expected):
        for index, (a, b) in enumerate(zip(found, expected, strict=True)):
            missing = first_difference(a, b, f"{where}[{index}]")
            if missing:
                return missing
        return None
    return None if found == expected else f"{where}: {found!r} instead of {expected!r}"


@pytest.mark.parametrize("cold", [False, True], ids=["warm", "fresh process each action"])
@pytest.mark.parametrize("game", GAMES, ids=[game["name"] for game in GAMES])
def test_a_recorded_game_gets_the_same_answers_as_when_it_was_recorded(
    game: dict[str, Any], cold: bool, tmp_path: Path, make_app: AppMaker
) -> None:
    # On SQLite, as when the answers were recorded (golden_games.py).
    app = make_app(DATABASE=f"sqlite:///{tmp_path / 'games.sqlite3'}")
    found = answers(app, game, cold)
    assert first_difference(found, game["answers"]) is None
