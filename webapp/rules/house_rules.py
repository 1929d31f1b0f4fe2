"""What each house rule may be: the named values of every option of RULES.md, as enums.

One enum per option, its values written exactly as RULES.md writes them, the default first.
:class:`~.options.Options` (what a table chose) and :class:`~.variant.Variant` (the rules
object the layout, hand and game ask) hold the same members; the option table
(:data:`~.options.OPTION_SPECS`) lists them with their words for people.

They are :class:`enum.StrEnum` members, so each *is* its RULES.md value as a string: it
compares equal to it, prints as it and is written as it in JSON — stored games, exports and the
API read as before.

>>> Rounding.UP == "up", str(Spinners.EVERY_DOUBLE), Rounding("nearest") is Rounding.NEAREST
(True, 'every-double', True)
>>> [value.value for value in Finish]
['immediate', 'end-of-hand', 'exact']
"""

from __future__ import annotations

import enum


class Deal(enum.StrEnum):
    """R1: how many tiles each player draws."""

    STANDARD = "9-7-5"
    FIVE = "5"
    SEVEN_FIVE = "7-5-5"
    NINE_SIX = "9-6"

    def hand_size(self, players: int) -> int:
        if self is Deal.FIVE:
            return 5
        if self is Deal.SEVEN_FIVE:
            return 7 if players == 2 else 5
        if self is Deal.NINE_SIX:
            return 9 if players == 2 else 6
        return {2: 9, 3: 7, 4: 5}[players]


class Spinners(enum.StrEnum):
    """R9, R17: which doubles spin."""

    FIRST_DOUBLE = "first-double"
    NONE = "none"
    EVERY_DOUBLE = "every-double"


class Doubles(enum.StrEnum):
    """R8, R18: what a double counts where it counts as a double."""

    BOTH_HALVES = "both-halves"
    ONE_HALF = "one-half"


class Draws(enum.StrEnum):
    """R6, R19, R27: when the player to move may draw."""

    WHEN_STUCK = "when-stuck"
    ANY_TIME = "any-time"
    NEVER = "never"


class FirstLead(enum.StrEnum):
    """R3, R21: who leads the first hand, and each hand after a block."""

    BY_LOT = "by-lot"
    HIGHEST_DOUBLE = "highest-double"


class Settlement(enum.StrEnum):
    """R13, R13p and R28: how the tiles left in hands are settled."""

    SUBTRACT_OWN = "subtract-own"
    WINNER_TAKES = "winner-takes"
    GO_OUT_BONUS = "go-out-bonus"


class Rounding(enum.StrEnum):
    """R13, R22: how pips left in hands are rounded to fives."""

    NEAREST = "nearest"
    UP = "up"
    DOWN = "down"
    NONE = "none"


class RoundingOf(enum.StrEnum):
    """R22: under winner-takes, the opponents' pips rounded together or each hand on its own."""

    TOTAL = "total"
    EACH_HAND = "each-hand"


class Blocked(enum.StrEnum):
    """R13p, R23: who scores a blocked hand under winner-takes."""

    FEWEST_TAKES = "fewest-takes"
    DIFFERENCE = "difference"
    NOBODY = "nobody"


class Floor(enum.StrEnum):
    """R24: whether a settlement may take a score below zero."""

    NONE = "none"
    ZERO = "zero"


class Finish(enum.StrEnum):
    """R16, R25: when a game that reaches its target ends."""

    IMMEDIATE = "immediate"
    END_OF_HAND = "end-of-hand"
    EXACT = "exact"


class Points(enum.StrEnum):
    """R25: whether points are kept in pips, or in fives as on a cribbage board."""

    PIPS = "pips"
    FIVES = "fives"


class Count(enum.StrEnum):
    """R11, R26: which counts score: multiples of five, or of five and of three."""

    FIVES = "fives"
    FIVES_AND_THREES = "fives-and-threes"


class NextLead(enum.StrEnum):
    """R3, R29: who leads each hand after the first."""

    WENT_OUT = "went-out"
    ROTATES = "rotates"
