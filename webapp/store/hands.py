"""Any hand of a game replayed from the snapshot of its start, not from the game's start.

Each hand's start is kept in ``snapshots``, written with the ``StartHand`` that deals it (and,
for an imported game, with the import). So hand ``k`` as last played is the snapshot of its
start with the actions stored after it folded in, up to the next hand's start: what a page of a
game's two-hundredth hand costs does not grow with the 199 before it.

Which snapshot starts a hand in effect: an undo that reaches back past a hand's start cancels
it, and the hand is dealt again by a later ``StartHand`` with its own snapshot. So the current
hand starts at the latest snapshot of its number, and each earlier hand at the latest snapshot
of its number before the next hand's start (an undone start is always followed by a later one
of the same number). A game whose hands' starts were not all kept (from before snapshots, or
of another version of the rules) is replayed from its log instead (``history.history``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ..rules import GameState, recorded
from ..rules.game import STATE_FORMAT
from ..rules.history import History, PlayedHand, replay, undoes_before
from .cache import Part
from .snapshot import Snapshot

if TYPE_CHECKING:
    from .store import Store

#: Hands replayed since the process started (or a test reset it): what a page costs, counted
#: without a clock (``tests/web/test_long_games.py``).
REPLAYED = {"hands": 0}


def starts_in_effect(rows: Sequence[tuple[int, int]], hands: int, seq: int) -> dict[int, int]:
    """For each hand from ``hands`` (the current one) down, the seq of the ``StartHand`` in
    effect at revision ``seq``, from the snapshots kept, ``(seq, hand)`` in order; it stops at
    the first hand whose start is not kept.

    >>> starts_in_effect([(1, 1), (30, 2), (41, 3), (44, 3), (50, 2), (60, 3)], 3, 70)
    {3: 60, 2: 50, 1: 1}
    >>> starts_in_effect([(30, 2), (60, 3)], 3, 59)
    {}
    """
    by_hand: dict[int, list[int]] = defaultdict(list)
    for start, number in rows:
        by_hand[number].append(start)
    found: dict[int, int] = {}
    bound = seq + 1
    for number in range(hands, 0, -1):
        before = [start for start in by_hand.get(number, ()) if start < bound]
        if not before:
            break
        bound = found[number] = before[-1]
    return found


def starts(store: Store, snapshot: Snapshot) -> Mapping[int, int]:
    """Where each hand of the game starts in its log (see ``starts_in_effect``), as of
    ``snapshot``: one read of the snapshots' numbers, kept per revision."""

    def read() -> dict[int, int]:
        with store.cursor() as cursor:
            rows = cursor.starts(snapshot.id, snapshot.seq, STATE_FORMAT)
        return starts_in_effect(rows, snapshot.state.hand_number, snapshot.seq)

    found: Mapping[int, int] = store.cache.get_or_make(snapshot.id, Part.STARTS, snapshot.seq, read)
    return found


def played_hand(store: Store, snapshot: Snapshot, number: int) -> PlayedHand | None:
    """Hand ``number`` as last played by revision ``snapshot`` (None: no such hand), replayed
    from its start's snapshot and kept: a settled hand for as long as its start and the next
    hand's stand, the current hand per revision."""
    if not 1 <= number <= snapshot.state.hand_number:
        return None
    seqs = starts(store, snapshot)
    first, end = seqs.get(number), seqs.get(number + 1)
    if first is None:  # its start is not kept: the game's past replayed from its log
        return store.history(snapshot).hand(number)
    revision = 0 if end is not None else snapshot.seq
    piece = (Part.HAND, first, end)
    found = store.cache.get_or_make(
        snapshot.id, piece, revision, lambda: _replayed(store, snapshot, first, end)
    )
    return found if found is not None else store.history(snapshot).hand(number)


def _replayed(store: Store, snapshot: Snapshot, first: int, end: int | None) -> PlayedHand | None:
    """The hand dealt by event ``first``, its actions up to the next hand's start (``end``) or
    the snapshot's revision folded in; None if its snapshot cannot be used after all."""
    options = snapshot.state.options
    mark: GameState | None = snapshot.book.mark  # the current hand's start, in memory already
    with store.cursor() as cursor:
        if end is not None or snapshot.book.mark.hand_number != snapshot.state.hand_number:
            stored = cursor.mark_at(snapshot.id, first, STATE_FORMAT)
            try:
                mark = None if stored is None else GameState.from_dict(options, stored)
            except ValueError:  # a damaged snapshot is a missing one
                mark = None
        tail = cursor.tail(snapshot.id, first, snapshot.seq if end is None else end - 1)
    actions = [recorded(action) for _, action in tail]
    if mark is None or mark.hand is None or undoes_before(actions):
        return None
    REPLAYED["hands"] += 1
    start = History(options, mark, (PlayedHand(mark.hand, mark.scores),))
    return replay(options, actions, start).hands[-1]
