"""Persistence of games: one transaction per action, checked against the game's revision.

A game's state is the fold of its action log through ``webapp.rules``. Each accepted action is
one new row in ``events`` with the next ``seq``; the unique ``(game_id, seq)`` makes double
entry impossible, even between processes. Replayed states are kept in the one bounded cache of
game pieces (:mod:`webapp.store.cache`) with their revision, so the cost of an action does not grow
with the length of the game; and each hand's start is kept in ``snapshots``, written in the
transaction of its ``StartHand``, so that a fresh process replays the current hand only. A
snapshot is a cache too: one written by another version of the rules, or one an undo has since
reached back past, is passed over for an earlier one, or for the log from its start.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

from sqlalchemy import Engine

from ..rules import (
    Action,
    BadOptions,
    GameState,
    IllegalAction,
    Options,
    Outcome,
    StartHand,
    recorded,
    same_entry,
    to_dict,
)
from ..rules.game import STATE_FORMAT, BeyondTheMark
from ..rules.history import History
from ..rules.messages import N_
from ..rules.records import replace
from ..rules.scorebook import Scorebook
from . import history as past
from .cache import BUDGET, GameCache, Part
from .circles import Circles
from .feed import GONE
from .schema import utcnow
from .snapshot import (
    GameDeleted,
    GameNotFound,
    Snapshot,
    StaleRevision,
    deleted_at,
    is_id,
    last_start,
    new_id,
    options_from_dict,
    options_to_dict,
    snapshot_row,
)
from .sql import Cursor, Driver, GameRow
from .writer import Writer

EXPORT_FORMAT = "allfives-game/1"
# The most actions a game's log holds (a game to the highest target takes a few thousand).
MAX_ACTIONS = 10_000
GAME_FULL = N_(
    "this game holds %(most)s actions, the most a game may hold: start a new game to play on",
    most=MAX_ACTIONS,
)


class Store:
    """Games and their logs in any SQLAlchemy database.

    A play is one short transaction: the new event and the game's new revision, conditional
    on the revision the rules were asked at. Every statement goes straight to the driver
    (:mod:`webapp.store.sql`).
    """

    def __init__(
        self, reader: Engine, writer: Engine | None = None, cache_bytes: int = BUDGET
    ) -> None:
        """``writer`` (default ``reader``) is the engine for transactions that change a game;
        ``cache_bytes`` bounds the pieces of games kept in memory (:mod:`webapp.store.cache`)."""
        self.engine = reader
        self._writer = writer or reader
        self._read = Driver(reader, reads=True)
        self._write = Writer(self._writer, immediate=writer is not None)
        self.feed = self._write.feed  # games moved, here and in other processes (feed.py)
        self.cache = GameCache(cache_bytes)
        self.circles = Circles(self)

    def close(self) -> None:
        """Close every pooled connection and the writers' lock file (the app's or a test's end)."""
        self._write.close()  # (first: the writer's own connection goes back to its pool)
        self._read.close()
        self._writer.dispose()

    def ready(self, readers: int = 0) -> None:
        """Make the writer's connection (with SQLite, in its turn: a folder where the lock file
        cannot be made is found at start), and ``readers`` for a server's threads to come."""
        self._write.ready()
        self._read.ready(readers)

    # --- reading -------------------------------------------------------------------------------

    def get(self, game_id: str) -> Snapshot:
        with self._read.cursor() as cursor:
            return self._snapshot(cursor, self._row(cursor, game_id))

    def get_by_view(self, view_id: str) -> Snapshot:
        with self._read.cursor() as cursor:
            return self._snapshot(cursor, self._row(cursor, view_id, by_view=True))

    def revision(self, key: str, by_view: bool = False) -> int:
        """The game's current ``seq``, by its id (or view id): a cheap question for pages that
        follow a game (one that is gone or deleted is read whole, to say which)."""
        if not is_id(key):
            raise GameNotFound(key)
        with self._read.cursor() as cursor:
            seq = cursor.seq(key, live=True, by_view=by_view)
        return seq if seq is not None else (self.get_by_view(key) if by_view else self.get(key)).seq

    def many(self, game_ids: Iterable[str]) -> list[Snapshot]:
        """The games among ``game_ids`` that exist, most recently changed first."""
        ids = [game_id for game_id in game_ids if is_id(game_id)][:50]
        if not ids:
            return []
        with self._read.cursor() as cursor:
            games = [cursor.game(game_id) for game_id in dict.fromkeys(ids)]
            found = [self._snapshot(cursor, g) for g in games if g is not None and not g.deleted_at]
        return sorted(found, key=lambda snap: snap.updated_at, reverse=True)

    def log(self, game_id: str) -> list[tuple[int, dict[str, Any], datetime]]:
        with self._read.cursor() as cursor:
            return cursor.events(game_id, 0, self._row(cursor, game_id).seq)

    def log_since(self, game_id: str, after: int) -> list[tuple[int, dict[str, Any]]]:
        """The stored actions after revision ``after``, in order: ``(seq, action)``."""
        with self._read.cursor() as cursor:
            return cursor.tail(game_id, after, self._row(cursor, game_id).seq)

    def export(self, game_id: str) -> dict[str, Any]:
        """The game as portable data: its options and its whole action log."""
        with self._read.cursor() as cursor:
            game = self._row(cursor, game_id)
            actions = [action for _, action in cursor.tail(game_id, 0, game.seq)]
        return {
            "format": EXPORT_FORMAT,
            **game.options,
            "created_at": game.created_at.isoformat(timespec="seconds") + "Z",
            "actions": list(actions),
        }

    # --- writing -------------------------------------------------------------------------------

    def create(self, options: Options, stored: Sequence[dict[str, Any]] = ()) -> Snapshot:
        """A new game; with a log in its storage form (``stored``), an imported one: each
        action judged as if the table entered it now (``Scorebook.entered``)."""
        book, actions, starts = Scorebook.entered(options, stored)
        log = [to_dict(action) for action in actions]
        now = utcnow()
        game_id, view_id, seq = new_id(), new_id(), len(log)
        game = GameRow(game_id, view_id, options_to_dict(options), seq, now, now)
        with self._write.transaction() as cursor:
            cursor.new_game(game, log)
            for start, state in starts:  # every hand's start, as if entered live
                cursor.snapshot(game_id, start, snapshot_row(state))
        self.cache.put(game_id, Part.BOOK, seq, book)
        return Snapshot.of(game, seq, book, now)

    def import_game(self, exported: dict[str, Any]) -> Snapshot:
        """A new game identical to an exported one (new ids), its options read as a new game's
        (``Options.parse``); refused if any action is."""
        if not isinstance(exported, dict) or exported.get("format") != EXPORT_FORMAT:
            raise BadOptions(
                "import_format",
                N_("not an exported game: format must be %(format)s", format=repr(EXPORT_FORMAT)),
            )
        options = Options.parse(
            exported.get("players"), exported.get("partnership", False), exported.get("rules", {})
        )
        stored = exported.get("actions", [])
        if not isinstance(stored, list) or len(stored) > MAX_ACTIONS:
            raise BadOptions(
                "import_actions",
                N_("actions must be a list of at most %(most)s actions", most=MAX_ACTIONS),
            )
        return self.create(options, stored)

    def apply(
        self, game_id: str, seq: int | None, action: Action, read: Snapshot | None = None
    ) -> tuple[Snapshot, Outcome]:
        """Apply ``action`` if the game is still at revision ``seq``; exactly once, or not at all.
        ``read``: the game as already read in this request (the write is conditional all the
        same). Raises :class:`GameNotFound`, :class:`GameDeleted`, :class:`StaleRevision`
        (``resent`` when the action that moved the game on from ``seq`` is this very one: a
        phone that lost the answer sent it again) or the rules' :class:`RuleError`; then
        nothing was applied."""
        try:
            return self._apply(game_id, seq, action, read)
        except StaleRevision as stale:
            stale.resent = self._resent(stale, action)
            raise

    def _resent(self, stale: StaleRevision, action: Action) -> bool:
        """Whether the action stored right after the revision submitted is ``action``."""
        current, after = stale.current, stale.submitted
        if after is None or not 0 <= after < current.seq:
            return False
        with self._read.cursor() as cursor:
            stored = cursor.tail(current.id, after, after + 1)
        return bool(stored) and same_entry(to_dict(action), stored[0][1])

    def _apply(
        self, game_id: str, seq: int | None, action: Action, read: Snapshot | None
    ) -> tuple[Snapshot, Outcome]:
        # The rules are asked outside the write transaction, against the game as read at
        # ``seq``; the write then only appends event ``seq + 1`` and moves the game on from
        # ``seq``, which fails (and writes nothing) if anything else moved it first. So writers
        # hold the database for two statements, not for a read, a replay and the rules.
        if read is not None and read.id == game_id:
            if seq != read.seq:
                raise StaleRevision(read, seq)
            game: Snapshot | GameRow = read
            book = read.book
        else:
            with self._read.cursor() as cursor:
                game = self._row(cursor, game_id)
                if seq is None or seq != game.seq:
                    raise StaleRevision(self._snapshot(cursor, game), seq)
                at, book = self._book(cursor, game)
                if at != seq:  # the log does not reach the revision read: treat as moved on
                    raise StaleRevision(self._snapshot(cursor, game), seq)
        if seq >= MAX_ACTIONS:
            raise IllegalAction("game_full", GAME_FULL)
        action = book.state.resolve(action)
        new_book, outcome = book.apply(action, lambda undo: self._rebuilt(game_id, seq, undo))
        names = book.state.options.players, new_book.state.options.players
        seat_anew = self.circles.renaming(game_id, *names)  # a rename moves its circle's seat
        mark = snapshot_row(new_book.state) if isinstance(action, StartHand) else None
        now = utcnow()
        try:
            if not self._write.append(game_id, seq + 1, to_dict(action), now, mark, seat_anew):
                raise _Moved
        except (_Moved, self._write.integrity_error):
            raise StaleRevision(self.get(game_id), seq) from None
        self.cache.put(game_id, Part.BOOK, seq + 1, new_book)
        if isinstance(game, Snapshot):
            return replace(game, seq=seq + 1, book=new_book, updated_at=now), outcome
        return Snapshot.of(game, seq + 1, new_book, now), outcome

    def reaching(self, snapshot: Snapshot, number: int) -> Scorebook:
        """``snapshot``'s scorebook, or one folded from an earlier snapshot that holds the
        states of hand ``number`` on (the game log lists the last two hands' actions; the
        scorebook kept holds the current hand's). Not kept: only the log reads it."""
        if snapshot.book.reaches(number):
            return snapshot.book
        with self._read.cursor() as cursor:
            game = self._row(cursor, snapshot.id)._replace(seq=snapshot.seq)
            return self._fold(cursor, game, (), reach=number)[1]

    def history(self, snapshot: Snapshot, options: Options | None = None) -> History:
        """The game's hands up to ``snapshot``, replayed from the log under its rules (or under
        other ``options``: a rescore); the settled hands kept per settlement."""
        return past.history(self, snapshot, options)

    def clock_ends(self, snapshot: Snapshot) -> datetime | None:
        """R30: when a timed game's time is up, or None (no limit, or no lead yet)."""
        return past.clock_ends(self, snapshot)

    def settled(self, snapshot: Snapshot) -> int:
        """How many actions lead up to the last settlement in effect (settled hands' revision)."""
        return past.settled(self, snapshot)

    def audits(self, snapshot: Snapshot) -> past.Audits:
        """The audits of the game's last two settled hands (R6, R7), kept per settlement."""
        return past.audits(self, snapshot)

    SCREEN_SETTINGS = ("learning", "coaching")

    def set_screen(self, game_id: str, setting: str, on: bool) -> Snapshot:
        """Turn one of the game screen's settings (``SCREEN_SETTINGS``) on or off: not an
        action, so it is kept in the stored options and leaves the log alone."""
        assert setting in self.SCREEN_SETTINGS
        with self._write.transaction() as cursor:
            game = self._row(cursor, game_id, lock=True)
            cursor.set_options(game_id, {**game.options, setting: bool(on)})
        return self.get(game_id)

    def delete(self, game_id: str, delete: bool = True) -> datetime | None:
        """Delete the game (a tombstone: its links say so), or bring it back (``delete=False``),
        as :func:`~.snapshot.deleted_at` allows; when it was deleted (None: brought back)."""
        with self._write.transaction() as cursor:
            game = cursor.game_to_change(game_id) if is_id(game_id) else None
            cursor.set_deleted(game_id, when := deleted_at(game, delete))
        if when is not None:
            self.feed.announce(game_id, GONE)  # its open screens look again, and say so
        return when

    def cursor(self) -> AbstractContextManager[Cursor]:
        """A cursor to read with (``store.hands``: the snapshots of a game's hands)."""
        return self._read.cursor()

    # --- internals -----------------------------------------------------------------------------

    @staticmethod
    def _row(cursor: Cursor, key: str, by_view: bool = False, lock: bool = False) -> GameRow:
        """The game row by its id (or view id)."""
        game = None
        if is_id(key):
            game = cursor.game_to_change(key) if lock else cursor.game(key, by_view)
        if game is None:
            raise GameNotFound(key)
        if game.deleted_at is not None:
            raise GameDeleted(game, by_view)
        return game

    def _snapshot(self, cursor: Cursor, game: GameRow) -> Snapshot:
        seq, book = self._book(cursor, game)
        return Snapshot.of(game, seq, book, game.updated_at)

    def _book(self, cursor: Cursor, game: GameRow) -> tuple[int, Scorebook]:
        """The game's scorebook and the revision it is at, from the cache and the log.

        The revision is the last event actually folded in, never a number read separately,
        so a state can never be labelled with a revision it does not include.
        """
        cached = self.cache.get(game.id, Part.BOOK)
        if cached is not None and cached[0] == game.seq:
            return cached
        found = None
        if cached is not None and cached[0] < game.seq:
            seq, book = cached
            tail = cursor.tail(game.id, seq, game.seq)
            try:
                if tail:
                    found = (tail[-1][0], book.fold([recorded(stored) for _, stored in tail]))
            except BeyondTheMark:
                pass
        if found is None:
            found = self._fold(cursor, game, ())
        self.cache.put(game.id, Part.BOOK, *found)
        return found

    def _rebuilt(self, game_id: str, seq: int, extra: Sequence[Action]) -> Scorebook:
        """The scorebook of the game's log up to ``seq``, with ``extra`` after it (an undo of a
        hand's start: the hand before is rebuilt)."""
        with self._read.cursor() as cursor:
            game = self._row(cursor, game_id)._replace(seq=seq)
            return self._fold(cursor, game, extra)[1]

    def _fold(
        self, cursor: Cursor, game: GameRow, extra: Sequence[Action], reach: int | None = None
    ) -> tuple[int, Scorebook]:
        """The log up to the game row's revision (and ``extra``) folded from the latest usable
        snapshot (one of this version, at hand ``reach`` or before, that no undo has reached
        back past), or from the start."""
        options = options_from_dict(game.options)
        hands = 1 if reach is None else EVERY_HAND  # from hand ``reach``: each hand since
        below = game.seq + 1
        while (row := cursor.mark(game.id, below, STATE_FORMAT, reach)) is not None:
            below, stored = row
            try:
                mark = GameState.from_dict(options, stored)
            except ValueError:
                continue  # a damaged snapshot is a missing one
            tail = cursor.tail(game.id, below, game.seq)
            try:
                book = Scorebook((mark,), hands).fold([*(recorded(a) for _, a in tail), *extra])
            except BeyondTheMark:
                continue
            return (tail[-1][0] if tail else below), book
        tail = cursor.tail(game.id, 0, game.seq)
        log = [recorded(stored) for _, stored in tail]
        book = Scorebook(Scorebook.new(options).states, hands).fold([*log, *extra])
        if reach is None and not extra:
            self._keep_start(game.id, log, book)
        return (tail[-1][0] if tail else 0), book

    def _keep_start(self, game_id: str, log: Sequence[Action], book: Scorebook) -> None:
        """Write the snapshot of the current hand's start, which a fold from the log found
        missing (a game from before snapshots, or of another version of the rules), so that
        the next process need not fold the whole log again. A cache: if it cannot be written
        now, the next fold tries again."""
        start = last_start(log, book)
        if start is None:
            return
        try:
            with self._write.transaction() as cursor:
                cursor.snapshot(game_id, *start)
        except self._write.database_error:  # a cache left unwritten: the read goes on
            return


EVERY_HAND = 1_000_000


class _Moved(Exception):
    """The game's revision moved under a write: another action got there first."""


__all__ = ["GameDeleted", "GameNotFound", "Snapshot", "StaleRevision", "Store"]
