"""The options of a game and the presets of RULES.md (R1, R2, R13, R13p, R15, R16).

>>> opts = Options.make(["Ana", "Ben", "Cy"])
>>> opts.hand_size, opts.boneyard_size, opts.goal, opts.settlement.value
(7, 7, 200, 'subtract-own')
>>> Options.make(["Ana", "Ben"], preset="pagat").settlement.value
'winner-takes'
>>> teams = Options.make(["Ana", "Ben", "Cy", "Di"], partnership=True)
>>> teams.side_name(teams.side_of(2)), teams.goal
('Ana & Cy', 200)
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

from .errors import BadOptions
from .numbers import whole_number
from .tiles import DOUBLE_SIX

MAX_NAME_LENGTH: Final = 30


class Deal(enum.Enum):
    """R1: how many tiles each player draws."""

    STANDARD = "9-7-5"
    FIVE = "5"
    SEVEN_FIVE = "7-5-5"

    def hand_size(self, players: int) -> int:
        if self is Deal.FIVE:
            return 5
        if self is Deal.SEVEN_FIVE:
            return 7 if players == 2 else 5
        return {2: 9, 3: 7, 4: 5}[players]


class Settlement(enum.Enum):
    """R13 and R13p: how the tiles left in hands are settled."""

    SUBTRACT_OWN = "subtract-own"
    WINNER_TAKES = "winner-takes"


class Finish(enum.Enum):
    """R16: when a game that reaches its target ends."""

    IMMEDIATE = "immediate"
    END_OF_HAND = "end-of-hand"


PRESETS: Final[Mapping[str, Mapping[str, str]]] = {
    "seed": {},
    "pagat": {"settlement": Settlement.WINNER_TAKES.value},
}
OPTION_NAMES: Final = ("deal", "target", "settlement", "finish")


@dataclass(frozen=True, slots=True)
class Options:
    """Who plays and by which rules. Seats follow the order of ``players`` (R2)."""

    players: tuple[str, ...]
    partnership: bool = False
    preset: str = "seed"
    deal: Deal = Deal.STANDARD
    target: int = 200  # R15; ``make`` sets 250 for two players
    settlement: Settlement = Settlement.SUBTRACT_OWN
    finish: Finish = Finish.IMMEDIATE

    @classmethod
    def make(
        cls,
        players: Sequence[str],
        partnership: bool = False,
        preset: str = "seed",
        **rules: object,
    ) -> Options:
        """Options from names, a preset, and any option of RULES.md by its name."""
        names = tuple(_check_name(name) for name in players)
        if not 2 <= len(names) <= 4:
            raise BadOptions("player_count", "All Fives is played by 2, 3 or 4 players", "R2")
        if len({name.casefold() for name in names}) != len(names):
            raise BadOptions("duplicate_name", "each player needs a different name", "R2")
        if partnership and len(names) != 4:
            raise BadOptions("partnership", "partnerships need exactly 4 players", "R2")
        if preset not in PRESETS:
            raise BadOptions("preset", f"unknown preset {preset!r}: choose {' or '.join(PRESETS)}")
        unknown = set(rules) - set(OPTION_NAMES)
        if unknown:
            raise BadOptions(
                "option",
                f"unknown option {sorted(unknown)[0]!r}: options are " + ", ".join(OPTION_NAMES),
            )
        chosen = {**PRESETS[preset], **{k: v for k, v in rules.items() if v is not None}}
        options = cls(names, bool(partnership), preset, target=250 if len(names) == 2 else 200)
        for name, value in chosen.items():
            options = _with_option(options, name, value)
        return options

    @property
    def player_count(self) -> int:
        return len(self.players)

    @property
    def hand_size(self) -> int:
        return self.deal.hand_size(self.player_count)

    @property
    def boneyard_size(self) -> int:
        return len(DOUBLE_SIX) - self.hand_size * self.player_count

    @property
    def goal(self) -> int:
        """R15: the score to reach."""
        return self.target

    @property
    def side_count(self) -> int:
        """How many scores are kept: one per team in partnership, else one per player."""
        return 2 if self.partnership else self.player_count

    def side_of(self, seat: int) -> int:
        """R2: seats 1 and 3 (0 and 2 from zero) form team 0, seats 2 and 4 team 1."""
        return seat % 2 if self.partnership else seat

    def seats_of(self, side: int) -> tuple[int, ...]:
        return tuple(seat for seat in range(self.player_count) if self.side_of(seat) == side)

    def side_name(self, side: int) -> str:
        return " & ".join(self.players[seat] for seat in self.seats_of(side))

    def rules_dict(self) -> dict[str, object]:
        """The options by their RULES.md names, as stored and shown."""
        return {
            "preset": self.preset,
            "deal": self.deal.value,
            "target": self.goal,
            "settlement": self.settlement.value,
            "finish": self.finish.value,
        }


def _check_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip():
        raise BadOptions("player_name", "every player needs a name")
    cleaned = " ".join(name.split())
    if not cleaned.isprintable():
        raise BadOptions("player_name", "names are made of letters, digits and punctuation")
    if len(cleaned) > MAX_NAME_LENGTH:
        raise BadOptions(
            "player_name", f"names are at most {MAX_NAME_LENGTH} characters: {cleaned[:30]!r}"
        )
    return cleaned


def _with_option(options: Options, name: str, value: object) -> Options:
    if name == "target":
        if isinstance(value, str):
            value = whole_number(value, 5)
        if not isinstance(value, int) or isinstance(value, bool) or not 5 <= value <= 10000:
            raise BadOptions("target", "the target is a number of points from 5 to 10000", "R15")
        return replace(options, target=value)
    try:
        if name == "deal":
            return replace(options, deal=Deal(value))
        if name == "settlement":
            return replace(options, settlement=Settlement(value))
        return replace(options, finish=Finish(value))
    except ValueError:
        kind = {"deal": Deal, "settlement": Settlement, "finish": Finish}[name]
        allowed = " or ".join(repr(member.value) for member in kind)
        raise BadOptions(name, f"{name} must be {allowed}, not {value!r}") from None
