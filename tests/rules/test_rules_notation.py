"""Notation and the stored form of actions round-trip (DESIGN: tiles like ``Tile.parse("6-4")``)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from webapp.rules import (
    DOUBLE_SIX,
    TOTAL_PIPS,
    Arm,
    Draw,
    EndHand,
    IllegalAction,
    NotationError,
    Pass,
    Play,
    Report,
    StartHand,
    Tile,
    Undo,
    from_dict,
    to_dict,
)

halves = st.integers(min_value=0, max_value=6)
tiles = st.builds(Tile, halves, halves)  # either orientation
seats = st.none() | st.integers(min_value=0, max_value=3)
arms = st.none() | st.sampled_from(list(Arm))


# --- tiles --------------------------------------------------------------------------------------


@given(tiles)
def test_notation_round_trips_and_keeps_orientation(tile):
    parsed = Tile.parse(str(tile))
    assert parsed == tile
    assert (parsed.a, parsed.b) == (tile.a, tile.b)


@given(tiles, st.sampled_from(["", "-", "|", ":", "/", " "]), st.sampled_from(["", " ", "  "]))
def test_notation_accepts_the_usual_separators(tile, separator, space):
    parsed = Tile.parse(f"{space}{tile.a}{space}{separator}{space}{tile.b}{space}")
    assert (parsed.a, parsed.b) == (tile.a, tile.b)


@pytest.mark.parametrize("text", ["64", "6|4", "6-4", " 6 - 4 ", "6:4", "6/4", "6 4"])
def test_the_ways_to_write_6_4(text):
    tile = Tile.parse(text)
    assert (tile.a, tile.b, str(tile)) == (6, 4, "6-4")


@given(st.text(max_size=8))
def test_any_text_is_a_tile_or_a_notation_error(text):
    try:
        tile = Tile.parse(text)
    except NotationError as refused:
        assert refused.code in {"bad_tile", "not_in_set"}
    else:
        assert tile in DOUBLE_SIX


@given(tiles)
def test_a_tile_is_the_same_tile_either_way_round(tile):
    flipped = tile.flipped()
    assert flipped == tile and hash(flipped) == hash(tile)
    assert (flipped.a, flipped.b) == (tile.b, tile.a)
    assert eval(repr(tile), {"Tile": Tile}) == tile  # repr pastes back as code
    assert tile.pips == tile.a + tile.b
    assert tile.is_double is (tile.a == tile.b)


def test_the_double_six_set():
    assert len(DOUBLE_SIX) == len(set(DOUBLE_SIX)) == 28
    assert TOTAL_PIPS == 168
    assert str(DOUBLE_SIX[0]) == "6-6" and str(DOUBLE_SIX[-1]) == "0-0"
    assert sorted(DOUBLE_SIX, reverse=True) == list(DOUBLE_SIX)


def test_tiles_are_immutable():
    tile = Tile(6, 4)
    with pytest.raises(AttributeError):
        tile.a = 5


@pytest.mark.parametrize("arm", list(Arm))
def test_arm_names_round_trip(arm):
    assert Arm.parse(str(arm)) is arm
    assert Arm.parse(f" {arm.value.upper()} ") is arm


# --- actions ------------------------------------------------------------------------------------

reports = st.one_of(
    st.integers(min_value=0, max_value=168).map(Report),
    st.lists(st.sampled_from(DOUBLE_SIX), unique=True, max_size=9).map(Report.of_tiles),
)
actions = st.one_of(
    st.builds(StartHand, seats),
    st.builds(Play, tiles, arms, seats),
    st.builds(Draw, st.integers(min_value=1, max_value=28), seats),
    st.builds(Pass, seats),
    st.dictionaries(st.integers(min_value=0, max_value=3), reports, max_size=4).map(EndHand.of),
    st.just(Undo()),
)


@given(actions)
def test_actions_round_trip_through_their_stored_form(action):
    stored = to_dict(action)
    assert from_dict(stored) == action
    assert from_dict(json.loads(json.dumps(stored))) == action  # as the store keeps it


@pytest.mark.parametrize(
    ("action", "stored"),
    [
        (StartHand(), {"type": "start_hand", "leader": None}),
        (Play(Tile(6, 4), Arm.RIGHT), {"type": "play", "tile": "6-4", "end": "right"}),
        (Play(Tile(4, 6), seat=2), {"type": "play", "tile": "4-6", "seat": 2}),
        (Draw(3, seat=1), {"type": "draw", "count": 3, "seat": 1}),
        (Pass(), {"type": "pass"}),
        (
            EndHand.of({1: 13, 2: [Tile(3, 4)]}),
            {"type": "end_hand", "remaining": {"1": 13, "2": ["3-4"]}},
        ),
        (Undo(), {"type": "undo"}),
    ],
    ids=lambda value: value.__class__.__name__ if not isinstance(value, dict) else "stored",
)
def test_stored_forms(action, stored):
    assert to_dict(action) == stored
    assert from_dict(stored) == action


# --- what a form says: a draw's count and a start's leader ---------------------------------------


@pytest.mark.parametrize(
    ("text", "confirm", "draw"),
    [("1", False, Draw(1)), (" 3 ", True, Draw(3, confirm=True)), ("99", False, Draw(99))],
)
def test_a_drawn_count_as_typed_is_a_draw(text, confirm, draw):
    assert Draw.parse(text, confirm=confirm) == draw


@pytest.mark.parametrize("text", ["", "0", "00", "-1", "1.5", "two", "²", "100", "1" * 5000])
def test_a_drawn_count_that_is_no_whole_number_from_1_to_99_is_refused_under_r6(text):
    with pytest.raises(IllegalAction) as refused:
        Draw.parse(text)
    assert refused.value.as_dict() == {
        "code": "bad_draw",
        "rule": "R6",
        "message": "draw a whole number of tiles, 1 or more",
    }


def test_a_draw_is_refused_in_the_same_words_typed_or_stored():
    typed = refusal_of(lambda: Draw.parse("0"))
    assert typed.as_dict() == refusal_of(lambda: from_dict({"type": "draw", "count": 0})).as_dict()


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("", StartHand(None)),
        ("random", StartHand(None)),
        (" random ", StartHand(None)),
        ("0", StartHand(0)),
        (" 3 ", StartHand(3)),
        ("12", StartHand(12)),  # a number, but the game says no such seat is at the table
    ],
)
def test_a_leader_as_a_form_gives_it_is_a_start(text, start):
    assert StartHand.parse(text) == start
    assert StartHand.parse(text, no_double=True) == StartHand(start.leader, no_double=True)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("Ana", "'Ana'"),
        (" Ana ", "'Ana'"),
        ("²", "'²'"),
        ("-1", "'-1'"),
        ("1" * 5000, repr("1" * 20)),
        ("Anastasia Beverly Cunningham", "'Anastasia Beverly Cu'"),
    ],
)
def test_a_leader_that_is_no_seat_number_is_refused_showing_what_was_typed(text, shown):
    with pytest.raises(IllegalAction) as refused:
        StartHand.parse(text)
    assert refused.value.as_dict() == {
        "code": "bad_seat",
        "rule": None,
        "message": f"{shown} is not a seat at this table",
    }
    stored = refusal_of(lambda: from_dict({"type": "pass", "seat": "Ana"}))
    assert refused.value.message.template == stored.message.template  # the words written once


def refusal_of(call: Callable[[], object]) -> IllegalAction:
    with pytest.raises(IllegalAction) as refused:
        call()
    return refused.value
