"""One hand: seats in turn, tiles held, the boneyard, plays, draws and passes (R1–R7, R12).

The app cannot see the players' tiles, so a hand tracks how many each holds, not which.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from .errors import IllegalAction
from .layout import Arm, Layout, points_for
from .options import Options
from .tiles import DOUBLE_SIX, Tile

EMPTY_LAYOUT = Layout()


class HandEnd(enum.Enum):
    """R12: how a hand ended."""

    DOMINO = "domino"
    BLOCKED = "blocked"


@dataclass(frozen=True, slots=True)
class Move:
    """One entry in a hand's record, with the layout as it stood before it (replay, audit)."""

    kind: str  # "play" | "draw" | "pass"
    seat: int
    before: Layout
    tile: Tile | None = None  # for a play: oriented as laid
    arm: Arm | None = None
    drawn: int = 0
    count: int = 0  # for a play: the count after it
    points: int = 0
    breakdown: str = ""


@dataclass(frozen=True, slots=True)
class Hand:
    """The state of one hand."""

    number: int
    leader: int
    turn: int
    held: tuple[int, ...]
    boneyard: int
    layout: Layout = EMPTY_LAYOUT
    passes: int = 0  # passes in a row since the last play or draw
    moves: tuple[Move, ...] = ()
    end: HandEnd | None = None
    went_out: int | None = None

    @classmethod
    def deal(cls, options: Options, number: int, leader: int) -> Hand:
        """R1: every player draws their hand; the rest is the boneyard."""
        held = (options.hand_size,) * options.player_count
        return cls(number, leader, leader, held, options.boneyard_size)

    @property
    def unplayed(self) -> tuple[Tile, ...]:
        """Every tile not on the table: in the players' hands or the boneyard."""
        played = set(self.layout.tiles)
        return tuple(tile for tile in DOUBLE_SIX if tile not in played)

    def _next_seat(self) -> int:
        return (self.turn + 1) % len(self.held)

    def play(self, tile: Tile, arm: Arm | None) -> Hand:
        """R4/R5: the player to move plays ``tile``; R12: going out ends the hand."""
        layout = self.layout.place(tile, arm if self.layout.lead is not None else None)
        laid = layout.lead if self.layout.lead is None else layout.arm(arm)[-1]  # type: ignore[arg-type]
        count = layout.count
        move = Move(
            "play",
            self.turn,
            self.layout,
            laid,
            arm if self.layout.lead else None,
            count=count,
            points=points_for(count),
            breakdown=layout.breakdown,
        )
        held = _with(self.held, self.turn, -1)
        out = held[self.turn] == 0
        return replace(
            self,
            layout=layout,
            held=held,
            passes=0,
            moves=(*self.moves, move),
            turn=self.turn if out else self._next_seat(),
            end=HandEnd.DOMINO if out else None,
            went_out=self.turn if out else None,
        )

    def draw(self, count: int, names: tuple[str, ...]) -> Hand:
        """R6: draw from the boneyard; the turn stays with the drawer."""
        name = names[self.turn]
        if self.layout.lead is None:
            raise IllegalAction(
                "lead_first", f"{name} leads, and any tile can be led: nobody draws (R4)", "R4"
            )
        if self.boneyard == 0:
            raise IllegalAction(
                "boneyard_empty",
                f"the boneyard is empty, so {name} cannot draw: pass if no tile fits (R7)",
                "R6",
            )
        if count > self.boneyard:
            raise IllegalAction(
                "draw_too_many",
                f"the boneyard has only {_tiles(self.boneyard)}: {name} cannot draw {count}",
                "R6",
            )
        move = Move("draw", self.turn, self.layout, drawn=count)
        return replace(
            self,
            held=_with(self.held, self.turn, count),
            boneyard=self.boneyard - count,
            passes=0,
            moves=(*self.moves, move),
        )

    def pass_turn(self, names: tuple[str, ...]) -> Hand:
        """R7: pass only with the boneyard empty; R12: all passing in turn blocks the hand."""
        name = names[self.turn]
        if self.layout.lead is None:
            raise IllegalAction(
                "lead_first", f"{name} leads, and any tile can be led: nobody passes (R4)", "R4"
            )
        if self.boneyard:
            raise IllegalAction(
                "must_draw",
                f"the boneyard still has {_tiles(self.boneyard)}, so {name} must draw, not pass",
                "R7",
            )
        passes = self.passes + 1
        blocked = passes == len(self.held)
        return replace(
            self,
            passes=passes,
            moves=(*self.moves, Move("pass", self.turn, self.layout)),
            turn=self.turn if blocked else self._next_seat(),
            end=HandEnd.BLOCKED if blocked else None,
        )

    def scored(self) -> tuple[int, ...]:
        """Points each seat scored during this hand."""
        totals = [0] * len(self.held)
        for move in self.moves:
            totals[move.seat] += move.points
        return tuple(totals)


def _with(values: tuple[int, ...], index: int, delta: int) -> tuple[int, ...]:
    return tuple(value + delta if i == index else value for i, value in enumerate(values))


def _tiles(count: int) -> str:
    return f"{count} tile" if count == 1 else f"{count} tiles"
