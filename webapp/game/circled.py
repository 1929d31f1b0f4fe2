"""The circle a finished game is kept in, as game over names it (a link to the circle's page)."""

from __future__ import annotations

from flask import url_for

from ..store import Snapshot
from ..web.game import store
from .regions import InCircle


def in_circle(snapshot: Snapshot, viewer: bool) -> InCircle | None:
    """The game's circle, if any, linked as its reader may open it: its page on the players'
    link, its watch page on the watch link (which never leads to a players' link)."""
    circle = store().circles.circle_of(snapshot.id)
    if circle is None:
        return None
    if viewer:
        return InCircle(circle.name, url_for("circles.watch", circle_view=circle.view_id))
    return InCircle(circle.name, url_for("circles.page", circle_id=circle.id))
