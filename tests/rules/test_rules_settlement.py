"""Settling a hand: rounding (R13), subtract-own (R13), winner-takes (R13p), true reports (R14).

Blocked hands are built with ``blocked_at_once`` (lead, the next player draws the boneyard, all
pass) and ``hands_with``, which finds tiles the players could really hold with the pip totals
a test names; domino hands are real hands played tile by tile.
"""

from __future__ import annotations

import pytest
from rules_table import Table, blocked_at_once, example_c, hands_with, partners_hand

from webapp.rules import (
    Arm,
    Draw,
    EndHand,
    GameState,
    HandEnd,
    Options,
    Pass,
    Play,
    Report,
    StartHand,
    Status,
    Tile,
    round_to_five,
)

NAMES = ["Ana", "Ben", "Cy", "Di"]
T = Tile.parse
LEFT = Arm.LEFT


def options(players: int, preset: str = "seed", partnership: bool = False) -> Options:
    return Options.make(NAMES[:players], preset=preset, partnership=partnership)


# --- R13: rounding -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pips", "rounded"),
    [
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 5),
        (4, 5),
        (5, 5),
        (7, 5),
        (8, 10),
        (12, 10),
        (13, 15),
        (61, 60),
        (123, 125),
    ],
)
def test_r13_rounds_to_the_nearest_five(pips, rounded):
    assert round_to_five(pips) == rounded


# --- R13: subtract-own --------------------------------------------------------------------------


def test_r13_each_player_loses_their_own_pips_rounded():
    state = blocked_at_once(options(3), lead="3-2")  # Ana +5 for the lead
    settled, outcome = state.apply(hands_with(state, {0: 22, 2: 33}))
    result = outcome.result
    assert (result.end, result.went_out) == (HandEnd.BLOCKED, None)
    assert result.pips == (22, 163 - 55, 33)
    assert result.rounded == (20, 110, 35)
    assert result.settled == (-20, -110, -35)
    assert settled.scores == (5 - 20, -110, -35)  # scores may go below zero
    assert outcome.message == "Hand 1 settled: Ana -20, Ben -110, Cy -35"


def test_r13_partners_lose_from_their_team_each_rounded_on_their_own():
    state = blocked_at_once(options(4, partnership=True), lead="3-2")  # Ana & Cy +5
    result = state.apply(hands_with(state, {0: 22, 2: 22, 3: 27}))[1].result
    assert result.pips == (22, 92, 22, 27)
    assert result.rounded == (20, 90, 20, 25)
    # Ana and Cy: 20 + 20, not round(44) = 45. Ben and Di: 90 + 25.
    assert result.settled == (-40, -115)
    assert result.scores == (5 - 40, -115)


def test_r13_the_player_who_went_out_loses_nothing():
    table = example_c(Table.of("Ana", "Ben", "Cy"))
    assert table.settle().result.settled == (0, -15, -5)


def partners_out(preset: str) -> Table:
    return partners_hand(Table.of(*NAMES, partnership=True, preset=preset))


@pytest.mark.parametrize("preset", ["seed", "pagat"])
def test_partnership_hand_where_ana_goes_out(preset):
    table = partners_out(preset)
    state = table.state
    assert (state.hand.end, state.hand.went_out) == (HandEnd.DOMINO, 0)
    assert [" ".join(map(str, hand)) for hand in table.hands] == [
        "",
        "1-6",
        "6-5 4-4",
        "6-6 1-1",
    ]
    assert state.scores == (30, 15)


def test_r13_partnership_domino():
    result = partners_out("seed").settle().result
    assert result.pips == (0, 7, 19, 14)
    assert result.settled == (-(0 + 20), -(5 + 15))  # Cy's pips cost Ana & Cy though Ana went out
    assert result.scores == (10, -5)


# --- R13p: winner-takes -------------------------------------------------------------------------


def test_r13p_domino_scores_the_opponents_pips_rounded():
    table = example_c(Table.of("Ana", "Ben", "Cy", preset="pagat"))
    result = table.settle().result
    assert result.settled == (20, 0, 0)  # round(13 + 7)


def test_r13p_partnership_domino_scores_only_the_opponents():
    result = partners_out("pagat").settle().result
    assert result.settled == (20, 0)  # Ben 7 + Di 14 = 21 → 20; partner Cy's 19 do not count
    assert result.scores == (50, 15)


def test_r13p_block_the_fewest_pips_score_the_rest():
    state = blocked_at_once(options(3, "pagat"), lead="3-2")
    result = state.apply(hands_with(state, {0: 20, 2: 30}))[1].result
    assert result.pips == (20, 113, 30)
    assert result.settled == (145, 0, 0)  # round(113 + 30 = 143)


def test_r13p_block_partners_add_their_pips():
    state = blocked_at_once(options(4, "pagat", partnership=True), lead="3-2")
    result = state.apply(hands_with(state, {0: 30, 2: 30, 3: 15}))[1].result
    # Di holds the fewest alone, but Ana & Cy hold 60 against Ben & Di's 88 + 15 = 103.
    assert result.pips == (30, 88, 30, 15)
    assert result.settled == (105, 0)


@pytest.mark.parametrize(
    ("players", "partnership", "lead", "pips"),
    [
        pytest.param(4, False, "3-2", {0: 20, 2: 20, 3: 30}, id="four-players"),
        pytest.param(4, True, "3-3", {0: 40, 2: 41, 3: 21}, id="two-teams"),
    ],
)
def test_r13p_block_tie_for_fewest_nobody_scores(players, partnership, lead, pips):
    state = blocked_at_once(options(players, "pagat", partnership), lead=lead)
    settled, outcome = state.apply(hands_with(state, pips))
    assert sum(outcome.result.pips) == sum(t.pips for t in state.hand.unplayed)
    assert set(outcome.result.settled) == {0}
    assert settled.scores == state.scores


def test_r13p_block_tie_of_two_players_nobody_scores():
    # Ana leads 3-3; Ben draws 5 and plays 3-1; Ana draws the last 5; both pass: 13 tiles each.
    # Ana cannot have drawn 4 tiles without a 3 or a 1: the table confirmed it (R7a).
    actions = [StartHand(0), Play(T("3-3")), Draw(5), Play(T("3-1"), LEFT)]
    actions += [Draw(5, confirm=True), Pass(), Pass()]
    state = GameState.replay(options(2, "pagat"), actions)
    assert state.hand.held == (13, 13)
    settled, outcome = state.apply(hands_with(state, {0: 79}))
    assert outcome.result.pips == (79, 79)
    assert outcome.result.settled == (0, 0)
    assert settled.scores == state.scores == (0, 0)


def test_r13p_block_tie_of_two_in_three_players_halves_the_third():
    state = blocked_at_once(options(3, "pagat"), lead="3-2")
    result = state.apply(hands_with(state, {0: 30, 2: 30}))[1].result
    assert result.pips == (30, 103, 30)
    assert result.settled == (50, 0, 50)  # 103 // 2 = 51, rounded: 50 (not round(103) / 2)


def test_r13p_block_three_way_tie_nobody_scores():
    state = blocked_at_once(options(3, "pagat"), lead="0-0")
    result = state.apply(hands_with(state, {1: 56, 0: 56}))[1].result  # Ben: the 14 smallest
    assert result.pips == (56, 56, 56)
    assert result.settled == (0, 0, 0)


# --- R14: reports that are possible are accepted ----------------------------------------------


def test_r14_tiles_or_pips_settle_alike():
    table = example_c(Table.of("Ana", "Ben", "Cy"))
    over = table.state
    by_tiles = over.apply(table.reports())[0]
    by_pips = over.apply(EndHand.of({1: 13, 2: 7}))[0]
    mixed = over.apply(EndHand.of({0: 0, 1: Report(13), 2: table.hands[2]}))[0]
    assert by_tiles == by_pips == mixed


def test_r14_pips_need_not_be_the_true_ones_while_the_boneyard_has_tiles():
    """The app cannot see hands: any possible total is accepted (Ben could hold 6-6 6-5)."""
    over = example_c(Table.of("Ana", "Ben", "Cy")).state
    assert over.hand.boneyard == 6
    result = over.apply(EndHand.of({1: 23, 2: 0}))[1].result
    assert result.settled == (0, -25, 0)


def test_r14_after_a_block_reports_must_add_up_to_every_unplayed_pip():
    state = blocked_at_once(options(2), lead="3-2")
    assert state.hand.boneyard == 0
    result = state.apply(hands_with(state, {0: 40}))[1].result
    assert result.pips == (40, 123)


def test_settling_ends_the_hand_and_keeps_the_record():
    table = example_c(Table.of("Ana", "Ben", "Cy"))
    table.settle()
    state = table.state
    assert state.status is Status.AWAITING_START
    (result,) = state.results
    assert (result.number, result.scored, result.scores) == (1, (15, 0, 15), state.scores)
    assert state.hand_number == 1
