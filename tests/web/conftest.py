"""Fixtures for the pages: an app on a temporary database, a client, and a table that plays."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.conftest import CSRF_TOKEN
from webapp.rules import DOUBLE_SIX, GameState
from webapp.store import Store

HX = {"HX-Request": "true"}


@pytest.fixture
def table(app: Flask, client: FlaskClient) -> Table:
    return Table(app, client)


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

    def play_out(self) -> None:
        """Play the first tile that fits, one tap each, until the hand is over."""
        while self.state.hand is not None and self.state.turn is not None:
            fitting = [t for t in DOUBLE_SIX if self.state.placements(t)]
            if fitting:
                tile = fitting[0]
                arm = self.state.placements(tile)[0].arm
                self.play(str(tile), arm.value if arm else None)
            elif self.state.can_draw:
                self.draw()
            else:
                self.pass_turn()
