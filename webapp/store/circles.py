"""Circles: a family's table or a club, its people by name, and its games' statistics.

A circle has two keys, as a game does (its players' link and its watch link). A game joins a
circle when it is started in one or moved into one: each of its seats is then mapped to a
person of the circle by name as told apart (``rules.circle_stats.person_key``), a new person
made for a new name. People are renamed and merged in the circle; a game's own names are left
as they were played, except that a rename inside the game (a typo fixed, or that fix undone)
seats its seat as the person of the new name. A game moved from a page that saw it elsewhere
(two phones at once) is refused with where it is now. Every change of a circle's games or
people moves its ``revision`` on.

Statistics are a pure function of the games' logs (:mod:`webapp.rules.circle_stats`): each
game's summary is kept in ``game_summaries`` with the revision of the game it was worked out
at (worked out again only when the game has moved on), and the circle's statistics are kept
in the store's cache under a fingerprint of the circle's revision and every game's revision:
a page of a circle of 1,000 games reads 1,000 small rows, not 1,000 logs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, delete, insert, select
from sqlalchemy.exc import IntegrityError

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
from .circle_people import CirclePeople
from .circle_rows import (
    ANYWHERE,
    CIRCLES,
    GAMES,
    LIVE,
    MEMBERS,
    SEATS,
    SUMMARIES,
    CircleNotFound,
    CircleRefused,
    CircleRow,
    Filters,
    MemberGame,
    clean_name,
    from_json,
    when,
)
from .schema import utcnow
from .snapshot import new_id, options_from_dict

if TYPE_CHECKING:
    pass


class _Taken(Exception):
    """The game is in another circle than the mover saw it in."""


class Circles(CirclePeople):
    """The circles of one store's database: their games and statistics (their people:
    :class:`CirclePeople`)."""

    # --- reading -------------------------------------------------------------------------------

    def many(self, keys: Iterable[str]) -> list[CircleRow]:
        """The circles among ``keys`` that exist, in the order given."""
        found = []
        for key in list(dict.fromkeys(keys))[:20]:
            try:
                found.append(self.get(key))
            except CircleNotFound:
                continue
        return found

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

    def create(
        self, name: object, game_id: str | None = None, was: str | None = ANYWHERE
    ) -> CircleRow:
        """A new circle; with ``game_id``, holding that game, made in one go with its move (see
        :meth:`add_game`): a refused move makes no circle."""
        circle = CircleRow(new_id(), new_id(), clean_name(name), 0, utcnow())
        if game_id is not None:
            self._put(circle, game_id, was, made=True)
            return circle
        with self._writing() as db:
            self._insert(db, circle)
        return circle

    def add_game(self, circle_id: str, game_id: str, was: str | None = ANYWHERE) -> None:
        """Put the game in the circle (moving it out of any other), each seat its person.
        ``was``: the circle the mover saw it in (``None``: none); if it is in another by now
        (two phones at once), nothing is changed and the refusal names where it is."""
        self._put(self.get(circle_id), game_id, was)

    def _put(self, circle: CircleRow, game_id: str, was: str | None, made: bool = False) -> None:
        players = self.store.get(game_id).state.options.players  # as renamed in the game
        if len({person_key(name) for name in players}) != len(players):
            raise CircleRefused(
                "same_person", N_("two players of this game would be one person of the circle")
            )
        try:
            with self._writing() as db:
                if made:
                    self._insert(db, circle)
                self._hold(db, circle.id)
                now = self._where(db, game_id)
                if now == circle.id:
                    return
                if was != ANYWHERE and now != was:
                    raise _Taken
                if now is not None:
                    self._forget(db, game_id, now)
                added = {"game_id": game_id, "circle_id": circle.id, "added_at": utcnow()}
                db.execute(insert(MEMBERS).values(**added))
                self._seat(db, circle.id, game_id, enumerate(players))
                self._moved_on(db, circle.id)
        except (_Taken, IntegrityError):  # another move came first (the members' unique key)
            now_in = self.circle_of(game_id)
            raise CircleRefused(
                "in_another_circle",
                N_(
                    "this game is now in the circle %(name)s: nothing was changed",
                    name=now_in.name if now_in else "?",
                ),
            ) from None

    # --- internals -----------------------------------------------------------------------------

    @staticmethod
    def _where(db: Connection, game_id: str) -> str | None:
        """The circle the game is in, as this transaction sees it."""
        return db.scalar(select(MEMBERS.c.circle_id).where(MEMBERS.c.game_id == game_id))

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
