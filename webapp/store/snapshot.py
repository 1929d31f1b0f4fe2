"""A game as the store hands it out: a :class:`Snapshot` at one revision, the errors of
reading and writing one, and its options as they are stored and exported."""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from ..rules import Action, BadOptions, GameState, IllegalAction, Options, StartHand
from ..rules.game import STATE_FORMAT
from ..rules.history import standing_after
from ..rules.messages import N_, Message
from ..rules.options import check_name
from ..rules.scorebook import Scorebook
from .schema import utcnow

_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def is_id(text: object) -> bool:
    """Whether ``text`` could be an id at all: anything else is no game, not a query."""
    return isinstance(text, str) and _ID.fullmatch(text) is not None


def new_id() -> str:
    """128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


class GameNotFound(LookupError):
    """No game has this id."""


#: How long a deleted game can be brought back (its links offer it meanwhile).
RESTORE_WINDOW = timedelta(minutes=10)


class GameDeleted(LookupError):
    """The game was deleted by its table: kept as a tombstone, so its links say so (and, for
    ``RESTORE_WINDOW``, on the players' link, offer to bring it back)."""

    def __init__(self, game: Any, by_view: bool = False) -> None:
        super().__init__(f"game {game.view_id} was deleted")
        self.game_id = game.id
        self.deleted_at: datetime = game.deleted_at
        self.by_view = by_view  # reached by the watch link: nothing to offer

    @property
    def restore_until(self) -> datetime:
        return self.deleted_at + RESTORE_WINDOW

    @property
    def restorable(self) -> bool:
        return not self.by_view and utcnow() < self.restore_until


def deleted_at(game: Any, delete: bool) -> datetime | None:
    """The tombstone ``game`` (a row, ``None`` if there is none) gets when it is deleted
    (``delete``) or brought back (None), or why not: already deleted (:class:`GameDeleted`),
    not deleted, or deleted longer ago than ``RESTORE_WINDOW``."""
    if game is None:
        raise GameNotFound("")
    if delete and game.deleted_at is not None:
        raise GameDeleted(game)
    if delete:
        return utcnow()
    if game.deleted_at is None:
        raise IllegalAction("not_deleted", N_("this game is not deleted: there is nothing to undo"))
    if utcnow() >= game.deleted_at + RESTORE_WINDOW:
        raise IllegalAction(
            "restore_too_late",
            N_(
                "this game was deleted more than %(minutes)s minutes ago: it can no longer be "
                "brought back",
                minutes=RESTORE_WINDOW.seconds // 60,
            ),
        )
    return None


class StaleRevision(Exception):
    """The action was made against an older revision of the game: nothing was applied."""

    def __init__(self, current: Snapshot, submitted: int | None) -> None:
        super().__init__(f"the game is at revision {current.seq}, not {submitted}")
        self.current = current
        self.submitted = submitted
        self.resent = False  # the action that moved it on is the one submitted (Store.apply)

    @property
    def message(self) -> Message:
        done = self.current.state.done
        if self.submitted is not None and self.submitted < self.current.seq and done:
            return N_(
                "Someone else got there first (%(done)s). Here is the game as it is now.",
                done=done,
            )
        return N_("The game had moved on. Here is the game as it is now; nothing was changed.")


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A game at one revision: its ids, its state, and when it last changed."""

    id: str
    view_id: str
    seq: int
    book: Scorebook  # the state, and the states undo and the game log need
    created_at: datetime
    updated_at: datetime
    learning: bool = False  # the table's teaching switch, kept with the options (not a rule)
    coaching: bool = False  # the picker marks what fits and scores (always so in learning mode)
    started_as: tuple[str, ...] = ()  # the players' names when the game began (before renames)

    @property
    def state(self) -> GameState:
        return self.book.state

    @property
    def hints(self) -> bool:
        """Whether the picker marks what fits and scores: coaching on, or learning mode."""
        return self.coaching or self.learning

    def as_started(self, options: Options) -> Options:
        """``options`` (the game's own, or others to rescore under) with the players' names as
        they were when the game began, where a replay of its whole log starts: the log's renames
        then rename them again, each saying who it renamed."""
        if len(self.started_as) != options.player_count:
            return options
        return replace(options, players=tuple(check_name(name) for name in self.started_as))

    @classmethod
    def of(cls, game: Any, seq: int, book: Scorebook, updated_at: datetime) -> Snapshot:
        """A game row's snapshot at ``seq``, with the screen settings kept in its options."""
        options = game.options
        return cls(
            game.id,
            game.view_id,
            seq,
            book,
            game.created_at,
            updated_at,
            bool(options.get("learning")),
            bool(options.get("coaching")),
            tuple(str(name) for name in options.get("players", ())),
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


def snapshot_row(state: GameState) -> dict[str, Any]:
    """A snapshot of ``state``, a hand just dealt, as its row holds it (but the game and seq)."""
    return {"version": STATE_FORMAT, "hand": state.hand_number, "state": state.to_dict()}


def last_start(log: Sequence[Action], book: Scorebook) -> tuple[int, dict[str, Any]] | None:
    """The seq of the last hand's start in effect in ``log`` and its snapshot, if any."""
    standing = standing_after((), log, 0)
    starts = [index for index in standing if isinstance(log[index], StartHand)]
    if not starts:
        return None
    number = book.state.hand_number
    mark = next(state for state in book.states if state.hand_number == number)
    return starts[-1] + 1, snapshot_row(mark)
