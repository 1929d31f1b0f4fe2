"""Dealing, seats, turns, drawing, passing, the end of a hand and who leads (R1–R7, R12, R3)."""

from __future__ import annotations

import random

import pytest
from rules_table import Table, blocked_at_once, example_c, hands_with

from webapp.rules import (
    Arm,
    Deal,
    Draw,
    GameState,
    HandEnd,
    Options,
    Pass,
    Play,
    StartHand,
    Status,
    Tile,
)

T = Tile.parse
NAMES = ["Ana", "Ben", "Cy", "Di"]


def started(players: int = 3, leader: int = 0, **rules: object) -> GameState:
    return GameState.new(Options.make(NAMES[:players], **rules)).apply(StartHand(leader))[0]


# --- R1: the deal ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deal", "players", "each"),
    [
        ("9-7-5", 2, 9),
        ("9-7-5", 3, 7),
        ("9-7-5", 4, 5),
        ("5", 2, 5),
        ("5", 3, 5),
        ("5", 4, 5),
        ("7-5-5", 2, 7),
        ("7-5-5", 3, 5),
        ("7-5-5", 4, 5),
    ],
    ids=lambda value: str(value),
)
def test_r1_hand_sizes(deal, players, each):
    options = Options.make(NAMES[:players], deal=deal)
    assert options.deal is Deal(deal)
    assert (options.hand_size, options.boneyard_size) == (each, 28 - each * players)
    hand = GameState.new(options).apply(StartHand(0))[0].hand
    assert hand.held == (each,) * players
    assert hand.boneyard == 28 - each * players
    assert len(hand.unplayed) == 28


def test_r1_the_default_deal_is_9_7_5():
    assert Options.make(NAMES[:2]).deal is Deal.STANDARD
    assert Deal.STANDARD.value == "9-7-5"


# --- R2: seats and teams -------------------------------------------------------------------------


def test_r2_turns_follow_the_seats():
    state = started(players=4, leader=2)
    seats = []
    for text, arm in [("3-2", None), ("2-6", Arm.RIGHT), ("3-1", Arm.LEFT), ("6-4", Arm.RIGHT)]:
        seats.append(state.turn)
        state = state.apply(Play(T(text), arm))[0]
    assert seats == [2, 3, 0, 1]


def test_r2_partners_sit_across_and_score_together():
    options = Options.make(NAMES, partnership=True)
    assert [options.side_of(seat) for seat in range(4)] == [0, 1, 0, 1]
    assert (options.side_name(0), options.side_name(1)) == ("Ana & Cy", "Ben & Di")
    state = GameState.new(options).apply(StartHand(2))[0]
    state, outcome = state.apply(Play(T("4-1")))  # Cy leads: 5 for Ana & Cy
    assert (outcome.seat, state.scores) == (2, (5, 0))
    state, outcome = state.apply(Play(T("1-6"), Arm.RIGHT))  # Di: 4 + 6 = 10 for Ben & Di
    assert (outcome.seat, outcome.points, state.scores) == (3, 10, (5, 10))


def test_r2_names_are_trimmed_and_kept_in_seat_order():
    options = Options.make(["  Ana ", "Ben  Bo", "Cy"])
    assert options.players == ("Ana", "Ben Bo", "Cy")


# --- R4, R5: leading and following ---------------------------------------------------------------


def test_r4_any_tile_can_be_led_and_play_moves_to_the_next_seat():
    state = started(players=3, leader=1)
    assert (state.turn, state.next_step()) == (1, "Ben leads")
    state, outcome = state.apply(Play(T("6-6"), seat=1))
    assert (outcome.message, outcome.next) == ("Ben led 6-6: [6|6] 12 = 12", "Cy to play")
    assert state.turn == 2


def test_r5_a_tile_that_fits_one_end_needs_no_end_named():
    state = started().apply(Play(T("3-2")))[0]
    state, outcome = state.apply(Play(T("2-4")))
    assert (outcome.breakdown, outcome.points) == ("3 + 4 = 7", 0)
    assert state.hand.layout.arm(Arm.RIGHT) == (T("2-4"),)


# --- R6, R7: drawing and passing -----------------------------------------------------------------


def test_r6_the_turn_stays_with_the_player_drawing():
    state = started().apply(Play(T("3-2")))[0]
    state, outcome = state.apply(Draw())
    assert (outcome.message, state.turn, state.hand.boneyard) == ("Ben drew a tile", 1, 6)
    assert outcome.next == "Ben to play, or draw again"
    state, outcome = state.apply(Draw(2))
    assert (outcome.message, state.turn, state.hand.held) == ("Ben drew 2 tiles", 1, (6, 10, 7))
    state, outcome = state.apply(Play(T("2-2"), Arm.RIGHT))
    assert state.turn == 2


def test_r6_r7_drawing_the_last_tile_then_passing():
    state = started().apply(Play(T("3-2")))[0]
    assert (state.can_draw, state.can_pass) == (True, False)
    state, outcome = state.apply(Draw(7))
    assert (state.can_draw, state.can_pass) == (False, True)
    assert outcome.next == "Ben to play or pass"
    state, outcome = state.apply(Pass())
    assert (outcome.message, outcome.next, state.turn) == ("Ben passed", "Cy to play", 2)


def test_r6_r7_nobody_draws_or_passes_before_the_lead():
    state = started()
    assert (state.can_draw, state.can_pass) == (False, False)


# --- R12: the end of a hand ----------------------------------------------------------------------


def test_r12_domino_ends_the_hand_at_once():
    table = example_c(Table.of("Ana", "Ben", "Cy"))
    state = table.state
    assert (state.status, state.hand.end, state.hand.went_out) == (
        Status.HAND_OVER,
        HandEnd.DOMINO,
        0,
    )
    assert state.turn is None
    assert (state.can_draw, state.can_pass) == (False, False)
    assert state.next_step() == "Ana went out: enter the pips left in each hand"


def test_r12_blocked_when_every_player_passes_in_turn():
    # Cy's pass is one the record disproves (R7a): the table confirms the passes.
    state = started().apply(Play(T("3-2")))[0].apply(Draw(7))[0]
    for _ in range(2):
        state = state.apply(Pass(confirm=True))[0]
        assert state.status is Status.PLAYING
    state, outcome = state.apply(Pass(confirm=True))
    assert (state.status, state.hand.end, state.hand.went_out) == (
        Status.HAND_OVER,
        HandEnd.BLOCKED,
        None,
    )
    assert outcome.next == "Blocked: nobody can play. Enter the pips left in each hand"


def test_r12_a_play_between_passes_starts_the_round_again():
    state = started().apply(Play(T("3-2")))[0].apply(Draw(7))[0]
    state = state.apply(Pass())[0].apply(Pass(confirm=True))[0]  # Ben, Cy (R7a: confirmed)
    state = state.apply(Play(T("2-1"), Arm.RIGHT))[0]  # Ana can play
    state = state.apply(Pass())[0].apply(Pass())[0]  # Ben, Cy
    assert state.status is Status.PLAYING
    state = state.apply(Pass())[0]  # Ana: now all three passed in turn
    assert state.hand.end is HandEnd.BLOCKED


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r12_blocked_needs_every_player(players):
    state = blocked_at_once(Options.make(NAMES[:players]), lead="3-2")
    passes = [move for move in state.hand.moves if move.kind == "pass"]
    assert [move.seat for move in passes] == [(1 + i) % players for i in range(players)]


# --- R3: who leads --------------------------------------------------------------------------------


def test_r3_the_player_who_went_out_leads_next():
    table = example_c(Table.of("Ana", "Ben", "Cy"))
    table.settle()
    assert table.state.next_leader == 0
    assert table.state.next_step() == "Start the next hand: Ana leads (R3)"
    state, outcome = table.state.apply(table.state.resolve(StartHand()))
    assert (state.turn, state.hand.number, outcome.message) == (0, 2, "Hand 2: Ana leads")
    assert table.state.apply(StartHand(0))[0] == state


def test_r3_after_a_block_the_leader_is_picked_again():
    options = Options.make(["Ana", "Ben", "Cy"])
    state = blocked_at_once(options, lead="3-2")
    settled = state.apply(hands_with(state, {0: 30, 2: 30}))[0]
    assert settled.next_leader is None
    assert settled.next_step() == "Start the next hand: pick the leader or draw lots (R3)"
    picked = {settled.resolve(StartHand()).leader for _ in range(200)}
    assert picked == {0, 1, 2}
    # The table may also draw lots and say who leads.
    assert settled.apply(StartHand(2))[0].turn == 2


def test_r3_the_random_pick_uses_secrets(monkeypatch):
    import webapp.rules.game as game

    state = GameState.new(Options.make(NAMES))
    monkeypatch.setattr(game.secrets, "randbelow", lambda n: n - 1)
    assert state.resolve(StartHand()) == StartHand(3)
    assert state.resolve(StartHand(1)) == StartHand(1)  # a leader already chosen stays
    assert state.resolve(Draw()) == Draw()


def test_r3_the_first_leader_can_be_given():
    state = GameState.new(Options.make(NAMES[:2]))
    assert state.next_leader is None
    assert state.apply(StartHand(1))[0].turn == 1


def test_random_hands_at_a_real_table_are_accepted():
    """A smoke test of the helper: whole hands of random legal play through the engine."""
    rng = random.Random(5)
    for players in (2, 3, 4):
        table = Table.of(*NAMES[:players])
        table.start_shuffled(rng, leader=0)
        table.play_out(rng)
        table.settle()
        assert table.state == table.replayed()
