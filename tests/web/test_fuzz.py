"""Hostile and malformed input never makes a 500 and never changes a game (Hypothesis)."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import CSRF_TOKEN

FUZZ = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
WORDS = ["type", "tile", "end", "seq", "count", "remaining", "starter", "player", "leader"]
VALUES = st.sampled_from(
    [
        "play",
        "draw",
        "pass",
        "undo",
        "start_hand",
        "end_hand",
        "6-4",
        "5-5",
        "left",
        "up",
        "Ana",
        "Ben",
        "9-9",
        "<script>",
        "",
        "0",
        "-1",
        "1e9",
        "☃",
        "null",
    ]
)
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats()
    | st.text(max_size=20)
    | VALUES,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
ACTIONS = st.dictionaries(st.sampled_from(WORDS) | st.text(max_size=6), JSON | VALUES, max_size=6)


def new_game(client: FlaskClient) -> str:
    game = client.post("/api/games", json={"players": ["Ana", "Ben", "Cy"]}).json
    client.post(
        f"/api/games/{game['id']}/actions", json={"seq": 0, "type": "start_hand", "starter": "Ana"}
    )
    client.post(f"/api/games/{game['id']}/actions", json={"seq": 1, "type": "play", "tile": "5-5"})
    return str(game["id"])


@FUZZ
@given(body=JSON)
def test_creating_games_from_any_json(client: FlaskClient, body: Any) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code in (201, 400, 415, 422), response.json
    assert "error" in response.json or response.status_code == 201


@FUZZ
@given(action=ACTIONS)
def test_any_action_body_is_answered_and_refusals_change_nothing(
    client: FlaskClient, action: dict[str, Any]
) -> None:
    game_id = getattr(test_any_action_body_is_answered_and_refusals_change_nothing, "game", None)
    if game_id is None or client.get(f"/api/games/{game_id}").status_code != 200:
        game_id = new_game(client)
        test_any_action_body_is_answered_and_refusals_change_nothing.game = game_id  # type: ignore[attr-defined]
    before = client.get(f"/api/games/{game_id}").json
    response = client.post(f"/api/games/{game_id}/actions", json=action)
    assert response.status_code in (200, 400, 409, 422), response.json
    if response.status_code != 200:
        assert response.json["error"]["message"]
        assert client.get(f"/api/games/{game_id}").json == before


@FUZZ
@given(
    path=st.sampled_from(["play", "draw", "pass", "undo", "start", "settle", "again"]),
    form=st.dictionaries(
        st.sampled_from(["tile", "end", "seq", "count", "leader", "step", "pips_1", "tiles_1"])
        | st.text(max_size=6),
        st.text(max_size=12) | VALUES,
        max_size=5,
    ),
)
def test_any_form_post_is_answered_and_refusals_change_nothing(
    client: FlaskClient, path: str, form: dict[str, str]
) -> None:
    game_id = new_game(client)
    before = client.get(f"/api/games/{game_id}").json
    data = {**form, "csrf_token": CSRF_TOKEN}
    response = client.post(f"/g/{game_id}/{path}", data=data)
    assert response.status_code in (200, 303, 400, 409, 422), response.status_code
    if response.status_code not in (200, 303):
        assert client.get(f"/api/games/{game_id}").json == before


@FUZZ
@given(game_id=st.text(max_size=60))
def test_any_game_address_is_a_page_or_a_friendly_404(client: FlaskClient, game_id: str) -> None:
    for path in (f"/api/games/{game_id}", f"/g/{game_id}", f"/v/{game_id}"):
        response = client.get(path.replace("?", "%3F").replace("#", "%23"))
        assert response.status_code in (200, 301, 308, 404, 405), (path, response.status_code)
        assert "Traceback" not in response.get_data(as_text=True)
