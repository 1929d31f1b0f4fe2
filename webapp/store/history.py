"""A game's past as the rules replay it from its log, kept per revision: the hands played,
the settled prefix of the log, and the audits of the settled hands (R6, R7).

Every page that looks back (the game log, replay, rescore, the audits) reads them here, so a
game's fortieth hand does not read and parse the thirty-nine before it on every play: each is
kept in the store's one cache (:mod:`webapp.store.cache`), labelled with the revision or the
settled prefix it was worked out at.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from ..rules import Action, Options, Play, Undo, recorded
from ..rules.audit import Audit, audit
from ..rules.history import History, PlayedHand, replay, settled_after, settled_prefix
from .cache import Part
from .snapshot import Snapshot

if TYPE_CHECKING:
    from .store import Store


@dataclass(frozen=True, slots=True)
class Audits:
    """The audits of a game's settled hands, as of its last settlement in effect.

    ``by_hand`` holds every settled hand's audit when ``complete``; as kept between requests,
    only the last two hands' (the ones the game log lists move by move)."""

    prefix: int  # the settled prefix of the log they were worked out at
    last: int | None  # the hand settled last
    by_hand: Mapping[int, Audit] = field(default_factory=dict)
    complete: bool = True


NO_AUDITS = Audits(0, None)


def hand_audit(played: PlayedHand, options: Options) -> Audit | None:
    """The audit of a settled hand (R6, R7); None before it is settled."""
    if played.reports is None:
        return None
    return audit(played.hand, played.reports.by_seat, options.players)


def actions(store: Store, snapshot: Snapshot) -> tuple[Action, ...]:
    """The game's actions up to ``snapshot``, read from the log (they are not kept: a long
    game's would cost more memory than all else kept of it)."""
    stored = store.log_since(snapshot.id, 0)[: snapshot.seq]
    return tuple(recorded(action) for _, action in stored)


def clock_ends(store: Store, snapshot: Snapshot) -> datetime | None:
    """R30: when a timed game's time is up: its time limit after the first hand's lead in
    effect (an undone lead does not start the clock); None without a limit or a lead."""
    minutes = snapshot.state.options.time_limit
    if not minutes or snapshot.state.hand_number == 0:
        return None

    def started() -> datetime | None:
        standing: list[tuple[Action, datetime]] = []
        for _, stored, when in store.log(snapshot.id)[: snapshot.seq]:
            action = recorded(stored)
            if isinstance(action, Undo):
                if standing:
                    standing.pop()
            else:
                standing.append((action, when))
        return next((when for action, when in standing if isinstance(action, Play)), None)

    start = store.cache.get_or_make(snapshot.id, Part.CLOCK, snapshot.seq, started)
    return None if start is None else start + timedelta(minutes=minutes)


def history(store: Store, snapshot: Snapshot) -> History:
    """The game's log up to ``snapshot`` folded through the rules, kept per revision."""
    return store.cache.get_or_make(
        snapshot.id,
        Part.HISTORY,
        snapshot.seq,
        lambda: replay(snapshot.state.options, actions(store, snapshot)),
    )


def settled(store: Store, snapshot: Snapshot) -> int:
    """The settled prefix of the log up to ``snapshot`` (see ``settled_prefix``).

    Kept per game as the settled prefix as of each action in effect, and extended by what is
    new, so that a game's fortieth hand does not read the thirty-nine before it on every play."""
    known = store.cache.get(snapshot.id, Part.SETTLED)
    read, prefixes = known if known is not None else (0, array("l"))
    if read > snapshot.seq:  # a page of an earlier revision
        return settled_prefix(actions(store, snapshot))
    if read < snapshot.seq:
        added = store.log_since(snapshot.id, read)[: snapshot.seq - read]
        more = [recorded(stored) for _, stored in added]
        prefixes = array("l", settled_after(prefixes, more, read))
        store.cache.put(snapshot.id, Part.SETTLED, read + len(more), prefixes)
    return prefixes[-1] if prefixes else 0


def audits(store: Store, snapshot: Snapshot) -> Audits:
    """Each settled hand's audit, and which hand was settled last.

    Only settled hands are audited, so the replay stops at the last settlement in effect, and
    what is kept serves every play until the next settlement. Only the last two hands' audits
    are kept (the older hands are drawn once per settlement by the game log): an answer worked
    out now holds them all (``complete``), one from the cache only those."""
    state = snapshot.state
    if not state.results:
        return NO_AUDITS
    prefix = settled(store, snapshot)
    kept = store.cache.get(snapshot.id, Part.AUDITS)
    if kept is not None and kept[0] == prefix and isinstance(kept[1], Audits):
        found: Audits = kept[1]
        return found
    every = every_audit(store, snapshot, prefix)
    recent = state.hand_number - 1
    trimmed = {number: seen for number, seen in every.by_hand.items() if number >= recent}
    store.cache.put(
        snapshot.id, Part.AUDITS, prefix, Audits(prefix, every.last, trimmed, complete=False)
    )
    return every


def every_audit(store: Store, snapshot: Snapshot, prefix: int) -> Audits:
    """Every settled hand's audit, replayed from the log up to the settled ``prefix``."""
    state = snapshot.state
    played = replay(state.options, actions(store, snapshot)[:prefix])
    by_hand = {}
    for hand in played.hands:
        checked = hand_audit(hand, state.options)
        if checked is not None:
            by_hand[hand.number] = checked
    return Audits(prefix, state.results[-1].number, by_hand)
