"""Check a play: whether a tile may be played (on an end) now, what it would score, or why
not, without entering anything."""

from __future__ import annotations

from dataclasses import dataclass

from flask import request
from flask.typing import ResponseReturnValue

from ..i18n.words import say, say_capitalized
from ..rules import Arm, GameState, Hand, Layout, Placement, RuleError, Status, Tile
from ..ui.layouts import Picture
from ..ui.picker import PickerTile, Place, picker_tiles
from ..web.game import Table, both_links
from ..web.limits import heavy
from ..web.pages import render_page
from . import bp


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why the rules refuse the play: the sentence said, and its rule."""

    text: str
    rule: str | None


@dataclass(frozen=True, slots=True)
class EndCheck:
    """One end of the layout: the place the tile would take there, or why not."""

    arm: Arm
    place: Place | None
    refusal: Refusal | None


@dataclass(frozen=True, slots=True)
class Verdict:
    """The engine's answer about the tile (on the end asked): a refusal, the places it fits,
    or the one place, with who would play it and the layout with it tried."""

    refusal: Refusal | None = None
    arm: Arm | None = None  # the end asked about
    leading: bool = False
    places: tuple[Place, ...] = ()
    place: Place | None = None  # the one place, when there is one
    who: str | None = None  # whose turn it is
    after: bool = False  # the board shows the layout with the tile tried
    ends: tuple[EndCheck, ...] = ()


@dataclass(frozen=True, slots=True)
class CheckPage:
    next_step: str
    can_enter: bool  # the players' link during a hand: a legal play may be entered from here
    seq: int
    tile: str | None
    verdict: Verdict | None
    picture: Picture
    tiles: tuple[PickerTile, ...]


@both_links(bp, "/check", endpoint="check")
@heavy
def check(table: Table) -> ResponseReturnValue:
    """Whether a tile may be played (on an end) now, what it would score, or why not."""
    state = table.state
    hand = state.hand
    verdict: Verdict | None = None
    after: Layout | None = None
    tile: Tile | None = None
    try:
        tile = Tile.parse(request.args["tile"]) if request.args.get("tile") else None
        arm = Arm.parse(request.args["end"]) if tile and request.args.get("end") else None
        if tile is not None:
            verdict, after = _verdict(state, tile, arm)
    except RuleError as refusal:
        verdict = Verdict(refusal=_refusal(refusal))
    # Between hands there is no layout to play on: the last hand's is not shown as if it were.
    playing = hand is not None and state.status is Status.PLAYING
    layout = hand.layout if hand and playing else Layout()
    last = tile if after else _last_tile(hand) if playing else None
    on_table = hand.layout.tiles if hand else ()
    page = CheckPage(
        next_step=say(state.next_step()),
        can_enter=not table.viewer and state.status is Status.PLAYING,
        seq=table.seq,
        tile=str(tile) if tile else None,
        verdict=verdict,
        picture=Picture.of(after or layout, last),
        tiles=picker_tiles(on_table, state.placements, hand is None or hand.layout.lead is None),
    )
    return render_page("disputes/check.html", page)


def _verdict(state: GameState, tile: Tile, arm: Arm | None) -> tuple[Verdict, Layout | None]:
    """The engine's answer about ``tile`` (on ``arm``): a refusal, the places, or the one place;
    with the one place, the layout after it."""
    hand = state.hand
    leading = hand is not None and hand.layout.lead is None
    if leading:
        arm = None  # R4: a lead goes on no end
    refusal = state.why_not(tile, arm)
    ends: tuple[EndCheck, ...] = ()
    anywhere = state.why_not(tile)  # refused whatever the end: the status, or already played
    if not leading and (anywhere is None or anywhere.code == "no_match"):
        ends = _ends(state, tile)
    if refusal is not None:
        return Verdict(refusal=_refusal(refusal), arm=arm, leading=leading, ends=ends), None
    assert hand is not None
    places = state.placements(tile)
    if arm is not None:
        places = tuple(place for place in places if place.arm is arm)
    if len(places) != 1:
        return Verdict(arm=arm, leading=leading, places=_places(places), ends=ends), None
    verdict = Verdict(
        arm=arm,
        leading=leading,
        places=_places(places),
        place=Place.of(places[0]),
        who=state.name(hand.turn),
        after=True,
        ends=ends,
    )
    return verdict, hand.layout.place(tile, places[0].arm)


def _ends(state: GameState, tile: Tile) -> tuple[EndCheck, ...]:
    """For each end of the layout: may ``tile`` go there, and for how many points — or why not."""
    places = {place.arm: place for place in state.placements(tile)}
    layout = state.hand.layout if state.hand else Layout()
    ends = []
    for arm in layout.all_arms:
        refusal = state.why_not(tile, arm)
        place = places.get(arm)
        ends.append(
            EndCheck(
                arm=arm,
                place=Place.of(place) if place else None,
                refusal=_refusal(refusal) if refusal else None,
            )
        )
    return tuple(ends)


def _places(places: tuple[Placement, ...]) -> tuple[Place, ...]:
    return tuple(Place.of(place) for place in places)


def _refusal(refusal: RuleError) -> Refusal:
    return Refusal(text=say_capitalized(refusal.message), rule=refusal.rule)


def _last_tile(hand: Hand | None) -> Tile | None:
    if hand and hand.moves and hand.moves[-1].kind == "play":
        return hand.moves[-1].tile
    return None
