"""The practice board: a layout built by tapping tiles, with what every tile would score
there. Nothing is stored: the board is its URL (``?p=5-5,5-3:left``), played by a preset's
rules (``rules=``)."""

from __future__ import annotations

from dataclasses import dataclass

from flask import redirect, request, url_for
from flask.typing import ResponseReturnValue

from ..i18n.words import end_name, gettext, say_capitalized
from ..rules import Arm, Options, RuleError, Tile
from ..rules.explain import explain_play
from ..rules.layout import Placement
from ..rules.options import PRESETS
from ..rules.practice import Board, Step
from ..ui.forms import PresetChoice, preset_choices
from ..ui.labels import Why, reasons
from ..ui.layouts import Picture
from ..ui.picker import PickerTile, picker_tiles
from ..web.pages import render_page
from . import bp


@dataclass(frozen=True, slots=True)
class Place:
    """A place a tile could go now: its end (the form value, ``lead`` for a lead, its name
    alone and inside a sentence), the count it would leave, its points, and the board with the
    tile played there."""

    arm: str
    name: str
    in_a_sentence: str
    points: int
    count: int
    breakdown: str
    url: str


@dataclass(frozen=True, slots=True)
class WhatIf:
    """A tile not on the board, its best points and every place it could go."""

    tile: str
    best: int
    places: tuple[Place, ...]


@dataclass(frozen=True, slots=True)
class Choice:
    """A tile tapped that fits more than one end: where it could go."""

    tile: str
    places: tuple[Place, ...]


@dataclass(frozen=True, slots=True)
class Refused:
    """Why a board link or a tile was refused, with its rule."""

    title: str
    text: str
    rule: str | None


@dataclass(frozen=True, slots=True)
class LastPlay:
    tile: str
    arm: Arm | None  # None: the lead


@dataclass(frozen=True, slots=True)
class PracticePage:
    preset: str  # the preset the board plays by (R17, R18)
    presets: tuple[PresetChoice, ...]
    notation: str  # the board as its URL writes it ("" when empty)
    played: int  # tiles on the board
    view: Picture
    points: int  # of the last play
    last: LastPlay | None
    reasons: tuple[Why, ...]  # why the last play scored what it did
    picker: tuple[PickerTile, ...]
    scoring: tuple[WhatIf, ...]  # the tiles that would score, best first
    fitting: tuple[WhatIf, ...]  # the tiles that fit for no points
    stuck: tuple[str, ...]  # the tiles that fit nowhere
    open_ends: tuple[int, ...]  # the pips the open ends show, highest first
    undo_url: str
    clear_url: str
    cancel_url: str
    notice: Refused | None
    kept: bool  # a board link was refused: the board shown is what came before the mistake
    choice: Choice | None


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
        notice = _refused(refusal, gettext("This board link has a mistake"))
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
        return _practice_page(board, preset, notice=_refused(refused, gettext("Not allowed"))), 422
    return redirect(practice_url(board, preset), 303)


def practice_url(board: Board, preset: str = "seed") -> str:
    """The board's own address: its plays in the query string (none for the empty board),
    and the preset it is played by unless it is the standard one."""
    rules = None if preset == "seed" else preset
    return url_for("teaching.practice", rules=rules, p=board.notation or None)  # None: left out


def _refused(refusal: RuleError, title: str) -> Refused:
    return Refused(title=title, text=say_capitalized(refusal.message), rule=refusal.rule)


def _practice_page(
    board: Board,
    preset: str,
    notice: Refused | None = None,
    choice: tuple[Tile, tuple[Placement, ...]] | None = None,
    kept: bool = False,
) -> str:
    last = board.last
    layout = board.layout
    rows = tuple(
        WhatIf(
            tile=str(tile),
            best=max((place.points for place in places), default=0),
            places=tuple(_place(board, place, preset) for place in places),
        )
        for tile, places in board.what_if()
    )
    page = PracticePage(
        preset=preset,
        presets=preset_choices(),
        notation=board.notation,
        played=len(board.steps),
        view=Picture.of(layout, last.tile if last else None),
        points=last.points if last else 0,
        last=LastPlay(tile=str(last.tile), arm=last.arm) if last else None,
        reasons=reasons(explain_play(board.before, last)) if last else (),
        picker=picker_tiles(layout.tiles, board.placements, layout.lead is None),
        scoring=tuple(sorted((row for row in rows if row.best), key=lambda row: -row.best)),
        fitting=tuple(row for row in rows if row.places and not row.best),
        stuck=tuple(row.tile for row in rows if not row.places),
        open_ends=tuple(sorted({pip for _, pip in layout.open_ends.items()}, reverse=True)),
        undo_url=practice_url(board.undo(), preset),
        clear_url=practice_url(Board(), preset),
        cancel_url=practice_url(board, preset),
        notice=notice,
        kept=kept,
        choice=(
            Choice(
                tile=str(choice[0]),
                places=tuple(_place(board, place, preset) for place in choice[1]),
            )
            if choice
            else None
        ),
    )
    return render_page("teaching/practice.html", page)


def _place(board: Board, place: Placement, preset: str) -> Place:
    return Place(
        arm=place.arm.value if place.arm else "lead",
        name=end_name(place.arm) if place.arm else gettext("lead"),
        in_a_sentence=end_name(place.arm, in_a_sentence=True) if place.arm else "",
        points=place.points,
        count=place.count,
        breakdown=place.breakdown,
        url=practice_url(board.add(place.tile, place.arm), preset),
    )
