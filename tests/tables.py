"""The ways a test sits at a table: through the forms as a phone without JavaScript
(:class:`Table`), through the JSON API in the same process (:class:`ApiTable`) or over HTTP
to a server on loopback (:class:`HttpApi`). Each enters a script of ``tests/scripts.py`` the
way it enters one move. The fixtures that make them are in ``tests/conftest.py``.
"""

from __future__ import annotations

import json
import random
import re
import urllib.request
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.scripts import Move, Script, first_fit, scripted_actions
from webapp.rules import GameState, to_dict
from webapp.store import EXPORT_FORMAT, Store
from webapp.web.security import signed

# A token as the test apps (secret key "test") issue it, so one a page sends is printed back.
CSRF_TOKEN = signed("csrf-token-of-the-test-device", "test")
HX = {"HX-Request": "true"}


def device(app: Flask) -> FlaskClient:
    """A device whose session holds the CSRF token ``CSRF_TOKEN``, as a page load would set."""
    client = app.test_client()
    with client.session_transaction() as session:
        session["csrf_token"] = CSRF_TOKEN
    return client


def text(response: TestResponse) -> str:
    """The page as a person reads it: tags dropped, whitespace collapsed, entities kept simple."""
    body = re.sub(r"<title[^>]*>.*?</title>", " ", response.get_data(as_text=True), flags=re.S)
    body = re.sub(r"<[^>]+>", " ", body)
    body = body.replace("&amp;", "&").replace("&#39;", "'").replace("&#34;", '"')
    return " ".join(body.split())


class Table:
    """A table entering a game through the forms, as a phone without JavaScript would."""

    def __init__(self, app: Flask, client: FlaskClient) -> None:
        self.app = app
        self.client = client
        self.game_id = ""

    # --- the game as stored -------------------------------------------------------------------

    @property
    def store(self) -> Store:
        found: Store = self.app.extensions["allfives_store"]
        return found

    @property
    def seq(self) -> int:
        return self.store.get(self.game_id).seq

    @property
    def state(self) -> GameState:
        return self.store.get(self.game_id).state

    @property
    def url(self) -> str:
        return f"/g/{self.game_id}"

    # --- actions through the forms ------------------------------------------------------------

    def create(self, *names: str, **fields: Any) -> TestResponse:
        data = {"name": list(names), "csrf_token": CSRF_TOKEN, **fields}
        response = self.client.post("/new", data=data)
        if response.status_code == 303:
            self.game_id = response.location.rsplit("/", 1)[1]
        return response

    def page(self, **kwargs: Any) -> TestResponse:
        return self.client.get(self.url, **kwargs)

    def more(self, **kwargs: Any) -> TestResponse:
        """The More sheet's log and audits, as a page of their own (as without JavaScript)."""
        return self.client.get(f"{self.url}/more", **kwargs)

    def post(
        self, action: str, htmx: bool = False, seq: int | None = None, **fields: Any
    ) -> TestResponse:
        data = {"seq": self.seq if seq is None else seq, "csrf_token": CSRF_TOKEN, **fields}
        return self.client.post(f"{self.url}/{action}", data=data, headers=HX if htmx else {})

    def start(self, leader: int | str | None = None, **kwargs: Any) -> TestResponse:
        fields = {} if leader is None else {"leader": leader}
        return self.post("start", **fields, **kwargs)

    def play(self, tile: str, end: str | None = None, **kwargs: Any) -> TestResponse:
        fields = {"tile": tile} if end is None else {"tile": tile, "end": end}
        return self.post("play", **fields, **kwargs)

    def draw(self, count: int = 1, **kwargs: Any) -> TestResponse:
        return self.post("draw", count=count, **kwargs)

    def pass_turn(self, **kwargs: Any) -> TestResponse:
        return self.post("pass", **kwargs)

    def undo(self, **kwargs: Any) -> TestResponse:
        return self.post("undo", **kwargs)

    def settle(self, step: str = "check", **fields: Any) -> TestResponse:
        return self.post("settle", step=step, **fields)

    def move(self, move: Move, **kwargs: Any) -> TestResponse:
        """Post one move of a script, as its form (play, draw or pass)."""
        action, fields = move.form()
        return self.post(action, **fields, **kwargs)

    def enter(self, script: Script) -> None:
        """Enter every move of ``script``, each one form; each must be applied."""
        for move in script:
            before = self.seq
            response = self.move(move)
            assert response.status_code == 303 and self.seq == before + 1, (
                str(move),
                text(response)[:200],
            )

    def play_out(self) -> None:
        """Tap the first tile that fits (``first_fit``), one tap each, until the hand is over."""
        while self.state.turn is not None:
            self.move(Move.of(first_fit(self.state)))


class ApiTable:
    """A game driven through the JSON API, keeping track of the revision like a client would."""

    def __init__(self, client: FlaskClient, players: list[str], **body: Any) -> None:
        self.client = client
        response = client.post("/api/games", json={"players": players, **body})
        assert response.status_code == 201, response.json
        self.state = response.json
        self.id = self.state["id"]

    def act(self, type_: str, expect: int = 200, **fields: Any) -> dict[str, Any]:
        response = self.client.post(
            f"/api/games/{self.id}/actions",
            json={"seq": self.state["seq"], "type": type_, **fields},
        )
        assert response.status_code == expect, response.json
        if expect == 200:
            self.state = response.json["state"]
        return response.json

    def enter(self, script: Script) -> list[dict[str, Any]]:
        """Send every move of ``script``, each accepted; their answers, in order."""
        answers = []
        for move in script:
            body = move.api()
            answers.append(self.act(body.pop("type"), **body))
        return answers

    def fetch(self) -> dict[str, Any]:
        return self.client.get(f"/api/games/{self.id}").json


class HttpApi:
    """The JSON API of a server on loopback, called from the test over HTTP (never through a
    browser, so a browser taken offline never touches a test's set-up or its checks)."""

    def __init__(self, base: str) -> None:
        self.base = base

    def call(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            self.base + path, data=data, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            found: dict[str, Any] = json.load(response)
            return found

    def new_game(self, players: list[str], **rules: Any) -> str:
        return str(self.call("/api/games", {"players": players, "rules": rules})["id"])

    def state(self, game_id: str) -> dict[str, Any]:
        return self.call(f"/api/games/{game_id}")

    def act(self, game_id: str, kind: str, **fields: Any) -> dict[str, Any]:
        """One action at the game's current revision; the state after it."""
        seq = self.state(game_id)["seq"]
        body = {"seq": seq, "type": kind, **fields}
        return self.call(f"/api/games/{game_id}/actions", body)["state"]

    def enter(self, game_id: str, script: Script) -> dict[str, Any]:
        """Every move of ``script``, in turn; the state after the last."""
        state = self.state(game_id)
        for move in script:
            body = move.api()
            state = self.act(game_id, body.pop("type"), **body)
        return state

    def long_game(self, hands: int, seed: int = 7) -> str:
        """A game of Ana, Ben and Cy imported with ``hands`` real hands played, the last one
        three actions in (``scripted_actions``)."""
        actions: list[dict[str, Any]] = []
        for action in scripted_actions(random.Random(seed), 3, 60 * hands + 200):
            actions.append(to_dict(action))
            started = sum(stored["type"] == "start_hand" for stored in actions)
            if started == hands and actions[-4]["type"] == "start_hand":
                break
        exported = {
            "format": EXPORT_FORMAT,
            "players": ["Ana", "Ben", "Cy"],
            "rules": {"target": 10_000},
            "actions": actions,
        }
        return str(self.call("/api/games/import", exported)["id"])


def on_table(state: dict[str, Any]) -> set[str]:
    """The tiles on the table in a JSON API state, each named high half first (as on the
    picker, and as ``DOUBLE_SIX`` names them)."""
    layout = state["hand"]["layout"]
    names = [layout["lead"], *(tile for arm in layout["arms"].values() for tile in arm)]
    return {"-".join(sorted(name.split("-"), reverse=True)) for name in names if name}
