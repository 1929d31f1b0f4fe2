"""The guided first hand: a scripted sample hand, folded through the rules engine step by step.

The script says only what the table does (who plays which tile where, who draws what) and what
each player was dealt, so the page can show the tiles in hand. Every count, point, score, the
settlement and the explanations come from ``webapp.rules`` as each action is applied. The hand is
worked example A of RULES.md, played on until Ana goes out, then settled as in example C.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from flask_babel import LazyString

from ..i18n.words import lazy_gettext
from ..rules import (
    Action,
    Arm,
    Draw,
    EndHand,
    GameState,
    Options,
    Outcome,
    Play,
    StartHand,
    Tile,
)
from ..rules.explain import Reason, explain_move, explain_rounding

PLAYERS = ("Ana", "Ben", "Cy")
DEAL_OPTION = "5"  # five tiles each, so that the hand is short enough to read through

# What each seat was dealt, and what the draws of the hand turn up (in order, per seat).
DEALT = {
    0: ("3-2", "2-4", "4-4", "6-4", "0-0"),
    1: ("2-2", "3-1", "2-5", "6-1", "3-3"),
    2: ("2-6", "6-6", "1-0", "5-0", "3-4"),
}
DRAWN = {1: ("3-0",)}


@dataclass(frozen=True, slots=True)
class Line:
    """One scripted action, with the headline and the tip a new player reads beside it."""

    action: Action | None  # None: settle the hand with what each player still holds
    headline: LazyString  # said in the reader's language when printed
    tip: LazyString


def _play(tile: str, arm: str | None = None) -> Play:
    return Play(Tile.parse(tile), Arm(arm) if arm else None)


SCRIPT = (
    Line(
        StartHand(0),
        lazy_gettext("Deal, and who leads"),
        lazy_gettext("You can see every hand here. At a real table you see only your own tiles."),
    ),
    Line(
        _play("3-2"),
        lazy_gettext("The lead"),
        lazy_gettext(
            "Any tile can lead. Its first half becomes the left end and its second the right end."
        ),
    ),
    Line(
        _play("2-2", "right"),
        lazy_gettext("The spinner"),
        lazy_gettext(
            "The first double of the hand is the spinner: later it opens two more ends, up and "
            "down."
        ),
    ),
    Line(
        _play("2-6", "right"),
        lazy_gettext("Sides before ends"),
        lazy_gettext(
            "Nobody may play on the spinner's up or down end until both of its long sides are "
            "covered."
        ),
    ),
    Line(
        _play("2-4", "up"),
        lazy_gettext("Playing up"),
        lazy_gettext("Up and down are ends like left and right now."),
    ),
    Line(
        _play("3-1", "left"),
        lazy_gettext("Four arms to choose from"),
        lazy_gettext("Play goes round the table: Ana, Ben, Cy, then Ana again."),
    ),
    Line(
        _play("6-6", "right"),
        lazy_gettext("A double at an end"),
        lazy_gettext(
            "A double at the end of an arm counts both its halves until a tile covers it."
        ),
    ),
    Line(
        _play("4-4", "up"),
        lazy_gettext("Another double"),
        lazy_gettext(
            "Only the first double is a spinner. Later doubles are laid crosswise and count double."
        ),
    ),
    Line(
        _play("2-5", "down"),
        lazy_gettext("All four ends open"),
        lazy_gettext("With four ends open the count can get big. Watch for a multiple of five."),
    ),
    Line(
        _play("1-0", "left"),
        lazy_gettext("A big score"),
        lazy_gettext("Covering the 1 with a blank took the count to a multiple of five."),
    ),
    Line(
        _play("6-4", "right"),
        lazy_gettext("Covering a double"),
        lazy_gettext("Once a tile goes on its free side, a double inside the line counts nothing."),
    ),
    Line(
        Draw(1),
        lazy_gettext("Drawing"),
        lazy_gettext("Drawing is never a choice: a player who can play must play."),
    ),
    Line(
        _play("3-0", "left"),
        lazy_gettext("Play what you draw"),
        lazy_gettext(
            "The drawn tile fits, so Ben plays it at once. It is still his turn until he does."
        ),
    ),
    Line(
        _play("5-0", "down"),
        lazy_gettext("Counting blanks"),
        lazy_gettext(
            "A blank end counts nothing, which makes it easy to land on a multiple of five."
        ),
    ),
    Line(
        _play("0-0", "down"),
        lazy_gettext("Going out"),
        lazy_gettext("Playing your last tile ends the hand at once: you went out, or ‘domino’."),
    ),
    Line(
        None,
        lazy_gettext("Settling the hand"),
        lazy_gettext(
            "Everyone else counts the pips left in their hand and loses them, rounded to five."
        ),
    ),
)


@dataclass(frozen=True, slots=True)
class Holding:
    """One player's tiles at a step, each marked if it is the one played or drawn."""

    seat: int
    name: str
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Step:
    """A step of the guided hand: the action, the state after it, and why."""

    number: int
    line: Line
    before: GameState
    state: GameState
    outcome: Outcome
    seat: int | None  # who acted
    tile: Tile | None  # the tile played or drawn
    held: tuple[Tile, ...]  # the actor's tiles before the action
    fitting: tuple[Tile, ...]  # which of ``held`` could be played then (per the rules)
    hands: tuple[Holding, ...]  # every player's tiles after the action
    reasons: tuple[Reason, ...]

    @property
    def kind(self) -> str:
        return self.outcome.kind


def options() -> Options:
    return Options.make(list(PLAYERS), deal=DEAL_OPTION)


@lru_cache(maxsize=1)
def steps() -> tuple[Step, ...]:
    """The whole guided hand, computed once by the rules engine."""
    state = GameState.new(options())
    hands = {seat: [Tile.parse(t) for t in tiles] for seat, tiles in DEALT.items()}
    draws = {seat: [Tile.parse(t) for t in tiles] for seat, tiles in DRAWN.items()}
    found = []
    for number, line in enumerate(SCRIPT):
        action = line.action or _settlement(hands)
        seat = state.turn
        held = tuple(hands[seat]) if seat is not None else ()
        fitting = tuple(t for t in held if state.placements(t)) if seat is not None else ()
        before = state
        state, outcome = state.apply(action)
        tile: Tile | None = None
        reasons: tuple[Reason, ...] = ()
        if isinstance(action, Play) and seat is not None:
            hands[seat].remove(action.tile)
            tile = action.tile
            reasons = tuple(_why(state))
        elif isinstance(action, Draw) and seat is not None:
            tile = draws[seat].pop(0)
            hands[seat].append(tile)
            reasons = tuple(_why(state))
        elif isinstance(action, EndHand) and outcome.result is not None:
            reasons = tuple(explain_rounding(p) for p in outcome.result.pips if p)
        holdings = tuple(Holding(s, state.name(s), tuple(hands[s])) for s in range(len(PLAYERS)))
        found.append(
            Step(
                number,
                line,
                before,
                state,
                outcome,
                seat,
                tile,
                held,
                fitting,
                holdings,
                reasons,
            )
        )
    return tuple(found)


def _why(state: GameState) -> list[Reason]:
    assert state.hand is not None
    return explain_move(state.hand.moves[-1])


def _settlement(hands: dict[int, list[Tile]]) -> EndHand:
    """R13/R14: what each player still holds is reported as the tiles themselves."""
    return EndHand.of({seat: list(tiles) for seat, tiles in hands.items() if tiles})
