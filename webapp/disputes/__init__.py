"""Settling disputes: check a play without entering it, replay any hand, rescore under other
rules; the audits of settled hands are shown with the replay and in the game's More sheet.

Every page here is a GET that changes nothing, so each works on the players' link (``/g/…``)
and on the watch link (``/v/…``) alike (:func:`~webapp.web.game.both_links`); links to share
with the table use the watch link, so sharing a moment never hands out the right to enter
plays. The answers all come from ``webapp.rules``: ``why_not`` and ``placements`` for a play,
``rules.history`` for the hands already played, ``rules.audit`` for draws and passes,
``rules.rescore`` for other options.
"""

from flask import Blueprint

bp = Blueprint("disputes", __name__)

from . import check, replay, rescore  # noqa: E402  (their routes register on ``bp``)

__all__ = ["bp", "check", "replay", "rescore"]
