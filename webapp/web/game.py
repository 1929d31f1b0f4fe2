"""The game a request is about, read once: the store of the running app, the game named by
the URL, this device's recent games, and starting a game.

A game has two keys: the players' link ``/g/<game_id>/…`` enters plays, the watch link
``/v/<view_id>/…`` only shows. :func:`register` turns the key in the URL into a :class:`Table`
before any view runs (a URL value preprocessor: views receive ``table``, never the key) and
fills the same key back into every ``url_for`` that needs one: a page reached by the watch
link links only to watch-link pages, and an endpoint that only exists on the players' link
cannot be built for a watcher at all. An endpoint served on both links is registered twice
under one name (:func:`both_links`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import lru_cache
from typing import Any, TypeVar

from flask import Blueprint, Flask, current_app, g, request, session

from ..rules import GameState, Options
from ..store import CircleRow, Snapshot, Store

RECENT_GAMES = 12
EDIT_KEY = "game_id"
WATCH_KEY = "view_id"
View = TypeVar("View", bound=Callable[..., Any])


def store() -> Store:
    return store_of(current_app)


def store_of(app: Flask) -> Store:
    found: Store = app.extensions["allfives_store"]
    return found


class Table:
    """A game as this request reaches it: by the players' link (``viewer`` False) or by the
    watch link. Read from the store the first time it is asked for, once per request."""

    def __init__(self, key: str, viewer: bool) -> None:
        self.key = key  # the id in the URL: the one this reader may see and share
        self.viewer = viewer
        self._snapshot: Snapshot | None = None

    @property
    def snapshot(self) -> Snapshot:
        """The game as stored now (with its real id: never shown to a watcher), read the first
        time it is asked for. (Not ``functools.cached_property``: before Python 3.12 it holds
        one lock for every instance while it reads, so each thread of a process reading a game
        waited for the others' reads.)"""
        if self._snapshot is None:
            self._snapshot = store().get_by_view(self.key) if self.viewer else store().get(self.key)
        return self._snapshot

    @property
    def state(self) -> GameState:
        return self.snapshot.state

    @property
    def seq(self) -> int:
        return self.snapshot.seq

    def moved_to(self, snapshot: Snapshot) -> None:
        """The game as this request's own action left it."""
        self._snapshot = snapshot


def both_links(bp: Blueprint, rule: str, **options: Any) -> Callable[[View], View]:
    """Register a view on the players' link and on the watch link under one endpoint: pages
    that change nothing work on both, and link to themselves on the link they were read by."""

    def register(view: View) -> View:
        bp.add_url_rule(f"/g/<{EDIT_KEY}>{rule}", view_func=view, **options)
        bp.add_url_rule(f"/v/<{WATCH_KEY}>{rule}", view_func=view, **options)
        return view

    return register


def register(app: Flask) -> None:
    @app.url_value_preprocessor
    def take_game(_endpoint: str | None, values: dict[str, Any] | None) -> None:
        if not values:
            return
        if EDIT_KEY in values:
            g.table = values["table"] = Table(values.pop(EDIT_KEY), viewer=False)
        elif WATCH_KEY in values:
            g.table = values["table"] = Table(values.pop(WATCH_KEY), viewer=True)

    @app.url_defaults
    def give_game(endpoint: str, values: dict[str, Any]) -> None:
        table: Table | None = g.get("table")
        if table is None or EDIT_KEY in values or WATCH_KEY in values:
            return
        key = WATCH_KEY if table.viewer else EDIT_KEY
        if app.url_map.is_endpoint_expecting(endpoint, key):
            values[key] = table.key

    build = app.url_for

    def url_for(endpoint: str, **values: Any) -> str:
        """Templates' ``url_for``: a game's own address with nothing more to fill in (the
        forms' actions of every answer to a play) built once per game, link and endpoint;
        with a revision only (``seq``, a number: the poll's and the stream's), that address
        and ``?seq=N``, as Flask writes it."""
        table: Table | None = g.get("table")
        if table is None or endpoint.startswith("."):
            return build(endpoint, **values)
        if not values:
            return _game_address(endpoint, table.key, table.viewer, request.script_root)
        seq = values.get("seq")
        if len(values) == 1 and type(seq) is int and seq >= 0:
            address = _game_address(endpoint, table.key, table.viewer, request.script_root)
            return f"{address}?seq={seq}"
        return build(endpoint, **values)

    app.jinja_env.globals["url_for"] = url_for


@lru_cache(maxsize=1024)
def _game_address(endpoint: str, key: str, viewer: bool, root: str) -> str:
    """Flask's ``url_for(endpoint)`` (about 25 µs) for the game ``key`` by the players' or the
    watch link, under the app's path ``root`` (the request's): kept, as a relative address
    depends on nothing else (every app of the process has the same routes)."""
    return current_app.url_for(endpoint)


def create_game(
    players: object, partnership: object, rules: object, circle: str | None = None
) -> Snapshot:
    """A new game from names and rule options, in ``circle`` when one is given (its id); the
    rules' :class:`BadOptions` says what is wrong with them, :class:`CircleNotFound` that
    there is no such circle: either way no game is made."""
    if isinstance(players, list):
        # One spelling per name: "José" typed with a combining accent is the same player.
        players = [unicodedata.normalize("NFC", p) if isinstance(p, str) else p for p in players]
    options = Options.parse(players, partnership, rules)
    if circle is not None:
        store().circles.get(circle)
    snapshot = store().create(options)
    if circle is not None:
        store().circles.add_game(circle, snapshot.id)
    remember(snapshot.id)
    return snapshot


def remember(game_id: str) -> None:
    """Keep ``game_id`` in this device's list of recent games (a signed cookie, never a
    server-side list of everyone's games)."""
    recent = [gid for gid in session.get("recent", []) if gid != game_id]
    session["recent"] = [game_id, *recent][:RECENT_GAMES]
    session.permanent = True


def recent_games() -> list[Snapshot]:
    return store().many(session.get("recent", []))


def remember_circle(circle_id: str) -> None:
    """Keep ``circle_id`` in this device's list of circles (the signed cookie, as games)."""
    kept = [cid for cid in session.get("circles", []) if cid != circle_id]
    session["circles"] = [circle_id, *kept][:RECENT_GAMES]
    session.permanent = True


def recent_circles() -> list[CircleRow]:
    return store().circles.many(session.get("circles", []))
