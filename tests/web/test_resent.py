"""Every kind of action sent again at the same revision (a phone that lost the answer) is
saved once and said to be, through the pages and the JSON API alike; another action at that
revision is still refused as stale."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.tables import ApiTable, Table, text

# The same hand up to each kind of action: Ana leads 6-6, Ben draws the boneyard and passes,
# Ana passes (R7a: the table confirms it) and the hand is blocked.
UP_TO: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "start": [],
    "play": [("start", {"leader": "0"})],
    "draw": [("start", {"leader": "0"}), ("play", {"tile": "6-6"})],
    "pass": [("start", {"leader": "0"}), ("play", {"tile": "6-6"}), ("draw", {"count": "10"})],
    "undo": [("start", {"leader": "0"}), ("play", {"tile": "6-6"})],
    "settle": [
        ("start", {"leader": "0"}),
        ("play", {"tile": "6-6"}),
        ("draw", {"count": "10"}),
        ("pass", {}),
        ("pass", {"confirm": "1"}),
    ],
}
THE_ACTION: dict[str, dict[str, Any]] = {
    "start": {"leader": "0"},
    "play": {"tile": "6-6"},
    "draw": {"count": "10"},
    "pass": {},
    "undo": {},
    "settle": {"step": "confirm", "pips_0": "40", "pips_1": "116"},
}


@pytest.mark.parametrize("kind", [*THE_ACTION, "fix"])
def test_a_form_sent_again_is_saved_once(table: Table, kind: str) -> None:
    table.create("Ana", "Ben")
    if kind == "fix":
        steps, path, fields = UP_TO["draw"], "fix/1", {"what": "play", "tile": "5-5"}
    else:
        steps, path, fields = UP_TO[kind], kind, THE_ACTION[kind]
    for action, given in steps:
        assert table.post(action, **given).status_code == 303, action
    seq = table.seq
    first = table.post(path, htmx=True, seq=seq, **fields)
    assert first.status_code == 200, text(first)[:300]
    assert "already recorded" not in text(first)
    again = table.post(path, htmx=True, seq=seq, **fields)
    assert again.status_code == 200, text(again)[:300]
    assert "Saved: that was already recorded" in text(again)
    assert table.seq == seq + 1
    other = table.post("undo" if kind != "undo" else "pass", htmx=True, seq=seq)
    assert other.status_code == 409


API_ACTION: dict[str, dict[str, Any]] = {
    "start_hand": {"starter": "Ana"},
    "play": {"tile": "6-6"},
    "draw": {"count": 10},
    "pass": {},
    "undo": {},
    "end_hand": {"remaining": {"Ana": 40, "Ben": 116}},
    "correct": {"entry": 1, "with": [{"type": "play", "tile": "5-5"}]},
}
# The same hand as the forms', up to each kind of action.
API_UP_TO: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "start_hand": [],
    "play": [("start_hand", {"starter": "Ana"})],
    "draw": [("start_hand", {"starter": "Ana"}), ("play", {"tile": "6-6"})],
    "pass": [
        ("start_hand", {"starter": "Ana"}),
        ("play", {"tile": "6-6"}),
        ("draw", {"count": 10}),
    ],
    "undo": [("start_hand", {"starter": "Ana"}), ("play", {"tile": "6-6"})],
    "end_hand": [
        ("start_hand", {"starter": "Ana"}),
        ("play", {"tile": "6-6"}),
        ("draw", {"count": 10}),
        ("pass", {}),
        ("pass", {"confirm": True}),
    ],
    "correct": [("start_hand", {"starter": "Ana"}), ("play", {"tile": "6-6"})],
}


@pytest.mark.parametrize("kind", API_ACTION)
def test_an_api_action_sent_again_is_saved_once(client: FlaskClient, kind: str) -> None:
    game = ApiTable(client, ["Ana", "Ben"])
    for action, given in API_UP_TO[kind]:
        game.act(action, **given)
    seq = game.state["seq"]
    body = {"seq": seq, "type": kind, **API_ACTION[kind]}
    first = client.post(f"/api/games/{game.id}/actions", json=body)
    assert first.status_code == 200, first.json
    again = client.post(f"/api/games/{game.id}/actions", json=body)
    assert again.status_code == 200, again.json
    assert again.json["already_recorded"] is True
    assert again.json["outcome"]["message"] == "Saved: that was already recorded."
    assert again.json["state"]["seq"] == seq + 1 == game.fetch()["seq"]
    other = {"seq": seq, "type": "pass" if kind == "undo" else "undo"}
    assert client.post(f"/api/games/{game.id}/actions", json=other).status_code == 409
