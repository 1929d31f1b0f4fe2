"""A circle's statistics: the people of a family's table or a club over the games they played.

Two pure steps. :func:`game_summary` folds one game's log (undos and corrections as the engine
applies them) into what the statistics need of it: each side's final score, who won, each
hand's points, each seat's highest count and times gone out. :func:`circle_stats` adds up the
finished games' summaries per person: a person is whoever a circle names by one
:func:`person_key` (a game's seat is mapped to its person by the circle, so a renamed or merged
person keeps every game). A partnership win counts for both partners. Head to head, two
people on opposite sides of a game meet in it, and the one whose side finished with more points
is ahead in it (level: tied), whoever won the game.

>>> from .actions import EndHand, Play, StartHand
>>> from .tiles import Tile
>>> options = Options.make(["Ana", "Ben"], target=10)
>>> done = game_summary(options, [StartHand(0), Play(Tile(5, 5))])
>>> done.over, done.finals, done.winners, done.top_count
(True, (10, 0), (0,), (10, 0))
>>> stats = circle_stats([PlayedGame(done, (1, 2), "2026-12-01")], {1: "Ana", 2: "Ben"})
>>> [(p.name, p.games, p.wins, p.points) for p in stats.people]
[('Ana', 1, 1, 10), ('Ben', 1, 0, 0)]
>>> person_key("  JOSE\\u0301 ") == person_key("josé")
True
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import Action
from .hand import MoveKind
from .history import replay
from .options import Options
from .progress import Status
from .sheet import score_sheet

SUMMARY_FORMAT = "summary/1"  # a stored summary of another format is worked out again


def person_key(name: str) -> str:
    """The one spelling of a name that tells people apart: Unicode NFC, spaces trimmed and
    single, case folded (``"José"`` typed with a combining accent, ``"JOSÉ "``: one person)."""
    folded = " ".join(unicodedata.normalize("NFC", name).split()).casefold()
    return unicodedata.normalize("NFC", folded)


@dataclass(frozen=True, slots=True)
class GameSummary:
    """What a circle's statistics need of one game, from its log."""

    players: tuple[str, ...]  # by seat, as the game names them
    sides: tuple[int, ...]  # each seat's side
    finals: tuple[int, ...]  # per side, the score now (final when ``over``)
    winners: tuple[int, ...]  # per side; empty until the game is over
    over: bool
    hands: int  # hands played (started), the one in play included
    best_hand: tuple[int, ...]  # per side, the most points made in one hand (plays and settlement)
    top_count: tuple[int, ...]  # per seat, the highest count scored by one of its own plays
    went_out: tuple[int, ...]  # per seat, the hands it went out (dominoed)
    preset: str
    partnership: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": SUMMARY_FORMAT,
            "players": list(self.players),
            "sides": list(self.sides),
            "finals": list(self.finals),
            "winners": list(self.winners),
            "over": self.over,
            "hands": self.hands,
            "best_hand": list(self.best_hand),
            "top_count": list(self.top_count),
            "went_out": list(self.went_out),
            "preset": self.preset,
            "partnership": self.partnership,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameSummary:
        """A stored summary; ``ValueError`` if it is of another format or damaged."""
        if not isinstance(data, Mapping) or data.get("format") != SUMMARY_FORMAT:
            raise ValueError("not a game summary of this format")
        try:
            return cls(
                players=tuple(str(name) for name in data["players"]),
                sides=tuple(int(side) for side in data["sides"]),
                finals=tuple(int(score) for score in data["finals"]),
                winners=tuple(int(side) for side in data["winners"]),
                over=bool(data["over"]),
                hands=int(data["hands"]),
                best_hand=tuple(int(points) for points in data["best_hand"]),
                top_count=tuple(int(points) for points in data["top_count"]),
                went_out=tuple(int(times) for times in data["went_out"]),
                preset=str(data["preset"]),
                partnership=bool(data["partnership"]),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError("a damaged game summary") from error


def game_summary(options: Options, actions: Sequence[Action]) -> GameSummary:
    """Fold the game's log (undos cancel, corrections stand) and keep what statistics need."""
    history = replay(options, actions)
    state = history.state
    seats = options.player_count
    top = [0] * seats
    for played in history.hands:
        for move in played.hand.moves:
            if move.kind is MoveKind.PLAY and move.points > top[move.seat]:
                top[move.seat] = move.points
    out = [0] * seats
    for result in state.results:
        if result.went_out is not None:
            out[result.went_out] += 1
    sheet = score_sheet(state)
    best = tuple(
        max((row.points[side] for row in sheet.hands), default=0)
        for side in range(options.side_count)
    )
    over = state.status is Status.GAME_OVER
    return GameSummary(
        players=options.players,
        sides=tuple(options.side_of(seat) for seat in range(seats)),
        finals=state.scores,
        winners=state.winners if over else (),
        over=over,
        hands=len(history.hands),
        best_hand=best,
        top_count=tuple(top),
        went_out=tuple(out),
        preset=options.preset,
        partnership=options.partnership,
    )


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A game of a circle: its summary, each seat's person (by the circle's id), its date."""

    summary: GameSummary
    people: tuple[int, ...]  # per seat
    day: str  # ISO date, the order of "wins over time"


@dataclass(slots=True)
class PersonStats:
    """One person's figures over the finished games counted."""

    person: int
    name: str
    games: int = 0
    wins: int = 0
    points: int = 0  # the side's final score in each game, summed
    hands: int = 0
    best_hand: int = 0
    top_count: int = 0
    went_out: int = 0
    wins_over_time: list[int] = field(default_factory=list)  # after each finished game counted

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def per_hand(self) -> float:
        return self.points / self.hands if self.hands else 0.0


@dataclass(frozen=True, slots=True)
class Meeting:
    """Two people on opposite sides of the same finished games: in how many each finished
    ahead of the other (its side with more points), and in how many they finished level. A
    third side may have won some of those games, so these are not wins: but they always add up,
    ``first_ahead + second_ahead + tied == games``."""

    first: int
    second: int
    games: int
    first_ahead: int
    second_ahead: int
    tied: int


@dataclass(frozen=True, slots=True)
class CircleStats:
    people: tuple[PersonStats, ...]  # the standings: most wins first, nobody without a game
    meetings: tuple[Meeting, ...]  # the most played pairs first
    finished: int  # games counted
    days: tuple[str, ...]  # each counted game's day, in order


def circle_stats(games: Sequence[PlayedGame], names: Mapping[int, str]) -> CircleStats:
    """The statistics of the finished ``games``, in date order, for the people named by
    ``names``: the standings list those who played at least one of them."""
    people = {person: PersonStats(person, name) for person, name in names.items()}
    met: dict[tuple[int, int], list[int]] = {}
    finished = [game for game in games if game.summary.over]
    finished.sort(key=lambda game: game.day)
    for game in finished:
        summary = game.summary
        for seat, person in enumerate(game.people):
            stats = people.setdefault(person, PersonStats(person, summary.players[seat]))
            side = summary.sides[seat]
            stats.games += 1
            stats.wins += side in summary.winners
            stats.points += summary.finals[side]
            stats.hands += summary.hands
            stats.best_hand = max(stats.best_hand, summary.best_hand[side])
            stats.top_count = max(stats.top_count, summary.top_count[seat])
            stats.went_out += summary.went_out[seat]
        for stats in people.values():
            stats.wins_over_time.append(stats.wins)
        for seat, person in enumerate(game.people):
            for other_seat, other in enumerate(game.people):
                side, other_side = summary.sides[seat], summary.sides[other_seat]
                if person < other and side != other_side:
                    mine, theirs = summary.finals[side], summary.finals[other_side]
                    tally = met.setdefault((person, other), [0, 0, 0, 0])
                    tally[0] += 1
                    tally[1] += mine > theirs
                    tally[2] += theirs > mine
                    tally[3] += mine == theirs
    standings = sorted(  # a person with no game counted (moved out, filtered) is not standing
        (s for s in people.values() if s.games),
        key=lambda s: (-s.wins, -s.win_rate, -s.points, person_key(s.name)),
    )
    meetings = sorted(
        (Meeting(a, b, *tally) for (a, b), tally in met.items()),
        key=lambda m: (
            -m.games,
            person_key(people[m.first].name),
            person_key(people[m.second].name),
        ),
    )
    return CircleStats(
        people=tuple(standings),
        meetings=tuple(meetings),
        finished=len(finished),
        days=tuple(game.day for game in finished),
    )
