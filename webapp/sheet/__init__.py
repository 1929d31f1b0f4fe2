"""The score sheet of a game: every hand with each side's points and running totals, the
hand in play so far, the race drawn as a chart; as a page (printable), as CSV and (in the
JSON API) as data. Pages that change nothing: on the players' link and the watch link alike.
The numbers are the engine's (``webapp.rules.sheet``)."""

from flask import Blueprint

bp = Blueprint("sheet", __name__)

from . import views  # noqa: E402  (its routes register on ``bp``)

__all__ = ["bp", "views"]
