"""The drawn layout under the house rules: every tile and every named end is drawn (R17)."""

from __future__ import annotations

import re

from tests.scripts import EXAMPLE_A, EXAMPLE_G, EXAMPLE_H, Script
from tests.tables import Table
from webapp.rules import GameState, Options, StartHand
from webapp.ui.layouts import draw_layout


def _layout(script: Script, **rules):
    state = GameState.new(Options.make(["Ana", "Ben"], **rules)).apply(StartHand(0))[0]
    return script.played(state).hand.layout


def _overlap(a, b) -> bool:
    return (
        a.x < b.x + b.width
        and b.x < a.x + a.width
        and a.y < b.y + b.height
        and b.y < a.y + a.height
    )


def test_a_second_spinner_is_drawn_with_its_own_arms_and_end_marks():
    then = Script(
        "a third spinner, 1-1, and its down end", "1-1 right", "1-3 right", "1-0 1-1 down"
    )
    layout = _layout(EXAMPLE_H + then, spinner="every-double")
    drawing = draw_layout(layout)
    assert sorted(piece.label for piece in drawing.pieces) == sorted(str(t) for t in layout.tiles)
    marks = {mark.arm: mark.pip for mark in drawing.marks}
    assert marks == {arm.value: pip for arm, pip in layout.open_ends.items()}
    assert {"6-6 up", "6-6 down", "1-1 up", "1-1 down"} <= set(marks)
    pieces = drawing.pieces
    assert not any(_overlap(a, b) for i, a in enumerate(pieces) for b in pieces[i + 1 :])
    six_five = next(p for p in pieces if p.label == "6-5")
    six_six = next(p for p in pieces if p.label == "6-6")
    assert six_five.y < six_six.y  # 6-6 up is drawn above its double
    ringed = {piece.label for piece in pieces if "spinner" in piece.classes}
    assert ringed == {"4-4", "6-6", "1-1"}  # every spinner is marked as one


def test_muggins_draws_a_line_with_two_end_marks():
    layout = _layout(EXAMPLE_G[:4], preset="muggins")
    drawing = draw_layout(layout)
    assert sorted(mark.arm for mark in drawing.marks) == ["left", "right"]
    assert not any("spinner" in piece.classes for piece in drawing.pieces)


def test_every_page_that_draws_a_layout_holds_the_tiles_its_tiles_refer_to(playing: Table) -> None:
    """A layout's tiles are references to the page's tile drawings (``tile_symbols``): every
    page that draws one holds them, once, and every tile it refers to is among them."""
    playing.enter(EXAMPLE_A[:6])
    pages = [
        playing.url,
        f"{playing.url}/check?tile=6-6&end=right",
        f"{playing.url}/replay/1/4",
        f"{playing.url}/fix/3",
        "/rules",
        "/learn/5",
        f"/practice?p={EXAMPLE_A[:4].board()}",
    ]
    for address in pages:
        page = playing.client.get(address).get_data(as_text=True)
        assert '<svg class="layout"' in page, address
        assert page.count('<svg class="tile-symbols"') == 1, address
        drawn = set(re.findall(r'<g id="(tile-\d-\d)">', page))
        referred = set(re.findall(r'<use (?:class="[^"]*" )?href="#(tile-\d-\d)"', page))
        assert referred and referred <= drawn, address
