"""The teaching side of the engine: explanations citing rules, and practice boards (R4–R13)."""

from __future__ import annotations

import pytest

from webapp.rules import (
    Arm,
    Draw,
    GameState,
    IllegalAction,
    Layout,
    NotationError,
    Options,
    Pass,
    Play,
    StartHand,
    Tile,
)
from webapp.rules.explain import (
    Reason,
    explain_count,
    explain_move,
    explain_play,
    explain_rounding,
)
from webapp.rules.practice import MAX_TEXT, Board, Step

EXAMPLE_A = "3-2,2-2:right,2-6:right,2-4:up,3-1:left,6-6:right,4-4:up,2-5:down,1-0:left,6-4:right"
EXAMPLE_B = "5-5,5-3:left,5-2:right,5-0:up,2-2:right,0-4:up"


def reasons_at(notation: str, step: int) -> list[Reason]:
    """The explanation of play ``step`` (from 1) of a board."""
    board = Board.parse(",".join(notation.split(",")[:step]))
    assert board.last is not None
    return explain_play(board.before, board.last)


def rules_of(reasons: list[Reason]) -> list[str]:
    return [reason.rule for reason in reasons]


def texts(reasons: list[Reason]) -> str:
    return " | ".join(str(reason) for reason in reasons)


# --- explain_play on the worked examples of RULES.md ------------------------------------------


@pytest.mark.parametrize(
    ("notation", "step", "count_sentence"),
    [
        (EXAMPLE_A, 1, "Count 3 + 2 = 5: a multiple of 5, scores 5 (R11)"),
        (EXAMPLE_A, 2, "Count 3 + [2|2] 4 = 7: not a multiple of 5, no points (R11)"),
        (EXAMPLE_A, 3, "Count 3 + 6 = 9: not a multiple of 5, no points (R11)"),
        (
            EXAMPLE_A,
            8,
            "Count 1 + [6|6] 12 + [4|4] 8 + 5 = 26: not a multiple of 5, no points (R11)",
        ),
        (EXAMPLE_A, 9, "Count 0 + [6|6] 12 + [4|4] 8 + 5 = 25: a multiple of 5, scores 25 (R11)"),
        (EXAMPLE_A, 10, "Count 0 + 4 + [4|4] 8 + 5 = 17: not a multiple of 5, no points (R11)"),
        (EXAMPLE_B, 1, "Count [5|5] 10 = 10: a multiple of 5, scores 10 (R11)"),
        (EXAMPLE_B, 2, "Count 3 + [5|5] 10 = 13: not a multiple of 5, no points (R11)"),
        (EXAMPLE_B, 3, "Count 3 + 2 = 5: a multiple of 5, scores 5 (R11)"),
        (EXAMPLE_B, 4, "Count 3 + 2 + 0 = 5: a multiple of 5, scores 5 (R11)"),
        (EXAMPLE_B, 6, "Count 3 + [2|2] 4 + 4 = 11: not a multiple of 5, no points (R11)"),
    ],
)
def test_every_explanation_ends_with_the_count_and_its_verdict(
    notation: str, step: int, count_sentence: str
) -> None:
    assert str(reasons_at(notation, step)[-1]) == count_sentence


def test_a_lead_says_any_tile_may_lead_and_which_end_is_which() -> None:
    found = texts(reasons_at(EXAMPLE_A, 1))
    assert (
        "3-2 leads: any tile may lead. Its 3 is the left end and its 2 the right end (R4)" in found
    )
    assert "A lone lead counts both its halves: 5 (R11)" in found


def test_a_lone_double_lead_counts_its_halves_once() -> None:
    reasons = reasons_at(EXAMPLE_B, 1)
    assert rules_of(reasons) == ["R4", "R9", "R10", "R11", "R11"]
    assert "A lone lead counts both its halves once: 10, not 20 (R11)" in texts(reasons)


def test_the_first_double_is_the_spinner_and_counts_while_a_side_is_open() -> None:
    found = texts(reasons_at(EXAMPLE_A, 2))
    assert "2-2 is the first double played, so it is the spinner" in found
    assert "The line covers one side of the spinner 2-2" in found
    assert "The spinner counts both halves, 4, while a side is open (R11)" in found


def test_covering_both_sides_opens_up_and_down() -> None:
    reasons = reasons_at(EXAMPLE_A, 3)
    assert rules_of(reasons) == ["R5", "R10", "R11", "R11"]
    found = texts(reasons)
    assert (
        "Both sides of the spinner 2-2 are covered: up and down are open, each showing 2" in found
    )
    assert "The spinner stops counting" in found


def test_a_led_spinner_needs_a_tile_on_each_side() -> None:
    found = texts(reasons_at(EXAMPLE_B, 2))
    assert "The spinner 5-5 has 1 of 2 sides covered" in found
    assert "The spinner counts both halves, 10, while a side is open (R11)" in found
    assert "up and down are open, each showing 5 (R10)" in texts(reasons_at(EXAMPLE_B, 3))


def test_a_later_double_is_no_spinner_but_counts_both_halves_at_an_end() -> None:
    found = texts(reasons_at(EXAMPLE_A, 6))
    assert "6-6 is a double, so it lies crosswise, but it is no spinner" in found
    assert "only the first double played (2-2) spins (R9)" in found
    assert "A double at the end of an arm counts both halves: 12 (R8)" in found


def test_covering_a_double_at_an_end_says_it_stops_counting_double() -> None:
    assert "6-6 stops counting both halves: 6-4 now covers its free side (R8)" in texts(
        reasons_at(EXAMPLE_A, 10)
    )


def test_a_plain_play_says_which_end_and_what_now_shows() -> None:
    reasons = reasons_at(EXAMPLE_A, 4)
    assert str(reasons[0]) == "2-4 goes on the up end, which showed 2: its 4 now shows there (R5)"
    assert rules_of(reasons) == ["R5", "R11"]


def test_every_explanation_cites_known_rules() -> None:
    known = {f"R{n}" for n in range(1, 17)} | {"R13p"}
    for notation in (EXAMPLE_A, EXAMPLE_B):
        for step in range(1, len(notation.split(",")) + 1):
            assert set(rules_of(reasons_at(notation, step))) <= known


def test_explain_play_recomputes_the_layout_so_it_matches_the_rules() -> None:
    layout = Layout.empty().place(Tile(3, 2), None)
    for placement in layout.placements(Tile(2, 5)):
        assert explain_play(layout, placement)[-1] == explain_count(
            layout.place(placement.tile, placement.arm)
        )


# --- counts, rounding, draws and passes ---------------------------------------------------------


def test_explain_count_of_an_empty_layout() -> None:
    assert str(explain_count(Layout.empty())) == "Count 0: nothing to score (R11)"


@pytest.mark.parametrize(
    ("pips", "sentence"),
    [
        (13, "13 pips round up to 15: 13 is 3 past 10, and 3 or 4 past rounds up (R13)"),
        (7, "7 pips round down to 5: 7 is 2 past 5, and 1 or 2 past rounds down (R13)"),
        (2, "2 pips round down to 0: 2 is 2 past 0, and 1 or 2 past rounds down (R13)"),
        (8, "8 pips round up to 10: 8 is 3 past 5, and 3 or 4 past rounds up (R13)"),
        (10, "10 pips are already a multiple of five: 10 (R13)"),
    ],
)
def test_rounding_is_explained(pips: int, sentence: str) -> None:
    assert str(explain_rounding(pips)) == sentence


def test_a_draw_and_a_pass_are_explained_by_their_rules() -> None:
    game = GameState.new(Options.make(["Ana", "Ben"], deal="5"))
    game, _ = game.apply(StartHand(0))
    game, _ = game.apply(Play(Tile(6, 6)))
    game, _ = game.apply(Draw(18, confirm=True))  # 22 tiles without a 6: confirmed (R7a)
    assert game.hand is not None
    assert rules_of(explain_move(game.hand.moves[-1])) == ["R6"]
    game, _ = game.apply(Pass())
    assert rules_of(explain_move(game.hand.moves[-1])) == ["R7"]


def test_a_move_from_a_hand_record_is_explained_like_the_play() -> None:
    game = GameState.new(Options.make(["Ana", "Ben"]))
    game, _ = game.apply(StartHand(0))
    game, _ = game.apply(Play(Tile(5, 5)))
    game, _ = game.apply(Play(Tile(5, 3), Arm.LEFT))
    assert game.hand is not None
    board = Board.parse("5-5,5-3:left")
    assert board.last is not None
    assert explain_move(game.hand.moves[-1]) == explain_play(board.before, board.last)


# --- practice boards ---------------------------------------------------------------------------


def test_a_board_round_trips_through_its_notation() -> None:
    board = Board.parse(EXAMPLE_A)
    assert board.notation == EXAMPLE_A
    assert board.layout.count == 17
    assert len(board.layouts) == 11
    assert Board.parse(" 5-5 , 5|3:LEFT ,52:right").notation == "5-5,5-3:left,5-2:right"


def test_an_empty_board() -> None:
    board = Board.parse("")
    assert board.steps == () and board.last is None and board.notation == ""
    assert board.undo() == board
    assert len(board.what_if()) == 28
    assert all(len(places) == 1 and places[0].arm is None for _, places in board.what_if())


def test_add_needs_the_end_only_when_more_than_one_fits() -> None:
    board = Board.parse("5-5,5-3:left")
    assert board.add(Tile(5, 2)).steps[-1] == Step(Tile(5, 2), Arm.RIGHT)
    with pytest.raises(IllegalAction) as refused:
        Board.parse("5-5,5-3:left,5-2:right").add(Tile(3, 2))
    assert refused.value.code == "choose_end" and refused.value.rule == "R5"
    assert refused.value.message == "3-2 fits more than one end: left or right"


def test_add_takes_a_tile_whose_places_are_mirror_images_without_an_end() -> None:
    """As a game does: a lone double's two sides, a spinner's empty up and down (R5)."""
    assert Board.parse("5-5").add(Tile(5, 3)).notation == "5-5,5-3:left"
    opened = Board.parse("5-5,5-3:left,5-2:right")
    assert opened.add(Tile(5, 0)).notation == "5-5,5-3:left,5-2:right,5-0:up"
    assert [str(place.arm) for place in opened.places(Tile(5, 0))] == ["up"]
    assert [str(place.arm) for place in opened.placements(Tile(5, 0))] == ["up", "down"]
    with pytest.raises(IllegalAction) as refused:
        opened.add(Tile(3, 6)).add(Tile(6, 5), Arm.LEFT).add(Tile(5, 1))
    assert refused.value.message == "5-1 fits more than one end: left or up"


def test_undo_takes_back_the_last_play_only() -> None:
    board = Board.parse("5-5,5-3:left,5-2:right")
    assert board.undo().notation == "5-5,5-3:left"
    assert board.undo().layout == Board.parse("5-5,5-3:left").layout


def test_what_if_lists_every_unplayed_tile_with_every_place() -> None:
    board = Board.parse("5-5,5-3:left,5-2:right")
    found = dict(board.what_if())
    assert len(found) == 25
    assert Tile(5, 5) not in found
    assert {p.arm for p in found[Tile(5, 0)]} == {Arm.UP, Arm.DOWN}
    assert [p.points for p in found[Tile(5, 0)]] == [5, 5]
    assert found[Tile(1, 1)] == ()


def test_last_is_the_play_as_laid_with_its_count() -> None:
    last = Board.parse("5-5,3-5:left").last
    assert last is not None
    assert (str(last.tile), last.arm, last.count, last.points) == ("5-3", Arm.LEFT, 13, 0)


@pytest.mark.parametrize(
    ("text", "error", "code", "rule", "kept"),
    [
        ("5-5,5-2:up", IllegalAction, "spinner_sides_open", "R10", 1),
        ("3-2,2-1:up", IllegalAction, "no_spinner", "R9", 1),
        ("5-5,5-5:left", IllegalAction, "already_played", "R1", 1),
        ("5-5,6-1:left", IllegalAction, "no_match", "R5", 1),
        ("5-5,6-1", IllegalAction, "no_match", "R5", 1),
        ("5-5:left", IllegalAction, "lead_has_no_end", "R4", 0),
        ("5-5,5-3:sideways", IllegalAction, "bad_end", "R5", 1),
        ("5-5,7-3:left", NotationError, "not_in_set", None, 1),
        ("5-5,,5-3:left", NotationError, "bad_tile", None, 1),
        ("hello", NotationError, "bad_tile", None, 0),
        ("5-5," * 200, NotationError, "board_too_long", None, 0),
    ],
)
def test_a_bad_board_keeps_its_good_start_and_says_why(
    text: str, error: type, code: str, rule: str | None, kept: int
) -> None:
    board, refusal = Board.read(text)
    assert isinstance(refusal, error)
    assert (refusal.code, refusal.rule) == (code, rule)
    assert len(board.steps) == kept
    if len(text) <= MAX_TEXT:
        assert refusal.message.startswith(f"tile {kept + 1}, ")
    with pytest.raises(error):
        Board.parse(text)
