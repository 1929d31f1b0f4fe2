"""A circle's rows as the store hands them out, the errors of reading and changing one, the
names it keeps, and the writers' turn its changes take (see :mod:`webapp.store.circles`)."""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import Connection, Table

from ..rules import RuleError
from ..rules.circle_stats import GameSummary
from ..rules.messages import N_
from .schema import Circle, CircleGame, CirclePerson, CircleSeat, Game
from .schema import GameSummary as SummaryRow

if TYPE_CHECKING:
    from .store import Store

NAME_MOST = 40  # a circle's name, and a person's
CIRCLES = cast(Table, Circle.__table__)
PEOPLE = cast(Table, CirclePerson.__table__)
MEMBERS = cast(Table, CircleGame.__table__)
SEATS = cast(Table, CircleSeat.__table__)
SUMMARIES = cast(Table, SummaryRow.__table__)
GAMES = cast(Table, Game.__table__)
ANYWHERE = "*"  # a game moved from whichever circle it is in (no circle's id is "*")
LIVE = GAMES.c.deleted_at.is_(None)  # a deleted game (a tombstone) is in no circle's figures


class CircleNotFound(LookupError):
    """No circle has this id."""


class CircleRefused(RuleError):
    """A change of a circle refused, with the reason: nothing was changed."""


@dataclass(frozen=True, slots=True)
class CircleRow:
    id: str
    view_id: str
    name: str
    revision: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Person:
    id: int
    name: str
    games: int


@dataclass(frozen=True, slots=True)
class MemberGame:
    """A game of a circle as its page lists it: ids, dates, its summary, each seat's person."""

    id: str
    view_id: str
    seq: int
    created_at: datetime
    updated_at: datetime
    summary: GameSummary
    people: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Filters:
    """Which of a circle's games count: one preset (or all), and from/to a day."""

    preset: str = ""
    since: date | None = None
    until: date | None = None

    def keep(self, game: MemberGame) -> bool:
        day = game.created_at.date()
        return (
            (not self.preset or game.summary.preset == self.preset)
            and (self.since is None or day >= self.since)
            and (self.until is None or day <= self.until)
        )


def clean_name(name: object, what: str = "circle") -> str:
    """A name as kept: NFC, spaces single; refused when empty, too long or unprintable."""
    if not isinstance(name, str) or not name.strip():
        raise CircleRefused(f"{what}_name", N_("give a name"))
    cleaned = " ".join(unicodedata.normalize("NFC", name).split())
    if len(cleaned) > NAME_MOST:
        raise CircleRefused(
            f"{what}_name", N_("a name is at most %(most)s characters", most=NAME_MOST)
        )
    if not cleaned.isprintable():
        raise CircleRefused(f"{what}_name", N_("names are made of letters, digits and punctuation"))
    return cleaned


def is_id(key: object) -> bool:
    return (
        isinstance(key, str)
        and 0 < len(key) <= 32
        and key.replace("-", "").replace("_", "").isalnum()
        and key.isascii()
    )


class Writing:
    """One write transaction on the writers' engine, in the writers' turn (SQLite's queue)."""

    def __init__(self, store: Store) -> None:
        self.turn = store._write.turn()
        self.engine = store._write.driver.engine

    def __enter__(self) -> Connection:
        self.turn.__enter__()
        try:
            self.begun = self.engine.begin()
            return self.begun.__enter__()
        except BaseException:
            self.turn.__exit__(None, None, None)
            raise

    def __exit__(self, *exc: Any) -> None:
        try:
            self.begun.__exit__(*exc)
        finally:
            self.turn.__exit__(*exc)


def number(value: object) -> int:
    if isinstance(value, bool):
        return -1
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit() and len(value) < 10:
        return int(value)
    return -1


def from_json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


def when(value: Any) -> datetime:
    return datetime.fromisoformat(value) if isinstance(value, str) else value
