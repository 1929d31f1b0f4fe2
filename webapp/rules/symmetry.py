"""Places that give the same layout up to a mirror image, so the table is asked only once.

Two empty arms that branch from the same tile and show the same pips are mirror images of each
other: a spinner's up and down before either has a tile (R10, R17: every spinner's), and the
two sides of a lone double lead. Playing a tile on one or the other gives the same count, the
same points and the same layout seen from the other side of the table. So a tile played with
no end named goes where it fits when its places are all one up to a mirror image, and the
table is asked to choose only between places that differ (R5): :func:`place_without_end`, which
the game and the practice board both follow.

>>> from webapp.rules import Layout, Tile, Arm
>>> lone = Layout.empty().place(Tile(5, 5), None)
>>> [p.arm.value for p in distinct_placements(lone, lone.placements(Tile(5, 3)))]
['left']
>>> opened = lone.place(Tile(5, 3), Arm.LEFT).place(Tile(5, 2), Arm.RIGHT)
>>> [p.arm.value for p in opened.placements(Tile(5, 0))]
['up', 'down']
>>> [p.arm.value for p in distinct_placements(opened, opened.placements(Tile(5, 0)))]
['up']
>>> place_without_end(lone, Tile(5, 3)).arm is Arm.LEFT
True
>>> place_without_end(opened, Tile(3, 2))
Traceback (most recent call last):
...
webapp.rules.errors.IllegalAction: 3-2 fits more than one end: left (0 points) or right (0 points)
"""

from __future__ import annotations

from .errors import IllegalAction
from .layout import Arm, Layout, Placement, arm_name
from .messages import N_, NP_, Items, Param
from .tiles import Tile


def _mirrors(layout: Layout) -> list[tuple[Arm, Arm]]:
    return [(Arm.LEFT, Arm.RIGHT), *(spinner.branches for spinner in layout.spinners)]


def mirrored_arms(layout: Layout) -> dict[Arm, Arm]:
    """The arms whose placements repeat, in mirror image, those of another: each with it."""
    ends = layout.open_ends
    repeats = {}
    for first, second in _mirrors(layout):
        if first not in ends or second not in ends or ends[first] != ends[second]:
            continue
        if layout.arm(first) or layout.arm(second):
            continue
        if first is Arm.LEFT and not (layout.lead is not None and layout.lead.is_double):
            continue  # a lone lead that is no double has two different sides
        repeats[second] = first
    return repeats


def distinct_placements(layout: Layout, places: tuple[Placement, ...]) -> tuple[Placement, ...]:
    """``places`` without those that only mirror another one."""
    repeats = mirrored_arms(layout)
    if not repeats:
        return places
    arms = {place.arm for place in places}
    return tuple(p for p in places if not (p.arm in repeats and repeats[p.arm] in arms))


def place_without_end(layout: Layout, tile: Tile, with_points: bool = True) -> Placement:
    """R5: where ``tile``, played after the lead with no end named, goes: the one place it fits,
    mirror images counted once. Refused with ``no_match`` if it fits no open end, and with
    ``choose_end`` if it fits places that differ, each listed once (with what it scores, unless
    ``with_points`` is false)."""
    found = distinct_placements(layout, layout.placements(tile))
    if not found:
        raise IllegalAction("no_match", layout.why_not(tile), "R5")
    if len(found) == 1:
        return found[0]
    ends: tuple[Param, ...] = tuple(
        NP_(
            "%(end)s (%(num)s point)",
            "%(end)s (%(num)s points)",
            place.points,
            end=arm_name(place.arm),
        )
        if with_points
        else arm_name(place.arm)
        for place in found
        if place.arm is not None
    )
    raise IllegalAction(
        "choose_end",
        N_(
            "%(tile)s fits more than one end: %(ends)s",
            tile=str(tile),
            ends=Items(ends, "or"),
        ),
        "R5",
    )
