"""Hostile and malformed input never makes a 500 and never changes a game (Hypothesis)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.test import EnvironBuilder

from tests.tables import CSRF_TOKEN

# Every example of a test is sent to the same app and the same game, made once by the
# function-scoped fixtures: on purpose, as what is checked is that nothing sent changes them.
FUZZ = settings(
    suppress_health_check=[
        *settings.default.suppress_health_check,
        HealthCheck.function_scoped_fixture,
    ],
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


JSON_ROUTES = ["/api/games", "/api/games/import", "/api/games/{game}/actions"]


@pytest.mark.parametrize("depth", [33, 1_000, 10_000])
@pytest.mark.parametrize("route", JSON_ROUTES)
def test_deeply_nested_json_is_a_400_that_changes_nothing_and_logs_no_traceback(
    client: FlaskClient, caplog: pytest.LogCaptureFixture, route: str, depth: int
) -> None:
    game_id = new_game(client)
    before = client.get(f"/api/games/{game_id}").json
    for opening, closing in (("[", "]"), ('{"a":', "}")):
        body = '{"players": ' + opening * depth + "1" + closing * depth + "}"
        response = client.post(
            route.format(game=game_id), data=body, content_type="application/json"
        )
        assert response.status_code == 400, (route, depth, response.status_code)
        assert "nested too deeply" in response.json["error"]["message"]
    assert client.get(f"/api/games/{game_id}").json == before
    assert "Traceback" not in caplog.text and not caplog.records


@FUZZ
@given(
    token=st.text(st.characters(blacklist_categories=["Cc", "Cs"]), min_size=1, max_size=40).filter(
        lambda t: not t.isascii()
    )
)
def test_a_non_ascii_csrf_token_is_a_400_that_changes_nothing(
    client: FlaskClient, token: str
) -> None:
    game_id = new_game(client)
    response = client.post(f"/g/{game_id}/play", data={"csrf_token": token, "tile": "6-4"})
    assert response.status_code == 400
    assert "nothing was changed" in response.get_data(as_text=True)
    header = token.encode("utf-8").decode("latin-1")  # as a raw header carries it
    response = client.post(f"/g/{game_id}/pass", headers={"X-CSRF-Token": header})
    assert response.status_code == 400
    assert client.get(f"/api/games/{game_id}").json["seq"] == 2


@FUZZ
@given(
    host=st.text(st.characters(blacklist_categories=["Cc", "Cs"]), max_size=40)
    | st.sampled_from(["evil.example", "a b", "x:99999", "[::1]"])
)
def test_any_host_header_is_answered_without_a_crash(app: Flask, host: str) -> None:
    for path in ("/", "/api/games/none", "/new"):
        # Straight to the app: the test client cannot build a URL on a malformed Host.
        environ = EnvironBuilder(path=path).get_environ()
        environ["HTTP_HOST"] = host.encode("utf-8").decode("latin-1")
        started: list[str] = []
        answer = app(environ, lambda status, _headers, _info=None, to=started: to.append(status))
        try:
            body = b"".join(answer)
        finally:
            getattr(answer, "close", lambda: None)()
        code = int(started[0].split()[0])
        assert code in (200, 400, 404), (host, path, code)
        assert b"Traceback" not in body
