"""Teaching pages: learning mode on the game screen, the practice board, the guided first hand,
and the drawn examples of the rules page.

Every count, point, placement and explanation is asked of ``webapp.rules`` (``Layout``,
``rules.practice.Board``, ``rules.explain``); these views only pick what to show. The practice
board and the guided hand store nothing: the practice board lives in its URL.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask.blueprints import BlueprintSetupState
from flask.typing import ResponseReturnValue
from markupsafe import Markup, escape

from ..i18n.words import end_name, gettext, say, say_capitalized
from ..rules import Layout, Options, RuleError, Tile
from ..rules.explain import Reason, explain_play
from ..rules.layout import Placement
from ..rules.messages import N_
from ..rules.options import PRESET_LIST, PRESETS
from ..rules.practice import Board, Step
from ..rules.settlement import round_to_five
from ..ui.labels import Why, reasons
from ..ui.layouts import Picture
from ..ui.picker import picker_tiles
from . import lesson

bp = Blueprint("teaching", __name__)


# --- drawn layouts: the practice board, the guided hand, the rules page ---------------------------


@dataclass(frozen=True, slots=True)
class Diagram:
    """A drawn example of the rules page: the layout, the points of its last play, and where
    to try it on the practice board."""

    picture: Picture
    points: int
    practice_url: str | None


@cache
def diagram(notation: str, preset: str = "seed", **rules: str) -> Diagram:
    """A small drawn example for the rules page, from a board written like the practice URL
    and played by a preset's rules (R17, R18): the layout, its count, the points of its last
    play, and a link to try it on the practice board (which plays presets, not single rules)."""
    variant = Options.make(["Ana", "Ben"], False, preset, **rules).variant
    board = Board.parse(notation, variant)
    last = board.last
    return Diagram(
        Picture.of(board.layout, last.tile if last else None),
        last.points if last else 0,
        None if rules else _practice_url(board, preset),
    )


_TILE_NAME = re.compile(r"\b(\d-\d)\b")


def tile_names(text: str) -> Markup:
    """Text with each tile name (``6-4``) kept on one line: a name split at its hyphen misreads."""
    return Markup(_TILE_NAME.sub(r'<span class="tile-name">\1</span>', str(escape(say(text)))))


def _register(state: BlueprintSetupState) -> None:
    state.app.jinja_env.globals.update(diagram=diagram, round_to_five=round_to_five)
    state.app.jinja_env.filters["tile_names"] = tile_names


bp.record_once(_register)


# --- the rules page ---------------------------------------------------------------------------


@bp.get("/rules")
def rules() -> ResponseReturnValue:
    return render_template("teaching/rules.html", presets=PRESET_LIST)


# --- the practice board -------------------------------------------------------------------------


@bp.get("/practice")
def practice() -> ResponseReturnValue:
    """A layout built by tapping tiles; the board is the ``p`` query string, nothing is stored.

    ``add`` (a tile, or ``tile:end``) plays one more tile and redirects to the new board.
    """
    rules = request.args.get("rules", "seed")
    preset = rules if rules in PRESETS else "seed"  # R17, R18: the board plays a preset's rules
    variant = Options.make(["Ana", "Ben"], False, preset).variant
    board, refusal = Board.read(request.args.get("p", ""), variant)
    if refusal is not None:
        notice = _refusal(refusal, gettext("This board link has a mistake"))
        return _practice_page(board, preset, notice=notice, kept=True), 400
    added = request.args.get("add")
    if added is None:
        return _practice_page(board, preset)
    try:
        step = Step.parse(added[:20])
        places = board.places(step.tile)
        if step.arm is None and board.layout.lead is not None and len(places) > 1:
            return _practice_page(board, preset, choice=(step.tile, places))
        board = board.add(step.tile, step.arm)
    except RuleError as refused:
        return _practice_page(board, preset, notice=_refusal(refused, gettext("Not allowed"))), 422
    return redirect(_practice_url(board, preset), 303)


def _practice_url(board: Board, preset: str = "seed") -> str:
    """The board's own address: its plays in the query string (none for the empty board),
    and the preset it is played by unless it is the standard one."""
    found: dict[str, Any] = {} if preset == "seed" else {"rules": preset}
    if board.notation:
        found["p"] = board.notation
    return url_for("teaching.practice", **found)


def _refusal(refusal: RuleError, title: str) -> dict[str, Any]:
    text = say_capitalized(refusal.message)
    return {"tone": "refused", "title": title, "text": text, "rule": refusal.rule}


def _practice_page(
    board: Board,
    preset: str,
    notice: dict[str, Any] | None = None,
    choice: tuple[Tile, tuple[Placement, ...]] | None = None,
    kept: bool = False,
) -> str:
    last = board.last
    layout = board.layout
    rows: list[dict[str, Any]] = []
    for tile, places in board.what_if():
        rows.append(
            {
                "tile": str(tile),
                "best": max((place.points for place in places), default=0),
                "places": [_place_data(board, place, preset) for place in places],
            }
        )
    picker = picker_tiles(layout.tiles, board.placements, layout.lead is None)
    return render_template(
        "teaching/practice.html",
        board=board,
        view=Picture.of(layout, last.tile if last else None),
        last=last,
        points=last.points if last else 0,
        reasons=reasons(explain_play(board.before, last)) if last else [],
        picker=picker,
        scoring=sorted((r for r in rows if r["best"]), key=lambda r: -r["best"]),
        fitting=[r for r in rows if r["places"] and not r["best"]],
        stuck=[r["tile"] for r in rows if not r["places"]],
        open_ends=sorted({pip for _, pip in layout.open_ends.items()}, reverse=True),
        undo_url=_practice_url(board.undo(), preset),
        clear_url=_practice_url(Board(), preset),
        cancel_url=_practice_url(board, preset),
        preset=preset,
        presets=PRESET_LIST,
        notice=notice,
        kept=kept,
        choice=(
            {
                "tile": str(choice[0]),
                "places": [_place_data(board, p, preset) for p in choice[1]],
            }
            if choice
            else None
        ),
    )


def _place_data(board: Board, place: Placement, preset: str) -> dict[str, Any]:
    return {
        "arm": place.arm.value if place.arm else "lead",
        "name": end_name(place.arm) if place.arm else gettext("lead"),
        "points": place.points,
        "count": place.count,
        "breakdown": place.breakdown,
        "url": _practice_url(board.add(place.tile, place.arm), preset),
    }


# --- the guided first hand ----------------------------------------------------------------------


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
