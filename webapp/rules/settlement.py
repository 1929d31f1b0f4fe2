"""Settling a hand: rounding (R13, R22), the settlements (R13, R13p, R23) and report checks (R14).

Worked example C (``seed``): Ana went out, Ben holds 13 pips, Cy 7.

>>> subtract_own({1: 13, 2: 7}, sides=[0, 1, 2])
(0, -15, -5)

Worked example D (``pagat``), the same hands:

>>> winner_takes({0: 0, 1: 13, 2: 7}, sides=[0, 1, 2], went_out=0)
(20, 0, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations

from .errors import ImpossibleReport
from .house_rules import Blocked, Rounding, RoundingOf
from .messages import N_, NP_, Items, Message, Param
from .tiles import Tile


def round_to_five(pips: int, rounding: str = Rounding.NEAREST) -> int:
    """R13, R22: pips rounded to a multiple of five. ``"nearest"``: a remainder of 1 or 2
    rounds down, 3 or 4 up; ``"up"``: any remainder up; ``"down"``: down; ``"none"``: as is.
    ``rounding`` is a :class:`~.house_rules.Rounding`, or its value as RULES.md writes it (as
    here, and in the web's tables of examples).

    >>> [round_to_five(n) for n in (2, 3, 7, 8, 12, 13)]
    [0, 5, 5, 10, 10, 15]
    >>> [round_to_five(7, how) for how in ("nearest", "up", "down", "none")]
    [5, 10, 5, 7]
    """
    if rounding == Rounding.UP:
        return 5 * ((pips + 4) // 5)
    if rounding == Rounding.DOWN:
        return 5 * (pips // 5)
    if rounding == Rounding.NONE:
        return pips
    return 5 * ((pips + 2) // 5)


def subtract_own(
    pips: Mapping[int, int], sides: Sequence[int], rounding: str = Rounding.NEAREST
) -> tuple[int, ...]:
    """R13: each player's pips, rounded (R22), come off their own side's score."""
    deltas = [0] * (max(sides) + 1)
    for seat, held in pips.items():
        deltas[sides[seat]] -= round_to_five(held, rounding)
    return tuple(deltas)


def winner_takes(
    pips: Mapping[int, int],
    sides: Sequence[int],
    went_out: int | None,
    rounding: str = Rounding.NEAREST,
    rounding_of: str = RoundingOf.TOTAL,
    blocked: str = Blocked.FEWEST_TAKES,
) -> tuple[int, ...]:
    """R13p, R22, R23: the side that went out, or that holds fewest pips on a block, scores.

    ``pips`` has every seat (0 for the one who went out); ``sides`` maps seats to sides.
    On a block with 3 sides, two tied for fewest each score half the third's pips, rounded.

    >>> winner_takes({0: 4, 1: 4, 2: 11}, sides=[0, 1, 2], went_out=None)
    (5, 5, 0)
    >>> winner_takes({0: 3, 1: 4, 2: 3, 3: 2}, sides=[0, 1, 0, 1], went_out=None)
    (0, 0)

    Worked example J: Ana went out, Ben and Cy hold 3 pips each; then a block, Ana 4, Ben 9,
    Cy 13.

    >>> [winner_takes({0: 0, 1: 3, 2: 3}, [0, 1, 2], 0, rounding_of=how)[0]
    ...  for how in ("total", "each-hand")]
    [5, 10]
    >>> [winner_takes({0: 4, 1: 9, 2: 13}, [0, 1, 2], None, blocked=how)[0]
    ...  for how in ("fewest-takes", "difference", "nobody")]
    [20, 15, 0]
    """
    side_count = max(sides) + 1
    held = [0] * side_count
    for seat, amount in pips.items():
        held[sides[seat]] += amount

    def paid(amounts: Sequence[int]) -> int:
        if rounding_of == RoundingOf.EACH_HAND:
            return sum(round_to_five(amount, rounding) for amount in amounts)
        return round_to_five(sum(amounts), rounding)

    deltas = [0] * side_count
    if went_out is not None:
        winner = sides[went_out]
        deltas[winner] = paid([held[side] for side in range(side_count) if side != winner])
        return tuple(deltas)
    if blocked == Blocked.NOBODY:
        return tuple(deltas)
    fewest = min(held)
    leaders = [side for side in range(side_count) if held[side] == fewest]
    others = [held[side] for side in range(side_count) if held[side] != fewest]
    if len(leaders) == 1:
        if blocked == Blocked.DIFFERENCE:
            deltas[leaders[0]] = paid([amount - fewest for amount in others])
        else:
            deltas[leaders[0]] = paid(others)
    elif side_count == 3 and len(leaders) == 2 and blocked == Blocked.FEWEST_TAKES:
        (third,) = (side for side in range(3) if side not in leaders)
        for side in leaders:
            deltas[side] = round_to_five(held[third] // 2, rounding)
    return tuple(deltas)


@dataclass(frozen=True, slots=True)
class Report:
    """What one player says they still hold: a pip total, or the tiles themselves."""

    pips: int
    tiles: tuple[Tile, ...] | None = None

    @classmethod
    def of_tiles(cls, tiles: Sequence[Tile]) -> Report:
        return cls(sum(tile.pips for tile in tiles), tuple(tiles))


def check_reports(
    reports: Mapping[int, Report],
    held: Sequence[int],
    unplayed: Sequence[Tile],
    boneyard: int,
    names: Sequence[str],
    required: bool = True,
) -> None:
    """R14: refuse reports that cannot be true, saying why; return quietly otherwise.

    ``held`` is how many tiles each seat holds, ``unplayed`` every tile not on the table;
    ``required``: every seat holding tiles must report (not under R28, where the tiles left
    are entered only for the audit).
    """
    for seat, count in enumerate(held):
        name = names[seat]
        if count and seat not in reports and required:
            raise ImpossibleReport(
                "report_missing", N_("%(name)s still holds tiles: how many pips?", name=name), "R14"
            )
        if not count and seat in reports and reports[seat].pips:
            raise ImpossibleReport(
                "report_empty_hand",
                N_("%(name)s holds no tiles, so holds no pips", name=name),
                "R14",
            )
    pool = set(unplayed)
    claimed: dict[Tile, str] = {}
    for seat, report in sorted(reports.items()):
        name = names[seat]
        if report.tiles is None:
            continue
        if len(report.tiles) != held[seat]:
            raise ImpossibleReport(
                "report_tile_count",
                NP_(
                    "%(name)s holds %(num)s tile, not %(given)s",
                    "%(name)s holds %(num)s tiles, not %(given)s",
                    held[seat],
                    name=name,
                    given=len(report.tiles),
                ),
                "R14",
            )
        for tile in report.tiles:
            if tile not in pool:
                raise ImpossibleReport(
                    "report_tile_played",
                    N_(
                        "%(tile)s was already played, so %(name)s cannot hold it",
                        tile=str(tile),
                        name=name,
                    ),
                    "R14",
                )
            if tile in claimed:
                if claimed[tile] == name:
                    said = N_("%(tile)s is reported twice", tile=str(tile))
                else:
                    said = N_(
                        "%(tile)s is reported by %(first)s and %(name)s",
                        tile=str(tile),
                        first=claimed[tile],
                        name=name,
                    )
                raise ImpossibleReport("report_tile_twice", said, "R14")
            claimed[tile] = name
    free = tuple(sorted(pool - set(claimed)))
    for seat, report in sorted(reports.items()):
        if report.tiles is not None or not held[seat]:
            continue
        _check_pips(names[seat], held[seat], report.pips, free)
    if boneyard == 0 and all(seat in reports for seat, count in enumerate(held) if count):
        total = sum(report.pips for report in reports.values())
        expected = sum(tile.pips for tile in unplayed)
        if total != expected:
            raise ImpossibleReport(
                "report_total",
                N_(
                    "the boneyard is empty, so the hands hold every unplayed tile: "
                    "%(expected)s pips in all, but the reports add up to %(total)s",
                    expected=expected,
                    total=total,
                ),
                "R14",
            )
    by_pips = [
        (seat, held[seat], report.pips)
        for seat, report in sorted(reports.items())
        if report.tiles is None and held[seat]
    ]
    _check_together(by_pips, free, names)


def _check_together(
    by_pips: list[tuple[int, int, int]], free: tuple[Tile, ...], names: Sequence[str]
) -> None:
    """R14: one way of sharing out the tiles not reported by name gives every pip report.

    Each report alone is possible (checked before); the smallest group of reports that cannot
    all be true is named. Tiles of equal pips are alike here, so the search is over how many
    tiles of each pip value each player holds.
    """
    if len(by_pips) < 2:
        return
    values = tuple(sum(1 for tile in free if tile.pips == v) for v in range(13))
    everyone = tuple((count, pips) for _, count, pips in by_pips)
    if _shared_out(values, everyone, len(free) - sum(count for count, _ in everyone)):
        return
    for size in range(2, len(by_pips) + 1):
        for group in combinations(by_pips, size):
            wanted = tuple((count, pips) for _, count, pips in group)
            spare = len(free) - sum(count for count, _ in wanted)
            if not _shared_out(values, wanted, spare):
                raise ImpossibleReport("report_together", _not_together(group, free, names), "R14")


def _not_together(
    group: tuple[tuple[int, int, int], ...], free: tuple[Tile, ...], names: Sequence[str]
) -> Message:
    who = Items(tuple(names[seat] for seat, _, _ in group), "and")
    pips = {pips for _, _, pips in group}
    both = len(group) == 2
    if all(count == 1 for _, count, _ in group) and len(pips) == 1:
        (value,) = pips
        having = Items(tuple(str(tile) for tile in free if tile.pips == value), "and")
        amount: Param = N_("none") if value == 0 else value
        if both:
            return NP_(
                "%(who)s both report %(value)s pips, but only %(having)s has %(amount)s",
                "%(who)s both report %(value)s pips, but only %(having)s have %(amount)s",
                len(having.values),
                who=who,
                value=value,
                having=having,
                amount=amount,
            )
        return NP_(
            "%(who)s all report %(value)s pips, but only %(having)s has %(amount)s",
            "%(who)s all report %(value)s pips, but only %(having)s have %(amount)s",
            len(having.values),
            who=who,
            value=value,
            having=having,
            amount=amount,
        )
    claims = Items(
        tuple(
            NP_(
                "%(name)s's %(pips)s pips in %(num)s tile",
                "%(name)s's %(pips)s pips in %(num)s tiles",
                count,
                name=names[seat],
                pips=pips,
            )
            for seat, count, pips in group
        ),
        "and",
    )
    shown = Items(tuple(str(tile) for tile in sorted(free, reverse=True)))
    if both:
        return N_(
            "%(claims)s cannot both be true: no way of sharing out the unplayed tiles not "
            "reported by name (%(free)s) gives them",
            claims=claims,
            free=shown,
        )
    return N_(
        "%(claims)s cannot all be true: no way of sharing out the unplayed tiles not "
        "reported by name (%(free)s) gives them",
        claims=claims,
        free=shown,
    )


def _shared_out(values: tuple[int, ...], wanted: tuple[tuple[int, int], ...], spare: int) -> bool:
    """Whether tiles with ``values[v]`` tiles of ``v`` pips give each (count, pips) of
    ``wanted`` a hand of its own, ``spare`` tiles being left over (face down, or with players
    not asked about).

    With nothing spare, the largest hand is what the others leave: the caller has checked
    that the pips add up, so it is dropped and its tiles are the spare ones.
    """
    if spare == 0 and len(wanted) > 1:
        largest = max(range(len(wanted)), key=lambda i: wanted[i][0])
        spare = wanted[largest][0]
        wanted = wanted[:largest] + wanted[largest + 1 :]
    # From value v up: how many tiles, and the smallest and largest totals of k of them.
    ladder = [v for v in range(13) for _ in range(values[v])]
    start = [sum(values[:v]) for v in range(14)]

    def bounds(v: int, count: int) -> tuple[int, int]:
        rest = ladder[start[v] :]
        return sum(rest[:count]), sum(rest[len(rest) - count :]) if count else 0

    @cache
    def search(v: int, left: tuple[tuple[int, int], ...], spare: int) -> bool:
        if v > 12:
            return all(count == 0 and pips == 0 for count, pips in left) and spare == 0
        remaining = len(ladder) - start[v]
        if sum(count for count, _ in left) + spare != remaining:
            return False
        for count, pips in left:
            low, high = bounds(v, count)
            if not low <= pips <= high:
                return False
        low, high = bounds(v, remaining - spare)  # all the hands together
        if not low <= sum(pips for _, pips in left) <= high:
            return False
        for split in _splits(values[v], len(left) + 1):
            *given, kept = split
            if kept > spare:
                continue
            after = []
            for (count, pips), k in zip(left, given, strict=True):
                if k > count or k * v > pips:
                    break
                after.append((count - k, pips - k * v))
            else:
                if search(v + 1, tuple(sorted(after)), spare - kept):  # hands alike, once
                    return True
        return False

    return search(0, tuple(sorted(wanted)), spare)


@lru_cache(maxsize=1024)  # at most 29 × 7 arguments
def _splits(available: int, ways: int) -> tuple[tuple[int, ...], ...]:
    """Every way of sharing exactly ``available`` tiles among ``ways`` places."""
    if ways == 1:
        return ((available,),)
    return tuple(
        (k, *rest) for k in range(available, -1, -1) for rest in _splits(available - k, ways - 1)
    )


def _check_pips(name: str, count: int, pips: int, free: tuple[Tile, ...]) -> None:
    if not isinstance(pips, int) or isinstance(pips, bool) or pips < 0:
        raise ImpossibleReport(
            "report_pips", N_("%(name)s's pips must be a whole number, 0 or more", name=name), "R14"
        )
    values = tuple(sorted(tile.pips for tile in free))
    if count > len(values):
        raise ImpossibleReport(
            "report_tile_count",
            NP_(
                "%(name)s holds %(num)s tile, but only %(unplayed)s are unplayed",
                "%(name)s holds %(num)s tiles, but only %(unplayed)s are unplayed",
                count,
                name=name,
                unplayed=len(values),
            ),
            "R14",
        )
    low, high = sum(values[:count]), sum(values[-count:])
    if pips < low:
        raise ImpossibleReport(
            "report_too_few",
            NP_(
                "%(name)s holds %(num)s tile; one unplayed tile has at least %(low)s pips",
                "%(name)s holds %(num)s tiles; %(spelled)s unplayed tiles total at least "
                "%(low)s pips",
                count,
                name=name,
                spelled=_number(count),
                low=low,
            ),
            "R14",
        )
    if pips > high:
        raise ImpossibleReport(
            "report_too_many",
            NP_(
                "%(name)s holds %(num)s tile; one unplayed tile has at most %(high)s pips",
                "%(name)s holds %(num)s tiles; %(spelled)s unplayed tiles total at most "
                "%(high)s pips",
                count,
                name=name,
                spelled=_number(count),
                high=high,
            ),
            "R14",
        )
    if pips not in _reachable(values, count):
        raise ImpossibleReport(
            "report_impossible",
            NP_(
                "no unplayed tile has exactly %(pips)s pips, so %(name)s cannot hold that",
                "no %(spelled)s unplayed tiles total exactly %(pips)s pips, so %(name)s cannot "
                "hold that",
                count,
                spelled=_number(count),
                pips=pips,
                name=name,
            ),
            "R14",
        )


@lru_cache(maxsize=256)  # a new one per hand settled: bounded
def _reachable(values: tuple[int, ...], count: int) -> frozenset[int]:
    """Every pip total of ``count`` distinct tiles whose pips are ``values``."""
    sums: list[set[int]] = [set() for _ in range(count + 1)]
    sums[0].add(0)
    for value in values:
        for k in range(count, 0, -1):
            sums[k].update(total + value for total in sums[k - 1])
    return frozenset(sums[count])


_NUMBERS = (
    N_("no"),
    N_("one"),
    N_("two"),
    N_("three"),
    N_("four"),
    N_("five"),
    N_("six"),
    N_("seven"),
    N_("eight"),
    N_("nine"),
)


def _number(count: int) -> Param:
    """A count of tiles spelled out, as a sentence says it ("two unplayed tiles")."""
    return _NUMBERS[count] if count < len(_NUMBERS) else count


def deduced_pips(
    reports: Mapping[int, Report], held: Sequence[int], unplayed: Sequence[Tile], boneyard: int
) -> tuple[int, int] | None:
    """R14: with the boneyard empty every unplayed tile is in a hand, so the pips of the one
    player not yet reported are what the others' reports leave: ``(seat, pips)``, or ``None``
    when that does not follow (the boneyard holds tiles, or more than one report is missing).

    >>> deduced_pips({1: Report(13)}, (0, 2, 1), [Tile(6, 5), Tile(1, 1), Tile(3, 4)], 0)
    (2, 7)
    >>> deduced_pips({1: Report(13)}, (0, 2, 1), [Tile(6, 5), Tile(1, 1), Tile(3, 4)], 3) is None
    True
    """
    if boneyard:
        return None
    missing = [seat for seat, count in enumerate(held) if count and seat not in reports]
    if len(missing) != 1:
        return None
    left = sum(tile.pips for tile in unplayed) - sum(report.pips for report in reports.values())
    return (missing[0], left) if left >= 0 else None
