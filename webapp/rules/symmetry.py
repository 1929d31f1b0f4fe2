"""Places that give the same layout up to a mirror image, so the table is asked only once.

Two empty arms that branch from the same tile and show the same pips are mirror images of each
other: a spinner's up and down before either has a tile (R10, R17: every spinner's), and the
two sides of a lone double lead. Playing a tile on one or the other gives the same count, the
same points and the same layout seen from the other side of the table.

>>> from webapp.rules import Layout, Tile, Arm
>>> lone = Layout.empty().place(Tile(5, 5), None)
>>> [p.arm.value for p in distinct_placements(lone, lone.placements(Tile(5, 3)))]
['left']
>>> opened = lone.place(Tile(5, 3), Arm.LEFT).place(Tile(5, 2), Arm.RIGHT)
>>> [p.arm.value for p in opened.placements(Tile(5, 0))]
['up', 'down']
>>> [p.arm.value for p in distinct_placements(opened, opened.placements(Tile(5, 0)))]
['up']
"""

from __future__ import annotations

from .layout import Arm, Layout, Placement


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
