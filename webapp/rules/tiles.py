"""Tiles of the double-six set (R1).

A :class:`Tile` keeps the orientation it was entered in (``"6-4"`` has ``a == 6`` and
``b == 4``), which matters for a lead; two tiles are equal when they are the same physical tile,
whatever their orientation.

>>> Tile.parse("6-4")
Tile(6, 4)
>>> str(Tile.parse("6|4")), str(Tile.parse("46"))
('6-4', '4-6')
>>> Tile.parse("6-4") == Tile.parse("4-6")
True
>>> Tile(5, 5).pips, Tile(5, 5).is_double
(10, True)
>>> len(DOUBLE_SIX)
28
"""

from __future__ import annotations

import re
from typing import Final

from .errors import NotationError
from .messages import N_

HIGHEST_PIP: Final = 6
_NOTATION = re.compile(r"^\s*(\d)\s*[-|:/ ]?\s*(\d)\s*$")


class Tile:
    """One domino, oriented as entered: ``a`` is its first half, ``b`` its second."""

    __slots__ = ("_hash", "a", "b", "key")
    a: int
    b: int
    key: tuple[int, int]  # the tile's identity whatever its orientation: (high, low)
    _hash: int

    def __init__(self, a: int, b: int) -> None:
        for half in (a, b):
            if not isinstance(half, int) or isinstance(half, bool) or not 0 <= half <= HIGHEST_PIP:
                shown = f"{a}-{b}"
                raise NotationError(
                    "not_in_set",
                    N_(
                        "%(tile)s is not a tile of a double-six set: each half has 0 to 6 pips",
                        tile=shown,
                    ),
                )
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)
        # Tiles are compared and hashed on every rule check: their identity is worked out once.
        key = (a, b) if a >= b else (b, a)
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "_hash", hash(key))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("tiles are immutable")

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        # copy, deepcopy and pickle would otherwise restore the slots through __setattr__.
        return (Tile, (self.a, self.b))

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read ``"6-4"``, ``"6|4"`` or ``"64"``; raise :class:`NotationError` otherwise."""
        if not isinstance(text, str):
            raise NotationError(
                "bad_tile", N_("%(shown)s is not a tile: write it like 6-4", shown=repr(text))
            )
        match = _NOTATION.match(text)
        if match is None:
            shown = text if len(text) <= 20 else text[:20] + "…"
            raise NotationError(
                "bad_tile", N_("%(shown)s is not a tile: write it like 6-4", shown=repr(shown))
            )
        return cls(int(match.group(1)), int(match.group(2)))

    @property
    def pips(self) -> int:
        return self.a + self.b

    @property
    def is_double(self) -> bool:
        return self.a == self.b

    def has(self, pip: int) -> bool:
        return pip in (self.a, self.b)

    def other(self, pip: int) -> int:
        """The half left showing when the half ``pip`` is put against an end."""
        if pip == self.a:
            return self.b
        if pip == self.b:
            return self.a
        raise ValueError(f"{self} has no {pip}")

    def flipped(self) -> Tile:
        return Tile(self.b, self.a)

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Tile) and self.key == other.key)

    def __hash__(self) -> int:
        return self._hash

    def __lt__(self, other: Tile) -> bool:
        return self.key < other.key

    def __str__(self) -> str:
        return f"{self.a}-{self.b}"

    def __repr__(self) -> str:
        return f"Tile({self.a}, {self.b})"


#: The 28 tiles, highest first, each written high half first (6-6, 6-5, … 0-0).
DOUBLE_SIX: Final[tuple[Tile, ...]] = tuple(
    Tile(high, low) for high in range(HIGHEST_PIP, -1, -1) for low in range(high, -1, -1)
)
TOTAL_PIPS: Final = sum(tile.pips for tile in DOUBLE_SIX)
