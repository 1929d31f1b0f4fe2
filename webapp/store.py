"""Persistence of games: one transaction per action, checked against the game's revision.

A game's state is never stored: it is the fold of its action log through ``webapp.rules``.
Each accepted action is one new row in ``events`` with the next ``seq``; the unique
``(game_id, seq)`` makes double entry impossible, even between processes. Replayed states are
kept in a small in-process cache keyed by revision, so the cost of an action does not grow with
the length of the game.
"""

from __future__ import annotations

import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Connection, Engine, Row, Table, insert, select, update

from .models import Event, Game, utcnow
from .rules import Action, BadOptions, GameState, Options, Outcome, from_dict, recorded, to_dict
from .sqlpath import Cursor, Driver, GameRow

CACHE_SIZE = 1024
EXPORT_FORMAT = "allfives-game/1"
MAX_IMPORTED_ACTIONS = 10_000


class GameNotFound(LookupError):
    """No game has this id."""


class StaleRevision(Exception):
    """The action was made against an older revision of the game: nothing was applied."""

    def __init__(self, current: Snapshot, submitted: int | None) -> None:
        super().__init__(f"the game is at revision {current.seq}, not {submitted}")
        self.current = current
        self.submitted = submitted

    @property
    def message(self) -> str:
        done = self.current.state.done
        if self.submitted is not None and self.submitted < self.current.seq and done:
            return f"Someone else got there first ({done}). Here is the game as it is now."
        return "The game had moved on. Here is the game as it is now; nothing was changed."


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A game at one revision: its ids, its state, and when it last changed."""

    id: str
    view_id: str
    seq: int
    state: GameState
    created_at: datetime
    updated_at: datetime
    learning: bool = False  # the table's teaching switch, kept with the options (not a rule)
    coaching: bool = False  # the picker marks what fits and scores (always so in learning mode)

    @classmethod
    def of(cls, game: Any, seq: int, state: GameState, updated_at: datetime) -> Snapshot:
        """A game row's snapshot at ``seq``, with the screen settings kept in its options."""
        options = game.options
        return cls(
            game.id,
            game.view_id,
            seq,
            state,
            game.created_at,
            updated_at,
            bool(options.get("learning")),
            bool(options.get("coaching")),
        )


def options_to_dict(options: Options) -> dict[str, Any]:
    return {
        "players": list(options.players),
        "partnership": options.partnership,
        "rules": options.rules_dict(),
    }


def options_from_dict(stored: dict[str, Any]) -> Options:
    rules = stored.get("rules") or {}
    players = stored.get("players")
    if not isinstance(rules, dict) or not isinstance(players, list):
        raise BadOptions("options", "players must be a list of names and rules an object")
    rules = dict(rules)
    preset = str(rules.pop("preset", "seed"))
    return Options.make(players, bool(stored.get("partnership")), preset, **rules)


_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def _is_id(text: object) -> bool:
    """Whether ``text`` could be an id at all: anything else is no game, not a query."""
    return isinstance(text, str) and _ID.fullmatch(text) is not None


def new_id() -> str:
    """128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


class Store:
    """Games and their logs in any SQLAlchemy database.

    A play is one short transaction: the new event and the game's new revision, conditional
    on the revision the rules were asked at. Those statements, and the reads of every screen,
    go straight to the driver (:mod:`webapp.sqlpath`); the rest is SQLAlchemy Core.
    """

    def __init__(self, reader: Engine, writer: Engine | None = None) -> None:
        """``writer`` (default ``reader``) is the engine for transactions that change a game."""
        self.engine = reader
        self._writer = writer or reader
        self._read = Driver(reader)
        self._write = Driver(self._writer, immediate=writer is not None)
        self._cache: OrderedDict[str, tuple[int, GameState]] = OrderedDict()
        self._lock = threading.Lock()

    def close(self) -> None:
        """Close every pooled connection and the writers' lock file (the app's end, or a
        test's)."""
        self.engine.dispose()
        self._writer.dispose()
        self._write.close()

    # --- reading -------------------------------------------------------------------------------

    def get(self, game_id: str) -> Snapshot:
        with self._read.cursor() as cursor:
            return self._snapshot(cursor, self._row(cursor, game_id))

    def get_by_view(self, view_id: str) -> Snapshot:
        with self._read.cursor() as cursor:
            return self._snapshot(cursor, self._row(cursor, view_id, by_view=True))

    def revision(self, game_id: str) -> int:
        """The game's current ``seq``: a cheap question for pages that follow a game."""
        if not _is_id(game_id):
            raise GameNotFound(game_id)
        with self._read.cursor() as cursor:
            seq = cursor.seq(game_id)
        if seq is None:
            raise GameNotFound(game_id)
        return seq

    def many(self, game_ids: Iterable[str]) -> list[Snapshot]:
        """The games among ``game_ids`` that exist, most recently changed first."""
        ids = [game_id for game_id in game_ids if _is_id(game_id)][:50]
        if not ids:
            return []
        with self._read.cursor() as cursor:
            games = [cursor.game(game_id) for game_id in dict.fromkeys(ids)]
            found = [self._snapshot(cursor, game) for game in games if game is not None]
        return sorted(found, key=lambda snap: snap.updated_at, reverse=True)

    def log(self, game_id: str) -> list[tuple[int, dict[str, Any], datetime]]:
        """Every stored action of the game, in order: ``(seq, action, when)``."""
        with self.engine.connect() as conn:
            self._game(conn, game_id)
            rows = conn.execute(
                select(EVENTS.c.seq, EVENTS.c.action, EVENTS.c.created_at)
                .where(EVENTS.c.game_id == game_id)
                .order_by(EVENTS.c.seq)
            )
            return [(seq, action, when) for seq, action, when in rows]

    def log_since(self, game_id: str, after: int) -> list[tuple[int, dict[str, Any]]]:
        """The stored actions after revision ``after``, in order: ``(seq, action)``; the log
        is append-only, so what was read before need not be read again."""
        with self._read.cursor() as cursor:
            return cursor.tail(game_id, after, self._row(cursor, game_id).seq)

    def export(self, game_id: str) -> dict[str, Any]:
        """The game as portable data: its options and its whole action log."""
        with self.engine.connect() as conn:
            game = self._game(conn, game_id)
            actions = conn.scalars(
                select(EVENTS.c.action).where(EVENTS.c.game_id == game_id).order_by(EVENTS.c.seq)
            ).all()
        return {
            "format": EXPORT_FORMAT,
            **game.options,
            "created_at": game.created_at.isoformat(timespec="seconds") + "Z",
            "actions": list(actions),
        }

    # --- writing -------------------------------------------------------------------------------

    def create(self, options: Options, actions: Sequence[Action] = ()) -> Snapshot:
        """A new game; with ``actions``, an imported one (each checked by the rules, its draws
        and passes read as the log reads them: the table's word, R7a), stored as given."""
        state = GameState.new(options)
        for action in actions:
            state, _ = state.apply(recorded(to_dict(action)))
        now = utcnow()
        game_id, view_id, seq = new_id(), new_id(), len(actions)
        with self._write.turn(), self._writer.begin() as conn:
            conn.execute(
                insert(GAMES).values(
                    id=game_id,
                    view_id=view_id,
                    options=options_to_dict(options),
                    seq=seq,
                    created_at=now,
                    updated_at=now,
                )
            )
            if actions:
                conn.execute(
                    insert(EVENTS),
                    [
                        {"game_id": game_id, "seq": n, "action": to_dict(a), "created_at": now}
                        for n, a in enumerate(actions, start=1)
                    ],
                )
        self._remember(game_id, seq, state)
        return Snapshot(game_id, view_id, seq, state, now, now)

    def import_game(self, exported: dict[str, Any]) -> Snapshot:
        """A new game identical to an exported one (new ids); refused if any action is."""
        if not isinstance(exported, dict) or exported.get("format") != EXPORT_FORMAT:
            raise BadOptions(
                "import_format", f"not an exported game: format must be {EXPORT_FORMAT!r}"
            )
        options = options_from_dict(exported)
        stored = exported.get("actions", [])
        if not isinstance(stored, list) or len(stored) > MAX_IMPORTED_ACTIONS:
            raise BadOptions("import_actions", "actions must be a list of at most 10000 actions")
        return self.create(options, [from_dict(action) for action in stored])

    def apply(
        self, game_id: str, seq: int | None, action: Action, read: Snapshot | None = None
    ) -> tuple[Snapshot, Outcome]:
        """Apply ``action`` if the game is still at revision ``seq``; exactly once, or not at all.

        ``read``: the game as the caller already read it in this request, so it is not read
        again; the write is conditional on the revision all the same.
        Raises :class:`GameNotFound`, :class:`StaleRevision` (nothing applied) or the rules'
        :class:`~webapp.rules.RuleError` (nothing applied).
        """
        # The rules are asked outside the write transaction, against the game as read at
        # ``seq``; the write then only appends event ``seq + 1`` and moves the game on from
        # ``seq``, which fails (and writes nothing) if anything else moved it first. So writers
        # hold the database for two statements, not for a read, a replay and the rules.
        if read is not None and read.id == game_id:
            if seq != read.seq:
                raise StaleRevision(read, seq)
            game: Snapshot | GameRow = read
            state = read.state
        else:
            with self._read.cursor() as cursor:
                game = self._row(cursor, game_id)
                if seq is None or seq != game.seq:
                    raise StaleRevision(self._snapshot(cursor, game), seq)
                at, state = self._state(cursor, game)
                if at != seq:  # the log does not reach the revision read: treat as moved on
                    raise StaleRevision(self._snapshot(cursor, game), seq)
        action = state.resolve(action)
        new_state, outcome = state.apply(action)
        now = utcnow()
        try:
            if not self._write.append(game_id, seq + 1, to_dict(action), now):
                raise _Moved
        except (_Moved, self._write.integrity_error):
            raise StaleRevision(self.get(game_id), seq) from None
        self._remember(game_id, seq + 1, new_state)
        if isinstance(game, Snapshot):
            return replace(game, seq=seq + 1, state=new_state, updated_at=now), outcome
        return Snapshot.of(game, seq + 1, new_state, now), outcome

    SCREEN_SETTINGS = ("learning", "coaching")

    def set_screen(self, game_id: str, setting: str, on: bool) -> Snapshot:
        """Turn one of the game screen's settings (``SCREEN_SETTINGS``) on or off: not an
        action, so it is kept in the stored options and leaves the log alone."""
        assert setting in self.SCREEN_SETTINGS
        with self._write.turn(), self._writer.begin() as conn:
            game = self._game(conn, game_id, lock=True)
            options = {**game.options, setting: bool(on)}
            conn.execute(update(GAMES).where(GAMES.c.id == game_id).values(options=options))
        return self.get(game_id)

    # --- internals -----------------------------------------------------------------------------

    def _game(self, conn: Connection, game_id: str, lock: bool = False) -> Row[Any]:
        if not _is_id(game_id):
            raise GameNotFound(game_id)
        query = _GAME.where(GAMES.c.id == game_id)
        if lock and conn.dialect.name != "sqlite":  # SQLite writers hold BEGIN IMMEDIATE
            query = query.with_for_update()
        game = conn.execute(query).first()
        if game is None:
            raise GameNotFound(game_id)
        return cast(Row[Any], game)

    @staticmethod
    def _row(cursor: Cursor, key: str, by_view: bool = False) -> GameRow:
        """The game row by its id (or view id)."""
        game = cursor.game(key, by_view) if _is_id(key) else None
        if game is None:
            raise GameNotFound(key)
        return game

    def _snapshot(self, cursor: Cursor, game: GameRow) -> Snapshot:
        seq, state = self._state(cursor, game)
        return Snapshot.of(game, seq, state, game.updated_at)

    def _state(self, cursor: Cursor, game: GameRow) -> tuple[int, GameState]:
        """The game's state and the revision it is at, from the cache and the log.

        The revision is the last event actually folded in, never a number read separately,
        so a state can never be labelled with a revision it does not include.
        """
        with self._lock:
            cached = self._cache.get(game.id)
            if cached is not None:
                self._cache.move_to_end(game.id)
        if cached is not None and cached[0] == game.seq:
            return cached
        seq, state = 0, GameState.new(options_from_dict(game.options))
        if cached is not None and cached[0] < game.seq:
            seq, state = cached
        for number, stored in cursor.tail(game.id, seq, game.seq):
            state, _ = state.apply(recorded(stored))
            seq = number  # the last event folded in is the state's revision
        self._remember(game.id, seq, state)
        return seq, state

    def _remember(self, game_id: str, seq: int, state: GameState) -> None:
        with self._lock:
            self._cache[game_id] = (seq, state)
            self._cache.move_to_end(game_id)
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)


class _Moved(Exception):
    """The game's revision moved under a write: another action got there first."""


GAMES = cast(Table, Game.__table__)
EVENTS = cast(Table, Event.__table__)
_GAME = select(
    GAMES.c.id,
    GAMES.c.view_id,
    GAMES.c.options,
    GAMES.c.seq,
    GAMES.c.created_at,
    GAMES.c.updated_at,
)

__all__ = ["GameNotFound", "Snapshot", "StaleRevision", "Store"]
