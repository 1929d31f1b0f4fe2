"""The database schema: games and their append-only action log."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Integer, MetaData, String, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class Game(Base):
    """A game: its players and rules, and the revision its log has reached."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    view_id: Mapped[str] = mapped_column(String(32), unique=True)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seq: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    deleted_at: Mapped[datetime | None] = mapped_column(default=None)  # a tombstone


class Event(Base):
    """One accepted action, undo included. Never updated or deleted: the game's audit trail."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_events_game_id_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class StateSnapshot(Base):
    """The state of a game as event ``seq`` left it, at the start of a hand: a cache of the log
    (``GameState.to_dict``), read only by the rules ``version`` that wrote it."""

    __tablename__ = "snapshots"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    version: Mapped[str] = mapped_column(String(32))
    hand: Mapped[int] = mapped_column(Integer)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)


class Circle(Base):
    """A family's table or a club: its games and its people. ``revision`` grows with every
    change of its games or people (its statistics are kept per revision)."""

    __tablename__ = "circles"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    view_id: Mapped[str] = mapped_column(String(32), unique=True)
    name: Mapped[str] = mapped_column(String(80))
    revision: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class CirclePerson(Base):
    """A person of a circle, by name; ``key`` is the name as told apart (rules.person_key)."""

    __tablename__ = "circle_people"
    __table_args__ = (UniqueConstraint("circle_id", "key", name="uq_circle_people_circle_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    circle_id: Mapped[str] = mapped_column(ForeignKey("circles.id"))
    name: Mapped[str] = mapped_column(String(80))
    key: Mapped[str] = mapped_column(String(320))


class CircleGame(Base):
    """A game of a circle (a game is in one circle at most). No foreign key to ``games``: a
    deleted game leaves this row, and is not read."""

    __tablename__ = "circle_games"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    circle_id: Mapped[str] = mapped_column(ForeignKey("circles.id"), index=True)
    added_at: Mapped[datetime] = mapped_column(default=utcnow)


class CircleSeat(Base):
    """Which person of the circle sat in each seat of one of its games."""

    __tablename__ = "circle_seats"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("circle_people.id"), index=True)


class GameSummary(Base):
    """A game's summary for statistics (rules.circle_stats) as of revision ``seq``: a cache
    of its log, worked out again when the game has moved on or the format changed."""

    __tablename__ = "game_summaries"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)
    summary: Mapped[dict[str, Any]] = mapped_column(JSON)
