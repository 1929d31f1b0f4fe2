"""The layout on the table: the lead, its arms, the spinners and the count (R5, R8–R11, R17).

Open ends are named from the lead: a lead entered as ``a-b`` has the **left** end ``a`` and the
**right** end ``b``. The first spinner (the first double played, R9) adds the **up** and
**down** arms, which open once both its sides are covered (R10). Under ``spinner =
"every-double"`` (Five Up, R17) every double is a spinner; the ends of a later one are named by
the double: ``6-6 up``, ``6-6 down``. The layout is a tree: the lead has two arms, and each
spinner, wherever it lies, branches two more.

Worked example B of RULES.md:

>>> layout = Layout.empty().place(Tile(5, 5), None)
>>> layout.count, layout.breakdown
(10, '[5|5] 10 = 10')
>>> layout = layout.place(Tile(5, 3), Arm.LEFT)
>>> layout.count, layout.breakdown
(13, '3 + [5|5] 10 = 13')
>>> layout = layout.place(Tile(5, 2), Arm.RIGHT)
>>> layout.count, sorted(arm.value for arm in layout.open_ends)
(5, ['down', 'left', 'right', 'up'])
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar, Final

from .errors import IllegalAction
from .messages import N_, Items, Message
from .tiles import Tile
from .variant import SEED, Variant

DIRECTIONS: Final = ("left", "right", "up", "down")


class _Arms(type):
    """Iterating over :class:`Arm` gives the four arms any layout may have."""

    def __iter__(cls) -> Iterator[Arm]:
        return iter((Arm.LEFT, Arm.RIGHT, Arm.UP, Arm.DOWN))


class Arm(metaclass=_Arms):
    """An arm of the layout, named by its open end (R17): ``left`` and ``right`` for the lead's,
    ``up`` and ``down`` for the first spinner's, ``6-6 up`` and ``6-6 down`` for a later
    spinner's. There is one :class:`Arm` object per name, so ``is`` compares arms.

    >>> Arm.parse("6-6 up"), Arm.parse(" Left ") is Arm.LEFT, str(Arm("down", Tile(4, 4)))
    (Arm('up', Tile(6, 6)), True, '4-4 down')
    """

    __slots__ = ("direction", "spinner", "value")
    direction: str  # left | right | up | down
    spinner: Tile | None  # the later spinner an up/down arm branches from; None otherwise
    value: str  # its name, as the API and the picker say it
    LEFT: ClassVar[Arm]
    RIGHT: ClassVar[Arm]
    UP: ClassVar[Arm]
    DOWN: ClassVar[Arm]
    _known: ClassVar[dict[tuple[str, tuple[int, int] | None], Arm]] = {}

    def __new__(cls, direction: str, spinner: Tile | None = None) -> Arm:
        key = (direction, spinner.key if spinner is not None else None)
        found = cls._known.get(key)
        if found is not None:
            return found
        if direction not in DIRECTIONS or (
            spinner is not None and (direction in ("left", "right") or not spinner.is_double)
        ):
            raise ValueError(f"{direction!r} is not an arm")
        found = object.__new__(cls)
        canonical = None if spinner is None else Tile(*spinner.key)
        object.__setattr__(found, "direction", direction)
        object.__setattr__(found, "spinner", canonical)
        named = direction if canonical is None else f"{canonical} {direction}"
        object.__setattr__(found, "value", named)
        cls._known[key] = found
        return found

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("arms are immutable")

    def __reduce__(self) -> tuple[type[Arm], tuple[str, Tile | None]]:
        return (Arm, (self.direction, self.spinner))

    @classmethod
    def parse(cls, text: str) -> Arm:
        """``left``, ``right``, ``up``, ``down``, or a spinner's end such as ``6-6 up``."""
        try:
            words = text.strip().lower().split()
            if len(words) == 1:
                return cls(words[0])
            if len(words) == 2:
                return cls(words[1], Tile.parse(words[0]))
        except (ValueError, AttributeError):
            pass
        shown = repr(text) if len(repr(text)) <= 24 else repr(text)[:20] + "…"
        raise IllegalAction(
            "bad_end",
            N_(
                "%(shown)s is not an end: say left, right, up or down, or a spinner's end like "
                "6-6 up",
                shown=shown,
            ),
            "R5",
        )

    @property
    def is_branch(self) -> bool:
        """Whether this arm branches from a spinner (up or down)."""
        return self.direction in ("up", "down")

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        if self.spinner is None:
            return f"Arm({self.direction!r})"
        return f"Arm({self.direction!r}, {self.spinner!r})"


Arm.LEFT, Arm.RIGHT, Arm.UP, Arm.DOWN = (Arm(direction) for direction in DIRECTIONS)
_DIRECTION_NAMES: Final = {
    "left": N_("left"),
    "right": N_("right"),
    "up": N_("up"),
    "down": N_("down"),
}


def arm_name(arm: Arm) -> Message:
    """``arm`` in words, as a message: ``left``, or ``6-6 up`` for a later spinner's end.

    >>> arm_name(Arm("up", Tile(6, 6))), arm_name(Arm.LEFT).template
    ('6-6 up', 'left')
    """
    named = _DIRECTION_NAMES[arm.direction]
    if arm.spinner is None:
        return named
    return N_("%(tile)s %(direction)s", tile=str(arm.spinner), direction=named)


SIDES: Final = (Arm.LEFT, Arm.RIGHT)
BRANCHES: Final = (Arm.UP, Arm.DOWN)


def points_for(count: int) -> int:
    """R11: a positive multiple of five scores itself; any other count scores nothing.

    >>> [points_for(n) for n in (0, 5, 7, 25, 35)]
    [0, 5, 0, 25, 35]
    """
    return count if count > 0 and count % 5 == 0 else 0


@dataclass(frozen=True, slots=True)
class EndValue:
    """One term of the count: what an open end adds, and how it is written in a breakdown."""

    arm: Arm | None  # None: the lead double itself, open while a side is uncovered (R11)
    tile: Tile
    value: int

    def __str__(self) -> str:
        return _term(self.tile, self.value)


def _term(tile: Tile, value: int) -> str:
    """A term of a breakdown: a double is shown as one (``[6|6] 12``), any other end by its
    value."""
    return f"[{tile.a}|{tile.b}] {value}" if tile.a == tile.b else str(value)


def _split(terms: tuple[EndValue, ...], end: int, start: int) -> tuple[str, int, str]:
    """The breakdown's text up to ``terms[end]`` and from ``terms[start]``, around a new term,
    with the sum of those terms."""
    before, after = terms[:end], terms[start:]
    rest = sum(term.value for term in before) + sum(term.value for term in after)
    return (
        "".join(f"{term} + " for term in before),
        rest,
        "".join(f" + {term}" for term in after),
    )


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a tile can go, and what the count and points would be after it (R11)."""

    tile: Tile  # oriented as laid: ``a`` against the end, ``b`` showing (``a-b`` for a lead)
    arm: Arm | None  # None for the lead
    count: int
    points: int
    breakdown: str


@dataclass(frozen=True, slots=True)
class Spinner:
    """A spinner on the table (R9, R17): the double, where it lies, and its two branches."""

    tile: Tile
    arm: Arm | None  # the arm it lies on; None when it is the lead
    index: int  # its place on that arm; -1 for the lead
    up: Arm
    down: Arm

    @property
    def branches(self) -> tuple[Arm, Arm]:
        return (self.up, self.down)


@dataclass(frozen=True)
class Layout:
    """The tiles on the table: the lead, and each arm's tiles outward, each oriented (inner,
    outer). ``spinners`` lists the spinners in the order they were played (R9, R17); ``rules``
    is the game's variant, which decides which doubles spin and what they count."""

    lead: Tile | None = None
    arms: tuple[tuple[Arm, tuple[Tile, ...]], ...] = ()  # only arms with tiles, first played first
    spinners: tuple[Spinner, ...] = ()
    rules: Variant = SEED

    @classmethod
    def empty(cls, rules: Variant = SEED) -> Layout:
        return cls(rules=rules)

    # --- what is on the table ----------------------------------------------------------------

    def arm(self, arm: Arm) -> tuple[Tile, ...]:
        """The tiles on ``arm``, outward from where it starts; () if none."""
        for named, tiles in self.arms:
            if named is arm:
                return tiles
        return ()

    # Layouts are immutable, so what is derived from one is computed once (cached_property):
    # the picker asks every tile against the same layout on each screen.

    @cached_property
    def tiles(self) -> tuple[Tile, ...]:
        """Every tile on the table, the lead first."""
        if self.lead is None:
            return ()
        return (self.lead, *(tile for _, arm in self.arms for tile in arm))

    @property
    def spinner(self) -> Tile | None:
        """R9: the first spinner, wherever it lies (under Five Up the first of several)."""
        return self.spinners[0].tile if self.spinners else None

    @property
    def spinner_arm(self) -> Arm | None:
        """The arm the first spinner lies on; None if it is the lead (or there is none)."""
        return self.spinners[0].arm if self.spinners else None

    @property
    def spinner_index(self) -> int:
        """The first spinner's place on its arm; -1 when it leads or there is none."""
        return self.spinners[0].index if self.spinners else -1

    def sides_covered(self, spinner: Spinner) -> int:
        """How many of a spinner's two long sides have a tile against them (R10)."""
        if spinner.arm is None:
            return sum(1 for side in SIDES if self.arm(side))
        return 1 + int(len(self.arm(spinner.arm)) > spinner.index + 1)

    def spinner_sides_covered(self) -> int:
        """How many of the first spinner's two long sides are covered (R10)."""
        return self.sides_covered(self.spinners[0]) if self.spinners else 0

    @property
    def branches_open(self) -> bool:
        """R10: the first spinner's up and down open once both its sides are covered."""
        return self.spinner_sides_covered() == 2

    @property
    def all_arms(self) -> tuple[Arm, ...]:
        """Every arm a play may name: left, right, up, down, then each later spinner's (R17)."""
        later = tuple(arm for spinner in self.spinners[1:] for arm in spinner.branches)
        return (*SIDES, *BRANCHES, *later)

    def spinner_of(self, arm: Arm) -> Spinner | None:
        """The spinner ``arm`` branches from, if it is on the table."""
        for spinner in self.spinners:
            if arm is spinner.up or arm is spinner.down:
                return spinner
        return None

    @property
    def open_ends(self) -> dict[Arm, int]:
        """The pips showing at each end a tile may be played against, by arm."""
        return dict(self._ends)

    @cached_property
    def _pips(self) -> dict[Arm, int]:
        return dict(self._ends)

    @cached_property
    def _ends(self) -> tuple[tuple[Arm, int], ...]:
        lead = self.lead
        if lead is None:
            return ()
        left, right = self.arm(Arm.LEFT), self.arm(Arm.RIGHT)
        ends = [
            (Arm.LEFT, left[-1].b if left else lead.a),
            (Arm.RIGHT, right[-1].b if right else lead.b),
        ]
        for spinner in self.spinners:
            if self.sides_covered(spinner) == 2:
                for branch in spinner.branches:
                    tiles = self.arm(branch)
                    ends.append((branch, tiles[-1].b if tiles else spinner.tile.a))
        return tuple(ends)

    # --- the count (R8, R11) --------------------------------------------------------------

    @cached_property
    def end_values(self) -> tuple[EndValue, ...]:
        """The terms of the count: left, the lead double, right, then each spinner's up and
        down in the order the spinners were played (R8, R11, R17, R18)."""
        lead = self.lead
        if lead is None:
            return ()
        left, right = self.arm(Arm.LEFT), self.arm(Arm.RIGHT)
        # A lead double counts as one while at most one side is covered (R11, R17).
        lead_counts = lead.is_double and not (left and right)
        terms: list[EndValue] = []
        for side, tiles, pip in ((Arm.LEFT, left, lead.a), (Arm.RIGHT, right, lead.b)):
            if tiles:
                terms.append(self._end_of(side, tiles[-1]))
            elif not lead.is_double:
                terms.append(EndValue(side, lead, pip))
        if lead_counts:
            terms.insert(1 if left else 0, EndValue(None, lead, self.rules.double_value(lead)))
        for spinner in self.spinners:
            for branch in spinner.branches:
                tiles = self.arm(branch)
                if tiles:
                    terms.append(self._end_of(branch, tiles[-1]))
        return tuple(terms)

    def _end_of(self, arm: Arm, tile: Tile) -> EndValue:
        """R8, R18: an arm's last tile counts its outer half, or as a double if it is one."""
        return EndValue(arm, tile, self.rules.double_value(tile) if tile.is_double else tile.b)

    @cached_property
    def count(self) -> int:
        """R11: the sum of the open ends."""
        return sum(term.value for term in self.end_values)

    @cached_property
    def breakdown(self) -> str:
        """The count as arithmetic a table can check, such as ``"3 + [6|6] 12 + 4 + 5 = 24"``."""
        terms = self.end_values
        if not terms:
            return "0"
        return " + ".join(str(term) for term in terms) + f" = {self.count}"

    @property
    def points(self) -> int:
        """R11, R25: what the count scores, on the game's scale of points."""
        return self.rules.points_for(self.count)

    # --- placing tiles (R4, R5, R9, R10, R17) -------------------------------------------------

    def canonical(self, arm: Arm) -> Arm:
        """``arm`` as this layout names it: the first spinner's ends are plain up and down."""
        spinner = arm.spinner
        if spinner is not None and self.spinners and self.spinners[0].tile == spinner:
            return Arm(arm.direction)
        return arm

    def check(self, tile: Tile, arm: Arm) -> Tile:
        """The tile oriented to go on ``arm``, or :class:`IllegalAction` saying why not."""
        if self.lead is None:
            raise IllegalAction(
                "no_layout", N_("nothing has been led yet: lead a tile first"), "R4"
            )
        arm = self.canonical(arm)
        if arm.is_branch:
            spinner = self.spinner_of(arm)
            if spinner is None:
                raise self._no_branch(arm)
            covered = self.sides_covered(spinner)
            if covered < 2:
                if arm.spinner is None:
                    said = N_(
                        "the spinner's up and down open once both its sides are covered "
                        "(R10): %(tile)s has %(covered)s of 2 covered",
                        tile=str(spinner.tile),
                        covered=covered,
                    )
                else:
                    said = N_(
                        "the spinner %(tile)s's up and down open once both its sides are "
                        "covered (R10): %(tile)s has %(covered)s of 2 covered",
                        tile=str(spinner.tile),
                        covered=covered,
                    )
                raise IllegalAction("spinner_sides_open", said, "R10")
        pip = self._pips[arm]
        if not tile.has(pip):
            raise IllegalAction(
                "no_match",
                N_(
                    "the %(end)s end shows %(pip)s, and %(tile)s has no %(pip)s",
                    end=arm_name(arm),
                    pip=pip,
                    tile=str(tile),
                ),
                "R5",
            )
        return Tile(pip, tile.other(pip))

    def _no_branch(self, arm: Arm) -> IllegalAction:
        """Why ``arm`` (an up or down end) is not on the table (R9, R17)."""
        if not self.rules.has_spinners:
            return IllegalAction(
                "no_spinner",
                N_(
                    "there is no %(end)s end: with no spinner (Muggins), doubles stay in the "
                    "line and up and down never open (R17)",
                    end=arm_name(arm),
                ),
                "R17",
            )
        double = arm.spinner
        if double is None:
            return IllegalAction(
                "no_spinner",
                N_(
                    "there is no %(end)s end yet: up and down open on the spinner, the first "
                    "double played (R9)",
                    end=arm_name(arm),
                ),
                "R9",
            )
        if double not in self.tiles:
            return IllegalAction(
                "no_spinner",
                N_(
                    "%(tile)s is not on the table, so there is no %(end)s end",
                    tile=str(double),
                    end=arm_name(arm),
                ),
                "R17",
            )
        return IllegalAction(
            "not_spinner",
            N_(
                "%(tile)s is not a spinner: only the first double played, %(spinner)s, spins "
                "(R9), so there is no %(end)s end",
                tile=str(double),
                spinner=str(self.spinner),
                end=arm_name(arm),
            ),
            "R9",
        )

    def fits(self, tile: Tile) -> tuple[Arm, ...]:
        """The arms ``tile`` can be played on now (empty before the lead: use ``place``)."""
        return tuple(arm for arm, pip in self._ends if tile.has(pip))

    def place(self, tile: Tile, arm: Arm | None) -> Layout:
        """A new layout with ``tile`` played on ``arm`` (``None`` to lead it as entered)."""
        rules = self.rules
        if self.lead is None:
            if rules.makes_spinner(tile, 0):
                return Layout(tile, (), (Spinner(tile, None, -1, Arm.UP, Arm.DOWN),), rules)
            return Layout(tile, (), (), rules)
        if arm is None:
            raise IllegalAction(
                "end_needed", N_("say which end %(tile)s goes on", tile=str(tile)), "R5"
            )
        arm = self.canonical(arm)
        laid = self.check(tile, arm)
        before = self.arm(arm)
        if before:
            arms = tuple(
                (named, (*tiles, laid) if named is arm else tiles) for named, tiles in self.arms
            )
        else:
            arms = (*self.arms, (arm, (laid,)))
        spinners = self.spinners
        if laid.is_double and rules.makes_spinner(laid, len(spinners)):
            if spinners:
                up, down = Arm("up", laid), Arm("down", laid)
            else:
                up, down = Arm.UP, Arm.DOWN
            spinners = (*spinners, Spinner(laid, arm, len(before), up, down))
        return Layout(self.lead, arms, spinners, rules)

    def placements(self, tile: Tile) -> tuple[Placement, ...]:
        """Every place ``tile`` can go now, with the count and points each would give (R11).

        Worked out from the open ends by arithmetic, not by building the layout after each
        placement: a play changes only the term of the end it covers (or adds one), and a lone
        lead double stops counting once both its sides are covered (R11). The layout ``place``
        builds gives the same answers (``tests/rules/test_rules_hints.py``).

        >>> opened = Layout.empty().place(Tile(5, 5), None).place(Tile(5, 3), Arm.LEFT)
        >>> [(str(p.arm), p.count, p.breakdown) for p in opened.placements(Tile(5, 2))]
        [('right', 5, '3 + 2 = 5')]
        """
        if self.lead is None:
            return (self._lead_placement(tile),)
        rules = self.rules
        result = []
        for arm, pip in self._ends:
            if tile.a == pip:
                laid = tile
            elif tile.b == pip:
                laid = Tile(pip, tile.a)
            else:
                continue
            before, rest, after = self._around[arm]
            value = rules.double_value(laid) if laid.a == laid.b else laid.b
            count = rest + value
            breakdown = f"{before}{_term(laid, value)}{after} = {count}"
            result.append(Placement(laid, arm, count, rules.points_for(count), breakdown))
        return tuple(result)

    def _lead_placement(self, tile: Tile) -> Placement:
        """R11: a lone lead counts both its halves; a lone double, as a double (R18)."""
        if tile.a == tile.b:
            count = self.rules.double_value(tile)
            breakdown = f"{_term(tile, count)} = {count}"
        else:
            count = tile.a + tile.b
            breakdown = f"{tile.a} + {tile.b} = {count}"
        return Placement(tile, None, count, self.rules.points_for(count), breakdown)

    @cached_property
    def _around(self) -> dict[Arm, tuple[str, int, str]]:
        """For each open end, the terms of the count before and after the one a tile played
        there puts in (R8, R11, R17): the end's own term is replaced; an empty side of a lone
        lead double goes before (left) or after (right) the double, whose own term a tile on
        its second side replaces; an empty branch goes in its spinner's order. Kept as the
        breakdown's text before and after the new term, and the sum of the other terms."""
        terms = self.end_values
        order: dict[Arm | None, int] = {None: 0, Arm.LEFT: 0, Arm.RIGHT: 0}
        for number, spinner in enumerate(self.spinners, start=1):
            order[spinner.up], order[spinner.down] = 2 * number, 2 * number + 1
        around: dict[Arm, tuple[str, int, str]] = {}
        for arm, _ in self._ends:
            at = next((i for i, term in enumerate(terms) if term.arm is arm), None)
            if at is None and order[arm] == 0:  # an empty side of a lone lead double
                at = next(i for i, term in enumerate(terms) if term.arm is None)
                if not self.arm(Arm.RIGHT if arm is Arm.LEFT else Arm.LEFT):  # it still counts
                    split = at + (arm is Arm.RIGHT)
                    around[arm] = _split(terms, split, split)
                    continue
            if at is None:  # an empty branch
                split = sum(1 for term in terms if order[term.arm] < order[arm])
                around[arm] = _split(terms, split, split)
            else:
                around[arm] = _split(terms, at, at + 1)
        return around

    def why_not(self, tile: Tile) -> Message:
        """A sentence saying why ``tile`` fits no open end (R5)."""
        pips = sorted(set(self.open_ends.values()), reverse=True)
        halves = Items((tile.a,) if tile.is_double else (tile.a, tile.b), "or")
        return N_(
            "no open end shows %(halves)s: open ends are %(ends)s",
            halves=halves,
            ends=Items(tuple(pips)),
        )
