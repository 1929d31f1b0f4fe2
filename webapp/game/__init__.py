"""The game screen and everything done on it: the screen by the players' link and the watch
link (``views.py``), its regions as view models (``regions.py``, ``screen.py``, ``notice.py``),
the actions (``actions.py``) and what their answers send (``delta.py``), settling a hand
(``settling.py``), the More sheet (``more.py``), fixing an earlier move (``fixing.py``), the
"nothing changed" answer to a poll (``live.py``), the screen followed live (``stream.py``) and the
players' housekeeping (``players.py``)."""

from flask import Blueprint

bp = Blueprint("game", __name__)

from . import actions, controls, fixing, live, pieces, players, stream, views  # noqa: E402  (their routes register on ``bp``)

__all__ = [
    "actions",
    "bp",
    "controls",
    "fixing",
    "live",
    "pieces",
    "players",
    "stream",
    "views",
]
