"""Why a play scored or not, in sentences that cite RULES.md: the teaching side of the engine.

Each sentence is a :class:`Reason` carrying the rule it applies, so a page can link it to the
rules. Nothing here changes what is legal or what scores; it reads :class:`Layout` and says why.

Worked example A of RULES.md, step 3 (``2-6`` on the right, beside the spinner ``2-2``):

>>> before = Layout.empty().place(Tile(3, 2), None).place(Tile(2, 2), Arm.RIGHT)
>>> for reason in explain_play(before, before.placements(Tile(2, 6))[0]):
...     print(reason)
2-6 goes on the right end, which showed 2: its 6 now shows there (R5)
Both sides of the spinner 2-2 are covered: up and down are open, each showing 2 (R10)
The spinner stops counting once both its sides are covered, like any tile inside the line (R11)
Count 3 + 6 = 9: not a multiple of 5, no points (R11)
"""

from __future__ import annotations

from dataclasses import dataclass

from .hand import Move
from .layout import Arm, Layout, Placement, points_for
from .settlement import round_to_five
from .tiles import Tile


@dataclass(frozen=True, slots=True)
class Reason:
    """One sentence of an explanation and the rule of RULES.md it applies (``"R10"``)."""

    rule: str
    text: str

    def __str__(self) -> str:
        return f"{self.text} ({self.rule})"


def explain_play(before: Layout, placement: Placement) -> list[Reason]:
    """Why ``placement`` on ``before`` is allowed and why it scored what it did (R4–R11).

    ``placement`` is one of ``before.placements(tile)`` (or a play replayed from a hand's
    record); the layout after it is recomputed here, so the sentences always match the rules.
    """
    tile, arm = placement.tile, placement.arm
    after = before.place(tile, arm)
    reasons = [_where(before, tile, arm)]
    if tile.is_double:
        reasons.append(_double(before, tile))
    reasons.extend(_spinner_sides(before, after))
    reasons.extend(_counting(before, after, tile, arm))
    reasons.append(explain_count(after))
    return reasons


def explain_move(move: Move) -> list[Reason]:
    """The explanation of one entry of a hand's record: a play, a draw (R6) or a pass (R7)."""
    if move.kind == "play" and move.tile is not None:
        placement = Placement(move.tile, move.arm, move.count, move.points, move.breakdown)
        return explain_play(move.before, placement)
    if move.kind == "draw":
        return [
            Reason(
                "R6",
                "A player who cannot play draws from the boneyard, one tile at a time, and "
                "plays the first tile that fits at once",
            )
        ]
    if move.kind == "pass":
        return [Reason("R7", "A player who cannot play when the boneyard is empty passes")]
    return []


def explain_count(layout: Layout) -> Reason:
    """R11: the count as arithmetic, and whether it scores.

    >>> print(explain_count(Layout.empty().place(Tile(5, 5), None)))
    Count [5|5] 10 = 10: a multiple of 5, scores 10 (R11)
    """
    count = layout.count
    if points_for(count) and layout.rules.points == "fives":
        verdict = f"a multiple of 5, {count} pips: scores {layout.points} in fives"
    elif points_for(count):
        verdict = f"a multiple of 5, scores {count}"
    elif count == 0:
        verdict = "nothing to score"
    else:
        verdict = "not a multiple of 5, no points"
    return Reason("R11", f"Count {layout.breakdown}: {verdict}")


def explain_rounding(pips: int, rounding: str = "nearest") -> Reason:
    """R13, R22: how a hand's pips round to five under the game's ``rounding``.

    >>> print(explain_rounding(13))
    13 pips round up to 15: 13 is 3 past 10, and 3 or 4 past rounds up (R13)
    >>> print(explain_rounding(7))
    7 pips round down to 5: 7 is 2 past 5, and 1 or 2 past rounds down (R13)
    >>> print(explain_rounding(11, "up"))
    11 pips round up to 15: this table rounds any remainder up (R22)
    >>> print(explain_rounding(7, "none"))
    7 pips count as they are: this table does not round (R22)
    """
    rounded = round_to_five(pips, rounding)
    past = pips % 5
    below = pips - past
    if rounding == "none":
        return Reason("R22", f"{pips} pips count as they are: this table does not round")
    if past == 0:
        text = f"{pips} pips are already a multiple of five: {rounded}"
    elif rounding in ("up", "down"):
        way = "up" if rounding == "up" else "down"
        return Reason(
            "R22", f"{pips} pips round {way} to {rounded}: this table rounds any remainder {way}"
        )
    elif rounded > pips:
        text = (
            f"{pips} pips round up to {rounded}: {pips} is {past} past {below}, "
            "and 3 or 4 past rounds up"
        )
    else:
        text = (
            f"{pips} pips round down to {rounded}: {pips} is {past} past {below}, "
            "and 1 or 2 past rounds down"
        )
    return Reason("R13", text)


# --- the parts of an explanation ---------------------------------------------------------------


def _where(before: Layout, tile: Tile, arm: Arm | None) -> Reason:
    if before.lead is None or arm is None:
        if tile.is_double:
            return Reason("R4", f"{tile} leads: any tile may lead")
        return Reason(
            "R4",
            f"{tile} leads: any tile may lead. Its {tile.a} is the left end and its {tile.b} "
            "the right end",
        )
    pip = before.open_ends[arm]
    if tile.is_double:
        return Reason("R5", f"{tile} goes on the {arm} end, which showed {pip}")
    return Reason(
        "R5",
        f"{tile} goes on the {arm} end, which showed {pip}: its {tile.other(pip)} now shows there",
    )


def _double(before: Layout, tile: Tile) -> Reason:
    rules = before.rules
    if not rules.has_spinners:
        return Reason(
            "R17",
            f"{tile} is a double, so it lies crosswise, but with no spinner (Muggins) it stays "
            "in the line: up and down never open",
        )
    if before.spinner is not None and rules.makes_spinner(tile, len(before.spinners)):
        return Reason(
            "R17",
            f"{tile} is a double, and every double is a spinner (Five Up): once both its sides "
            f"are covered, its ends {tile} up and {tile} down open",
        )
    if before.spinner is None:
        return Reason(
            "R9", f"{tile} is the first double played, so it is the spinner; doubles lie crosswise"
        )
    return Reason(
        "R9",
        f"{tile} is a double, so it lies crosswise, but it is no spinner: only the first "
        f"double played ({before.spinner}) spins",
    )


def _spinner_sides(before: Layout, after: Layout) -> list[Reason]:
    """R10: what the play did to the spinner's sides, when there is a spinner."""
    spinner = after.spinner
    if spinner is None or before.branches_open:
        return []
    if after.branches_open:
        return [
            Reason(
                "R10",
                f"Both sides of the spinner {spinner} are covered: up and down are open, "
                f"each showing {spinner.a}",
            )
        ]
    covered = after.spinner_sides_covered()
    if after.spinner_arm is not None:
        text = (
            f"The line covers one side of the spinner {spinner}; a tile on its free side "
            "opens up and down"
        )
    elif covered == 0:
        text = f"Up and down open once both sides of the spinner {spinner} are covered"
    else:
        text = (
            f"The spinner {spinner} has {covered} of 2 sides covered: up and down open "
            "once a tile covers the other"
        )
    return [Reason("R10", text)]


def _counting(before: Layout, after: Layout, tile: Tile, arm: Arm | None) -> list[Reason]:
    """R8/R11: the parts of the count a new player gets wrong: lone leads, doubles, spinner."""
    reasons = []
    if before.lead is None:
        once = f" once: {tile.pips}, not {2 * tile.pips}" if tile.is_double else f": {tile.pips}"
        reasons.append(Reason("R11", f"A lone lead counts both its halves{once}"))
        return reasons
    spinner_counts = [t for t in after.end_values if t.tile == after.spinner]
    if spinner_counts and after.spinner is not None and not after.branches_open:
        value = spinner_counts[0].value
        reasons.append(
            Reason("R11", f"The spinner counts both halves, {value}, while a side is open")
        )
    elif after.branches_open and not before.branches_open:
        reasons.append(
            Reason(
                "R11",
                "The spinner stops counting once both its sides are covered, like any tile "
                "inside the line",
            )
        )
    if tile.is_double and tile != after.spinner and arm is not None:
        if after.rules.doubles == "one-half":
            text = f"A double at the end of an arm counts one half here: {tile.a}"
            reasons.append(Reason("R18", text))
        else:
            text = f"A double at the end of an arm counts both halves: {tile.pips}"
            reasons.append(Reason("R8", text))
    covered = [t for t in before.end_values if t.arm is arm and t.tile.is_double]
    if arm is not None and covered and covered[0].tile != before.spinner:
        double = covered[0].tile
        reasons.append(
            Reason("R8", f"{double} stops counting both halves: {tile} now covers its free side")
        )
    return reasons
