"""Every refusal of the engine: its ``code``, its ``rule``, the sentence a player reads, and
that the state it was applied to has not changed (states are immutable, and a refusal must
leave nothing half-done).

Test ids start with the rule a refusal enforces; input errors outside any rule cite ``input``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest
from rules_table import Table, example_c, tiles

from tests.scripts import EXAMPLE_B
from webapp.rules import (
    Action,
    Arm,
    BadOptions,
    Draw,
    EndHand,
    GameState,
    IllegalAction,
    ImpossibleReport,
    NotationError,
    Options,
    Pass,
    Play,
    RecordContradiction,
    RuleError,
    StartHand,
    Tile,
    Undo,
    from_dict,
)
from webapp.rules.options import MAX_NAME_LENGTH

T = Tile.parse
LEFT, RIGHT, UP, DOWN = Arm.LEFT, Arm.RIGHT, Arm.UP, Arm.DOWN
THREE = Options.make(["Ana", "Ben", "Cy"])
TWO = Options.make(["Ana", "Ben"])

# Worked example F: 19 plays, no draw; Ana plays her seventh tile last. Not on the table:
# 6-6 5-5 5-3 5-2 3-3 2-2 2-1 1-1 0-0, two of them in Ben's and Cy's hands.
EXAMPLE_F = [
    Play(T(move.split()[0]), Arm.parse(move.split()[1]) if " " in move else None)
    for move in (
        *("5-0", "5-1 left", "6-1 left", "6-2 left", "2-0 left", "1-0 right", "3-1 right"),
        *("4-0 left", "4-2 left", "3-2 left", "3-0 right", "6-0 right", "6-4 right"),
        *("4-3 left", "5-4 right", "6-5 right", "4-4 left", "4-1 left", "6-3 right"),
    )
]

# Each scenario is options and the actions that lead to it, so it can be rebuilt at will.
SCENARIOS: dict[str, Callable[[], tuple[Options, list[Action]]]] = {
    "not started": lambda: (THREE, []),
    "Ana to lead": lambda: (THREE, [StartHand(0)]),
    # Ana led 3-2: open ends 3 and 2, Ben to play, 7 tiles in the boneyard.
    "Ana led 3-2": lambda: (THREE, [StartHand(0), Play(T("3-2"))]),
    # Ben drew 4 and played: the boneyard has 3 tiles left and Cy is to play.
    "boneyard of 3": lambda: (
        THREE,
        [StartHand(0), Play(T("3-2")), Draw(4), Play(T("2-2"), RIGHT)],
    ),
    "boneyard empty": lambda: (THREE, [StartHand(0), Play(T("3-2")), Draw(7)]),
    # Example B after three plays: left 3, right 2, up and down 5.
    "spinner open": lambda: (TWO, [StartHand(0), *EXAMPLE_B[:3].actions()]),
    # Example B's three plays, then 3-6 and 6-5 on the left: the left end and the spinner's
    # empty up and down (mirror images of each other) all show 5; the right end 2.
    "left 5, spinner open": lambda: (
        TWO,
        [StartHand(0), *EXAMPLE_B[:3].actions(), Play(T("3-6"), LEFT), Play(T("6-5"), LEFT)],
    ),
    # 5-5 led, 5-2 left, 5-0 right: open ends 2, 0, and 5 up and down.
    "ends 5 2 0": lambda: (
        TWO,
        [StartHand(0), Play(T("5-5")), Play(T("5-2"), LEFT), Play(T("5-0"), RIGHT)],
    ),
    # Worked example C: Ana went out; Ben holds 6-5 and 1-1, Cy 3-4; 6 tiles in the boneyard.
    "example C over": lambda: _table_scenario(example_c(Table.of("Ana", "Ben", "Cy"))),
    "example C settled": lambda: _table_scenario(_settled(example_c(Table.of("Ana", "Ben", "Cy")))),
    # Ana led 3-2, Ben drew the whole boneyard, and both passed: blocked, boneyard empty. Ben
    # cannot have drawn 9 tiles without a 3 or a 2: the table confirmed it (R7a).
    "blocked": lambda: (
        TWO,
        [StartHand(0), Play(T("3-2")), Draw(10, confirm=True), Pass(), Pass()],
    ),
    # Worked example E: Ana led 6-6, Ben drew the whole boneyard and passed.
    "example E": lambda: (TWO, [StartHand(0), Play(T("6-6")), Draw(10), Pass()]),
    # Ana led 3-2; Ben drew 7 tiles one by one: he holds 16, and only 15 have no 3 or 2.
    "Ben drew 7 on 3-2": lambda: (TWO, [StartHand(0), Play(T("3-2")), *[Draw()] * 7]),
    "Ana led 3-2, two players": lambda: (TWO, [StartHand(0), Play(T("3-2"))]),
    # Worked example F: Ana went out; Ben and Cy hold one tile each; 0-0 is not on the table.
    "example F over": lambda: (THREE, [StartHand(0), *EXAMPLE_F]),
    # Target 5, immediate finish: Ana's lead of 3-2 scores 5 and wins at once (R16).
    "game over": lambda: (
        Options.make(["Ana", "Ben"], target=5),
        [StartHand(0), Play(T("3-2"))],
    ),
}


def _table_scenario(table: Table) -> tuple[Options, list[Action]]:
    return table.options, list(table.actions)


def _settled(table: Table) -> Table:
    table.settle()
    return table


def build(scenario: str) -> GameState:
    options, actions = SCENARIOS[scenario]()
    return GameState.replay(options, actions)


def refusal(rule, code, scenario, action, message, kind=IllegalAction):
    what = type(action).__name__ + (f" {action.tile}" if isinstance(action, Play) else "")
    name = f"{rule or 'input'} {code} {what} {scenario}".replace(" ", "-")
    return pytest.param(scenario, action, kind, code, rule, message, id=name)


ENGINE_REFUSALS = [
    # R1: a tile is played once.
    refusal("R1", "already_played", "Ana led 3-2", Play(T("3-2")), "3-2 was already played"),
    refusal("R1", "already_played", "Ana led 3-2", Play(T("2-3"), RIGHT), "2-3 was already played"),
    # R3: who leads.
    refusal(
        "R3",
        "wrong_leader",
        "example C settled",
        StartHand(1),
        "Ana went out last hand, so Ana leads (R3)",
    ),
    refusal(
        "R3",
        "leader_needed",
        "not started",
        StartHand(),
        "say who leads, or let the app pick at random (R3)",
    ),
    refusal(None, "bad_seat", "not started", StartHand(3), "seat 4 is not at this table"),
    # R4: the lead comes first; nobody draws or passes before it.
    refusal(
        "R4",
        "lead_first",
        "Ana to lead",
        Draw(),
        "Ana leads, and any tile can be led: nobody draws (R4)",
    ),
    refusal(
        "R4",
        "lead_first",
        "Ana to lead",
        Pass(),
        "Ana leads, and any tile can be led: nobody passes (R4)",
    ),
    # R5: turns and matching ends.
    refusal(
        "R5",
        "not_your_turn",
        "Ana led 3-2",
        Play(T("2-2"), RIGHT, seat=2),
        "it is Ben's turn, not Cy's",
    ),
    refusal("R5", "not_your_turn", "Ana led 3-2", Draw(seat=0), "it is Ben's turn, not Ana's"),
    refusal("R5", "not_your_turn", "boneyard empty", Pass(seat=2), "it is Ben's turn, not Cy's"),
    refusal(
        "R5",
        "no_match",
        "ends 5 2 0",
        Play(T("3-6")),
        "no open end shows 3 or 6: open ends are 5, 2, 0",
    ),
    refusal(
        "R5",
        "no_match",
        "Ana led 3-2",
        Play(T("6-6")),
        "no open end shows 6: open ends are 3, 2",
    ),
    refusal(
        "R5",
        "no_match",
        "Ana led 3-2",
        Play(T("2-4"), LEFT),
        "the left end shows 3, and 2-4 has no 3",
    ),
    refusal(  # up and down are mirror images: asked once
        "R5",
        "choose_end",
        "left 5, spinner open",
        Play(T("5-1")),
        "5-1 fits more than one end: left (0 points) or up (0 points)",
    ),
    refusal(
        "R5",
        "choose_end",
        "ends 5 2 0",
        Play(T("2-0")),
        "2-0 fits more than one end: left (0 points) or right (0 points)",
    ),
    # R6: drawing.
    refusal(
        "R6",
        "boneyard_empty",
        "boneyard empty",
        Draw(),
        "the boneyard is empty, so Ben cannot draw: pass if no tile fits (R7)",
    ),
    refusal(
        "R6",
        "draw_too_many",
        "Ana led 3-2",
        Draw(8),
        "the boneyard has only 7 tiles: Ben cannot draw 8",
    ),
    refusal(
        "R6",
        "draw_too_many",
        "boneyard of 3",
        Draw(4),
        "the boneyard has only 3 tiles: Cy cannot draw 4",
    ),
    refusal("R6", "bad_draw", "Ana led 3-2", Draw(0), "draw a whole number of tiles, 1 or more"),
    # R7: passing.
    refusal(
        "R7",
        "must_draw",
        "boneyard of 3",
        Pass(),
        "the boneyard still has 3 tiles, so Cy must draw, not pass",
    ),
    # R9, R10: the spinner's up and down.
    refusal(
        "R9",
        "no_spinner",
        "Ana led 3-2",
        Play(T("2-1"), UP),
        "there is no up end yet: up and down open on the spinner, the first double played (R9)",
    ),
    refusal(
        "R9",
        "no_spinner",
        "Ana led 3-2",
        Play(T("3-1"), DOWN),
        "there is no down end yet: up and down open on the spinner, the first double played (R9)",
    ),
    refusal(
        "R10",
        "spinner_sides_open",
        "boneyard of 3",
        Play(T("2-5"), UP),
        "the spinner's up and down open once both its sides are covered (R10): "
        "2-2 has 1 of 2 covered",
    ),
    # R12: what can be done in each part of a hand.
    refusal(
        "R12",
        "hand_not_started",
        "not started",
        Play(T("3-2")),
        "cannot play: the hand has not started: start it first",
    ),
    refusal(
        "R12",
        "hand_not_started",
        "example C settled",
        Draw(),
        "cannot draw: the hand has not started: start it first",
    ),
    refusal(
        "R12",
        "hand_not_started",
        "not started",
        EndHand.of({}),
        "cannot settle the hand: the hand has not started: start it first",
    ),
    refusal(
        "R12",
        "hand_in_progress",
        "Ana led 3-2",
        StartHand(0),
        "cannot start a hand: the hand is still being played",
    ),
    refusal(
        "R12",
        "hand_in_progress",
        "Ana led 3-2",
        EndHand.of({0: 10, 1: 10, 2: 10}),
        "cannot settle the hand: the hand is still being played",
    ),
    refusal(
        "R12",
        "hand_over",
        "example C over",
        Play(T("3-4")),
        "cannot play: the hand is over: enter what each player still holds",
    ),
    refusal(
        "R12",
        "hand_over",
        "blocked",
        Pass(),
        "cannot pass: the hand is over: enter what each player still holds",
    ),
    refusal(
        "R12",
        "hand_over",
        "example C over",
        StartHand(0),
        "cannot start a hand: the hand is over: enter what each player still holds",
    ),
    refusal(
        "R12", "game_over", "game over", Play(T("2-2"), RIGHT), "cannot play: the game is over"
    ),
    refusal(
        "R12", "game_over", "game over", EndHand.of({}), "cannot settle the hand: the game is over"
    ),
    refusal("R12", "game_over", "game over", StartHand(1), "cannot start a hand: the game is over"),
    # Seats outside the table.
    refusal(
        None,
        "bad_seat",
        "Ana led 3-2",
        Play(T("2-2"), RIGHT, seat=3),
        "seat 4 is not at this table",
    ),
    refusal(None, "bad_seat", "Ana led 3-2", Draw(seat=3), "seat 4 is not at this table"),
    refusal(None, "bad_seat", "boneyard empty", Pass(seat=3), "seat 4 is not at this table"),
    # Undo needs something to undo.
    refusal(None, "nothing_to_undo", "not started", Undo(), "there is nothing to undo"),
]

FITTING_32 = "6-3, 6-2, 5-3, 5-2, 4-3, 4-2, 3-3, 3-1, 3-0, 2-2, 2-1 and 2-0 are not on the table"
R7A_REFUSALS = [
    refusal(
        "R7a",
        "must_hold_fitting",
        "example E",
        Pass(),
        "Ana must hold a tile that fits, so cannot pass: 6-5, 6-4, 6-3, 6-2, 6-1 and 6-0 are not "
        "on the table; the boneyard is empty; Ben drew 10 tiles at move 2 and passed at move 3, "
        "so holds none of them (R7a)",
        RecordContradiction,
    ),
    refusal(
        "R7a",
        "must_hold_fitting",
        "Ben drew 7 on 3-2",
        Draw(),
        f"Ben must hold a tile that fits, so cannot draw: {FITTING_32}; the boneyard holds 3 "
        "tiles; Ana holds 8 tiles — at most 11 of the 12 can be elsewhere (R7a)",
        RecordContradiction,
    ),
    refusal(
        "R7a",
        "draw_must_fit",
        "Ana led 3-2, two players",
        Draw(10),
        f"Ben cannot draw 10 tiles without a tile that fits before the last: {FITTING_32}; at "
        "most 1 of them can be in the boneyard; Ana holds 8 tiles — at most 9 of the 12 can be "
        "elsewhere (R7a)",
        RecordContradiction,
    ),
    refusal(
        "R7a",
        "draw_must_fit",
        "Ana led 3-2, two players",
        Draw(8),
        f"Ben cannot draw 8 tiles without a tile that fits before the last: {FITTING_32}; at "
        "most 3 of them can be in the boneyard; Ana holds 8 tiles — at most 11 of the 12 can be "
        "elsewhere (R7a)",
        RecordContradiction,
    ),
]

R14_REFUSALS = [
    refusal(
        "R14",
        "report_together",
        "example F over",
        EndHand.of({1: 0, 2: 0}),
        "Ben and Cy both report 0 pips, but only 0-0 has none",
        ImpossibleReport,
    ),
    refusal(
        "R14",
        "report_together",
        "example F over",
        EndHand.of({1: 10, 2: 10}),
        "Ben and Cy both report 10 pips, but only 5-5 has 10",
        ImpossibleReport,
    ),
    refusal(
        "R14",
        "report_together",
        "example C over",
        EndHand.of({1: 16, 2: 4}),
        "Ben's 16 pips in 2 tiles and Cy's 4 pips in 1 tile cannot both be true: no way of "
        "sharing out the unplayed tiles not reported by name (6-6, 6-5, 6-4, 5-3, 4-3, 3-0, "
        "2-2, 1-1, 0-0) gives them",
        ImpossibleReport,
    ),
    refusal(
        "R14",
        "report_missing",
        "example C over",
        EndHand.of({1: 13}),
        "Cy still holds tiles: how many pips?",
        ImpossibleReport,
    ),
    refusal(
        "R14",
        "report_too_many",
        "example C over",
        EndHand.of({1: 24, 2: 7}),
        "Ben holds 2 tiles; two unplayed tiles total at most 23 pips",
        ImpossibleReport,
    ),
    refusal(
        "R14",
        "report_too_many",
        "example C over",
        EndHand.of({1: 13, 2: 13}),
        "Cy holds 1 tile; one unplayed tile has at most 12 pips",
        ImpossibleReport,
    ),
    refusal(
        "R14",
        "report_too_few",
        "example C over",
        EndHand.of({1: 1, 2: 7}),
        "Ben holds 2 tiles; two unplayed tiles total at least 2 pips",
        ImpossibleReport,
    ),
    refusal(
        "R14",
        "report_impossible",
        "example C over",
        EndHand.of({1: 13, 2: 5}),
        "no unplayed tile has exactly 5 pips, so Cy cannot hold that",
        ImpossibleReport,
    ),
    refusal(
        "R14",
        "report_tile_played",
        "example C over",
        EndHand.of({1: tiles("6-5 4-4"), 2: tiles("3-4")}),
        "4-4 was already played, so Ben cannot hold it",
        ImpossibleReport,
    ),
    refusal(
        "R14",
        "report_tile_twice",
        "example C over",
        EndHand.of({1: tiles("6-5 1-1"), 2: tiles("1-1")}),
        "1-1 is reported by Ben and Cy",
        ImpossibleReport,
    ),
    refusal(
        "R14",
        "report_tile_twice",
        "example C over",
        EndHand.of({1: tiles("1-1 1-1"), 2: 7}),
        "1-1 is reported twice",
        ImpossibleReport,
    ),
    refusal(
        "R14",
        "report_tile_count",
        "example C over",
        EndHand.of({1: tiles("6-5"), 2: tiles("3-4")}),
        "Ben holds 2 tiles, not 1",
        ImpossibleReport,
    ),
    refusal(
        "R14",
        "report_empty_hand",
        "example C over",
        EndHand.of({0: 5, 1: 13, 2: 7}),
        "Ana holds no tiles, so holds no pips",
        ImpossibleReport,
    ),
    refusal(
        "R14",
        "report_pips",
        "example C over",
        EndHand.of({1: -3, 2: 7}),
        "Ben's pips must be a whole number, 0 or more",
        ImpossibleReport,
    ),
    refusal(
        "R14",
        "report_total",
        "blocked",
        EndHand.of({0: 40, 1: 100}),
        "the boneyard is empty, so the hands hold every unplayed tile: "
        "163 pips in all, but the reports add up to 140",
        ImpossibleReport,
    ),
    refusal(
        None,
        "bad_seat",
        "example C over",
        EndHand.of({1: 13, 2: 7, 3: 0}),
        "seat 4 is not at this table",
    ),
    refusal(
        None,
        "bad_seat",
        "example C over",
        EndHand.of({1: 13, 2: 7, -3: 5}),
        "seat -2 is not at this table",
    ),
]


@pytest.mark.parametrize(
    ("scenario", "action", "kind", "code", "rule", "message"),
    ENGINE_REFUSALS + R7A_REFUSALS + R14_REFUSALS,
)
def test_refusal_changes_nothing(scenario, action, kind, code, rule, message):
    state = build(scenario)
    before = copy.deepcopy(state)
    with pytest.raises(kind) as refused:
        state.apply(action)
    error = refused.value
    assert (error.code, error.rule, error.message) == (code, rule, message)
    assert str(error) == message
    assert error.as_dict() == {"code": code, "rule": rule, "message": message}
    assert state == before == build(scenario)
    assert state.can_undo == bool(SCENARIOS[scenario]()[1])


def test_refused_play_is_explained_before_it_is_tried():
    """``why_not`` answers with the refusal a play would meet (a hint screen uses it)."""
    state = build("Ana led 3-2")
    assert state.why_not(T("2-1"), UP).code == "no_spinner"
    assert state.why_not(T("6-6")).message == "no open end shows 6: open ends are 3, 2"
    assert state.why_not(T("3-2")).code == "already_played"
    assert state.why_not(T("2-1"), RIGHT) is None
    assert state.placements(T("6-6")) == ()


# --- input that is not a tile ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "code"),
    [
        pytest.param("", "bad_tile", id="R1-bad_tile-empty"),
        pytest.param("64x", "bad_tile", id="R1-bad_tile-trailing"),
        pytest.param("6--4", "bad_tile", id="R1-bad_tile-two-dashes"),
        pytest.param("six-four", "bad_tile", id="R1-bad_tile-words"),
        pytest.param("6-44", "bad_tile", id="R1-bad_tile-three-halves"),
        pytest.param("7-1", "not_in_set", id="R1-not_in_set-7"),
        pytest.param("6|9", "not_in_set", id="R1-not_in_set-9"),
    ],
)
def test_notation_refused(text, code):
    with pytest.raises(NotationError) as refused:
        Tile.parse(text)
    assert (refused.value.code, refused.value.rule) == (code, None)
    if code == "bad_tile":
        assert refused.value.message == f"{text!r} is not a tile: write it like 6-4"
    else:
        assert refused.value.message.endswith(
            "is not a tile of a double-six set: each half has 0 to 6 pips"
        )


@pytest.mark.parametrize(
    "halves", [(7, 0), (-1, 2), (True, 1), (6, 2.0)], ids=lambda h: f"R1-not_in_set-{h}"
)
def test_tile_outside_the_set_refused(halves):
    with pytest.raises(NotationError) as refused:
        Tile(*halves)
    assert refused.value.code == "not_in_set"


def test_tile_parse_refuses_non_text():
    with pytest.raises(NotationError) as refused:
        Tile.parse(64)
    assert refused.value.code == "bad_tile"


@pytest.mark.parametrize(
    ("data", "code"),
    [
        pytest.param({"type": "jump"}, "bad_action", id="input-bad_action"),
        pytest.param({"type": "draw", "count": 0}, "bad_draw", id="R6-bad_draw"),
        pytest.param({"type": "draw", "count": 29}, "bad_draw", id="R6-bad_draw-more-than-a-set"),
        pytest.param({"type": "pass", "seat": 7}, "bad_seat", id="input-bad_seat"),
        pytest.param({"type": "pass", "confirm": "yes"}, "bad_confirm", id="R7a-bad_confirm"),
        pytest.param({"type": "draw", "confirm": 1}, "bad_confirm", id="R7a-bad_confirm-draw"),
        pytest.param({"type": "play", "tile": "6-4", "end": "top"}, "bad_end", id="R5-bad_end"),
        pytest.param({"type": "play", "tile": "6-x"}, "bad_tile", id="R1-bad_tile"),
        pytest.param({"type": "end_hand"}, "report_missing", id="R14-report_missing"),
        pytest.param(
            {"type": "end_hand", "remaining": {"1": 1.5}}, "report_pips", id="R14-report_pips"
        ),
        pytest.param({"type": "end_hand", "remaining": {"Ben": 3}}, "bad_seat", id="R14-bad_seat"),
        pytest.param(
            {"type": "end_hand", "remaining": {"¹": 3}}, "bad_seat", id="R14-bad_seat-superscript"
        ),
        pytest.param(
            {"type": "end_hand", "remaining": {"1" * 5000: 3}}, "bad_seat", id="R14-bad_seat-huge"
        ),
    ],
)
def test_stored_action_refused(data, code):
    with pytest.raises(RuleError) as refused:
        from_dict(data)
    assert refused.value.code == code


# --- options ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "settings", "code", "rule"),
    [
        pytest.param(["Ana"], {}, "player_count", "R2", id="R2-player_count-one"),
        pytest.param(
            ["A", "B", "C", "D", "E"], {}, "player_count", "R2", id="R2-player_count-five"
        ),
        pytest.param(
            ["Ana", "Ben", "Cy"],
            {"partnership": True},
            "partnership",
            "R2",
            id="R2-partnership-three",
        ),
        pytest.param(
            ["Ana", "Ben"], {"partnership": True}, "partnership", "R2", id="R2-partnership-two"
        ),
        pytest.param(["Ana", "ana"], {}, "duplicate_name", "R2", id="R2-duplicate_name"),
        pytest.param(["Ana", " Ana "], {}, "duplicate_name", "R2", id="R2-duplicate_name-spaces"),
        pytest.param(["Ana", ""], {}, "player_name", None, id="R2-player_name-empty"),
        pytest.param(
            ["Ana", "B" * (MAX_NAME_LENGTH + 1)], {}, "player_name", None, id="R2-player_name-long"
        ),
        pytest.param(["Ana", "Ben"], {"preset": "sniff"}, "preset", None, id="presets-preset"),
        pytest.param(["Ana", "Ben"], {"target": 0}, "target", "R15", id="R15-target-zero"),
        pytest.param(["Ana", "Ben"], {"target": 4}, "target", "R15", id="R15-target-four"),
        pytest.param(["Ana", "Ben"], {"target": 10001}, "target", "R15", id="R15-target-huge"),
        pytest.param(["Ana", "Ben"], {"target": "lots"}, "target", "R15", id="R15-target-words"),
        pytest.param(["Ana", "Ben"], {"target": True}, "target", "R15", id="R15-target-bool"),
        pytest.param(["Ana", "Ben"], {"deal": "6"}, "deal", "R1", id="R1-deal"),
        pytest.param(
            ["Ana", "Ben"], {"settlement": "all"}, "settlement", "R13", id="R13-settlement"
        ),
        pytest.param(["Ana", "Ben"], {"finish": "never"}, "finish", "R16", id="R16-finish"),
        pytest.param(["Ana", "Ben"], {"sniff": "yes"}, "option", None, id="presets-option"),
    ],
)
def test_options_refused(players, settings, code, rule):
    with pytest.raises(BadOptions) as refused:
        Options.make(players, **settings)
    assert (refused.value.code, refused.value.rule) == (code, rule)


def test_options_messages():
    with pytest.raises(BadOptions, match=r"^partnerships need exactly 4 players$"):
        Options.make(["Ana", "Ben", "Cy"], partnership=True)
    with pytest.raises(
        BadOptions,
        match=r"^unknown preset 'sniff': choose seed, pagat, muggins, five-up, fives-and-threes$",
    ):
        Options.make(["Ana", "Ben"], preset="sniff")
    with pytest.raises(
        BadOptions, match=r"^deal must be '9-7-5' or '5' or '7-5-5' or '9-6', not '6'$"
    ):
        Options.make(["Ana", "Ben"], deal="6")
