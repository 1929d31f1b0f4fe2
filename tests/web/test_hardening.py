"""What one client may not do: import what the live rules refuse, grow a game without end,
load a long game's heavy pages without limit, make the language switch answer with a huge
address, or have the server print back a token it never issued."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

import webapp.store.store as stored_games
from tests.conftest import AppMaker
from tests.tables import ApiTable, Table, device


def _exported(client: FlaskClient, **change: Any) -> dict[str, Any]:
    game = ApiTable(client, ["Ana", "Ben"])
    return {**client.get(f"/api/games/{game.id}/export").json, **change}


@pytest.mark.parametrize(
    ("actions", "said"),
    [
        ([{"type": "undo"}] * 3, "action 1: there is nothing to undo"),
        (
            [{"type": "start_hand", "leader": 0}, {"type": "undo"}, {"type": "undo"}],
            "action 3: there is nothing to undo",
        ),
        (
            [{"type": "start_hand", "leader": 0}, {"type": "play", "tile": "6-6", "seat": 1}],
            "action 2: ",
        ),
    ],
)
def test_an_import_is_judged_action_by_action_as_if_entered(
    client: FlaskClient, actions: list[dict[str, Any]], said: str
) -> None:
    refused = client.post("/api/games/import", json=_exported(client, actions=actions))
    assert refused.status_code == 422
    assert refused.json["error"]["message"].startswith(said)


@pytest.mark.parametrize("partnership", ["no", 0, None, "false"])
def test_an_import_reads_its_options_as_a_new_game_does(
    client: FlaskClient, partnership: object
) -> None:
    exported = _exported(client, players=["Ana", "Ben", "Cy", "Di"], partnership=partnership)
    refused = client.post("/api/games/import", json=exported)
    assert refused.status_code == 422
    assert refused.json["error"]["code"] == "partnership"


def test_a_game_holds_at_most_the_ceiling_of_actions(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Live and imported alike, with a message that says what to do."""
    monkeypatch.setattr(stored_games, "MAX_ACTIONS", 3)
    game = ApiTable(client, ["Ana", "Ben"])
    game.act("start_hand", starter="Ana")
    game.act("play", tile="6-6")
    game.act("draw")
    refused = game.act("draw", expect=422)["error"]
    assert refused["code"] == "game_full"
    assert "start a new game" in refused["message"]
    assert game.fetch()["seq"] == 3
    exported = client.get(f"/api/games/{game.id}/export").json
    assert client.post("/api/games/import", json=exported).status_code == 201
    more = {**exported, "actions": [*exported["actions"], {"type": "draw"}]}
    assert client.post("/api/games/import", json=more).status_code == 422


def test_heavy_pages_are_limited_per_client(make_app: AppMaker) -> None:
    app = make_app(RATELIMIT_ENABLED=True, RATE_LIMIT_HEAVY="3 per minute")
    table = Table(app, device(app))
    table.create("Ana", "Ben")
    table.start(leader="0")
    for path in ("more", "check", "replay/1/0"):
        assert table.client.get(f"{table.url}/{path}").status_code == 200, path
    refused = table.client.get(f"{table.url}/rescore")
    assert refused.status_code == 429 and "Retry-After" in refused.headers
    assert table.page().status_code == 200  # the game screen itself is not a heavy page
    assert table.play("6-6").status_code == 303  # nor is a play


def test_the_language_switch_goes_back_only_to_a_short_local_path(client: FlaskClient) -> None:
    back = client.get("/language/ro?next=/new")
    assert back.status_code == 303 and back.location == "/new"
    for target in ("/" + "a" * 70_000, "//evil.example/", "https://evil.example/"):
        answer = client.get("/language/ro", query_string={"next": target})
        assert answer.status_code == 303 and answer.location == "/", target
    page = client.get("/new", query_string={"x": "y" * 5_000}).text
    links = re.findall(r'href="(/language/[^"]*)"', page)
    assert links and all(len(link) < 600 for link in links)


def test_only_a_token_the_server_issued_is_printed_back(app: Flask) -> None:
    client = app.test_client()
    page = client.get("/new").text
    issued = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    same_site = {"Sec-Fetch-Site": "same-origin"}
    altered = issued[:-1] + ("1" if issued.endswith("0") else "0")  # one signature digit off
    for sent in ("attacker-chosen-token", altered, "x" * 5_000):
        echoed = client.get("/new", headers={**same_site, "X-CSRF-Token": sent}).text
        assert sent not in echoed
    fresh = app.test_client()
    echoed = fresh.get("/new", headers={**same_site, "X-CSRF-Token": issued}).text
    assert issued in echoed  # one it made is printed back without reading a session
