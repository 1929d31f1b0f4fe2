"""The worked examples A–D of RULES.md, play by play, through the public API."""

from __future__ import annotations

import pytest
from rules_table import Table, example_c, tiles

from webapp.rules import (
    Arm,
    EndHand,
    GameState,
    HandEnd,
    IllegalAction,
    Options,
    Play,
    StartHand,
    Status,
    Tile,
)

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

# tile, arm → open ends, count, points, the breakdown a player reads
EXAMPLE_A = [
    ("3-2", None, ends(3, 2), 5, 5, "3 + 2 = 5"),
    ("2-2", RIGHT, ends(3, 2), 7, 0, "3 + [2|2] 4 = 7"),
    ("2-6", RIGHT, ends(3, 6, up=2, down=2), 9, 0, "3 + 6 = 9"),
    ("2-4", UP, ends(3, 6, up=4, down=2), 13, 0, "3 + 6 + 4 = 13"),
    ("3-1", LEFT, ends(1, 6, up=4, down=2), 11, 0, "1 + 6 + 4 = 11"),
    ("6-6", RIGHT, ends(1, 6, up=4, down=2), 17, 0, "1 + [6|6] 12 + 4 = 17"),
    ("4-4", UP, ends(1, 6, up=4, down=2), 21, 0, "1 + [6|6] 12 + [4|4] 8 = 21"),
    ("2-5", DOWN, ends(1, 6, up=4, down=5), 26, 0, "1 + [6|6] 12 + [4|4] 8 + 5 = 26"),
    ("1-0", LEFT, ends(0, 6, up=4, down=5), 25, 25, "0 + [6|6] 12 + [4|4] 8 + 5 = 25"),
    ("6-4", RIGHT, ends(0, 4, up=4, down=5), 17, 0, "0 + 4 + [4|4] 8 + 5 = 17"),
]


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

EXAMPLE_B = [
    ("5-5", None, ends(5, 5), 10, 10, "[5|5] 10 = 10"),
    ("5-3", LEFT, ends(3, 5), 13, 0, "3 + [5|5] 10 = 13"),
    ("5-2", RIGHT, ends(3, 2, up=5, down=5), 5, 5, "3 + 2 = 5"),
    ("5-0", UP, ends(3, 2, up=0, down=5), 5, 5, "3 + 2 + 0 = 5"),
    ("2-2", RIGHT, ends(3, 2, up=0, down=5), 7, 0, "3 + [2|2] 4 + 0 = 7"),
    ("0-4", UP, ends(3, 2, up=4, down=5), 11, 0, "3 + [2|2] 4 + 4 = 11"),
]


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
