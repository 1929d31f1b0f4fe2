"""The options of a game, the one table that declares them, and the presets (R1, R2, R13–R30).

Every option is declared once, in :data:`OPTION_SPECS`: its name, its values (the first is the
default, the rule RULES.md states first), the rule it belongs to and a sentence for people. The
engine validates against it; the new-game form, the rescore page, the rules page and the API read
it.

>>> opts = Options.make(["Ana", "Ben", "Cy"])
>>> opts.hand_size, opts.boneyard_size, opts.goal, opts.settlement.value
(7, 7, 200, 'subtract-own')
>>> Options.make(["Ana", "Ben"], preset="pagat").settlement.value
'winner-takes'
>>> teams = Options.make(["Ana", "Ben", "Cy", "Di"], partnership=True)
>>> teams.side_name(teams.side_of(2)), teams.goal
('Ana & Cy', 200)
>>> Options.make(["Ana", "Ben"], preset="muggins", rounding="up").title
'Muggins, rounding up'
>>> five_up = Options.make(["Ana", "Ben"], preset="five-up")
>>> five_up.goal, five_up.hand_size, five_up.title
(61, 5, 'Five Up')
>>> threes = Options.make(["Ana", "Ben", "Cy"], preset="fives-and-threes", deal="9-6")
>>> threes.goal, threes.hand_size, threes.title
(61, 6, 'Fives and Threes, 9 tiles for 2, else 6')
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any, Final

from .errors import BadOptions, IllegalAction
from .house_rules import (
    Blocked,
    Count,
    Deal,
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
from .messages import N_, NP_, Items, Message, Param, listed
from .numbers import whole_number
from .tiles import DOUBLE_SIX
from .variant import Variant

MAX_NAME_LENGTH: Final = 30
Value = str | int
BY_PLAYERS: Final = "by-players"  # R20: the reserve's one value that is no number of tiles
TIME_LIMITS: Final = (15, 30, 45, 55, 60, 90)  # R30: the minutes a table may choose


def as_written(value: Value) -> Value:
    """An option's value as RULES.md writes it: the plain ``str`` of an enum member.

    >>> as_written(Rounding.UP), as_written(2)
    ('up', 2)
    """
    return value.value if isinstance(value, enum.StrEnum) else value


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of RULES.md: its values (the first the default), its rule, and words for
    people: ``sentence`` says what the option decides, ``labels`` what each value does and
    ``phrases`` how a changed value is named after a preset ("rounding up").

    An option with named values takes them from its enum (:mod:`.house_rules`), whose members
    ``read`` gives; the reserve (R20) is a number of tiles, or ``"by-players"``."""

    name: str
    rule: str
    title: Message
    sentence: Message
    values: tuple[Value, ...]
    labels: tuple[Message, ...]
    phrases: tuple[Message, ...]

    @property
    def default(self) -> Value:
        return self.values[0]

    def choices(self) -> tuple[tuple[Value, Message], ...]:
        """Each value with its label, for a form's select."""
        return tuple(zip(self.values, self.labels, strict=True))

    def label(self, value: Value) -> Message:
        return self.labels[self.values.index(value)]

    def phrase(self, value: Value) -> Message:
        return self.phrases[self.values.index(value)]

    def read(self, value: object) -> Value:
        """``value`` as one of this option's values (numbers may come as text), or a refusal:
        the enum member for an option with named values.

        >>> SPECS["rounding"].read("up") is Rounding.UP, SPECS["reserve"].read(" 2 ")
        (True, 2)
        """
        if isinstance(value, str) and any(isinstance(v, int) for v in self.values):
            number = whole_number(value, 2)
            value = value.strip() if number is None else number
        if isinstance(value, bool) or value not in self.values:
            allowed = Items(tuple(repr(as_written(v)) for v in self.values), "or")
            shown = repr(value) if len(repr(value)) <= 24 else repr(value)[:20] + "…"
            raise BadOptions(
                self.name,
                N_(
                    "%(option)s must be %(allowed)s, not %(shown)s",
                    option=self.name,
                    allowed=allowed,
                    shown=shown,
                ),
                self.rule,
            )
        return self.values[self.values.index(value)]  # as declared: Rounding.UP; 2, not 2.0


def _spec(
    name: str, rule: str, title: Message, sentence: Message, *values: tuple[Value, Message, Message]
) -> OptionSpec:
    """An option from its values, each with its label and phrase. Named values are the members
    of the option's enum, every one of them in its order: the enum and the table cannot part."""
    declared = tuple(v for v, _, _ in values)
    first = declared[0]
    if isinstance(first, enum.StrEnum) and declared != tuple(type(first)):
        raise ValueError(f"{name}: the values are not every {type(first).__name__}, in order")
    return OptionSpec(
        name,
        rule,
        title,
        sentence,
        declared,
        tuple(label for _, label, _ in values),
        tuple(phrase for _, _, phrase in values),
    )


#: Every rule option of RULES.md, in the order forms show them (the target is a number: R15).
OPTION_SPECS: Final[tuple[OptionSpec, ...]] = (
    _spec(
        "deal",
        "R1",
        N_("Tiles dealt"),
        N_("How many tiles each player draws at the start of a hand."),
        (Deal.STANDARD, N_("9 each for 2, 7 for 3, 5 for 4"), N_("the standard deal")),
        (Deal.FIVE, N_("5 each"), N_("5 tiles each")),
        (Deal.SEVEN_FIVE, N_("7 each for 2, else 5"), N_("7 tiles for 2, else 5")),
        (Deal.NINE_SIX, N_("9 each for 2, else 6"), N_("9 tiles for 2, else 6")),
    ),
    _spec(
        "spinner",
        "R17",
        N_("Spinners"),
        N_("Which doubles branch the layout up and down."),
        (Spinners.FIRST_DOUBLE, N_("The first double played"), N_("the first double spins")),
        (Spinners.NONE, N_("None: doubles stay in line"), N_("no spinner")),
        (Spinners.EVERY_DOUBLE, N_("Every double"), N_("every double a spinner")),
    ),
    _spec(
        "doubles",
        "R18",
        N_("A double at an end"),
        N_("What a double counts while it is an open end of the layout."),
        (Doubles.BOTH_HALVES, N_("Both halves: 4-4 counts 8"), N_("doubles count both halves")),
        (Doubles.ONE_HALF, N_("One half: 4-4 counts 4"), N_("doubles count once")),
    ),
    _spec(
        "draw",
        "R19",
        N_("Drawing"),
        N_("When the player to move may draw from the boneyard."),
        (Draws.WHEN_STUCK, N_("Only when no tile fits"), N_("drawing only when stuck")),
        (Draws.ANY_TIME, N_("Any time on one’s turn"), N_("drawing any time")),
        (Draws.NEVER, N_("Never: who cannot play knocks"), N_("no drawing")),
    ),
    _spec(
        "reserve",
        "R20",
        N_("Tiles never drawn"),
        N_("How many tiles stay in the boneyard to the end."),
        (0, N_("None: every tile is drawable"), N_("every tile drawn")),
        (1, N_("The last tile"), N_("the last tile never drawn")),
        (2, N_("The last two tiles"), N_("the last two tiles never drawn")),
        (BY_PLAYERS, N_("2 with 2 players, else 1"), N_("a reserve by players")),
    ),
    _spec(
        "first_lead",
        "R21",
        N_("The first lead"),
        N_("Who leads the first hand, and each hand after a block."),
        (FirstLead.BY_LOT, N_("By lot, or picked at random"), N_("first lead by lot")),
        (FirstLead.HIGHEST_DOUBLE, N_("The highest double"), N_("highest double leads")),
    ),
    _spec(
        "settlement",
        "R13",
        N_("Tiles left at the end of a hand"),
        N_("Who scores or loses the pips left in the hands when a hand ends."),
        (Settlement.SUBTRACT_OWN, N_("Each loses their own pips"), N_("each loses their own pips")),
        (
            Settlement.WINNER_TAKES,
            N_("Winner scores the others’ pips"),
            N_("winner takes the pips"),
        ),
        (
            Settlement.GO_OUT_BONUS,
            N_("Not counted: going out scores a five"),
            N_("a five for going out"),
        ),
    ),
    _spec(
        "rounding",
        "R22",
        N_("Rounding"),
        N_("How pips left in hands are rounded to fives."),
        (Rounding.NEAREST, N_("Nearest five: 3 → 5, 7 → 5"), N_("rounding to the nearest five")),
        (Rounding.UP, N_("Up: 1 → 5"), N_("rounding up")),
        (Rounding.DOWN, N_("Down: 9 → 5"), N_("rounding down")),
        (Rounding.NONE, N_("Not at all"), N_("no rounding")),
    ),
    _spec(
        "rounding_of",
        "R22",
        N_("Rounding what the winner takes"),
        N_("Under winner-takes: the opponents’ pips rounded together, or each hand on its own."),
        (RoundingOf.TOTAL, N_("Their total"), N_("the total rounded")),
        (RoundingOf.EACH_HAND, N_("Each hand on its own"), N_("each hand rounded")),
    ),
    _spec(
        "blocked",
        "R23",
        N_("A blocked hand under winner-takes"),
        N_("Who scores when nobody can play and nobody went out."),
        (Blocked.FEWEST_TAKES, N_("Fewest pips takes all pips"), N_("fewest takes all")),
        (Blocked.DIFFERENCE, N_("Fewest pips takes differences"), N_("the difference scores")),
        (Blocked.NOBODY, N_("Nobody scores"), N_("nobody scores a block")),
    ),
    _spec(
        "floor",
        "R24",
        N_("Scores below zero"),
        N_("Whether a settlement may take a score below zero."),
        (Floor.NONE, N_("Yes, below zero"), N_("scores below zero")),
        (Floor.ZERO, N_("No: scores stop at 0"), N_("scores stop at zero")),
    ),
    _spec(
        "finish",
        "R16",
        N_("Reaching the target"),
        N_("When a side that reaches the target wins."),
        (Finish.IMMEDIATE, N_("At once, even mid-hand"), N_("winning at once")),
        (Finish.END_OF_HAND, N_("After the hand is settled"), N_("winning after the hand")),
        (Finish.EXACT, N_("Only by reaching it exactly"), N_("an exact finish")),
    ),
    _spec(
        "points",
        "R25",
        N_("Points kept in"),
        N_("Whether scores are kept in pips, or in fives as on a cribbage board."),
        (Points.PIPS, N_("Pips: a count of 15 scores 15"), N_("points in pips")),
        (Points.FIVES, N_("Fives: a count of 15 scores 3"), N_("points in fives")),
    ),
    _spec(
        "count",
        "R26",
        N_("Counts that score"),
        N_("Whether a count scores as a multiple of five only, or of three too."),
        (Count.FIVES, N_("Multiples of five"), N_("fives only")),
        (Count.FIVES_AND_THREES, N_("Fives and threes: 15 scores 8"), N_("threes count too")),
    ),
    _spec(
        "next_lead",
        "R29",
        N_("Who leads the next hand"),
        N_("Who leads each hand after the first."),
        (NextLead.WENT_OUT, N_("Whoever went out"), N_("whoever went out leads")),
        (NextLead.ROTATES, N_("The next seat, every hand"), N_("the lead rotates")),
    ),
    _spec(
        "get_in",
        "R30",
        N_("Getting in"),
        N_("What a side’s first score must be worth before it counts."),
        (0, N_("Any score"), N_("any score gets in")),
        (10, N_("Ten to get in: 10 or more"), N_("ten to get in")),
    ),
    _spec(
        "time_limit",
        "R30",
        N_("Time limit"),
        N_("Minutes until time may be called: the highest score then wins."),
        (0, N_("None"), N_("no time limit")),
        *(
            (
                minutes,
                NP_("%(num)s minute", "%(num)s minutes", minutes),
                NP_("%(num)s minute to play", "%(num)s minutes to play", minutes),
            )
            for minutes in TIME_LIMITS
        ),
    ),
)
SPECS: Final[Mapping[str, OptionSpec]] = {spec.name: spec for spec in OPTION_SPECS}

#: R15: the target is a whole number in this range; its default follows players and points.
TARGET_RANGE: Final = (5, 10000)
TARGET_SENTENCE: Final = N_(
    "The score that wins: 250 with 2 players, 200 with 3 or 4; 61 when points are kept in fives."
)


@dataclass(frozen=True, slots=True)
class Preset:
    """A named starting point: some options set; the rest keep their defaults."""

    name: str
    title: Message
    sentence: Message
    rules: Mapping[str, Value]


PRESET_LIST: Final = (
    Preset("seed", N_("Standard"), N_("Each player loses the pips left in their own hand."), {}),
    Preset(
        "pagat",
        N_("Pagat"),
        N_("The player who goes out scores the pips left in the others’ hands."),
        {"settlement": Settlement.WINNER_TAKES},
    ),
    Preset(
        "muggins",
        N_("Muggins"),
        N_("No spinner: the layout is a line with two ends all hand long."),
        {"spinner": Spinners.NONE},
    ),
    Preset(
        "five-up",
        N_("Five Up"),
        N_(
            "Every double a spinner, 5 tiles each, the winner takes the pips, points in fives to "
            "61."
        ),
        {
            "spinner": Spinners.EVERY_DOUBLE,
            "deal": Deal.FIVE,
            "settlement": Settlement.WINNER_TAKES,
            "points": Points.FIVES,
        },
    ),
    Preset(
        "fives-and-threes",
        N_("Fives and Threes"),
        N_(
            "No spinner and no drawing: counts of five and of three score, going out scores "
            "one, points to exactly 61; the lead passes round."
        ),
        {
            "spinner": Spinners.NONE,
            "count": Count.FIVES_AND_THREES,
            "points": Points.FIVES,
            "finish": Finish.EXACT,
            "draw": Draws.NEVER,
            "settlement": Settlement.GO_OUT_BONUS,
            "next_lead": NextLead.ROTATES,
            "deal": Deal.SEVEN_FIVE,
        },
    ),
)
PRESETS: Final[Mapping[str, Preset]] = {preset.name: preset for preset in PRESET_LIST}
OPTION_NAMES: Final = ("target", *SPECS)


def default_target(players: int, points: str) -> int:
    """R15, R25: 250 with 2 players and 200 with 3 or 4 in pips; 61 in fives."""
    if points == Points.FIVES:
        return 61
    return 250 if players == 2 else 200


@dataclass(frozen=True, slots=True)
class Options:
    """Who plays and by which rules. Seats follow the order of ``players`` (R2)."""

    players: tuple[str, ...]
    partnership: bool = False
    preset: str = "seed"
    deal: Deal = Deal.STANDARD
    target: int = 200  # R15; ``make`` sets the default for the players and points
    settlement: Settlement = Settlement.SUBTRACT_OWN
    finish: Finish = Finish.IMMEDIATE
    spinner: Spinners = Spinners.FIRST_DOUBLE
    doubles: Doubles = Doubles.BOTH_HALVES
    draw: Draws = Draws.WHEN_STUCK
    reserve: Value = 0  # R20: a number of tiles, or "by-players"
    first_lead: FirstLead = FirstLead.BY_LOT
    rounding: Rounding = Rounding.NEAREST
    rounding_of: RoundingOf = RoundingOf.TOTAL
    blocked: Blocked = Blocked.FEWEST_TAKES
    floor: Floor = Floor.NONE
    points: Points = Points.PIPS
    count: Count = Count.FIVES
    next_lead: NextLead = NextLead.WENT_OUT
    get_in: int = 0  # R30: 0 or 10 pips
    time_limit: int = 0  # R30: minutes, 0 for none

    @classmethod
    def parse(cls, players: object, partnership: object, rules: object) -> Options:
        """Options as a request gives them, each part of any type: a list of names, whether
        they play in partnerships, and the rules as an object of options (``preset`` among
        them); a :class:`BadOptions` says what is wrong with any of it.

        >>> Options.parse(["Ana", "Ben"], False, {"preset": "muggins", "rounding": "up"}).title
        'Muggins, rounding up'
        >>> Options.parse("Ana and Ben", False, {})
        Traceback (most recent call last):
        ...
        webapp.rules.errors.BadOptions: list 2 to 4 player names
        """
        if not isinstance(players, list):
            raise BadOptions("player_count", N_("list 2 to 4 player names"), "R2")
        if not isinstance(partnership, bool):
            raise BadOptions("partnership", N_("partnership is true or false"), "R2")
        if not isinstance(rules, Mapping):
            raise BadOptions("bad_rules", N_('rules must be an object such as {"preset": "seed"}'))
        chosen = {str(name): value for name, value in rules.items()}
        preset = chosen.pop("preset", "seed") or "seed"
        if not isinstance(preset, str):
            raise BadOptions(
                "preset", N_("the preset is a name: %(presets)s", presets=Items(tuple(PRESETS)))
            )
        return cls.make(players, partnership, preset, **chosen)

    def seat_named(self, name: object) -> int:
        """The seat of the player called ``name`` (any case, spaces around ignored), or the
        ``bad_player`` refusal.

        >>> Options.make(["Ana", "Ben"]).seat_named(" ben ")
        1
        """
        if isinstance(name, str):
            wanted = name_key(name)
            for seat, player in enumerate(self.players):
                if name_key(player) == wanted:
                    return seat
        raise IllegalAction(
            "bad_player", N_("%(shown)s is not a player in this game", shown=repr(str(name)[:30]))
        )

    @classmethod
    def make(
        cls,
        players: Sequence[str],
        partnership: bool = False,
        preset: str = "seed",
        **rules: object,
    ) -> Options:
        """Options from names, a preset, and any option of RULES.md by its name.

        An option left out (or ``None``) keeps the preset's value, else RULES.md's default:
        so options stored before an option existed mean today's default."""
        names = tuple(check_name(name) for name in players)
        if not 2 <= len(names) <= 4:
            raise BadOptions("player_count", N_("All Fives is played by 2, 3 or 4 players"), "R2")
        if len({name_key(name) for name in names}) != len(names):
            raise BadOptions("duplicate_name", N_("each player needs a different name"), "R2")
        if partnership and len(names) != 4:
            raise BadOptions("partnership", N_("partnerships need exactly 4 players"), "R2")
        if not isinstance(preset, str) or preset not in PRESETS:
            shown = repr(preset) if len(repr(preset)) <= 24 else repr(preset)[:20] + "…"
            raise BadOptions(
                "preset",
                N_(
                    "unknown preset %(shown)s: choose %(presets)s",
                    shown=shown,
                    presets=Items(tuple(PRESETS)),
                ),
            )
        unknown = set(rules) - set(OPTION_NAMES)
        if unknown:
            raise BadOptions(
                "option",
                N_(
                    "unknown option %(shown)s: options are %(options)s",
                    shown=repr(sorted(unknown)[0]),
                    options=Items(OPTION_NAMES),
                ),
            )
        chosen: dict[str, object] = {**PRESETS[preset].rules}
        chosen.update({k: v for k, v in rules.items() if v is not None and v != ""})
        # Each option as its spec reads it: an enum member, or the reserve's number or word.
        values: dict[str, Any] = {
            name: spec.read(chosen.get(name, spec.default)) for name, spec in SPECS.items()
        }
        if values["rounding"] is Rounding.NONE and values["points"] is Points.FIVES:
            raise BadOptions(
                "rounding",
                N_(
                    "pips that are not a multiple of five have no value in fives: with points "
                    "in fives, choose a rounding (R25)"
                ),
                "R25",
            )
        if values["count"] is Count.FIVES_AND_THREES and values["points"] is not Points.FIVES:
            raise BadOptions(
                "count",
                N_(
                    "fives and threes are scored in points as on a cribbage board: with threes "
                    "counted, keep points in fives (R26)"
                ),
                "R26",
            )
        target = chosen.get("target")
        if target is None:
            target = default_target(len(names), values["points"])
        return cls(names, bool(partnership), preset, target=_check_target(target), **values)

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
    def reserve_size(self) -> int:
        """R20: how many tiles of the boneyard are never drawn."""
        if self.reserve == BY_PLAYERS:
            return 2 if self.player_count == 2 else 1
        return int(self.reserve)

    @property
    def variant(self) -> Variant:
        """The rules object whose hooks the layout, hand and game ask (R17–R25): each option
        it holds, by name, and R20's reserve as a number of tiles for this table."""
        chosen = {name: getattr(self, name) for name in _VARIANT_OPTIONS}
        return _variant(**chosen, reserve=self.reserve_size)

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

    def value(self, name: str) -> Value:
        """The value of the option ``name`` as RULES.md writes it, a plain ``str`` or ``int``
        (``target`` included): what ``rules_dict`` stores and exports."""
        return as_written(getattr(self, name))

    def rules_dict(self) -> dict[str, object]:
        """The options by their RULES.md names, as stored, exported and shown."""
        return {"preset": self.preset, "target": self.goal} | {
            name: self.value(name) for name in SPECS
        }

    def changes(self) -> tuple[tuple[str, Value], ...]:
        """The options that differ from the preset's (the target from its default)."""
        preset = PRESETS[self.preset].rules
        found: list[tuple[str, Value]] = [
            (spec.name, self.value(spec.name))
            for spec in OPTION_SPECS
            if self.value(spec.name) != preset.get(spec.name, spec.default)
        ]
        if self.target != default_target(self.player_count, self.points):
            found.append(("target", self.target))
        return tuple(found)

    @property
    def title(self) -> Message:
        """The rules in force, named as a table says them: "Muggins, rounding up"."""
        words: list[Param] = [PRESETS[self.preset].title]
        for name, value in self.changes():
            if name == "target":
                words.append(N_("to %(target)s", target=value))
            else:
                words.append(SPECS[name].phrase(value))
        return listed(Items(tuple(words)))


#: The options a :class:`Variant` holds, each under its own name (the deal is the table's: it
#: needs the number of players; the reserve it holds as a number of tiles).
_VARIANT_OPTIONS: Final = tuple(
    spec.name
    for spec in OPTION_SPECS
    if spec.name in {field.name for field in fields(Variant)} and spec.name != "reserve"
)


@lru_cache(maxsize=256)  # one per set of rules in play
def _variant(**options: Any) -> Variant:
    """One :class:`Variant` per set of rules: every layout of a game shares its game's."""
    return Variant(**options)


def _check_target(value: object) -> int:
    if isinstance(value, str):
        value = whole_number(value, 5)
    low, high = TARGET_RANGE
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadOptions(
            "target",
            N_("the target is a number of points from %(low)s to %(high)s", low=low, high=high),
            "R15",
        )
    return value


def name_key(name: str) -> str:
    """What makes two names the same player's (R2): any case, any Unicode form, spaces around
    and between words as one.

    >>> name_key(" CY ") == name_key("cy"), name_key("Zo\u0065\u0308") == name_key("ZO\u00cb")
    (True, True)
    """
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def check_name(name: object) -> str:
    """A player's name as typed, tidied (spaces around and between words as one, Unicode
    composed), or the ``player_name`` refusal: a name is needed, printable, at most
    ``MAX_NAME_LENGTH`` characters."""
    if not isinstance(name, str) or not name.strip():
        raise BadOptions("player_name", N_("every player needs a name"))
    cleaned = unicodedata.normalize("NFC", " ".join(name.split()))
    if not cleaned.isprintable():
        raise BadOptions("player_name", N_("names are made of letters, digits and punctuation"))
    if len(cleaned) > MAX_NAME_LENGTH:
        raise BadOptions(
            "player_name",
            N_(
                "names are at most %(most)s characters: %(shown)s",
                most=MAX_NAME_LENGTH,
                shown=repr(cleaned[:30]),
            ),
        )
    return cleaned


def with_options(options: Options, **changes: object) -> Options:
    """``options`` with some options changed, validated as ``make`` validates them."""
    rules = {name: value for name, value in options.rules_dict().items() if name != "preset"}
    rules.update(changes)
    return Options.make(options.players, options.partnership, options.preset, **rules)
