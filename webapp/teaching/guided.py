"""The guided first hand, ``/learn/<step>``: the scripted hand of ``lesson.py`` a step at a
time, with the tiles in every hand, the layout, the scores and why."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from flask import abort, url_for
from flask.typing import ResponseReturnValue

from ..i18n.words import end_name, gettext
from ..rules import Layout, Options, Tile
from ..rules.explain import Reason
from ..rules.messages import N_
from ..ui.labels import Why, reasons
from ..ui.layouts import Picture
from ..web.pages import render_page
from . import bp, lesson


@dataclass(frozen=True, slots=True)
class TileChip:
    """A tile in a row of tiles: its name, its halves as drawn (high first), and whether it is
    the one played (marked) or another that would also have fitted."""

    name: str
    drawn: str
    marked: bool = False
    fits: bool = False


@dataclass(frozen=True, slots=True)
class Holding:
    """A player's tiles after the step and, once the hand is settled, their pips, rounded, and
    what settling took (R13)."""

    name: str
    tiles: tuple[TileChip, ...]
    pips: int = 0
    rounded: int = 0
    settled: int = 0


@dataclass(frozen=True, slots=True)
class StepScore:
    name: str
    score: int
    change: int  # by this step


@dataclass(frozen=True, slots=True)
class GuidedStep:
    """Step ``number`` of ``total`` of the guided hand: what happened and why."""

    number: int
    total: int
    kind: str  # the action's kind: start_hand, play, draw or end_hand
    headline: str
    tip: str
    who: str  # who acted (the leader, at the start)
    tile: str | None  # the tile played or drawn
    arm: str | None  # the end it was played on, in words
    went_out: str | None
    players: tuple[str, ...]
    hand_size: int
    boneyard_size: int
    standard_deal: int  # the tiles each would draw without the sample's deal option
    goal: int
    hands: tuple[Holding, ...]  # every player's tiles after the step
    settled: bool  # the hand was settled at this step
    held: tuple[TileChip, ...]  # the actor's tiles before the action
    view: Picture
    points: int
    scores: tuple[StepScore, ...]
    open_ends: tuple[int, ...]  # the pips the open ends showed before the action
    reasons: tuple[Why, ...]
    back_url: str | None
    next_url: str | None


@bp.get("/learn")
@bp.get("/learn/<int:number>")
def learn(number: int = 1) -> ResponseReturnValue:
    """Step ``number`` (from 1) of the guided first hand."""
    steps = lesson.steps()
    if not 1 <= number <= len(steps):
        abort(
            404,
            gettext(
                "The guided hand has steps 1 to %(last)s: there is no step %(number)s.",
                last=len(steps),
                number=number,
            ),
        )
    step = steps[number - 1]
    state = step.state
    options = state.options
    hand = state.hand
    assert hand is not None
    move = hand.moves[-1] if hand.moves else None
    played = move is not None and step.kind == "play"
    before = step.before.hand.layout if step.before.hand else Layout()
    result = step.outcome.result
    page = GuidedStep(
        number=number,
        total=len(steps),
        kind=step.kind,
        headline=str(step.line.headline),
        tip=str(step.line.tip),
        who=state.name(hand.leader if step.seat is None else step.seat),
        tile=str(step.tile) if step.tile else None,
        arm=end_name(move.arm, in_a_sentence=True) if played and move and move.arm else None,
        went_out=state.name(hand.went_out) if hand.went_out is not None else None,
        players=options.players,
        hand_size=options.hand_size,
        boneyard_size=options.boneyard_size,
        standard_deal=_standard_deal(),
        goal=options.goal,
        hands=tuple(
            Holding(
                name=holding.name,
                tiles=_chips(holding.tiles),
                pips=result.pips[holding.seat] if result else 0,
                rounded=result.rounded[holding.seat] if result else 0,
                settled=result.settled[holding.seat] if result else 0,
            )
            for holding in step.hands
        ),
        settled=result is not None,
        held=_chips(step.held, step.tile if step.kind == "play" else None, step.fitting),
        view=Picture.of(hand.layout, move.tile if played and move else None),
        points=step.outcome.points,
        scores=tuple(
            StepScore(name=state.name(seat), score=score, change=score - step.before.scores[seat])
            for seat, score in enumerate(state.scores)
        ),
        open_ends=tuple(pip for _, pip in before.open_ends.items()),
        reasons=reasons(step.reasons) + _story_reasons(step),
        back_url=url_for(".learn", number=number - 1) if number > 1 else None,
        next_url=url_for(".learn", number=number + 1) if number < len(steps) else None,
    )
    return render_page("teaching/learn.html", page)


def _chips(
    tiles: tuple[Tile, ...], marked: Tile | None = None, fitting: Collection[Tile] = ()
) -> tuple[TileChip, ...]:
    return tuple(
        TileChip(
            name=str(tile),
            drawn=f"{tile.key[0]}-{tile.key[1]}",
            marked=marked is not None and tile == marked,
            fits=tile in fitting,
        )
        for tile in tiles
    )


def _story_reasons(step: lesson.Step) -> tuple[Why, ...]:
    """The rules a step shows beyond the play itself: going out, settling, who leads next."""
    state = step.state
    hand = state.hand
    assert hand is not None
    found = []
    if step.kind == "start_hand":
        found = [
            Reason("R1", N_("Each player draws a hand; the rest stay face down as the boneyard")),
            Reason("R3", N_("The first leader is picked by lot")),
            Reason("R4", N_("The leader may lead any tile")),
        ]
    if step.kind == "play" and hand.went_out is not None and step.outcome.result is None:
        name = state.name(hand.went_out)
        found.append(
            Reason("R12", N_("%(name)s played their last tile: the hand ends at once", name=name))
        )
    if step.outcome.result is not None and hand.went_out is not None:
        name = state.name(hand.went_out)
        found.append(
            Reason("R13", N_("%(name)s went out, holds nothing and loses nothing", name=name))
        )
    if step.outcome.result is not None and state.next_leader is not None:
        name = state.name(state.next_leader)
        found.append(
            Reason("R3", N_("%(name)s went out, so %(name)s leads the next hand", name=name))
        )
    return reasons(found)


def _standard_deal() -> int:
    return Options.make(list(lesson.PLAYERS)).hand_size
