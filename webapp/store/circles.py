"""Circles: a family's table or a club, its people by name, and its games' statistics.

A circle has two keys, as a game does (its players' link and its watch link). A game joins a
circle when it is started in one or moved into one: each of its seats is then mapped to a
person of the circle by name as told apart (``rules.circle_stats.person_key``), a new person
made for a new name. People are renamed and merged in the circle; a game's own names are left
as they were played. Every change of a circle's games or people moves its ``revision`` on.

Statistics are a pure function of the games' logs (:mod:`webapp.rules.circle_stats`): each
game's summary is kept in ``game_summaries`` with the revision of the game it was worked out
at (worked out again only when the game has moved on), and the circle's statistics are kept
in the store's cache under a fingerprint of the circle's revision and every game's revision:
a page of a circle of 1,000 games reads 1,000 small rows, not 1,000 logs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, delete, func, insert, select, update

from ..rules import recorded
from ..rules.circle_stats import (
    CircleStats,
    GameSummary,
    PlayedGame,
    circle_stats,
    game_summary,
    person_key,
)
from ..rules.messages import N_
from .cache import Part
from .circle_rows import (
    CIRCLES,
    GAMES,
    LIVE,
    MEMBERS,
    PEOPLE,
    SEATS,
    SUMMARIES,
    CircleNotFound,
    CircleRefused,
    CircleRow,
    Filters,
    MemberGame,
    Person,
    Writing,
    clean_name,
    from_json,
    is_id,
    number,
    when,
)
from .schema import utcnow
from .snapshot import GameNotFound, new_id, options_from_dict

if TYPE_CHECKING:
    from .store import Store


class Circles:
    """The circles of one store's database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # --- reading -------------------------------------------------------------------------------

    def get(self, key: str, by_view: bool = False) -> CircleRow:
        if not is_id(key):
            raise CircleNotFound(key)
        column = CIRCLES.c.view_id if by_view else CIRCLES.c.id
        with self.store.engine.connect() as db:
            row = db.execute(select(CIRCLES).where(column == key)).first()
        if row is None:
            raise CircleNotFound(key)
        return CircleRow(row.id, row.view_id, row.name, row.revision, row.created_at)

    def many(self, keys: Iterable[str]) -> list[CircleRow]:
        """The circles among ``keys`` that exist, in the order given."""
        found = []
        for key in list(dict.fromkeys(keys))[:20]:
            try:
                found.append(self.get(key))
            except CircleNotFound:
                continue
        return found

    def circle_of(self, game_id: str) -> CircleRow | None:
        """The circle the game belongs to, if any."""
        if not is_id(game_id):
            return None
        with self.store.engine.connect() as db:
            circle_id = db.scalar(select(MEMBERS.c.circle_id).where(MEMBERS.c.game_id == game_id))
        return None if circle_id is None else self.get(circle_id)

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

    def games(self, circle_id: str) -> list[MemberGame]:
        """The circle's games, newest first, each with its summary: kept in memory, else read
        back from ``game_summaries``, else (a game that moved on since) worked out and kept."""
        query = (
            select(
                GAMES.c.id,
                GAMES.c.view_id,
                GAMES.c.seq,
                GAMES.c.created_at,
                GAMES.c.updated_at,
                SUMMARIES.c.seq,
            )
            .select_from(
                MEMBERS.join(GAMES, (GAMES.c.id == MEMBERS.c.game_id) & LIVE).outerjoin(
                    SUMMARIES, SUMMARIES.c.game_id == GAMES.c.id
                )
            )
            .where(MEMBERS.c.circle_id == circle_id)
        )
        with self.store.engine.connect() as db:
            rows = db.execute(query).all()
            seated = self._seats(db, circle_id)
            summaries: dict[str, GameSummary] = {}
            stored = []
            for game_id, _, seq, _, _, kept_seq in rows:
                summary = self.store.cache.at(game_id, Part.SUMMARY, seq)
                if summary is not None:
                    summaries[game_id] = summary
                elif kept_seq == seq:
                    stored.append(game_id)
            for first in range(0, len(stored), 500):
                some = stored[first : first + 500]
                kept = select(SUMMARIES.c.game_id, SUMMARIES.c.seq, SUMMARIES.c.summary)
                for game_id, seq, data in db.execute(kept.where(SUMMARIES.c.game_id.in_(some))):
                    summary = self._kept(data)
                    if summary is not None:
                        summaries[game_id] = summary
                        self.store.cache.put(game_id, Part.SUMMARY, seq, summary)
        found, fresh = [], []
        for game_id, view_id, seq, created, updated, _ in rows:
            summary = summaries.get(game_id)
            if summary is None:
                summary = self._summary(game_id, seq)
                fresh.append((game_id, seq, summary))
            people = seated.get(game_id, {})
            found.append(
                MemberGame(
                    game_id,
                    view_id,
                    seq,
                    when(created),
                    when(updated),
                    summary,
                    tuple(people.get(seat, 0) for seat in range(len(summary.players))),
                )
            )
        if fresh:
            self._keep(fresh)
        return sorted(found, key=lambda game: (game.created_at, game.id), reverse=True)

    def _seats(self, db: Connection, circle_id: str) -> dict[str, dict[int, int]]:
        """Each game's seats' people: kept per revision of the circle, which every change of
        its games or people moves on."""
        revision = db.scalar(select(CIRCLES.c.revision).where(CIRCLES.c.id == circle_id))

        def make() -> dict[str, dict[int, int]]:
            seats_query = (
                select(SEATS.c.game_id, SEATS.c.seat, SEATS.c.person_id)
                .select_from(SEATS.join(MEMBERS, MEMBERS.c.game_id == SEATS.c.game_id))
                .where(MEMBERS.c.circle_id == circle_id)
            )
            seated: dict[str, dict[int, int]] = {}
            for game_id, seat, person in db.execute(seats_query):
                seated.setdefault(game_id, {})[seat] = person
            return seated

        made: dict[str, dict[int, int]] = self.store.cache.get_or_make(
            circle_id, (Part.CIRCLE, "seats"), revision or 0, make
        )
        return made

    def stats(
        self, circle: CircleRow, filters: Filters | None = None
    ) -> tuple[CircleStats, list[MemberGame], dict[int, str]]:
        """The statistics of the circle's games that ``filters`` keep, with those games and
        the people's names; kept per revision of the circle and of its games."""
        filters = filters or Filters()
        with self.store.engine.connect() as db:
            revisions = db.execute(
                select(GAMES.c.id, GAMES.c.seq)
                .select_from(MEMBERS.join(GAMES, (GAMES.c.id == MEMBERS.c.game_id) & LIVE))
                .where(MEMBERS.c.circle_id == circle.id)
                .order_by(GAMES.c.id)
            ).all()
        fingerprint = hash((circle.revision, tuple(map(tuple, revisions))))

        def make() -> tuple[CircleStats, list[MemberGame], dict[int, str]]:
            names = {person.id: person.name for person in self.people(circle.id)}
            kept = [game for game in self.games(circle.id) if filters.keep(game)]
            played = [
                PlayedGame(game.summary, game.people, game.created_at.isoformat()) for game in kept
            ]
            return circle_stats(played, names), kept, names

        made: tuple[CircleStats, list[MemberGame], dict[int, str]] = self.store.cache.get_or_make(
            circle.id, (Part.CIRCLE, filters), fingerprint, make
        )
        return made

    # --- writing -------------------------------------------------------------------------------

    def create(self, name: object) -> CircleRow:
        circle = CircleRow(new_id(), new_id(), clean_name(name), 0, utcnow())
        with self._writing() as db:
            db.execute(
                insert(CIRCLES).values(
                    id=circle.id,
                    view_id=circle.view_id,
                    name=circle.name,
                    revision=0,
                    created_at=circle.created_at,
                )
            )
        return circle

    def add_game(self, circle_id: str, game_id: str) -> None:
        """Put the game in the circle (moving it out of any other), each seat its person."""
        circle = self.get(circle_id)
        with self.store.engine.connect() as db:
            options = db.scalar(select(GAMES.c.options).where(GAMES.c.id == game_id))
        if options is None or not is_id(game_id):
            raise GameNotFound(game_id)
        players = options_from_dict(from_json(options)).players
        keys = [person_key(name) for name in players]
        if len(set(keys)) != len(keys):
            raise CircleRefused(
                "same_person", N_("two players of this game would be one person of the circle")
            )
        with self._writing() as db:
            self._hold(db, circle.id)
            was = db.scalar(select(MEMBERS.c.circle_id).where(MEMBERS.c.game_id == game_id))
            if was == circle.id:
                return
            if was is not None:
                self._forget(db, game_id, was)
            found = dict(
                db.execute(
                    select(PEOPLE.c.key, PEOPLE.c.id).where(PEOPLE.c.circle_id == circle.id)
                ).all()
            )
            db.execute(
                insert(MEMBERS).values(game_id=game_id, circle_id=circle.id, added_at=utcnow())
            )
            for seat, (name, key) in enumerate(zip(players, keys, strict=True)):
                person = found.get(key)
                if person is None:
                    made = insert(PEOPLE).values(circle_id=circle.id, name=name, key=key)
                    person = db.execute(made.returning(PEOPLE.c.id)).scalar_one()
                db.execute(insert(SEATS).values(game_id=game_id, seat=seat, person_id=person))
            self._moved_on(db, circle.id)

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

    def _forget(self, db: Connection, game_id: str, circle_id: str) -> None:
        db.execute(delete(SEATS).where(SEATS.c.game_id == game_id))
        db.execute(delete(MEMBERS).where(MEMBERS.c.game_id == game_id))
        self._moved_on(db, circle_id)

    def _summary(self, game_id: str, seq: int) -> GameSummary:
        def make() -> GameSummary:
            with self.store.engine.connect() as db:
                options = db.scalar(select(GAMES.c.options).where(GAMES.c.id == game_id))
            log = self.store.log(game_id)[:seq]
            actions = [recorded(action) for _, action, _ in log]
            return game_summary(options_from_dict(from_json(options)), actions)

        made: GameSummary = self.store.cache.get_or_make(game_id, Part.SUMMARY, seq, make)
        return made

    @staticmethod
    def _kept(stored: Any) -> GameSummary | None:
        try:
            return GameSummary.from_dict(from_json(stored))
        except ValueError:
            return None

    def _keep(self, fresh: Sequence[tuple[str, int, GameSummary]]) -> None:
        """Keep worked-out summaries; a cache, so a failure to write is no failure to read."""
        try:
            with self._writing() as db:
                ids = [game_id for game_id, _, _ in fresh]
                db.execute(delete(SUMMARIES).where(SUMMARIES.c.game_id.in_(ids)))
                db.execute(
                    insert(SUMMARIES),
                    [
                        {"game_id": g, "seq": s, "summary": summary.to_dict()}
                        for g, s, summary in fresh
                    ],
                )
        except self.store._write.database_error:
            return
