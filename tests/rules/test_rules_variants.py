"""The house rules R17–R25 and the worked examples G–K of RULES.md, play by play."""

from __future__ import annotations

from dataclasses import replace

import pytest
from rules_table import Table, tiles

from tests import scripts
from webapp.rules import (
    DOUBLE_SIX,
    Arm,
    BadOptions,
    Draw,
    GameState,
    IllegalAction,
    Layout,
    Options,
    Pass,
    Play,
    StartHand,
    Status,
    Tile,
)

LEFT, RIGHT, UP, DOWN = Arm.LEFT, Arm.RIGHT, Arm.UP, Arm.DOWN
NAMES = ["Ana", "Ben", "Cy"]


def started(players: list[str] | None = None, leader: int = 0, **rules: object) -> GameState:
    options = Options.make(players or NAMES, **rules)  # type: ignore[arg-type]
    return GameState.new(options).apply(StartHand(leader))[0]


def steps(script: scripts.Script, seen: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
    """Each move of ``script`` (tile, end) with what it leaves (``seen``, in the same order)."""
    return [(move.tile, move.end, *after) for move, after in zip(script, seen, strict=True)]


def steps_of(state: GameState, rows: list[tuple[str, str | None]]) -> GameState:
    for text, end in rows:
        state = state.apply(Play(Tile.parse(text), None if end is None else Arm.parse(end)))[0]
    return state


# --- G. No spinner (muggins) ---------------------------------------------------------------------

# tile, end (tests/scripts.py) → open ends, count, points, breakdown
EXAMPLE_G = steps(
    scripts.EXAMPLE_G,
    [
        ({"left": 4, "right": 4}, 8, 0, "[4|4] 8 = 8"),  # 4-4
        ({"left": 4, "right": 1}, 9, 0, "[4|4] 8 + 1 = 9"),  # 4-1 right
        ({"left": 6, "right": 1}, 7, 0, "6 + 1 = 7"),  # 4-6 left
        ({"left": 6, "right": 1}, 8, 0, "6 + [1|1] 2 = 8"),  # 1-1 right
        ({"left": 3, "right": 1}, 5, 5, "3 + [1|1] 2 = 5"),  # 6-3 left
        ({"left": 3, "right": 2}, 5, 5, "3 + 2 = 5"),  # 1-2 right
    ],
)


@pytest.mark.parametrize(
    ("step", "tile", "end", "open_ends", "count", "points", "breakdown"),
    [(i, *row) for i, row in enumerate(EXAMPLE_G, start=1)],
    ids=[f"G{i}-{row[0]}" for i, row in enumerate(EXAMPLE_G, start=1)],
)
def test_example_g_step(step, tile, end, open_ends, count, points, breakdown):
    """R17 spinner = "none": the layout keeps two ends all hand long."""
    before = steps_of(started(preset="muggins"), [row[:2] for row in EXAMPLE_G[: step - 1]])
    after, outcome = before.apply(Play(Tile.parse(tile), None if end is None else Arm(end)))
    layout = after.hand.layout
    assert {arm.value: pip for arm, pip in layout.open_ends.items()} == open_ends
    assert (outcome.count, outcome.points, outcome.breakdown) == (count, points, breakdown)
    assert layout.spinner is None


def test_example_g_up_is_refused_under_muggins_but_scores_10_under_seed():
    rows = [row[:2] for row in EXAMPLE_G[:3]]
    muggins = steps_of(started(preset="muggins"), rows)
    with pytest.raises(IllegalAction) as refused:
        muggins.apply(Play(Tile(4, 3), UP))
    assert (refused.value.code, refused.value.rule) == ("no_spinner", "R17")
    assert "Muggins" in refused.value.message
    seed = steps_of(started(), rows)
    _, outcome = seed.apply(Play(Tile(4, 3), UP))
    assert (outcome.count, outcome.points, outcome.breakdown) == (10, 10, "6 + 1 + 3 = 10")


# --- H. Every double a spinner (five-up, points in fives) ---------------------------------------

EXAMPLE_H = steps(
    scripts.EXAMPLE_H,
    [
        ({"left": 6, "right": 4}, 10, 2, "6 + 4 = 10"),  # 6-4
        ({"left": 6, "right": 4}, 14, 0, "6 + [4|4] 8 = 14"),  # 4-4 right
        ({"left": 6, "right": 2, "up": 4, "down": 4}, 8, 0, "6 + 2 = 8"),  # 4-2 right
        ({"left": 6, "right": 2, "up": 1, "down": 4}, 9, 0, "6 + 2 + 1 = 9"),  # 4-1 up
        ({"left": 6, "right": 2, "up": 1, "down": 4}, 15, 3, "[6|6] 12 + 2 + 1 = 15"),  # 6-6
        (  # 6-3 left
            {"left": 3, "right": 2, "up": 1, "down": 4, "6-6 up": 6, "6-6 down": 6},
            6,
            0,
            "3 + 2 + 1 = 6",
        ),
        (  # 6-5 on 6-6 up
            {"left": 3, "right": 2, "up": 1, "down": 4, "6-6 up": 5, "6-6 down": 6},
            11,
            0,
            "3 + 2 + 1 + 5 = 11",
        ),
        (  # 2-1 right
            {"left": 3, "right": 1, "up": 1, "down": 4, "6-6 up": 5, "6-6 down": 6},
            10,
            2,
            "3 + 1 + 1 + 5 = 10",
        ),
    ],
)


@pytest.mark.parametrize(
    ("step", "tile", "end", "open_ends", "count", "points", "breakdown"),
    [(i, *row) for i, row in enumerate(EXAMPLE_H, start=1)],
    ids=[f"H{i}-{row[0]}" for i, row in enumerate(EXAMPLE_H, start=1)],
)
def test_example_h_step(step, tile, end, open_ends, count, points, breakdown):
    """R17 spinner = "every-double" and R25 points = "fives" (the five-up preset)."""
    before = steps_of(
        started(["Ana", "Ben"], preset="five-up"), [row[:2] for row in EXAMPLE_H[: step - 1]]
    )
    after, outcome = before.apply(Play(Tile.parse(tile), None if end is None else Arm.parse(end)))
    layout = after.hand.layout
    assert {arm.value: pip for arm, pip in layout.open_ends.items()} == open_ends
    assert (outcome.count, outcome.points, outcome.breakdown) == (count, points, breakdown)


def test_example_h_scores_are_kept_in_fives():
    state = steps_of(started(["Ana", "Ben"], preset="five-up"), [r[:2] for r in EXAMPLE_H])
    assert state.scores == (2 + 3, 2)  # Ana: 10 and 15 pips; Ben: 10 pips
    assert state.options.goal == 61


def test_example_h_step_7_is_refused_under_seed_only_the_first_double_spins():
    rows = [row[:2] for row in EXAMPLE_H[:6]]
    seed = steps_of(started(["Ana", "Ben"]), rows)
    with pytest.raises(IllegalAction) as refused:
        seed.apply(Play(Tile(6, 5), Arm.parse("6-6 up")))
    assert (refused.value.code, refused.value.rule) == ("not_spinner", "R9")
    assert "only the first double played, 4-4" in refused.value.message


def test_the_first_spinner_may_also_be_named_by_its_double():
    """R17: the first spinner's ends are up and down; "4-4 up" names the same end."""
    rows = [row[:2] for row in EXAMPLE_H[:3]]
    state = steps_of(started(["Ana", "Ben"], preset="five-up"), rows)
    after, _ = state.apply(Play(Tile(4, 1), Arm.parse("4-4 up")))
    assert after.hand.moves[-1].arm is UP


def test_a_later_spinner_on_a_spinner_branch_branches_again():
    """R17: a double on the up arm of the first spinner is a spinner too, with its own ends."""
    rows = [("5-5", None), ("5-1", "left"), ("5-2", "right"), ("5-3", "up"), ("3-3", "up")]
    state = steps_of(started(["Ana", "Ben"], spinner="every-double"), rows)
    assert "3-3 up" not in {arm.value for arm in state.hand.layout.open_ends}
    state = steps_of(state, [("3-4", "up")])
    ends = {arm.value: pip for arm, pip in state.hand.layout.open_ends.items()}
    assert ends == {"left": 1, "right": 2, "up": 4, "down": 5, "3-3 up": 3, "3-3 down": 3}
    _, outcome = state.apply(Play(Tile(3, 0), Arm.parse("3-3 down")))
    assert outcome.breakdown == "1 + 2 + 4 + 0 = 7"  # 5-5's empty down counts nothing


# --- I. Doubles count once ----------------------------------------------------------------------

EXAMPLE_I = steps(  # the plays of example B, under R18 doubles = "one-half"
    scripts.EXAMPLE_B,
    [
        (5, 5, "[5|5] 5 = 5"),  # 5-5
        (8, 0, "3 + [5|5] 5 = 8"),  # 5-3 left
        (5, 5, "3 + 2 = 5"),  # 5-2 right
        (5, 5, "3 + 2 + 0 = 5"),  # 5-0 up
        (5, 5, "3 + [2|2] 2 + 0 = 5"),  # 2-2 right
        (9, 0, "3 + [2|2] 2 + 4 = 9"),  # 0-4 up
    ],
)


@pytest.mark.parametrize(
    ("step", "tile", "end", "count", "points", "breakdown"),
    [(i, *row) for i, row in enumerate(EXAMPLE_I, start=1)],
    ids=[f"I{i}-{row[0]}" for i, row in enumerate(EXAMPLE_I, start=1)],
)
def test_example_i_step(step, tile, end, count, points, breakdown):
    """R18 doubles = "one-half": the plays of example B."""
    before = steps_of(started(doubles="one-half"), [row[:2] for row in EXAMPLE_I[: step - 1]])
    _, outcome = before.apply(Play(Tile.parse(tile), None if end is None else Arm(end)))
    assert (outcome.count, outcome.points, outcome.breakdown) == (count, points, breakdown)


def test_example_i_step_5_counts_7_and_nothing_under_both_halves():
    before = steps_of(started(), [row[:2] for row in EXAMPLE_I[:4]])
    _, outcome = before.apply(Play(Tile(2, 2), RIGHT))
    assert (outcome.count, outcome.points) == (7, 0)


# --- J. Settling under house rules ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("rounding", "lost"), [("nearest", 5), ("up", 10), ("down", 5), ("none", 7)]
)
def test_example_j_rounding_of_cy_holding_7_pips(rounding, lost):
    """R22 under subtract-own: Cy holds 7 pips."""
    assert Options.make(NAMES, rounding=rounding).variant.settle({1: 0, 2: 7}, [0, 1, 2], 0) == (
        0,
        0,
        -lost,
    )


@pytest.mark.parametrize(("rounding_of", "scored"), [("total", 5), ("each-hand", 10)])
def test_example_j_winner_takes_rounding_of_3_and_3_pips(rounding_of, scored):
    """R22 rounding_of under winner-takes: Ana went out, Ben and Cy hold 3 pips each."""
    variant = Options.make(NAMES, preset="pagat", rounding_of=rounding_of).variant
    assert variant.settle({0: 0, 1: 3, 2: 3}, [0, 1, 2], 0) == (scored, 0, 0)


@pytest.mark.parametrize(
    ("blocked", "scored"), [("fewest-takes", 20), ("difference", 15), ("nobody", 0)]
)
def test_example_j_a_block_under_winner_takes(blocked, scored):
    """R23: blocked, Ana 4 pips, Ben 9, Cy 13."""
    variant = Options.make(NAMES, preset="pagat", blocked=blocked).variant
    assert variant.settle({0: 4, 1: 9, 2: 13}, [0, 1, 2], None) == (scored, 0, 0)


def test_example_j_the_difference_is_rounded_each_hand_under_each_hand():
    """R22, R23: differences 5 and 9 → 5 + 10 = 15 (the total 14 → 15 too); 3 and 3 → 10."""
    variant = Options.make(NAMES, preset="pagat", blocked="difference", rounding_of="each-hand")
    assert variant.variant.settle({0: 4, 1: 9, 2: 13}, [0, 1, 2], None) == (15, 0, 0)
    assert variant.variant.settle({0: 1, 1: 4, 2: 4}, [0, 1, 2], None) == (10, 0, 0)


@pytest.mark.parametrize(("floor", "after"), [("zero", 0), ("none", -5)])
def test_example_j_a_floor_at_zero(floor, after):
    """R24: Ben at 10 loses 15 and stands at 0 (-5 under "none")."""
    variant = Options.make(NAMES, floor=floor).variant
    (delta,) = {d for d in variant.settle({1: 13}, [0, 1, 2], None) if d}
    assert variant.after(10, delta, 200) == after


def test_example_j_points_in_fives():
    """R25: the block above under fewest-takes pays 20 pips, 4 in fives."""
    variant = Options.make(NAMES, preset="pagat", points="fives").variant
    assert variant.settle({0: 4, 1: 9, 2: 13}, [0, 1, 2], None) == (4, 0, 0)


@pytest.mark.parametrize(("rounding", "settled"), [("up", 2), ("nearest", 1)])
def test_a_settlement_through_the_game_follows_the_house_rules(rounding, settled):
    """R13p, R22, R25 together: Ben goes out in a 2-player five-up game; Ana holds 3-3."""
    table = Table.of("Ana", "Ben", preset="five-up", rounding=rounding)
    hands = ["6-6 6-5 5-5 5-4 3-3", "6-0 1-0 1-1 1-2 2-0"]
    dealt = {tile for hand in hands for tile in tiles(hand)}
    table.start(hands, [tile for tile in DOUBLE_SIX if tile not in dealt], leader=1)
    for move in ["6-0", "6-6 left", "1-0 right", "6-5 left", "1-1 right", "5-5 left"]:
        table.play(*move.split())
    table.play("1-2", "right")
    table.play("5-4", "left")  # covers the 5-5: its ends open
    assert {"5-5 up", "5-5 down"} <= {arm.value for arm in table.state.hand.layout.open_ends}
    table.play("2-0", "right")  # Ben goes out
    outcome = table.settle()
    assert (outcome.result.pips, outcome.result.settled) == ((6, 0), (0, settled))


# --- K. Reserve and exact finish ----------------------------------------------------------------


def test_example_k_a_reserve_of_two_with_two_players():
    """R20 reserve = "by-players": 10 tiles in the boneyard, 8 may be drawn."""
    state = started(["Ana", "Ben"], reserve="by-players")
    assert (state.hand.boneyard, state.hand.drawable) == (10, 8)
    state = steps_of(state, [("6-6", None)])
    state = state.apply(Draw(8))[0]
    assert (state.can_draw, state.can_pass) == (False, True)
    with pytest.raises(IllegalAction) as refused:
        state.apply(Draw())
    assert (refused.value.code, refused.value.rule) == ("reserve_left", "R20")
    after, outcome = state.apply(Pass())
    assert outcome.kind == "pass" and after.hand.boneyard == 2


def test_example_k_an_exact_finish():
    """R25 finish = "exact", target 100: Ana at 95 counts 10 and stays at 95; Ben at 90
    counts 10, reaches 100 exactly and wins."""
    state = started(["Ana", "Ben"], finish="exact", target=100)
    state = replace(state, scores=(95, 90))
    state, outcome = state.apply(Play(Tile(5, 5)))  # Ana: [5|5] 10
    assert (outcome.count, outcome.points, state.scores) == (10, 0, (95, 90))
    assert "must reach 100 exactly" in outcome.message and "(R25)" in outcome.message
    assert state.hand.moves[-1].points == 0 and state.status is Status.PLAYING
    state, outcome = state.apply(Play(Tile(5, 0), LEFT))  # Ben: 0 + [5|5] 10
    assert (outcome.points, state.scores) == (10, (95, 100))
    assert (state.status, state.winner, state.winners) == (Status.GAME_OVER, 1, (1,))


def test_rule_25_two_sides_reaching_the_target_at_a_settlement_share_the_win():
    state = replace(GameState.new(Options.make(NAMES, finish="exact", target=100)))
    state = replace(state, scores=(80, 85, 80), status=Status.AWAITING_START)
    shared = state._check_target(immediate=False)
    assert shared.status is not Status.GAME_OVER
    both = replace(state, scores=(100, 85, 100))._check_target(immediate=False)
    assert (both.status, both.winners) == (Status.GAME_OVER, (0, 2))
    assert both.next_step() == "Game over: Ana and Cy share the win (R25)"


# --- refusals of the new rules ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "code", "rule"),
    [
        ({"spinner": "all"}, "spinner", "R17"),
        ({"doubles": "twice"}, "doubles", "R18"),
        ({"draw": "sometimes"}, "draw", "R19"),
        ({"reserve": 3}, "reserve", "R20"),
        ({"reserve": True}, "reserve", "R20"),
        ({"first_lead": "oldest"}, "first_lead", "R21"),
        ({"rounding": "half"}, "rounding", "R22"),
        ({"rounding_of": "both"}, "rounding_of", "R22"),
        ({"blocked": "all"}, "blocked", "R23"),
        ({"floor": "ten"}, "floor", "R24"),
        ({"finish": "never"}, "finish", "R16"),
        ({"points": "tens"}, "points", "R25"),
        ({"rounding": "none", "points": "fives"}, "rounding", "R25"),
        ({"preset": "five-up", "rounding": "none"}, "rounding", "R25"),
    ],
)
def test_options_outside_rules_17_to_25_are_refused(rules, code, rule):
    with pytest.raises(BadOptions) as refused:
        Options.make(["Ana", "Ben"], **rules)
    assert (refused.value.code, refused.value.rule) == (code, rule)
    assert refused.value.message


def _five_up_after(rows: list[tuple[str, str | None]]) -> GameState:
    return steps_of(started(["Ana", "Ben"], preset="five-up"), rows)


@pytest.mark.parametrize(
    ("state", "play", "code", "rule"),
    [
        pytest.param(
            steps_of(started(preset="muggins"), [("4-4", None), ("4-1", "right"), ("4-6", "left")]),
            Play(Tile(6, 1), DOWN),
            "no_spinner",
            "R17",
            id="R17-muggins-down",
        ),
        pytest.param(
            _five_up_after([("6-4", None), ("4-4", "right"), ("4-2", "right")]),
            Play(Tile(6, 5), Arm.parse("6-6 up")),
            "no_spinner",
            "R17",
            id="R17-later-spinner-not-on-table",
        ),
        pytest.param(
            _five_up_after([("6-4", None), ("4-4", "right"), ("4-2", "right"), ("6-6", "left")]),
            Play(Tile(6, 5), Arm.parse("6-6 up")),
            "spinner_sides_open",
            "R10",
            id="R10-later-spinner-sides",
        ),
        pytest.param(
            steps_of(
                started(),
                [
                    ("6-4", None),
                    ("4-4", "right"),
                    ("4-2", "right"),
                    ("6-6", "left"),
                    ("6-3", "left"),
                ],
            ),
            Play(Tile(6, 5), Arm.parse("6-6 down")),
            "not_spinner",
            "R9",
            id="R9-seed-second-double",
        ),
        pytest.param(
            started(first_lead="highest-double"),
            Play(Tile(6, 5)),
            "lead_not_double",
            "R21",
            id="R21-lead-not-double",
        ),
    ],
)
def test_plays_refused_by_the_house_rules(state, play, code, rule):
    with pytest.raises(IllegalAction) as refused:
        state.apply(play)
    assert (refused.value.code, refused.value.rule) == (code, rule)


@pytest.mark.parametrize(
    ("rules", "start", "code"),
    [
        ({"first_lead": "highest-double"}, StartHand(None), "leader_needed"),
        ({}, StartHand(0, no_double=True), "no_double_unneeded"),
    ],
)
def test_starts_refused_by_rule_21(rules, start, code):
    state = GameState.new(Options.make(NAMES, **rules))
    assert state.resolve(start) == start  # R21: never a random leader
    with pytest.raises(IllegalAction) as refused:
        state.apply(start)
    assert (refused.value.code, refused.value.rule) == (code, "R21")


def test_rule_21_a_table_with_no_double_leads_any_tile():
    state = GameState.new(Options.make(NAMES, first_lead="highest-double"))
    state = state.apply(StartHand(2, no_double=True))[0]
    _, outcome = state.apply(Play(Tile(6, 5)))
    assert outcome.seat == 2 and outcome.count == 11


def test_rule_21_the_next_hand_is_led_by_who_went_out_with_any_tile():
    """R21 holds in the first hand and after a block only: later hands follow R3."""
    state = GameState.new(Options.make(NAMES, first_lead="highest-double"))
    state = replace(state, next_leader=1, hand_number=1).apply(StartHand())[0]
    _, outcome = state.apply(Play(Tile(6, 5)))
    assert outcome.seat == 1 and outcome.count == 11


# --- explanations follow the game's rules -------------------------------------------------------


def test_learning_mode_explains_a_double_by_the_games_spinner_rule():
    from webapp.rules.explain import explain_play

    muggins = Options.make(NAMES, preset="muggins").variant
    before = Layout.empty(muggins).place(Tile(3, 2), None)
    reasons = explain_play(before, before.placements(Tile(2, 2))[0])
    assert any(r.rule == "R17" and "stays in the line" in r.text for r in reasons)
    five_up = Options.make(NAMES, preset="five-up").variant
    before = Layout.empty(five_up).place(Tile(4, 4), None).place(Tile(4, 6), RIGHT)
    reasons = explain_play(before, before.placements(Tile(6, 6))[0])
    assert any(r.rule == "R17" and "6-6 up" in r.text for r in reasons)
    assert str(reasons[-1]) == (
        "Count [4|4] 8 + [6|6] 12 = 20: a multiple of 5, 20 pips: scores 4 in fives (R11)"
    )


def _after_lead(players: list[str], **rules: object) -> GameState:
    return steps_of(started(players, **rules), [("6-6", None)])


@pytest.mark.parametrize(
    ("state", "action", "code", "rule"),
    [
        pytest.param(
            _after_lead(["Ana", "Ben"], reserve=2).apply(Draw(8))[0],
            Draw(),
            "reserve_left",
            "R20",
            id="R20-draw-the-reserve",
        ),
        pytest.param(
            _after_lead(["Ana", "Ben"], reserve=2),
            Draw(9),
            "draw_too_many",
            "R20",
            id="R20-draw-into-the-reserve",
        ),
        pytest.param(
            _after_lead(["Ana", "Ben", "Cy"], reserve="by-players"),
            Pass(),
            "must_draw",
            "R7",
            id="R7-pass-with-tiles-to-draw-beside-a-reserve",
        ),
        pytest.param(
            _after_lead(["Ana", "Ben"], draw="any-time"),
            Pass(),
            "must_draw",
            "R7",
            id="R19-any-time-drawing-still-passes-by-R7",
        ),
    ],
)
def test_draws_and_passes_refused_by_the_house_rules(state, action, code, rule):
    with pytest.raises(IllegalAction) as refused:
        state.apply(action)
    assert (refused.value.code, refused.value.rule) == (code, rule)
    assert refused.value.message


def test_rule_21_no_double_must_be_true_or_false_in_the_stored_form():
    from webapp.rules import from_dict, to_dict

    with pytest.raises(IllegalAction) as refused:
        from_dict({"type": "start_hand", "leader": 0, "no_double": "yes"})
    assert (refused.value.code, refused.value.rule) == ("bad_no_double", "R21")
    start = StartHand(1, no_double=True)
    assert from_dict(to_dict(start)) == start
    assert to_dict(StartHand(1)) == {"type": "start_hand", "leader": 1}  # as stored before R21


def test_rule_19_any_time_a_player_who_can_play_may_still_draw():
    """R19: the engine takes the draw either way; under any-time it proves nothing (R7a)."""
    state = _after_lead(["Ana", "Ben"], draw="any-time")
    after, outcome = state.apply(Draw())
    assert outcome.kind == "draw" and after.hand.held == (8, 10)
    assert after.options.variant.draws_any_time
    assert after.next_step() == "Ben to play, or draw again"


def test_r7a_never_refuses_a_draw_when_draws_are_allowed_at_any_time_R19() -> None:
    """Ana leads 3-2 and Ben draws the whole boneyard: twelve tiles show a 3 or a 2, so under
    R6 one of the ten must have fitted before the last (R7a refuses the entry). Under
    ``draw = "any-time"`` a drawn tile proves nothing: the same draw is recorded."""
    from webapp.rules import Draw, GameState, Options, Play, RecordContradiction, StartHand

    def after_the_lead(**rules: str) -> GameState:
        game = GameState.new(Options.make(["Ana", "Ben"], **rules))
        game, _ = game.apply(StartHand(0))
        game, _ = game.apply(Play(Tile(3, 2)))
        return game

    try:
        after_the_lead().apply(Draw(10))
    except RecordContradiction as refusal:
        assert refusal.code == "draw_must_fit" and refusal.rule == "R7a"
    else:
        raise AssertionError("under R6 the record disproves that draw")
    game, outcome = after_the_lead(draw="any-time").apply(Draw(10))
    assert outcome.message == "Ben drew 10 tiles"
    assert game.hand is not None and game.hand.boneyard == 0
