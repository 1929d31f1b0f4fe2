"""The layout on the table: the lead, its arms, the spinner and the count (R5, R8–R11).

Open ends are named from the lead: a lead entered as ``a-b`` has the **left** end ``a`` and the
**right** end ``b``. The spinner (the first double played, R9) adds the **up** and **down** arms,
which open once both its sides are covered (R10).

Worked example B of RULES.md:

>>> layout = Layout.empty().place(Tile(5, 5), None)
>>> layout.count, layout.breakdown
(10, '[5|5] 10 = 10')
>>> layout = layout.place(Tile(5, 3), Arm.LEFT)
>>> layout.count, layout.breakdown
(13, '3 + [5|5] 10 = 13')
>>> layout = layout.place(Tile(5, 2), Arm.RIGHT)
>>> layout.count, sorted(arm.value for arm in layout.open_ends)
(5, ['down', 'left', 'right', 'up'])
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cached_property
from typing import Final

from .errors import IllegalAction
from .tiles import Tile


class Arm(enum.Enum):
    """An arm of the layout, named from the lead (left/right) and the spinner (up/down)."""

    LEFT = "left"
    RIGHT = "right"
    UP = "up"
    DOWN = "down"

    @classmethod
    def parse(cls, text: str) -> Arm:
        try:
            return cls(text.strip().lower())
        except (ValueError, AttributeError):
            raise IllegalAction(
                "bad_end", f"{text!r} is not an end: say left, right, up or down", "R5"
            ) from None

    def __str__(self) -> str:
        return self.value


SIDES: Final = (Arm.LEFT, Arm.RIGHT)
BRANCHES: Final = (Arm.UP, Arm.DOWN)


def points_for(count: int) -> int:
    """R11: a positive multiple of five scores itself; any other count scores nothing.

    >>> [points_for(n) for n in (0, 5, 7, 25, 35)]
    [0, 5, 0, 25, 35]
    """
    return count if count > 0 and count % 5 == 0 else 0


@dataclass(frozen=True, slots=True)
class EndValue:
    """One term of the count: what an open end adds, and how it is written in a breakdown."""

    arm: Arm | None  # None: the lead spinner itself, open while a side is uncovered (R11)
    tile: Tile
    value: int

    def __str__(self) -> str:
        if self.tile.is_double:
            return f"[{self.tile.a}|{self.tile.b}] {self.value}"
        return str(self.value)


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a tile can go, and what the count and points would be after it (R11)."""

    tile: Tile  # oriented as laid: ``a`` against the end, ``b`` showing (``a-b`` for a lead)
    arm: Arm | None  # None for the lead
    count: int
    points: int
    breakdown: str


@dataclass(frozen=True)
class Layout:
    """The tiles on the table. Each arm holds its tiles outward, each oriented (inner, outer)."""

    lead: Tile | None = None
    arms: tuple[tuple[Tile, ...], ...] = ((), (), (), ())
    spinner_arm: Arm | None = None  # the arm the spinner lies on; None if it is the lead
    spinner_index: int = -1  # index on spinner_arm; -1 when there is no spinner or it leads

    @classmethod
    def empty(cls) -> Layout:
        return cls()

    # --- what is on the table ----------------------------------------------------------------

    def arm(self, arm: Arm) -> tuple[Tile, ...]:
        return self.arms[_ARM_INDEX[arm]]

    # Layouts are immutable, so what is derived from one is computed once (cached_property):
    # the picker asks every tile against the same layout on each screen.

    @cached_property
    def tiles(self) -> tuple[Tile, ...]:
        """Every tile on the table, the lead first."""
        if self.lead is None:
            return ()
        return (self.lead, *(tile for arm in self.arms for tile in arm))

    @cached_property
    def spinner(self) -> Tile | None:
        """R9: the first double played, wherever it lies."""
        if self.lead is None:
            return None
        if self.spinner_arm is None:
            return self.lead if self.lead.is_double else None
        return self.arm(self.spinner_arm)[self.spinner_index]

    def spinner_sides_covered(self) -> int:
        """How many of the spinner's two long sides have a tile against them (R10)."""
        if self.spinner is None:
            return 0
        if self.spinner_arm is None:
            return sum(1 for side in SIDES if self.arm(side))
        beyond = len(self.arm(self.spinner_arm)) > self.spinner_index + 1
        return 1 + int(beyond)

    @property
    def branches_open(self) -> bool:
        """R10: up and down may be played on only once both spinner sides are covered."""
        return self.spinner_sides_covered() == 2

    @property
    def open_ends(self) -> dict[Arm, int]:
        """The pips showing at each end a tile may be played against, by arm."""
        return dict(self._ends)

    @cached_property
    def _ends(self) -> tuple[tuple[Arm, int], ...]:
        return tuple(self._find_ends().items())

    def _find_ends(self) -> dict[Arm, int]:
        if self.lead is None:
            return {}
        ends = {Arm.LEFT: self._side_pip(Arm.LEFT), Arm.RIGHT: self._side_pip(Arm.RIGHT)}
        spinner = self.spinner
        if spinner is not None and self.branches_open:
            for branch in BRANCHES:
                tiles = self.arm(branch)
                ends[branch] = tiles[-1].b if tiles else spinner.a
        return ends

    def _side_pip(self, side: Arm) -> int:
        assert self.lead is not None
        tiles = self.arm(side)
        if tiles:
            return tiles[-1].b
        return self.lead.a if side is Arm.LEFT else self.lead.b

    # --- the count (R8, R11) --------------------------------------------------------------

    @cached_property
    def end_values(self) -> tuple[EndValue, ...]:
        """The terms of the count, in the order left, spinner, right, up, down (R8, R11)."""
        lead = self.lead
        if lead is None:
            return ()
        lead_spins = self.spinner_arm is None and lead.is_double
        terms: list[EndValue] = []
        for side in SIDES:
            tiles = self.arm(side)
            if tiles:
                terms.append(_end_of(side, tiles[-1]))
            elif not lead_spins:
                pip = lead.a if side is Arm.LEFT else lead.b
                terms.append(EndValue(side, lead, pip))
        if lead_spins and not self.branches_open:
            # The lead spinner counts both halves while at most one side is covered.
            terms.insert(1 if self.arm(Arm.LEFT) else 0, EndValue(None, lead, lead.pips))
        for branch in BRANCHES:
            tiles = self.arm(branch)
            if tiles:
                terms.append(_end_of(branch, tiles[-1]))
        return tuple(terms)

    @cached_property
    def count(self) -> int:
        """R11: the sum of the open ends."""
        return sum(term.value for term in self.end_values)

    @cached_property
    def breakdown(self) -> str:
        """The count as arithmetic a table can check, such as ``"3 + [6|6] 12 + 4 + 5 = 24"``."""
        terms = self.end_values
        if not terms:
            return "0"
        return " + ".join(str(term) for term in terms) + f" = {self.count}"

    # --- placing tiles (R4, R5, R9, R10) ------------------------------------------------------

    def check(self, tile: Tile, arm: Arm) -> Tile:
        """The tile oriented to go on ``arm``, or :class:`IllegalAction` saying why not."""
        if self.lead is None:
            raise IllegalAction("no_layout", "nothing has been led yet: lead a tile first", "R4")
        if arm in BRANCHES:
            spinner = self.spinner
            if spinner is None:
                raise IllegalAction(
                    "no_spinner",
                    f"there is no {arm} end yet: up and down open on the spinner, "
                    "the first double played (R9)",
                    "R9",
                )
            if not self.branches_open:
                raise IllegalAction(
                    "spinner_sides_open",
                    f"the spinner's up and down open once both its sides are covered (R10): "
                    f"{spinner} has {self.spinner_sides_covered()} of 2 covered",
                    "R10",
                )
        pip = self.open_ends[arm]
        if not tile.has(pip):
            raise IllegalAction(
                "no_match", f"the {arm} end shows {pip}, and {tile} has no {pip}", "R5"
            )
        return Tile(pip, tile.other(pip))

    def fits(self, tile: Tile) -> tuple[Arm, ...]:
        """The arms ``tile`` can be played on now (empty before the lead: use ``place``)."""
        return tuple(arm for arm, pip in self._ends if tile.has(pip))

    def place(self, tile: Tile, arm: Arm | None) -> Layout:
        """A new layout with ``tile`` played on ``arm`` (``None`` to lead it as entered)."""
        if self.lead is None:
            return Layout(lead=tile)
        if arm is None:
            raise IllegalAction("end_needed", f"say which end {tile} goes on", "R5")
        laid = self.check(tile, arm)
        index = _ARM_INDEX[arm]
        arms = tuple((*tiles, laid) if i == index else tiles for i, tiles in enumerate(self.arms))
        if laid.is_double and self.spinner is None:
            return Layout(self.lead, arms, arm, len(self.arm(arm)))
        return Layout(self.lead, arms, self.spinner_arm, self.spinner_index)

    def placements(self, tile: Tile) -> tuple[Placement, ...]:
        """Every place ``tile`` can go now, with the count and points each would give."""
        key = (tile.a, tile.b)  # as written: a lead keeps the orientation it was entered in
        known = self._placed.get(key)
        if known is None:
            known = self._placed[key] = self._placements(tile)
        return known

    @cached_property
    def _placed(self) -> dict[tuple[int, int], tuple[Placement, ...]]:
        """Placements already worked out on this layout, by tile (screens ask every tile)."""
        return {}

    def _placements(self, tile: Tile) -> tuple[Placement, ...]:
        if self.lead is None:
            after = self.place(tile, None)
            return (Placement(tile, None, after.count, points_for(after.count), after.breakdown),)
        result = []
        for arm in self.fits(tile):
            after = self.place(tile, arm)
            laid = after.arm(arm)[-1]
            result.append(
                Placement(laid, arm, after.count, points_for(after.count), after.breakdown)
            )
        return tuple(result)

    def why_not(self, tile: Tile) -> str:
        """A sentence saying why ``tile`` fits no open end (R5)."""
        pips = sorted(set(self.open_ends.values()), reverse=True)
        shown = ", ".join(str(p) for p in pips)
        halves = str(tile.a) if tile.is_double else f"{tile.a} or {tile.b}"
        return f"no open end shows {halves}: open ends are {shown}"


def _end_of(arm: Arm, tile: Tile) -> EndValue:
    """R8: the last tile of an arm counts its outer half, or both halves if it is a double."""
    return EndValue(arm, tile, tile.pips if tile.is_double else tile.b)


_ARM_INDEX: Final = {arm: i for i, arm in enumerate(Arm)}
