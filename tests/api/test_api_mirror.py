"""A play with no end through the JSON API (R5): places that are mirror images of each other —
the two sides of a lone double lead, a spinner's empty up and down — count as one, so the tile
is played there; only places that differ need an end."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.tables import ApiTable


def led(client: FlaskClient, tile: str) -> ApiTable:
    table = ApiTable(client, ["Ana", "Ben"])
    table.act("start_hand", starter="Ana")
    table.act("play", tile=tile)
    return table


def test_after_a_6_6_lead_a_6_4_with_no_end_is_played_not_refused(client: FlaskClient) -> None:
    table = led(client, "6-6")
    response = client.post(
        f"/api/games/{table.id}/actions",
        json={"seq": table.state["seq"], "type": "play", "tile": "6-4"},
    )
    assert response.status_code == 200, response.json
    outcome = response.json["outcome"]
    assert (outcome["type"], outcome["player"]) == ("play", "Ben")
    assert (outcome["count"], outcome["breakdown"]) == (16, "4 + [6|6] 12 = 16")
    assert outcome["message"] == "Ben played 6-4 on the left end: 4 + [6|6] 12 = 16"
    state = response.json["state"]
    assert state["hand"]["ends"] == {"left": 4, "right": 6}
    assert state["seq"] == table.state["seq"] + 1


def test_after_a_5_5_lead_a_5_3_with_no_end_goes_on_the_left(client: FlaskClient) -> None:
    table = led(client, "5-5")
    body = table.act("play", tile="5-3")
    assert body["outcome"]["breakdown"] == "3 + [5|5] 10 = 13"
    assert table.state["hand"]["ends"] == {"left": 3, "right": 5}


def test_a_spinners_empty_up_and_down_take_a_tile_with_no_end(client: FlaskClient) -> None:
    """Worked example B, step 4, the end left out: 5-0 goes up and scores 5."""
    table = led(client, "5-5")
    table.act("play", tile="5-3", end="left")
    table.act("play", tile="5-2", end="right")
    body = table.act("play", tile="5-0")
    assert (body["outcome"]["points"], body["outcome"]["breakdown"]) == (5, "3 + 2 + 0 = 5")
    assert table.state["hand"]["ends"] == {"left": 3, "right": 2, "up": 0, "down": 5}


def test_places_that_differ_still_need_an_end_and_are_listed_once(client: FlaskClient) -> None:
    table = led(client, "5-5")
    for tile, end in [("5-3", "left"), ("5-2", "right"), ("3-6", "left"), ("6-5", "left")]:
        table.act("play", tile=tile, end=end)
    before = table.fetch()
    body = table.act("play", expect=422, tile="5-1")
    assert (body["error"]["code"], body["error"]["rule"]) == ("choose_end", "R5")
    assert (
        body["error"]["message"] == "5-1 fits more than one end: left (0 points) or up (0 points)"
    )
    assert table.fetch() == before
