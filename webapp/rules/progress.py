"""Where a game stands: its status (R12, R16) and the result of each hand settled (R13, R13p).

These are the small values both the game's fold (:mod:`.game`) and what reads a game's record
(fixing a move, replay, rescore) name; they live here so that none of those has to import the
fold to speak of them.

>>> result = HandResult(1, HandEnd.DOMINO, 0, (0, 13), (0, 15), (5, 0), (0, -15), (5, -15))
>>> HandResult.from_dict(result.to_dict()) == result
True
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .hand import HandEnd


class Status(enum.Enum):
    """What the table does next: start a hand, play it, settle it, or nothing (game over)."""

    AWAITING_START = "awaiting_start"
    PLAYING = "playing"
    HAND_OVER = "hand_over"
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a settled hand ended and what it did to the scores (R13, R13p)."""

    number: int
    end: HandEnd
    went_out: int | None
    pips: tuple[int, ...]  # per seat, as reported (0 for the one who went out)
    rounded: tuple[int, ...]  # per seat, R13 rounding
    scored: tuple[int, ...]  # per side, points made during the hand
    settled: tuple[int, ...]  # per side, what settlement added or took
    scores: tuple[int, ...]  # per side, after settlement

    def to_dict(self) -> dict[str, object]:
        """This result as JSON data (a state's snapshot holds every settled hand's)."""
        return {
            "number": self.number,
            "end": self.end.value,
            "went_out": self.went_out,
            "pips": list(self.pips),
            "rounded": list(self.rounded),
            "scored": list(self.scored),
            "settled": list(self.settled),
            "scores": list(self.scores),
        }

    @classmethod
    def from_dict(cls, data: object) -> HandResult:
        """The result ``to_dict`` gave; ValueError (or KeyError) if ``data`` is not one."""
        if not isinstance(data, dict):
            raise ValueError(f"{data!r} is not a hand's result")
        return cls(
            stored_whole(data["number"]),
            HandEnd(data["end"]),
            stored_seat(data["went_out"]),
            *(
                stored_wholes(data[name])
                for name in ("pips", "rounded", "scored", "settled", "scores")
            ),
        )


def stored_whole(value: object) -> int:
    """A whole number kept as JSON data, or ValueError (``True`` is no number here)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{value!r} is not a whole number")
    return value


def stored_seat(value: object) -> int | None:
    """A seat kept as JSON data, where ``None`` means nobody."""
    return None if value is None else stored_whole(value)


def stored_wholes(values: object) -> tuple[int, ...]:
    """A list of whole numbers kept as JSON data (a score per side, pips per seat)."""
    if not isinstance(values, list):
        raise ValueError(f"{values!r} is not a list")
    return tuple(stored_whole(value) for value in values)
