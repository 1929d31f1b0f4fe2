"""Games stored before the house rules existed keep playing exactly as before (R17–R30).

``tests/data/previous_version.sqlite3`` was made by the version before R17–R25, with four games
of three real hands each (seed, pagat, partnership with its own deal, target and finish, and a
changed settlement); ``previous_version.json`` is the API state that version gave for each.
Their stored options name none of the new rules, so each must mean RULES.md's defaults.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.conftest import AppMaker
from tests.scripts import EXAMPLE_B
from webapp.api.shapes import GameShape
from webapp.rules import StartHand, Status

DATA = Path(__file__).parent.parent / "data"
NEW_RULES = {
    "spinner": "first-double",
    "doubles": "both-halves",
    "draw": "when-stuck",
    "reserve": 0,
    "first_lead": "by-lot",
    "rounding": "nearest",
    "rounding_of": "total",
    "blocked": "fewest-takes",
    "floor": "none",
    "points": "pips",
    "count": "fives",
    "next_lead": "went-out",
    "get_in": 0,
    "time_limit": 0,
}


@pytest.fixture
def old_app(tmp_path: Path, make_app: AppMaker) -> Flask:
    """The app on a copy of the database the version before the house rules wrote."""
    database = tmp_path / "old.sqlite3"
    shutil.copy(DATA / "previous_version.sqlite3", database)
    return make_app(DATABASE=f"sqlite:///{database}")


def _expected() -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = json.loads((DATA / "previous_version.json").read_text())
    return found


def test_every_stored_game_replays_to_the_state_the_previous_version_showed(
    old_app: Flask,
) -> None:
    store = old_app.extensions["allfives_store"]
    for game_id, before in _expected().items():
        now = GameShape(store.get(game_id)).as_json()
        old_rules = before.pop("rules")
        new_rules = now.pop("rules")
        # What the state says that the previous version did not: the same facts, said anew.
        assert now.pop("winners") == ([] if now["winner"] is None else [now["winner"]])
        assert (now.pop("time_called"), now.pop("overtime"), now.pop("clock_ends")) == (
            False,
            [],
            None,
        )  # R30: no clock
        assert now.pop("ended_early") is False  # no game was ended early then
        title = now.pop("rules_title")
        assert title.startswith({"seed": "Standard", "pagat": "Pagat"}[old_rules["preset"]])
        hand = now["hand"]
        assert hand.pop("drawable") == hand["boneyard"]  # R20: no reserve
        assert hand.pop("spinners") == ([hand["spinner"]] if hand["spinner"] else [])
        assert now == before
        # The rules it was created with, and today's default for every rule it never named.
        assert {name: new_rules[name] for name in old_rules} == old_rules
        for name, default in NEW_RULES.items():
            assert new_rules[name] == default, name


def test_a_stored_game_keeps_playing_with_a_spinner_that_opens_up_and_down(old_app: Flask) -> None:
    """R9, R10: an old game is played under ``spinner = "first-double"``, not Muggins."""
    store = old_app.extensions["allfives_store"]
    game_id = next(iter(_expected()))
    snapshot = store.get(game_id)
    assert snapshot.state.status is Status.AWAITING_START
    snapshot, _ = store.apply(game_id, snapshot.seq, StartHand(0))
    for action in EXAMPLE_B[:4].actions():
        snapshot, outcome = store.apply(game_id, snapshot.seq, action)
    assert outcome.count == 5 and outcome.points == 5  # example B, step 4: 5-0 up
