"""The games a table was playing a moment ago: what a server that starts again mid-evening
reads into its cache before it serves (``serve/warm.py``)."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from sqlalchemy import select

from .schema import Game, utcnow

if TYPE_CHECKING:
    from .store import Store

GAMES = Game.__table__


def recently_changed(store: Store, within: timedelta, most: int) -> list[tuple[str, int]]:
    """The games changed in the last ``within``, at most ``most``, most recent first: each
    one's id and revision (deleted games left out)."""
    if most < 1:
        return []
    query = (
        select(GAMES.c.id, GAMES.c.seq)
        .where(GAMES.c.updated_at >= utcnow() - within, GAMES.c.deleted_at.is_(None))
        .order_by(GAMES.c.updated_at.desc())
        .limit(most)
    )
    with store.engine.connect() as db:
        return [(str(game_id), int(seq)) for game_id, seq in db.execute(query)]
