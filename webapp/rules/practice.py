"""A layout built tile by tile with no game around it: the practice board and drawn examples.

A board is written as its plays in order, separated by commas: the lead as entered, then each
tile with the end it went on, such as ``"5-5,5-3:left,5-2:right"`` (worked example B of
RULES.md). That text is the whole board, so it can live in a link.

>>> board = Board.parse("5-5,5-3:left,5-2:right")
>>> board.layout.count, board.notation
(5, '5-5,5-3:left,5-2:right')
>>> board.add(Tile(5, 0), Arm.UP).layout.breakdown
'3 + 2 + 0 = 5'
>>> Board.parse("5-5,5-2:up")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
webapp.rules.errors.IllegalAction: tile 2, '5-2:up': the spinner's up and down open once both...
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import IllegalAction, NotationError, RuleError
from .layout import Arm, Layout, Placement
from .messages import N_
from .symmetry import distinct_placements, place_without_end
from .tiles import DOUBLE_SIX, Tile
from .variant import SEED, Variant

MAX_TEXT = 400  # 28 plays of ``d-d:right`` and their commas fit well inside this


@dataclass(frozen=True, slots=True)
class Step:
    """One play on a practice board: a tile and the arm it went on (``None`` for the lead)."""

    tile: Tile
    arm: Arm | None = None

    @classmethod
    def parse(cls, text: str) -> Step:
        """Read ``"6-4"`` or ``"6-4:right"``."""
        tile_text, _, arm_text = text.partition(":")
        tile = Tile.parse(tile_text)
        return cls(tile, Arm.parse(arm_text) if arm_text.strip() else None)

    def __str__(self) -> str:
        return str(self.tile) if self.arm is None else f"{self.tile}:{self.arm}"


@dataclass(frozen=True, slots=True)
class Board:
    """The plays so far and the layout after each of them (``layouts[0]`` is the empty one)."""

    steps: tuple[Step, ...] = ()
    layouts: tuple[Layout, ...] = (Layout(),)

    @classmethod
    def parse(cls, text: str, rules: Variant = SEED) -> Board:
        """The board ``text`` describes under ``rules`` (R17, R18: which doubles spin, what
        they count), or the refusal of its first bad play."""
        board, refusal = cls.read(text, rules)
        if refusal is not None:
            raise refusal
        return board

    @classmethod
    def read(cls, text: str, rules: Variant = SEED) -> tuple[Board, RuleError | None]:
        """As much of ``text`` as is legal, and the refusal of the first play that is not.

        The refusal names the play by its position and text, and keeps the rule it breaks.
        """
        board = cls((), (Layout.empty(rules),))
        if not isinstance(text, str) or len(text) > MAX_TEXT:
            return board, NotationError(
                "board_too_long",
                N_("a board is at most %(most)s tiles written like 6-4", most=len(DOUBLE_SIX)),
            )
        parts = [part.strip() for part in text.split(",")] if text.strip() else []
        for number, part in enumerate(parts, start=1):
            try:
                step = Step.parse(part)
                board = board.add(step.tile, step.arm)
            except RuleError as refusal:
                shown = part if len(part) <= 12 else part[:12] + "…"
                message = N_(
                    "tile %(number)s, %(shown)s: %(refusal)s",
                    number=number,
                    shown=repr(shown),
                    refusal=refusal.message,
                )
                return board, type(refusal)(refusal.code, message, refusal.rule)
        return board, None

    # --- the board now ---------------------------------------------------------------------

    @property
    def layout(self) -> Layout:
        return self.layouts[-1]

    @property
    def before(self) -> Layout:
        """The layout before the last play (the empty one if nothing is played)."""
        return self.layouts[-2] if len(self.layouts) > 1 else self.layouts[0]

    @property
    def last(self) -> Placement | None:
        """The last play as a :class:`Placement` (tile as laid, count and points after it)."""
        if not self.steps:
            return None
        step = self.steps[-1]
        layout = self.layout
        laid = layout.lead if step.arm is None else layout.arm(step.arm)[-1]
        assert laid is not None
        return Placement(laid, step.arm, layout.count, layout.points, layout.breakdown)

    @property
    def notation(self) -> str:
        return ",".join(str(step) for step in self.steps)

    def unplayed(self) -> tuple[Tile, ...]:
        on_table = set(self.layout.tiles)
        return tuple(tile for tile in DOUBLE_SIX if tile not in on_table)

    def what_if(self) -> tuple[tuple[Tile, tuple[Placement, ...]], ...]:
        """Every tile not on the table with every place it can go now and what each scores."""
        return tuple((tile, self.placements(tile)) for tile in self.unplayed())

    def placements(self, tile: Tile) -> tuple[Placement, ...]:
        """Where ``tile`` can go now; () if it is already on the table (R1) or fits nowhere."""
        if tile in self.layout.tiles:
            return ()
        return self.layout.placements(tile)

    def places(self, tile: Tile) -> tuple[Placement, ...]:
        """The places worth asking about for ``tile``: ``placements`` with mirror images once,
        as a game asks (``GameState.places``). ``add`` needs an end only when this has more
        than one place.

        >>> [str(place.arm) for place in Board.parse("6-6").places(Tile(6, 4))]
        ['left']
        """
        found = self.placements(tile)
        return distinct_placements(self.layout, found) if found else found

    # --- changing it -----------------------------------------------------------------------

    def add(self, tile: Tile, arm: Arm | None = None) -> Board:
        """The board with ``tile`` played on ``arm``; the arm may be left out where only one
        place fits, mirror images counted once (``places``). Refused as a game would refuse it
        (R1, R4, R5, R9, R10)."""
        layout = self.layout
        if tile in layout.tiles:
            raise IllegalAction(
                "already_played",
                N_("%(tile)s is already on the table: a set has one of each", tile=str(tile)),
                "R1",
            )
        if layout.lead is None:
            if arm is not None:
                raise IllegalAction(
                    "lead_has_no_end",
                    N_("%(tile)s leads: a lead goes on no end", tile=str(tile)),
                    "R4",
                )
            return Board((Step(tile),), (*self.layouts, layout.place(tile, None)))
        if arm is None:  # R5: as a game decides it, mirror images counted once
            arm = place_without_end(layout, tile, with_points=False).arm
        after = layout.place(tile, arm)
        return Board((*self.steps, Step(tile, arm)), (*self.layouts, after))

    def undo(self) -> Board:
        """The board without its last play (the same empty board if nothing is played)."""
        if not self.steps:
            return self
        return Board(self.steps[:-1], self.layouts[:-1])
