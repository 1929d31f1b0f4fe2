"""Persistence: games as append-only action logs in any SQLAlchemy database.

It imports the rules engine and nothing else of the app. :func:`open_store` makes a
:class:`Store` (``store.py``) on a database URL (``engine.py``: SQLite tuned for durability,
Alembic's migrations on start); the statements go straight to the driver (``sql.py``,
``writer.py``); replayed pieces of games are kept in one bounded cache (``cache.py``); any
hand replayed from its start's snapshot in ``hands.py``; a game's past, replayed and audited,
in ``history.py``.
"""

from .cache import Part
from .circle_rows import (
    ANYWHERE,
    CircleNotFound,
    CircleRefused,
    CircleRow,
    Filters,
    MemberGame,
    Person,
)
from .circles import Circles
from .engine import Unusable, database_url, open_store
from .hands import played_hand
from .history import Audits
from .snapshot import (
    RESTORE_WINDOW,
    GameDeleted,
    GameNotFound,
    Snapshot,
    StaleRevision,
    options_from_dict,
    options_to_dict,
)
from .sql import out_of_reach
from .store import EXPORT_FORMAT, Store

__all__ = [
    "ANYWHERE",
    "EXPORT_FORMAT",
    "RESTORE_WINDOW",
    "Audits",
    "CircleNotFound",
    "CircleRefused",
    "CircleRow",
    "Circles",
    "Filters",
    "GameDeleted",
    "GameNotFound",
    "MemberGame",
    "Part",
    "Person",
    "Snapshot",
    "StaleRevision",
    "Store",
    "Unusable",
    "database_url",
    "open_store",
    "options_from_dict",
    "options_to_dict",
    "out_of_reach",
    "played_hand",
]
