"""Fixing an earlier move through the JSON API (README "JSON API", action ``correct``): the
later moves that still fit stay; where one no longer fits, the outcome says which and why."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.scripts import FIX_KEPT, FIX_STOPPED, Script
from tests.tables import ApiTable

# The hands of tests/scripts.py: in FIX_KEPT, Ana leads 6-4 (+10) and Cy's 3-5 at move 6 makes
# 0 + 5 (+5); move 3 was really 6-5. In FIX_STOPPED, move 5 (Ben's 0-3 on the left) needs the
# 0 that move 3 left open.
REALLY = [{"type": "play", "tile": "6-5", "end": "left"}]


def played(client: FlaskClient, script: Script) -> ApiTable:
    table = ApiTable(client, ["Ana", "Ben", "Cy"])
    table.act("start_hand", starter="Ana")
    table.enter(script)
    return table


def tiles(state: dict[str, Any]) -> list[str]:
    return [move.get("tile", move["type"]) for move in state["hand"]["moves"]]


def scores(state: dict[str, Any]) -> dict[str, int]:
    return {player["name"]: player["score"] for player in state["players"]}


def test_fixing_a_tile_three_plays_back_keeps_the_later_plays_and_rescores_R11(
    client: FlaskClient,
) -> None:
    table = played(client, FIX_KEPT)
    assert scores(table.state) == {"Ana": 10, "Ben": 0, "Cy": 5}

    body = table.act("correct", entry=3, **{"with": REALLY})

    state, outcome = body["state"], body["outcome"]
    assert tiles(state) == ["6-5" if m.tile == "6-0" else m.tile for m in FIX_KEPT]
    assert scores(state) == {"Ana": 10, "Ben": 0, "Cy": 10}  # 3-5 now makes 5 + 5
    assert state["hand"]["count"] == 10 and state["hand"]["turn"] == "Ana"
    assert state["seq"] == 8 and state["last"] == outcome["message"]
    assert outcome["type"] == "correct"
    assert outcome["message"] == (
        "Fixed move 3: Cy played 6-5 on the left end, not 6-0; moves 4–6 kept"
    )
    assert outcome["fixed"] == {"entry": 3, "kept": 3, "stopped": None}
    assert (outcome["taken_back"], outcome["stopped_because"]) == (0, None)


def test_a_later_play_that_no_longer_fits_is_named_with_its_reason_and_taken_back_R5(
    client: FlaskClient,
) -> None:
    table = played(client, FIX_STOPPED)

    outcome = table.act("correct", entry=3, **{"with": REALLY})["outcome"]

    state = table.state
    assert tiles(state) == ["6-4", "4-1", "6-5", "1-2"]
    assert scores(state) == {"Ana": 10, "Ben": 0, "Cy": 0}  # Ben's +5 went with his 0-3
    assert state["hand"]["turn"] == "Ben"
    assert state["hand"]["held"] == {"Ana": 5, "Ben": 6, "Cy": 6}
    assert outcome["fixed"] == {"entry": 3, "kept": 1, "stopped": 5}
    assert outcome["taken_back"] == 2
    assert outcome["stopped_because"] == {
        "code": "no_match",
        "rule": "R5",
        "message": "the left end shows 5, and 0-3 has no 5",
    }
    assert "move 5 (Ben played 3-0 on the left end) no longer fits" in outcome["message"]
    # Ben can now enter what he really played.
    assert table.act("play", tile="2-5", end="right")["outcome"]["player"] == "Ben"


def test_undo_of_a_correction_brings_the_hand_back_as_entered(client: FlaskClient) -> None:
    table = played(client, FIX_STOPPED)
    before = table.state
    table.act("correct", entry=3, **{"with": REALLY})
    undone = table.act("undo")["state"]
    assert tiles(undone) == tiles(before) and scores(undone) == scores(before)
    assert undone["seq"] == before["seq"] + 2  # the correction and its undo stay in the log


@pytest.mark.parametrize(
    ("fix", "code", "rule"),
    [
        ({"entry": 3, "with": [{"type": "play", "tile": "1-2", "end": "left"}]}, "no_match", "R5"),
        (
            {"entry": 3, "with": [{"type": "play", "tile": "4-1", "end": "left"}]},
            "already_played",
            "R1",
        ),
        ({"entry": 3, "with": [{"type": "pass"}]}, "must_draw", "R7"),
        ({"entry": 9, "with": []}, "bad_entry", None),
        ({"entry": "3", "with": []}, "bad_entry", None),
        ({"entry": 3, "with": {"type": "pass"}}, "bad_correction", None),
        ({"entry": 3, "with": [{"type": "undo"}]}, "bad_correction", None),
        ({"entry": 3, "with": [{"type": "pass", "player": "Zed"}]}, "bad_player", None),
        (
            {"entry": 3, "with": [{"type": "play", "tile": "6-5", "player": "Ana"}]},
            "not_your_turn",
            "R5",
        ),
    ],
)
def test_a_correction_that_is_itself_illegal_is_422_and_changes_nothing(
    client: FlaskClient, fix: dict[str, Any], code: str, rule: str | None
) -> None:
    table = played(client, FIX_KEPT)
    before = table.fetch()
    error = table.act("correct", expect=422, **fix)["error"]
    assert (error["code"], error["rule"]) == (code, rule)
    assert error["message"]
    assert table.fetch() == before


def test_the_next_players_tile_a_pass_then_the_play_by_name_R7(client: FlaskClient) -> None:
    table = ApiTable(client, ["Ana", "Ben"])
    table.act("start_hand", starter="Ana")
    table.act("play", tile="6-4")
    # Ben takes the whole boneyard (R1: 10 tiles with two players); the table insists (R7a).
    table.act("draw", count=10, confirm=True)
    table.act("play", tile="4-1", end="right")
    table.act("play", tile="6-3", end="left")
    really = [{"type": "pass", "player": "Ben"}, {"type": "play", "tile": "4-1", "player": "Ana"}]
    body = table.act("correct", entry=3, **{"with": really})
    moves = body["state"]["hand"]["moves"]
    assert [(m["type"], m["player"]) for m in moves] == [
        ("play", "Ana"),
        ("draw", "Ben"),
        ("pass", "Ben"),
        ("play", "Ana"),
        ("play", "Ben"),
    ]
    assert body["outcome"]["fixed"] == {"entry": 3, "kept": 1, "stopped": None}


def test_a_corrected_game_exports_and_imports_as_corrected(client: FlaskClient) -> None:
    table = played(client, FIX_STOPPED)
    table.act("correct", entry=3, **{"with": REALLY})
    exported = client.get(f"/api/games/{table.id}/export").json
    assert exported["actions"][-1] == {"type": "correct", "entry": 3, "with": REALLY}
    imported = client.post("/api/games/import", json=exported)
    assert imported.status_code == 201
    assert tiles(imported.json) == tiles(table.state)
    assert scores(imported.json) == scores(table.state)
