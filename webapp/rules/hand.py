"""One hand: seats in turn, tiles held, the boneyard, plays, draws and passes (R1–R7, R12,
R19–R21, R27).

The app cannot see the players' tiles, so a hand tracks how many each holds, not which. The
game's variant travels with the layout (``layout.rules``): it says how many tiles of the
boneyard may be drawn (R20).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .errors import IllegalAction
from .layout import Arm, Layout
from .messages import N_, NP_
from .options import Options
from .records import replace
from .tiles import DOUBLE_SIX, Tile

EMPTY_LAYOUT = Layout()


class HandEnd(enum.Enum):
    """R12: how a hand ended."""

    DOMINO = "domino"
    BLOCKED = "blocked"


class MoveKind(enum.StrEnum):
    """What a move of a hand's record is (R5, R6, R7). A ``str``: ``kind == "play"`` holds."""

    PLAY = "play"
    DRAW = "draw"
    PASS = "pass"


@dataclass(frozen=True, slots=True)
class Move:
    """One entry in a hand's record, with the layout as it stood before it (replay, audit)."""

    kind: MoveKind
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
    lead_double: bool = False  # R21: the leader must lead a double (the highest they hold)

    @classmethod
    def deal(cls, options: Options, number: int, leader: int, lead_double: bool = False) -> Hand:
        """R1: every player draws their hand; the rest is the boneyard."""
        held = (options.hand_size,) * options.player_count
        layout = Layout.empty(options.variant)
        return cls(
            number, leader, leader, held, options.boneyard_size, layout, lead_double=lead_double
        )

    @property
    def drawable(self) -> int:
        """R20: how many tiles of the boneyard may still be drawn (the reserve never is)."""
        return self.layout.rules.drawable(self.boneyard)

    def boneyard_before(self, entry: int) -> int:
        """The tiles in the boneyard just before move ``entry`` (1 for the first) was made:
        those left now and those drawn since."""
        return self.boneyard + sum(move.drawn for move in self.moves[entry - 1 :])

    @property
    def unplayed(self) -> tuple[Tile, ...]:
        """Every tile not on the table: in the players' hands or the boneyard."""
        played = set(self.layout.tiles)
        return tuple(tile for tile in DOUBLE_SIX if tile not in played)

    def _next_seat(self) -> int:
        return (self.turn + 1) % len(self.held)

    def check_lead(self, tile: Tile) -> None:
        """R4, R21: any tile leads, except where the highest double must lead."""
        if self.lead_double and not tile.is_double:
            raise IllegalAction(
                "lead_not_double",
                N_(
                    "%(tile)s is not a double: the highest double leads this hand (R21); if "
                    "nobody holds a double, say so when the hand starts",
                    tile=str(tile),
                ),
                "R21",
            )

    def play(self, tile: Tile, arm: Arm | None) -> Hand:
        """R4/R5: the player to move plays ``tile``; R12: going out ends the hand."""
        if self.layout.lead is None:
            self.check_lead(tile)
            arm = None
        elif arm is not None:
            arm = self.layout.canonical(arm)
        layout = self.layout.place(tile, arm)
        laid = layout.lead if arm is None else layout.arm(arm)[-1]
        move = Move(
            MoveKind.PLAY,
            self.turn,
            self.layout,
            laid,
            arm,
            count=layout.count,
            points=layout.points,
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
                "lead_first",
                N_("%(name)s leads, and any tile can be led: nobody draws (R4)", name=name),
                "R4",
            )
        if self.layout.rules.draws_never:
            raise IllegalAction(
                "no_drawing",
                N_(
                    "nobody draws in this game (R27): if no tile fits, %(name)s knocks",
                    name=name,
                ),
                "R27",
            )
        drawable = self.drawable
        if drawable == 0 and self.boneyard:
            raise IllegalAction(
                "reserve_left",
                NP_(
                    "only the %(num)s tile never drawn are left (R20), so %(name)s cannot "
                    "draw: pass if no tile fits (R7)",
                    "only the %(num)s tiles never drawn are left (R20), so %(name)s cannot "
                    "draw: pass if no tile fits (R7)",
                    self.boneyard,
                    name=name,
                ),
                "R20",
            )
        if drawable == 0:
            raise IllegalAction(
                "boneyard_empty",
                N_(
                    "the boneyard is empty, so %(name)s cannot draw: pass if no tile fits (R7)",
                    name=name,
                ),
                "R6",
            )
        if count > drawable:
            kept = drawable < self.boneyard
            if kept:
                said = NP_(
                    "the boneyard has only %(num)s tile that may be drawn (R20): %(name)s "
                    "cannot draw %(count)s",
                    "the boneyard has only %(num)s tiles that may be drawn (R20): %(name)s "
                    "cannot draw %(count)s",
                    drawable,
                    name=name,
                    count=count,
                )
            else:
                said = NP_(
                    "the boneyard has only %(num)s tile: %(name)s cannot draw %(count)s",
                    "the boneyard has only %(num)s tiles: %(name)s cannot draw %(count)s",
                    drawable,
                    name=name,
                    count=count,
                )
            raise IllegalAction("draw_too_many", said, "R20" if kept else "R6")
        move = Move(MoveKind.DRAW, self.turn, self.layout, drawn=count)
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
                "lead_first",
                N_("%(name)s leads, and any tile can be led: nobody passes (R4)", name=name),
                "R4",
            )
        if self.drawable:
            if self.drawable < self.boneyard:
                said = NP_(
                    "the boneyard still has %(num)s tile that may be drawn, so %(name)s must "
                    "draw, not pass",
                    "the boneyard still has %(num)s tiles that may be drawn, so %(name)s must "
                    "draw, not pass",
                    self.drawable,
                    name=name,
                )
            else:
                said = NP_(
                    "the boneyard still has %(num)s tile, so %(name)s must draw, not pass",
                    "the boneyard still has %(num)s tiles, so %(name)s must draw, not pass",
                    self.drawable,
                    name=name,
                )
            raise IllegalAction("must_draw", said, "R7")
        passes = self.passes + 1
        blocked = passes == len(self.held)
        return replace(
            self,
            passes=passes,
            moves=(*self.moves, Move(MoveKind.PASS, self.turn, self.layout)),
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
