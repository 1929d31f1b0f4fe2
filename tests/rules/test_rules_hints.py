"""The picker's hints by arithmetic: ``Layout.placements`` gives, for every tile on every
layout of every preset and house rule, what building the layout after the play gives (R8–R11,
R17, R18, R25, R26)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import examples
from webapp.rules import DOUBLE_SIX, BadOptions, Layout, Options, Placement, Tile
from webapp.rules.options import PRESET_LIST, SPECS
from webapp.rules.variant import Variant

# The options the layout asks about (R17, R18, R25, R26), each value crossed with every preset
# (but threes counted in pips, which R26 refuses).
LAYOUT_OPTIONS = ("spinner", "doubles", "points", "count")


def _variant(preset: str, house: dict[str, object]) -> Variant | None:
    try:
        return Options.make(["Ana", "Ben"], preset=preset, **house).variant
    except BadOptions:
        return None


VARIANTS = [
    found
    for preset in PRESET_LIST
    for house in [{}, *({name: value} for name in LAYOUT_OPTIONS for value in SPECS[name].values)]
    if (found := _variant(preset.name, house)) is not None
]


def built(layout: Layout, tile: Tile) -> tuple[Placement, ...]:
    """The placements as the layout after each one counts them."""
    if layout.lead is None:
        after = layout.place(tile, None)
        return (Placement(tile, None, after.count, after.points, after.breakdown),)
    found = []
    for arm in layout.fits(tile):
        after = layout.place(tile, arm)
        laid = after.arm(arm)[-1]
        found.append(Placement(laid, arm, after.count, after.points, after.breakdown))
    return tuple(found)


def random_layout(variant_index: int, seed: int, plays: int) -> Layout:
    """A layout of up to ``plays`` random legal plays under one of ``VARIANTS``."""
    rng = random.Random(seed)
    tiles = list(DOUBLE_SIX)
    rng.shuffle(tiles)
    lead = tiles.pop()
    layout = Layout.empty(VARIANTS[variant_index]).place(
        lead if rng.random() < 0.5 else lead.flipped(), None
    )
    for _ in range(plays):
        legal = [(tile, arm) for tile in tiles for arm in layout.fits(tile)]
        if not legal:
            break
        tile, arm = rng.choice(legal)
        tiles.remove(tile)
        layout = layout.place(tile, arm)
    return layout


# Four times the profile's examples: each is arithmetic on one layout (a few milliseconds), and
# the layouts to cover are every variant × every length of hand × any deal.
@settings(max_examples=examples(4))
@given(
    variant=st.integers(0, len(VARIANTS) - 1),
    seed=st.integers(0, 2**32),
    plays=st.integers(0, 27),
)
def test_every_tile_scores_as_the_layout_after_it_would(variant: int, seed: int, plays: int):
    layout = random_layout(variant, seed, plays)
    for tile in DOUBLE_SIX:
        if tile not in layout.tiles:
            assert layout.placements(tile) == built(layout, tile)
            assert layout.placements(tile.flipped()) == built(layout, tile.flipped())


@given(variant=st.integers(0, len(VARIANTS) - 1))
def test_every_lead_scores_as_the_lone_tile_counts(variant: int):
    empty = Layout.empty(VARIANTS[variant])
    for tile in DOUBLE_SIX:
        assert empty.placements(tile) == built(empty, tile)
        assert empty.placements(tile.flipped()) == built(empty, tile.flipped())


def test_a_layout_keeps_nothing_more_for_having_been_asked_about_every_tile():
    layout = random_layout(0, 7, 6)
    layout.placements(DOUBLE_SIX[0])
    asked_once = {name: len(repr(value)) for name, value in vars(layout).items()}
    for tile in DOUBLE_SIX:
        layout.placements(tile)
    assert {name: len(repr(value)) for name, value in vars(layout).items()} == asked_once
