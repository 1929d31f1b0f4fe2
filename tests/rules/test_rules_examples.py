"""The worked examples A–F of RULES.md, play by play, through the public API."""

from __future__ import annotations

import pytest
from rules_table import Table, example_c, tiles

from tests import scripts
from webapp.rules import (
    Arm,
    Draw,
    EndHand,
    GameState,
    HandEnd,
    IllegalAction,
    ImpossibleReport,
    Options,
    Pass,
    Play,
    RecordContradiction,
    StartHand,
    Status,
    Tile,
)
from webapp.rules.audit import audit

LEFT, RIGHT, UP, DOWN = Arm.LEFT, Arm.RIGHT, Arm.UP, Arm.DOWN


def ends(left: int, right: int, up: int | None = None, down: int | None = None) -> dict[Arm, int]:
    found = {LEFT: left, RIGHT: right}
    if up is not None and down is not None:
        found |= {UP: up, DOWN: down}
    return found


def play(state: GameState, text: str, arm: Arm | None = None) -> GameState:
    return state.apply(Play(Tile.parse(text), arm))[0]


def played(start: GameState, steps: list[tuple[str, Arm | None]]) -> GameState:
    for text, arm in steps:
        start = play(start, text, arm)
    return start


# --- A. Non-double lead, spinner later (3 players) ----------------------------------------------


def steps(script: scripts.Script, seen: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
    """Each move of ``script`` (tile, arm) with what it leaves (``seen``, in the same order)."""
    return [(move.tile, move.arm, *after) for move, after in zip(script, seen, strict=True)]


# tile, arm (tests/scripts.py) → open ends, count, points, the breakdown a player reads
EXAMPLE_A = steps(
    scripts.EXAMPLE_A,
    [
        (ends(3, 2), 5, 5, "3 + 2 = 5"),  # 3-2
        (ends(3, 2), 7, 0, "3 + [2|2] 4 = 7"),  # 2-2 right
        (ends(3, 6, up=2, down=2), 9, 0, "3 + 6 = 9"),  # 2-6 right
        (ends(3, 6, up=4, down=2), 13, 0, "3 + 6 + 4 = 13"),  # 2-4 up
        (ends(1, 6, up=4, down=2), 11, 0, "1 + 6 + 4 = 11"),  # 3-1 left
        (ends(1, 6, up=4, down=2), 17, 0, "1 + [6|6] 12 + 4 = 17"),  # 6-6 right
        (ends(1, 6, up=4, down=2), 21, 0, "1 + [6|6] 12 + [4|4] 8 = 21"),  # 4-4 up
        (ends(1, 6, up=4, down=5), 26, 0, "1 + [6|6] 12 + [4|4] 8 + 5 = 26"),  # 2-5 down
        (ends(0, 6, up=4, down=5), 25, 25, "0 + [6|6] 12 + [4|4] 8 + 5 = 25"),  # 1-0 left
        (ends(0, 4, up=4, down=5), 17, 0, "0 + 4 + [4|4] 8 + 5 = 17"),  # 6-4 right
    ],
)


@pytest.fixture
def example_a() -> GameState:
    """Ana, Ben and Cy; Ana leads."""
    return GameState.new(Options.make(["Ana", "Ben", "Cy"])).apply(StartHand(leader=0))[0]


def a_after(state: GameState, steps: int) -> GameState:
    return played(state, [(tile, arm) for tile, arm, *_ in EXAMPLE_A[:steps]])


@pytest.mark.parametrize(
    ("step", "tile", "arm", "open_ends", "count", "points", "breakdown"),
    [(i, *row) for i, row in enumerate(EXAMPLE_A, start=1)],
    ids=[f"A{i}-{row[0]}" for i, row in enumerate(EXAMPLE_A, start=1)],
)
def test_example_a_step(example_a, step, tile, arm, open_ends, count, points, breakdown):
    before = a_after(example_a, step - 1)
    after, outcome = before.apply(Play(Tile.parse(tile), arm))
    layout = after.hand.layout
    assert layout.open_ends == open_ends
    assert (layout.count, outcome.count, outcome.points) == (count, count, points)
    assert outcome.breakdown == layout.breakdown == breakdown
    assert outcome.seat == (step - 1) % 3  # Ana, Ben, Cy in turn (R5)


def test_example_a_spinner_is_the_first_double_played(example_a):
    layout = a_after(example_a, len(EXAMPLE_A)).hand.layout
    assert layout.spinner == Tile(2, 2)
    assert len(layout.tiles) == 10


def test_example_a_scores(example_a):
    final = a_after(example_a, len(EXAMPLE_A))
    assert final.scores == (5, 0, 25)  # Ana's lead, then Cy's 1-0 at step 9
    assert final.status is Status.PLAYING


@pytest.mark.parametrize(
    ("steps", "tile", "arm", "code", "rule"),
    [
        (1, "2-1", UP, "no_spinner", "R9"),
        (2, "2-5", UP, "spinner_sides_open", "R10"),
        *((steps, "3-2", None, "already_played", "R1") for steps in range(1, 11)),
        (5, "2-3", RIGHT, "already_played", "R1"),
    ],
    ids=[
        "R9-step2-2-1-up-no-spinner-yet",
        "R10-step3-2-5-up-sides-not-covered",
        *(f"R1-step{steps + 1}-3-2-already-played" for steps in range(1, 11)),
        "R1-step6-2-3-flipped-already-played",
    ],
)
def test_example_a_illegal(example_a, steps, tile, arm, code, rule):
    before = a_after(example_a, steps)
    with pytest.raises(IllegalAction) as refused:
        before.apply(Play(Tile.parse(tile), arm))
    assert (refused.value.code, refused.value.rule) == (code, rule)
    assert before == a_after(example_a, steps)


def test_example_a_illegal_messages(example_a):
    with pytest.raises(IllegalAction, match=r"^there is no up end yet"):
        a_after(example_a, 1).apply(Play(Tile(2, 1), UP))
    with pytest.raises(IllegalAction, match=r"both its sides are covered.*2-2 has 1 of 2 covered"):
        a_after(example_a, 2).apply(Play(Tile(2, 5), UP))
    with pytest.raises(IllegalAction, match=r"^3-2 was already played$"):
        a_after(example_a, 1).apply(Play(Tile(3, 2)))


# --- B. Spinner lead ----------------------------------------------------------------------------

EXAMPLE_B = steps(
    scripts.EXAMPLE_B,
    [
        (ends(5, 5), 10, 10, "[5|5] 10 = 10"),  # 5-5
        (ends(3, 5), 13, 0, "3 + [5|5] 10 = 13"),  # 5-3 left
        (ends(3, 2, up=5, down=5), 5, 5, "3 + 2 = 5"),  # 5-2 right
        (ends(3, 2, up=0, down=5), 5, 5, "3 + 2 + 0 = 5"),  # 5-0 up
        (ends(3, 2, up=0, down=5), 7, 0, "3 + [2|2] 4 + 0 = 7"),  # 2-2 right
        (ends(3, 2, up=4, down=5), 11, 0, "3 + [2|2] 4 + 4 = 11"),  # 0-4 up
    ],
)


@pytest.fixture
def example_b() -> GameState:
    return GameState.new(Options.make(["Ana", "Ben"])).apply(StartHand(leader=0))[0]


@pytest.mark.parametrize(
    ("step", "tile", "arm", "open_ends", "count", "points", "breakdown"),
    [(i, *row) for i, row in enumerate(EXAMPLE_B, start=1)],
    ids=[f"B{i}-{row[0]}" for i, row in enumerate(EXAMPLE_B, start=1)],
)
def test_example_b_step(example_b, step, tile, arm, open_ends, count, points, breakdown):
    before = played(example_b, [(t, a) for t, a, *_ in EXAMPLE_B[: step - 1]])
    after, outcome = before.apply(Play(Tile.parse(tile), arm))
    assert after.hand.layout.open_ends == open_ends
    assert (after.hand.layout.count, outcome.points) == (count, points)
    assert outcome.breakdown == breakdown


def test_example_b_scores(example_b):
    final = played(example_b, [(tile, arm) for tile, arm, *_ in EXAMPLE_B])
    assert final.scores == (15, 5)  # Ana: 10 + 5; Ben: 5-0 up
    assert final.hand.layout.spinner == Tile(5, 5)


# --- C and D. Settling, with a real hand where Ana goes out ---------------------------------------


@pytest.fixture
def seed_c() -> Table:
    return example_c(Table.of("Ana", "Ben", "Cy"))


@pytest.fixture
def pagat_d() -> Table:
    return example_c(Table.of("Ana", "Ben", "Cy", preset="pagat"))


def test_example_c_hand_ends_when_ana_goes_out(seed_c):
    state = seed_c.state
    assert state.status is Status.HAND_OVER
    assert (state.hand.end, state.hand.went_out) == (HandEnd.DOMINO, 0)
    assert state.hand.held == (0, 2, 1)
    assert seed_c.hands == [[], tiles("1-1 6-5"), tiles("3-4")]
    assert state.hand.boneyard == 6
    assert state.scores == (15, 0, 15)  # points made during the hand
    assert state.hand.scored() == (15, 0, 15)


def test_example_c_settles_seed(seed_c):
    before = seed_c.state.scores
    outcome = seed_c.settle()
    result = outcome.result
    assert result.pips == (0, 13, 7)
    assert result.rounded == (0, 15, 5)
    assert result.settled == (0, -15, -5)  # Ana −0, Ben −15, Cy −5
    assert seed_c.state.scores == tuple(s + d for s, d in zip(before, (0, -15, -5), strict=True))
    assert outcome.message == "Hand 1 settled: Ana +0, Ben -15, Cy -5"
    assert seed_c.state.status is Status.AWAITING_START
    assert seed_c.state.next_leader == 0  # Ana leads the next hand (R3)
    assert outcome.next == "Start the next hand: Ana leads (R3)"


def test_example_c_pips_reports_settle_the_same(seed_c):
    state, outcome = seed_c.state.apply(EndHand.of({1: 13, 2: 7}))
    assert outcome.result.settled == (0, -15, -5)
    assert state == seed_c.state.apply(seed_c.reports())[0]


def test_example_c_ana_leads_next(seed_c):
    seed_c.settle()
    with pytest.raises(IllegalAction) as refused:
        seed_c.state.apply(StartHand(leader=1))
    assert (refused.value.code, refused.value.rule) == ("wrong_leader", "R3")
    assert refused.value.message == "Ana went out last hand, so Ana leads (R3)"
    assert seed_c.state.resolve(StartHand()) == StartHand()
    state, outcome = seed_c.state.apply(StartHand())
    assert (state.hand.leader, state.turn, outcome.message) == (0, 0, "Hand 2: Ana leads")


def test_example_d_settles_pagat(pagat_d):
    before = pagat_d.state.scores
    result = pagat_d.settle().result
    assert result.settled == (20, 0, 0)  # round(13 + 7 = 20); nobody loses
    assert pagat_d.state.scores == (before[0] + 20, before[1], before[2])
    assert pagat_d.state.next_leader == 0


# --- E: a pass the keeper can prove wrong (R7a) -------------------------------------------------

SIXES = "6-5 6-4 6-3 6-2 6-1 6-0"


@pytest.fixture
def example_e() -> Table:
    """Ana holds every 6; Ben and the boneyard hold none."""
    table = Table.of("Ana", "Ben")
    table.start(
        [f"6-6 {SIXES} 0-0 1-1", "5-5 5-4 5-3 5-2 5-1 5-0 4-4 4-3 4-2"],
        "4-1 4-0 3-3 3-2 3-1 3-0 2-2 2-1 2-0 1-0",
        leader=0,
    )
    return table


def test_example_e_ben_draws_the_boneyard_and_passes(example_e):
    example_e.play("6-6")
    assert example_e.draw(10) and example_e.state.hand.boneyard == 0
    assert example_e.pass_turn().message == "Ben passed"  # R7a: nothing proves him wrong


def test_example_e_anas_pass_is_refused_with_the_proof(example_e):
    example_e.play("6-6")
    example_e.draw(10)
    example_e.pass_turn()
    before = example_e.state
    with pytest.raises(RecordContradiction) as refused:
        before.apply(Pass())
    assert (refused.value.rule, refused.value.code, refused.value.confirmable) == (
        "R7a",
        "must_hold_fitting",
        True,
    )
    assert refused.value.message == (
        "Ana must hold a tile that fits, so cannot pass: 6-5, 6-4, 6-3, 6-2, 6-1 and 6-0 are "
        "not on the table; the boneyard is empty; Ben drew 10 tiles at move 2 and passed at "
        "move 3, so holds none of them (R7a)"
    )
    assert example_e.state is before and example_e.state.turn == 0  # nothing changed
    assert example_e.play("6-5", "left").message.startswith("Ana played 6-5")  # the truth


def test_example_e_the_table_confirms_and_the_audit_shows_the_conflict(example_e):
    example_e.play("6-6")
    example_e.draw(10)
    example_e.pass_turn()
    outcome = example_e.apply(Pass(confirm=True))  # an earlier entry may be the mistake
    assert (outcome.message, example_e.state.hand.end) == ("Ana passed", HandEnd.BLOCKED)
    found = audit(example_e.state.hand, example_e.reports().by_seat, ("Ana", "Ben"))
    (breach,) = found.certain
    assert (breach.seat, breach.kind, breach.rule) == (0, "pass", "R7")
    assert {str(seen.tile) for seen in breach.tiles} == set(SIXES.split())


def test_r7a_once_the_record_cannot_all_be_true_nothing_more_is_refused():
    # Ana leads 3-2; Ben draws the boneyard and passes; Cy's pass is disproved (the 12 tiles
    # with a 3 or a 2 cannot all be in Ana's 6), and confirmed. Ana's pass is then accepted.
    options = Options.make(["Ana", "Ben", "Cy"])
    state = GameState.replay(options, [StartHand(0), Play(Tile(3, 2)), Draw(7), Pass()])
    with pytest.raises(RecordContradiction):
        state.apply(Pass())
    state = state.apply(Pass(confirm=True))[0]
    state, outcome = state.apply(Pass())
    assert (outcome.message, state.hand.end) == ("Ana passed", HandEnd.BLOCKED)


# --- F: reports that cannot all be true (R14) ---------------------------------------------------

# 19 plays, no draws: Ana plays her seventh tile last; Ben keeps 0-0 and Cy 2-1.
F_HANDS = [
    "5-0 6-2 3-1 3-2 6-4 6-5 6-3",
    "5-1 2-0 4-0 3-0 4-3 4-4 0-0",
    "6-1 1-0 4-2 6-0 5-4 4-1 2-1",
]
F_BONEYARD = "6-6 5-5 5-3 5-2 3-3 2-2 1-1"
F_MOVES = [
    *("5-0", "5-1 left", "6-1 left", "6-2 left", "2-0 left", "1-0 right", "3-1 right"),
    *("4-0 left", "4-2 left", "3-2 left", "3-0 right", "6-0 right", "6-4 right"),
    *("4-3 left", "5-4 right", "6-5 right", "4-4 left", "4-1 left", "6-3 right"),
]


@pytest.fixture
def example_f() -> Table:
    table = Table.of("Ana", "Ben", "Cy").replay_hand(F_HANDS, F_BONEYARD, F_MOVES, leader=0)
    assert table.state.hand.went_out == 0 and table.state.hand.held == (0, 1, 1)
    assert Tile(0, 0) in table.state.hand.unplayed
    return table


def test_example_f_each_report_alone_is_possible(example_f):
    for seat in (1, 2):
        with_one = {seat: 0, 3 - seat: 3}  # the other holds 2-1
        assert example_f.state.apply(EndHand.of(with_one))[1].result.pips[seat] == 0


def test_example_f_both_zero_is_refused(example_f):
    before = example_f.state
    with pytest.raises(ImpossibleReport) as refused:
        before.apply(EndHand.of({1: 0, 2: 0}))
    assert (refused.value.rule, refused.value.code) == ("R14", "report_together")
    assert refused.value.message == "Ben and Cy both report 0 pips, but only 0-0 has none"
    assert example_f.state is before and before.status is Status.HAND_OVER


def test_example_f_the_true_reports_settle(example_f):
    assert example_f.settle().result.pips == (0, 0, 3)
