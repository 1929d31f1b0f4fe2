"""A tile played with no end named (R5): places that are mirror images of each other count as
one, so the table is asked to choose only between places that differ."""

from __future__ import annotations

import pytest

from webapp.rules import (
    Arm,
    GameState,
    IllegalAction,
    Options,
    Play,
    StartHand,
    Tile,
)

T = Tile.parse
LEFT, RIGHT, UP, DOWN = Arm.LEFT, Arm.RIGHT, Arm.UP, Arm.DOWN


def after(plays: list[tuple[str, Arm | None]], preset: str = "seed") -> GameState:
    state = GameState.new(Options.make(["Ana", "Ben"], preset=preset))
    state, _ = state.apply(StartHand(0))
    for tile, arm in plays:
        state, _ = state.apply(Play(T(tile), arm))
    return state


def test_after_a_6_6_lead_a_6_4_with_no_end_goes_left_and_scores_what_left_scores():
    led = after([("6-6", None)])
    assert [str(place.arm) for place in led.placements(T("6-4"))] == ["left", "right"]
    assert [str(place.arm) for place in led.places(T("6-4"))] == ["left"]
    unnamed, outcome = led.apply(Play(T("6-4")))
    on_left, on_left_outcome = led.apply(Play(T("6-4"), LEFT))
    assert unnamed == on_left
    assert (outcome.points, outcome.count, outcome.breakdown) == (0, 16, "4 + [6|6] 12 = 16")
    assert (outcome.points, outcome.breakdown) == (
        on_left_outcome.points,
        on_left_outcome.breakdown,
    )
    assert outcome.message == "Ben played 6-4 on the left end: 4 + [6|6] 12 = 16"
    scoring, scored = led.apply(Play(T("6-3")))  # 3 + 12 = 15 on either side
    assert (scored.points, scoring.scores) == (15, (0, 15))
    assert scoring == led.apply(Play(T("6-3"), LEFT))[0]


def test_after_a_5_5_lead_a_5_3_with_no_end_goes_left():
    """Worked example B, step 2, with the end left out: the lone double's sides are alike."""
    unnamed, outcome = after([("5-5", None)]).apply(Play(T("5-3")))
    assert unnamed.hand.layout.arm(LEFT) == (T("5-3"),)
    assert unnamed.hand.layout.breakdown == "3 + [5|5] 10 = 13"
    assert outcome.points == 0 and outcome.next == "Ana to play"


def test_a_spinners_empty_up_and_down_are_one_place():
    """Worked example B, step 4, with the end left out: +5 on the up end."""
    opened = after([("5-5", None), ("5-3", LEFT), ("5-2", RIGHT)])
    assert [str(place.arm) for place in opened.places(T("5-0"))] == ["up"]
    unnamed, outcome = opened.apply(Play(T("5-0")))
    assert unnamed == opened.apply(Play(T("5-0"), UP))[0]
    assert (outcome.points, outcome.breakdown) == (5, "3 + 2 + 0 = 5")
    assert unnamed.scores == (15, 5)  # Ana: 10 for the lead, 5 for 5-2; Ben: 5 for 5-0


def test_a_later_spinners_empty_ends_are_one_place_under_five_up():
    """Worked example H, step 7, with the end left out: the 6-6's own up and down."""
    rows = [("6-4", None), ("4-4", RIGHT), ("4-2", RIGHT), ("4-1", UP), ("6-6", LEFT)]
    spun = after([*rows, ("6-3", LEFT)], preset="five-up")
    six_up, six_down = Arm("up", T("6-6")), Arm("down", T("6-6"))
    assert [place.arm for place in spun.placements(T("6-5"))] == [six_up, six_down]
    unnamed, outcome = spun.apply(Play(T("6-5")))
    assert unnamed == spun.apply(Play(T("6-5"), six_up))[0]
    assert outcome.breakdown == "3 + 2 + 1 + 5 = 11"


def test_places_that_differ_are_still_refused_with_choose_end_each_listed_once():
    """The left end and the spinner's empty up and down all show 5: left and up differ, and
    down only mirrors up, so it is not offered (R5)."""
    state = after([("5-5", None), ("5-3", LEFT), ("5-2", RIGHT), ("3-6", LEFT), ("6-5", LEFT)])
    assert [str(place.arm) for place in state.places(T("5-1"))] == ["left", "up"]
    with pytest.raises(IllegalAction) as refused:
        state.apply(Play(T("5-1")))
    assert (refused.value.code, refused.value.rule) == ("choose_end", "R5")
    assert refused.value.message == "5-1 fits more than one end: left (0 points) or up (0 points)"
    assert state.apply(Play(T("5-1"), DOWN))[0].hand.layout.arm(DOWN) == (T("5-1"),)


def test_ends_showing_the_same_pip_on_arms_with_tiles_are_two_places():
    state = after([("3-2", None), ("2-4", RIGHT), ("4-3", RIGHT)])  # left 3, right 3
    assert [str(place.arm) for place in state.places(T("3-1"))] == ["left", "right"]
    with pytest.raises(IllegalAction) as refused:
        state.apply(Play(T("3-1")))
    assert (
        refused.value.message == "3-1 fits more than one end: left (0 points) or right (0 points)"
    )
    assert state.places(T("4-3")) == ()  # already played: no place at all (R1)


def test_no_place_before_the_hand_starts_and_one_for_the_lead():
    new = GameState.new(Options.make(["Ana", "Ben"]))
    assert new.places(T("6-4")) == ()
    leading = new.apply(StartHand(0))[0]
    (lead,) = leading.places(T("6-6"))
    assert lead.arm is None and lead.points == 0
