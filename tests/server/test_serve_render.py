"""A followed game's change as the followers' thread renders it: the request each look's
render runs in is made once and kept, and what is rendered in it is what a request made anew
would render, at every revision and for each look."""

from __future__ import annotations

from typing import Any

from flask import Flask

from tests.tables import Table
from webapp.game.stream import _followers, render
from webapp.web.followers import Look


def _look(table: Table, language: str = "en", turned: bool = False) -> Look:
    return Look(table.game_id, table.game_id, False, language, turned, "http://localhost/")


def test_a_kept_request_renders_what_a_new_one_renders_as_the_game_moves(
    app: Flask, table: Table
) -> None:
    table.create("Ana", "Ben")
    table.start(leader="0")
    with app.test_request_context("/"):
        _followers(app)
    kept: dict[Look, dict[str, Any]] = {}
    looks = [_look(table), _look(table, "ro"), _look(table, turned=True)]
    for look in looks:
        assert render(app, look, kept) == render(app, look)
    assert set(kept) == set(looks)
    table.play("5-5")
    for look in looks:
        assert render(app, look, kept) == render(app, look)
    seq, english = render(app, looks[0], kept)
    assert seq == 2 and "[5|5] 10 = 10" in english  # the game as it now stands
    assert render(app, looks[1], kept)[1] != english  # each look in its own request
