"""A circle's people: read by name, renamed and merged, each seat of the circle's games seated
as one of them, and a seat seated anew when its game renames the player (a typo fixed, or the
fix taken back by Undo). :class:`~webapp.store.circles.Circles` adds the circle's games and
statistics."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from sqlalchemy import Connection, delete, func, insert, select, update

from ..rules.circle_stats import person_key
from ..rules.messages import N_
from .circle_rows import (
    CIRCLES,
    GAMES,
    LIVE,
    MEMBERS,
    PEOPLE,
    SEATS,
    CircleNotFound,
    CircleRefused,
    CircleRow,
    Person,
    Writing,
    clean_name,
    is_id,
    number,
)

if TYPE_CHECKING:
    from .store import Store


class CirclePeople:
    """The circles of one store's database, and their people."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def get(self, key: str, by_view: bool = False) -> CircleRow:
        if not is_id(key):
            raise CircleNotFound(key)
        column = CIRCLES.c.view_id if by_view else CIRCLES.c.id
        with self.store.engine.connect() as db:
            row = db.execute(select(CIRCLES).where(column == key)).first()
        if row is None:
            raise CircleNotFound(key)
        return CircleRow(row.id, row.view_id, row.name, row.revision, row.created_at)

    def people(self, circle_id: str) -> list[Person]:
        """The circle's people, by name, each with how many of its games they played (a game
        since deleted not counted)."""
        games = func.count(GAMES.c.id)
        seats = SEATS.join(GAMES, (GAMES.c.id == SEATS.c.game_id) & LIVE)
        query = (
            select(PEOPLE.c.id, PEOPLE.c.name, games)
            .select_from(PEOPLE.outerjoin(seats, SEATS.c.person_id == PEOPLE.c.id))
            .where(PEOPLE.c.circle_id == circle_id)
            .group_by(PEOPLE.c.id, PEOPLE.c.name)
        )
        with self.store.engine.connect() as db:
            rows = db.execute(query).all()
        return sorted((Person(*row) for row in rows), key=lambda p: person_key(p.name))

    def circle_of(self, game_id: str) -> CircleRow | None:
        """The circle the game belongs to, if any."""
        if not is_id(game_id):
            return None
        with self.store.engine.connect() as db:
            circle_id = db.scalar(select(MEMBERS.c.circle_id).where(MEMBERS.c.game_id == game_id))
        return None if circle_id is None else self.get(circle_id)

    def renaming(
        self, game_id: str, was: Sequence[str], now: Sequence[str]
    ) -> Callable[[Connection], None] | None:
        """A game about to rename players (``was`` → ``now``, by seat: a rename, or its Undo):
        refused first if its circle would then seat one person twice in it (a merged name);
        else what seats each renamed seat as the circle's person of its new name (made if new),
        to write in the transaction that writes the action (so a seat never stays on the old
        person of a name the game changed); None if the game is in no circle or renames
        nobody."""
        renamed = [(seat, name) for seat, name in enumerate(now) if name != was[seat]]
        circle = self.circle_of(game_id) if renamed else None
        if circle is None:
            return None
        with self.store.engine.connect() as db:
            query = select(SEATS.c.seat, SEATS.c.person_id).where(SEATS.c.game_id == game_id)
            seated: dict[int, int] = {seat: person for seat, person in db.execute(query)}
            query = select(PEOPLE.c.id, PEOPLE.c.key).where(PEOPLE.c.circle_id == circle.id)
            keys: dict[int, str] = {person: key for person, key in db.execute(query)}
        kept = {keys.get(person) for seat, person in seated.items() if seat not in dict(renamed)}
        for _seat, name in renamed:
            if person_key(name) in kept:
                raise CircleRefused(
                    "same_person",
                    N_(
                        "in the circle %(circle)s, %(name)s is already a player of this game",
                        name=name,
                        circle=circle.name,
                    ),
                )

        def seat_anew(db: Connection) -> None:
            self._hold(db, circle.id)
            member = select(MEMBERS.c.circle_id).where(MEMBERS.c.game_id == game_id)
            if db.scalar(member) == circle.id:  # (not moved to another meanwhile)
                self._seat(db, circle.id, game_id, renamed)
                self._moved_on(db, circle.id)

        return seat_anew

    def _seat(
        self, db: Connection, circle_id: str, game_id: str, seats: Iterable[tuple[int, str]]
    ) -> None:
        """Seat each of ``seats`` (seat, name) of the game as the circle's person of that name,
        made if new."""
        query = select(PEOPLE.c.key, PEOPLE.c.id).where(PEOPLE.c.circle_id == circle_id)
        found: dict[str, int] = {key: person for key, person in db.execute(query)}
        for seat, name in seats:
            key = person_key(name)
            person = found.get(key)
            if person is None:
                made = insert(PEOPLE).values(circle_id=circle_id, name=name, key=key)
                person = found[key] = db.execute(made.returning(PEOPLE.c.id)).scalar_one()
            db.execute(delete(SEATS).where(SEATS.c.game_id == game_id, SEATS.c.seat == seat))
            db.execute(insert(SEATS).values(game_id=game_id, seat=seat, person_id=person))

    def rename(self, circle_id: str, person_id: object, name: object) -> Person:
        """A person of the circle named anew; refused if another person has that name."""
        person = self._person(circle_id, person_id)
        cleaned = clean_name(name, "person")
        key = person_key(cleaned)
        with self._writing() as db:
            self._hold(db, circle_id)
            other = db.scalar(
                select(PEOPLE.c.name).where(
                    PEOPLE.c.circle_id == circle_id, PEOPLE.c.key == key, PEOPLE.c.id != person.id
                )
            )
            if other is not None:
                raise CircleRefused(
                    "name_taken",
                    N_(
                        "%(name)s is already one of this circle's people: merge the two instead",
                        name=other,
                    ),
                )
            db.execute(update(PEOPLE).where(PEOPLE.c.id == person.id).values(name=cleaned, key=key))
            self._moved_on(db, circle_id)
        return Person(person.id, cleaned, person.games)

    def merge(self, circle_id: str, source: object, into: object) -> Person:
        """``source``'s games become ``into``'s, and ``source`` is no more; refused when the two
        played in one game (one person never sits twice at a table)."""
        gone = self._person(circle_id, source)
        kept = self._person(circle_id, into)
        if gone.id == kept.id:
            raise CircleRefused("merge_self", N_("choose two different people to merge"))
        with self._writing() as db:
            self._hold(db, circle_id)
            mine = select(SEATS.c.game_id).where(SEATS.c.person_id == gone.id)
            shared = db.scalar(
                select(func.count())
                .select_from(SEATS)
                .where(SEATS.c.person_id == kept.id, SEATS.c.game_id.in_(mine))
            )
            if shared:
                raise CircleRefused(
                    "played_together",
                    N_(
                        "%(first)s and %(second)s played in the same game, so they are two "
                        "people: they cannot be merged",
                        first=gone.name,
                        second=kept.name,
                    ),
                )
            db.execute(update(SEATS).where(SEATS.c.person_id == gone.id).values(person_id=kept.id))
            db.execute(delete(PEOPLE).where(PEOPLE.c.id == gone.id))
            self._moved_on(db, circle_id)
        return Person(kept.id, kept.name, kept.games + gone.games)

    # --- internals -----------------------------------------------------------------------------

    def _person(self, circle_id: str, person_id: object) -> Person:
        self.get(circle_id)
        wanted = number(person_id)
        for person in self.people(circle_id):
            if person.id == wanted:
                return person
        raise CircleRefused("no_such_person", N_("there is no such person in this circle"))

    def _writing(self) -> Writing:
        return Writing(self.store)

    @staticmethod
    def _hold(db: Connection, circle_id: str) -> None:
        """Hold the circle's row until the transaction ends: its changes take turns, so a new
        person's name is looked for and made in one go (SQLite's writers take turns already)."""
        db.execute(select(CIRCLES.c.id).where(CIRCLES.c.id == circle_id).with_for_update())

    @staticmethod
    def _moved_on(db: Connection, circle_id: str) -> None:
        db.execute(
            update(CIRCLES).where(CIRCLES.c.id == circle_id).values(revision=CIRCLES.c.revision + 1)
        )

    @staticmethod
    def _insert(db: Connection, circle: CircleRow) -> None:
        values = {"id": circle.id, "view_id": circle.view_id, "name": circle.name}
        db.execute(insert(CIRCLES).values(**values, revision=0, created_at=circle.created_at))
