"""The JSON API contract of README "JSON API": states, outcomes, refusals, revisions."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.scripts import EXAMPLE_B
from tests.tables import ApiTable


def test_create_returns_the_new_game(api_table: ApiTable) -> None:
    state = api_table.state
    assert state["status"] == "awaiting_start"
    assert state["seq"] == 0
    assert [p["name"] for p in state["players"]] == ["Ana", "Ben", "Cy"]
    assert state["target"] == 200  # R15 with 3 players
    assert state["next_leader"] is None  # R3: first hand, random or drawn lots
    assert len(state["id"]) >= 22  # 128 random bits, URL-safe


def test_rules_and_partnership(client: FlaskClient) -> None:
    game = ApiTable(
        client,
        ["Ana", "Ben", "Cy", "Di"],
        partnership=True,
        rules={"preset": "pagat", "target": 150, "finish": "end-of-hand"},
    )
    assert game.state["rules"] == {
        "preset": "pagat",
        "deal": "9-7-5",
        "target": 150,
        "settlement": "winner-takes",
        "finish": "end-of-hand",
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
    assert game.state["rules_title"] == "Pagat, winning after the hand, to 150"
    assert game.state["teams"] == [
        {"players": ["Ana", "Cy"], "score": 0},
        {"players": ["Ben", "Di"], "score": 0},
    ]


def test_the_rules_title_is_said_in_each_readers_language_however_often_it_is_asked(
    client: FlaskClient,
) -> None:
    """The rules in force are said once per rules and language, then kept: a phone in
    Romanian and one in English asking alternately each get their own words, and a game
    under other rules its own title (README, "Languages")."""
    game = ApiTable(client, ["Ana", "Ben", "Cy"], rules={"preset": "pagat", "target": 150})
    other = ApiTable(client, ["Ana", "Ben", "Cy"], rules={"preset": "pagat", "target": 250})

    def title(table: ApiTable, language: str) -> str:
        answer = client.get(f"/api/games/{table.id}", headers={"Accept-Language": language})
        assert answer.headers["Content-Language"] == language
        return str(answer.json["rules_title"])

    said = [title(game, language) for language in ("ro", "en", "ro", "en")]
    assert said[1] == said[3] == "Pagat, to 150"
    assert said[0] == said[2] == "Pagat și până la 150"
    assert title(other, "ro") == "Pagat și până la 250"
    # The screen says them alike, with the same words as the API.
    page = client.get(f"/g/{game.id}", headers={"Accept-Language": "ro"}).get_data(as_text=True)
    assert '<span class="rules-in-force">Pagat și până la 150</span>' in page


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"players": ["Ana"]}, "player_count"),
        ({"players": ["Ana", "ana"]}, "duplicate_name"),
        ({"players": ["Ana", "Ben", "Cy"], "partnership": True}, "partnership"),
        ({"players": ["Ana", "Ben"], "rules": {"preset": "sniff"}}, "preset"),
        ({"players": ["Ana", "Ben"], "rules": {"target": -5}}, "target"),
        ({"players": ["Ana", "Ben"], "rules": {"target": "²"}}, "target"),
        ({"players": ["Ana", "Ben"], "rules": {"target": "1" * 5000}}, "target"),
        ({"players": ["Ana", "Ben"], "rules": {"deal": "6"}}, "deal"),
        ({"players": ["Ana", "Ben"], "rules": {"spinners": "all"}}, "option"),
        ({"players": "Ana,Ben"}, "player_count"),
    ],
)
def test_create_refusals(client: FlaskClient, body: dict[str, Any], code: str) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 422
    assert response.json["error"]["code"] == code
    assert response.json["error"]["message"]


def test_api_takes_only_json(client: FlaskClient, api_table: ApiTable) -> None:
    response = client.post("/api/games", data={"players": "Ana"})
    assert response.status_code == 415
    response = client.post(f"/api/games/{api_table.id}/actions", data="seq=0&type=undo")
    assert response.status_code == 415
    assert api_table.fetch()["seq"] == 0


def test_missing_game_is_a_json_404(client: FlaskClient) -> None:
    response = client.get("/api/games/no-such-game")
    assert response.status_code == 404
    assert response.json["error"]["code"] == "no_such_game"
    response = client.post("/api/games/no-such-game/actions", json={"seq": 0, "type": "undo"})
    assert response.status_code == 404


def test_worked_example_b_through_the_api(api_table: ApiTable) -> None:
    """RULES.md example B: a spinner lead and the points of each play."""
    api_table.act("start_hand", starter="Ana")
    answers = api_table.enter(EXAMPLE_B)
    points = [answer["outcome"]["points"] for answer in answers]
    assert points == [10, 0, 5, 5, 0, 0]  # 5-5, 5-3 left, 5-2 right, 5-0 up, 2-2 right, 0-4 up
    hand = api_table.state["hand"]
    assert hand["count"] == 11
    assert hand["breakdown"] == "3 + [2|2] 4 + 4 = 11"
    assert hand["ends"] == {"left": 3, "right": 2, "up": 4, "down": 5}
    assert hand["spinner"] == "5-5"
    scores = {p["name"]: p["score"] for p in api_table.state["players"]}
    assert scores == {"Ana": 15, "Ben": 0, "Cy": 5}
    assert api_table.state["seq"] == 7


def test_end_omitted_when_only_one_place_fits(api_table: ApiTable) -> None:
    api_table.act("start_hand", starter="Ben")
    api_table.act("play", tile="6-4")
    body = api_table.act("play", tile="1-6")
    assert body["state"]["hand"]["ends"] == {"left": 1, "right": 4}
    assert body["outcome"]["player"] == "Cy"


def test_refusal_is_422_with_rule_and_changes_nothing(api_table: ApiTable) -> None:
    api_table.act("start_hand", starter="Ana")
    api_table.act("play", tile="3-2")
    before = api_table.fetch()
    cases = [
        ({"tile": "6-6"}, "no_match", "R5"),
        ({"tile": "2-1", "end": "up"}, "no_spinner", "R9"),
        ({"tile": "3-2"}, "already_played", "R1"),
        ({"tile": "9-9"}, "not_in_set", None),
        ({"tile": "six-four"}, "bad_tile", None),
        ({"tile": "3-3", "player": "Cy"}, "not_your_turn", "R5"),
        ({"tile": "3-3", "end": "sideways"}, "bad_end", "R5"),
    ]
    for fields, code, rule in cases:
        body = api_table.act("play", expect=422, **fields)
        assert body["error"]["code"] == code, fields
        assert body["error"]["rule"] == rule, fields
        assert api_table.fetch() == before


def test_a_tile_fitting_two_ends_needs_an_end(api_table: ApiTable) -> None:
    api_table.act("start_hand", starter="Ana")
    for tile, end in [("5-5", None), ("5-3", "left"), ("5-2", "right")]:
        api_table.act("play", tile=tile, end=end)
    body = api_table.act("play", expect=422, tile="3-2")
    assert body["error"]["code"] == "choose_end"
    assert (
        body["error"]["message"]
        == "3-2 fits more than one end: left (0 points) or right (0 points)"
    )
    api_table.act("play", tile="3-2", end="right")
    assert api_table.state["hand"]["ends"] == {"left": 3, "right": 3, "up": 5, "down": 5}


def test_stale_submissions_are_409_and_apply_nothing(
    client: FlaskClient, api_table: ApiTable
) -> None:
    """Another action at a revision the game has left is refused; the same one sent again
    (its answer was lost) is saved once and said to be."""
    api_table.act("start_hand", starter="Ana")
    request = {"seq": api_table.state["seq"], "type": "play", "tile": "6-4"}
    first = client.post(f"/api/games/{api_table.id}/actions", json=request)
    assert first.status_code == 200
    other = client.post(f"/api/games/{api_table.id}/actions", json={**request, "tile": "5-5"})
    assert other.status_code == 409
    assert other.json["error"]["code"] == "stale_seq"
    assert "Ana led 6-4" in other.json["error"]["message"]
    assert other.json["state"]["seq"] == first.json["state"]["seq"]
    again = client.post(f"/api/games/{api_table.id}/actions", json=request)
    assert again.status_code == 200 and again.json["already_recorded"] is True
    assert again.json["outcome"]["message"] == "Saved: that was already recorded."
    assert again.json["state"]["seq"] == first.json["state"]["seq"]
    assert len(api_table.fetch()["hand"]["moves"]) == 1
    missing_seq = client.post(f"/api/games/{api_table.id}/actions", json={"type": "undo"})
    assert missing_seq.status_code == 409


def test_draw_pass_and_blocked_hand(client: FlaskClient) -> None:
    game = ApiTable(client, ["Ana", "Ben"])
    game.act("start_hand", starter="Ana")
    game.act("play", tile="6-6")
    body = game.act("pass", expect=422)
    assert body["error"]["code"] == "must_draw"
    assert body["error"]["message"] == "the boneyard still has 10 tiles, so Ben must draw, not pass"
    game.act("draw", count=10)
    assert game.state["hand"]["boneyard"] == 0
    assert game.state["hand"]["held"] == {"Ana": 8, "Ben": 19}
    assert game.state["can_pass"] and not game.state["can_draw"]
    game.act("pass")
    # Worked example E (R7a): all six tiles with a 6 must be in Ana's hand, so her pass is
    # refused unless the table confirms it; the refusal says it can be confirmed.
    body = game.act("pass", expect=422)
    assert body["error"]["code"] == "must_hold_fitting"
    assert (body["error"]["rule"], body["error"]["confirmable"]) == ("R7a", True)
    assert body["error"]["message"].startswith(
        "Ana must hold a tile that fits, so cannot pass: 6-5, 6-4, 6-3, 6-2, 6-1 and 6-0 are "
        "not on the table; the boneyard is empty; Ben drew 10 tiles at move 2 and passed at "
        "move 3, so holds none of them"
    )
    assert game.fetch()["status"] == "playing"
    body = game.act("pass", confirm="yes", expect=422)
    assert (body["error"]["code"], body["error"]["confirmable"]) == ("bad_confirm", False)
    game.act("pass", confirm=True)
    assert game.state["status"] == "hand_over"
    assert game.state["hand"]["end"] == "blocked"
    # The log keeps that the table confirmed it, and an exported game imports back the same.
    exported = client.get(f"/api/games/{game.id}/export").json
    assert exported["actions"][-2:] == [{"type": "pass"}, {"type": "pass", "confirm": True}]
    imported = client.post("/api/games/import", json=exported)
    assert imported.status_code == 201, imported.json
    assert imported.json["hand"]["end"] == "blocked"


def test_a_log_kept_before_r7a_imports_and_replays_as_it_was_played(client: FlaskClient) -> None:
    """Entries in a game's log were accepted when entered: example E's passes, stored without
    "confirm" (as before R7a), import and replay; a new entry is judged by R7a again."""
    game = ApiTable(client, ["Ana", "Ben"])
    exported = client.get(f"/api/games/{game.id}/export").json
    actions = [
        {"type": "start_hand", "leader": 0},
        {"type": "play", "tile": "6-6"},
        {"type": "draw", "count": 10},
        {"type": "pass"},
        {"type": "pass"},  # Ana's pass, which R7a now disproves
    ]
    imported = client.post("/api/games/import", json={**exported, "actions": actions})
    assert imported.status_code == 201, imported.json
    assert imported.json["hand"]["end"] == "blocked"
    again = ApiTable(client, ["Ana", "Ben"])
    again.act("start_hand", starter="Ana")
    again.act("play", tile="6-6")
    again.act("draw", count=10)
    again.act("pass")
    assert again.act("pass", expect=422)["error"]["confirmable"] is True


def test_settle_by_names_with_pips_and_tiles(client: FlaskClient) -> None:
    """R13 through the API: reports by player name, as pips or tiles; R14 refusals."""
    game = ApiTable(client, ["Ana", "Ben"], rules={"deal": "5"})
    game.act("start_hand", starter="Ana")
    plays = [
        ("6-6", None),
        ("6-5", "left"),
        ("6-4", "right"),
        ("5-5", "left"),
        ("4-4", "right"),
        ("6-3", "up"),
        ("6-2", "down"),
        ("5-1", "left"),
        ("4-0", "right"),
    ]
    for tile, end in plays:
        game.act("play", tile=tile, end=end)
    assert game.state["status"] == "hand_over"
    assert game.state["hand"]["went_out"] == "Ana"
    assert game.state["players"][1]["held"] == 1
    body = game.act("end_hand", expect=422, remaining={"Ben": 10})
    assert body["error"] == {
        "code": "report_too_many",
        "rule": "R14",
        "message": "Ben holds 1 tile; one unplayed tile has at most 9 pips",
        "confirmable": False,
    }
    body = game.act("end_hand", expect=422, remaining={"Ben": ["6-6"]})
    assert body["error"]["code"] == "report_tile_played"
    body = game.act("end_hand", expect=422, remaining={"Zed": 3})
    assert body["error"]["code"] == "bad_player"
    assert game.fetch()["status"] == "hand_over"
    body = game.act("end_hand", remaining={"Ben": ["3-3"]})
    assert body["outcome"]["message"] == "Hand 1 settled: Ana +0, Ben -5"
    assert game.state["status"] == "awaiting_start"
    assert game.state["next_leader"] == "Ana"  # R3: who went out leads
    assert game.state["hands"][0]["rounded"] == {"Ana": 0, "Ben": 5}
    body = game.act("start_hand", expect=422, starter="Ben")
    assert body["error"]["code"] == "wrong_leader"
    body = game.act("undo")
    assert game.state["status"] == "hand_over"
    assert game.state["seq"] == 12


def test_immediate_finish_names_the_winner(client: FlaskClient) -> None:
    game = ApiTable(client, ["Ana", "Ben"], rules={"target": 10})
    game.act("start_hand", starter="Ben")
    game.act("play", tile="5-5")
    assert game.state["status"] == "game_over"
    assert game.state["winner"] == "Ben"
    body = game.act("play", expect=422, tile="5-0")
    assert body["error"]["code"] == "game_over"


def test_export_then_import_gives_an_identical_game(
    client: FlaskClient, api_table: ApiTable
) -> None:
    api_table.act("start_hand", starter="Cy")
    api_table.enter(EXAMPLE_B[:4])
    api_table.act("undo")
    exported = client.get(f"/api/games/{api_table.id}/export")
    assert exported.status_code == 200
    assert exported.json["actions"][-1] == {"type": "undo"}
    imported = client.post("/api/games/import", json=exported.json)
    assert imported.status_code == 201
    copy = imported.json
    assert copy["id"] != api_table.id
    original = api_table.fetch()
    for key in ("seq", "status", "players", "hand", "rules", "target", "can_undo"):
        assert copy[key] == original[key], key


@pytest.mark.parametrize(
    "change",
    [
        {"format": "something-else"},
        {"actions": [{"type": "play", "tile": "6-4"}]},  # no hand started
        {"actions": "all of them"},
        {"players": ["Solo"]},
    ],
)
def test_import_refuses_what_is_not_a_valid_game(
    client: FlaskClient, api_table: ApiTable, change: dict[str, Any]
) -> None:
    exported = client.get(f"/api/games/{api_table.id}/export").json
    response = client.post("/api/games/import", json={**exported, **change})
    assert response.status_code == 422
    assert response.json["error"]["message"]


@pytest.mark.parametrize("address", ["%00", "a%00b", "x" * 40, "ab%20cd", "%E2%98%83"])
def test_an_address_that_cannot_be_an_id_is_a_404(client: FlaskClient, address: str) -> None:
    """Found by fuzzing on PostgreSQL: a NUL byte in an address reached the database."""
    for path in (f"/api/games/{address}", f"/g/{address}", f"/v/{address}"):
        assert client.get(path).status_code == 404, path
    response = client.post(f"/api/games/{address}/actions", json={"seq": 0, "type": "undo"})
    assert response.status_code == 404


def test_a_name_with_control_characters_is_refused(client: FlaskClient) -> None:
    response = client.post("/api/games", json={"players": ["An\x00a", "Ben"]})
    assert response.status_code == 422
    assert response.json["error"]["code"] == "player_name"
