"""Check a play: whether a tile may be played (on an end) now, what it would score, or why
not, without entering anything."""

from __future__ import annotations

from typing import Any

from flask import render_template, request
from flask.typing import ResponseReturnValue

from ..i18n.words import say_capitalized
from ..rules import Arm, GameState, Layout, RuleError, Status, Tile
from ..ui.layouts import Picture
from ..ui.picker import picker_tiles
from ..web.game import Table, both_links
from . import bp


@both_links(bp, "/check", endpoint="check")
def check(table: Table) -> ResponseReturnValue:
    """Whether a tile may be played (on an end) now, what it would score, or why not."""
    state = table.state
    hand = state.hand
    verdict: dict[str, Any] | None = None
    tile: Tile | None = None
    try:
        tile = Tile.parse(request.args["tile"]) if request.args.get("tile") else None
        arm = Arm.parse(request.args["end"]) if tile and request.args.get("end") else None
        if tile is not None:
            verdict = _verdict(state, tile, arm)
    except RuleError as refusal:
        verdict = {"refusal": _refusal(refusal)}
    # Between hands there is no layout to play on: the last hand's is not shown as if it were.
    playing = hand is not None and state.status is Status.PLAYING
    layout = hand.layout if hand and playing else Layout()
    after = verdict.get("after") if verdict else None
    last = tile if after else _last_tile(hand) if playing else None
    on_table = hand.layout.tiles if hand else ()
    return render_template(
        "disputes/check.html",
        table=table,
        state=state,
        tile=tile,
        verdict=verdict,
        picture=Picture.of(after or layout, last),
        tiles=picker_tiles(on_table, state.placements, hand is None or hand.layout.lead is None),
        arms=list(layout.all_arms),
    )


def _verdict(state: GameState, tile: Tile, arm: Arm | None) -> dict[str, Any]:
    """The engine's answer about ``tile`` (on ``arm``): a refusal, the places, or the one place."""
    hand = state.hand
    leading = hand is not None and hand.layout.lead is None
    if leading:
        arm = None  # R4: a lead goes on no end
    refusal = state.why_not(tile, arm)
    verdict: dict[str, Any] = {"tile": tile, "arm": arm, "leading": leading, "ends": []}
    anywhere = state.why_not(tile)  # refused whatever the end: the status, or already played
    if not leading and (anywhere is None or anywhere.code == "no_match"):
        verdict["ends"] = _ends(state, tile)
    if refusal is not None:
        verdict["refusal"] = _refusal(refusal)
        return verdict
    assert hand is not None
    places = state.placements(tile)
    if arm is not None:
        places = tuple(place for place in places if place.arm is arm)
    verdict["places"] = places
    if len(places) == 1:
        verdict["place"] = places[0]
        verdict["after"] = hand.layout.place(tile, places[0].arm)
        verdict["who"] = state.name(hand.turn)
    return verdict


def _ends(state: GameState, tile: Tile) -> list[dict[str, Any]]:
    """For each end of the layout: may ``tile`` go there, and for how many points — or why not."""
    places = {place.arm: place for place in state.placements(tile)}
    ends = []
    layout = state.hand.layout if state.hand else Layout()
    for arm in layout.all_arms:
        refusal = state.why_not(tile, arm)
        ends.append(
            {
                "arm": arm,
                "place": places.get(arm),
                "refusal": _refusal(refusal) if refusal else None,
            }
        )
    return ends


def _refusal(refusal: RuleError) -> dict[str, Any]:
    return {"text": say_capitalized(refusal.message), "rule": refusal.rule, "code": refusal.code}


def _last_tile(hand: Any) -> Tile | None:
    if hand and hand.moves and hand.moves[-1].kind == "play":
        found: Tile | None = hand.moves[-1].tile
        return found
    return None
