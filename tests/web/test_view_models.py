"""No template is given an engine object: every page is rendered from view models, frozen
dataclasses of words already said and numbers already counted, built by keyword in its area.

Each page is asked for through the test client while a ``template_rendered`` receiver keeps
what its templates were given. Every value, looked into through dataclass fields, tuples, lists,
sets and dicts (and the object behind a bound method), must not be an instance of a class of
``webapp.rules`` (its enums and the enum-like ``Arm`` excepted: an end is printed through the
``end_name`` filter and sent as its value), nor of ``webapp.store``, nor the request's
``Table``: those hand out the engine's state, and a template that holds them can call the
engine. Flask's own names (``g``, ``request``, ``session``, ``config``) are not looked into.

The games: worked example C entered through the forms (playing, settled with a breach of R6 the
audit finds, then the next hand; the game screen's actions through htmx too, in learning mode),
and recorded games of ``golden_games.json`` (corrections, partnership, points in fives, games
over) at the first moment of each status and at their end.
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask, template_rendered
from flask.testing import FlaskClient
from jinja2 import Template

from tests.scripts import EXAMPLE_C as EXAMPLE_C_SCRIPT
from tests.tables import CSRF_TOKEN, HX, Table
from webapp.rules import DOUBLE_SIX, Arm, Status, from_dict
from webapp.rules.history import replay
from webapp.store import Snapshot, Store, options_from_dict
from webapp.teaching import lesson
from webapp.web.game import Table as RequestTable

from .golden_games import GOLDEN

EXAMPLE_C = [str(move) for move in EXAMPLE_C_SCRIPT]  # worked example C, as tapped

FLASK_NAMES = frozenset({"g", "request", "session", "config"})
RECORDED = ("random 0", "random 4", "stored Ck8kgu7wYRLLib6Ix38rmg", "random 2")
FIRST_ACTIONS = 40  # each status is first reached within a recorded game's first hand or two


def engine_object(value: object) -> bool:
    """Whether ``value`` is the engine's (or holds it out): a class of ``webapp.rules`` other
    than an enum or ``Arm``, a class of ``webapp.store``, or the request's ``Table``."""
    if isinstance(value, enum.Enum | Arm):
        return False
    module = type(value).__module__
    return (
        module == "webapp.rules"
        or module.startswith(("webapp.rules.", "webapp.store"))
        or isinstance(value, RequestTable)
    )


def engine_objects(value: object, path: str, seen: set[int] | None = None) -> Iterator[str]:
    """Where in ``value`` an engine object is, as ``path.field[index]``, with its class."""
    seen = set() if seen is None else seen
    if id(value) in seen or isinstance(value, str | int | float | bool | type(None)):
        return
    seen.add(id(value))
    if engine_object(value):
        yield f"{path}: {type(value).__module__}.{type(value).__qualname__}"
        return
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from engine_objects(getattr(value, field.name), f"{path}.{field.name}", seen)
    elif isinstance(value, tuple | list):
        for index, item in enumerate(value):
            yield from engine_objects(item, f"{path}[{index}]", seen)
    elif isinstance(value, set | frozenset):
        for item in value:
            yield from engine_objects(item, f"{path}{{}}", seen)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from engine_objects(key, f"{path} key", seen)
            yield from engine_objects(item, f"{path}[{key!r}]", seen)
    elif hasattr(value, "__self__") and hasattr(value, "__func__"):  # a bound method
        yield from engine_objects(value.__self__, f"{path}.__self__", seen)


@contextmanager
def given_to_templates(app: Flask) -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """Each template rendered meanwhile, with what it was given."""
    rendered: list[tuple[str, dict[str, Any]]] = []

    def keep(_sender: Flask, template: Template, context: dict[str, Any], **_: Any) -> None:
        rendered.append((template.name or "", context))

    template_rendered.connect(keep, app)
    try:
        yield rendered
    finally:
        template_rendered.disconnect(keep, app)


def offenders(rendered: list[tuple[str, dict[str, Any]]]) -> list[str]:
    found: list[str] = []
    for name, context in rendered:
        for key, value in context.items():
            if key not in FLASK_NAMES:
                found.extend(f"{name}: {where}" for where in engine_objects(value, key))
    return sorted(set(found))


def visit(client: FlaskClient, urls: list[str], headers: dict[str, str] | None = None) -> None:
    for url in urls:
        response = client.get(url, headers=headers or {})
        assert response.status_code in (200, 400, 422), (url, response.status_code)


# --- the games ----------------------------------------------------------------------------------


def recorded_games(store: Store) -> list[Snapshot]:
    """Some recorded games at the first moment of each status they reach early on, and at their
    end (two of them over)."""
    games = {game["name"]: game for game in json.loads(GOLDEN.read_text())}
    found = []
    for name in RECORDED:
        options = options_from_dict(games[name]["options"])
        log = [from_dict(action) for action in games[name]["log"]]
        cuts: dict[Status, int] = {}
        for cut in range(1, min(len(log), FIRST_ACTIONS) + 1):
            cuts.setdefault(replay(options, log[:cut]).state.status, cut)
        for cut in sorted({*cuts.values(), len(log)}):
            found.append(store.create(options, games[name]["log"][:cut]))
    return found


def fitting_tile(snapshot: Snapshot) -> str:
    state = snapshot.state
    fitting = [tile for tile in DOUBLE_SIX if state.placements(tile)]
    return str(fitting[0]) if fitting else "6-6"


def dispute_urls(link: str, snapshot: Snapshot) -> list[str]:
    """Check a play (nothing, a tile, on an end, a tile that is no tile, a tile played) and
    rescoring (other rules, and a target that is no number)."""
    tile = fitting_tile(snapshot)
    urls = [
        f"{link}/check",
        f"{link}/check?tile={tile}",
        f"{link}/check?tile={tile}&end=left",
        f"{link}/check?tile={tile}&end=up",
        f"{link}/check?tile=zz",
        f"{link}/rescore",
        f"{link}/rescore?preset=pagat&target=15",
        f"{link}/rescore?preset=seed&target=abc",
    ]
    state = snapshot.state
    hand = state.hand
    if hand is not None and hand.layout.tiles:
        urls.append(f"{link}/check?tile={hand.layout.tiles[0]}")
    return urls


def replay_urls(link: str, moves_per_hand: list[int]) -> list[str]:
    """Each hand's replay before the lead, after its first move, halfway and at its end."""
    urls = []
    for number, moves in enumerate(moves_per_hand, start=1):
        for step in sorted({0, min(1, moves), moves // 2, moves}):
            urls.append(f"{link}/replay/{number}/{step}")
    return urls


@pytest.fixture
def settled_c(table: Table) -> Table:
    """Example C entered through the forms and settled: Ben says he still holds 3-0, which
    fitted when he drew at move 17 (a certain breach of R6, the audit finds)."""
    table.create("Ana", "Ben", "Cy")
    table.start(leader="0")
    for move in EXAMPLE_C:
        response = table.draw() if move == "draw" else table.play(*move.split())
        assert response.status_code == 303, move
    response = table.settle(step="confirm", tiles_1=["3-0", "6-5"], tiles_2=["3-4"])
    assert response.status_code == 303
    return table


# --- the tests ----------------------------------------------------------------------------------


def test_no_page_of_disputes_is_given_an_engine_object(app: Flask, settled_c: Table) -> None:
    client = settled_c.client
    store = settled_c.store
    games = [store.get(settled_c.game_id), *recorded_games(store)]
    with given_to_templates(app) as rendered:
        for snapshot in games:
            history = store.history(snapshot)
            moves = [len(played.hand.moves) for played in history.hands]
            link = f"/g/{snapshot.id}"
            visit(client, dispute_urls(link, snapshot) + replay_urls(link, moves))
            watch = f"/v/{snapshot.view_id}"
            visit(client, dispute_urls(watch, snapshot)[:2] + replay_urls(watch, moves)[-1:])
    assert {name for name, _ in rendered} >= {
        "disputes/check.html",
        "disputes/replay.html",
        "disputes/rescore.html",
    }
    found = offenders(rendered)
    assert not found, "\n".join(found)


def test_no_page_of_teaching_is_given_an_engine_object(app: Flask, client: FlaskClient) -> None:
    practice = [
        "",
        "?p=5-5",
        "?p=5-5,5-3:left,5-2:right",
        "?p=5-5,5-3:left,5-2:right&add=3-2",  # two ends: where does it go?
        "?p=5-5,5-3:left&add=1-1",  # refused
        "?p=5-5,5-2:up",  # a board link with a mistake
        "?rules=five-up&p=6-4,4-4:right,4-2:right,4-1:up,6-6:left,6-3:left,6-5:6-6 up",
    ]
    with given_to_templates(app) as rendered:
        visit(client, ["/rules", *(f"/practice{query}" for query in practice)])
        visit(client, [f"/learn/{number}" for number in range(1, len(lesson.steps()) + 1)])
    assert {name for name, _ in rendered} >= {
        "teaching/rules.html",
        "teaching/practice.html",
        "teaching/learn.html",
    }
    found = offenders(rendered)
    assert not found, "\n".join(found)


def test_no_page_of_the_game_screen_or_home_is_given_an_engine_object(
    app: Flask, table: Table
) -> None:
    client = table.client
    with given_to_templates(app) as rendered:
        visit(client, ["/", "/new", "/offline"])
        client.post("/new", data={"name": ["Ana"], "csrf_token": CSRF_TOKEN})  # refused: one name
        table.create("Ana", "Ben", "Cy")
        watch = f"/v/{table.store.get(table.game_id).view_id}"
        visit(client, [table.url, f"{table.url}/more", watch, f"{watch}/more"])
        visit(client, [f"{table.url}/more", f"{watch}/more"], headers=HX)  # the sheet, opened
        table.start(leader="0")
        table.post("learning", on="1")
        table.post("coaching", on="1")
        for move in EXAMPLE_C[:12]:
            table.draw(htmx=True) if move == "draw" else table.play(*move.split(), htmx=True)
        table.play("6-6", htmx=True)  # refused: it fits no end
        table.play("4-3", htmx=True)  # two ends fit: which one?
        visit(client, [table.url, f"{table.url}?choose=4-3", f"{table.url}/more"])
        visit(client, [f"{table.url}/fix/1", f"{table.url}/fix/2?tile=3-2", watch])
        visit(client, [f"{table.url}/players"])
        table.post("rename", seat="2", name="Ana")  # refused: the page again, with the name
        visit(client, [f"{table.url}/poll?seq=0", f"{watch}/poll?seq=0"], headers=HX)
        for move in EXAMPLE_C[12:]:
            table.draw() if move == "draw" else table.play(*move.split())
        preview = f"{table.url}/settle/preview?tiles_1=3-0&tiles_1=6-5&tiles_2=3-4"
        visit(client, [table.url, preview])
        visit(client, [preview], headers=HX)
        table.settle(step="check", htmx=True, tiles_1=["3-0", "6-5"], tiles_2=["3-4"])
        table.settle(step="confirm", tiles_1=["3-0", "6-5"], tiles_2=["3-4"])
        visit(client, [table.url, f"{table.url}/more", watch])
        visit(client, [f"{table.url}/more"], headers=HX)
        table.undo(htmx=True)
        over = recorded_games(table.store)[-1]  # "random 2" at its end: the game is over
        assert over.state.status is Status.GAME_OVER
        visit(client, [f"/g/{over.id}", f"/g/{over.id}/more", f"/v/{over.view_id}"])
        visit(client, [f"/g/{over.id}/players"])
        table.post("end")  # the game ended early: its game-over panel
        visit(client, [table.url, f"{table.url}/players"])
    assert {name for name, _ in rendered} >= {
        "home/home.html",
        "home/new.html",
        "game/game.html",
        "game/players.html",
        "game/_regions.html",
        "game/_more_live.html",
        "game/more.html",
        "game/fix.html",
        "game/_settle_preview.html",
    }
    found = offenders(rendered)
    assert not found, "\n".join(found)


def test_no_page_of_circles_is_given_an_engine_object(app: Flask, client: FlaskClient) -> None:
    made = client.post("/api/circles", json={"name": "Club"}).json
    state = client.post(
        "/api/games",
        json={"players": ["Ana", "Ben"], "circle": made["id"], "rules": {"target": 5}},
    ).json
    for action in ({"type": "start_hand", "starter": "Ana"}, {"type": "play", "tile": "3-2"}):
        body = {"seq": state["seq"], **action}
        state = client.post(f"/api/games/{state['id']}/actions", json=body).json["state"]
    circle, watch = f"/c/{made['id']}", f"/cw/{made['view_id']}"
    with given_to_templates(app) as rendered:
        visit(client, [circle, f"{circle}?preset=pagat&since=2026-01-01", f"{circle}?since=x"])
        visit(client, [watch, f"{circle}/people", "/circles/new", f"/g/{state['id']}/circle", "/"])
    assert {name for name, _ in rendered} >= {
        "circles/circle.html",
        "circles/people.html",
        "circles/new.html",
    }
    found = offenders(rendered)
    assert not found, "\n".join(found)
