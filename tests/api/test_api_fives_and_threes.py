"""Fives and Threes and the rest of R26–R30 through the JSON API, with the names RULES.md
writes: worked example L, the knocks, the five for going out, the rotating lead, and time."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from tests.scripts import EXAMPLE_L
from tests.tables import ApiTable

# The points of each play of example L (R26), knocks left out.
L_POINTS = [2, 0, 1, 3, 0, 3, 8, 6, 0, 0, 0, 2]


def test_example_l_through_the_api(client: FlaskClient) -> None:
    game = ApiTable(client, ["Ana", "Ben"], rules={"preset": "fives-and-threes"})
    rules = game.state["rules"]
    assert (rules["count"], rules["draw"], rules["settlement"]) == (
        "fives-and-threes",
        "never",
        "go-out-bonus",
    )
    assert (rules["next_lead"], rules["points"], rules["finish"], rules["deal"]) == (
        "rotates",
        "fives",
        "exact",
        "7-5-5",
    )
    assert (rules["get_in"], rules["time_limit"], game.state["target"]) == (0, 0, 61)
    assert game.state["rules_title"] == "Fives and Threes"
    game.act("start_hand", starter="Ana")
    answers = game.enter(EXAMPLE_L)
    plays = [a["outcome"] for a in answers if a["outcome"]["type"] == "play"]
    assert [o["points"] for o in plays] == L_POINTS
    assert plays[6]["count"] == 15 and plays[6]["breakdown"] == "[6|6] 12 + 3 = 15"
    knocks = [a["outcome"] for a in answers if a["outcome"]["type"] == "pass"]
    assert [k["message"] for k in knocks] == ["Ana knocked", "Ana knocked"]
    assert game.state["can_draw"] is False and game.state["hand"]["drawable"] == 0
    assert game.state["hand"]["went_out"] == "Ben"
    assert [p["score"] for p in game.state["players"]] == [11, 14]
    # R28: nothing to report; going out scores one five, a point in fives.
    settled = game.act("end_hand", remaining={})
    assert settled["outcome"]["message"] == "Hand 1 settled: Ana +0, Ben +1"
    assert [p["score"] for p in game.state["players"]] == [11, 15]
    assert game.state["next_leader"] == "Ben"  # R29: the next seat
    refused = game.act("start_hand", expect=422, starter="Ana")
    assert (refused["error"]["code"], refused["error"]["rule"]) == ("wrong_leader", "R29")


def test_a_draw_in_the_block_game_is_refused(client: FlaskClient) -> None:
    game = ApiTable(client, ["Ana", "Ben"], rules={"preset": "fives-and-threes", "deal": "9-6"})
    game.act("start_hand", starter="Ana")
    game.act("play", tile="6-6")
    assert game.state["hand"]["boneyard"] == 10  # 9 each: the other 10 are out of play
    refused = game.act("draw", expect=422)
    assert (refused["error"]["code"], refused["error"]["rule"]) == ("no_drawing", "R27")


def test_time_called_in_overtime_through_the_api(client: FlaskClient) -> None:
    game = ApiTable(client, ["Ana", "Ben"], rules={"time_limit": 15})
    assert game.state["clock_ends"] is None  # the clock starts with the first lead
    game.act("start_hand", starter="Ana")
    game.act("play", tile="6-1")
    assert game.state["clock_ends"].endswith("Z")
    answer = game.act("call_time")
    assert answer["outcome"]["type"] == "call_time"
    assert (game.state["time_called"], game.state["overtime"]) == (True, ["Ana", "Ben"])
    assert game.state["status"] == "playing"
    game.act("play", tile="1-3")
    game.act("play", tile="6-4")
    game.act("play", tile="3-3")  # Ben: 4 + [3|3] 6 = 10, the first to score
    assert (game.state["status"], game.state["winner"]) == ("game_over", "Ben")
    refused = game.act("play", expect=422, tile="4-4")
    assert (refused["error"]["code"], refused["error"]["rule"]) == ("game_over", "R30")


@pytest.mark.parametrize(
    ("rules", "code", "rule"),
    [
        ({"count": "fives-and-threes"}, "count", "R26"),
        ({"next_lead": "loser"}, "next_lead", "R29"),
        ({"get_in": 5}, "get_in", "R30"),
        ({"time_limit": 20}, "time_limit", "R30"),
    ],
)
def test_bad_options_of_r26_to_r30_are_refused(client: FlaskClient, rules, code, rule) -> None:
    response = client.post("/api/games", json={"players": ["Ana", "Ben"], "rules": rules})
    assert response.status_code == 422
    assert (response.json["error"]["code"], response.json["error"]["rule"]) == (code, rule)


def test_call_time_without_a_limit_is_refused(client: FlaskClient) -> None:
    game = ApiTable(client, ["Ana", "Ben"])
    game.act("start_hand", starter="Ana")
    game.act("play", tile="6-1")
    refused = game.act("call_time", expect=422)
    assert (refused["error"]["code"], refused["error"]["rule"]) == ("no_time_limit", "R30")
