"""The family of R26–R30: worked example L (Fives and Threes), the block game's knocks, the
five for going out, the rotating lead, ten to get in and the clock, with every refusal."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests import scripts
from webapp.rules import (
    BadOptions,
    Draw,
    EndHand,
    GameState,
    HandEnd,
    IllegalAction,
    Options,
    Pass,
    Play,
    StartHand,
    Status,
    Tile,
)
from webapp.rules.actions import CallTime, from_dict, to_dict

NAMES = ["Ana", "Ben"]


def threes(**rules: object) -> GameState:
    return GameState.new(Options.make(NAMES, preset="fives-and-threes", **rules))


def apply_all(state: GameState, actions: list) -> GameState:
    for action in actions:
        state = state.apply(action)[0]
    return state


# --- L. Fives and Threes, step by step ------------------------------------------------------------

# Each play of example L: the count after it and its points (R26), the breakdown read out.
EXAMPLE_L = [
    (10, 2, "[5|5] 10 = 10"),
    (14, 0, "[5|5] 10 + 4 = 14"),
    (5, 1, "1 + 4 = 5"),
    (9, 3, "1 + [4|4] 8 = 9"),
    (14, 0, "6 + [4|4] 8 = 14"),
    (9, 3, "6 + 3 = 9"),
    (15, 8, "[6|6] 12 + 3 = 15"),
    (18, 6, "[6|6] 12 + [3|3] 6 = 18"),
    (8, 0, "2 + [3|3] 6 = 8"),
    (2, 0, "2 + 0 = 2"),
    (4, 0, "[2|2] 4 + 0 = 4"),
    (10, 2, "[2|2] 4 + 6 = 10"),
]


def test_example_l_step_by_step():
    state = threes().apply(StartHand(0))[0]
    assert state.options.hand_size == 7 and state.options.goal == 61
    seen = []
    for action in scripts.EXAMPLE_L.actions():
        state, outcome = state.apply(action)
        if isinstance(action, Play):
            seen.append((outcome.count, outcome.points, outcome.breakdown))
    assert [(c, p) for c, p, _ in seen] == [(c, p) for c, p, _ in EXAMPLE_L]
    assert [b.replace(" ", "") for _, _, b in seen] == [b.replace(" ", "") for _, _, b in EXAMPLE_L]
    # Ben went out with his seventh tile: the hand ends, with nothing more scored in it.
    assert (state.status, state.hand.end, state.hand.went_out) == (
        Status.HAND_OVER,
        HandEnd.DOMINO,
        1,
    )
    assert state.scores == (11, 14)


def test_example_l_knocks_are_passes_and_nobody_draws():
    state = apply_all(threes().apply(StartHand(0))[0], scripts.EXAMPLE_L[:10].actions())
    assert not state.can_draw and state.can_pass
    state, outcome = state.apply(Pass())
    assert outcome.message == "Ana knocked"
    assert state.hand.boneyard == 28 - 14  # the undealt tiles stay face down, out of play
    assert state.hand.drawable == 0


def test_example_l_going_out_scores_one_five_and_nothing_is_reported():
    state = scripts.EXAMPLE_L.played(threes().apply(StartHand(0))[0])
    assert state.next_step() == "Ben went out: settle the hand (a five for going out)"
    state, outcome = state.apply(EndHand.of({}))
    assert outcome.result.settled == (0, 1)
    assert state.scores == (11, 15)
    # R29: the lead passes to the next seat, whoever went out.
    assert state.next_leader == 1
    assert state.next_step() == "Start the next hand: Ben leads (R29)"


def test_example_l_tiles_left_may_be_entered_for_the_audit_and_count_nothing():
    state = scripts.EXAMPLE_L.played(threes().apply(StartHand(0))[0])
    state, outcome = state.apply(EndHand.of({0: [Tile(6, 5), Tile(4, 1)]}))
    assert outcome.result.settled == (0, 1) and outcome.result.pips == (16, 0)


def test_example_l_exact_finish_at_59():
    """At 59 of 61 (exact): a count of 9 (3 points) scores nothing and stands; 6 (2) wins."""
    led = replace(threes().apply(StartHand(0))[0], scores=(59, 0))
    after, outcome = led.apply(Play(Tile(6, 3)))
    assert (outcome.count, outcome.points, after.scores) == (9, 0, (59, 0))
    assert "must reach 61 exactly" in outcome.message
    assert after.status is Status.PLAYING and after.hand.layout.tiles == (Tile(6, 3),)
    won, outcome = led.apply(Play(Tile(4, 2)))
    assert (outcome.count, outcome.points, won.scores) == (6, 2, (61, 0))
    assert (won.status, won.winner) == (Status.GAME_OVER, 0)


@pytest.mark.parametrize(
    ("count", "points"),
    [
        *((3, 1), (5, 1), (6, 2), (9, 3), (10, 2), (12, 4), (15, 8), (18, 6), (20, 4)),
        *((21, 7), (24, 8), (25, 5), (27, 9), (30, 16), (7, 0), (0, 0)),
    ],
)
def test_rule_26_the_table_of_counts(count, points):
    assert threes().options.variant.points_for(count) == points


# --- R27–R29 under other rules --------------------------------------------------------------------


def test_rule_28_a_blocked_hand_scores_nothing():
    state = GameState.new(Options.make(NAMES, draw="never", settlement="go-out-bonus"))
    state = apply_all(state, [StartHand(0), Play(Tile(6, 6)), Pass(), Pass()])
    assert state.status is Status.HAND_OVER and state.hand.end is HandEnd.BLOCKED
    assert state.apply(EndHand.of({}))[1].result.settled == (0, 0)


def test_rule_28_in_pips_going_out_scores_five_and_in_partnership_the_side_scores():
    options = Options.make(
        ["Ana", "Ben", "Cy", "Di"], partnership=True, settlement="go-out-bonus", deal="5"
    )
    state = GameState.new(options).apply(StartHand(2))[0]
    state = replace(state, hand=replace(state.hand, held=(5, 5, 1, 5)))
    state, _ = state.apply(Play(Tile(3, 1)))
    assert state.hand.went_out == 2
    assert state.apply(EndHand.of({}))[1].result.settled == (5, 0)


def test_rule_29_the_lead_rotates_after_a_block_too():
    options = Options.make(
        ["Ana", "Ben", "Cy"], draw="never", next_lead="rotates", settlement="go-out-bonus"
    )
    state = apply_all(GameState.new(options), [StartHand(2), Play(Tile(6, 6)), Pass(), Pass()])
    state = state.apply(Pass())[0]
    assert state.hand.end is HandEnd.BLOCKED
    state = state.apply(EndHand.of({}))[0]
    assert state.next_leader == 0  # after Cy, the next seat: Ana


def test_rule_30_ten_to_get_in():
    state = GameState.new(Options.make(NAMES, get_in=10)).apply(StartHand(0))[0]
    state, outcome = state.apply(Play(Tile(3, 2)))  # 5: not enough to get in
    assert (outcome.points, state.scores) == (0, (0, 0))
    assert outcome.message.endswith(
        "but Ana needs 10 or more to get in: the points are not scored (R30)"
    )
    state = GameState.new(Options.make(NAMES, get_in=10)).apply(StartHand(0))[0]
    state, _ = state.apply(Play(Tile(5, 5)))  # 10 gets Ana in
    state, _ = state.apply(Play(Tile(5, 0)))  # Ben: 0 + [5|5] 10 = 10 gets him in
    assert state.scores == (10, 10)
    state, _ = state.apply(Play(Tile(5, 2)))  # Ana: 0 + 2
    state, outcome = state.apply(Play(Tile(0, 3)))  # Ben, in: 3 + 2 = 5 counts
    assert (outcome.points, state.scores) == (5, (10, 15))


def test_rule_30_getting_in_in_fives_takes_two_points():
    state = threes(get_in=10).apply(StartHand(0))[0]
    state, outcome = state.apply(Play(Tile(2, 1)))  # 3: one point, not enough
    assert (outcome.points, state.scores) == (0, (0, 0))
    state, outcome = state.apply(Play(Tile(1, 4)))  # Ben: 2 + 4 = 6, two points: in
    assert state.scores == (0, 2)
    state, outcome = state.apply(Play(Tile(2, 0)))  # Ana: 0 + 4 = 4: nothing
    state, outcome = state.apply(Play(Tile(4, 5)))  # Ben: 0 + 5 = 5: one point, he is in
    assert state.scores == (0, 3)


# --- R30: calling time ----------------------------------------------------------------------------


def timed(**rules: object) -> GameState:
    return GameState.new(Options.make(NAMES, time_limit=30, **rules))


def test_rule_30_time_ends_the_game_and_the_highest_wins():
    state = apply_all(timed(), [StartHand(0), Play(Tile(3, 2))])  # Ana 5
    state, outcome = state.apply(CallTime())
    assert (state.status, state.winner) == (Status.GAME_OVER, 0)
    assert outcome.message == "Time: Ana won"


def test_rule_30_tied_sides_play_on_and_the_first_to_score_wins():
    state = apply_all(timed(), [StartHand(0), Play(Tile(6, 1))])  # 7: nothing
    state, outcome = state.apply(CallTime())
    assert state.status is Status.PLAYING and state.overtime == (0, 1)
    assert "Ana and Ben are level and play on" in outcome.message
    state, _ = state.apply(Play(Tile(1, 3)))  # Ben: 6 + 3 = 9, nothing
    assert state.status is Status.PLAYING
    state, outcome = state.apply(Play(Tile(6, 4)))  # Ana: 4 + 3 = 7: nothing
    state, outcome = state.apply(Play(Tile(3, 3)))  # Ben: 4 + [3|3] 6 = 10
    assert (outcome.points, state.status, state.winner) == (10, Status.GAME_OVER, 1)


def test_rule_30_overtime_won_at_a_settlement():
    state = apply_all(timed(), [StartHand(0), Play(Tile(6, 1))])
    state = state.apply(CallTime())[0]
    state = replace(state, hand=replace(state.hand, held=(6, 1)))
    state, _ = state.apply(Play(Tile(1, 1)))  # Ben goes out: 6 + [1|1] 2 = 8
    state = state.apply(EndHand.of({0: 22}))[0]  # subtract-own: Ana loses, nobody scores
    assert state.status is Status.AWAITING_START and state.overtime == (0, 1)


def test_rule_30_the_clock_survives_a_snapshot():
    state = apply_all(timed(), [StartHand(0), Play(Tile(6, 1))])
    state = state.apply(CallTime())[0]
    state = replace(state, hand=replace(state.hand, held=(6, 1)))
    state = state.apply(Play(Tile(1, 1)))[0]
    state = state.apply(EndHand.of({0: 22}))[0].apply(StartHand())[0]
    assert state.overtime == (0, 1)
    assert GameState.from_dict(state.options, state.to_dict()) == state


def test_call_time_as_data():
    assert to_dict(CallTime()) == {"type": "call_time"}
    assert from_dict({"type": "call_time"}) == CallTime()


# --- every new refusal, with its rule ----------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "code", "rule"),
    [
        ({"deal": "9-5"}, "deal", "R1"),
        ({"count": "threes"}, "count", "R26"),
        ({"count": "fives-and-threes"}, "count", "R26"),  # points in pips
        ({"preset": "fives-and-threes", "points": "pips"}, "count", "R26"),
        ({"draw": "seldom"}, "draw", "R19"),
        ({"settlement": "go-out"}, "settlement", "R13"),
        ({"next_lead": "winner"}, "next_lead", "R29"),
        ({"get_in": 5}, "get_in", "R30"),
        ({"get_in": "ten"}, "get_in", "R30"),
        ({"time_limit": 7}, "time_limit", "R30"),
        ({"time_limit": -15}, "time_limit", "R30"),
    ],
)
def test_options_of_rules_26_to_30_are_refused(rules, code, rule):
    with pytest.raises(BadOptions) as refused:
        Options.make(NAMES, **rules)
    assert (refused.value.code, refused.value.rule) == (code, rule)
    assert refused.value.message


def _time_over() -> GameState:
    return apply_all(timed(), [StartHand(0), Play(Tile(3, 2)), CallTime()])


def _rotated() -> GameState:
    state = scripts.EXAMPLE_L.played(threes().apply(StartHand(0))[0])
    return state.apply(EndHand.of({}))[0]


@pytest.mark.parametrize(
    ("state", "action", "code", "rule"),
    [
        (
            lambda: threes().apply(StartHand(0))[0].apply(Play(Tile(5, 5)))[0],
            Draw(),
            "no_drawing",
            "R27",
        ),
        (
            lambda: GameState.new(Options.make(NAMES)).apply(StartHand(0))[0],
            CallTime(),
            "no_time_limit",
            "R30",
        ),
        (lambda: timed().apply(StartHand(0))[0], CallTime(), "clock_not_started", "R30"),
        (lambda: timed(), CallTime(), "clock_not_started", "R30"),
        (
            lambda: apply_all(timed(), [StartHand(0), Play(Tile(6, 1)), CallTime()]),
            CallTime(),
            "time_called",
            "R30",
        ),
        (_time_over, Play(Tile(2, 1)), "game_over", "R30"),
        (_time_over, Pass(), "game_over", "R30"),
        (_time_over, CallTime(), "game_over", "R30"),
        (_time_over, StartHand(1), "game_over", "R30"),
        (_rotated, StartHand(0), "wrong_leader", "R29"),
    ],
)
def test_actions_refused_by_rules_26_to_30(state, action, code, rule):
    before = state()
    with pytest.raises(IllegalAction) as refused:
        before.apply(action)
    assert (refused.value.code, refused.value.rule) == (code, rule)
    assert refused.value.message
