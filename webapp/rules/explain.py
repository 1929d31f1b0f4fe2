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

from .hand import Move, MoveKind
from .layout import Arm, Layout, Placement, arm_name, points_for
from .messages import N_, Message
from .settlement import round_to_five
from .tiles import Tile


@dataclass(frozen=True, slots=True)
class Reason:
    """One sentence of an explanation and the rule of RULES.md it applies (``"R10"``)."""

    rule: str
    text: Message

    def __str__(self) -> str:
        return str(self.said)

    @property
    def said(self) -> Message:
        """The sentence with its rule: ``Count 3 + 2 = 5: ... (R11)``."""
        return N_("%(text)s (%(rule)s)", text=self.text, rule=self.rule)


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
    if move.kind == MoveKind.PLAY and move.tile is not None:
        placement = Placement(move.tile, move.arm, move.count, move.points, move.breakdown)
        return explain_play(move.before, placement)
    if move.kind == MoveKind.DRAW:
        return [
            Reason(
                "R6",
                N_(
                    "A player who cannot play draws from the boneyard, one tile at a time, and "
                    "plays the first tile that fits at once"
                ),
            )
        ]
    if move.kind == MoveKind.PASS:
        return [Reason("R7", N_("A player who cannot play when the boneyard is empty passes"))]
    return []


def explain_count(layout: Layout) -> Reason:
    """R11: the count as arithmetic, and whether it scores.

    >>> print(explain_count(Layout.empty().place(Tile(5, 5), None)))
    Count [5|5] 10 = 10: a multiple of 5, scores 10 (R11)
    """
    count = layout.count
    if points_for(count) and layout.rules.points == "fives":
        verdict = N_(
            "a multiple of 5, %(count)s pips: scores %(points)s in fives",
            count=count,
            points=layout.points,
        )
    elif points_for(count):
        verdict = N_("a multiple of 5, scores %(count)s", count=count)
    elif count == 0:
        verdict = N_("nothing to score")
    else:
        verdict = N_("not a multiple of 5, no points")
    return Reason(
        "R11",
        N_("Count %(breakdown)s: %(verdict)s", breakdown=layout.breakdown, verdict=verdict),
    )


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
        return Reason(
            "R22", N_("%(pips)s pips count as they are: this table does not round", pips=pips)
        )
    if past == 0:
        text = N_(
            "%(pips)s pips are already a multiple of five: %(rounded)s", pips=pips, rounded=rounded
        )
    elif rounding == "up":
        return Reason(
            "R22",
            N_(
                "%(pips)s pips round up to %(rounded)s: this table rounds any remainder up",
                pips=pips,
                rounded=rounded,
            ),
        )
    elif rounding == "down":
        return Reason(
            "R22",
            N_(
                "%(pips)s pips round down to %(rounded)s: this table rounds any remainder down",
                pips=pips,
                rounded=rounded,
            ),
        )
    elif rounded > pips:
        text = N_(
            "%(pips)s pips round up to %(rounded)s: %(pips)s is %(past)s past %(below)s, and 3 "
            "or 4 past rounds up",
            pips=pips,
            rounded=rounded,
            past=past,
            below=below,
        )
    else:
        text = N_(
            "%(pips)s pips round down to %(rounded)s: %(pips)s is %(past)s past %(below)s, and "
            "1 or 2 past rounds down",
            pips=pips,
            rounded=rounded,
            past=past,
            below=below,
        )
    return Reason("R13", text)


# --- the parts of an explanation ---------------------------------------------------------------


def _where(before: Layout, tile: Tile, arm: Arm | None) -> Reason:
    if before.lead is None or arm is None:
        if tile.is_double:
            return Reason("R4", N_("%(tile)s leads: any tile may lead", tile=str(tile)))
        return Reason(
            "R4",
            N_(
                "%(tile)s leads: any tile may lead. Its %(a)s is the left end and its %(b)s the "
                "right end",
                tile=str(tile),
                a=tile.a,
                b=tile.b,
            ),
        )
    pip = before.open_ends[arm]
    if tile.is_double:
        return Reason(
            "R5",
            N_(
                "%(tile)s goes on the %(end)s end, which showed %(pip)s",
                tile=str(tile),
                end=arm_name(arm),
                pip=pip,
            ),
        )
    return Reason(
        "R5",
        N_(
            "%(tile)s goes on the %(end)s end, which showed %(pip)s: its %(other)s now shows there",
            tile=str(tile),
            end=arm_name(arm),
            pip=pip,
            other=tile.other(pip),
        ),
    )


def _double(before: Layout, tile: Tile) -> Reason:
    rules = before.rules
    if not rules.has_spinners:
        return Reason(
            "R17",
            N_(
                "%(tile)s is a double, so it lies crosswise, but with no spinner (Muggins) it "
                "stays in the line: up and down never open",
                tile=str(tile),
            ),
        )
    if before.spinner is not None and rules.makes_spinner(tile, len(before.spinners)):
        return Reason(
            "R17",
            N_(
                "%(tile)s is a double, and every double is a spinner (Five Up): once both its "
                "sides are covered, its ends %(tile)s up and %(tile)s down open",
                tile=str(tile),
            ),
        )
    if before.spinner is None:
        return Reason(
            "R9",
            N_(
                "%(tile)s is the first double played, so it is the spinner; doubles lie crosswise",
                tile=str(tile),
            ),
        )
    return Reason(
        "R9",
        N_(
            "%(tile)s is a double, so it lies crosswise, but it is no spinner: only the first "
            "double played (%(spinner)s) spins",
            tile=str(tile),
            spinner=str(before.spinner),
        ),
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
                N_(
                    "Both sides of the spinner %(spinner)s are covered: up and down are open, "
                    "each showing %(pip)s",
                    spinner=str(spinner),
                    pip=spinner.a,
                ),
            )
        ]
    covered = after.spinner_sides_covered()
    if after.spinner_arm is not None:
        text = N_(
            "The line covers one side of the spinner %(spinner)s; a tile on its free side opens "
            "up and down",
            spinner=str(spinner),
        )
    elif covered == 0:
        text = N_(
            "Up and down open once both sides of the spinner %(spinner)s are covered",
            spinner=str(spinner),
        )
    else:
        text = N_(
            "The spinner %(spinner)s has %(covered)s of 2 sides covered: up and down open once "
            "a tile covers the other",
            spinner=str(spinner),
            covered=covered,
        )
    return [Reason("R10", text)]


def _counting(before: Layout, after: Layout, tile: Tile, arm: Arm | None) -> list[Reason]:
    """R8/R11: the parts of the count a new player gets wrong: lone leads, doubles, spinner."""
    reasons = []
    if before.lead is None:
        if tile.is_double:
            text = N_(
                "A lone lead counts both its halves once: %(pips)s, not %(twice)s",
                pips=tile.pips,
                twice=2 * tile.pips,
            )
        else:
            text = N_("A lone lead counts both its halves: %(pips)s", pips=tile.pips)
        reasons.append(Reason("R11", text))
        return reasons
    spinner_counts = [t for t in after.end_values if t.tile == after.spinner]
    if spinner_counts and after.spinner is not None and not after.branches_open:
        value = spinner_counts[0].value
        reasons.append(
            Reason(
                "R11",
                N_("The spinner counts both halves, %(value)s, while a side is open", value=value),
            )
        )
    elif after.branches_open and not before.branches_open:
        reasons.append(
            Reason(
                "R11",
                N_(
                    "The spinner stops counting once both its sides are covered, like any tile "
                    "inside the line"
                ),
            )
        )
    if tile.is_double and tile != after.spinner and arm is not None:
        if after.rules.doubles == "one-half":
            text = N_("A double at the end of an arm counts one half here: %(pips)s", pips=tile.a)
            reasons.append(Reason("R18", text))
        else:
            text = N_("A double at the end of an arm counts both halves: %(pips)s", pips=tile.pips)
            reasons.append(Reason("R8", text))
    covered = [t for t in before.end_values if t.arm is arm and t.tile.is_double]
    if arm is not None and covered and covered[0].tile != before.spinner:
        double = covered[0].tile
        reasons.append(
            Reason(
                "R8",
                N_(
                    "%(double)s stops counting both halves: %(tile)s now covers its free side",
                    double=str(double),
                    tile=str(tile),
                ),
            )
        )
    return reasons
