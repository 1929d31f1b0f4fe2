"""The house rules R17–R25 through the JSON API: every option, the presets, named ends, export."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.scripts import EXAMPLE_G, EXAMPLE_H
from tests.tables import ApiTable
from webapp.rules import DOUBLE_SIX
from webapp.rules.options import OPTION_SPECS, PRESETS

EVERY_OPTION = {
    "spinner": "every-double",
    "doubles": "one-half",
    "draw": "any-time",
    "reserve": 1,
    "first_lead": "highest-double",
    "rounding": "up",
    "rounding_of": "each-hand",
    "blocked": "difference",
    "floor": "zero",
    "finish": "exact",
    "points": "fives",
    "settlement": "winner-takes",
    "deal": "7-5-5",
    "count": "fives",
    "next_lead": "rotates",
    "get_in": 10,
    "time_limit": 30,
    "target": 40,
}


def test_the_api_takes_every_option_and_says_which_rules_are_in_force(
    client: FlaskClient,
) -> None:
    game = ApiTable(client, ["Ana", "Ben", "Cy"], rules={"preset": "muggins", **EVERY_OPTION})
    assert game.state["rules"] == {"preset": "muggins", **EVERY_OPTION}
    assert game.state["target"] == 40
    assert game.state["rules_title"].startswith("Muggins, 7 tiles for 2, else 5, every double")


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_sets_its_rules_and_a_default_target(client: FlaskClient, preset: str) -> None:
    game = ApiTable(client, ["Ana", "Ben"], rules={"preset": preset})
    rules = game.state["rules"]
    for name, value in PRESETS[preset].rules.items():
        assert rules[name] == value
    assert game.state["target"] == (61 if rules["points"] == "fives" else 250)  # R15, R25
    assert game.state["rules_title"] == PRESETS[preset].title


@pytest.mark.parametrize("spec", OPTION_SPECS, ids=[spec.name for spec in OPTION_SPECS])
def test_a_value_outside_an_option_is_refused_with_its_rule(client: FlaskClient, spec) -> None:
    response = client.post(
        "/api/games", json={"players": ["Ana", "Ben"], "rules": {spec.name: "sideways"}}
    )
    assert response.status_code == 422
    assert response.json["error"]["code"] == spec.name
    assert response.json["error"]["rule"] == spec.rule
    assert "sideways" in response.json["error"]["message"]


def test_five_up_ends_are_named_by_their_double_in_the_state(client: FlaskClient) -> None:
    """R17: example H through the API; the second spinner's ends are '6-6 up' and '6-6 down'."""
    game = ApiTable(client, ["Ana", "Ben"], rules={"preset": "five-up"})
    game.act("start_hand", starter="Ana")
    body = game.enter(EXAMPLE_H[:7])[-1]
    assert body["outcome"]["breakdown"] == "3 + 2 + 1 + 5 = 11"
    hand = game.state["hand"]
    assert hand["ends"] == {"left": 3, "right": 2, "up": 1, "down": 4, "6-6 up": 5, "6-6 down": 6}
    assert hand["spinners"] == ["4-4", "6-6"]
    assert hand["layout"]["arms"]["6-6 up"] == ["6-5"]
    assert hand["moves"][-1]["end"] == "6-6 up"
    refused = game.act("play", expect=422, tile="1-0", end="3-3 up")
    assert refused["error"]["rule"] == "R17"


def test_muggins_refuses_up_and_down_through_the_api(client: FlaskClient) -> None:
    game = ApiTable(client, ["Ana", "Ben"], rules={"preset": "muggins"})
    game.act("start_hand", starter="Ana")
    game.enter(EXAMPLE_G[:3])
    refused = game.act("play", expect=422, tile="4-3", end="up")
    assert (refused["error"]["code"], refused["error"]["rule"]) == ("no_spinner", "R17")
    assert set(game.state["hand"]["ends"]) == {"left", "right"}


def test_the_highest_double_leads_and_a_table_without_one_says_so(client: FlaskClient) -> None:
    """R21: a start without a leader is refused; ``no_double`` lets the named player lead any
    tile."""
    game = ApiTable(client, ["Ana", "Ben"], rules={"first_lead": "highest-double"})
    refused = game.act("start_hand", expect=422)
    assert refused["error"]["rule"] == "R21"
    game.act("start_hand", starter="Ben")
    refused = game.act("play", expect=422, tile="6-5")
    assert (refused["error"]["code"], refused["error"]["rule"]) == ("lead_not_double", "R21")
    game.act("undo")
    game.act("start_hand", starter="Ben", no_double=True)
    body = game.act("play", tile="6-5")
    assert body["outcome"]["count"] == 11


def test_a_reserve_shows_the_tiles_that_may_still_be_drawn(client: FlaskClient) -> None:
    """R20: with 2 players and a reserve of two, 10 face down and 8 to draw."""
    game = ApiTable(client, ["Ana", "Ben"], rules={"reserve": "by-players"})
    game.act("start_hand", starter="Ana")
    hand = game.state["hand"]
    assert (hand["boneyard"], hand["drawable"]) == (10, 8)
    game.act("play", tile="6-6")
    game.act("draw", count=8)
    assert (game.state["can_draw"], game.state["can_pass"]) == (False, True)
    refused = game.act("draw", expect=422)
    assert refused["error"]["rule"] == "R20"
    game.act("pass")


def _play_random_hand(game: ApiTable, rng: random.Random) -> None:
    """A real hand through the API: real tiles dealt, legal plays, draws and passes, settled."""
    players = [p["name"] for p in game.state["players"]]
    tiles = list(DOUBLE_SIX)
    rng.shuffle(tiles)
    size = {
        "9-7-5": {2: 9, 3: 7, 4: 5},
        "5": {2: 5, 3: 5, 4: 5},
        "7-5-5": {2: 7, 3: 5, 4: 5},
        "9-6": {2: 9, 3: 6, 4: 6},
    }[game.state["rules"]["deal"]][len(players)]
    hands = {name: tiles[i * size : (i + 1) * size] for i, name in enumerate(players)}
    boneyard = tiles[size * len(players) :]
    starter = game.state["next_leader"] or players[0]
    start: dict[str, Any] = {"starter": starter}
    if game.state["rules"]["first_lead"] == "highest-double" and not game.state["next_leader"]:
        doubles = [(t.a, n) for n, h in hands.items() for t in h if t.is_double]
        start = {"starter": max(doubles)[1]} if doubles else {"starter": starter, "no_double": True}
    game.act("start_hand", **start)
    while game.state["status"] == "playing":
        name = game.state["hand"]["turn"]
        ends = game.state["hand"]["ends"]
        fitting = [
            (t, end)
            for t in hands[name]
            for end, pip in (ends.items() if ends else [(None, None)])
            if pip is None or t.has(pip)
        ]
        lead_doubles = [(t, None) for t in hands[name] if t.is_double]
        if not ends and lead_doubles and "no_double" not in start:
            # R21 (where it applies) wants the highest double; leading it is always legal.
            fitting = [max(lead_doubles, key=lambda pair: pair[0].a)]
        if fitting:
            tile, end = rng.choice(fitting)
            body = game.act("play", tile=str(tile), end=end)
            hands[name].remove(tile)
            assert body["outcome"]["type"] == "play"
        elif game.state["can_draw"]:
            hands[name].append(boneyard.pop(0))
            game.act("draw")
        else:
            game.act("pass")
    if game.state["status"] == "hand_over":
        remaining = {n: [str(t) for t in h] for n, h in hands.items() if h}
        game.act("end_hand", remaining=remaining)


@pytest.mark.parametrize("seed", range(6))
def test_a_game_under_any_rules_exports_and_imports_back_identically(
    client: FlaskClient, seed: int
) -> None:
    rng = random.Random(seed)
    rules: dict[str, Any] = {"preset": rng.choice(list(PRESETS))}
    for spec in OPTION_SPECS:
        if rng.random() < 0.5:
            rules[spec.name] = rng.choice(spec.values)
    if rules.get("rounding") == "none":
        rules["points"] = "pips"
    threes = rules.get("count") == "fives-and-threes" or rules["preset"] == "fives-and-threes"
    if threes and rules.get("count") != "fives":  # R26: threes are counted in fives
        rules["points"] = "fives"
    fives = rules.get("points") == "fives" or rules["preset"] in ("five-up", "fives-and-threes")
    if fives and rules.get("rounding") == "none":
        del rules["rounding"]
    players = ["Ana", "Ben", "Cy", "Di"][: rng.choice((2, 3, 4))]
    game = ApiTable(client, players, rules=rules)
    for _ in range(2):
        if game.state["status"] == "game_over":
            break
        _play_random_hand(game, rng)
    exported = client.get(f"/api/games/{game.id}/export").json
    imported = client.post("/api/games/import", json=exported)
    assert imported.status_code == 201, imported.json
    copy, original = imported.json, game.fetch()
    # The clock (R30) starts with the lead as the copy's log is written, not the original's.
    for key in ("id", "view_id", "clock_ends"):
        copy.pop(key), original.pop(key)
    assert copy == original
