"""The one owner of every game's replayed pieces, bounded by their size in bytes.

A game's state, its replayed history, the audits of its settled hands and the log sections
drawn from them are all folds of its log, and each is worked out again from the database when
it is missing: so they are kept here, and only here, each named by its game and what it is and
labelled with the revision (or settled prefix) it was worked out at. When the pieces kept come
to more than the budget (``ALLFIVES_CACHE_BYTES``, 64 MiB by default), those used least
recently go first. Sizes are estimates (see :func:`size_of`), close enough to bound memory.

A piece missing when several requests ask for it at once is made once: the first to ask makes
it while the others wait for it (a per-key lock, "single flight"), so eight clients opening a
long game's rescore together cost one replay, not eight.
"""

from __future__ import annotations

import enum
import sys
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, fields, is_dataclass
from typing import Any, TypeVar

from cachetools import LRUCache

from ..rules import Options
from ..rules.history import History
from ..rules.scorebook import Scorebook

BUDGET = 64 * 1024 * 1024
Made = TypeVar("Made")
#: What a piece was worked out at: the game's revision (or settled prefix), or a tuple of it
#: and everything else the piece depends on, so that a game keeps one piece of each name.
Revision = int | tuple[Hashable, ...]


class Part(enum.StrEnum):
    """The pieces of a game kept here, by name."""

    BOOK = "book"  # the scorebook: the state and the current hand's states (the store's)
    HISTORY = "history"  # the settled hands replayed (rules.history.History)
    RESCORED = "rescored"  # the settled hands replayed under other options (per options)
    SETTLED = "settled"  # the settled prefix of the log as of each action in effect
    AUDITS = "audits"  # the settled hands' audits (store.history.Audits)
    SETTLED_LOG = "settled-log"  # the game log's settled hand before the current one, in words
    OLDER_HANDS = "older-hands"  # the game log's older hands, drawn (per link and language)
    STARTS = "starts"  # where each hand starts in the log (store.hands), per revision
    HAND = "hand"  # one hand replayed from its start's snapshot (per start and end)
    CLOCK = "clock"  # R30: when the game's clock started (the first hand's lead in effect)
    SUMMARY = "summary"  # what a circle's statistics need of the game (rules.circle_stats)
    CIRCLE = "circle"  # a circle's statistics (per filters), kept by the circle's id


@dataclass(frozen=True, slots=True)
class Piece:
    revision: Revision
    value: Any
    size: int


class _Flight:
    """The making of one piece: its lock, and how many requests hold or wait for it."""

    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.users = 0


class GameCache:
    """Pieces of games, least recently used first out once they pass ``budget`` bytes."""

    def __init__(self, budget: int = BUDGET) -> None:
        self.budget = budget
        self._pieces: LRUCache[tuple[str, Hashable], Piece] = LRUCache(
            maxsize=budget, getsizeof=lambda piece: piece.size
        )
        self._lock = threading.Lock()
        self._flights: dict[tuple[str, Hashable, Revision], _Flight] = {}

    def get(self, game_id: str, name: Hashable) -> tuple[Any, Any] | None:
        """The piece ``name`` of the game and the revision it was worked out at, if kept."""
        with self._lock:
            piece = self._pieces.get((game_id, name))
        return None if piece is None else (piece.revision, piece.value)

    def at(self, game_id: str, name: Hashable, revision: Revision) -> Any:
        """The piece ``name`` of the game if it was worked out at ``revision``, else None."""
        found = self.get(game_id, name)
        return found[1] if found is not None and found[0] == revision else None

    def put(self, game_id: str, name: Hashable, revision: Revision, value: Any) -> None:
        """Keep ``value`` as the game's piece ``name`` (in place of any older one)."""
        piece = Piece(revision, value, size_of(value))
        if piece.size > self.budget:
            return
        with self._lock:
            self._pieces[(game_id, name)] = piece

    def get_or_make(
        self,
        game_id: str,
        piece: Part | tuple[Hashable, ...],
        revision: Revision,
        make: Callable[[], Made],
    ) -> Made:
        """The game's ``piece`` as worked out at ``revision``: kept, or made now and kept.
        ``piece`` is a :class:`Part`, or a tuple starting with one and naming its variant
        (``(Part.OLDER_HANDS, link, language)``)."""
        found = self.at(game_id, piece, revision)
        if found is None:
            found = self._make_once((game_id, piece, revision), make)
        made: Made = found
        return made

    def _make_once(self, key: tuple[str, Hashable, Revision], make: Callable[[], Made]) -> Made:
        """The piece ``key`` made by ``make`` and kept, unless a request making it already
        is, whose piece this one waits for instead (single flight, one lock per key)."""
        game_id, piece, revision = key
        with self._lock:
            flight = self._flights.setdefault(key, _Flight())
            flight.users += 1
        try:
            with flight.lock:
                found = self.at(game_id, piece, revision)  # made while this one waited
                if found is None:
                    found = make()
                    self.put(game_id, piece, revision, found)
                made: Made = found
                return made
        finally:
            with self._lock:
                flight.users -= 1
                if not flight.users:
                    del self._flights[key]

    @property
    def used(self) -> int:
        """The estimated bytes of every piece kept."""
        with self._lock:
            return int(self._pieces.currsize)

    def footprint(self, game_id: str) -> int:
        """The estimated bytes of every piece kept for the game."""
        with self._lock:
            return sum(piece.size for (game, _), piece in self._pieces.items() if game == game_id)

    def clear(self) -> None:
        with self._lock:
            self._pieces.clear()


# Bytes per part of a scorebook, from tracemalloc (``tests/server/test_cache.py`` holds the
# estimate to what tracemalloc finds): each state with its hand, each move a state's hand adds
# with the layout it leaves, and each settled hand's result.
STATE_BYTES = 700
MOVE_BYTES = 1_200
RESULT_BYTES = 700


def size_of(value: Any) -> int:
    """About how many bytes ``value`` holds: a scorebook from what it holds (it is kept after
    every play, so it is not walked), anything else walked once."""
    if isinstance(value, Scorebook):
        moves: dict[int, int] = {}  # per hand, the most moves a state holds (they share them)
        for state in value.states:
            if state.hand is not None:
                number, held = state.hand.number, len(state.hand.moves)
                moves[number] = max(moves.get(number, 0), held)
        results = len(value.state.results)
        parts = len(value.states) * STATE_BYTES + sum(moves.values()) * MOVE_BYTES
        return parts + results * RESULT_BYTES
    if isinstance(value, History):  # kept once per settlement: not walked either
        played = sum(len(hand.hand.moves) for hand in value.hands)
        return (len(value.hands) * 2 + 1) * STATE_BYTES + played * MOVE_BYTES
    return _walk(value, set())


def _walk(value: Any, seen: set[int]) -> int:
    """``sys.getsizeof`` of ``value`` and of everything it holds, each object once."""
    if id(value) in seen or value is None or isinstance(value, enum.Enum | Options):
        return 0  # one for every game, or shared with the game's scorebook
    seen.add(id(value))
    size = sys.getsizeof(value)
    if isinstance(value, str | bytes):
        return size
    if isinstance(value, dict):
        return size + sum(_walk(k, seen) + _walk(v, seen) for k, v in value.items())
    if isinstance(value, list | tuple | set | frozenset):
        return size + sum(_walk(item, seen) for item in value)
    if is_dataclass(value):
        return size + sum(_walk(getattr(value, f.name, None), seen) for f in fields(value))
    held = getattr(value, "__dict__", None)
    return size + (_walk(held, seen) if held else 0)
