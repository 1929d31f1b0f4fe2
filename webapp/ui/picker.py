"""The picker of the 28 tiles, as every page that shows it sees it (the game, check a play,
fixing a move, the practice board): each tile played or not and, where hints are wanted,
whether it fits and its best points, all from the placements ``webapp.rules`` gives.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import lru_cache

from ..rules import DOUBLE_SIX, Arm, GameState, Placement, Tile


@dataclass(frozen=True, slots=True)
class PickerTile:
    name: str
    played: bool
    fits: bool  # marked only where hints are wanted
    best: int

    @property
    def value(self) -> str:
        """What a tap on it sends (an attribute the picker asks for: a missing one is slow)."""
        return self.name


def picker_tiles(
    on_table: Collection[Tile],
    placements: Callable[[Tile], tuple[Placement, ...]],
    leading: bool,
    hints: bool = True,
) -> tuple[PickerTile, ...]:
    """The 28 tiles: played if ``on_table``; with ``hints``, whether each fits now (R5) and its
    best points (R11). Before the lead every tile fits, so only the scoring leads are marked."""
    if not hints:
        played = 0
        for tile in on_table:
            played |= _BIT.get(tile, 0)
        return _plain_tiles(played)
    tiles = []
    for tile in DOUBLE_SIX:
        played = tile in on_table
        places = () if played else placements(tile)
        best = max((place.points for place in places), default=0)
        fits = bool(places) and (not leading or best > 0)
        tiles.append(PickerTile(str(tile), played, fits, best))
    return tuple(tiles)


def tiles_of(state: GameState, hints: bool) -> tuple[PickerTile, ...]:
    """The 28 tiles as the game screen's picker shows them in ``state``: with ``hints`` (the
    table wants them), kept for the last states asked, as each play's answer compares the
    picker before the play with the one after it, and the one before was the previous
    answer's (the very same state, kept with its game's scorebook)."""
    if hints:
        return _hinted(_Same(state))
    hand = state.hand
    return picker_tiles(hand.layout.tiles if hand else (), state.placements, False, False)


class _Same:
    """A state as a cache's key: equal only to the very same state (its hints follow from
    it). The key holds the state, so no other state takes its ``id`` while it is kept."""

    __slots__ = ("state",)

    def __init__(self, state: GameState) -> None:
        self.state = state

    def __hash__(self) -> int:
        return id(self.state)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.state is self.state


@lru_cache(maxsize=32)
def _hinted(same: _Same) -> tuple[PickerTile, ...]:
    state = same.state
    hand = state.hand
    on_table = hand.layout.tiles if hand else ()
    return picker_tiles(on_table, state.placements, hand is None or hand.layout.lead is None)


_BIT = {tile: 1 << number for number, tile in enumerate(DOUBLE_SIX)}  # a tile's bit in a set


@lru_cache(maxsize=512)
def _plain_tiles(played: int) -> tuple[PickerTile, ...]:
    """The 28 tiles without hints, the played ones (``played``: a bit per tile) marked. Each
    play's answer compares the picker before and after it, and the "before" was the previous
    answer's "after": kept, it is not made again (an entry: a tuple of 28 shared tiles)."""
    return tuple(_plain_tile(tile, bool(played & _BIT[tile])) for tile in DOUBLE_SIX)


@lru_cache(maxsize=64)
def _plain_tile(tile: Tile, played: bool) -> PickerTile:
    return PickerTile(str(tile), played, False, 0)


@dataclass(frozen=True, slots=True)
class Place:
    """Where a tile would go (no end for a lead), the count after it and its points (R11)."""

    arm: Arm | None
    count: int
    points: int
    breakdown: str

    @classmethod
    def of(cls, place: Placement) -> Place:
        return cls(arm=place.arm, count=place.count, points=place.points, breakdown=place.breakdown)


@dataclass(frozen=True, slots=True)
class TileHint:
    """Learning mode: a tile not yet played that fits now, where, and what it would score."""

    tile: str
    places: tuple[Place, ...]
    best: int


def tile_hints(
    on_table: Collection[Tile], placements: Callable[[Tile], tuple[Placement, ...]]
) -> tuple[TileHint, ...]:
    """Every tile not played that fits somewhere now, with its places."""
    hints = []
    for tile in DOUBLE_SIX:
        places = () if tile in on_table else placements(tile)
        if places:
            hints.append(
                TileHint(
                    tile=str(tile),
                    places=tuple(Place.of(place) for place in places),
                    best=max(place.points for place in places),
                )
            )
    return tuple(hints)
