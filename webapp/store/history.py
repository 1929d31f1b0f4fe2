"""A game's past as the rules replay it from its log: the hands played (under its own rules
or others, for a rescore), the settled prefix of the log, and the audits of the last settled
hands (R6, R7).

A page of one hand (its replay, its audit) replays that hand from its start's snapshot
(:mod:`webapp.store.hands`). A rescore's totals need every hand: the settled hands never change
unless their settlement is undone, so their replay is kept in the store's one cache
(:mod:`webapp.store.cache`) per settled prefix, and extended hand by hand as the game goes on:
after the first, a rescore of a game's two-hundredth hand replays the hand being played, not
the 199 before it.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from ..rules import Action, Options, Play, recorded
from ..rules.audit import Audit, audit
from ..rules.history import (
    History,
    PlayedHand,
    replay,
    settled_after,
    settled_prefix,
    standing_after,
    undoes_before,
)
from .cache import Part
from .hands import played_hand, starts
from .snapshot import Snapshot

if TYPE_CHECKING:
    from .store import Store


@dataclass(frozen=True, slots=True)
class Audits:
    """The audits of the last two settled hands (the ones the game log lists move by move), as
    of the game's last settlement in effect; an older hand's is on its replay page."""

    last: int | None  # the hand settled last
    by_hand: Mapping[int, Audit] = field(default_factory=dict)


NO_AUDITS = Audits(None)


def hand_audit(played: PlayedHand, options: Options) -> Audit | None:
    """The audit of a settled hand (R6, R7); None before it is settled."""
    if played.reports is None:
        return None
    return audit(played.hand, played.reports.by_seat, options.players)


def actions(
    store: Store, snapshot: Snapshot, first: int = 0, end: int | None = None
) -> list[Action]:
    """The game's actions ``first`` to ``end`` (default: up to ``snapshot``), read from the log
    (they are not kept: a long game's would cost more memory than all else kept of it)."""
    last = snapshot.seq if end is None else end
    stored = store.log_since(snapshot.id, first)[: last - first]
    return [recorded(action) for _, action in stored]


def clock_ends(store: Store, snapshot: Snapshot) -> datetime | None:
    """R30: when a timed game's time is up: its time limit after the first hand's lead in
    effect (an undone lead does not start the clock); None without a limit or a lead."""
    minutes = snapshot.state.options.time_limit
    if not minutes or snapshot.state.hand_number == 0:
        return None

    # The first hand's actions only: from its start (if kept) to the second hand's start.
    seqs = starts(store, snapshot)
    first, end = seqs.get(1, 0), seqs.get(2)

    def started() -> datetime | None:
        with store.cursor() as cursor:
            log = cursor.events(snapshot.id, first, snapshot.seq if end is None else end - 1)
        actions = [recorded(stored) for _, stored, _ in log]
        standing = standing_after((), actions, 0)
        return next((log[i][2] for i in standing if isinstance(actions[i], Play)), None)

    # Once the second hand is dealt, the first hand's lead stands until an undo reaches it.
    piece, revision = (Part.CLOCK, first, end), 0 if end is not None else snapshot.seq
    start = store.cache.get_or_make(snapshot.id, piece, revision, started)
    return None if start is None else start + timedelta(minutes=minutes)


def history(store: Store, snapshot: Snapshot, options: Options | None = None) -> History:
    """The game's log up to ``snapshot`` folded through the rules (its own, or ``options``):
    the settled hands kept per settled prefix and extended hand by hand as the game goes on,
    made once however many requests ask at once (the cache's single flight); the hand after
    them replayed now. Every hand, so only what needs them all reads it: the totals of a
    rescore, and a game whose hands' starts are not all kept (``store.hands``)."""
    rules = snapshot.as_started(options or snapshot.state.options)
    piece = Part.HISTORY if options is None else (Part.RESCORED, options)
    prefix = settled(store, snapshot)

    def made() -> History:
        kept = store.cache.get(snapshot.id, piece)
        start, earlier = kept if kept is not None and kept[0] < prefix else (0, None)
        between = actions(store, snapshot, start, prefix)
        if earlier is not None and undoes_before(between):  # that settlement was undone
            earlier, between = None, actions(store, snapshot, 0, prefix)
        return replay(rules, between, earlier)

    done = store.cache.get_or_make(snapshot.id, piece, prefix, made)
    return replay(rules, actions(store, snapshot, prefix), done)


def kept(store: Store, snapshot: Snapshot, options: Options) -> bool:
    """Whether the game's settled hands under ``options`` are kept as of ``snapshot``: if not,
    a rescore under them replays the whole game."""
    piece = (Part.RESCORED, options)
    return store.cache.at(snapshot.id, piece, settled(store, snapshot)) is not None


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
    """The audits of the last two settled hands, and which hand was settled last: each hand
    replayed from its start (``store.hands``), worked out once per settlement."""
    state = snapshot.state
    if not state.results:
        return NO_AUDITS

    def made() -> Audits:
        by_hand = {}
        last = state.results[-1].number  # the hand settled last: none after it to audit
        for number in range(max(1, state.hand_number - 1), last + 1):
            played = played_hand(store, snapshot, number)
            checked = hand_audit(played, state.options) if played is not None else None
            if checked is not None:
                by_hand[number] = checked
        return Audits(last, by_hand)

    # The settled hands change only with a settlement, so a play in the hand after them finds
    # them kept; the hands audited and the names they say come with the revision.
    revision = (settled(store, snapshot), state.hand_number, state.options)
    found: Audits = store.cache.get_or_make(snapshot.id, Part.AUDITS, revision, made)
    return found
