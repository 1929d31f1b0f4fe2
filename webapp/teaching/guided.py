"""The guided first hand, ``/learn/<step>``: the scripted hand of ``lesson.py`` a step at a
time, with the tiles in every hand, the layout, the scores and why."""

from __future__ import annotations

from flask import abort, render_template, url_for
from flask.typing import ResponseReturnValue

from ..i18n.words import end_name, gettext
from ..rules import Layout, Options
from ..rules.explain import Reason
from ..rules.messages import N_
from ..ui.labels import Why, reasons
from ..ui.layouts import Picture
from . import bp, lesson


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
    hand = state.hand
    assert hand is not None
    move = hand.moves[-1] if hand.moves else None
    played = move is not None and step.kind == "play"
    before = step.before.hand.layout if step.before.hand else Layout()
    return render_template(
        "teaching/learn.html",
        step=step,
        number=number,
        total=len(steps),
        view=Picture.of(hand.layout, move.tile if played and move else None),
        points=step.outcome.points,
        scores=[
            {"name": state.name(seat), "score": score, "change": score - step.before.scores[seat]}
            for seat, score in enumerate(state.scores)
        ],
        who=state.name(hand.leader if step.seat is None else step.seat),
        laid=move.tile if played and move else None,
        arm=end_name(move.arm) if played and move and move.arm else None,
        open_ends=[pip for _, pip in before.open_ends.items()],
        reasons=reasons(step.reasons) + _story_reasons(step),
        result=step.outcome.result,
        went_out=state.name(hand.went_out) if hand.went_out is not None else None,
        standard_deal=_standard_deal(),
        options=state.options,
        back_url=url_for(".learn", number=number - 1) if number > 1 else None,
        next_url=url_for(".learn", number=number + 1) if number < len(steps) else None,
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
