"""The practice board: a layout built by tapping tiles, with what every tile would score
there. Nothing is stored: the board is its URL (``?p=5-5,5-3:left``), played by a preset's
rules (``rules=``)."""

from __future__ import annotations

from typing import Any

from flask import redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from ..i18n.words import end_name, gettext, say_capitalized
from ..rules import Options, RuleError, Tile
from ..rules.explain import explain_play
from ..rules.layout import Placement
from ..rules.options import PRESET_LIST, PRESETS
from ..rules.practice import Board, Step
from ..ui.labels import reasons
from ..ui.layouts import Picture
from ..ui.picker import picker_tiles
from . import bp


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
    return redirect(practice_url(board, preset), 303)


def practice_url(board: Board, preset: str = "seed") -> str:
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
        undo_url=practice_url(board.undo(), preset),
        clear_url=practice_url(Board(), preset),
        cancel_url=practice_url(board, preset),
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
        "url": practice_url(board.add(place.tile, place.arm), preset),
    }
