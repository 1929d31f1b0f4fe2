"""The game screen and everything done on it: the screen by the players' link and the watch
link (``views.py``), its regions as view models (``regions.py``, ``screen.py``, ``notice.py``),
the actions (``actions.py``), settling a hand (``settling.py``), the More sheet (``more.py``)
fixing an earlier move (``fixing.py``) and the screen followed live (``stream.py``)."""

from flask import Blueprint

bp = Blueprint("game", __name__)

from . import actions, fixing, stream, views  # noqa: E402  (their routes register on ``bp``)

__all__ = ["actions", "bp", "fixing", "stream", "views"]
