"""The rules a game is played by, as one object whose hooks decide what differs (R17–R30).

Modelled on python-chess's ``chess/variant.py``, where a board class of each variant overrides
the few hooks that differ (``is_variant_end``, ``generate_legal_moves`` …) and the base class
is standard chess. Here the house rules combine freely, so instead of a class per combination
there is one :class:`Variant` per game, made from its :class:`~.options.Options` when the game
starts; the layout, the hand and the game ask it, and never test an option themselves. Its
defaults are RULES.md R1–R16 (the ``seed`` preset).

>>> SEED.makes_spinner(Tile(4, 4), spinners=0), SEED.makes_spinner(Tile(6, 6), spinners=1)
(True, False)
>>> FIVE_UP = Variant(spinner=Spinners.EVERY_DOUBLE, points=Points.FIVES)
>>> FIVE_UP.makes_spinner(Tile(6, 6), spinners=1), FIVE_UP.points_for(15)
(True, 3)
>>> Variant(doubles=Doubles.ONE_HALF).double_value(Tile(5, 5))
5
>>> THREES = Variant(count=Count.FIVES_AND_THREES, points=Points.FIVES)
>>> [THREES.points_for(n) for n in (3, 5, 9, 10, 15, 30)]
[1, 1, 3, 2, 8, 16]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from .house_rules import (
    Blocked,
    Count,
    Doubles,
    Draws,
    Finish,
    FirstLead,
    Floor,
    NextLead,
    Points,
    Rounding,
    RoundingOf,
    Settlement,
    Spinners,
)
from .settlement import round_to_five, subtract_own, winner_takes
from .tiles import Tile


@dataclass(frozen=True, slots=True)
class Variant:
    """What a game's house rules decide; each field is the option of RULES.md of that name,
    as the same enum member :class:`~.options.Options` holds."""

    spinner: Spinners = Spinners.FIRST_DOUBLE
    doubles: Doubles = Doubles.BOTH_HALVES
    draw: Draws = Draws.WHEN_STUCK
    reserve: int = 0  # R20: tiles of the boneyard never drawn, for this number of players
    first_lead: FirstLead = FirstLead.BY_LOT
    settlement: Settlement = Settlement.SUBTRACT_OWN
    rounding: Rounding = Rounding.NEAREST
    rounding_of: RoundingOf = RoundingOf.TOTAL
    blocked: Blocked = Blocked.FEWEST_TAKES
    floor: Floor = Floor.NONE
    finish: Finish = Finish.IMMEDIATE
    points: Points = Points.PIPS
    count: Count = Count.FIVES
    next_lead: NextLead = NextLead.WENT_OUT
    get_in: int = 0  # R30: what a side's first score must be worth, in pips (0: anything)
    time_limit: int = 0  # R30: minutes on the clock (0: none)

    # --- the layout (R8–R11, R17, R18) --------------------------------------------------------

    @property
    def has_spinners(self) -> bool:
        """R17: whether any double ever opens up and down."""
        return self.spinner is not Spinners.NONE

    def makes_spinner(self, tile: Tile, spinners: int) -> bool:
        """R9, R17: whether ``tile``, played when ``spinners`` spinners are down, is one."""
        if not tile.is_double or self.spinner is Spinners.NONE:
            return False
        return self.spinner is Spinners.EVERY_DOUBLE or spinners == 0

    def double_value(self, tile: Tile) -> int:
        """R8, R18: what a double counts where it counts as a double (an end, a lone lead,
        an open spinner)."""
        return tile.a if self.doubles is Doubles.ONE_HALF else tile.pips

    def points_for(self, count: int) -> int:
        """R11, R25: a positive multiple of five scores, in pips or in fives; else nothing.
        R26: with threes, a point per five in a multiple of 5 plus a point per three in a
        multiple of 3 (15 scores 5 + 3 = 8).

        >>> [SEED.points_for(n) for n in (0, 5, 7, 25, 35)]
        [0, 5, 0, 25, 35]
        """
        if count <= 0:
            return 0
        if self.count is Count.FIVES_AND_THREES:
            return (0 if count % 5 else count // 5) + (0 if count % 3 else count // 3)
        if count % 5:
            return 0
        return count // 5 if self.points is Points.FIVES else count

    # --- drawing and leading (R6, R7, R19–R21) ------------------------------------------------

    @property
    def draws_any_time(self) -> bool:
        """R19: the player to move may draw even when a tile fits (a draw proves nothing)."""
        return self.draw is Draws.ANY_TIME

    @property
    def draws_never(self) -> bool:
        """R27: the block game: nobody draws, a player who cannot play knocks."""
        return self.draw is Draws.NEVER

    def drawable(self, boneyard: int) -> int:
        """R20: how many of the ``boneyard``'s face-down tiles may still be drawn (R27: none)."""
        return 0 if self.draws_never else max(0, boneyard - self.reserve)

    def next_leader(self, leader: int, went_out: int | None, players: int) -> int | None:
        """R3, R29: who leads the hand after one led by ``leader``; ``None``: by lot (R3) or
        the highest double (R21)."""
        if self.next_lead is NextLead.ROTATES:
            return (leader + 1) % players
        return went_out

    # --- getting in and the clock (R30) -------------------------------------------------------

    def gets_in(self, points: int) -> bool:
        """R30: whether ``points`` (on this game's scale) are enough for a side's first score."""
        return points > 0 and points >= self.in_points(self.get_in)

    @property
    def timed(self) -> bool:
        """R30: whether the game has a time limit, so that time may be called."""
        return self.time_limit > 0

    @property
    def leads_highest_double(self) -> bool:
        """R21: in the first hand and after a block, the highest double leads."""
        return self.first_lead is FirstLead.HIGHEST_DOUBLE

    # --- settling (R13, R13p, R22–R25) --------------------------------------------------------

    def rounded(self, pips: int) -> int:
        """R13, R22: a hand's pips as a settlement counts them, in pips."""
        return round_to_five(pips, self.rounding)

    def settle(
        self, pips: Mapping[int, int], sides: Sequence[int], went_out: int | None
    ) -> tuple[int, ...]:
        """R13, R13p, R22, R23, R25, R28: what the settlement adds to (or takes from) each
        side."""
        if self.settlement is Settlement.GO_OUT_BONUS:
            deltas = tuple(
                5 if went_out is not None and sides[went_out] == side else 0
                for side in range(max(sides) + 1)
            )
        elif self.settlement is Settlement.SUBTRACT_OWN:
            deltas = subtract_own(pips, sides, self.rounding)
        else:
            deltas = winner_takes(
                pips, sides, went_out, self.rounding, self.rounding_of, self.blocked
            )
        return tuple(self.in_points(delta) for delta in deltas)

    @property
    def counts_pips(self) -> bool:
        """R28: whether the tiles left in hands are counted, so that the table reports them."""
        return self.settlement is not Settlement.GO_OUT_BONUS

    def in_points(self, pips: int) -> int:
        """R25: an amount of pips (a multiple of five in fives) on this game's scale."""
        return pips // 5 if self.points is Points.FIVES else pips

    def after(self, score: int, delta: int, target: int) -> int:
        """R24, R25: the score a change of ``delta`` leaves: a floor at zero stops a loss
        there; an exact finish refuses points that would pass the target."""
        if delta < 0 and self.floor is Floor.ZERO:
            return max(score + delta, min(score, 0))
        if delta > 0 and self.passes_target(score, delta, target):
            return score
        return score + delta

    def passes_target(self, score: int, points: int, target: int) -> bool:
        """R25: under an exact finish, points that would take a score past the target."""
        return self.finish is Finish.EXACT and points > 0 and score + points > target

    def still_needed(self, score: int, target: int) -> int:
        """R15, R25: the points a score lacks to reach the target (0 once reached); under an
        exact finish that many and no more."""
        return max(target - score, 0)

    @property
    def finishes_exactly(self) -> bool:
        """R25: only a score of exactly the target wins."""
        return self.finish is Finish.EXACT

    def wins(self, score: int, target: int) -> bool:
        """R15, R25: whether a score has reached the target (exactly, under an exact finish)."""
        return score == target if self.finish is Finish.EXACT else score >= target


SEED: Final = Variant()
