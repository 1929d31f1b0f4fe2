"""The JSON API: the same games as the pages, as data (see README, "JSON API")."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

from flask import Blueprint, abort, jsonify, request
from flask.typing import ResponseReturnValue

from ..config import IMPORT_BODY_LIMIT
from ..i18n.words import gettext, say
from ..rules import from_dict
from ..rules.sheet import score_sheet
from ..store import (
    RESTORE_WINDOW,
    CircleNotFound,
    GameNotFound,
    Snapshot,
    StaleRevision,
    Store,
)
from ..web.errors import json_error
from ..web.game import create_game, remember, store
from ..web.limits import creating, importing
from .shapes import GameShape, OutcomeShape, SheetShape

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.errorhandler(StaleRevision)
def stale(error: StaleRevision) -> ResponseReturnValue:
    """A ``seq`` that is not the game's: nothing applied, and the game as it is now; unless the
    action that moved it on is this very one, sent again (its answer was lost): then it was
    saved, and the answer says so."""
    state = _shape(error.current)
    if error.resent:
        current = error.current.state
        saved = {
            "message": gettext("Saved: that was already recorded."),
            "next": say(current.next_step()),
        }
        return jsonify({"state": state, "already_recorded": True, "outcome": saved})
    return json_error(409, "stale_seq", say(error.message), beside={"state": state})


# No answer needs more: an exported game is four levels deep.
MAX_NESTING = 32


def _body() -> dict[str, Any]:
    """The request's JSON object, its text in Unicode NFC (so "José" typed either way is one
    name); a 400 saying why for anything else."""
    if not request.is_json:
        abort(415, gettext("send a JSON body with Content-Type: application/json"))
    try:
        body = request.get_json(silent=True)
    except RecursionError:  # the parser's own limit, about 1,000 levels
        abort(400, _too_deep())
    if not isinstance(body, dict):
        abort(400, gettext("the body must be a JSON object"))
    normal: dict[str, Any] = _normalised(body, MAX_NESTING)
    return normal


def _too_deep() -> str:
    return gettext("the JSON body is nested too deeply (at most %(most)s levels)", most=MAX_NESTING)


def _normalised(value: Any, depth: int) -> Any:
    if depth <= 0:
        abort(400, _too_deep())
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, list):
        return [_normalised(item, depth - 1) for item in value]
    if isinstance(value, dict):
        return {
            unicodedata.normalize("NFC", key): _normalised(item, depth - 1)
            for key, item in value.items()
        }
    return value


@bp.post("/games")
@creating
def create() -> ResponseReturnValue:
    body = _body()
    rules = body.get("rules") or {}
    circle = body.get("circle")
    if circle is not None and not isinstance(circle, str):
        raise CircleNotFound(str(circle)[:40])
    snapshot = create_game(body.get("players"), body.get("partnership", False), rules, circle)
    return jsonify(_shape(snapshot)), 201


@bp.post("/games/import")
@importing
def import_game() -> ResponseReturnValue:
    """Takes back anything export produced: up to 10,000 actions, so a bigger body."""
    request.max_content_length = IMPORT_BODY_LIMIT
    snapshot = store().import_game(_body())
    remember(snapshot.id)
    return jsonify(_shape(snapshot)), 201


# A game's URL here takes either of its ids, so it is ``<key>``: not the pages' ``game_id``,
# which names the players' link only (webapp.web.game).


@bp.get("/games/<key>/export")
def export(key: str) -> ResponseReturnValue:
    response = jsonify(store().export(key))
    response.headers["Content-Disposition"] = f'attachment; filename="allfives-{key}.json"'
    return response


@bp.get("/games/<key>")
def show(key: str) -> ResponseReturnValue:
    """The state by its edit id, or by its view id (then without the edit id)."""
    try:
        return jsonify(_shape(store().get(key)))
    except GameNotFound:
        return jsonify(_shape(store().get_by_view(key), viewer=True))


@bp.get("/games/<key>/sheet")
def sheet(key: str) -> ResponseReturnValue:
    """The score sheet: the sides in seat order, then every hand with each side's points in
    it and total after it (the hand in play last, not settled)."""
    try:
        snapshot = store().get(key)
    except GameNotFound:
        snapshot = store().get_by_view(key)
    return jsonify(SheetShape(score_sheet(snapshot.state)).as_json())


@bp.delete("/games/<key>")
def delete(key: str) -> ResponseReturnValue:
    """Delete the game by its players' id (a watch id is refused): a tombstone, restorable for
    ``RESTORE_WINDOW``; a game deleted already answers 410, as its every URL now does."""
    _editable(key)
    deleted = store().delete(key)
    assert deleted is not None
    until = (deleted + RESTORE_WINDOW).isoformat(timespec="seconds") + "Z"
    return jsonify({"id": key, "deleted": True, "restore_until": until})


@bp.post("/games/<key>/restore")
def restore(key: str) -> ResponseReturnValue:
    """Bring a deleted game back, by its players' id, within ``RESTORE_WINDOW``."""
    store().delete(key, delete=False)
    return jsonify(_shape(store().get(key)))


@bp.post("/games/<key>/actions")
def act(key: str) -> ResponseReturnValue:
    body = _body()
    games = store()
    current = _editable(key, games)
    action = from_dict(_by_seat(current, body))
    seq = body.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool):
        seq = None
    snapshot, outcome = games.apply(key, seq, action, read=current)
    shape = {
        "state": _shape(snapshot, games=games),
        "outcome": OutcomeShape(snapshot.state, outcome).as_json(),
    }
    return jsonify(shape)


def _shape(snapshot: Snapshot, viewer: bool = False, games: Store | None = None) -> dict[str, Any]:
    """The game state the API answers, with the clock's end (R30) from the store (``games``,
    when the view has it already)."""
    games = games or store()
    return GameShape(snapshot, viewer, games.clock_ends(snapshot)).as_json()


def _editable(key: str, games: Store | None = None) -> Snapshot:
    """The game for a write; a view link gets 403, never a change."""
    games = games or store()
    try:
        return games.get(key)
    except GameNotFound:
        games.get_by_view(key)  # 404 unless it is a view link
        abort(403, gettext("this is a view-only link: it cannot change the game"))


def _by_seat(snapshot: Snapshot, body: dict[str, Any]) -> dict[str, Any]:
    """The API names players; the log stores seats."""
    seat_of = snapshot.state.options.seat_named

    action = {k: v for k, v in body.items() if k not in ("seq", "player", "starter")}
    if body.get("type") == "start_hand" and body.get("starter") is not None:
        action["leader"] = seat_of(body["starter"])
    if body.get("player") is not None:
        action["seat"] = seat_of(body["player"])
    if body.get("type") == "end_hand" and isinstance(body.get("remaining"), dict):
        action["remaining"] = {str(seat_of(k)): v for k, v in body["remaining"].items()}
    if body.get("type") == "correct" and isinstance(body.get("with"), list):
        action["with"] = [_with_seat(item, seat_of) for item in body["with"]]
    return action


def _with_seat(item: object, seat_of: Callable[[object], int]) -> object:
    """One action of a correction's ``with``, its ``player`` named as a seat."""
    if not isinstance(item, dict) or item.get("player") is None:
        return item
    return {**{k: v for k, v in item.items() if k != "player"}, "seat": seat_of(item["player"])}


from . import circles  # noqa: E402  (its routes register on ``bp``)

__all__ = ["bp", "circles"]
