"""The layout: doubles, the spinner, its sides and ends, and the count (R8–R11)."""

from __future__ import annotations

import pytest

from webapp.rules import Arm, GameState, IllegalAction, Layout, Options, Play, StartHand, Tile
from webapp.rules import points_for as points

T = Tile.parse
LEFT, RIGHT, UP, DOWN = Arm.LEFT, Arm.RIGHT, Arm.UP, Arm.DOWN


def lay(*plays: str) -> Layout:
    """``lay("3-2", "2-2 right", ...)``: a lead, then tiles on arms, as a table enters them."""
    layout = Layout.empty()
    for play in plays:
        tile, *arm = play.split()
        layout = layout.place(T(tile), Arm(arm[0]) if arm else None)
    return layout


# --- R11: the count ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lead", "count"),
    [("5-5", 10), ("3-2", 5), ("6-4", 10), ("0-0", 0), ("6-6", 12), ("1-0", 1)],
)
def test_r11_a_lone_lead_counts_both_halves(lead, count):
    assert lay(lead).count == count  # a lone 5-5 counts 10, not 20


def test_r11_points_only_for_a_positive_multiple_of_five():
    assert [points(n) for n in (0, 1, 4, 5, 9, 10, 15, 25, 34, 35)] == [
        0,
        0,
        0,
        5,
        0,
        10,
        15,
        25,
        0,
        35,
    ]


def test_r11_a_lone_0_0_scores_nothing():
    state = GameState.new(Options.make(["Ana", "Ben"])).apply(StartHand(0))[0]
    state, outcome = state.apply(Play(T("0-0")))
    assert (outcome.count, outcome.points, state.scores) == (0, 0, (0, 0))


def test_r11_the_lead_spinner_counts_while_a_side_is_open():
    assert lay("5-5", "5-3 left").breakdown == "3 + [5|5] 10 = 13"
    assert lay("5-5", "5-3 right").breakdown == "[5|5] 10 + 3 = 13"
    both = lay("5-5", "5-3 left", "5-2 right")
    assert both.breakdown == "3 + 2 = 5"  # covered on both sides: the spinner counts nothing


def test_r11_an_empty_spinner_arm_counts_nothing():
    layout = lay("5-5", "5-3 left", "5-2 right")
    assert layout.open_ends[UP] == layout.open_ends[DOWN] == 5
    assert layout.count == 5
    assert lay("5-5", "5-3 left", "5-2 right", "5-0 up").count == 5


def test_r11_the_most_a_count_can_be():
    """35: four arms ending in 6-6, 5-5, 4-4 and a 5."""
    layout = lay(
        "3-3", "3-6 left", "6-6 left", "3-5 right", "5-5 right", "3-4 up", "4-4 up", "3-0 down"
    ).place(T("0-5"), DOWN)
    assert layout.breakdown == "[6|6] 12 + [5|5] 10 + [4|4] 8 + 5 = 35"
    assert points(layout.count) == 35


# --- R8: doubles at arm ends ---------------------------------------------------------------------


def test_r8_a_double_at_an_arm_end_counts_both_halves_until_covered():
    layout = lay("2-2", "2-4 left", "2-6 right")
    assert layout.count == 4 + 6
    layout = layout.place(T("4-4"), LEFT)
    assert layout.breakdown == "[4|4] 8 + 6 = 14"
    layout = layout.place(T("4-1"), LEFT)
    assert layout.breakdown == "1 + 6 = 7"


def test_r8_a_double_on_a_spinner_arm_counts_both_halves():
    layout = lay("3-2", "2-2 right", "2-6 right", "2-4 up", "4-4 up")
    assert layout.breakdown == "3 + 6 + [4|4] 8 = 17"
    assert layout.place(T("4-0"), UP).breakdown == "3 + 6 + 0 = 9"


# --- R9: the spinner -----------------------------------------------------------------------------


def test_r9_a_double_lead_is_the_spinner():
    assert lay("5-5").spinner == T("5-5")
    assert lay("3-2").spinner is None


def test_r9_the_first_double_played_later_is_the_spinner():
    layout = lay("3-2", "3-1 left", "2-2 right")
    assert layout.spinner == T("2-2")
    assert layout.spinner_arm is RIGHT


def test_r9_only_the_first_double_spins():
    layout = lay("3-2", "2-2 right", "3-3 left")
    assert layout.spinner == T("2-2")
    # The 3-3 has no up or down of its own: up and down are the 2-2's, still closed.
    with pytest.raises(IllegalAction) as refused:
        layout.place(T("3-1"), UP)
    assert (refused.value.code, refused.value.rule) == ("spinner_sides_open", "R10")
    assert "2-2 has 1 of 2 covered" in refused.value.message
    # Once covered, the 3-3 is just a tile inside the line: it counts nothing.
    covered = layout.place(T("3-1"), LEFT)
    assert covered.breakdown == "1 + [2|2] 4 = 5"
    assert set(covered.open_ends) == {LEFT, RIGHT}


def test_r9_a_later_double_does_not_spin_even_after_the_spinner_opens():
    layout = lay("2-2", "2-6 left", "2-4 right", "6-6 left", "6-1 left")
    assert layout.spinner == T("2-2")
    assert layout.open_ends == {LEFT: 1, RIGHT: 4, UP: 2, DOWN: 2}


# --- R10: sides before ends ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("plays", "covered", "up_open"),
    [
        (["5-5"], 0, False),
        (["5-5", "5-3 left"], 1, False),
        (["5-5", "5-3 right"], 1, False),
        (["5-5", "5-3 left", "5-2 right"], 2, True),
        (["5-5", "5-3 left", "3-3 left"], 1, False),  # two tiles on one side are not two sides
    ],
    ids=["led", "left-only", "right-only", "both-sides", "one-side-twice"],
)
def test_r10_a_led_spinner_needs_a_tile_on_each_side(plays, covered, up_open):
    layout = lay(*plays)
    assert layout.spinner_sides_covered() == covered
    assert layout.branches_open is up_open
    assert (UP in layout.open_ends) is up_open


@pytest.mark.parametrize("side", ["left", "right"])
def test_r10_a_spinner_played_on_a_line_needs_one_tile_on_its_free_side(side):
    other = {"left": "right", "right": "left"}[side]
    lead = "3-2" if side == "right" else "2-3"
    layout = lay(lead, f"2-2 {side}")
    assert layout.spinner_sides_covered() == 1  # the line covers one side
    assert not layout.branches_open
    assert not lay(lead, f"2-2 {side}", f"3-1 {other}").branches_open  # the other end of the line
    layout = layout.place(T("2-6"), Arm(side))
    assert layout.branches_open
    assert layout.open_ends[UP] == layout.open_ends[DOWN] == 2


def test_r10_branches_grow_outward():
    layout = lay("5-5", "5-3 left", "5-2 right", "5-0 up", "0-4 up", "5-6 down", "6-6 down")
    assert layout.arm(UP) == (Tile(5, 0), Tile(0, 4))
    assert layout.open_ends == {LEFT: 3, RIGHT: 2, UP: 4, DOWN: 6}
    assert layout.breakdown == "3 + 2 + 4 + [6|6] 12 = 21"


# --- R5: matching and orientation ----------------------------------------------------------------


def test_r5_a_tile_is_turned_to_match_the_end():
    layout = lay("3-2", "1-3 left", "2-6 right")
    assert layout.arm(LEFT) == (Tile(3, 1),)
    assert str(layout.arm(LEFT)[0]) == "3-1"  # inner half against the end, outer half showing
    assert layout.open_ends == {LEFT: 1, RIGHT: 6}


def test_r5_the_lead_keeps_the_orientation_entered():
    assert lay("2-3").open_ends == {LEFT: 2, RIGHT: 3}
    assert lay("3-2").open_ends == {LEFT: 3, RIGHT: 2}


def test_r5_placements_list_every_end_with_its_count_and_points():
    """What a hint screen shows for one tile."""
    layout = lay("5-5", "5-3 left", "5-2 right")
    found = {(p.arm, str(p.tile), p.count, p.points) for p in layout.placements(T("0-5"))}
    assert found == {(UP, "5-0", 5, 5), (DOWN, "5-0", 5, 5)}
    assert layout.placements(T("6-4")) == ()
    (lead,) = Layout.empty().placements(T("4-1"))
    assert (lead.arm, lead.count, lead.points, lead.breakdown) == (None, 5, 5, "4 + 1 = 5")


def test_r5_state_placements_refuse_played_tiles_and_wait_for_a_hand():
    state = GameState.new(Options.make(["Ana", "Ben"]))
    assert state.placements(T("6-6")) == ()  # no hand yet
    state = state.apply(StartHand(0))[0]
    assert len(state.placements(T("6-6"))) == 1  # any tile can be led (R4)
    state = state.apply(Play(T("6-6")))[0]
    assert state.placements(T("6-6")) == ()
    assert {p.arm for p in state.placements(T("6-1"))} == {LEFT, RIGHT}
