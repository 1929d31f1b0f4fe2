"""The score sheet of a game: each hand a row with each side's points in it (plays and
settlement) and the running totals after it, as a paper score pad keeps them (R12–R16).

Read from the state alone: every settled hand's :class:`~.progress.HandResult`, then the hand
in play (or the one the target was reached in) with the points made so far.

>>> from .actions import Play, StartHand
>>> from .tiles import Tile
>>> game = GameState.new(Options.make(["Ana", "Ben"]))
>>> game, _ = game.apply(StartHand(0))
>>> game, _ = game.apply(Play(Tile(5, 5)))
>>> row = score_sheet(game).hands[-1]
>>> row.number, row.points, row.totals, row.settled
(1, (10, 0), (10, 0), False)
"""

from __future__ import annotations

from dataclasses import dataclass

from .game import GameState
from .hand import HandEnd
from .options import Options
from .progress import Status


@dataclass(frozen=True, slots=True)
class SheetRow:
    """A hand on the sheet. ``points`` are ``scored`` (plays) plus ``settlement``, per side;
    ``totals`` the scores after it: the totals before it plus ``points``."""

    number: int
    points: tuple[int, ...]
    totals: tuple[int, ...]
    scored: tuple[int, ...]
    settlement: tuple[int, ...]
    end: HandEnd | None  # None: still being played
    went_out: int | None  # the seat that dominoed
    settled: bool


@dataclass(frozen=True, slots=True)
class Sheet:
    options: Options
    hands: tuple[SheetRow, ...]  # the settled hands, then the current one if any
    leaders: tuple[int, ...]  # the sides with the highest total (all of them when level)
    winners: tuple[int, ...]  # when the game is over
    over: bool

    @property
    def goal(self) -> int:
        return self.options.goal


def score_sheet(state: GameState) -> Sheet:
    """The sheet of ``state``: every settled hand, then the current hand so far."""
    sides = state.options.side_count
    rows = []
    before = (0,) * sides
    for result in state.results:
        rows.append(
            SheetRow(
                number=result.number,
                points=tuple(a - b for a, b in zip(result.scores, before, strict=True)),
                totals=result.scores,
                scored=result.scored,
                settlement=result.settled,
                end=result.end,
                went_out=result.went_out,
                settled=True,
            )
        )
        before = result.scores
    hand = state.hand
    if hand is not None and (not state.results or state.results[-1].number != hand.number):
        made = tuple(a - b for a, b in zip(state.scores, before, strict=True))
        rows.append(
            SheetRow(
                number=hand.number,
                points=made,
                totals=state.scores,
                scored=made,
                settlement=(0,) * sides,
                end=hand.end,
                went_out=hand.went_out,
                settled=False,
            )
        )
    top = max(state.scores)
    return Sheet(
        options=state.options,
        hands=tuple(rows),
        leaders=tuple(side for side, score in enumerate(state.scores) if score == top),
        winners=state.winners,
        over=state.status is Status.GAME_OVER,
    )
