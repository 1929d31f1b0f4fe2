"""Circles: a family's table or a club. Its page (standings, each person's figures, head to
head, wins over time, recent games, filters by rules and dates) on its players' link and its
watch link, its people renamed and merged, a new circle, and a game moved into one. The
numbers are the engine's (``webapp.rules.circle_stats``), kept by the store per revision."""

from flask import Blueprint

bp = Blueprint("circles", __name__)

from . import views  # noqa: E402  (its routes register on ``bp``)

__all__ = ["bp", "views"]
